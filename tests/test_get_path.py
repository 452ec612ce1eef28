"""`(get-in m [k ...])` with a literal vector path lowers to `rt_get_path(m, k, ...)`
(`ptc_runtime.lookup.get_path`): the keys as arguments, no vector built per call. The
runtime side is compared with `get_in` in `tests/runtime/test_lookup.py`; here: where
the lowering applies, where it must not, and that programs see the same values, output
order and errors as through the `get-in` builtin."""

from __future__ import annotations

import pytest

import ptc_compiler
from ptc_compiler import pr_str, run


@pytest.mark.parametrize(
    "src",
    [
        '(get-in m [:a (:k x) "c" 0])',
        "(get-in m [:a])",
        "(get-in m [])",
        "(get-in (:m x) [(inc 1) :a])",
    ],
)
def test_literal_paths_pass_their_keys(src: str) -> None:
    code = ptc_compiler.compile(f"(fn [m x] {src})").python_source
    assert "rt_get_path(" in code and "b_get_in" not in code, code


@pytest.mark.parametrize(
    "src",
    [
        "(get-in m [:a :b] 0)",  # with a default: the builtin
        "(get-in m x)",  # a path that is a value
        "(get-in m (vector :a :b))",
        "(get-in m)",  # a wrong arity keeps the builtin's error
    ],
)
def test_other_get_ins_keep_the_builtin(src: str) -> None:
    code = ptc_compiler.compile(f"(fn [m x] {src})").python_source
    assert "rt_get_path(" not in code and "b_get_in" in code, code


DATA = {"m": {"a": {"b-c": [1, {"d_e": None, "f": 2}]}, "1": {"x": 1}}}


@pytest.mark.parametrize(
    "path",
    [
        "[:a :b-c 1 :d-e]",  # a nil value is found, not defaulted
        "[:a :b-c 1 :f]",
        '["a" "b-c" 0]',
        "[:a :b-c 5]",
        "[:a :b-c 1 :f :g]",  # through a number
        "[1 :x]",  # 1 is not "1"
        "[:a [1]]",  # a vector key
        "[(do (println 1) :a) (do (println 2) :b-c) 0]",  # keys run in order, once
        "[]",
        "[nil]",
    ],
)
def test_same_values_and_output_as_the_builtin(path: str) -> None:
    fast = run(f"(get-in data/m {path})", data=DATA)
    slow = run(f"(let [g get-in] (g data/m {path}))", data=DATA)
    assert "rt_get_path(" in ptc_compiler.compile(f"(get-in data/m {path})").python_source
    assert fast.ok and slow.ok, (fast, slow)
    assert pr_str(fast.value) == pr_str(slow.value) and fast.output == slow.output


def test_errors_keep_their_position() -> None:
    res = run("(get-in {:a 1}\n  [(inc nil)])")
    assert res.error is not None and (res.error.line, res.error.column) == (2, 4), res.error
