"""Shape and numeric predicates and `type` (target §9.5-9.6)."""

from __future__ import annotations

from builtin_cases import cases, outcome

PREDICATES = [
    ("[(rational? 1) (rational? 1.5) (rational? nil)]", "[true false false]"),
    (
        "[(decimal? 1.5) (ratio? 1) (symbol? 'x) (sorted? []) (map-entry? [1 2])]",
        "[false false false false false]",
    ),
    (
        '[(char? "a") (char? \\a) (char? "ab") (char? "") (char? nil)]',
        "[true true false false false]",
    ),
    (
        "[(ifn? inc) (ifn? :a) (ifn? {}) (ifn? #{}) (ifn? []) (ifn? nil) (ifn? 1)]",
        "[true true true true true false false]",
    ),
    ("[(sequential? []) (sequential? {}) (seq? [1]) (seq? nil)]", "[true false true false]"),
    (
        '[(associative? []) (associative? {}) (associative? #{}) (associative? "a")]',
        "[true true false false]",
    ),
    ('[(counted? []) (counted? "a") (counted? nil) (counted? 1)]', "[true true false false]"),
    (
        '[(indexed? []) (indexed? "a") (indexed? {}) (reversible? "a") (reversible? #{})]',
        "[true true false true false]",
    ),
    (
        '[(seqable? nil) (seqable? "a") (seqable? #{}) (seqable? 1) (seqable? :a)]',
        "[true true true false false]",
    ),
    ("[(pos-int? 1) (pos-int? 0) (pos-int? 1.0) (pos-int? nil)]", "[true false false false]"),
    (
        "[(neg-int? -1) (neg-int? -1.0) (nat-int? 0) (nat-int? -1) (nat-int? 1000000000000000000)]",
        "[true false true false true]",
    ),
    (
        "[(infinite? ##Inf) (infinite? ##-Inf) (infinite? 1) (infinite? nil)]",
        "[true true false false]",
    ),
    ('[(NaN? ##NaN) (NaN? 1.0) (NaN? "NaN") (NaN? nil)]', "[true false false false]"),
]

TYPES = [
    ("(type nil)", "nil"),
    ("(type true)", ":boolean"),
    ("(type 1)", ":number"),
    ("(type ##NaN)", ":number"),
    ('(type "s")', ":string"),
    ("(type :k)", ":keyword"),
    ("(type [1])", ":vector"),
    ("(type {:a 1})", ":map"),
    ("(type #{1})", ":set"),
    ('(type #"a+")', ":regex"),
    ("(type inc)", ":function"),
    ("(type (fn [x] x))", ":function"),
    ("(type 'x)", ":unknown"),
    ("(type)", "!arity_error"),
]


@cases(PREDICATES)
def test_predicates(src: str, want: str) -> None:
    assert outcome(src) == want


@cases(TYPES)
def test_type(src: str, want: str) -> None:
    assert outcome(src) == want


DESCRIBE = [
    ("(describe 5)", '{:type "number", :example 5}'),
    ("(describe nil)", '{:type "nil", :example nil}'),
    ('(describe "abc")', '{:type "string", :length 3, :example "abc"}'),
    ("(describe ##NaN)", '{:type "number", :example "##NaN"}'),
    (
        '(describe [{"id" 1} {"id" 2}])',
        '{:type "vector", :count 2, :scanned 2, :item_types {"map" 2}, :keys {"id" {:present 2, '
        ':pct 100.0, :types {"number" 2}, :examples [1 2], :distinct_count 2}}, '
        ':key_types {"string" 2}}',
    ),
    ("(:truncated (describe (range 2000)))", "true"),
    ("(:caps_hit (describe (range 2000)))", '["items"]'),
    ("(:count_capped (describe (range 2000)))", "true"),
    ('(:examples (get-in (describe [{:a 1} {:a 2} {:a 3}] {:sample 1}) [:keys "a"]))', "[1]"),
    ('(:type (get-in (describe {:a [1]} {:depth 2}) [:keys "a" :shape]))', '"vector"'),
    ("(describe [] {:depth 9})", "!type_error"),
    ("(describe [] 1)", "!type_error"),
    ("(string? (json/generate-string (describe [{:a inc :b [1]} #{1}])))", "true"),
]


@cases(DESCRIBE)
def test_describe(src: str, want: str) -> None:
    assert outcome(src) == want
