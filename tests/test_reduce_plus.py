"""`(reduce + coll)` / `(reduce + init coll)` over a vector of plain numbers folds in C
(`sequences._sum_numbers`: `sum` where it is a left fold, before 3.12): the same result
as adding one at a time, left to right (float rounding, `-0.0`, infinities, NaN, ints
past 64 bits, ints too large for float arithmetic), and the same errors."""

from __future__ import annotations

import functools
import math
import operator
import random
from typing import Any

import pytest

from ptc_compiler import pr_str, run
from ptc_runtime.builtins import sequences
from ptc_runtime.lookup import NOT_FOUND

NUMBERS: list[Any] = [0, 1, -1, 7, 2**62, 2**63, -(2**64), 10**30, 0.1, 0.2, 1e16, -1e16, 1.0]
NUMBERS += [-0.0, 0.0, 2.5, 1e308, -1e308, math.inf, -math.inf, math.nan, 3, 10**400]


def _same(a: object, b: object) -> bool:
    if type(a) is float and type(b) is float:
        return repr(a) == repr(b)  # -0.0 and nan too
    return type(a) is type(b) and a == b


def _fold(items: list[Any], start: Any = None) -> object:
    try:
        if start is None:
            return functools.reduce(operator.add, items)
        return functools.reduce(operator.add, items, start)
    except OverflowError:
        return "overflow"


@pytest.mark.parametrize("seed", range(6))
def test_sums_are_the_left_fold(seed: int) -> None:
    rnd = random.Random(seed)
    for _ in range(2000):
        pool = rnd.choice([NUMBERS, NUMBERS[:8], [*NUMBERS[8:13], -0.0], [-0.0, 0.0, 0]])
        items = [rnd.choice(pool) for _ in range(rnd.choice([1, 2, 3, 10, 300]))]
        start = rnd.choice([None, None, 0, -0.0, 0.5, 2**70])
        got = sequences._sum_numbers(*((items, NOT_FOUND) if start is None else (start, items)))
        want = _fold(items, start)
        assert (got is None) if want == "overflow" else _same(got, want), (items, start)


@pytest.mark.parametrize(
    "coll",
    [
        "[-0.0]",
        "[1 2.5 -0.0]",
        "[0.1 0.2 0.3]",
        "[9223372036854775807 1 0.5]",
        "[1 true]",
        '[1 "a"]',
        "[1e308 1e308 -1e308]",
        "[1 nil]",
    ],
)
def test_programs_agree_with_the_fold_one_at_a_time(coll: str) -> None:
    def outcome(src: str) -> tuple[object, ...]:
        res = run(src, timeout_ms=None)
        if res.ok:
            return ("ok", pr_str(res.value))
        assert res.error is not None
        return ("error", res.error.code, res.error.message)

    for init in ("", "0 ", "-0.0 "):
        fast = outcome(f"(reduce + {init}{coll})")
        # a fn that is not the builtin: the fold of `+` calls, one at a time
        slow = outcome(f"(reduce (fn [a b] (+ a b)) {init}{coll})")
        if fast[0] == "ok" or slow[0] == "ok":
            assert fast == slow, (init, coll)
        else:  # the same code; the message names `+` either way
            assert fast[1] == slow[1], (init, coll)
