"""`(map (fn [[k vs]] ... (map :f vs) ...) (group-by kf xs))` whose fn reads its group only
through that one pluck and `count` builds no groups: `rt_group_columns` hands each group's
column out in its place, and `(reduce + (map :f vs))` is `rt_sum_column` (the lowering rule
`rules_grouping.group_columns`, the helpers in `builtins.grouped`). Where the rule applies, where it
must not, and a randomized differential against the generic path: values, errors with
line:column, output and steps."""

from __future__ import annotations

import functools
import operator
import random
import re
from typing import Any

import pytest

import ptc_compiler
from ptc_compiler import optimize
from ptc_runtime import context
from ptc_runtime.builtins import grouped, keyed, sequences
from ptc_runtime.builtins.aggregation import group_by
from ptc_runtime.builtins.arithmetic import add
from ptc_runtime.collections import map_entries
from ptc_runtime.errors import PtcError
from ptc_runtime.fast import group_sums
from ptc_runtime.values import keyword
from tests.outcomes import outcome


def _source(src: str) -> str:
    return ptc_compiler.compile(src).python_source


@pytest.mark.parametrize(
    "src",
    [
        # the benchmark's shape
        "(->> data/xs (group-by :g) (map (fn [[g vs]] {:g g :t (reduce + (map :v vs))})))",
        "(mapv (fn [[g vs]] [g (count vs) (reduce + (mapv :v vs))]) (group-by :g data/xs))",
        "(map (fn [[_ vs]] (let [c (map :v vs)] [(count c) (count vs)])) (group-by :g data/xs))",
        "(map (fn [[g vs z]] [z (map :v vs)]) (group-by #(:g %) data/xs))",
        "(map (fn [[g vs]] (if (odd? (count vs)) (map :v vs) g)) (group-by :g data/xs))",
        "(map (fn [[g vs]] [(fn [] (count vs)) (map :v vs)]) (group-by :g data/xs))",
        "(map (fn [[g vs]] (reduce + 0 (map :v vs))) (group-by :g data/xs))",
        "(map (fn [[g vs]] (apply + (map :v vs))) (group-by :g data/xs))",
        # several fields: a tuple of columns; no field: the count
        "(map (fn [[g vs]] [(count vs) (map :v vs) (reduce + (map :w vs))]) (group-by :g data/xs))",
        "(map (fn [[g vs]] {:g g :n (count vs)}) (group-by :g data/xs))",
        "(map (fn [[g _]] g) (group-by :g data/xs))",
        # a field read by a literal fn: its column, with the loop's steps
        "(map (fn [[g vs]] (reduce + (map #(:v %) vs))) (group-by :g data/xs))",
        '(map (fn [[g vs]] [(mapv (fn [o] (get o "v")) vs) (map #(get % :w) vs)]) (group-by :g data/xs))',
        # a field of the first item: the first of its column
        '(map (fn [[g vs]] [(:v (first vs)) (get (first vs) "w") (-> vs first :s)]) (group-by :g data/xs))',
        # over the vals of a group-by: the groups alone
        "(map (fn [vs] (reduce + (map :v vs))) (vals (group-by :g data/xs)))",
        "(for [vs (vals (group-by :g data/xs)) :when (> (count vs) 1)] (sum-by :v vs))",
        # sum-by and avg-by of a field read its column too
        "(map (fn [[g vs]] {:s (sum-by :v vs) :m (avg-by :w vs) :n (count vs)}) (group-by :g data/xs))",
        # for and doseq, with later :let and :when clauses
        "(for [[g vs] (group-by :g data/xs)] [g (reduce + (map :v vs))])",
        "(for [[g vs] (group-by :g data/xs) :let [n (count vs)] :when (> n 1)] (map :v vs))",
        "(doseq [[g vs] (group-by :g data/xs)] (println (reduce + (map :v vs))))",
    ],
)
def test_the_rule_applies(src: str) -> None:
    code = _source(src)
    helpers = ("rt_group_columns(", "rt_group_vals(", "rt_group_sums(", "rt_group_val_sums(")
    helpers += ("rt_group_sum_counts(", "rt_group_val_sum_counts(")
    assert any(h in code for h in helpers)
    assert "b_group_by" not in code and "rt_group_by_field" not in code
    summed = "(reduce + (map" in src
    assert ("rt_sum_column(" in code) == summed


@pytest.mark.parametrize(
    "src",
    [
        # the group read otherwise
        "(map (fn [[g vs]] [(first vs) (reduce + (map :v vs))]) (group-by :g data/xs))",
        "(map (fn [[g vs]] [vs (map :v vs)]) (group-by :g data/xs))",
        "(map (fn [[g vs]] (map :v (seq vs))) (group-by :g data/xs))",
        "(map (fn [[g vs]] (sum-by #(:v %) vs)) (group-by :g data/xs))",
        "(map (fn [[g vs]] (map #(:v % 0) vs)) (group-by :g data/xs))",
        "(map (fn [[g vs]] (:v (second vs))) (group-by :g data/xs))",
        "(map (fn [[a b]] (:v a)) (vals (group-by :g data/xs)))",
        "(map (fn [vs] [vs (map :v vs)]) (vals (group-by :g data/xs)))",
        "(map (fn [vs] (map :v vs)) (keys (group-by :g data/xs)))",
        "(map (fn [[g vs]] (:v (first vs) 0)) (group-by :g data/xs))",
        "(map (fn [[g vs]] [(:v (first vs)) (map :v vs)]) (group-by :g data/xs))",
        "(map (fn [[g vs]] (map #(inc (:v %)) vs)) (group-by :g data/xs))",
        "(map (fn [[g vs]] (map #(get vs :v) vs)) (group-by :g data/xs))",
        "(map (fn [[g vs]] (map (fn f [o] (:v o)) vs)) (group-by :g data/xs))",
        "(map (fn [[g vs]] [(sum-by :v vs) (avg-by :v vs)]) (group-by :g data/xs))",
        # a field plucked twice, or a pluck evaluated more than once per group
        "(map (fn [[g vs]] [(map :v vs) (map :v vs)]) (group-by :g data/xs))",
        "(map (fn [[g vs]] ((fn [] (map :v vs)))) (group-by :g data/xs))",
        "(map (fn [[g vs]] (for [i [1 2]] (map :v vs))) (group-by :g data/xs))",
        "(map (fn [[g vs]] (loop [i 0] (if (< i 2) (recur (inc i)) (map :v vs)))) (group-by :g data/xs))",
        # the entry or the destructured vector read otherwise
        "(map (fn [[g vs :as e]] [e (map :v vs)]) (group-by :g data/xs))",
        "(map (fn [[g & r]] (map :v (first r))) (group-by :g data/xs))",
        "(map (fn [e] (map :v (second e))) (group-by :g data/xs))",
        # a string field, not the group, not a group-by, not a map
        '(map (fn [[g vs]] (map "v" vs)) (group-by :g data/xs))',
        "(map (fn [[vs g]] [(map :v vs) g]) (group-by :g data/xs))",
        "(map (fn [[g vs]] (map :v vs)) (sort-by :g data/xs))",
        "(filter (fn [[g vs]] (map :v vs)) (group-by :g data/xs))",
        # for: another binding after it, the group read in a clause
        "(for [[g vs] (group-by :g data/xs) x [1 2]] (map :v vs))",
        "(for [[g vs] (group-by :g data/xs) :when (seq vs)] (map :v vs))",
        "(for [e (group-by :g data/xs)] (map :v (second e)))",
    ],
)
def test_the_rule_does_not_apply(src: str) -> None:
    code = _source(src)
    assert "rt_group_columns" not in code and "rt_sum_column" not in code
    assert "rt_group_vals" not in code and "rt_group_sums" not in code


@pytest.mark.parametrize(
    ("src", "counts"),
    [
        ("(update-vals (group-by :g data/xs) count)", True),
        ("(-> (group-by #(:g %) data/xs) (update-vals count))", True),
        ("(update-vals (group-by :g data/xs) (fn [vs] (count vs)))", False),
        ("(update-vals (group-by :g data/xs) first)", False),
        ("(update-vals (sort-by :g data/xs) count)", False),
        ("(update-keys (group-by :g data/xs) count)", False),
    ],
)
def test_update_vals_count(src: str, counts: bool) -> None:
    assert ("rt_group_counts(" in _source(src)) == counts


@pytest.mark.parametrize("budget", range(1, 7))
def test_a_step_fails_where_it_would(budget: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The key fn's steps, then each group's: an exhausted budget fails in the same place
    (the element's step at `(vals ...)`, not at the group-by inside it)."""
    src = "(map (fn [vs]\n  (reduce + (map #(:v %) vs)))\n (vals (group-by #(:g %) data/xs)))"
    data = {"xs": [{"g": 1, "v": 1}, {"g": 2, "v": 2}, {"g": 1, "v": 3}]}
    assert "rt_group_vals" in _source(src)
    got = outcome(src, data=data, max_steps=budget, timeout_ms=None)
    with optimize.disabled("group-columns"):
        assert got == outcome(src + " ", data=data, max_steps=budget, timeout_ms=None)


def test_no_groups_are_built(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_lists(*args: object) -> None:
        raise AssertionError("a group was built")

    monkeypatch.setattr(grouped, "remember", no_lists)
    xs = [{"g": f"c{i % 50}", "v": float(i)} for i in range(1000)]
    src = "(->> data/xs (group-by :g) (map (fn [[g vs]] [g (count vs) (reduce + (map :v vs))])))"
    res = ptc_compiler.run(src, data={"xs": xs})
    want = [
        [f"c{g}", 20, functools.reduce(operator.add, (float(i) for i in range(g, 1000, 50)))]
        for g in range(50)
    ]
    assert res.ok and res.value == want
    assert res.steps == 50


# ---------------------------------------------------------------- the helpers


def _items(rnd: random.Random) -> list[Any]:
    out: list[Any] = []
    keys = ["a", "b", "c", 1, 1.0, True, None, [1], -0.0, 0]
    for _ in range(rnd.choice([0, 1, 5, 40, 700])):
        item: Any = {"g": rnd.choice(keys[: rnd.choice([1, 3, len(keys)])])}
        if rnd.random() < 0.9:
            item["v"] = rnd.choice([1, 2.5, -0.0, 10**400, None, "s", 1e308, 3])
        if rnd.random() < 0.5:
            item["w"] = rnd.choice([1, "s", None])
        out.append(item if rnd.random() < 0.98 else rnd.choice([None, 5, "v", [1]]))
    return out


@pytest.mark.parametrize("seed", range(4))
def test_group_columns_are_the_plucked_groups(seed: int) -> None:
    rnd = random.Random(seed)
    g, v, w = keyword("g"), keyword("v"), keyword("w")
    for _ in range(60):
        items = _items(rnd)
        entries: Any = map_entries(group_by(g, items))
        for fields in [(v,), (), (v, w), (w, v, g)]:
            got: Any = grouped.group_columns(g, items, *fields)
            if not fields:
                want = [[k, len(group)] for k, group in entries]
            elif len(fields) == 1:
                want = [[k, keyed.pluck(group, v)] for k, group in entries]
            else:
                want = [[k, tuple(keyed.pluck(group, f) for f in fields)] for k, group in entries]
            assert got == want
            # the same key objects, in the same order (1 and 1.0 group under the first seen)
            assert [type(e[0]) for e in got] == [type(e[0]) for e in want]


def _fold(col: list[object]) -> str:
    try:
        return repr(sequences.reduce_(add, col))
    except PtcError as e:
        return f"{e.code}: {e}"


def _summed(col: list[object]) -> str:
    try:
        return repr(grouped.sum_column(col))
    except PtcError as e:
        return f"{e.code}: {e}"


@pytest.mark.parametrize("seed", range(4))
def test_sum_column_is_reduce_plus(seed: int) -> None:
    rnd = random.Random(seed)
    atoms: list[object] = [1, 2, -3, 0.1, 0.2, 1e308, -0.0, 10**400, 2**63, None, "s", True]
    atoms += [[1], 1e-300]
    kinds = ["mixed", "numbers", "floats"]
    for _ in range(400):
        kind = rnd.choice(kinds)
        pool: list[object] = [0.1, 0.7, 1e16]
        if kind != "floats":
            pool = atoms if kind == "mixed" else atoms[:9]
        col = [rnd.choice(pool) for _ in range(rnd.randint(1, 12))]
        got, want = _summed(col), _fold(col)
        assert got == want, col
        if kind == "floats":  # a left fold, not Python's compensated sum
            assert got == repr(functools.reduce(operator.add, col))


def test_sum_column_folds_left_to_right() -> None:
    col: list[object] = [1e16, 1.0, 1.0, -1e16]
    # 0.0 (each 1.0 is lost to rounding); a compensated sum (3.12's `sum`) gives 2.0
    assert grouped.sum_column(col) == ((1e16 + 1.0) + 1.0) - 1e16 == 0.0


@pytest.mark.parametrize(
    "col",
    [
        [-0.0],  # summed from the first item: a start of 0 would give 0.0
        [-0.0, -0.0],
        [0, -0.0],
        [-0.0, 0],
        [2**62, 2**62, 0.5],  # past a machine int, then a float
        [2**53 + 1, 1.0],  # the int rounded once, as `+` rounds it
        [1.5, 2**63 + 1],
        [10**400, 1.0],  # too large for a float: `reduce`'s own error
        [1, True],  # a boolean: `reduce`'s error, not `sum`'s 2
        [True],
        [1.0, None],
        [[1], [2]],  # `sum` would concatenate
    ],
)
def test_sum_column_edges(col: list[object]) -> None:
    assert _summed(col) == _fold(col)


def test_outside_a_run() -> None:
    with pytest.raises(PtcError):
        context.current()
    assert grouped.group_columns(keyword("g"), [{"g": 1, "v": 2}], keyword("v")) == [[1, [2]]]


# ---------------------------------------------------------------- differential

BODIES = [
    "{:k k :total (reduce + (map F vs))}",
    "{:k k :n (count vs) :v (reduce + (map :v vs)) :w (mapv :w vs)}",
    "(let [n (count vs)]\n  [k n (map :a-b vs) (reduce + (map :v vs)) (map :w vs)])",
    "[k (count vs)]",
    "(do (println k) (count vs))",
    "k",
    "[k (count vs) (reduce + (map F vs))]",
    "(let [xs (map F vs)]\n  [k (count xs) (first xs)])",
    "(if (> (count vs) 2)\n  (reduce + (mapv F vs))\n  (do (println k) k))",
    "(do (println k (count vs))\n  (reduce + (map F vs)))",
    "[z (map F vs)]",
    "(reduce + (map F vs))",
    "[(fn [] (count vs)) (inc (reduce + (map F vs)))]",
    "{:s (sum-by F vs) :m (avg-by :w vs)}",
    "{:t (reduce + (map #(F %) vs)) :w (mapv (fn [o] (get o :w)) vs)}",
    '(do (println (count vs))\n  [(map #(get % "v") vs) (reduce + (mapv (fn [x] (F x)) vs))])',
    "[k (map #(:w % 0) vs)]",
    "{:f (F (first vs)) :t (reduce + (map :w vs)) :n (count vs)}",
    '[k (get (first vs) "v") (-> vs first :a-b)]',
    "(if (> (count vs) 1)\n  (avg-by F vs)\n  (sum-by :w vs))",
    # the rule applies, the sum does not
    "(reduce + 0 (map F vs))",
    "(apply + (map F vs))",
    "(reduce max (map F vs))",
    # near misses: the rule does not apply
    "[(first vs) (reduce + (map F vs))]",
    "[(map F vs) (reduce + (map F vs))]",
    "[(count vs) (map F vs) (mapv F vs)]",
    "[(sum-by F vs) (avg-by F vs)]",
    "[(map :v vs) (for [i [1]] (map :w vs))]",
    "((fn [] (reduce + (map F vs))))",
]
KEYFNS = [":g", ":g", ":h", '"g"', "(fn [x] (:g x))", "#(:h %)", "data/n", "[:g]", "count"]
COLLS = [
    "data/xs",
    '(filter #(not= (:s %) "x") data/xs)',
    "data/n",
    "nil",
    '[{:g 1 :v 2} {:g "1" :v 3}]',
]


def _program(rnd: random.Random, keyfns: list[str] = KEYFNS, colls: list[str] = COLLS) -> str:
    body = rnd.choice(BODIES).replace("F", rnd.choice([":v", ":v", ":w", ":a-b"]))
    pattern = "[k vs z]" if re.search(r"\bz\b", body) else rnd.choice(["[k vs]", "[k vs z]"])
    if not re.search(r"\bk\b", body):
        pattern = pattern.replace("k", "_")
    hof = rnd.choice(["map", "mapv", "for", "doseq", "update-vals", "vals"])
    kf, coll = rnd.choice(keyfns), rnd.choice(colls)
    if hof == "vals":  # the groups alone: bodies without the key
        body = rnd.choice([b for b in BODIES if not re.search(r"\b[kz]\b", b)])
        body = body.replace("F", rnd.choice([":v", ":w"]))
        vals = f"(vals (group-by {kf} {coll}))"
        if rnd.random() < 0.5:
            return f"({rnd.choice(['map', 'mapv'])} (fn [vs]\n  {body})\n {vals})"
        return f"(for [vs {vals} {rnd.choice(['', ':when (some? 1)'])}]\n  {body})"
    if hof == "update-vals":
        f = rnd.choice(["count", "count", "(fn [vs] (count vs))", "first"])
        return f"(-> (group-by {kf}\n {coll})\n (update-vals {f}))"
    if hof in ("map", "mapv"):
        return f"({hof} (fn [{pattern}]\n  {body})\n (group-by {kf} {coll}))"
    clauses = rnd.choice(["", "", ":let [c 2] :when (pos? c)", ":while (some? 1)"])
    if hof == "doseq":
        body = f"(println {body})"
    return f"({hof} [{pattern} (group-by {kf} {coll}) {clauses}]\n  {body})"


def _data(rnd: random.Random, records: bool = False) -> dict[str, Any]:
    n = rnd.choice([30, 700] if records else [0, 3, 30, 700])
    groups = rnd.choice([1, 4, 50, 400])
    value_sets: list[list[Any]] = [[1, 2.5, 3, -0.0], [0.1, 0.7, 1e16, 1e308]]
    value_sets.append([1, 2.5, None, "s", True, 10**400, [1]])
    values = rnd.choice(value_sets)
    # how often a field is missing and an item no map: often never (a record list, whose
    # fields are read in one pass: `grouped._record_groups`)
    missing, odd = rnd.choice([0.0, 0.05]), rnd.choice([0.0, 0.0, 0.005])
    if records:
        missing, odd = rnd.choice([0.0, 0.0, 0.0, 0.002]), rnd.choice([0.0, 0.0, 0.0, 0.002])
    # keys for :h: kept apart as they are; 1 or 0 (a boolean would join them), booleans,
    # an unhashable vector: those go the general way
    hs: list[list[Any]] = [["a", None, 2, 2.5], [3, "b", -1.5], [1, "a"], [True, 2], [0.0, "a"]]
    hs += [[1, 1.0, True, [1]], [True, 1, "a"], [1, True, "a"], [0, False, 2.5], [False, 0.0]]
    h = rnd.choice(hs)
    xs: list[Any] = []
    for _ in range(n):
        item: dict[str, Any] = {"g": f"g{rnd.randrange(groups)}", "s": rnd.choice("xyz")}
        item["h"] = rnd.choice(h)
        if rnd.random() >= missing:
            item["v"] = rnd.choice(values)
        if rnd.random() < 0.5 or not missing:
            item["w"] = rnd.choice(values)
        if rnd.random() < 0.3 or not missing:
            spelling = "a-b" if records or rnd.random() < 0.9 else "a_b"
            item[spelling] = rnd.choice(values)
        xs.append(item if rnd.random() >= odd else rnd.choice([None, 5, "v"]))
    n_value = rnd.choice([None, 5, "ab", {"g": 1}, [1]])
    return {"xs": xs, "n": n_value}


@pytest.mark.parametrize("seed", range(6))
def test_agrees_with_the_generic_path(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    _differential(random.Random(seed), seed, False, monkeypatch)


@pytest.mark.parametrize("seed", range(4))
def test_record_lists_agree_with_the_generic_path(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Lists of string-keyed maps grouped by a keyword: mostly read in one pass."""
    _differential(random.Random(100 + seed), seed, True, monkeypatch)


def _differential(
    rnd: random.Random, seed: int, records: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    applied = 0
    in_one_pass = [0]
    record_groups, record_sums = grouped._record_groups, group_sums.record_sums

    def counted(*args: Any) -> Any:
        entries = record_groups(*args)
        in_one_pass[0] += entries is not None
        return entries

    def summed(*args: Any) -> Any:
        sums = record_sums(*args)
        in_one_pass[0] += sums is not None
        return sums

    monkeypatch.setattr(grouped, "_record_groups", counted)
    monkeypatch.setattr(group_sums, "record_sums", summed)
    for i in range(40):
        if records:
            colls = ["data/xs", '(filter #(not= (:s %) "x") data/xs)']
            src = _program(rnd, [":g", ":g", ":h", ":a-b"], colls) + f"\n; r{seed}/{i}"
        else:
            src = _program(rnd) + f"\n; {seed}/{i}"
        data = _data(rnd, records)
        groups = len({x.get("g") for x in data["xs"] if isinstance(x, dict)})
        budget = rnd.choice([10**6, 10**6, rnd.randint(1, 8), max(1, groups - rnd.randint(0, 3))])
        code = _source(src)
        applied += any(f"rt_group_{h}" in code for h in ("columns", "counts", "vals", "sums"))
        got = outcome(src, data=data, max_steps=budget, timeout_ms=None)
        with monkeypatch.context() as m, optimize.disabled("group-columns", "group-counts", "group-by-field"):  # group-by, plucks and reduce as they are
            m.setattr(sequences, "pluck", keyed.pluck)
            plain_src = src + " "
            code = _source(plain_src)
            assert "rt_group_columns" not in code and "rt_group_by_field" not in code
            assert "rt_group_counts" not in code and "rt_group_vals" not in code
            assert "rt_group_sums" not in code and "rt_group_val_sums" not in code
            want = outcome(plain_src, data=data, max_steps=budget, timeout_ms=None)
        assert got == want, src
    assert applied >= 10
    assert in_one_pass[0] >= (2 if records else 0)
