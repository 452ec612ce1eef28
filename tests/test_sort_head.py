"""The head of a natural-order sort without sorting the rest (`keyed._head_order`, used by
`(take n (sort ...))`/`(take n (sort-by ...))` when n is small), and the nil/NaN tests
of `keyed.natural_sorted` that run before it.

`_head_order` must give exactly the first `limit` of the stable sort: equal keys (2 and
2.0, 0 and -0.0, repeated strings) in their input order, whatever the order of the input
(ascending, descending, all equal). A key function that is no field read (no C-level
getter) now takes the same paths; nil keys, NaN and mixed types still go to
`natural_order`, with the same errors.
"""

from __future__ import annotations

import math
import random
from operator import itemgetter
from typing import Any

import pytest

import ptc_compiler
from ptc_runtime.builtins import keyed
from ptc_runtime.builtins.keyed import natural_order, natural_sorted
from ptc_runtime.errors import PtcError
from tests.outcomes import outcome

POOLS: list[list[Any]] = [
    [1, 2, 2.0, 3, -1, 0, -0.0, 0.0],  # equal keys of two types: order shows the stability
    [0.5, 1.5, 1.5, 2.5, 1e300, -1e300, math.inf, -math.inf],
    ["a", "b", "B", "", "ab", "a"],
    [True, False],
    [10**30, -(10**30), 1, 1.0, 7],
]


def _keys(rnd: random.Random, n: int) -> list[Any]:
    pool = rnd.choice(POOLS)
    keys = [rnd.choice(pool) for _ in range(n)]
    shape = rnd.random()
    if shape < 0.15:
        keys.sort(key=lambda k: (k, 0))  # already in order: the sample holds the head's end
    elif shape < 0.3:
        keys.sort(key=lambda k: (k, 0), reverse=True)
    elif shape < 0.35:
        keys = [keys[0]] * n  # all equal: every key is a candidate
    return keys


@pytest.mark.parametrize("seed", range(6))
def test_head_order_is_the_head_of_the_stable_sort(seed: int) -> None:
    rnd = random.Random(seed)
    for _ in range(150):
        n = rnd.choice([5, 9, 40, 300, 5000])
        keys = _keys(rnd, n)
        for descending in (False, True):
            full = sorted(range(n), key=keys.__getitem__, reverse=descending)
            for limit in {1, 2, 3, max(1, n // 5), max(1, n // 4 - 1)}:
                assert keyed._head_order(keys, limit, descending) == full[:limit], (keys, limit)


def test_the_head_of_many_with_a_narrow_sample() -> None:
    # one key per 48 sampled: the sample's 10th key is far below the 10th of all keys
    rnd = random.Random(3)
    keys = [rnd.randint(0, 10**6) / 8 for _ in range(100_000)]
    for descending in (False, True):
        want = sorted(range(len(keys)), key=keys.__getitem__, reverse=descending)[:10]
        assert keyed._head_order(keys, 10, descending) == want


@pytest.mark.parametrize("seed", range(4))
def test_natural_sorted_with_and_without_a_getter(seed: int) -> None:
    rnd = random.Random(seed)
    for _ in range(120):
        n = rnd.choice([0, 1, 6, 30, 200])
        pool = rnd.choice([*POOLS, [1, None, 2.5], [1, "a"], [1.0, math.nan], [2, None]])
        items = [{"p": rnd.choice(pool)} for _ in range(n)]
        keys = [x["p"] for x in items]
        for descending in (False, True):
            try:
                want: Any = [items[i] for i in natural_order(keys, descending, "sort-by")]
            except PtcError as err:
                want = err.message
            for getter in (itemgetter("p"), None):
                for limit in (None, 1, 3):
                    try:
                        got: Any = natural_sorted(items, keys, descending, "sort-by", getter, limit)
                    except PtcError as err:
                        got = err.message
                    if isinstance(want, str) or isinstance(got, str):
                        assert got == want
                    else:  # the same maps (by identity) in the same order, up to `limit`
                        assert list(map(id, got[:limit])) == list(map(id, want[:limit]))


@pytest.mark.parametrize(
    "keys",
    [
        [1.0, 2.0, math.nan],
        [math.nan],
        [math.inf, -math.inf],  # a NaN sum without a NaN key
        [math.inf, -math.inf, math.nan],
        [10**400, 1.5],  # the sum overflows
        [10**400, 1.5, math.nan],
        [1, 2, 3],
        [1.5, 2**60, -0.0],
    ],
)
def test_has_nan_is_any_key_not_equal_to_itself(keys: list[Any]) -> None:
    assert keyed._has_nan(keys) == any(k != k for k in keys)


def _records(n: int, seed: int) -> list[dict[str, Any]]:
    rnd = random.Random(seed)
    return [
        {"p": rnd.choice([1, 2, 2.0, 3.5, -0.0, 0]), "s": f"s{rnd.randint(0, 9)}", "i": i}
        for i in range(n)
    ]


@pytest.mark.parametrize(
    "inner",
    [
        "(sort-by :p > data/xs)",
        "(sort-by :p data/xs)",
        "(sort-by :p < data/xs)",
        "(sort-by :s :desc data/xs)",
        "(sort-by (fn [x] (:p x)) > data/xs)",  # no C-level getter
        "(sort-by #(* 2 (:p %)) data/xs)",
        "(sort > (map :p data/xs))",
        "(sort (map :s data/xs))",
        "(sort-by :q data/xs)",  # nil keys: natural_order
        '(sort-by :p > (conj data/xs {:p "x"}))',  # mixed: the compare error
        "(sort-by :p (conj data/xs {:p ##NaN}))",  # NaN error
    ],
)
@pytest.mark.parametrize("n", [3, 10])
def test_take_of_a_sort_of_host_records_agrees_with_the_full_sort(inner: str, n: int) -> None:
    data = {"xs": _records(400, n)}
    direct = f"\n(take {n} {inner})"
    name = "n" * len(str(n))
    plain = f"(let [{name} {n}]\n(take {name} {inner}))"
    assert "rt_take_sort" in ptc_compiler.compile(direct).python_source
    for budget in (10**6, 1000):
        got = outcome(direct, data=data, max_steps=budget, steps=False)
        want = outcome(plain, data=data, max_steps=budget, steps=False)
        assert got == want, direct
