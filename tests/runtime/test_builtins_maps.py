"""Map builtins (target §9.12, decision 5 one-logical-key writes), through `run`."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from builtin_cases import outcome


def cases(table: Sequence[tuple[str, str | None]]) -> pytest.MarkDecorator:
    """Parametrize over (source, expected pr-str or !code), each source its own id."""
    return pytest.mark.parametrize(("src", "want"), table, ids=[s for s, _ in table])


NESTED = [
    ("(assoc-in {} [:a :b] 1)", "{:a {:b 1}}"),
    ('(assoc-in {"a" {"b" 1}} [:a :b] 2)', '{"a" {"b" 2}}'),
    ("(assoc-in nil [:a] 1)", "{:a 1}"),
    ("(assoc-in {:a 1} [] 2)", "{:a 1, nil 2}"),
    ("(assoc-in {:a [1 2]} [:a 1] 9)", "{:a [1 9]}"),
    ("(assoc-in {:a [1]} [:a 5] 9)", "!runtime_error"),
    ("(assoc-in {:a 1} [:a :b] 2)", "!type_error"),
    ("(assoc-in {} :a 1)", "!type_error"),
    ('(update {"n" 1} :n inc)', '{"n" 2}'),
    ("(update {:n 1} :n + 10 100)", "{:n 111}"),
    ("(update {:a 1} :b (fnil inc 0))", "{:a 1, :b 1}"),
    ("(update nil :a (fnil inc 0))", "{:a 1}"),
    ("(update [1 2] 0 inc)", "[2 2]"),
    ("(update [1] 1 (fnil inc 0))", "[1 1]"),
    ("(update [1] 5 identity)", "!runtime_error"),
    ("(update 5 :a identity)", "!type_error"),
    ("(update {:a 1} :a nil)", "!not_callable"),
    ('(update {"user_id" 1} :user-id inc)', '{"user_id" 2}'),
    ("(update-in {:a {:b 1}} [:a :b] inc)", "{:a {:b 2}}"),
    ('(update-in {"a" {"b" 1}} [:a :b] inc)', '{"a" {"b" 2}}'),
    ("(update-in {} [:a :b] (fnil inc 0))", "{:a {:b 1}}"),
    ("(update-in {:a 1} [] identity)", "{:a 1, nil nil}"),
    ("(update-in {:a [{:x 1}]} [:a 0 :x] * 5)", "{:a [{:x 5}]}"),
    ("(update-in {:a 1} [:a :b] inc)", "!type_error"),
]

MERGING = [
    ("(merge {:a 1} {:b 2} {:a 3})", "{:a 3, :b 2}"),
    ("(merge)", "nil"),
    ("(merge nil)", "nil"),
    ("(merge nil {:a 1})", "{:a 1}"),
    ("(merge {:a 1} nil)", "{:a 1}"),
    ('(merge {"a" 1} {:a 2})', '{"a" 2}'),
    ("(merge {:a 1} [:b 2])", "{:a 1, :b 2}"),
    ("(merge {true 1} {true 2 [1] 3})", "{true 2, [1] 3}"),
    ("(merge [1] {:a 1})", "!type_error"),
    ("(merge {:a 1} 5)", "!type_error"),
    ("(count (merge (zipmap (range 100) (range 100)) {1000 1}))", "101"),
    ("(merge-with + {:a 1} {:a 2 :b 3})", "{:a 3, :b 3}"),
    ('(merge-with + {"a" 1} {:a 2})', '{"a" 3}'),
    ("(merge-with + (zipmap (range 40) (range 40)) {1 100})", None),
    ("(merge-with +)", "nil"),
    ("(merge-with 1 {:a 1} {:a 2})", "!not_callable"),
]

KEYS = [
    ("(select-keys {:a 1 :b 2} [:a :c])", "{:a 1}"),
    ('(select-keys {:a 1} ["a"])', '{"a" 1}'),
    ("(select-keys {:a nil} [:a])", "{:a nil}"),
    ("(select-keys nil [:a])", "{}"),
    ("(select-keys {:a 1} nil)", "{}"),
    ("(select-keys [10 20] [1])", "{1 20}"),
    ("(select-keys {:a {:b 1}} [[:a :b]])", "{[:a :b] 1}"),
    ("(select-keys 5 [:a])", "!type_error"),
    ("(entries {:a 1 :b 2})", "[[:a 1] [:b 2]]"),
    ("(entries nil)", "[]"),
    ("(entries [1])", "!type_error"),
    ("(key [:a 1])", ":a"),
    ("(val [:a 1])", "1"),
    ("(map key {:a 1 :b 2})", "[:a :b]"),
    ("(map val {:a 1 :b 2})", "[1 2]"),
    ("(key [1])", "!type_error"),
    ("(val nil)", "!type_error"),
    ("(update-keys {:a 1} name)", '{"a" 1}'),
    ("(update-keys nil name)", "{}"),
    ("(update-keys [1] inc)", "!type_error"),
    ("(update-keys {1 :a 2 :b} (constantly 0))", "{0 :b}"),
    ("(update-vals {:a 1 :b 2} inc)", "{:a 2, :b 3}"),
    ("(update-vals nil inc)", "{}"),
    ("(update-vals {[1] 2} inc)", "{[1] 3}"),
    ("(update-vals 1 inc)", "!type_error"),
]


@cases(NESTED)
def test_nested_writes(src: str, want: str) -> None:
    assert outcome(src) == want


@cases(MERGING)
def test_merging(src: str, want: str | None) -> None:
    if want is None:  # a large (persistent) base map: compare with the small-map result
        small = src.replace("(zipmap (range 40) (range 40))", "{1 1}")
        assert outcome(f"(get {src} 1)") == outcome(f"(get {small} 1)") == "101"
        return
    assert outcome(src) == want


@cases(KEYS)
def test_keys_and_entries(src: str, want: str) -> None:
    assert outcome(src) == want
