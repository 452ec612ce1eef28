"""`keyed.pluck` (`(map :k coll)`, the keys of `group-by`, `sum-by` ...): one pass over maps
holding either spelling of the key, and each item's flexible read (decision 5) whatever
the items are."""

from __future__ import annotations

import random

import pytest
from builtin_cases import outcome

from ptc_runtime.builtins.keyed import pluck, pluck_getter
from ptc_runtime.collections import PMap, PSet, PVec
from ptc_runtime.lookup import get_flexible
from ptc_runtime.values import keyword


def _item(rnd: random.Random, spellings: list[object]) -> object:
    keys = rnd.sample(spellings, rnd.randint(0, len(spellings)))
    d: dict[object, object] = {k: rnd.choice([0, 1.5, None, "s", [1]]) for k in keys}
    others: list[object] = [
        None,
        7,
        "p",
        "text",
        keyword("p"),
        [1, 2],
        ["p", keyword("p")],
        PVec([keyword("p"), 2], 2),
        PSet.from_iterable([keyword("p"), "p"]),
        True,
    ]
    return rnd.choice([d, d, d, d, d, d, PMap.from_dict(d), rnd.choice(others)])


@pytest.mark.parametrize("seed", range(4))
def test_pluck_is_each_items_flexible_read(seed: int) -> None:
    rnd = random.Random(seed)
    spellings: list[object] = [keyword("p"), "p", keyword("q"), "a_b", "a-b", keyword("a-b")]
    keys: list[object] = [keyword("p"), "p", keyword("a-b"), "a-b", "q", "never-interned-x"]
    one_pass = 0
    for _ in range(1500):
        n = rnd.choice([0, 1, 2, 5, 20])
        uniform = rnd.random() < 0.5  # only maps, so the one pass can succeed
        items = [
            {s: rnd.random() for s in rnd.sample(spellings[:2], rnd.randint(1, 2))}
            if uniform
            else _item(rnd, spellings)
            for _ in range(n)
        ]
        k = rnd.choice(keys)
        got = pluck(items, k)
        assert got == [get_flexible(x, k) for x in items], (items, k)
        assert got == pluck_getter(items, k)[0]
        one_pass += uniform
    assert one_pass > 500


def test_exact_key_wins_in_the_one_pass() -> None:
    a, b = object(), object()
    items = [{keyword("p"): a, "p": b}, {"p": b}, {keyword("p"): a}]
    assert pluck(items, keyword("p")) == [a, b, a]
    assert pluck(items, "p") == [b, b, a]


def test_one_pass_item_failures_fall_back_to_flexible_reads() -> None:
    # a later item that is no map, or holds another spelling, after a good first item
    assert pluck([{"p": 1}, None, [1], "p"], keyword("p")) == [1, None, None, None]
    assert pluck([{"p": 1}, {"a_p": 2}], keyword("p")) == [1, None]
    assert pluck([{"a_b": 1}, {"a-b": 2}], keyword("a-b")) == [1, 2]


@pytest.mark.parametrize(
    ("src", "want"),
    [
        # a grown vector (PVec) as an item is no map: nil, never an internal error
        ("(map :a [(conj [1] 2)])", "[nil]"),
        ("(map :a [{:a 1} (conj [1] :a)])", "[1 nil]"),
        ("(sort-by :a [(conj [1] 2) (conj [3] 4)])", "[[1 2] [3 4]]"),
        ("(group-by :a [(conj [1] 2) {:a 1}])", "{nil [[1 2]], 1 [{:a 1}]}"),
        ('(map :a [{"a" 1} {:a 2 "a" 3} nil 5 "x" #{:a}])', "[1 2 nil nil nil :a]"),
    ],
)
def test_pluck_through_programs(src: str, want: str) -> None:
    assert outcome(src) == want
