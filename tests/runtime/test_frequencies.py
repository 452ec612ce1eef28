"""`frequencies` counts the raw items and checks the types of the few distinct keys
(`aggregation._counted_as_stored`) instead of every item's type first: the same map, key
objects and order as counting the stored keys (`to_key`) of all items."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterator

import pytest

from ptc_runtime.builtins import aggregation
from ptc_runtime.builtins.aggregation import frequencies
from ptc_runtime.builtins.keyed import is_stored_plain
from ptc_runtime.collections import PSet, PVec, to_key
from ptc_runtime.values import Keyword, SymbolRef

NAN = math.nan


def reference(items: list[object]) -> dict[object, object]:
    """`frequencies` as it was: the types of all items first, then one count."""
    if not is_stored_plain(items):
        items = [to_key(x) for x in items]
    return dict(Counter(items))


def same(got: dict[object, object], want: dict[object, object]) -> bool:
    if len(got) != len(want):
        return False
    for (k1, v1), (k2, v2) in zip(got.items(), want.items(), strict=True):
        if type(k1) is not type(k2) or type(v1) is not type(v2) or v1 != v2:
            return False
        nans = type(k1) is float and k1 != k1 and k2 != k2
        if not (nans or k1 == k2):
            return False
    return True


POOLS: list[list[object]] = [
    ["a", "b", "", "ab", None, Keyword("a"), Keyword("b")],  # the rule's first case
    [2, 3, -1, 2.5, 3.0, 10**20, "a", None, Keyword("a")],  # numbers, none of them 0 or 1
    [0, 1, 0.0, -0.0, 1.0, 2, True, False, "a"],  # where booleans could merge
    [True, False, None, "x", 2],
    [NAN, float("nan"), 1.5, "n"],
    [PVec([1], 1), [1], [1.0], {"a": 1}, PSet.from_iterable([1]), "v", 1],
    [SymbolRef("x"), SymbolRef("x"), "x", Keyword("x")],
]


def _items(rnd: random.Random) -> list[object]:
    pool = rnd.choice(POOLS)
    if rnd.random() < 0.3:  # sometimes a mix of two pools
        pool = pool + rnd.choice(POOLS)
    return [rnd.choice(pool) for _ in range(rnd.choice([0, 1, 2, 5, 30]))]


def test_random_items_are_counted_as_their_stored_keys() -> None:
    rnd = random.Random(11)
    for _ in range(3000):
        items = _items(rnd)
        got, want = frequencies(items), reference(items)
        assert same(got, want), items
        assert same(frequencies(PVec(list(items), len(items))), want), items


@pytest.fixture
def full_checks(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """How often `frequencies` fell back to checking every item's type."""
    calls: list[int] = []

    def counting(items: list[object]) -> bool:
        calls.append(len(items))
        return is_stored_plain(items)

    monkeypatch.setattr(aggregation, "is_stored_plain", counting)
    yield calls


@pytest.mark.parametrize(
    "items",
    [
        ["a", "b", "a"],
        [Keyword("k"), None, "k", Keyword("k")],
        [2, 3, 2.5, -1, 10**30, "a"],  # numbers other than 0 and 1
        [],
    ],
)
def test_distinct_keys_decide(items: list[object], full_checks: list[int]) -> None:
    assert same(frequencies(items), reference(items))
    assert full_checks == []


@pytest.mark.parametrize(
    "items",
    [
        [1, True],  # counted as {1 2}: the boolean hides in the key 1
        [0.0, False, 2],
        [True, "a"],
        [[1], [1.0]],  # unhashable: counted again from the stored keys
        [SymbolRef("x")],  # not one of the kinds the rule knows
        [2, 1],
    ],
)
def test_all_items_are_checked_otherwise(items: list[object], full_checks: list[int]) -> None:
    assert same(frequencies(items), reference(items))
    assert full_checks != []


def test_a_boolean_merged_into_one_stays_apart() -> None:
    assert list(frequencies([1, True, 1.0]).items()) == [(1, 2), (to_key(True), 1)]
