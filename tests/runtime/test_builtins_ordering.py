"""Sorting: `sort` and `sort-by` (target §9.10, decision 6), through `ptc_compiler.run`."""

from __future__ import annotations

import pytest
from builtin_cases import outcome

from ptc_compiler import run


def cases(table: list[tuple[str, str]]) -> pytest.MarkDecorator:
    """Parametrize over (source, expected pr-str or !code), each source its own id."""
    return pytest.mark.parametrize(("src", "want"), table, ids=[s for s, _ in table])


SORT = [
    ("(sort [3 1 2])", "[1 2 3]"),
    ("(sort [2 1.5 1])", "[1 1.5 2]"),
    ("(sort [3 nil 1])", "[nil 1 3]"),
    ("(sort nil)", "[]"),
    ("(sort [])", "[]"),
    ('(sort ["b" "a" "c"])', '["a" "b" "c"]'),
    ('(sort ["\U0001f600" "\uff5e"])', '["\U0001f600" "\uff5e"]'),
    ("(sort [:b :a])", "[:a :b]"),
    ("(sort [true false])", "[false true]"),
    ("(sort [[2] [1 1] [1]])", "[[1] [2] [1 1]]"),
    ("(sort #{3 1 2})", "[1 2 3]"),
    ('(sort "cba")', '["a" "b" "c"]'),
    ("(sort {:b 1 :a 2})", "[[:a 2] [:b 1]]"),
    # `<`, `>`, `<=`, `>=` take numbers only (target §13, Clojure's ClassCastException or
    # NullPointerException): as comparators too, once there are two keys to compare
    ("(sort > [3 nil 1])", "!type_error"),
    ('(sort > ["b" "a"])', "!type_error"),
    ("(sort < [:b :a])", "!type_error"),
    ("(sort <= [1 true])", "!type_error"),
    ('(sort > ["a"])', '["a"]'),
    ("(sort > [nil])", "[nil]"),
    ("(sort-by :score > [{:score 2} {} {:score 1}])", "!type_error"),
    ('(sort-by :s >= [{:s "b"} {:s "a"}])', "!type_error"),
    ('(take 1 (sort-by :s > [{:s "b"} {:s "a"}]))', "!type_error"),
    ("(take 1 (sort-by :s > [{:s 1} {:s 3} {:s 2}]))", "[{:s 3}]"),
    ('(sort-by :s compare [{:s "b"} {:s "a"}])', '[{:s "a"} {:s "b"}]'),
    ("(sort < [2 1])", "[1 2]"),
    ("(sort >= [1 2])", "[2 1]"),
    ("(sort compare [2 1])", "[1 2]"),
    ('(sort :desc ["b" "a" "c"])', '["c" "b" "a"]'),
    ("(sort :asc [2 1])", "[1 2]"),
    ("(sort (fn [a b] (- b a)) [1 3 2])", "[3 2 1]"),
    ("(sort (fn [a b] (< a b)) [3 1 2])", "[1 2 3]"),
    ("(sort #(compare %2 %1) [1 3 2])", "[3 2 1]"),
    ('(sort [1 "a"])', "!type_error"),
    ("(sort [##NaN 1])", "!type_error"),
    ("(sort-by :p > [{:p 1.5} {:p 2} {:p ##NaN} {:p 0.5}])", "!type_error"),
    (
        "(sort-by :p > [{:p 1.5} {:p 2} {:p ##Inf} {:p -0.5}])",
        "[{:p ##Inf} {:p 2} {:p 1.5} {:p -0.5}]",
    ),
    ("(sort [{:a 1} {:a 2}])", "!type_error"),
    ("(sort nil [1])", "!type_error"),
    ("(sort :up [1])", "!type_error"),
    ("(sort [1 2] >)", "!type_error"),
    ('(sort (fn [a b] "x") [1 2])', "!type_error"),
    ("(sort 5)", "!type_error"),
]

SORT_BY = [
    ("(sort-by :a [{:a 2 :i 1} {:a 1} {:a 2 :i 2}])", "[{:a 1} {:a 2, :i 1} {:a 2, :i 2}]"),
    ("(sort-by :a :desc [{:a 2 :i 1} {:a 1} {:a 2 :i 2}])", "[{:a 2, :i 1} {:a 2, :i 2} {:a 1}]"),
    ("(sort-by :a > [{:a 2 :i 1} {:a 1} {:a 2 :i 2}])", "[{:a 2, :i 1} {:a 2, :i 2} {:a 1}]"),
    ('(sort-by "a" [{"a" 2} {"a" 1}])', '[{"a" 1} {"a" 2}]'),
    ('(sort-by :a [{"a" 2} {"a" 1}])', '[{"a" 1} {"a" 2}]'),
    ('(sort-by :a [{"a" 2 :a 0} {"a" 1}])', '[{"a" 2, :a 0} {"a" 1}]'),
    ('(sort-by :user-id [{"user_id" 2} {"user_id" 1}])', '[{"user_id" 1} {"user_id" 2}]'),
    ("(sort-by :n [{:n 1} {:n nil} {:n 0}])", "[{:n nil} {:n 0} {:n 1}]"),
    ("(sort-by :n [{:n 1} {} {:n 0}])", "[{} {:n 0} {:n 1}]"),
    ("(sort-by [:a :b] [{:a {:b 2}} {:a {:b 1}}])", "[{:a {:b 1}} {:a {:b 2}}]"),
    ('(sort-by count #{"aa" "b"})', '["b" "aa"]'),
    ("(sort-by first {:b 1 :a 2})", "[[:a 2] [:b 1]]"),
    ("(sort-by second > {:b 1 :a 2})", "[[:a 2] [:b 1]]"),
    ("(sort-by identity > [1 3 2])", "[3 2 1]"),
    ("(sort-by - [1 3 2])", "[3 2 1]"),
    ("(sort-by :a nil)", "[]"),
    ("(sort-by :k [{:k :b} {:k :a}])", "[{:k :a} {:k :b}]"),
    ("(sort-by :k (fn [a b] (compare b a)) [{:k 1} {:k 3} {:k 2}])", "[{:k 3} {:k 2} {:k 1}]"),
    ("(sort-by :a [1 2] >)", "!type_error"),
    ("(sort-by :a 5)", "!type_error"),
    ('(sort-by :a [{:a 1} {:a "x"}])', "!type_error"),
    ("(sort-by 5 [1 2])", "!not_callable"),
]


@cases(SORT)
def test_sort(src: str, want: str) -> None:
    assert outcome(src) == want


@cases(SORT_BY)
def test_sort_by(src: str, want: str) -> None:
    assert outcome(src) == want


def test_sort_by_calls_the_key_function_once_per_item() -> None:
    res = run("(sort-by (fn [x] (println x) x) [3 1 2 5 4])")
    assert res.ok
    assert res.output == "3\n1\n2\n5\n4\n"


def test_swapped_sort_by_arguments_are_diagnosed() -> None:
    res = run("(sort-by :a [{:a 1}] :desc)")
    assert res.error is not None
    assert "comparator" in res.error.message
    assert res.error.hint is not None and "(sort-by keyfn comparator coll)" in res.error.hint


def test_pluck_agrees_with_a_flexible_read_of_each_item() -> None:
    # `pluck_getter` (sort-by/group-by/map with a keyword or string key) takes shortcuts
    # by the first item's spelling; the keys must be each item's flexible read, and a
    # C-level getter, when given, must give the same keys
    import random

    from ptc_runtime.builtins.keyed import pluck_getter
    from ptc_runtime.collections import PMap
    from ptc_runtime.lookup import get_flexible
    from ptc_runtime.values import keyword

    rnd = random.Random(5)
    spellings: list[object] = [keyword("p"), "p", keyword("q")]
    for _ in range(3000):
        items: list[object] = []
        for _ in range(rnd.randint(0, 4)):
            keys = rnd.sample(spellings, rnd.randint(0, 3))
            d = {k: rnd.randint(0, 3) for k in keys}
            items.append(rnd.choice([d, d, d, d, PMap.from_dict(d), None, [1, 2]]))
        k = rnd.choice([keyword("p"), "p"])
        got, getter = pluck_getter(items, k)
        assert got == [get_flexible(x, k) for x in items], (items, k)
        if getter is not None:
            assert [getter(x) for x in items] == got, (items, k)


@pytest.mark.parametrize(
    ("src", "message"),
    [
        ("(sort)", "sort: wrong number of arguments (0), expected 1 or 2"),
        ("(apply sort [])", "sort: wrong number of arguments (0), expected 1 or 2"),
        ("(sort > [1] [2])", "sort: wrong number of arguments (3), expected 1 or 2"),
        ("(sort-by :a)", "sort-by: wrong number of arguments (1), expected 2 or 3"),
        ("(sort-by :a > [] [])", "sort-by: wrong number of arguments (4), expected 2 or 3"),
    ],
)
def test_wrong_argument_counts_are_arity_errors(src: str, message: str) -> None:
    # `sort`/`sort-by` take `*args`: (sort) was an internal error (IndexError), extra
    # arguments were ignored (bad-args sweep)
    res = run(src)
    assert res.error is not None and res.error.code == "arity_error", res
    assert res.error.message == message
