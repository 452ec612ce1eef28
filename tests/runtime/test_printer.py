"""Printer goldens: floats per decision 2, collections, escapes, bounded output."""

from __future__ import annotations

import math

import pytest

from ptc_runtime.collections import PMap, PSet, PVec, to_key
from ptc_runtime.printer import TRUNCATION_MARKER, format_float, pr_str, str_
from ptc_runtime.values import SymbolRef, VarRef, keyword

FLOATS = [
    (1.0, "1.0"),
    (0.1, "0.1"),
    (100.0, "100.0"),
    (123.456, "123.456"),
    (1e7, "1.0E7"),
    (9999999.0, "9999999.0"),
    (1e-3, "0.001"),
    (1e-4, "1.0E-4"),
    (1e-5, "1.0E-5"),
    (5e-324, "4.9E-324"),  # Double.MIN_VALUE as Java writes it (two digits, the closer)
    (-5e-324, "-4.9E-324"),
    (1e-323, "1.0E-323"),
    (1.5e-323, "1.5E-323"),
    (1e20, "1.0E20"),
    (1e21, "1.0E21"),
    (1.5e300, "1.5E300"),
    (-2.5e-7, "-2.5E-7"),
    (-0.0, "-0.0"),
    (0.0, "0.0"),
    (1 / 3, "0.3333333333333333"),
    (5.0, "5.0"),
]


@pytest.mark.parametrize(("x", "want"), FLOATS, ids=[w for _, w in FLOATS])
def test_float_format(x: float, want: str) -> None:
    assert pr_str(x) == want
    assert str_(x) == want


@pytest.mark.parametrize(
    ("x", "pr", "s"),
    [
        (math.inf, "##Inf", "Infinity"),
        (-math.inf, "##-Inf", "-Infinity"),
        (math.nan, "##NaN", "NaN"),
    ],
)
def test_special_floats(x: float, pr: str, s: str) -> None:
    assert pr_str(x) == pr
    assert str_(x) == s
    assert format_float(x, readable=False) == s


def f_named_thing() -> None:
    """A stand-in for a compiled fn (named f<n>_<name>)."""


f_named_thing.__name__ = "f12_my_fn"

A = keyword("a")

VALUES = [
    pytest.param(None, "nil", "", id="nil"),
    pytest.param(True, "true", "true", id="true"),
    pytest.param(42, "42", "42", id="int"),
    pytest.param(10**30, "1" + "0" * 30, "1" + "0" * 30, id="bigint"),
    pytest.param('a"b\\c\nd\te', '"a\\"b\\\\c\\nd\\te"', 'a"b\\c\nd\te', id="escapes"),
    pytest.param(A, ":a", ":a", id="keyword"),
    pytest.param(keyword("user-id"), ":user-id", ":user-id", id="keyword-hyphen"),
    pytest.param([1, "x", None], '[1 "x" nil]', '[1 "x" nil]', id="vector"),
    pytest.param(PVec([1, 2, 3], 2), "[1 2]", "[1 2]", id="pvec"),
    pytest.param({A: 1, keyword("b"): "x"}, '{:a 1, :b "x"}', '{:a 1, :b "x"}', id="map"),
    pytest.param({}, "{}", "{}", id="empty-map"),
    pytest.param(PMap.from_dict({"k": [1.0]}), '{"k" [1.0]}', '{"k" [1.0]}', id="pmap"),
    pytest.param(
        {to_key(True): 1, to_key([1]): 2}, "{true 1, [1] 2}", "{true 1, [1] 2}", id="wrapped-keys"
    ),
    pytest.param(PSet.from_iterable([1, 2]), "#{1 2}", "#{1 2}", id="set"),
    pytest.param(
        [math.inf, {A: [PSet.from_iterable([])]}],
        "[##Inf {:a [#{}]}]",
        "[##Inf {:a [#{}]}]",
        id="nested",
    ),
    pytest.param(SymbolRef("x"), "'x", "'x", id="symbol-ref"),
    pytest.param(VarRef("x"), "#'x", "#'x", id="var-ref"),
    pytest.param(f_named_thing, "#function[my_fn]", "#function[my_fn]", id="compiled-fn"),
    pytest.param(lambda: None, "#function[fn]", "#function[fn]", id="anonymous-fn"),
    pytest.param(object(), "#object[unknown]", "#object[unknown]", id="unknown"),
]


@pytest.mark.parametrize(("x", "pr", "s"), VALUES)
def test_print(x: object, pr: str, s: str) -> None:
    assert pr_str(x) == pr
    assert str_(x) == s


def test_builtin_prints_with_its_ptc_name() -> None:
    from ptc_runtime.builtins import BUILTINS

    assert pr_str(BUILTINS["get-in"].fn) == "#function[get-in]"
    assert pr_str(BUILTINS["+"].fn) == "#function[+]"


def test_regex_prints_source() -> None:
    from ptc_runtime.regexp import compile_regex

    assert pr_str(compile_regex("\\d+")) == '#"\\d+"'


def test_deep_value_prints_without_recursion() -> None:
    v: list[object] = []
    for _ in range(20_000):
        v = [v]
    assert pr_str(v) == "[" * 20_001 + "]" * 20_001


def test_shared_value_is_bounded_by_budget() -> None:
    v: list[object] = [1]
    for _ in range(60):
        v = [v, v]  # 2^60 leaves
    out = pr_str(v, limit=500)
    assert len(out) == 500 + len(TRUNCATION_MARKER)
    assert out.endswith(TRUNCATION_MARKER)


def test_no_python_repr_leaks() -> None:
    text = pr_str([object(), print, {A: lambda x: x}])
    assert "0x" not in text and "<" not in text
