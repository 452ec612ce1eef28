"""Slicing, partitioning and reordering (target §9.9), through `ptc_compiler.run`."""

from __future__ import annotations

import pytest
from builtin_cases import outcome

from ptc_compiler import run


def cases(table: list[tuple[str, str]]) -> pytest.MarkDecorator:
    """Parametrize over (source, expected pr-str or !code), each source its own id."""
    return pytest.mark.parametrize(("src", "want"), table, ids=[s for s, _ in table])


TAKE_DROP = [
    ("(take 2 [1 2 3])", "[1 2]"),
    ("(take 5 [1 2])", "[1 2]"),
    ("(take 0 [1 2])", "[]"),
    ("(take -1 [1 2])", "[]"),
    ("(take 1.5 [1 2 3])", "[1 2]"),
    ("(take 2 nil)", "[]"),
    ('(take 2 "abc")', '["a" "b"]'),
    ("(take 1 {:a 1 :b 2})", "[[:a 1]]"),
    ('(take "a" [1])', "!type_error"),
    ("(take ##NaN [1])", "!type_error"),
    ("(take 1 5)", "!type_error"),
    ("(drop 1 [1 2 3])", "[2 3]"),
    ("(drop -1 [1 2])", "[1 2]"),
    ("(drop 5 [1])", "[]"),
    ("(drop 1 nil)", "[]"),
    ("(drop nil [1])", "!type_error"),
    ("(take-last 2 [1 2 3])", "[2 3]"),
    ("(take-last 5 [1 2])", "[1 2]"),
    ("(take-last 0 [1])", "nil"),
    ("(take-last 2 [])", "nil"),
    ("(drop-last [1 2 3])", "[1 2]"),
    ("(drop-last 2 [1 2 3])", "[1]"),
    ("(drop-last 5 [1])", "[]"),
    ("(drop-last -1 [1 2])", "[1 2]"),
    ("(drop-last nil)", "[]"),
    ("(take-while odd? [1 3 4 5])", "[1 3]"),
    ("(take-while #{1} [1 1 2])", "[1 1]"),
    ("(take-while :a [{:a 1} {}])", "[{:a 1}]"),
    ("(take-while odd? nil)", "[]"),
    ("(take-while 1 [1])", "!not_callable"),
    ("(drop-while odd? [1 3 4 5])", "[4 5]"),
    ("(drop-while odd? [1 3])", "[]"),
    ("(nthrest [1 2 3] 1)", "[2 3]"),
    ("(nthrest [1 2 3] 5)", "[]"),
    ("(nthrest nil 2)", "nil"),  # Clojure's loop hands back the nil itself
    ("(nthrest nil 0)", "nil"),
    ("(nthrest [] 2)", "[]"),
    ('(nthrest nil "a")', "!type_error"),
    ("(nthnext [1 2 3] 3)", "nil"),
    ("(nthnext [1 2 3] 1)", "[2 3]"),
    ("(split-at 2 [1 2 3])", "[[1 2] [3]]"),
    ("(split-at -1 [1 2])", "[[] [1 2]]"),
    ("(split-at 1 nil)", "[[] []]"),
    ("(split-with odd? [1 2 3])", "[[1] [2 3]]"),
    ("(split-with odd? [])", "[[] []]"),
]

PARTITION = [
    ("(partition 2 [1 2 3 4 5])", "[[1 2] [3 4]]"),
    ("(partition 2 1 [1 2 3])", "[[1 2] [2 3]]"),
    ("(partition 2 3 [1 2 3 4 5 6 7])", "[[1 2] [4 5]]"),
    ("(partition 3 3 [:a] [1 2 3 4])", "[[1 2 3] [4 :a]]"),
    ("(partition 3 3 [:a :b :c] [1 2 3 4 5])", "[[1 2 3] [4 5 :a]]"),
    ("(partition 3 3 nil [1 2 3 4])", "[[1 2 3] [4]]"),
    ("(partition 2 [1])", "[]"),
    ("(partition 2 nil)", "[]"),
    ("(partition 0 [1])", "!type_error"),
    ("(partition 2 0 [1])", "!type_error"),
    ("(partition -1 [1])", "!type_error"),
    ("(partition 1.5 [1])", "!type_error"),
    ("(partition 3 1 (range 10000000))", "!memory_exceeded"),
    ("(partition-all 2 [1 2 3])", "[[1 2] [3]]"),
    ("(partition-all 2 1 [1 2 3])", "[[1 2] [2 3] [3]]"),
    ("(partition-all 3 nil)", "[]"),
    ("(partition-all 0 [1])", "!type_error"),
    ("(partition-all 5000 1 (range 5000))", "!memory_exceeded"),
    ("(partition-by odd? [1 3 2 4 5])", "[[1 3] [2 4] [5]]"),
    ("(partition-by identity [1 1.0 2])", "[[1 1.0] [2]]"),
    ("(partition-by identity [])", "[]"),
    ("(partition-by :k [{:k 1} {:k 1} {}])", "[[{:k 1} {:k 1}] [{}]]"),
]

REORDER = [
    ("(distinct [1 2 1 1.0 true 3])", "[1 2 true 3]"),
    ("(distinct [[1] [1.0] {:a 1}])", "[[1] {:a 1}]"),
    ("(distinct {:a 1})", "[[:a 1]]"),
    ('(distinct "abca")', '["a" "b" "c"]'),
    ("(distinct nil)", "[]"),
    ("(distinct 1)", "!type_error"),
    ("(dedupe [1 1 2 1 1.0 3])", "[1 2 1 3]"),
    ("(dedupe nil)", "[]"),
    ("(reverse [1 2 3])", "[3 2 1]"),
    ('(reverse "abc")', '["c" "b" "a"]'),
    ("(reverse nil)", "[]"),
    ("(reverse 1)", "!type_error"),
    ("(flatten [1 [2 [3 [4]]] {:a 1} #{5}])", "[1 2 3 4 {:a 1} #{5}]"),
    ("(flatten [[] [[]]])", "[]"),
    ("(flatten nil)", "[]"),
    ("(flatten 5)", "[]"),
    ("(flatten {:a [1]})", "[]"),
    ("(interleave [1 2 3] [:a :b])", "[1 :a 2 :b]"),
    ("(interleave)", "[]"),
    ("(interleave [1 2])", "[1 2]"),
    ('(interleave "ab" [1 2])', '["a" 1 "b" 2]'),
    ("(interleave [1] 2)", "!type_error"),
    ("(interpose 0 [1 2 3])", "[1 0 2 0 3]"),
    ('(interpose ", " "ab")', '["a" ", " "b"]'),
    ("(interpose 0 [])", "[]"),
    ("(interpose 0 1)", "!type_error"),
]


@cases(TAKE_DROP)
def test_take_drop(src: str, want: str) -> None:
    assert outcome(src) == want


@cases(PARTITION)
def test_partition(src: str, want: str) -> None:
    assert outcome(src) == want


@cases(REORDER)
def test_reorder(src: str, want: str) -> None:
    assert outcome(src) == want


def test_flatten_deep_nesting_does_not_recurse() -> None:
    src = "(count (flatten (reduce (fn [acc _] [acc 1]) [] (range 5000))))"
    assert outcome(src) == "5000"


@pytest.mark.parametrize(
    ("src", "message"),
    [
        ("(drop-last 1 [1] [2])", "drop-last: wrong number of arguments (3), expected 1 or 2"),
        ("(partition 1 1 [] [1] [2])", "partition: wrong number of arguments (5), expected 2 or 3 or 4"),
        ("(apply partition-all [1 1 [1] [2]])", "partition-all: wrong number of arguments (4), expected 2 or 3"),
    ],
)  # fmt: skip
def test_extra_arguments_are_arity_errors(src: str, message: str) -> None:
    # their functions take `*more`: (drop-last 1 [1] [2]) ignored [1] (bad-args sweep)
    res = run(src)
    assert res.error is not None and res.error.code == "arity_error", res
    assert res.error.message == message
