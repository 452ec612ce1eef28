"""Behaviours the reference implementation's own test suite checks (issue: conformance
against PtcRunner's cases), in both execution modes where the run crosses to the host."""

from __future__ import annotations

import pytest

import ptc_compiler


def value(src: str) -> object:
    result = ptc_compiler.run(src, native=True)
    assert result.ok, result.error
    return result.value


def error_code(src: str) -> str:
    result = ptc_compiler.run(src, native=True)
    assert not result.ok, result.value
    assert result.error is not None
    return result.error.code


@pytest.mark.parametrize(
    ("src", "expected"),
    [
        ("(when true (def a 1) (+ a 1))", 2),
        ("(if true (do (def a 1) (+ a 1)) 0)", 2),
        ("(when-some [x 1] (def a 1) (+ a x))", 2),
        ("(when-first [x [1]] (def a 1) (+ a x))", 2),
        ("(let [x 1] (when x (def a 2)) (+ a x))", 3),
        ("(doseq [i [1 2 3]] (def a i)) a", 3),
        ("(for [i [1 2]] (do (def a i) a))", [1, 2]),
        ("(def x (do (def y 1) (+ y 1))) [x y]", [2, 1]),
    ],
)
def test_def_in_nested_bodies_is_known_after_it(src: str, expected: object) -> None:
    assert value(src) == expected


def test_builtin_redefined_inside_an_expression_is_the_users_from_then_on() -> None:
    src = "(defn my-range [a b c] [:mine]) (take (do (def range my-range) 3) (range 1 5 0))"
    assert ptc_compiler.run(src).value == ["mine"]


def test_def_in_an_untaken_branch_fails_when_read() -> None:
    assert error_code("(if false (def a 1) 0) (inc a)") == "unbound_var"


def test_def_in_a_fn_body_is_still_not_known_outside() -> None:
    assert error_code("(defn f [] (def z 1)) z") == "unbound_var"


@pytest.mark.parametrize(
    "src",
    [
        "{{:a 1 :b 2} :x {:b 2 :a 1} :y}",
        "#{#{1 2} #{2 1}}",
        "{[#{1 2}] 1 [#{2 1}] 2}",
        "#{{:a #{1 2}} {:a #{2 1}}}",
        "#{[1 2] (1 2)}",
        "{(list 1 2) 1 [list 1 2] 2}",
    ],
)
def test_duplicate_collection_keys_in_literals(src: str) -> None:
    assert error_code(src) == "duplicate_key"


def test_distinct_collection_keys_are_kept() -> None:
    assert value("(count {{:a 1} 1 {:a 2} 2})") == 2
    assert value("(count #{#{1 2} #{1 3}})") == 2


@pytest.mark.parametrize(
    ("src", "expected"),
    [
        ('(merge "ab")', "ab"),
        ("(merge [1 2])", [1, 2]),
        ("(merge 5)", 5),
        ("(merge-with + [1 2])", [1, 2]),
        ('(dissoc "ab")', "ab"),
        ("(disj [1 2])", [1, 2]),
        ("(into)", []),
        ("(into [1])", [1]),
        ("(apply into [[1] [2]])", [1, 2]),
    ],
)
def test_one_argument_collection_fns_return_it(src: str, expected: object) -> None:
    assert ptc_compiler.run(src).value == expected


@pytest.mark.parametrize("src", ["(assoc {})", "(apply assoc {} [])", "(fnil inc)"])
def test_missing_arguments_are_arity_errors(src: str) -> None:
    assert error_code(src) == "arity_error"


@pytest.mark.parametrize(
    "src",
    [
        "(-> 5 (juxt inc dec))",
        "(comp 5 inc)",
        "(complement nil)",
        "(some-fn 5)",
        "(every-pred 5)",
        "(fnil 5 1)",
        "(partial 5 1)",
    ],
)
def test_combinators_build_from_non_callables(src: str) -> None:
    assert value(f"(fn? {src})") is True


def test_a_non_callable_fails_when_the_built_fn_calls_it() -> None:
    assert error_code("((juxt 5) 1)") == "not_callable"
    assert error_code("((comp inc 5) 1)") == "not_callable"


def test_str_of_a_regex_is_its_source() -> None:
    assert value('[(str #"a+") (str "x" #"a+")]') == ["a+", "xa+"]
    assert value('(pr-str #"a+")') == '#"a+"'


def test_contains_on_a_string_takes_an_integral_float_index() -> None:
    assert value('[(contains? "abc" 1.0) (contains? "abc" 3.0) (contains? "abc" 1.5)]') == [
        True,
        False,
        False,
    ]


def test_plus_as_a_value_keeps_negative_zero() -> None:
    assert value("[(first (map str (map + [-0.0]))) (str (apply + [-0.0]))]") == ["-0.0", "-0.0"]


@pytest.mark.parametrize(
    ("src", "expected"),
    [("(max-by identity 5)", 5), ("(min-by identity :a)", "a"), ("(max-by identity nil)", None)],
)
def test_max_by_of_one_non_collection_candidate(src: str, expected: object) -> None:
    assert ptc_compiler.run(src).value == expected


def test_integer_parsing_takes_unicode_digits() -> None:
    assert value('[(Integer/parseInt "١٢") (Long/parseLong "１２") (parse-long "-١٢")]') == [
        12,
        12,
        -12,
    ]
    assert error_code('(Double/parseDouble "١٢")') == "java_domain_error"


def test_instant_parse_is_case_insensitive() -> None:
    assert value('(str (Instant/parse "1970-01-01t00:00:00z"))') == "1970-01-01T00:00:00Z"
