"""Key normalisation at the public boundary (spec §7) and contract-guided `from_public`."""

from __future__ import annotations

import datetime as dt

import pytest

from ptc_compiler import signatures as sigs
from ptc_runtime.collections import PMap, PSet, PVec
from ptc_runtime.values import keyword as kw

UTC = dt.UTC

TO_PUBLIC = [
    ({kw("order-count"): 5, kw("is-active"): True}, {"order_count": 5, "is_active": True}),
    ({"a-b": [{kw("c-d"): kw("active")}]}, {"a_b": [{"c_d": "active"}]}),
    (kw("x"), "x"),
    ([1, (2, 3)], [1, [2, 3]]),
    (PVec([PMap.from_dict({kw("k"): 1})], 1), [{"k": 1}]),
    (PSet.from_iterable([kw("a")]), ["a"]),
    ({1: "x", None: 2, 2.5: 3}, {"1": "x", "nil": 2, "2.5": 3}),
    (dt.datetime(2024, 1, 2, 3, 4, 5, tzinfo=UTC), "2024-01-02T03:04:05+00:00"),
    (None, None),
    ("s-t", "s-t"),
]


@pytest.mark.parametrize(("value", "want"), TO_PUBLIC)
def test_to_public(value: object, want: object) -> None:
    assert sigs.to_public(value) == want


@pytest.mark.parametrize(
    "value",
    [{kw("a-b"): 1, "a_b": 2}, {"a-b": 1, "a_b": 2}, [{"x": {kw("y"): 1, "y": 2}}]],
)
def test_collisions_are_errors(value: object) -> None:
    with pytest.raises(sigs.NormalizationError) as info:
        sigs.to_public(value)
    assert info.value.code == "key_collision"


def test_collision_path() -> None:
    with pytest.raises(sigs.NormalizationError) as info:
        sigs.to_public({"out": [{kw("a-b"): 1, "a_b": 2}]})
    assert info.value.path == ["out", 0, "a_b"]


def test_deep_value_is_a_clean_error() -> None:
    v: object = 1
    for _ in range(10_000):
        v = [v]
    with pytest.raises(sigs.NormalizationError):
        sigs.to_public(v)


def test_from_public_keywords_and_datetimes() -> None:
    s = sigs.parse("(status :keyword, at :datetime?) -> {tags [:keyword], at :datetime}")
    args = sigs.from_public(s, {"status": "active", "at": "2024-01-01T00:00:00Z"}, side="input")
    assert args == {"status": kw("active"), "at": dt.datetime(2024, 1, 1, tzinfo=UTC)}
    assert sigs.validate_input(s, args) == []
    out = sigs.from_public(s, {"tags": ["a"], "at": "2024-01-01T00:00:00"})
    assert out == {"tags": [kw("a")], "at": "2024-01-01T00:00:00"}  # naive stays a string
    assert [e.path for e in sigs.validate_output(s, out)] == [["at"]]


def test_round_trip() -> None:
    s = sigs.parse("{order-count :int, st :keyword, items [{at :datetime}]}")
    v = {
        kw("order-count"): 1,
        "st": kw("x"),
        "items": [{kw("at"): dt.datetime(2024, 5, 1, tzinfo=UTC)}],
    }
    pub = sigs.to_public(v)
    assert pub == {"order_count": 1, "st": "x", "items": [{"at": "2024-05-01T00:00:00+00:00"}]}
    back = sigs.from_public(s, pub)
    assert sigs.validate_output(s, back) == []
    assert sigs.to_public(back) == pub
