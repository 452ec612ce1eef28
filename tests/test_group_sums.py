"""A group read only as `(reduce + (map :f vs))` is summed while grouping: `rt_group_sums`
/ `rt_group_val_sums` (`fast.group_sums`; the lowering's `rules_grouping._summed_only`)
hand out each group's sum in place of its column where all values are plain numbers, and
`rt_sum_column` hands it back. Where the rule applies, where it must not, where the sums
are made and where the columns answer, and a randomized differential against the rule off
and against every group-by rule off: values, errors with line:column, output and steps."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

import ptc_compiler
from ptc_compiler import optimize
from ptc_runtime.builtins import grouped, keyed, sequences
from ptc_runtime.fast import filtered_groups, group_sums
from tests.outcomes import outcome

SUMS = "(->> data/xs (group-by :g)\n  (map (fn [[g vs]] [g (reduce + (map :v vs))])))"
#: the folds a group's sum stands for
FOLDS = ["(reduce + (map :v vs))", "(reduce + 0 (map :v vs))", "(apply + (map :v vs))"]
FOLDS.append("(sum-by :v vs)")


def _source(src: str) -> str:
    return ptc_compiler.compile(src).python_source


@pytest.mark.parametrize(
    "src",
    [
        SUMS,
        "(mapv (fn [[_ vs]] (reduce + (mapv :v vs))) (group-by :g data/xs))",
        "(map (fn [vs] (reduce + (map :v vs))) (vals (group-by :g data/xs)))",
        "(for [[g vs] (group-by :g data/xs) :let [t (reduce + (map :v vs))]] [g t])",
        "(doseq [[g vs] (group-by :g data/xs)] (println g (reduce + (map :v vs))))",
        '(->> data/xs (filter #(= (:s %) "a")) (group-by :g) (map (fn [[g vs]] (reduce + (map :v vs)))))',
        # the other folds of a group's numbers its sum stands for
        "(map (fn [[g vs]] (reduce + 0 (map :v vs))) (group-by :g data/xs))",
        "(map (fn [[g vs]] (apply + (mapv :v vs))) (group-by :g data/xs))",
        "(map (fn [[g vs]] {:g g :s (sum-by :v vs)}) (group-by :g data/xs))",
        # counted too: [sum, count] pairs
        "(map (fn [[g vs]] [(count vs) (reduce + (map :v vs))]) (group-by :g data/xs))",
        "(for [vs (vals (group-by :g data/xs)) :when (> (count vs) 1)] (sum-by :v vs))",
    ],
)
def test_the_rule_applies(src: str) -> None:
    code = _source(src)
    helpers = ("rt_group_sums(", "rt_group_val_sums(", "rt_group_sum_counts(")
    assert any(h in code for h in (*helpers, "rt_group_val_sum_counts("))
    folds = ("rt_sum_column(", "rt_reduce0_column(", "rt_apply_sum_column(", "rt_sum_by_column(")
    assert sum(fold in code for fold in folds) == 1


@pytest.mark.parametrize(
    "src",
    [
        # another field, a pluck by a fn (its steps), another fold
        "(map (fn [[g vs]] [(map :w vs) (reduce + (map :v vs))]) (group-by :g data/xs))",
        "(map (fn [[g vs]] (reduce + (map #(:v %) vs))) (group-by :g data/xs))",
        "(map (fn [[g vs]] (reduce + 0.0 (map :v vs))) (group-by :g data/xs))",
        "(map (fn [[g vs]] (reduce + 1 (map :v vs))) (group-by :g data/xs))",
        "(map (fn [[g vs]] (apply + 1 (map :v vs))) (group-by :g data/xs))",
        "(map (fn [[g vs]] (avg-by :v vs)) (group-by :g data/xs))",
        "(map (fn [[g vs]] (reduce max (map :v vs))) (group-by :g data/xs))",
        "(map (fn [[g vs]] (map :v vs)) (group-by :g data/xs))",
    ],
)
def test_the_rule_does_not_apply(src: str) -> None:
    code = _source(src)
    assert "rt_group_sum" not in code and "rt_group_val_sum" not in code


def test_a_sum_stands_for_itself() -> None:
    assert grouped.sum_column(2.5) == 2.5 and grouped.sum_column(-0.0) == -0.0
    assert repr(grouped.sum_column(-0.0)) == "-0.0" and grouped.sum_column(10**30) == 10**30
    assert grouped.sum_column([1, 2.5]) == 3.5
    for fold in (grouped.reduce0_column, grouped.apply_sum_column, grouped.sum_by_column):
        assert fold(2.5) == 2.5 and fold(7) == 7 and fold([1, 2.5]) == 3.5
    # a column of -0.0 alone: `(reduce + 0 [-0.0])` is 0.0, `(apply + [-0.0])` is `(+ -0.0)`,
    # -0.0 (as in Clojure)
    assert repr(grouped.reduce0_column([-0.0])) == "0.0"
    assert repr(grouped.apply_sum_column([-0.0])) == "-0.0"
    assert repr(grouped.apply_sum_column([-0.0, -0.0])) == "-0.0"


@pytest.mark.parametrize(
    "sums",
    [{"a": 1.5}, {"a": 0}, {"a": 0.0}, {"a": 1, "b": -0.0}, {1: 2.0}, {"a": float("nan")}],
)
def test_plain_sums(sums: dict[object, Any]) -> None:
    negative_zero = any(repr(v) == "-0.0" for v in sums.values())
    assert group_sums.plain_sums(sums) is (not negative_zero and 1 not in sums)


def _records(n: int) -> list[dict[str, Any]]:
    return [{"g": f"g{i % 7}", "v": i * 0.25 - 100, "w": i} for i in range(n)]


@pytest.mark.parametrize("counted", [False, True])
@pytest.mark.parametrize("fold", FOLDS)
@pytest.mark.parametrize(
    ("change", "summed"),
    [
        (None, True),
        ("ints", True),
        ("minus zero", False),  # a group of one -0.0: a sum from 0 would be 0.0
        ("zeros", True),  # sums of 0 and 0.0 stand in
        ("huge ints", True),
        ("nan", True),
        ("boolean", False),  # True + 1 is 2 in Python, +'s type error here
        ("boolean first", False),
        ("nil", False),
        ("string", False),  # a group of one string: reduce hands it back
        ("strings", False),  # never concatenated
        ("vectors", False),  # [1] + [2] would be [1 2]
        ("huge int and float", False),  # OverflowError: + converts otherwise
        ("no field", False),
        ("no key", False),
        ("unhashable", False),
        ("one", False),  # 1 next to true among the keys
    ],
)
def test_summed_or_columns(
    counted: bool, fold: str, change: str | None, summed: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    xs: list[Any] = _records(700)
    field = "v"
    if change == "ints":
        field = "w"
    elif change == "minus zero":
        xs.append({"g": "z", "v": -0.0, "w": 0})
    elif change == "zeros":
        xs += [{"g": "z", "v": 0.0, "w": 0}, {"g": "y", "v": -0.0, "w": 0}]
        xs += [{"g": "y", "v": 0.0, "w": 0}, {"g": "x", "v": 0, "w": 0}]
    elif change == "huge ints":
        field = "w"
        xs[3]["w"] = xs[10]["w"] = 10**40
    elif change == "nan":
        xs[5]["v"] = float("nan")
    elif change == "boolean":
        xs[50]["v"] = True
    elif change == "boolean first":
        xs.append({"g": "b", "v": False, "w": 0})
    elif change == "nil":
        xs[60]["v"] = None
    elif change == "string":
        xs.append({"g": "s", "v": "x", "w": 0})
    elif change == "strings":
        xs += [{"g": "s", "v": "x", "w": 0}, {"g": "s", "v": "y", "w": 0}]
    elif change == "vectors":
        xs += [{"g": "s", "v": [1], "w": 0}, {"g": "s", "v": [2], "w": 0}]
    elif change == "huge int and float":
        xs[7]["v"] = 10**400
    elif change == "no field":
        del xs[80]["v"]
    elif change == "no key":
        del xs[90]["g"]
    elif change == "unhashable":
        xs[100]["g"] = [1]
    elif change == "one":
        xs[1]["g"], xs[2]["g"] = 1, True
    if counted:  # [sum, count] pairs
        fold = f"(count vs) {fold}"
    src = SUMS.replace("(reduce + (map :v vs))", fold).replace(":v", f":{field}")
    handed: list[object] = []
    maker = "record_sum_counts" if counted else "record_sums"
    real = getattr(group_sums, maker)

    def spy(*args: Any) -> Any:
        handed.append(real(*args))
        return handed[-1]

    monkeypatch.setattr(group_sums, maker, spy)
    got = outcome(src, data={"xs": xs}, timeout_ms=None)
    assert (handed[0] is not None) is summed
    assert f"rt_group_sum{'_counts' if counted else 's'}(" in _source(src)
    with optimize.disabled("group-sums"):
        assert "rt_group_sum" not in _source(src + " ")
        assert got == outcome(src + " ", data={"xs": xs}, timeout_ms=None)


# ---------------------------------------------------------------- differential

BODIES = [
    "[k (reduce + (map :v vs))]",
    "(reduce + (mapv :v vs))",
    "[k (reduce + 0 (map :v vs))]",
    "(apply + (mapv :v vs))",
    "{:k k :s (sum-by :v vs)}",
    "(do (println k) (reduce + (map :v vs)))",
    "(let [t (reduce + (map :v vs))] (if (> t 0) t k))",
    "[k (count vs) (reduce + (map :v vs))]",
    "{:n (count vs) :s (sum-by :v vs) :c (count vs)}",
    "[k (count vs) (mapv :v vs)]",  # near miss: columns
]


def _program(rnd: random.Random) -> str:
    kf = rnd.choice([":g", ":g", ":g", ":h", "#(:g %)"])
    xs = rnd.choice(["data/xs", "data/xs", "data/n", '(filter #(not= (:s %) "x") data/xs)'])
    body = rnd.choice(BODIES)
    shape = rnd.choice(["map", "mapv", "for", "doseq", "vals", "pmap"])
    g = f"(group-by {kf}\n {xs})"
    if shape == "vals":
        return f"(map (fn [vs]\n (reduce + (map :v vs)))\n (vals {g}))"
    if shape == "for":
        return f"(for [[k vs] {g}]\n {body})"
    if shape == "doseq":
        return f"(doseq [[k vs] {g}]\n (println {body}))"
    form = f"({'mapv' if shape == 'mapv' else 'map'} (fn [[k vs]]\n {body})\n {g})"
    if shape == "pmap":
        return f"(pmap (fn [i] (count {form})) [1 2])"
    return form


def _data(rnd: random.Random) -> dict[str, Any]:
    n = rnd.choice([0, 3, 40, 700, 5000])
    groups = rnd.choice([1, 5, 90, 2000])
    pools: list[list[Any]] = [[1, 2.5, -0.0, 1e308], [1, 3, 10**30, -7], [0.1, 0.7, 1e16]]
    pools.append([1, 2.5, None, True, "s", [1], 10**400, float("nan")])
    values = rnd.choice(pools)
    odd = rnd.choice([0.0, 0.0, 0.0, 0.0005, 0.01])
    keys: list[Any] = rnd.choice([["a", "b", None, 2.5], [1, True, "a"], [0.0, 3], [[1], "a"]])
    xs: list[Any] = []
    for _ in range(n):
        x: dict[str, Any] = {"g": f"g{rnd.randrange(groups)}", "s": rnd.choice("xyz")}
        x["h"] = rnd.choice(keys)
        x["v"] = rnd.choice(values if rnd.random() >= odd else pools[3])
        if rnd.random() < odd:
            del x[rnd.choice(["g", "v", "h"])]
        xs.append(x)
    if xs and rnd.random() < 0.3:  # one odd value among plain ones
        x = xs[rnd.randrange(len(xs))]
        x["v"] = rnd.choice([True, False, None, "s", [1], 10**400, {}])
    if xs and rnd.random() < 0.05:
        xs[rnd.randrange(len(xs))] = rnd.choice([None, "s", 5])
    return {"xs": xs, "n": rnd.choice([None, 5, "ab", [1], {"g": 1}])}


def _item_budget(described: str) -> str:
    """`described` without what depends on a `pmap`'s timing: which of its (equal) items
    failed first, and the step budget that item started with (what the finished ones
    left)."""
    described = re.sub(r"item \d+ failed", "item failed", described)
    return re.sub(r"step budget of \d+ steps", "step budget", described)


@pytest.mark.parametrize("seed", range(8))
def test_agrees_with_the_rule_off(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    rnd = random.Random(seed)
    applied = made = 0
    real = group_sums.record_sums

    def spy(*args: Any) -> Any:
        nonlocal made
        sums = real(*args)
        made += sums is not None
        return sums

    def prefiltered(*args: Any) -> grouped.Prefiltered:
        nonlocal made
        made += 1
        return grouped.Prefiltered(*args)

    real_pairs = group_sums.record_sum_counts

    def spy_pairs(*args: Any) -> Any:
        nonlocal made
        pairs = real_pairs(*args)
        made += pairs is not None
        return pairs

    monkeypatch.setattr(group_sums, "record_sums", spy)
    monkeypatch.setattr(group_sums, "record_sum_counts", spy_pairs)
    monkeypatch.setattr(filtered_groups, "Prefiltered", prefiltered)
    for i in range(50):
        src = _program(rnd) + f"\n; {seed}/{i}"
        data = _data(rnd)
        n = len(data["xs"])
        budget = rnd.choice([10**7, 10**7, rnd.randint(1, n + 9), n + rnd.randint(1, 40)])
        code = _source(src)
        applied += "rt_group_sum" in code or "rt_group_val_sum" in code
        steps = "pmap" not in src  # a failing pmap's other workers stop anywhere
        # (so the budget an item starts with, what the finished ones left, varies too)
        got = outcome(src, data=data, max_steps=budget, timeout_ms=None, steps=steps)
        got = got if steps else _item_budget(got)
        with optimize.disabled("group-sums"):
            plain = src + " "
            assert "rt_group_sum" not in _source(plain) and "rt_group_val_sum" not in _source(plain)
            want = outcome(plain, data=data, max_steps=budget, timeout_ms=None, steps=steps)
        assert got == (want if steps else _item_budget(want)), src
        with monkeypatch.context() as m, optimize.disabled("group-columns", "group-by-field", "field-filter"):  # every group-by rule off: groups built
            m.setattr(sequences, "pluck", keyed.pluck)
            plain = src + "  "
            want = outcome(plain, data=data, max_steps=budget, timeout_ms=None, steps=steps)
        assert got == (want if steps else _item_budget(want)), src
    assert applied >= 30
    assert made >= 2
