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
        "[true true true true false false false]",
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
