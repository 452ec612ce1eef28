"""Comparisons of three or more numbers inlined as Python chains (`rules_operators.inline`).

Python's `a < b < c` skips `c` once `a < b` is false; Clojure evaluates every argument of
`(< a b c)` before comparing, so an operand that fails fails the call. Found by the Clojure
campaign: `(< 2 1 (quot 1 0))` was false here, an ArithmeticException in Clojure. A chain
is inlined only when the operands past the second are names, literals or `+`/`-` of them
on proven numbers (nothing to run, nothing to fail).
"""

from __future__ import annotations

import pytest

import ptc_compiler


@pytest.mark.parametrize(
    "source",
    [
        "(< 2 1 (quot 1 0))",
        "(let [x 2] (< x 1 (quot 1 0)))",
        "(> 1 2 (mod 5 0))",
        "(<= 3 1 (quot 1 0))",
        "(>= 1 2 3 (quot 1 0))",
        "(= 1 2 (quot 1 0))",
        "(== 1 2 (quot 1 0))",
        "(and (< 2 1 (quot 1 0)) true)",
        "(let [f (fn [n] (< n 1 (quot n 0)))] (f 2))",
    ],
)
def test_every_operand_runs(source: str) -> None:
    result = ptc_compiler.run(source)
    assert not result.ok, ptc_compiler.pr_str(result.value)
    assert result.error is not None and result.error.code == "arithmetic_error"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("(let [a 1 b 2 c 3] [(< a b c) (> a b c) (<= a a b) (= a a a) (== a b c)])",
         "[true false true true false]"),
        ("(let [a 1 b 2] [(< a b (inc b)) (< b a (inc b)) (= a a (dec b))])", "[true false true]"),
        ("(let [xs [5 1 3]] (filter #(< 0 % 4) xs))", "[1 3]"),
    ],
)
def test_values_are_unchanged(source: str, expected: str) -> None:
    result = ptc_compiler.run(source)
    assert result.ok, result.error
    assert ptc_compiler.pr_str(result.value) == expected


@pytest.mark.parametrize(
    ("source", "chain"),
    [
        ("(fn [a b] (< 0 a b 10))", "0 < v1_a < v2_b < 10"),
        ("(fn [a b] (< 0 a (inc b)))", "0 < v1_a < v2_b + 1"),
        ("(fn [a b] (<= a b (- a)))", "v1_a <= v2_b <= -v1_a"),
    ],
)
def test_inert_operands_still_chain(source: str, chain: str) -> None:
    # Where nothing could be skipped (locals, literals, +/- of them on numbers) the chain
    # stays inline in the fn's numeric version.
    assert chain in ptc_compiler.compile(source).python_source


def test_a_call_past_the_second_operand_is_not_chained() -> None:
    python = ptc_compiler.compile("(fn [a b] (< 0 a (quot b 2)))").python_source
    assert "0 < v1_a <" not in python
