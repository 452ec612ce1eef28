"""`(str ...)` with string literals among its parts lowers to `rt_str_format(fmt, parts...)`
(`rt_str_format1` ... `rt_str_format4` for one to four parts; `rules_operators.str_format`,
`strings_core.str_format`): the same text, errors (line:column) and steps as `str` of all
the parts."""

from __future__ import annotations

import contextlib
import math
import random
import re
import sys
from collections.abc import Callable, Iterator

import pytest

from ptc_compiler import api, optimize, pr_str
from ptc_runtime.builtins import strings_core
from ptc_runtime.errors import PtcError
from ptc_runtime.printer import format_float
from ptc_runtime.values import keyword


@contextlib.contextmanager
def plain_str() -> Iterator[None]:
    with optimize.disabled("str-format"):
        yield


def _outcome(src: str) -> str:
    res = api.run(src)
    head = f"steps {res.steps} "
    if res.ok:
        return head + "ok " + pr_str(res.value)
    assert res.error is not None
    err = res.error
    return head + f"error {err.kind} {err.code} {err.line}:{err.column}: {err.message}"


def _both(src: str) -> tuple[str, str, str]:
    new = _outcome(src + "\n; format")
    with plain_str():
        api.compile(src + "\n; plain")
        old = _outcome(src + "\n; plain")
    return new, old, api.compile(src + "\n; format").python_source


LITERALS = ['","', '""', '"%"', '"%s"', '"%%"', '"a%sb%"', '"x: "', '"\\n"']
VALUES = [
    *('"s"', '""', '"%s"', '"%d"', '(apply str (repeat 9000 "y"))', "0", "-7", "42"),
    *("999999999999999999", "1000000000000000000", "(reduce * (repeat 500 10))"),
    *("(reduce * (repeat 5000 10))", "1.5", "0.001", "-0.0", "1e7", "1e-5", "##NaN"),
    *("nil", "true", ":k", '[1 "a"]', "{:a 1.5}", "#{2}", "'sym", "0.0", "9999999.5"),
    *("-0.001", "-1e7", "0.000999", "##Inf", "##-Inf", "(- (reduce * (repeat 30 10)))"),
]


def _program(rnd: random.Random) -> str:
    names = ["a", "b", "c"]
    binds = " ".join(f"{n} {rnd.choice(VALUES)}" for n in names)
    parts = [
        rnd.choice(LITERALS) if rnd.random() < 0.5 else rnd.choice(names)
        for _ in range(rnd.randint(1, 7))
    ]
    return f"(let [{binds}]\n  (str {' '.join(parts)}))"


@pytest.mark.parametrize("seed", range(6))
def test_random_str_calls_agree_with_plain_str(seed: int) -> None:
    rnd = random.Random(seed)
    helpers: set[str] = set()
    formatted = no_literal = 0
    for _ in range(80):
        src = _program(rnd)
        new, old, code = _both(src)
        assert new == old, src
        found = re.findall(r"rt_str_format\d?(?=\()", code)
        no_literal += bool(re.search(r"rt_str_format\d\('(%s)+'", code))
        formatted += bool(found)
        helpers.update(found)
    assert formatted > 40
    assert {"rt_str_format", "rt_str_format1", "rt_str_format2", "rt_str_format3"} <= helpers
    assert no_literal > 5


@pytest.mark.parametrize("seed", range(3))
def test_random_str_calls_without_literals_agree_with_plain_str(seed: int) -> None:
    rnd = random.Random(100 + seed)
    for _ in range(60):
        n = rnd.randint(1, 5)
        binds = " ".join(f"x{i} {rnd.choice(VALUES)}" for i in range(n))
        parts = " ".join(f"x{rnd.randrange(n)}" for _ in range(n))
        src = f"(let [{binds}]\n  (str {parts}))"
        new, old, code = _both(src)
        assert new == old, src
        want = {1: "rt_str1(", 5: "b_str("}.get(n, f"rt_str_format{n}('{'%s' * n}'")
        assert want in code, (src, code)


@pytest.mark.parametrize(
    "src",
    [
        "(let [x 1] (str x x x x x))",  # no literal and more than four parts
        "(str)",
        '(str "a" "b")',  # nothing but literals
        '(str "a")',
        "(let [x 1] (str " + '"a" x ' * 40 + "))",  # more than 64 parts
        '(let [x 1] (str "' + "z" * 9000 + '" x))',  # a literal over the length limit
    ],
)
def test_not_formatted(src: str) -> None:
    assert "rt_str_format" not in api.compile(src).python_source


def test_formats_escape_percent() -> None:
    code = api.compile('(let [x 1] (str "100% of " x "%s"))').python_source
    assert "rt_str_format1('100%% of %s%%s', v1_x)" in code
    assert api.run('(let [x 1] (str "100% of " x "%s"))').value == "100% of 1%s"


def test_helper_per_part_count() -> None:
    for n in range(1, 8):
        parts = " ".join(f'"<" x{i}' for i in range(n))
        binds = " ".join(f"x{i} {i}" for i in range(n))
        src = f"(let [{binds}] (str {parts}))"
        code = api.compile(src).python_source
        name = f"rt_str_format{n}(" if n <= 4 else "rt_str_format("
        assert code.count("rt_str_format") == 1 and name in code, (n, code)
        assert api.run(src).value == "".join(f"<{i}" for i in range(n))


ATOMS: list[object] = [
    *("", "a", "%s", "%", "x" * 9000, "y" * 8192, "abcdefg", 0, 10**18, 10**18 - 1),
    *(-(10**18) + 1, 10**30, -(10**40), 10**700, 7, 0.5, 1e7, 1e-4, -0.0, 0.0),
    *(1e-3, -1e-3, 0.000999, -0.000999, 9999999.5, -9999999.5, -1e7, 123.25, 5e-324),
    *(float("nan"), math.inf, -math.inf, None, True, False, keyword("k"), [1], {"a": 1}),
]

#: Each helper the compiler may call with n parts: `str_format` and the unrolled one.
UNROLLED: dict[int, Callable[..., str]] = {
    1: strings_core.str_format1,
    2: strings_core.str_format2,
    3: strings_core.str_format3,
    4: strings_core.str_format4,
}


def _result(f: Callable[..., str], *xs: object) -> str:
    try:
        return "ok " + f(*xs)
    except PtcError as err:
        return f"error {err.code}: {err.message}"


def _part_by_part(*xs: object) -> str:
    # `str` as it was before its fast paths
    if len(xs) == 1 and type(xs[0]) is str:
        return xs[0]
    return strings_core._checked_str(xs)


@pytest.mark.parametrize(("bound", "digits"), [(10**7, 640), (25, 640), (25, 0), (10**7, 0)])
def test_runtime_format_is_str_of_the_parts(
    bound: int, digits: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # with a small bound (and `str`'s limits scaled down with it), parts and totals over it
    # raise; digits: the interpreter's limit on printed digits (0: lifted by the host)
    monkeypatch.setattr(strings_core, "MAX_PRINT_CHARS", bound)
    if bound < 100:
        monkeypatch.setattr(strings_core, "_FEW", 2)
        monkeypatch.setattr(strings_core, "_SHORT", 6)
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(digits)
    rnd = random.Random(bound + digits)
    literal_pool = ["", ",", "%", "%%", "%s", "a%sb", "x" * 20]
    outcomes = set()
    try:
        for _ in range(3000):
            n = rnd.randint(1, 6)
            values = [rnd.choice(ATOMS) for _ in range(n)]
            literals = [rnd.choice(literal_pool) for _ in range(n + 1)]
            fmt = "%s".join(lit.replace("%", "%%") for lit in literals)
            parts: list[object] = [literals[0]]
            for v, lit in zip(values, literals[1:], strict=True):
                parts += [v, lit]
            assert strings_core._literal_pieces(fmt) == tuple(literals)
            want = _result(_part_by_part, *parts)
            one = values[0]
            assert _result(strings_core.str1, one) == _result(_part_by_part, one), one
            assert _result(strings_core.str_, *parts) == want, (fmt, values)
            assert _result(strings_core.str_format, fmt, *values) == want, (fmt, values)
            if n in UNROLLED:
                assert _result(UNROLLED[n], fmt, *values) == want, (fmt, values)
            outcomes.add(want.split(":")[0] if want.startswith("error") else "ok")
    finally:
        sys.set_int_max_str_digits(limit)
    # every kind of outcome occurs: text, a text over the bound, an int too long to print
    kinds = {"ok"} | ({"error memory_exceeded"} if bound < 100 else set())
    assert outcomes == kinds | ({"error arithmetic_error"} if digits else set())


class _NoFormatting(str):
    """A format whose `%` must not run (the parts go to `str` one by one)."""

    def __mod__(self, other: object) -> str:
        raise AssertionError(f"formatted: {other!r}")


def _all_helpers(fmt: str, xs: tuple[object, ...]) -> list[str]:
    out = [strings_core.str_format(fmt, *xs)]
    if len(xs) in UNROLLED:
        out.append(UNROLLED[len(xs)](fmt, *xs))
    return out


@pytest.mark.parametrize(
    "odd",
    [
        *(None, True, False, 1e7, -1e7, 1e-4, 0.000999, -0.000999, 5e-324, math.nan),
        *(math.inf, -math.inf, keyword("k"), [1], {"a": 1}, "x" * 8193),
    ],
)
@pytest.mark.parametrize("at", range(4))
def test_other_parts_print_part_by_part(odd: object, at: int) -> None:
    for n in range(at + 1, 6):
        xs = tuple(odd if i == at else i for i in range(n))
        fmt = _NoFormatting("|".join(["%s"] * n))
        want = "|".join(map(strings_core.str_, xs))
        assert _all_helpers(fmt, xs) == [want] * (1 + (n in UNROLLED))


def test_common_parts_take_the_formatting_path(monkeypatch: pytest.MonkeyPatch) -> None:
    def unexpected(fmt: str, xs: tuple[object, ...]) -> str:
        raise AssertionError(f"part by part: {xs!r}")

    monkeypatch.setattr(strings_core, "_format_by_parts", unexpected)
    common = ["sku-1", "", "y" * 8192, 12.5, 0.0, -0.0, 1e-3, -1e-3, 9999999.5, -9999999.5]
    common += [0, 42, -7, 10**18, -(10**30), 10**4000]
    rnd = random.Random(5)
    for _ in range(500):
        xs = tuple(rnd.choice(common) for _ in range(rnd.randint(1, 6)))
        fmt = "%%".join(["%s"] * len(xs))
        want = "%".join(format_float(x, readable=False) if type(x) is float else str(x) for x in xs)
        assert _all_helpers(fmt, xs) == [want] * (1 + (len(xs) in UNROLLED))


def test_too_long_int_fails_as_str_does() -> None:
    big = 10 ** (sys.get_int_max_str_digits() + 5)
    for n in range(1, 6):
        for at in range(n):
            xs = tuple(big if i == at else "s" for i in range(n))
            for f in [strings_core.str_format, UNROLLED.get(n, strings_core.str_format)]:
                with pytest.raises(PtcError) as err:
                    f("%s," * n, *xs)
                assert err.value.code == "arithmetic_error"
                assert err.value.message == "integer too large to print"
