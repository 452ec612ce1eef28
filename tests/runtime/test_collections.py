"""PVec, PMap, PSet sharing and growth, and the shape helpers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ptc_runtime.collections import (
    PMap,
    PSet,
    PVec,
    as_fn,
    assoc,
    conj,
    dissoc,
    from_key,
    is_map,
    is_set,
    is_vector,
    seq_items,
    to_key,
)
from ptc_runtime.errors import PtcError
from ptc_runtime.values import keyword
from tests.complexity import assert_linear

A = keyword("a")
B = keyword("b")


def test_pvec_conj_shares_buffer_and_keeps_old_versions() -> None:
    v1: Any = conj([1, 2], 3)
    assert type(v1) is PVec
    v2: Any = conj(v1, 4)
    assert v2.buf is v1.buf
    v3: Any = conj(v1, 5)  # a second child of v1 must copy
    assert list(v1) == [1, 2, 3]
    assert list(v2) == [1, 2, 3, 4]
    assert list(v3) == [1, 2, 3, 5]
    v4: Any = conj(v2, 6)
    v5: Any = conj(v3, 7)
    assert list(v2) == [1, 2, 3, 4]
    assert list(v4) == [1, 2, 3, 4, 6]
    assert list(v5) == [1, 2, 3, 5, 7]


def test_pvec_sequence_protocol() -> None:
    v = PVec([1, 2, 3, 4], 3)
    assert len(v) == 3
    assert v[0] == 1 and v[-1] == 3
    assert v[1:] == [2, 3]
    assert list(reversed(v)) == [3, 2, 1]
    try:
        v[3]
    except IndexError:
        pass
    else:
        raise AssertionError("index 3 is past the end")


def test_pvec_extend_shares_then_copies() -> None:
    v = PVec([1], 1)
    a = v.extend([2, 3])
    b = v.extend([9])
    assert list(a) == [1, 2, 3] and list(b) == [1, 9] and list(v) == [1]


def test_conj_is_linear() -> None:
    def job(n: int) -> Callable[[], object]:
        def build() -> object:
            v: object = []
            for i in range(n):
                v = conj(v, i)
            return v

        return build

    assert list(job(50_000)()) == list(range(50_000))  # type: ignore[call-overload]
    assert_linear(job, 20_000)


def test_assoc_is_not_quadratic_and_keeps_order() -> None:
    def job(n: int) -> Callable[[], object]:
        def build() -> object:
            m: object = {}
            for i in range(n):
                m = assoc(m, i, i * 2)
            return m

        return build

    m = job(50_000)()
    assert type(m) is PMap
    assert list(m) == list(range(50_000))
    assert m[49_999] == 99_998
    assert_linear(job, 10_000)


def test_pmap_old_versions_unchanged() -> None:
    base = PMap.from_dict({A: 1})
    m1 = base.assoc(B, 2)
    m2 = base.assoc("c", 3)
    m3 = m1.assoc(A, 10)
    assert list(base.items()) == [(A, 1)]
    assert list(m1.items()) == [(A, 1), (B, 2)]
    assert list(m2.items()) == [(A, 1), ("c", 3)]
    assert list(m3.items()) == [(A, 10), (B, 2)]


def test_pmap_dissoc_and_readd_moves_to_end() -> None:
    m = PMap.from_dict({1: "a", 2: "b", 3: "c"})
    m2 = m.dissoc(1)
    assert list(m2) == [2, 3]
    assert list(m2.assoc(1, "z")) == [2, 3, 1]
    assert list(m) == [1, 2, 3]
    many = PMap.from_dict({i: i for i in range(100)})
    for i in range(90):
        many = many.dissoc(i)
    assert list(many) == list(range(90, 100))
    assert many.get(95) == 95 and 5 not in many and len(many) == 10


def test_small_assoc_stays_dict_and_large_becomes_pmap() -> None:
    m = assoc({}, A, 1)
    assert type(m) is dict
    big = {i: i for i in range(20)}
    out = assoc(big, "x", 1)
    assert type(out) is PMap and len(big) == 20 and list(out)[-1] == "x"


def test_mixed_keys_and_bool_keys() -> None:
    m = assoc(assoc({}, True, A), 1, B)
    assert len(m) == 2  # type: ignore[arg-type]
    assert [from_key(k) for k in m] == [True, 1]  # type: ignore[attr-defined]


def test_one_logical_key_writes() -> None:
    assert assoc({"n": 1}, keyword("n"), 2) == {"n": 2}
    assert assoc({"user_id": 1}, keyword("user-id"), 2) == {"user_id": 2}
    assert dissoc({"a": 1, "b": 2}, A) == {"b": 2}
    assert dissoc(None, A) is None


def test_assoc_on_vectors() -> None:
    assert assoc([1, 2], 0, 9) == [9, 2]
    assert list(assoc([1, 2], 2, 3)) == [1, 2, 3]  # type: ignore[call-overload]
    for bad in (3, -1):
        try:
            assoc([1, 2], bad, 0)
        except PtcError as e:
            assert e.code == "runtime_error"
        else:
            raise AssertionError("out of range")


def test_pset_order_membership_call_and_growth() -> None:
    s = PSet.from_iterable([3, 1, 2, 1.0, True])
    assert list(s) == [3, 1, 2, True]
    assert s(2) == 2 and s(9) is None and 1.0 in s and [1] not in s
    big = PSet.from_iterable([])
    for i in range(20_000):
        big = big.conj(i)
    assert len(big) == 20_000 and list(big)[:3] == [0, 1, 2]
    assert len(big.disj(5)) == 19_999 and len(big) == 20_000
    vs = PSet.from_iterable([[1, 2], [1.0, 2]])
    assert len(vs) == 1


def test_conj_variants() -> None:
    assert conj(None, 1) == [1]
    assert conj({A: 1}, [B, 2]) == {A: 1, B: 2}
    assert conj({A: 1}, {B: 2}) == {A: 1, B: 2}
    assert list(conj(PSet.from_iterable([1]), 2)) == [1, 2]  # type: ignore[call-overload]


def test_seq_items() -> None:
    assert seq_items(None) == ()
    v = [1, 2]
    assert seq_items(v) is v
    assert seq_items({A: 1, to_key(True): 2}) == [[A, 1], [True, 2]]
    assert seq_items(PSet.from_iterable([1, 2])) == [1, 2]
    assert seq_items("h\U0001f600") == ["h", "\U0001f600"]
    try:
        seq_items(5, "map")
    except PtcError as e:
        assert e.code == "type_error" and e.message == "map: expected a collection, got number"


def test_shape_predicates() -> None:
    assert is_vector([]) and is_vector(PVec([], 0)) and not is_vector("")
    assert is_map({}) and is_map(PMap.from_dict({})) and not is_map([])
    assert is_set(PSet.from_iterable([])) and not is_set({})


def test_as_fn() -> None:
    assert as_fn(A)({A: 1}) == 1
    assert as_fn({"a": 5})(A) == 5
    assert as_fn(PSet.from_iterable([1]))(1) == 1
    assert as_fn([7, 8])(1) == 8  # vectors index, as in Clojure (GAP-S13)
    for bad in (None, 1, "s"):
        try:
            as_fn(bad)
        except PtcError as e:
            assert e.code == "not_callable" and e.message.startswith("not callable: ")
        else:
            raise AssertionError("callable?")
