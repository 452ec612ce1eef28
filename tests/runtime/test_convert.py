"""Host conversion: from_host, to_tool_args, to_json_value."""

from __future__ import annotations

import math
import random
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import pytest

from ptc_runtime import convert
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
    records: list[dict[str, Any]] = [{"id": i, "tags": ["x", i]} for i in range(50)]
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
    }
    assert to_tool_args(args) == {
        "max_hits": 5,
        "foo_bar": "a",
        "nested": [{"sort_by": "asc"}],
        "1": "one",
    }
    # sets have no lossless JSON form: refused, naming the path
    with pytest.raises(PtcError, match=r'a set at \["s"\]'):
        to_tool_args({"s": PSet.from_iterable([keyword("x-y")])})


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


# ------------------------------------------------ the scan's key check by traversal


class _EqStr(str):
    """A key equal to (and hashing like) a plain string: only its type tells it apart."""

    def __eq__(self, other: object) -> bool:
        return str.__eq__(self, other)

    def __hash__(self) -> int:
        return str.__hash__(self)


class _Int(int):
    pass


class _Float(float):
    pass


class _Dict(dict):  # type: ignore[type-arg]
    pass


class _List(list):  # type: ignore[type-arg]
    pass


class _Obj:
    pass


def _general_table(items: dict[str, object]) -> dict[object, object]:
    """An exact dict with only `str` keys whose key table held another key once."""
    d: dict[object, object] = {0: None}
    del d[0]
    for k, v in items.items():  # one by one: update() of an emptied dict copies the table
        d[k] = v
    return d


def _instance_dict(items: dict[str, object]) -> dict[str, object]:
    obj = _Obj()
    obj.__dict__.update(items)
    return obj.__dict__


_ODD_VALUES: list[object] = [(1,), (), {1, 2}, frozenset(), b"b", _Str("x"), _EqStr("a")]
_ODD_VALUES += [_Int(1), _Float(1.5), _Dict(a=1), _List([1]), A, object(), PVec([1], 1), print]
_ODD_KEYS: list[object] = [1, True, False, None, 1.5, (1, "a"), A, b"a"]
_ODD_KEYS += [_Str("a"), _EqStr("b"), _EqStr("k0")]
_PLAIN_LEAVES: list[object] = [1, 0, -7, 2.5, math.nan, math.inf, "s", "", None, True, False]


def _odd_tree(rnd: random.Random, depth: int, shared: list[object], odd: float) -> object:
    """Nested data with every odd type and key now and then, records sharing their key
    objects, dicts in general or instance key tables, and shared sub-objects."""
    roll = rnd.random()
    if shared and roll < 0.05:
        return rnd.choice(shared)
    if depth == 0 or roll < 0.25:
        if rnd.random() < odd:
            return rnd.choice(_ODD_VALUES)
        return rnd.choice(_PLAIN_LEAVES)
    n = rnd.randint(0, 4)
    if roll < 0.5:
        out: object = [_odd_tree(rnd, depth - 1, shared, odd) for _ in range(n)]
    elif roll < 0.7:
        # records: the same key objects in every record (as json.loads and dict displays
        # make them), sometimes one record with an odd key
        names = ["k0", "k1", "k2"][: rnd.randint(1, 3)]
        recs = [{k: _odd_tree(rnd, depth - 1, shared, odd) for k in names} for _ in range(n)]
        if recs and rnd.random() < odd * 3:
            rec = rnd.choice(recs)
            rec[rnd.choice(_ODD_KEYS)] = 1  # type: ignore[index]
        out = recs
    else:
        keys = rnd.sample(["k0", "k1", "k2", "k3", "k-4", "k_4"], n)
        items = {k: _odd_tree(rnd, depth - 1, shared, odd) for k in keys}
        makers: list[Callable[[dict[str, object]], dict[Any, object]]] = [dict, dict]
        makers += [_general_table, _instance_dict]
        d: dict[object, object] = rnd.choice(makers)(items)
        if rnd.random() < odd:
            d[rnd.choice(_ODD_KEYS)] = _odd_tree(rnd, depth - 1, shared, odd)
        out = d
    if rnd.random() < 0.1:
        shared.append(out)
    return out


def _scan_both_ways(x: object, monkeypatch: pytest.MonkeyPatch) -> tuple[bool, bool]:
    fast = convert._is_plain(x)
    with monkeypatch.context() as m:
        m.setattr(convert, "_REFERENTS_SEE_KEYS", False)
        slow = convert._is_plain(x)
    return fast, slow


def test_scan_agrees_with_the_walk_on_odd_data(monkeypatch: pytest.MonkeyPatch) -> None:
    # the scan (keys vouched for by traversal, or checked one by one) against the obvious
    # recursive definition; whatever it accepts, the converting walk leaves as it is
    assert convert._REFERENTS_SEE_KEYS  # this interpreter behaves as the scan expects
    rnd = random.Random(20241130)
    seen = {True: 0, False: 0}
    for i in range(6000):
        shared: list[object] = []
        sub = _odd_tree(rnd, rnd.randint(1, 6), shared, rnd.choice([0.0, 0.01, 0.05, 0.2]))
        tree = sub if type(sub) in (dict, list) else [sub]  # from_host takes scalars first
        want = _plain_reference(tree)
        fast, slow = _scan_both_ways(tree, monkeypatch)
        assert fast is want and slow is want, (i, tree)
        if want:
            assert from_host(tree) is tree
            assert convert._walk(tree, convert._host_open, convert._host_close) is tree
        seen[want] += 1
    assert seen[True] > 1500 and seen[False] > 1500, seen


def test_scan_records_sharing_key_objects_with_one_odd_record() -> None:
    import json

    rows = json.loads(json.dumps([{"id": i, "name": f"n{i}", "tags": ["a"]} for i in range(300)]))
    assert all(a is b for a, b in zip(rows[0], rows[299], strict=True))  # keys memoized
    assert convert._str_keyed_values(rows) is not None
    assert convert._is_plain(rows)
    for odd_key in (_EqStr("id"), _Str("id"), True, 1, None, A, ("id",)):
        rec = rows[150]
        value = rec.pop("id")
        rec[odd_key] = value
        assert convert._str_keyed_values(rows) is None, odd_key
        assert not convert._is_plain({"rows": rows}), odd_key
        if isinstance(odd_key, str):
            with pytest.raises(PtcError, match="unsupported map key"):
                from_host({"rows": rows})
        else:
            out = from_host({"rows": rows})
            assert out["rows"][0] is rows[0]  # type: ignore[index]
        del rec[odd_key]
        rec["id"] = value
        # the record's table may stay general: keys then checked one by one, still plain
        assert convert._is_plain({"rows": rows})


def test_scan_tables_that_vouch_and_that_do_not() -> None:
    plain: list[dict[object, object]] = [{"a": 1, "b": [1]}, {}]
    plain.append(_instance_dict({"x": None}))  # type: ignore[arg-type]
    assert convert._str_keyed_values(plain) == [1, [1], None]
    general = _general_table({"a": 1})
    assert convert._str_keyed_values([general]) is None  # keys counted too: not vouched
    assert convert._is_plain([general, {"b": general}])
    assert not convert._is_plain([{"a": 1}, {_EqStr("a"): 1}])
    assert not convert._is_plain({"a": {"b": {"c": [{"d": 1, 2: 3}]}}})


def test_scan_deep_and_long_levels() -> None:
    v: object = {"leaf": [1, 2.5, None]}
    for i in range(3000):
        v = {"k": v, "i": i} if i % 2 else [v, "x"]
    assert convert._is_plain(v)
    bad: object = {"leaf": (1,)}
    for _ in range(3000):
        bad = [{"k": bad}]
    assert not convert._is_plain(bad)
    assert from_host(bad) is not bad
    too_deep: object = 1
    for _ in range(convert._MAX_LEVELS + 1):
        too_deep = [too_deep]
    assert not convert._is_plain(too_deep)  # left to the walk, which keeps it as it is
    assert from_host(too_deep) is too_deep


def test_scan_trusts_traversal_only_where_it_behaves(monkeypatch: pytest.MonkeyPatch) -> None:
    # the import-time probe refuses a traversal that skips values (e.g. immortal or atomic
    # ones) or one that does not visit the keys of a dict with other keys
    import gc

    assert convert._referents_see_keys()

    def skipping_none(*objs: object) -> list[object]:
        return [x for x in gc.get_referents(*objs) if x is not None]

    def values_only(*objs: object) -> list[object]:
        return [v for d in objs for v in d.values()]  # type: ignore[attr-defined]

    def untracked_skipped(*objs: object) -> list[object]:
        return [x for x in gc.get_referents(*objs) if gc.is_tracked(x)]

    for fake in (skipping_none, values_only, untracked_skipped):
        monkeypatch.setattr(convert, "get_referents", fake)
        assert not convert._referents_see_keys(), fake.__name__
    monkeypatch.undo()
    monkeypatch.setattr(convert, "_REFERENTS_SEE_KEYS", False)
    assert convert._str_keyed_values([{"a": 1}]) is None
    assert convert._is_plain([{"a": 1}]) and not convert._is_plain([{1: 1}])


def test_scan_when_gc_introspection_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    # a host's audit hook may refuse the "gc.get_referents" event: keys typed one by one
    def refused(*objs: object) -> list[object]:
        raise RuntimeError("gc.get_referents is not allowed here")

    monkeypatch.setattr(convert, "get_referents", refused)
    assert not convert._probe_referents()
    assert convert._str_keyed_values([{"a": 1}]) is None
    assert convert._is_plain([{"a": [1]}]) and not convert._is_plain([{"a": [1], 1: 2}])


class _EqMeta(type):
    """A metaclass with its own equality, so its classes are unhashable."""

    def __eq__(cls, other: object) -> bool:
        return cls is other

    __hash__ = None  # type: ignore[assignment]


class _Odd(metaclass=_EqMeta):
    pass


def test_scan_of_a_value_whose_class_is_unhashable() -> None:
    # the scan's type set cannot hold the class: it leaves the value to the walk, which
    # rejects it as any other unsupported value (no TypeError out of from_host)
    for bad in ([_Odd()], {"a": [1, {"b": _Odd()}]}):
        with pytest.raises(PtcError, match="unsupported value") as info:
            from_host(bad)
        assert info.value.code == "tool_error"


# ------------------------------------------------ the walk over long lists with odd items


_ODD_ITEMS: list[object] = [(1, "a"), {1, 2}, A, PVec([1], 1), b"b", object(), _Str("s")]
_ODD_ITEMS += [_Int(2), _Dict(a=1), {True: 1}, {1: "x"}, {b"k": 1}]


def _long_tree(rnd: random.Random, depth: int, top: bool = True) -> object:
    """Long lists and tuples (records, rows, scalars, nested long lists) with a few odd
    items anywhere: converted ones, unsupported ones (errors), plain ones left as they are."""
    roll = rnd.random()
    if depth == 0 or roll < 0.2:
        return rnd.choice(_ODD_ITEMS) if rnd.random() < 0.15 else rnd.choice(_PLAIN_LEAVES)
    if roll < 0.3:
        return {rnd.choice(["a", "b", 1, True, None, A, (1,)]): _long_tree(rnd, depth - 1, top)}
    sizes = [0, 3, 127, 128, 129, 300, 1024, 1025, 2500] if top else [0, 3, 130, 300]
    n = rnd.choice(sizes)
    rec = {"k0": 1, "k1": "x"}
    kind = rnd.random()
    if kind < 0.4:  # records sharing key objects
        items: list[object] = [{"k0": i, "k1": [i, "s"]} for i in range(n)]
    elif kind < 0.6:  # the same plain record shared, and scalars
        items = [rec if i % 2 else i for i in range(n)]
    else:
        items = [i for i in range(n)]
    if n:
        for _ in range(rnd.choice([0, 1, 2, 5])):  # odd or nested items anywhere
            items[rnd.randrange(n)] = _long_tree(rnd, depth - 1, False)
        if rnd.random() < 0.15:  # odd items in long stretches or most of the list
            lo = rnd.randrange(n)
            for j in range(lo, min(n, lo + rnd.choice([40, 100, n]))):
                items[j] = rnd.choice(_ODD_ITEMS[:4] * 5 + _ODD_ITEMS)
    return tuple(items) if rnd.random() < 0.2 else items


def _containers(x: object) -> set[int]:
    ids: set[int] = set()
    stack = [x]
    while stack:
        v = stack.pop()
        if isinstance(v, (list, tuple, dict, set, frozenset)) and id(v) not in ids:
            ids.add(id(v))
            stack.extend(v.values() if isinstance(v, dict) else v)
            if isinstance(v, dict):
                stack.extend(v.keys())
    return ids


def _assert_same_output(a: object, b: object, inputs: set[int]) -> None:
    """Equal values, and the same parts taken over from the input by identity."""
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        if x is y:
            continue
        assert type(x) is type(y), (x, y)
        assert id(x) not in inputs and id(y) not in inputs, (x, y)  # kept on one side only
        if type(x) is list:
            assert len(x) == len(y)  # type: ignore[arg-type]
            stack.extend(zip(x, y, strict=True))  # type: ignore[call-overload]
        elif type(x) is dict:
            assert list(x) == list(y)  # type: ignore[call-overload]
            stack.extend(zip(x.values(), y.values(), strict=True))  # type: ignore[attr-defined]
        else:
            assert x == y, (x, y)


def _from_host_outcome(x: object) -> object:
    try:
        return from_host(x)
    except PtcError as err:
        return ("error", err.code, err.message)


def test_walk_of_long_lists_agrees_with_the_item_by_item_walk(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the walk keeps plain runs of long lists as they are and opens only the odd runs;
    # values, shared parts and the first error must be those of opening every item
    rnd = random.Random(4242)
    runs = {"value": 0, "error": 0}
    for i in range(400):
        tree = _long_tree(rnd, rnd.randint(1, 3))
        inputs = _containers(tree)
        got = _from_host_outcome(tree)
        with monkeypatch.context() as m:
            m.setattr(convert, "_RUNS_FROM", 10**9)
            want = _from_host_outcome(tree)
        if type(want) is tuple and want and want[0] == "error":
            assert got == want, i
            runs["error"] += 1
        else:
            _assert_same_output(got, want, inputs)
            runs["value"] += 1
    assert runs["value"] > 200 and runs["error"] > 30, runs


def test_walk_of_a_long_list_opens_only_odd_runs() -> None:
    rows: list[object] = [{"id": i, "tags": ["a"]} for i in range(5000)]
    rows[2600] = {"id": 2600, "tags": ("a",)}
    assert convert._odd_positions(rows) == list(range(2592, 2624))
    out: Any = from_host({"rows": rows})
    assert out["rows"][2600] == {"id": 2600, "tags": ["a"]}
    assert sum(o is r for o, r in zip(out["rows"], rows, strict=True)) == 4999
    rows[4999] = {"id": 1, "bad": b"x"}
    with pytest.raises(PtcError, match="host data contains an unsupported value"):
        from_host({"rows": rows})
    rows[3000] = [1, {b"k": 1}]
    with pytest.raises(PtcError, match="unsupported map key"):
        from_host({"rows": rows})  # the first of the two in order, as item by item
    assert convert._odd_positions([(i,) for i in range(5000)]) is None  # mostly odd
    assert convert._odd_positions(tuple(range(300))) == []
