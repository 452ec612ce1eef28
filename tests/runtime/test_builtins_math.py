"""Rounding, powers, conversions, quote aliases and bitwise builtins (target §9.1-9.2)."""

from __future__ import annotations

import pytest
from builtin_cases import cases, outcome

from ptc_compiler import run

MATH = [
    ("(floor 3.7)", "3"),
    ("(floor -3.2)", "-4"),
    ("(floor 5)", "5"),
    ("(floor ##Inf)", "##Inf"),
    ("(floor ##NaN)", "##NaN"),
    ("(floor nil)", "!type_error"),
    ("(ceil 1.2)", "2"),
    ("(ceil -1.2)", "-1"),
    ('(ceil "1")', "!type_error"),
    ("(round 2.5)", "3"),
    ("(round -2.5)", "-3"),
    ("(round 2.4)", "2"),
    ("(round 0.49999999999999994)", "0"),
    ("(round ##-Inf)", "##-Inf"),
    ("(round true)", "!type_error"),
    ("(trunc -3.9)", "-3"),
    ("(trunc 3.9)", "3"),
    ("(trunc 7)", "7"),
    ("(sqrt 16)", "4.0"),
    ("(sqrt -1)", "##NaN"),
    ("(sqrt ##Inf)", "##Inf"),
    ("(sqrt nil)", "!type_error"),
    ("(pow 2 10)", "1024.0"),
    ("(pow 0 -1)", "##Inf"),
    ("(pow -0.0 -1)", "##-Inf"),
    ("(pow -8 (/ 1 3))", "##NaN"),
    ("(pow 1 ##Inf)", "##NaN"),
    ("(pow ##NaN 0)", "1.0"),
    ("(pow 10 400)", "##Inf"),
    ("(pow -10 401)", "##-Inf"),
    ("(pow 2 nil)", "!type_error"),
    ("(double 3)", "3.0"),
    ("(double ##Inf)", "##Inf"),
    ('(double "3")', "!type_error"),
    ("(float 1)", "1.0"),
    ("(float ##-Inf)", "##-Inf"),
    ("(int 3.9)", "3"),
    ("(int -3.9)", "-3"),
    ("(int ##NaN)", "0"),
    ("(int ##Inf)", "!arithmetic_error"),
    ("(int 3000000000)", "!arithmetic_error"),
    (
        "[(long 3.9) (long -2.1) (long 3000000000) (long \\a) (long ##NaN)]",
        "[3 -2 3000000000 97 0]",
    ),
    ("(long 9223372036854775807)", "9223372036854775807"),
    ("(long 9223372036854775808)", "!arithmetic_error"),
    ("(long -9223372036854775809)", "!arithmetic_error"),
    ("(long 1e19)", "!arithmetic_error"),
    ("(long ##-Inf)", "!arithmetic_error"),
    ('(long "ab")', "!type_error"),
    ("(long nil)", "!type_error"),
    ('(int "A")', "65"),
    ('(int "AB")', "!type_error"),
    ("(int nil)", "!type_error"),
    ("(+' 1 2)", "3"),
    ("(-' 5 1)", "4"),
    ("(*' 2 3)", "6"),
    ("(inc' 1)", "2"),
    ("(dec' 1)", "0"),
    ("(inc' nil)", "!type_error"),
]

BITS = [
    ("(bit-and 12 10)", "8"),
    ("(bit-and 12 10 8)", "8"),
    ("(bit-or 12 10)", "14"),
    ("(bit-xor 12 10)", "6"),
    ("(bit-and-not 15 1 2)", "12"),
    ("(bit-not 0)", "-1"),
    ("(bit-shift-left 1 70)", "1180591620717411303424"),
    ("(bit-shift-right -16 2)", "-4"),
    ("(bit-set 0 3)", "8"),
    ("(bit-clear 15 0)", "14"),
    ("(bit-flip 5 1)", "7"),
    ("(bit-test 5 2)", "true"),
    ("(bit-test 5 1)", "false"),
    ("(bit-and 1.0 1)", "!type_error"),
    ("(bit-and nil 1)", "!type_error"),
    ("(bit-shift-left 1 -1)", "!type_error"),
    ("(bit-shift-left 1 10000000)", "!memory_exceeded"),
    ("(bit-set 0 100000000)", "!memory_exceeded"),
    ("(bit-shift-right 5 1.0)", "!type_error"),
]


@cases(MATH)
def test_math(src: str, want: str) -> None:
    assert outcome(src) == want


@cases(BITS)
def test_bitwise(src: str, want: str) -> None:
    assert outcome(src) == want


#: Variadic builtins with a least count (registry `variadic_min`) and that count. Their
#: Python functions take `*xs`, so a short call reached them unchecked and crashed on
#: `xs[0]` as an internal error (found by the bad-args sweep, fuzz/strategies/bad_args.py).
LEAST_COUNTS = [
    ("-", 1), ("-'", 1), ("/", 1), ("max", 1), ("min", 1), ("=", 1), ("==", 1),
    ("not=", 1), ("<", 1), (">", 1), ("<=", 1), (">=", 1),
    ("bit-and", 2), ("bit-or", 2), ("bit-xor", 2), ("bit-and-not", 2),
]  # fmt: skip


@pytest.mark.parametrize(("name", "least"), LEAST_COUNTS, ids=[n for n, _ in LEAST_COUNTS])
def test_too_few_arguments_is_an_arity_error(name: str, least: int) -> None:
    args = " ".join(["1"] * (least - 1))
    for src in (f"({name} {args})", f"(apply {name} [{args}])", f"(let [f {name}]\n  (f {args}))"):
        res = run(src)
        assert res.error is not None, src
        assert res.error.code == "arity_error", (src, res.error.message)
        canonical = name.rstrip("'")  # `-'` shares `-`'s function and reports that name
        assert res.error.message == (
            f"{canonical}: wrong number of arguments ({least - 1}), expected {least} or more"
        )
        assert res.error.line is not None
    assert outcome(f"({name} {' '.join(['1'] * least)})") != "!arity_error"
