"""Java interop surface (target §8.1-8.4): Java semantics, typed Java errors."""

from __future__ import annotations

from builtin_cases import cases, outcome

JAVA = [
    ('(Integer/parseInt "42")', "42"),
    ('(Integer/parseInt "-7")', "-7"),
    ('(Integer/parseInt "3000000000")', "!java_domain_error"),
    ('(Integer/parseInt " 1")', "!java_domain_error"),
    ("(Integer/parseInt nil)", "!java_type_error"),
    ('(Long/parseLong "3000000000")', "3000000000"),
    ('(Long/parseLong "9223372036854775808")', "!java_domain_error"),
    ('(java.lang.Long/parseLong "5")', "5"),
    ('(Double/parseDouble "0x1.8p0")', "1.5"),
    ('(Double/parseDouble " 2.5f ")', "2.5"),
    ('(Double/parseDouble "-Infinity")', "##-Inf"),
    ('(Double/parseDouble "abc")', "!java_domain_error"),
    ("(Double/parseDouble nil)", "!java_type_error"),
    ('(Float/parseFloat "0.5")', "0.5"),
    ('(Float/parseFloat "1e40")', "##Inf"),
    (
        '[(Boolean/parseBoolean "TRUE") (Boolean/parseBoolean "yes") (Boolean/parseBoolean nil)]',
        "[true false false]",
    ),
    ("(Boolean/parseBoolean 1)", "!java_type_error"),
    (
        "[(Double/NaN) (Double/POSITIVE_INFINITY) (Double/NEGATIVE_INFINITY)]",
        "[##NaN ##Inf ##-Inf]",
    ),
    ('(map Integer/parseInt ["1" "2"])', "[1 2]"),
    ("(Math/abs -9223372036854775808)", "-9223372036854775808"),
    ("(Math/abs -2.5)", "2.5"),
    ("(Math/abs 100000000000000000000)", "!java_type_error"),
    ("(Math/abs nil)", "!java_type_error"),
    ("[(Math/ceil 1.2) (Math/floor -1.2) (Math/ceil 3)]", "[2.0 -2.0 3.0]"),
    ("(Math/ceil -0.5)", "-0.0"),
    ("[(Math/max 1 2) (Math/min 1.5 -2.0) (Math/max ##NaN 1.0)]", "[2 -2.0 ##NaN]"),
    ("(Math/max 1 2.0)", "!java_type_error"),
    ('(Math/min "a" "b")', "!java_type_error"),
    (
        "[(Math/pow 2 10) (Math/pow 0 -1) (Math/pow -1 0.5) (Math/pow 1 ##Inf)]",
        "[1024.0 ##Inf ##NaN ##NaN]",
    ),
    (
        "[(Math/round -1.5) (Math/round 2.5) (Math/round ##NaN) (Math/round ##Inf)]",
        "[-1 3 0 9223372036854775807]",
    ),
    ("(Math/round 2)", "!java_type_error"),
    # floor(x + 1/2) taken exactly, as Java does: 0.49999999999999994 + 0.5 rounds to 1.0 in
    # floats (found by the Clojure campaign's probes)
    (
        "[(Math/round 0.49999999999999994) (Math/round -0.5) (Math/round -0.49999999999999994)"
        " (Math/round 4503599627370495.5) (Math/round -4503599627370495.5)]",
        "[0 0 0 4503599627370496 -4503599627370495]",
    ),
    ("[(Math/sqrt 16) (Math/sqrt -1)]", "[4.0 ##NaN]"),
    ("(pos? (System/currentTimeMillis))", "true"),
    ('(.length "😀a")', "3"),
    ("(.length \\a)", "1"),
    ("(.length nil)", "!java_type_error"),
    (
        '[(.indexOf "a😀b" "b") (.indexOf "abc" "z") (.indexOf "abcb" "b" 2) (.indexOf "ab" "" 9)]',
        "[3 -1 3 2]",
    ),
    ('(.lastIndexOf "abcb" "b")', "3"),
    ('[(.contains "abc" "b") (.startsWith "abc" \\a) (.endsWith "abc" "bc")]', "[true true true]"),
    ('(.contains "abc" nil)', "!java_type_error"),
    (
        '[(.substring "hello" 1 3) (.substring "hello" 2) (.substring "hello" 1.9)]',
        '["el" "llo" "ello"]',
    ),
    ('(.substring "abc" 2 5)', "!java_domain_error"),
    ('(.substring "abc" -1)', "!java_domain_error"),
    ('(.substring "abc" ##Inf)', "!java_type_error"),
    ('(.substring "a😀b" 1 2)', "!invalid_java_string"),
    ('(.substring "a😀b" 1 3)', '"😀"'),
    ('(.trim "\\t x \\n")', '"x"'),
    ("(Math/log 1)", "!unsupported_java_member"),
    ('(.toUpperCase "a")', "!unsupported_java_member"),
]


@cases(JAVA)
def test_java(src: str, want: str) -> None:
    assert outcome(src) == want


def test_long_receivers_are_rejected() -> None:
    assert outcome("(.length data/s)", data={"s": "x" * 300_000}) == "!invalid_java_string"
