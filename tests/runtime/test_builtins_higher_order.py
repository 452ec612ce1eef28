"""Higher-order sequence builtins (target §9.10, decision 13), through `run`."""

from __future__ import annotations

import pytest
from builtin_cases import outcome

from ptc_compiler import run


def cases(table: list[tuple[str, str]]) -> pytest.MarkDecorator:
    """Parametrize over (source, expected pr-str or !code), each source its own id."""
    return pytest.mark.parametrize(("src", "want"), table, ids=[s for s, _ in table])


HIGHER_ORDER = [
    ("(mapv inc [1 2])", "[2 3]"),
    ('(mapv :a [{:a 1} {"a" 2} {}])', "[1 2 nil]"),
    ("(mapv + [1 2] [3 4] [5 6])", "[9 12]"),
    ("(map + [1 2] [3 4] [5 6] [7 8])", "[16 20]"),
    ("(mapv inc nil)", "[]"),
    ("(mapv inc 5)", "!type_error"),
    ("(mapcat reverse [[1 2] [3]])", "[2 1 3]"),
    ("(mapcat (fn [x] nil) [1])", "[]"),
    ("(mapcat (fn [a b] [a b]) [1 2] [:a :b])", "[1 :a 2 :b]"),
    ('(mapcat identity ["ab"])', '["a" "b"]'),
    ("(mapcat identity [1])", "!type_error"),
    ("(map-indexed vector [:a :b])", "[[0 :a] [1 :b]]"),
    ("(map-indexed vector nil)", "[]"),
    ("(filterv odd? [1 2 3])", "[1 3]"),
    ("(filterv :a [{:a 1} {}])", "[{:a 1}]"),
    ("(remove odd? [1 2 3])", "[2]"),
    ("(remove #{1} [1 2])", "[2]"),
    ("(remove odd? 1)", "!type_error"),
    ("(keep :a [{:a 1} {:b 2} {:a false}])", "[1 false]"),
    ("(keep-indexed (fn [i x] (when (odd? i) x)) [:a :b :c :d])", "[:b :d]"),
    ("(reduce-kv (fn [acc k v] (assoc acc v k)) {} {:a 1 :b 2})", "{1 :a, 2 :b}"),
    ("(reduce-kv (fn [acc k v] (conj acc k)) [] {[1] 2})", "[[1]]"),
    ("(reduce-kv (fn [acc i v] (+ acc i v)) 0 [10 20])", "31"),
    ("(reduce-kv + 0 nil)", "0"),
    ('(reduce-kv + 0 "ab")', "!type_error"),
    ("(some even? [1 2 3])", "true"),
    ('(some #{"x"} ["a" "x"])', '"x"'),
    ("(some :a [{} {:a 5}])", "5"),
    ("(some even? nil)", "nil"),
    ("(some even? [1])", "nil"),
    ("(every? odd? [1 3])", "true"),
    ("(every? odd? [])", "true"),
    ("(every? :a [{:a 1} {}])", "false"),
    ("(not-every? odd? [1 2])", "true"),
    ("(not-every? odd? [1])", "false"),
    ("(not-any? odd? [2 4])", "true"),
    ("(not-any? odd? [1])", "false"),
    ("(every? 1 [1])", "!not_callable"),
    ("(tree-seq vector? identity [1 [2 3]])", "[[1 [2 3]] 1 [2 3] 2 3]"),
    (
        "(map :id (tree-seq map? :children {:id 1 :children [{:id 2 :children [{:id 4}]} {:id 3}]}))",
        "[1 2 4 3]",
    ),
    ("(tree-seq nil? identity 1)", "[1]"),
    ("(tree-seq vector? identity 5)", "[5]"),
    ('(count (tree-seq string? vector "a"))', "!timeout"),
    ("(reductions + [1 2 3])", "[1 3 6]"),
    ("(reductions + 10 [1 2])", "[10 11 13]"),
    ("[(reductions + []) (reductions + 5 []) (reductions + 5 nil)]", "[[0] [5] [5]]"),
    ("(reductions conj [] [1 2])", "[[] [1] [1 2]]"),
    ("(reductions max 0 [3 1 4])", "[0 3 3 4]"),
    ("(reductions + 1 2 [3])", "!arity_error"),
    ("(reductions + 5)", "!type_error"),
    ("(reduce + 0 [1] [2])", "!arity_error"),
]


@cases(HIGHER_ORDER)
def test_higher_order(src: str, want: str) -> None:
    assert outcome(src) == want


@pytest.mark.parametrize(
    ("src", "message", "where"),
    [
        ("(reduce :k [])", "a keyword called as a function takes 1 or 2 arguments, got 0", (1, 1)),
        ("(reduce #{} {})", "a set called as a function takes 1 argument, got 0", (1, 1)),
        ("(map :k [1] [2] [3])", "a keyword called as a function takes 1 or 2 arguments, got 3", (1, 1)),
        ("(let [f :k]\n  (apply f []))", "a keyword called as a function takes 1 or 2 arguments, got 0", (2, 3)),
        ("(#{1} 1 2 3)", "a set called as a function takes 1 argument, got 3", (1, 1)),
        ("(#{1} 1 2)", "a set called as a function takes 1 argument, got 2", (1, 1)),  # as Clojure
        ("({:a 1} :a 2 3)", "a map called as a function takes 1 or 2 arguments, got 3", (1, 1)),
        ("(let [m {:a 1}]\n  (m))", "a map called as a function takes 1 or 2 arguments, got 0", (2, 3)),
        ("([1 2] 0 1)", "a vector called as a function takes 1 argument, got 2", (1, 1)),
        ("(mapv [1 2] [0] [1])", "a vector called as a function takes 1 argument, got 2", (1, 1)),
    ],
)  # fmt: skip
def test_keyword_or_set_called_with_a_wrong_count(
    src: str, message: str, where: tuple[int, int]
) -> None:
    # Python's TypeError from Keyword/PSet.__call__ was the vague "type_error: wrong type of
    # argument" (bad-args sweep): now the count and what was called, like a fn's arity_error
    res = run(src)
    assert res.error is not None and res.error.code == "arity_error", res
    assert res.error.message == message
    assert (res.error.line, res.error.column) == where
