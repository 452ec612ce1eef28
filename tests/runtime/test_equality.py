"""PTC `=`, its hash, EqKey, and the natural order."""

from __future__ import annotations

import math

import pytest

from ptc_runtime.collections import EqKey, PMap, PSet, PVec, to_key
from ptc_runtime.equality import compare, eq, hash_value
from ptc_runtime.errors import PtcError
from ptc_runtime.values import SymbolRef, keyword

A = keyword("a")
B = keyword("b")
NAN = math.nan

EQUAL = [
    pytest.param(1, 1.0, id="int-float"),
    pytest.param(0, -0.0, id="zero-negzero"),
    pytest.param(None, None, id="nil"),
    pytest.param(True, True, id="true"),
    pytest.param("a", "a", id="string"),
    pytest.param(A, keyword("a"), id="keyword"),
    pytest.param([1, [2, 3.0]], [1.0, [2, 3]], id="nested-vectors"),
    pytest.param([1, 2], PVec([1, 2, 99], 2), id="list-pvec"),
    pytest.param({A: 1, "b": [1]}, {"b": [1.0], A: 1}, id="maps-any-order"),
    pytest.param({A: 1}, PMap.from_dict({A: 1}), id="dict-pmap"),
    pytest.param(PSet.from_iterable([1, 2]), PSet.from_iterable([2, 1.0]), id="sets"),
    pytest.param({to_key([1]): 2}, {to_key([1.0]): 2}, id="vector-keys"),
    pytest.param(SymbolRef("x"), SymbolRef("x"), id="symbol-ref"),
    pytest.param([], PVec([], 0), id="empty-vectors"),
]

UNEQUAL = [
    pytest.param(True, 1, id="true-1"),
    pytest.param(False, 0, id="false-0"),
    pytest.param(None, False, id="nil-false"),
    pytest.param(NAN, NAN, id="nan"),
    pytest.param([NAN], [NAN], id="nan-in-vector"),
    pytest.param(A, "a", id="keyword-string"),
    pytest.param([1, 2], [1, 2, 3], id="lengths"),
    pytest.param([1], {1: 1}, id="vector-map"),
    pytest.param([1, 2], PSet.from_iterable([1, 2]), id="vector-set"),
    pytest.param({A: 1}, {"a": 1}, id="map-key-spelling"),
    pytest.param({A: None}, {B: None}, id="map-keys"),
    pytest.param([True], [1], id="nested-bool"),
    pytest.param("1", 1, id="string-number"),
]


@pytest.mark.parametrize(("a", "b"), EQUAL)
def test_equal(a: object, b: object) -> None:
    assert eq(a, b)
    assert eq(b, a)
    assert hash_value(a) == hash_value(b)


@pytest.mark.parametrize(("a", "b"), UNEQUAL)
def test_unequal(a: object, b: object) -> None:
    assert not eq(a, b)
    assert not eq(b, a)


def test_same_nan_object_is_not_equal_to_itself() -> None:
    x = NAN
    assert not eq(x, x)


def test_eqkey_bool_and_int_are_distinct_keys() -> None:
    d = {to_key(True): "t", to_key(1): "one"}
    assert len(d) == 2
    assert d[to_key(True)] == "t"
    assert d[1] == "one"


def test_eqkey_vector_keys_follow_ptc_equality() -> None:
    d = {to_key([1, [2]]): "v"}
    assert d[to_key(PVec([1.0, [2]], 2))] == "v"
    assert to_key([1]) == EqKey([1])
    assert to_key([1]) != EqKey([2])


def test_deep_values_do_not_recurse() -> None:
    a: list[object] = []
    b: list[object] = []
    for _ in range(20_000):
        a = [a]
        b = [b]
    assert eq(a, b)
    assert compare(a, b) == 0
    assert isinstance(hash_value(a), int)


ORDER = [
    pytest.param(None, 1, -1, id="nil-first"),
    pytest.param(None, None, 0, id="nil-nil"),
    pytest.param(1, 2.5, -1, id="numbers"),
    pytest.param(2, 2.0, 0, id="int-float"),
    pytest.param("b", "a", 1, id="strings"),
    pytest.param("\uffff", "\U0001f600", 1, id="utf16-code-units"),
    pytest.param(A, B, -1, id="keywords"),
    pytest.param(False, True, -1, id="booleans"),
    pytest.param([9], [1, 1], -1, id="vector-length-first"),
    pytest.param([1, 3], [1, 2], 1, id="vector-elementwise"),
]


@pytest.mark.parametrize(("a", "b", "want"), ORDER)
def test_compare(a: object, b: object, want: int) -> None:
    assert compare(a, b) == want
    assert compare(b, a) == -want


@pytest.mark.parametrize(
    ("a", "b"),
    [(1, "a"), ({A: 1}, {A: 1}), (NAN, 1), (A, "a"), (True, 1), (PSet.from_iterable([]), 1)],
)
def test_compare_incomparable(a: object, b: object) -> None:
    with pytest.raises(PtcError) as info:
        compare(a, b)
    assert info.value.code == "type_error"
