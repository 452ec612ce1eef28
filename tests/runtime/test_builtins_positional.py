"""Construction and positional access (target §9.7, §9.8, §9.11), through `run`."""

from __future__ import annotations

import pytest
from builtin_cases import outcome


def cases(table: list[tuple[str, str]]) -> pytest.MarkDecorator:
    """Parametrize over (source, expected pr-str or !code), each source its own id."""
    return pytest.mark.parametrize(("src", "want"), table, ids=[s for s, _ in table])


CONSTRUCTION = [
    ("(repeat 3 :x)", "[:x :x :x]"),
    ("(repeat 0 :x)", "[]"),
    ("(repeat -2 :x)", "[]"),
    ("(repeat 1.5 [1])", "[[1] [1]]"),
    ('(apply str (repeat 3 "ab"))', '"ababab"'),
    ("(repeat 100000000 1)", "!memory_exceeded"),
    ("(repeat ##Inf 1)", "!memory_exceeded"),
    ("(repeat nil 1)", "!type_error"),
    ("(repeat :x)", "!invalid_arity"),
    ("(seq [])", "nil"),
    ("(seq [1])", "[1]"),
    ("(seq nil)", "nil"),
    ("(seq {:b 1 :a 2})", "[[:b 1] [:a 2]]"),
    ('(seq "ab")', '["a" "b"]'),
    ('(seq "")', "nil"),
    ("(seq #{})", "nil"),
    ("(seq #{1})", "[1]"),
    ("(seq 1)", "!type_error"),
    ("(empty [1])", "[]"),
    ("(empty {:a 1})", "{}"),
    ("(empty #{1})", "#{}"),
    ('(empty "x")', "nil"),
    ("(empty nil)", "nil"),
    ("(empty 1)", "nil"),
    ("(zipmap [:a :b] [1 2 3])", "{:a 1, :b 2}"),
    ("(zipmap [:a :a] [1 2])", "{:a 2}"),
    ("(zipmap [[1] true] [1 2])", "{[1] 1, true 2}"),
    ("(zipmap nil [1])", "{}"),
    ("(zipmap 1 [1])", "!type_error"),
    ("(array-map :a 1 :b 2)", "{:a 1, :b 2}"),
    ("(array-map :a)", "!arity_error"),
]

POSITIONAL = [
    ("(butlast [1 2 3])", "[1 2]"),
    ("(butlast [1])", "nil"),
    ("(butlast nil)", "nil"),
    ('(butlast "abc")', '["a" "b"]'),
    ("(butlast 1)", "!type_error"),
    ("(ffirst [[1 2]])", "1"),
    ("(ffirst nil)", "nil"),
    ("(ffirst [1])", "!type_error"),
    ("(fnext [1 2])", "2"),
    ("(fnext [1])", "nil"),
    ("(nfirst [[1 2 3]])", "[2 3]"),
    ("(nfirst [[1]])", "nil"),
    ("(nnext [1 2 3])", "[3]"),
    ("(nnext [1 2])", "nil"),
    ("(peek [1 2])", "2"),
    ("(peek [])", "nil"),
    ("(peek nil)", "nil"),
    ("(peek {:a 1})", "!type_error"),
    ("(pop [1 2])", "[1]"),
    ("(pop [1])", "[]"),
    ("(pop [])", "nil"),
    ("(pop nil)", "nil"),
    ('(pop "ab")', "!type_error"),
    ("(find {:a 1} :a)", "[:a 1]"),
    ('(find {"a" 1} :a)', '["a" 1]'),
    ('(find {"user_id" 1} :user-id)', '["user_id" 1]'),
    ("(find {:a nil} :a)", "[:a nil]"),
    ("(find {:a 1} :b)", "nil"),
    ("(find {:a {:b 1}} [:a :b])", "[[:a :b] 1]"),
    ("(find {[1] :v} [1])", "[[1] :v]"),
    ("(find [10 20] 1)", "[1 20]"),
    ("(find [10] 5)", "nil"),
    ("(find nil :a)", "nil"),
    ("(find #{1} 1)", "!type_error"),
    ('(find "abc" 1)', "!type_error"),
    ("(subvec [1 2 3 4] 1 3)", "[2 3]"),
    ("(subvec [1 2 3] 2)", "[3]"),
    ("(subvec [1 2 3] -5 10)", "[1 2 3]"),
    ("(subvec [1 2 3] 2 1)", "[]"),
    ("(subvec nil 0)", "[]"),
    ('(subvec "abc" 1)', "!type_error"),
    ("(subvec [1 2] :a)", "!type_error"),
]

PREDICATES = [
    ("(not-empty [])", "nil"),
    ("(not-empty [1])", "[1]"),
    ('(not-empty "")', "nil"),
    ('(not-empty "a")', '"a"'),
    ("(not-empty {})", "nil"),
    ("(not-empty #{1})", "#{1}"),
    ("(not-empty nil)", "nil"),
    ("(not-empty 1)", "!type_error"),
    ("(distinct? 1 2 3)", "true"),
    ("(distinct? 1 2 1)", "false"),
    ("(distinct? 1 1.0)", "false"),
    ("(distinct? [1] [1])", "false"),
    ("(distinct? 1)", "true"),
    ("(distinct? true 1)", "true"),
]


@cases(CONSTRUCTION)
def test_construction(src: str, want: str) -> None:
    assert outcome(src) == want


@cases(POSITIONAL)
def test_positional(src: str, want: str) -> None:
    assert outcome(src) == want


@cases(PREDICATES)
def test_collection_predicates(src: str, want: str) -> None:
    assert outcome(src) == want
