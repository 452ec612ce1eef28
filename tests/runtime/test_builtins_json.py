"""JSON builtins (target §9.20): parsing never raises, generating refuses non-JSON."""

from __future__ import annotations

from builtin_cases import cases, outcome

JSON = [
    (
        '(json/parse-string "{\\"b\\":1,\\"a\\":[1,2.5,null,true]}")',
        '{"b" 1, "a" [1 2.5 nil true]}',
    ),
    ('(json/parse-string "\\"x\\"")', '"x"'),
    ('(json/parse-string "null")', "nil"),
    ('(json/parse-string "{bad")', "nil"),
    ('(json/parse-string "NaN")', "nil"),
    ("(json/parse-string nil)", "nil"),
    ("(json/parse-string 12)", "nil"),
    ('(get (json/parse-string "{\\"user_id\\":7}") :user-id)', "7"),
    ('(json/parse-lines "{\\"a\\":1}\\n\\n  \\nbad\\nnull\\n[2]")', '[{"a" 1} nil nil [2]]'),
    ("(json/parse-lines nil)", "nil"),
    (
        '(json/generate-string {:a [1 2.5 nil true "q\\""] "b" {1 2}})',
        '"{\\"a\\":[1,2.5,null,true,\\"q\\\\\\"\\"],\\"b\\":{\\"1\\":2}}"',
    ),
    ("(json/generate-string {:user-id 1})", '"{\\"user-id\\":1}"'),
    ("(json/generate-string {:z 1 :a 2})", '"{\\"z\\":1,\\"a\\":2}"'),
    ('(json/generate-string "é")', '"\\"é\\""'),
    ("(json/generate-string nil)", '"null"'),
    ("(json/generate-string 1.0E20)", '"1.0E20"'),
    ("(json/generate-string {:config [{:port :p}]})", "!type_error"),
    ("(json/generate-string #{1})", "!type_error"),
    ('(json/generate-string {:a 1 "a" 2})', "!type_error"),
    ("(json/generate-string ##NaN)", "!type_error"),
    ("(json/generate-string [##Inf])", "!type_error"),
    ("(json/generate-string {[1] 2})", "!type_error"),
    ("(json/generate-string {1.5 2})", "!type_error"),
    ("(json/generate-string inc)", "!type_error"),
    ('(json/parse-string (json/generate-string {"k" [1 {"n" nil}]}))', '{"k" [1 {"n" nil}]}'),
]


@cases(JSON)
def test_json(src: str, want: str) -> None:
    assert outcome(src) == want


def test_keyword_value_error_names_the_path() -> None:
    from ptc_compiler import run

    res = run("(json/generate-string {:config [{:port :p}]})")
    assert res.error is not None
    assert "[:config 0 :port]" in res.error.message
    assert res.error.hint is not None and "(name x)" in res.error.hint
