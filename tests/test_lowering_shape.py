"""Shape of the generated code where compile latency depends on it (fewer statements)."""

from __future__ import annotations

import re

import pytest

from ptc_compiler import api


@pytest.mark.parametrize(
    ("source", "want"),
    [
        ("(let [xs (filter (fn [x] (> x 1)) [1 2 3])] xs)", [2, 3]),
        ("(let [xs (map #(* % 10) [1 2])] (count xs))", 2),
        ("(let [xs (remove #(= % 2) [1 2 3]) n (count xs)] [xs n])", [[1, 3], 2]),
    ],
)
def test_let_bound_inline_map_filter_collects_straight_into_the_local(
    source: str, want: object
) -> None:
    program = api.compile(source)
    python = program.python_source
    # The loop's accumulator is copied into the local once, with no temporary in between.
    assert re.search(r"^\s*t\d+ = t\d+$", python, re.M) is None, python
    assert re.search(r"^\s*v\d+_xs = t\d+$", python, re.M), python
    result = program.run()
    assert result.ok and result.value == want, result


@pytest.mark.parametrize(
    ("source", "helper", "want"),
    [
        # a name without `-`: the name rides along, two dict probes, exact key first
        ('(:a {"a" 1 :a 2})', "rt_kfield(", 2),
        ('(:a {"a" 1})', "rt_kfield(", 1),
        ('(get {"a" nil} :a 5)', "rt_kfield(", None),
        ("(:a {:b 1} 5)", "rt_kfield(", 5),
        ('(:a_b {"a-b" 1} 5)', "rt_kfield(", 5),  # `_` names have one string spelling
        ("(get [1 2] :a 3)", "rt_kfield(", 3),
        ("(:a (hash-map :a 4))", "rt_kfield(", 4),
        ("(:a nil)", "rt_kfield(", None),
        # a name with `-` also reads the `_` spellings, passed too (`rt.kfield_dash`)
        ('(:user-id {"user_id" 7})', "rt_kdash(", 7),
        ('(get {"user_id" 7} :user-id)', "rt_kdash(", 7),
    ],
)
def test_constant_keyword_reads(source: str, helper: str, want: object) -> None:
    program = api.compile(source)
    assert helper in program.python_source, program.python_source
    result = program.run()
    assert result.ok and result.value == want, result


@pytest.mark.parametrize(
    "source",
    ['(get {"a" 1} "a")', '(let [k :a] (get {"a" 1} k))', '(get {"a" 1} :a 2 3)'],
)
def test_other_gets_keep_the_builtin(source: str) -> None:
    # a string or computed key, or a wrong arity (the builtin's arity error) is not
    # a constant keyword read
    assert "rt_kfield" not in api.compile(source).python_source
