"""`str`: the fast concatenation gives the text and the errors of the part-by-part one."""

from __future__ import annotations

import math
import random
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
    monkeypatch.setattr(strings_core, "format_int", _limited_format_int)
    rnd = random.Random(bound)
    errors = 0
    for _ in range(3000):
        xs = tuple(rnd.choice(ATOMS) for _ in range(rnd.randint(0, 7)))
        want = _outcome(_part_by_part, xs)
        assert _outcome(strings_core.str_, xs) == want, xs
        errors += want.startswith("error")
    assert errors > (100 if bound < 100 else 10)


def _part_by_part(*xs: object) -> str:
    # `str` as it was: one string argument as it is, else `_checked_str`
    if len(xs) == 1 and type(xs[0]) is str:
        return xs[0]
    return strings_core._checked_str(xs)


def _limited_format_int(x: int) -> str:
    # the digit limit of a real run, made reachable by a 40-digit number
    if abs(x) >= 10**30:
        raise PtcError("arithmetic_error", "integer too large to print")
    return str(x)
