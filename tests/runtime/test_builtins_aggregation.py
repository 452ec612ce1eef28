"""Grouping and aggregation (target §9.10 group-by/frequencies, §9.13), through `run`."""

from __future__ import annotations

import pytest
from builtin_cases import outcome


def cases(table: list[tuple[str, str]]) -> pytest.MarkDecorator:
    """Parametrize over (source, expected pr-str or !code), each source its own id."""
    return pytest.mark.parametrize(("src", "want"), table, ids=[s for s, _ in table])


GROUPING = [
    ('(group-by :a [{:a 2} {"a" 1} {:a 2}])', '{2 [{:a 2} {:a 2}], 1 [{"a" 1}]}'),
    ("(group-by odd? [1 2 3])", "{true [1 3], false [2]}"),
    ('(group-by identity "aab")', '{"a" ["a" "a"], "b" ["b"]}'),
    ("(group-by count nil)", "{}"),
    ("(group-by [:a :b] [{:a {:b 1}} {:a {:b 1}}])", "{1 [{:a {:b 1}} {:a {:b 1}}]}"),
    ("(group-by identity [1 1.0 true [1] [1.0]])", "{1 [1 1.0], true [true], [1] [[1] [1.0]]}"),
    ("(group-by #{1} [1 2])", "{1 [1], nil [2]}"),
    ("(group-by {1 :one} [1 2])", "{:one [1], nil [2]}"),
    ("(get (group-by :k [{:k [1]} {:k [1]}]) [1])", "[{:k [1]} {:k [1]}]"),
    ("(group-by :a 5)", "!type_error"),
    ("(group-by 5 [1])", "!not_callable"),
    ("(frequencies [1 1.0 true 2 [1] [1.0]])", "{1 2, true 1, 2 1, [1] 2}"),
    ("(frequencies [:a :b :a])", "{:a 2, :b 1}"),
    ("(frequencies nil)", "{}"),
    ('(frequencies "abca")', '{"a" 2, "b" 1, "c" 1}'),
    ("(frequencies {:a 1})", "{[:a 1] 1}"),
    ("(frequencies [{:a 1} {:a 1}])", "{{:a 1} 2}"),
    ("(frequencies 1)", "!type_error"),
]

SUMS = [
    ("(sum [1 2 nil 3.5])", "6.5"),
    ("(sum [1 2 3])", "6"),
    ("(sum [])", "0"),
    ("(sum nil)", "0"),
    ("(sum #{1 2})", "3"),
    ('(sum ["a"])', "!arithmetic_error"),
    ("(sum [true])", "!arithmetic_error"),
    ("(sum [1e308 1e308])", "##Inf"),
    ("(sum 5)", "!type_error"),
    ("(avg [1 2])", "1.5"),
    ("(avg [1 nil 3])", "2.0"),
    ("(avg [])", "nil"),
    ("(avg [nil])", "nil"),
    ("(avg [:a])", "!arithmetic_error"),
    ("(sum-by :a [{:a 1} {:a 2.5} {}])", "3.5"),
    ('(sum-by "a" [{:a 1} {"a" 2}])', "3"),
    ('(sum-by :a [{:a "x"}])', "!arithmetic_error"),
    ("(sum-by #(* 2 %) [1 2])", "6"),
    ("(sum-by [:a :b] [{:a {:b 3}} {:a nil}])", "3"),
    ("(sum-by :a nil)", "0"),
    ("(avg-by :a [{:a 1} {:a nil} {:a 2}])", "1.5"),
    ("(avg-by :a [])", "nil"),
    ("(avg-by :a [{:b 1}])", "nil"),
    ("(avg-by :a [{:a []}])", "!arithmetic_error"),
]

EXTREMES = [
    ("(max-by :a [{:a 1} {:a 3} {:a 3 :b 1}])", "{:a 3}"),
    ("(min-by :a [{:a 1 :i 0} {:a nil} {:a 1 :i 1}])", "{:a 1, :i 0}"),
    ("(min-by :a [{:a nil}])", "nil"),
    ("(min-by :a [])", "nil"),
    ("(max-by :a nil)", "nil"),
    ('(max-by count "ab" "c" "de")', '"ab"'),
    ("(max-by :a {:a 1} {:a 2})", "{:a 2}"),
    ('(max-by :a [{:a "b"} {:a "c"}])', '{:a "c"}'),
    ("(max-by :a [{:a [1 2]} {:a [3]}])", "{:a [1 2]}"),
    ("(min-by [:p :q] [{:p {:q 2}} {:p {:q 1}}])", "{:p {:q 1}}"),
    ('(max-by :a [{:a 1} {:a "x"}])', "!type_error"),
    ("(min-by identity [##NaN 1])", "!type_error"),
    ("(min-by :a)", "!arity_error"),
    ("(distinct-by :a [{:a 1 :i 0} {:a 1 :i 1} {:a 2}])", "[{:a 1, :i 0} {:a 2}]"),
    ("(distinct-by count nil)", "[]"),
    ("(distinct-by identity [1 1.0 true])", "[1 true]"),
    ("(distinct-by :a 1)", "!type_error"),
    ('(max-key count "a" "bb" "cc")', '"cc"'),
    ('(min-key count "aa" "b" "c")', '"c"'),
    ('(max-key count "a")', '"a"'),
    ("(max-key :a {:a 1} {:a 2.5})", "{:a 2.5}"),
    ('(max-key :a {:a 1} {:a "x"})', "!type_error"),
    ("(max-key count)", "!arity_error"),
    ('(apply max-key count ["a" "bb"])', '"bb"'),
]

COMBINATIONS = [
    ("(combinations [1 2 3] 2)", "[[1 2] [1 3] [2 3]]"),
    ("(combinations [1 2] 0)", "[[]]"),
    ("(combinations [1 2] 3)", "[]"),
    ("(combinations [1 2] -1)", "[]"),
    ("(combinations nil 1)", "[]"),
    ('(combinations "ab" 1)', '[["a"] ["b"]]'),
    ("(count (combinations (range 20) 10))", "184756"),
    ("(combinations (range 100) 50)", "!memory_exceeded"),
    ("(combinations [1 2] 1.5)", "!type_error"),
    ("(combinations 1 1)", "!type_error"),
    ("(zip [1 2 3] [:a :b])", "[[1 :a] [2 :b]]"),
    ("(zip nil [1])", "[]"),
    ("(zip {:a 1} [1])", "[[[:a 1] 1]]"),
    ("(zip 1 [1])", "!type_error"),
]


@cases(GROUPING)
def test_grouping(src: str, want: str) -> None:
    assert outcome(src) == want


@cases(SUMS)
def test_sums(src: str, want: str) -> None:
    assert outcome(src) == want


@cases(EXTREMES)
def test_extremes(src: str, want: str) -> None:
    assert outcome(src) == want


@cases(COMBINATIONS)
def test_combinations_and_zip(src: str, want: str) -> None:
    assert outcome(src) == want
