"""`(take n (sort ...))` and `(take n (sort-by ...))` with a literal count n >= 1 find
only the first n of the order (`ordering.take_sort_by`, a heap selection when n is small):
the same values, errors and error positions as the full sort followed by `take`."""

from __future__ import annotations

import random
from operator import itemgetter

import pytest

import ptc_compiler
from ptc_compiler import run
from ptc_runtime.builtins.keyed import natural_sorted
from tests.outcomes import outcome

ATOMS = ["1", "2", "2.5", "-1", "0", '"a"', '"b"', '"B"', ":k", "nil", "true", "##NaN", "[1]"]
KEYFNS = [":p", '"p"', ":q", "(fn [m] (:p m))", "[:p]", "count", "identity"]
COMPARATORS = ["", " <", " >", " :asc", " :desc", " compare", " (fn [a b] (> a b))", " :x"]


def _items(rnd: random.Random, uniform: bool) -> str:
    n = rnd.choice([0, 1, 3, 12, 40])
    pool = rnd.sample(ATOMS[:4], 2) if uniform else rnd.sample(ATOMS, 3)
    keys = ["p", "q"] if rnd.random() < 0.7 else ["q", "i"]  # :p in every map, or in none
    maps = ["{" + " ".join(f":{k} {rnd.choice(pool)}" for k in keys) + "}" for _ in range(n)]
    return "[" + " ".join(maps) + "]"


@pytest.mark.parametrize("seed", range(6))
def test_take_of_a_sort_agrees_with_the_full_sort(seed: int) -> None:
    rnd = random.Random(seed)
    fused = 0
    for i in range(80):
        items = _items(rnd, uniform=i % 3 != 0)  # mostly sortable, some mixed or NaN
        cmp = rnd.choice(COMPARATORS)
        n = rnd.choice([1, 2, 3, 10, 50])
        if rnd.random() < 0.5:
            inner = f"(sort-by {rnd.choice(KEYFNS)}{cmp} {items})"
        else:
            inner = f"(sort{cmp} (map :p {items}))"
        direct = f"\n(take {n} {inner})"
        # the same count through a local (as long as the literal, on the line above, so
        # that positions agree): `take` of the fully sorted vector
        name = "n" * len(str(n))
        plain = f"(let [{name} {n}]\n(take {name} {inner}))"
        assert "rt_take_sort" in ptc_compiler.compile(direct).python_source
        assert "rt_take_sort" not in ptc_compiler.compile(plain).python_source
        fused += 1
        assert outcome(direct, steps=False, output=False) == outcome(
            plain, steps=False, output=False
        ), direct
    assert fused == 80


def test_errors_point_at_the_sort() -> None:
    res = run("(take 3\n  (sort-by :p > 5))")
    assert res.error is not None and (res.error.line, res.error.column) == (2, 3)
    assert res.error.message.startswith("sort-by:")


@pytest.mark.parametrize(
    "src",
    [
        "(take 0 (sort [3 1 2]))",  # take of 0 or a negative count: the plain call
        "(take -1 (sort [3 1 2]))",
        "(take 2.0 (sort [3 1 2]))",
        "(let [n 2] (take n (sort [3 1 2])))",
        "(take 2 (reverse [3 1 2]))",
        "(take 2 (sort-by :a))",  # a wrong arity keeps its own error
    ],
)
def test_take_that_is_not_fused(src: str) -> None:
    assert "rt_take_sort" not in ptc_compiler.compile(src).python_source


def test_a_heap_selection_is_the_head_of_the_stable_sort() -> None:
    rnd = random.Random(7)
    for _ in range(200):
        items = [{"p": rnd.choice([1, 2, 2.0, 3, -1])} for _ in range(rnd.randint(0, 60))]
        keys = [x["p"] for x in items]
        for descending in (False, True):
            full = natural_sorted(items, keys, descending, "sort-by", itemgetter("p"))
            for limit in (1, 2, 5, 14):
                top = natural_sorted(items, keys, descending, "sort-by", itemgetter("p"), limit)
                assert [id(x) for x in top[:limit]] == [id(x) for x in full[:limit]]
