"""Regex builtins (target §9.15): Java syntax, Clojure results, size and time budgets."""

from __future__ import annotations

from builtin_cases import cases, outcome

REGEX = [
    ('(re-find #"\\d+" "ab 123 45")', '"123"'),
    ('(re-find #"(\\d+)-(\\d+)?" "a 12- b")', '["12-" "12" nil]'),
    ('(re-find #"z" "abc")', "nil"),
    ('(re-find "a" "abc")', "!type_error"),
    ('(re-find #"a" nil)', "!type_error"),
    ('(re-matches #"\\w+" "abc")', '"abc"'),
    ('(re-matches #"\\w+" "abc!")', "nil"),
    ('(re-matches #"(a)(b)" "ab")', '["ab" "a" "b"]'),
    ('(re-matches #"\\w+\\z" "abc")', '"abc"'),
    # \Q...\E quotes its text, as in Java; an unclosed \Q quotes to the end
    ('[(re-find #"\\Qa.b\\E" "axb a.b") (re-find #"\\Qa.b\\E" "axb")]', '["a.b" nil]'),
    ('(re-seq #"x\\Q(*)\\E+" "x(*)) x(*)(*")', '["x(*))" "x(*)"]'),  # + on the last char
    ('[(re-find #"\\Q[a]" "z[a]") (re-find #"[\\Q.-\\E]+" "a.-.b")]', '["[a]" ".-."]'),
    ('(re-find #"(?<year>\\d{4})" "in 2024")', '["2024" "2024"]'),
    ('(re-find #"a++b" "aab")', '"aab"'),
    ('(re-find #"(?i)ABC" "xabc")', '"abc"'),
    ('(re-find #"(?<=\\$)\\d+" "cost $42")', '"42"'),
    ('(re-seq #"\\d" "a1b2")', '["1" "2"]'),
    ('(re-seq #"(\\w)=(\\d)" "a=1 b=2")', '[["a=1" "a" "1"] ["b=2" "b" "2"]]'),
    ('(re-seq #"x" "ab")', "nil"),
    ('(re-split #"," "a,b,,")', '["a" "b"]'),
    ('(re-split #"\\s+" "a b  c")', '["a" "b" "c"]'),
    ('(re-split "," "a,b")', "!type_error"),
    ('(re-pattern "a+")', '#"a+"'),
    ('(re-find (re-pattern "\\\\d") "x7")', '"7"'),
    ('(re-pattern "(")', "!invalid_regex"),
    ('(re-pattern #"a")', "!type_error"),
    ("(re-pattern nil)", "!type_error"),
    ('[(regex? #"a") (regex? "a") (regex? nil)]', "[true false false]"),
    ('(= #"a" (re-pattern "a"))', "true"),
]


@cases(REGEX)
def test_regex(src: str, want: str) -> None:
    assert outcome(src) == want


def test_pattern_size_limit() -> None:
    assert outcome('(re-pattern (str "a" data/p))', data={"p": "b" * 300}) == "!runtime_error"


def test_catastrophic_backtracking_is_a_runtime_error() -> None:
    got = outcome('(re-find #"(a|aa)+$" data/s)', data={"s": "a" * 5000 + "b"})
    assert got == "!runtime_error"


def test_the_whole_subject_is_searched() -> None:
    """No limit cuts a subject silently: a match past 32 KiB (the reference's cut) counts."""
    data = {"near": "a" * 32_000 + "X", "far": "a" * 40_000 + "X"}
    assert outcome('(re-find #"X" data/near)', data=data) == '"X"'
    assert outcome('(re-find #"X" data/far)', data=data) == '"X"'
    assert outcome('(count (re-matches #"a+X" data/far))', data=data) == "40001"
