"""Tree walking and sets (target §9.17, §9.18), through `ptc_compiler.run`."""

from __future__ import annotations

import pytest
from builtin_cases import outcome


def cases(table: list[tuple[str, str]]) -> pytest.MarkDecorator:
    """Parametrize over (source, expected pr-str or !code), each source its own id."""
    return pytest.mark.parametrize(("src", "want"), table, ids=[s for s, _ in table])


WALKING = [
    ("(walk inc identity [1 2])", "[2 3]"),
    ("(walk identity count {:a 1 :b 2})", "2"),
    ("(walk (fn [[k v]] [v k]) identity {:a 1})", "{1 :a}"),
    ("(walk inc set #{1 2})", "#{2 3}"),
    ("(walk inc identity 5)", "5"),
    ("(walk (constantly 1) identity {:a 1})", "!type_error"),
    ("(prewalk #(if (number? %) (inc %) %) [1 [2 {:a 3}]])", "[2 [3 {:a 4}]]"),
    ("(prewalk (fn [x] (if (map? x) (dissoc x :secret) x)) {:a {:secret 1 :b 2}})", "{:a {:b 2}}"),
    ("(prewalk #(if (number? %) [%] %) 1)", "!timeout"),
    ("(postwalk #(if (number? %) (inc %) %) [1 [2 {:a 3}] #{4}])", "[2 [3 {:a 4}] #{5}]"),
    ("(postwalk #(if (keyword? %) (name %) %) {:a {:b 1}})", '{"a" {"b" 1}}'),
    ("(postwalk vector [])", "[[]]"),
    ("(postwalk identity nil)", "nil"),
    ("(count (postwalk identity (reduce (fn [acc _] [acc]) [] (range 20000))))", "1"),
    ("(clojure.walk/postwalk identity [1])", "[1]"),
    ("(walk/prewalk identity [1])", "[1]"),
    ("(walk/walk identity identity [1])", "[1]"),
    ("(postwalk 1 [1])", "!not_callable"),
    ('(clojure.walk/keywordize-keys {"a" 1 "b" {"c" [{"d" 2}]}})', "{:a 1, :b {:c [{:d 2}]}}"),
    ('(keywordize-keys {"a b" 1 "" 2 5 3 :k 4})', '{"a b" 1, "" 2, 5 3, :k 4}'),
    ('(walk/keywordize-keys [{"x" #{{"y" 1}}}])', "[{:x #{{:y 1}}}]"),
    ("(keywordize-keys nil)", "nil"),
    (
        '(clojure.walk/stringify-keys {:a 1 :b {:c [{:d 2}]} 1 2 "s" 3})',
        '{"a" 1, "b" {"c" [{"d" 2}]}, 1 2, "s" 3}',
    ),
    ("(stringify-keys [:a {:b-c 1}])", '[:a {"b-c" 1}]'),
    ("(clojure.walk/postwalk-replace {:a :x} [:a :b {:a :a}])", "[:x :b {:x :x}]"),
    ("(postwalk-replace {[1 2] :pair} [[1 2] [1 3]])", "[:pair [1 3]]"),
    ("(postwalk-replace {1 :one} [1 1.0 true])", "[:one :one true]"),
    ("(clojure.walk/prewalk-replace {[1 2] [3 4] 3 :three} [[1 2]])", "[[:three 4]]"),
    ("(walk/postwalk-replace {[1 2] [3 4] 3 :three} [[1 2]])", "[[3 4]]"),
    ("(prewalk-replace {1 [1]} [1])", "!timeout"),
    ("(postwalk-replace [:a] [0])", "!type_error"),
]

SETS = [
    (
        "[(clojure.set/subset? #{1 2} #{1 2 3}) (subset? #{1 4} #{1 2 3}) (subset? nil #{1})]",
        "[true false true]",
    ),
    (
        "[(set/superset? #{1 2 3} #{1 2}) (superset? #{1} #{1 2}) (superset? nil nil)]",
        "[true false true]",
    ),
    ("(subset? #{1.0} #{1})", "true"),
    ("(subset? [1] #{1})", "!type_error"),
    ("(clojure.set/select even? #{1 2 3 4})", "#{2 4}"),
    ("(select even? nil)", "nil"),
    ("(select :a #{{:a 1} {:b 2}})", "#{{:a 1}}"),
    ("(select even? [2])", "!type_error"),
    ("(union #{1 2} #{2 3})", "#{1 2 3}"),
    ("(union)", "#{}"),
    ("(union #{1} nil)", "#{1}"),
    ("(set/union #{1} #{[1]})", "#{1 [1]}"),
    ("(union [1] #{1})", "!type_error"),
    ("(clojure.set/intersection #{1 2 3} #{2 3} #{3})", "#{3}"),
    ("(intersection #{1})", "#{1}"),
    ("(intersection #{1} #{1.0})", "#{1}"),
    # nil comes back where Clojure's fold starts from it (checked against Clojure 1.11)
    ("(intersection #{1} nil)", "nil"),
    ("(intersection nil #{1})", "nil"),
    ("(intersection #{} nil)", "#{}"),
    ("(intersection #{1} nil #{})", "#{}"),
    ("(intersection #{1} #{} nil)", "nil"),
    ("(intersection nil)", "nil"),
    ("(union nil nil)", "nil"),
    ("(union nil #{})", "nil"),
    ("(union #{} nil)", "#{}"),
    ("(union nil #{1})", "#{1}"),
    ("(union #{} #{} nil)", "nil"),
    ("(union nil #{} #{})", "#{}"),
    ("(difference nil #{1})", "nil"),
    ("(difference nil)", "nil"),
    ("(intersection {:a 1} #{1})", "!type_error"),
    ("(difference #{1 2 3} #{2})", "#{1 3}"),
    ("(difference #{1 2} nil)", "#{1 2}"),
    ('(set/difference "ab" #{1})', "!type_error"),
    ("(disj #{1 2 3} 1 3)", "#{2}"),
    ("(disj #{1} 5)", "#{1}"),
    ("(disj nil 1)", "nil"),
    ("(disj [1] 1)", "!type_error"),
    ("(set/disj #{1} 1)", "#{}"),
    ("(set/set [1 1])", "#{1}"),
    ("(set/set? #{})", "true"),
    ("(set/vec #{1})", "[1]"),
    ("(set/vector 1)", "[1]"),
    ("(set/hash-set 1)", "#{1}"),
    ("(clojure.set/contains? #{1} 1)", "true"),
]


@cases(WALKING)
def test_walking(src: str, want: str) -> None:
    assert outcome(src) == want


@cases(SETS)
def test_sets(src: str, want: str) -> None:
    assert outcome(src) == want
