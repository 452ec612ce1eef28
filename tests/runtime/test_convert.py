"""Host conversion: from_host, to_tool_args, to_json_value."""

from __future__ import annotations

import math
import random
from collections import OrderedDict

import pytest

from ptc_runtime.collections import EqKey, PMap, PSet, PVec
from ptc_runtime.convert import _is_plain, from_host, to_json_value, to_tool_args
from ptc_runtime.errors import PtcError
from ptc_runtime.values import SymbolRef, keyword

A = keyword("a")


def test_valid_json_passes_through_without_copy() -> None:
    data = {"a": [1, 2.5, {"b": None, "c": True}], "d": "x"}
    assert from_host(data) is data
    lst = [1, [2, [3]]]
    assert from_host(lst) is lst


def test_conversions() -> None:
    out = from_host({"t": (1, 2), "s": {3, 4}, True: "yes", "o": OrderedDict(x=1)})
    assert type(out) is dict
    assert out["t"] == [1, 2] and type(out["t"]) is list
    assert type(out["s"]) is PSet
    assert out[EqKey(True)] == "yes"
    assert type(out["o"]) is dict


def test_unchanged_siblings_are_shared() -> None:
    inner = {"k": [1]}
    out = from_host({"a": inner, "b": (1,)})
    assert out["a"] is inner  # type: ignore[index]


@pytest.mark.parametrize("bad", [object(), {"a": b"bytes"}, [print]])
def test_from_host_rejects_unknown_types(bad: object) -> None:
    with pytest.raises(PtcError) as info:
        from_host(bad)
    assert info.value.code == "tool_error"
    assert "object" not in info.value.message or "unsupported" in info.value.message


class _Str(str):
    pass


def _plain_reference(x: object) -> bool:
    """JSON-shaped by exact types, checked one value at a time."""
    if type(x) in (str, int, float, bool, type(None)):
        return True
    if type(x) is list:
        return all(_plain_reference(v) for v in x)
    if type(x) is dict:
        return all(type(k) is str and _plain_reference(v) for k, v in x.items())
    return False


def _random_tree(rnd: random.Random, depth: int) -> object:
    roll = rnd.random()
    if depth == 0 or roll < 0.3:
        return rnd.choice(
            [1, 2.5, "s", None, True, (1,), _Str("x"), b"b"]
            if roll < 0.02
            else [1, 2.5, "s", None, True, False, ""]
        )
    items = [_random_tree(rnd, depth - 1) for _ in range(rnd.randint(0, 3))]
    if roll < 0.65:
        return items
    keys: list[object] = [rnd.choice(["a", "b", "c", "d"]) for _ in items]
    if rnd.random() < 0.03:
        keys = [rnd.choice([1, _Str("a"), None]) for _ in items]
    return dict(zip(keys, items, strict=True))


def test_plain_check_agrees_with_a_value_by_value_check() -> None:
    # the level-by-level C scan against the obvious recursive definition; bad values
    # (tuples, bytes, str subclasses, non-string keys) turn up at every depth
    rnd = random.Random(7)
    seen = {True: 0, False: 0}
    for _ in range(4000):
        tree = _random_tree(rnd, rnd.randint(0, 6))
        want = _plain_reference(tree)
        assert _is_plain(tree) is want or type(tree) not in (dict, list), tree
        seen[want] += 1
    assert seen[True] > 500 and seen[False] > 100


def _uniform_tree(rnd: random.Random, depth: int, kind: str) -> object:
    """Containers whose children are all maps or all vectors (records, tables, matrices)
    down to a last level of scalars, with a rare bad value or key anywhere."""
    if depth == 0:
        return rnd.choice([1, "s", None, 2.5] * 30 + [(1,), _Str("x"), b"b", {1, 2}])
    child = rnd.choice(["dict", "list"])
    items = [_uniform_tree(rnd, depth - 1, child) for _ in range(rnd.randint(0, 3))]
    if kind == "list":
        return items
    keys: list[object] = [rnd.choice(["a", "b", "c"] * 30 + [_Str("a"), 1]) for _ in items]
    return dict(zip(keys, items, strict=True))


def test_plain_check_on_uniform_levels() -> None:
    # levels holding only maps or only vectors are taken whole (no per-element filter),
    # a single list as it is; the verdict must still be the value-by-value one
    rnd = random.Random(17)
    seen = {True: 0, False: 0}
    for _ in range(3000):
        tree = _uniform_tree(rnd, rnd.randint(1, 5), rnd.choice(["dict", "list"]))
        want = _plain_reference(tree)
        assert _is_plain(tree) is want, tree
        seen[want] += 1
    assert seen[True] > 300 and seen[False] > 300, seen
    records = [{"id": i, "tags": ["x", i]} for i in range(50)]
    assert _is_plain({"rows": records, "grid": [[1, 2], [3, 4]]})
    records[-1]["tags"].append((1,))
    assert not _is_plain({"rows": records, "grid": [[1, 2], [3, 4]]})
    assert records[-1]["tags"] == ["x", 49, (1,)]  # the host's data is left as it was


def test_deep_host_data() -> None:
    v: object = 1
    for _ in range(5_000):
        v = (v,)
    out = from_host(v)
    for _ in range(5_000):
        assert type(out) is list
        out = out[0]
    assert out == 1


def test_to_tool_args() -> None:
    args = {
        keyword("max-hits"): 5,
        "foo-bar": A,
        "nested": [{keyword("sort-by"): keyword("asc")}],
        1: "one",
        "s": PSet.from_iterable([keyword("x-y")]),
    }
    assert to_tool_args(args) == {
        "max_hits": 5,
        "foo_bar": "a",
        "nested": [{"sort_by": "asc"}],
        "1": "one",
        "s": ["x-y"],
    }


def test_tool_args_collisions() -> None:
    with pytest.raises(PtcError) as info:
        to_tool_args({keyword("a-b"): 1, "a_b": 2})
    assert info.value.code == "invalid_tool_args"
    with pytest.raises(PtcError) as info:
        to_tool_args({"f": print})
    assert info.value.code == "invalid_tool_args"


def test_to_json_value() -> None:
    v = {A: PVec([1, A], 2), "m": PMap.from_dict({1: PSet.from_iterable([2])}), "s": SymbolRef("q")}
    assert to_json_value(v) == {"a": [1, "a"], "m": {"1": [2]}, "s": "q"}


@pytest.mark.parametrize("bad", [math.nan, [math.inf], {A: 1, "a": 2}, print, {EqKey([1]): 1}])
def test_to_json_value_rejects(bad: object) -> None:
    with pytest.raises(PtcError) as info:
        to_json_value(bad)
    assert info.value.code == "invalid_output"
