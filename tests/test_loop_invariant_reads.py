"""Reads out of loop-invariant locals are made once, before the loop (`rules_paths.hoist`).

In the body of a `for` loop (also the loops `map`/`mapv`/`filter`/... with a literal fn
become), `(:k m)`, `(get m k)` and the constant keys a literal `(get-in m [k ...])` path
starts with, read out of a local `m` that no part of the loop binds, become
`tN = rt_get_pathN(m, k, name, ...)` placed before the outermost such loop of the same
Python function, and the read is `tN` (the rest of a `get-in` path is read from it). The
same values, output, errors (line:column) and steps as reading in the loop."""

from __future__ import annotations

import ast
import contextlib
import random
import re
from collections.abc import Iterator

import pytest

from ptc_compiler import api, optimize
from tests.outcomes import outcome


@contextlib.contextmanager
def in_loop(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The reference: every read made where the program makes it."""
    with optimize.disabled("loop-invariant-read"):
        yield


def _code(src: str) -> str:
    return api.compile(src).python_source


def _hoisted(src: str) -> list[str]:
    """The reads assigned to temporaries right before a `for` statement (unparsed)."""
    out: list[str] = []
    for node in ast.walk(ast.parse(_code(src))):
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        for i, stmt in enumerate(body):
            if isinstance(stmt, ast.For):
                j = i - 1
                while j >= 0 and isinstance(body[j], ast.Assign):
                    value = body[j].value
                    if (
                        isinstance(value, ast.Call)
                        and isinstance(value.func, ast.Name)
                        and (value.func.id.startswith("rt_get_path") or value.func.id == "b_get")
                    ):
                        out.append(re.sub(r"\bk\d+\b", "k", ast.unparse(value)))
                    j -= 1
    return out


@pytest.mark.parametrize(
    ("src", "reads"),
    [
        ("(let [m data/m] (mapv (fn [x] (:a m)) data/xs))", ["rt_get_path1(v1_m, k, 'a')"]),
        ("(let [m data/m] (mapv (fn [x] (get m :a-b)) data/xs))", ["rt_get_path1(v1_m, k, None)"]),
        (
            '(let [m data/m] (filter (fn [x] (get m "b")) data/xs))',
            ["rt_get_path1(v1_m, 'b', None)"],
        ),
        ("(let [m data/m] (map (fn [x] (get m 0)) data/xs))", ["rt_get_path1(v1_m, 0, None)"]),
        (
            # in a vector: a bare path read of `%`'s fields is one call (`rules_pathmap`)
            "(let [m data/m] (map #(vector (get-in m [:a :b (:k %) :c])) data/xs))",
            ["rt_get_path2(v1_m, k, 'a', k, 'b')"],
        ),
        (
            '(let [m data/m] (map (fn [x] (get-in m [:a "b" 1 :c nil :d])) data/xs))',  # five at most
            ["rt_get_path5(v1_m, k, 'a', 'b', None, 1, None, k, 'c', None, None)"],
        ),
        # the outer element read in the inner loop: once per outer element
        ("(for [p data/xs q [1 2]] [(:a p) q])", ["rt_get_path1(v1_p, k, 'a')"]),
        ("(defn f [cfg xs] (map #(+ % (:rate cfg)) xs))", ["rt_get_path1(v1_cfg, k, 'rate')"]),
        # a constant default: the read with its default, once
        ("(let [m data/m] (mapv (fn [x] (:a m 0)) data/xs))", ["b_get(v1_m, k, 0)"]),
        ('(let [m data/m] (mapv (fn [x] (get m "a" :d)) data/xs))', ["b_get(v1_m, 'a', k)"]),
        (
            "(let [m data/m] (mapv (fn [x] (get-in m [:a :b] nil)) data/xs))",
            ["rt_get_path_or2(v1_m, k, 'a', k, 'b', None)"],
        ),
    ],
)
def test_invariant_reads_are_made_before_the_loop(src: str, reads: list[str]) -> None:
    assert _hoisted(src) == reads, _code(src)


def test_the_read_goes_before_the_outermost_loop_that_keeps_its_map() -> None:
    src = "(let [m data/m] (for [a data/xs] (for [b (:bs a)] [(:c m) (:d a)])))"
    code = _code(src)
    outer = code.index("for v2_a in")
    assert code.index("rt_get_path1(v1_m") < outer < code.index("rt_get_path1(v2_a"), code


def test_the_rest_of_a_path_is_read_from_the_hoisted_part() -> None:
    code = _code("(let [m data/m] (map #(vector (get-in m [:a (:k %) :c])) data/xs))")
    assert "rt_get_path1(v1_m, k" in code
    assert "rt_get_path2(t" in code, code  # the path from the temporary on


@pytest.mark.parametrize(
    "src",
    [
        "(mapv (fn [x] (:a x)) data/xs)",  # the loop's own element
        "(let [m data/m] (mapv #(:a m %) data/xs))",  # a default made in the loop
        "(let [m data/m] (mapv #(get m :a (inc %)) data/xs))",
        "(let [m data/m] (mapv #(get-in m [:a :b] %) data/xs))",
        "(let [m data/m] (mapv #(get m (:k %)) data/xs))",  # a key made in the loop
        "(let [m data/m] (mapv #(get-in m [(:k %) :a]) data/xs))",
        "(let [m data/m] (mapv #(get-in m [:a %] 0) data/xs))",  # a key made in the loop
        "(for [x data/xs :let [m (:m x)]] (:a m))",  # bound in the loop
        "(mapv (fn [x] (let [m (:m x)] (:a m))) data/xs)",
        "(for [x data/xs] (loop [m x i 0] (if (< i 2) (recur (:a m) (inc i)) m)))",
        "(let [m data/m] (mapv (fn [x] ((fn [] (:a m)))) data/xs))",  # another Python function
        "(let [m data/m] [(:a m) (get-in m [:a :b])])",  # no loop
        "(let [m data/m] (reduce (fn [acc x] (+ acc (:a m))) 0 data/xs))",  # in the factory
    ],
)
def test_where_reads_stay_in_the_loop(src: str) -> None:
    assert _hoisted(src) == [], _code(src)


def test_a_linear_reduce_is_a_loop_too() -> None:
    src = "(let [m data/m] (reduce (fn [acc x] (assoc acc x (get-in m [:a :b]))) {} data/xs))"
    assert _hoisted(src) == ["rt_get_path2(v1_m, k, 'a', k, 'b')"], _code(src)


def _made_by_factories(src: str) -> list[str]:
    """The reads a closure's factory `mkN(captured...)` makes before its `def`s."""
    out: list[str] = []
    for node in ast.walk(ast.parse(_code(src))):
        if isinstance(node, ast.FunctionDef) and node.name.startswith("mk"):
            for stmt in node.body:
                if not isinstance(stmt, ast.Assign):
                    break
                out.append(re.sub(r"\bk\d+\b", "k", ast.unparse(stmt.value)))
    return out


@pytest.mark.parametrize(
    ("src", "reads"),
    [
        (
            "(let [m data/m] (reduce (fn [acc x] (+ acc (:a m))) 0 data/xs))",
            ["rt_get_path1(v1_m, k, 'a')"],  # once (the fn's numeric and general bodies)
        ),
        (
            "(let [m data/m] (sort-by (fn [x] (get-in m [:w (:k x)])) data/xs))",
            ["rt_get_path1(v1_m, k, 'w')"],
        ),
        ("(defn f [m] (fn [x] [(get m x) (:a m x) (:b x)]))", []),  # none constant in m
        ("(let [m data/m] (reduce (fn [acc x] (+ acc (:a x))) 0 data/xs))", []),  # a param
        ("(defn f [m] (fn [x] (:a m 0)))", ["b_get(v1_m, k, 0)"]),
        ("(defn g [x] (:a x))\n(let [m data/m] (map (fn [x] [(g x) m]) [1]))", []),
    ],
)
def test_a_closure_reads_what_it_captures_when_made(src: str, reads: list[str]) -> None:
    assert _made_by_factories(src) == reads, _code(src)


@pytest.mark.parametrize(
    "src",
    [
        # keys Python conflates are different reads (true is not 1, false is not 0)
        "(let [m {1 :a true :b 0 :c false :d}] (mapv (fn [x] [(get m 1) (get m true)]) [0 1]))",
        "(let [m {0 :c false :d}] (mapv (fn [x] [(get m false) (get m 0)]) [0 1]))",
        "(let [m {1 :a true :b}] (reduce (fn [a x] (conj a [(get m true) (get m 1)])) [] [0]))",
        # the accumulator of a linear reduce changes in each step: read where it is
        "(reduce (fn [acc x] (assoc acc :n (+ x (:n acc)))) {:n 0} [1 2 3])",
        "(reduce (fn [acc x] (assoc acc x (get-in acc [:a :b]))) {:a {:b 1}} [1 2])",
        "(reduce (fn [acc x] (update acc :n + (count (for [y [1 2]] (:n acc))))) {:n 0} [1 2])",
        # a loop's variable changes between the runs of a for in its body
        "(loop [m {:a 1} i 0 out []] (if (< i 3) (recur {:a i} (inc i) "
        "(conj out (mapv (fn [x] (:a m)) [1 2]))) out))",
        # an empty loop still gives what it gives
        "(let [m nil] [(mapv (fn [x] (get-in m [:a :b])) []) (for [x nil] (:a m))])",
    ],
)
def test_reads_that_must_keep_their_place_or_value(
    src: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    got = outcome(src, max_steps=10**6)
    with in_loop(monkeypatch):
        want = outcome(src + " ", max_steps=10**6)
    assert got == want, src


# ------------------------------------------------------------------ randomized differential

MAPS = [
    '{:a {:b 1 "c" [5 {:d 2}]} "b" 2 :a-b 3 "k" {:c 4} 0 {:a 5} nil 6 true 7}',
    '{"a" {"b" 8 :c nil} "a_b" 9 :c [1 2]}',
    "(hash-map :a (hash-map :b 10) 1 2 false 3)",
    "data/m",
    "nil",
    "[{:a 1} {:b 2}]",
    '"abc"',
    "3",
]
READS = [
    "(:a m)",
    "(:b m)",
    "(:a-b m)",
    "(:c m 0)",
    "(get m :a)",
    '(get m "b")',
    "(get m 0)",
    "(get m nil)",
    "(get m true)",
    "(get m 1)",
    "(get m 1.0)",
    "(get m false)",
    "(get m :k 1)",
    "(get m nil :nf)",
    "(:a-b m :x)",
    "(:a m 1)",
    "(get-in m [:a :b] :d)",
    '(get-in m [:a "c" 1 :d] 0)',
    "(get-in m [:a :zz] nil)",
    "(get m (:k x))",
    "(get-in m [:a :b])",
    '(get-in m [:a "c" 1 :d])',
    "(get-in m [:a (:k x) :d])",
    "(get-in m [(:k x) :c])",
    "(get-in m [:a :b :c :d :e :f])",
    "(get-in m [])",
    "(get-in m [:k])",
    "(inc (get-in m [:a :b]))",  # fails where the read is nil: the position of `inc`
    '(do (println "r") (:a m))',
    "(:a x)",
]
ELEMS = ["{:k :a :m {:a 1}}", '{"k" "c" "m" {"a" 2}}', "{:k 0}", "nil", "{:k [1]}", "7"]
HOST = {"a": {"b": 20, "c": [1, {"d": 3}]}, "b": None, "a-b": 4, "k": {"c": 5}}


def _program(rnd: random.Random) -> str:
    m = rnd.choice(MAPS)
    xs = f"[{' '.join(rnd.choice(ELEMS) for _ in range(rnd.choice([0, 1, 2, 3, 4])))}]"
    body = f"[{' '.join(rnd.choice(READS) for _ in range(rnd.randint(1, 4)))}]"
    shape = rnd.randrange(10)
    if shape == 0:
        return f"(let [m {m}] (mapv (fn [x] {body}) {xs}))"
    if shape == 1:
        return f"(let [m {m}] (filter (fn [x] (first {body})) {xs}))"
    if shape == 2:  # the outer element as the map of the inner loop
        inner = body.replace(" m)", " y)").replace("m [", "y [").replace(" m ", " y ")
        return f"(let [m {m}] (for [y {xs} x [1 2] :when (some? y)] {inner}))"
    if shape == 3:  # bound by a :let clause, read in a later loop
        return f"(for [z [1 2] :let [m (if (= z 1) {m} data/m)] x {xs}] {body})"
    if shape == 4:  # a fn's parameter; a nested fn in the loop
        return f"(defn f [m] (map (fn [x] ((fn [] {body}))) {xs}))\n[(f {m}) (f data/m)]"
    if shape == 5:  # a loop variable changed by recur between the runs of the for
        return (
            f"(loop [m {m} i 0 out []] (if (< i 3) "
            f"(recur (if (map? m) (or (:a m) {{:a 1}}) {{:a 2}}) (inc i) "
            f"(conj out (mapv (fn [x] {body}) {xs}))) out))"
        )
    if shape == 6:  # the in-place accumulator of a linear reduce, read in a nested for
        read = rnd.choice(["(get acc :n)", "(get-in acc [:t :a])", "(:n acc)"])
        if rnd.random() < 0.5:  # read on the update spine itself
            return (
                f"(reduce (fn [acc x] (assoc acc :n [x {read}] :t {{:a x}})) "
                f"{rnd.choice(['{}', '{:n 1}', 'data/m'])} {xs})"
            )
        return (
            f"(reduce (fn [acc x] (assoc acc :n (count (for [y {xs}] {read})) :t {{:a x}})) "
            f"{rnd.choice(['{}', '{:n 1}', 'data/m'])} {xs})"
        )
    if shape == 7:  # nested loops, the map invariant in both
        return f"(let [m {m}] (for [y {xs}] (mapv (fn [x] {body}) [y y])))"
    if shape == 8:  # closures: called by a builtin, made in a loop and called later
        return rnd.choice(
            [
                f"(let [m {m}] (reduce (fn [acc x] (conj acc {body})) [] {xs}))",
                f"(let [m {m}] (reduce (fn [acc x] (assoc acc :k {body})) m {xs}))",
                f"(let [m {m}] (map (fn [f] (f)) (mapv (fn [x] (fn [] {body})) {xs})))",
                f"(let [m {m} f (fn ([x] {body}) ([x y] [y {body}]))] [(f 1) (f 2 3)])",
                f"(let [m {m}] ((fn g [x n] (if (pos? n) (recur x (dec n)) {body})) 1 2))",
                f"(let [m {m}] (group-by (fn [x] (str {body})) {xs}))",
            ]
        )
    return f"(let [m {m}] (sort-by (fn [x] (str {body})) {xs}))"


@pytest.mark.parametrize("seed", range(6))
def test_random_reads_agree_with_reads_in_the_loop(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    rnd = random.Random(seed)
    hoisted = 0
    for i in range(60):
        src = _program(rnd) + f"\n; {seed}/{i}"
        data = {"m": HOST}
        budget = rnd.choice([10**6, 10**6, rnd.randint(1, 15)])
        got = outcome(src, data=data, max_steps=budget)
        hoisted += bool(_hoisted(src))
        with in_loop(monkeypatch):
            want = outcome(src + " ", data=data, max_steps=budget)
            assert not _hoisted(src + "  ")
        assert got == want, src
    assert hoisted > 20
