"""`str`: the fast concatenation gives the text and the errors of the part-by-part one."""

from __future__ import annotations

import math
import random
import sys
from collections.abc import Callable

import pytest

from ptc_runtime.builtins import strings_core
from ptc_runtime.collections import PSet
from ptc_runtime.errors import PtcError
from ptc_runtime.values import keyword

ATOMS: list[object] = [
    "",
    "abc",
    "x" * 30,
    0,
    -7,
    10**40,
    10**700,  # over the digit limit the test sets (the smallest Python allows)
    0.5,
    -0.0,
    1e-5,
    123.25,
    1e7,
    -3.5e9,
    math.nan,
    math.inf,
    -math.inf,
    None,
    True,
    False,
    keyword("k"),
    [1, "a"],
    {keyword("a"): 1.5},
    PSet.from_iterable([1]),
    "abcdef",
    123456,
    keyword("abcdefghijklmnop"),
    ["abcdef", "ghij"],
    # the edges of the `%s` fast path
    "%s",
    "100%",
    1e-3,
    -1e-3,
    0.000999,
    9999999.5,
    -9999999.5,
    10**18 - 1,
    10**18,
    -(10**18) + 1,
    -(10**18),
]


def _outcome(f: Callable[..., str], xs: tuple[object, ...]) -> str:
    try:
        return "ok " + f(*xs)
    except PtcError as err:
        return f"error {err.code}: {err.message}"


@pytest.mark.parametrize("bound", [10**7, 25])
def test_str_agrees_with_the_checked_concatenation(
    bound: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # with a small bound, parts and totals over it (and huge ints) raise in both
    # the invariant the fast path relies on, and a scaled-down copy of it for bound 25
    assert strings_core._FEW * strings_core._SHORT < strings_core.MAX_PRINT_CHARS
    monkeypatch.setattr(strings_core, "MAX_PRINT_CHARS", bound)
    if bound < 100:
        monkeypatch.setattr(strings_core, "_FEW", 2)
        monkeypatch.setattr(strings_core, "_SHORT", 6)
    # the interpreter's limit on printed digits (`str` of a longer int raises ValueError)
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(640)
    try:
        rnd = random.Random(bound)
        errors = 0
        for _ in range(3000):
            xs = tuple(rnd.choice(ATOMS) for _ in range(rnd.randint(0, 7)))
            want = _outcome(_part_by_part, xs)
            assert _outcome(strings_core.str_, xs) == want, xs
            errors += want.startswith("error")
    finally:
        sys.set_int_max_str_digits(limit)
    assert errors > (100 if bound < 100 else 10)


def test_str_of_a_long_int_without_a_digit_limit_is_bounded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a host may lift the digit limit: a long printed int then counts toward the bound
    # (scaled down, keeping the invariant `_FEW * _SHORT < MAX_PRINT_CHARS`)
    monkeypatch.setattr(strings_core, "MAX_PRINT_CHARS", 5000)
    monkeypatch.setattr(strings_core, "_FEW", 2)
    monkeypatch.setattr(strings_core, "_SHORT", 50)
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        assert strings_core.str_(1, 10**4000) == "11" + "0" * 4000
        with pytest.raises(PtcError) as err:
            strings_core.str_(10**3000, 10**3000)  # two parts: only their length tells
        assert err.value.code == "memory_exceeded"
    finally:
        sys.set_int_max_str_digits(limit)


def _part_by_part(*xs: object) -> str:
    # `str` as it was: one string argument as it is, else `_checked_str`
    if len(xs) == 1 and type(xs[0]) is str:
        return xs[0]
    return strings_core._checked_str(xs)


def test_common_parts_take_the_formatting_path(monkeypatch: pytest.MonkeyPatch) -> None:
    def unexpected(xs: tuple[object, ...]) -> str:
        raise AssertionError(f"part by part: {xs!r}")

    monkeypatch.setattr(strings_core, "_checked_str", unexpected)
    parts = ("sku-1", ",", 12.5, ",", 42, "%s", -0.25, 10**18 - 1)
    assert strings_core.str_(*parts) == "sku-1,12.5,42%s-0.25999999999999999999"
    # zeros print as repr does, and ints of any size within the digit limit
    assert strings_core.str_(0.0, "|", -0.0, "|", 10**30) == "0.0|-0.0|1" + "0" * 30
    assert strings_core.str_() == ""


class _NoFormats:
    def __getitem__(self, n: int) -> str:
        raise AssertionError("formatting path taken")


@pytest.mark.parametrize(
    "odd", [None, True, 1e7, 1e-4, -0.000999, math.nan, math.inf, keyword("k"), [1], "x" * 9000]
)
def test_other_parts_print_part_by_part(odd: object, monkeypatch: pytest.MonkeyPatch) -> None:
    want = _part_by_part("a", odd, 1)
    monkeypatch.setattr(strings_core, "_FORMATS", _NoFormats())
    assert strings_core.str_("a", odd, 1) == want
