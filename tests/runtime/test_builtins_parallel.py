"""Table-driven tests of `pmap` and `pcalls` (builtins/parallel.py), run end to end."""

from __future__ import annotations

import pytest

from ptc_compiler import run
from ptc_runtime.printer import pr_str

# (program, printed result)
CASES = [
    ("(pmap inc [1 2 3])", "[2 3 4]"),
    ("(pmap inc nil)", "[]"),
    ("(pmap + [1 2 3] [10 20])", "[11 22]"),
    ('(pmap str "ab")', '["a" "b"]'),
    ("(pmap :a [{:a 1} {:a 2}])", "[1 2]"),
    ("(apply pmap [inc [1 2]])", "[2 3]"),
    ("(map pmap [inc dec] [[1] [2]])", "[[2] [1]]"),
    ("(pcalls)", "[]"),
    ("(pcalls (fn [] 1) (fn [] :b))", "[1 :b]"),
    ("(let [x 5] (pcalls #(* x 2) #(+ x 1)))", "[10 6]"),
]

# (program, error code, message fragment)
ERRORS = [
    ("(pmap (fn [x] (/ 1 x)) [1 0 2])", "arithmetic_error", "pmap: item 1 failed"),
    ("(pcalls (fn [] 1) (fn [] (/ 1 0)))", "arithmetic_error", "pcalls: item 1 failed"),
    ("(pmap (fn [x] (return x)) [1])", "invalid_form", "return/fail"),
    ("(pcalls (fn [] (fail :x)))", "invalid_form", "return/fail"),
]


@pytest.mark.parametrize(("program", "want"), CASES)
def test_result(program: str, want: str) -> None:
    result = run(program, native=True)
    assert result.ok, result.error
    assert pr_str(result.value) == want


@pytest.mark.parametrize(("program", "code", "fragment"), ERRORS)
def test_error(program: str, code: str, fragment: str) -> None:
    result = run(program)
    assert result.error is not None and result.error.code == code, result.error
    assert fragment in result.error.message


def test_output_in_input_order_and_defs_discarded() -> None:
    result = run("(pmap (fn [x] (println x) (def seen x) x) (range 10)) (pr-str (count (range 3)))")
    assert result.ok and result.output == "".join(f"{i}\n" for i in range(10))
    assert not run("(pmap (fn [x] (def seen x)) [1]) seen").ok
