"""`(map :k group)` over the groups of a large `group-by` takes per-group columns read in
input order (`builtins.grouped`): the same values, errors, positions and steps as plucking
each group on its own."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

import ptc_compiler
from ptc_compiler import optimize, run
from ptc_runtime import context
from ptc_runtime.builtins import grouped, keyed, sequences
from ptc_runtime.builtins.aggregation import group_by
from ptc_runtime.values import keyword
from tests.outcomes import outcome

PROGRAMS = [
    # the benchmark's shape: a sum per group
    """(->> data/xs (filter #(not= (:s %) "x")) (group-by :g)
     (map (fn [[g vs]] {:g g :total (reduce + (map :v vs))})))""",
    # two fields, through `for`
    "(for [[g vs] (group-by :g data/xs)] [g (map :v vs) (map :w vs)])",
    # a string field spec and a key fn
    '(map (fn [[g vs]] [g (map "v" vs)]) (group-by #(:g %) data/xs))',
    # the same group plucked twice, and a field of only some groups
    "(map (fn [[g vs]] [(map :v vs) (count (map :v vs))]) (group-by :g data/xs))",
    "(map (fn [[g vs]] (if (odd? (count vs)) (map :v vs) g)) (group-by :g data/xs))",
    # another large group-by between the plucks (the remembered one changes each time)
    "(map (fn [[g vs]] [(map :v vs) (count (group-by :w data/xs))]) (group-by :g data/xs))",
    # an equal vector that is not the group, and vals
    "(map (fn [vs] (map :v (into [] vs))) (vals (group-by :g data/xs)))",
    "(apply + (mapcat (fn [vs] (map :v vs)) (vals (group-by :g data/xs))))",
    # the field passed to group-by by the lowering (rt_group_by_field), and its errors
    "(mapv (fn [[_ vs]] (let [w (map :w vs)] [(map :v vs) w])) (group-by :g data/xs))",
    "(map (fn [[g vs]] (reduce + (map :v vs))) (group-by :g data/n))",
    "(map (fn [[g vs]] (map :v vs)) (group-by #(str (:g %) (:s %)) data/xs))",
    "(map (fn [[g vs]] (map :v vs)) (group-by #(+ 1 (:w %)) data/xs))",
    "(map (fn [[g vs]] (map :v vs)) (group-by data/n data/xs))",
    '(map (fn [[g vs]] [g (map :v vs)]) (group-by #(= (:s %) "x") data/xs))',
    "(map (fn [[g vs]] [g (map :v vs)]) (group-by #(vector (:s %)) data/xs))",
]


def _value(rnd: random.Random) -> Any:
    return rnd.choice([1, 2.5, -0.0, 10**30, None, "s", True, [1]])


def _data(rnd: random.Random) -> list[Any]:
    n = rnd.choice([10, 600, 1500])
    groups = rnd.choice([1, 3, 4, 40, 300, 1000])
    numbers_only = rnd.random() < 0.5
    out: list[Any] = []
    for _ in range(n):
        item: Any = {"g": f"g{rnd.randrange(groups)}", "s": rnd.choice("xyz")}
        if numbers_only:
            item["v"] = rnd.choice([1, 2.5, -0.0, 1e308, 3])
        elif rnd.random() < 0.9:
            item["v"] = _value(rnd)
        if rnd.random() < 0.3:
            item["w"] = _value(rnd)
        if rnd.random() < 0.02:  # a keyword-keyed map from the program side
            item = {keyword(k): v for k, v in item.items()}
        out.append(item if rnd.random() < 0.995 else rnd.choice([None, 5, "v"]))
    return out


def _outcome(src: str, data: dict[str, Any]) -> str:
    return outcome(src, output=False, data=data, timeout_ms=None)


@pytest.fixture
def handed_out(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Counts the columns `Grouping.column` hands out."""
    count = [0]
    column = grouped.Grouping.column

    def counting(self: grouped.Grouping, field: object, group: list[object]) -> Any:
        col = column(self, field, group)
        count[0] += col is not None
        return col

    monkeypatch.setattr(grouped.Grouping, "column", counting)
    yield count


@pytest.mark.parametrize("seed", range(5))
def test_columns_agree_with_plucking_each_group(
    seed: int, handed_out: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    rnd = random.Random(seed)
    # groups are built (`test_group_columns` has the rule that builds none)
    with optimize.disabled("group-columns"):
        for _ in range(16):
            data = {"xs": _data(rnd), "n": rnd.choice([None, 5, "ab", {"g": 1}])}
            src = rnd.choice(PROGRAMS)
            got = _outcome(src, data)
            # the plain group-by, and the plain pluck
            with monkeypatch.context() as m, optimize.disabled("group-by-field"):
                m.setattr(sequences, "pluck", keyed.pluck)
                plain_src = src + " "  # a fresh compile under the patch (the cache is by text)
                assert "rt_group_by_field" not in ptc_compiler.compile(plain_src).python_source
                want = _outcome(plain_src, data)
            assert got == want, src
        assert handed_out[0] > 0


def test_the_benchmark_shape_takes_columns(handed_out: list[int]) -> None:
    xs = [{"g": f"c{i % 50}", "v": float(i)} for i in range(1000)]
    want = [sum(float(i) for i in range(g, 1000, 50)) for g in range(50)]
    # group-by told the field: every group takes its column (the group is read too, so
    # it is built: `test_group_columns` has the shape that builds no groups)
    src = """(->> data/xs (group-by :g)
                  (map (fn [[g vs]] (if (vector? vs) (reduce + (map :v vs)) 0))))"""
    assert "rt_group_by_field(" in ptc_compiler.compile(src).python_source
    res = run(src, data={"xs": xs})
    assert res.ok and res.value == want
    assert handed_out[0] == 50
    # through vals (the group read too), group-by is not told: the first plucks are plain
    # (grouped.MIN_ASKED)
    src = "(map (fn [vs] (if (vector? vs) (reduce + (map :v vs)) 0)) (vals (group-by :g data/xs)))"
    assert "rt_group_by_field" not in ptc_compiler.compile(src).python_source
    res = run(src, data={"xs": xs})
    assert res.ok and res.value == want
    assert handed_out[0] == 50 + 50 - (grouped.MIN_ASKED - 1)


@pytest.mark.parametrize(
    "src",
    [
        "(map (fn [[g vs]] (count vs)) (group-by :g data/xs))",
        "(map (fn [[g vs]] (map :v g)) (group-by :g data/xs))",
        "(map (fn [[g vs]] (map :v [vs])) (group-by :g data/xs))",
        "(map (fn [e] (map :v (second e))) (group-by :g data/xs))",
        "(map (fn [[vs g]] (map :v vs)) (group-by :g data/xs))",
        "(filter (fn [[g vs]] (map :v vs)) (group-by :g data/xs))",
        "(map (fn [[g vs]] (map #(:v %) vs)) (group-by :g data/xs))",
        "(map (fn [[g vs]] (map :v vs)) (sort-by :g data/xs))",
    ],
)
def test_group_by_is_told_only_a_plucked_field(src: str) -> None:
    assert "rt_group_by_field" not in ptc_compiler.compile(src).python_source


def _grouping(n: int, groups: int) -> tuple[context.RunContext, dict[Any, Any], list[Any]]:
    ctx = context.RunContext()
    token = context.install(ctx)
    try:
        items = [{"g": i % groups, "v": i} for i in range(n)]
        out: dict[Any, Any] = group_by(keyword("g"), items)
    finally:
        context.uninstall(token)
    return ctx, out, items


def test_small_group_bys_are_not_remembered() -> None:
    assert _grouping(grouped.MIN_ITEMS - 1, 10)[0].grouping is None
    assert _grouping(grouped.MIN_ITEMS, grouped.MIN_GROUPS - 1)[0].grouping is None
    assert _grouping(grouped.MIN_ITEMS, grouped.MIN_GROUPS)[0].grouping is not None
    # outside a run: nothing to keep, plucks are plain
    out: dict[Any, Any] = group_by(keyword("g"), [{"g": i % 9} for i in range(2000)])
    assert grouped.pluck(out[0], keyword("g")) == [0] * len(out[0])


def test_only_the_groups_themselves_take_columns() -> None:
    ctx, out, _items = _grouping(6400, 64)  # 64 groups: split at the second pluck
    grouping = ctx.grouping
    assert isinstance(grouping, grouped.Grouping) and grouping.trigger == 2
    v = keyword("v")
    assert grouping.column(v, list(out[0])) is None  # equal, not the group
    assert grouping.column(v, out[0]) is None  # first pluck of :v: plain
    assert grouping.column(v, out[1]) == list(range(1, 6400, 64))
    assert grouping.column(v, out[1]) is None  # handed out once
    assert grouping.column(v, out[0]) == list(range(0, 6400, 64))
    assert grouping.column(keyword("g"), out[5]) is None  # each field counts on its own
    assert grouping.column(keyword("g"), out[5]) == [5] * 100


def test_a_share_of_the_groups_is_read_plainly_first() -> None:
    ctx, out, _items = _grouping(64 * 100, 3200)
    grouping = ctx.grouping
    assert isinstance(grouping, grouped.Grouping)
    assert grouping.trigger == 3200 // grouped.ASKED_SHARE
    v = keyword("v")
    plain = [grouping.column(v, out[i]) for i in range(grouping.trigger - 1)]
    assert plain == [None] * (grouping.trigger - 1)
    assert grouping.column(v, out[3199]) == [3199, 6399]
