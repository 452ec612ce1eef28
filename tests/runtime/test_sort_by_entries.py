"""`(sort-by val m)` / `(sort-by key m)` on a map read the entries' parts with a C-level
getter (`ordering._ENTRY_PARTS`): the same order, ties, errors and positions as calling
the builtin on every entry, with and without `take` of the first n."""

from __future__ import annotations

import random

import pytest

from ptc_compiler import api, pr_str
from ptc_runtime.builtins import ordering
from tests.outcomes import outcome

VALUES = ["1", "2", "2.0", "-1", "0", "3.5", '"a"', '"b"', "nil", ":k", "##NaN", "[1]"]
KEYS = [":a", ":b", ":c", '"d"', "1", "2.5", "true", "[1 2]", "nil", ":e", ":f"]
COMPARATORS = ["", " <", " >", " :asc", " :desc", " compare", " (fn [a b] (> a b))"]


def _map(rnd: random.Random) -> str:
    uniform = rnd.random() < 0.6
    pool = rnd.sample(VALUES[:6], 3) if uniform else rnd.sample(VALUES, 4)
    keys = rnd.sample(KEYS if rnd.random() < 0.3 else KEYS[:4] + KEYS[9:], rnd.randint(0, 6))
    return "{" + " ".join(f"{k} {rnd.choice(pool)}" for k in keys) + "}"


@pytest.mark.parametrize("seed", range(4))
def test_key_and_val_agree_with_calling_them(seed: int) -> None:
    rnd = random.Random(seed)
    for _ in range(120):
        part = rnd.choice(["key", "val"])
        cmp = rnd.choice(COMPARATORS)
        m = _map(rnd)
        n = rnd.choice([None, 1, 2, 10])
        # the builtin and a fn literal of the same width (so positions agree)
        direct = f"(sort-by {part}     {cmp} {m})"  # padded to the width of #({part} %)
        called = f"(sort-by #({part} %){cmp} {m})"
        if n is not None:
            direct, called = f"(take {n} {direct})", f"(take {n} {called})"
        got, want = outcome(direct, output=False), outcome(called, output=False)
        # the fn literal takes a step per entry; everything else must be the same
        assert got.split(" ", 2)[2] == want.split(" ", 2)[2], direct


def test_ties_keep_the_map_order() -> None:
    src = "(take 3 (sort-by val > {:a 1 :b 2 :c 2 :d 2 :e 1 :f 0 :g 2 :h 2 :i 2 :j 2 :k 2 :l 2}))"
    assert pr_str(api.run(src, native=True).value) == "[[:b 2] [:c 2] [:d 2]]"


def test_only_maps_and_the_two_builtins() -> None:
    assert set(ordering._ENTRY_PARTS.values()) == {0, 1}
    # a vector of entries is no map: the builtin is called on each item as before
    res = api.run("(sort-by val [[:a 2] [:b 1] 5])")
    assert res.error is not None and res.error.code == "type_error"
