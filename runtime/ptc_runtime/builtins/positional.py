"""Construction and positional access: `repeat seq empty zipmap array-map butlast ffirst fnext
nfirst nnext peek pop find subvec not-empty distinct?`.

Indexes never raise (DIV-26): `subvec` clamps, `pop` of `[]` is nil. Maps and sets give
their `[k v]` entries / elements in insertion order wherever a sequence is
expected.
"""

from __future__ import annotations

import math
from typing import Final

from ptc_runtime.builtins import collections_
from ptc_runtime.builtins.registry import BuiltinSpec, declare
from ptc_runtime.collections import (
    EqKey,
    PMap,
    PSet,
    PVec,
    kind_name,
    map_entries,
    seq_items,
    to_key,
)
from ptc_runtime.errors import PtcError
from ptc_runtime.hashguard import check_keys
from ptc_runtime.lookup import NOT_FOUND, find_key, get_in

DECLS: list[BuiltinSpec] = []

declare(DECLS, "array-map", variadic_min=0, doc="Same as hash-map (maps keep insertion order).")(
    collections_.hash_map
)


#: The longest vector `repeat` builds.
MAX_REPEAT: Final = 10_000_000


@declare(
    DECLS,
    "repeat",
    arities=(2,),
    allocates=True,
    doc="Vector of n copies of x (a count is required: sequences are finite).",
)
def repeat(n: object, x: object) -> list[object]:
    t = type(n)
    if t is not int and t is not float:
        raise PtcError("type_error", f"repeat: count must be a number, got {kind_name(n)}")
    if n != n:
        raise PtcError("type_error", "repeat: count must be a number, got NaN")
    if n > MAX_REPEAT:  # type: ignore[operator]
        raise PtcError(
            "memory_exceeded",
            f"repeat: the count is more than the limit of {MAX_REPEAT}",
            hint="repeat fewer items",
        )
    k: int = n if t is int else math.ceil(n)  # type: ignore[assignment, call-overload]
    return [x] * k if k > 0 else []


@declare(
    DECLS, "seq", arities=(1,), doc="Vector of the items of coll (map entries, chars), or nil."
)
def seq(coll: object) -> object:
    t = type(coll)
    if t is list or t is PVec:
        return coll if len(coll) else None  # type: ignore[arg-type]
    if coll is None:
        return None
    if t is dict or t is PMap:
        return map_entries(coll) or None  # type: ignore[arg-type]
    if t is PSet or t is str:
        return list(seq_items(coll, "seq")) or None
    raise PtcError("type_error", f"seq: expected a collection or string, got {kind_name(coll)}")


@declare(DECLS, "empty", arities=(1,), doc="An empty collection of the same kind, or nil.")
def empty(coll: object) -> object:
    t = type(coll)
    if t is list or t is PVec:
        return []
    if t is dict or t is PMap:
        return {}
    if t is PSet:
        return PSet({})
    return None


@declare(DECLS, "zipmap", arities=(2,), doc="Map pairing keys with vals, up to the shorter.")
def zipmap(ks: object, vs: object) -> dict[object, object]:
    keys = seq_items(ks, "zipmap")
    vals = seq_items(vs, "zipmap")
    check_keys(keys, "zipmap")
    out: dict[object, object] = {}
    for k, v in zip(keys, vals, strict=False):
        out[to_key(k)] = v
    return out


def _vector(who: str, v: object) -> list[object] | PVec:
    t = type(v)
    if t is list or t is PVec:
        return v  # type: ignore[return-value]
    raise PtcError("type_error", f"{who}: expected a vector, got {kind_name(v)}")


@declare(DECLS, "butlast", arities=(1,), doc="All items but the last, or nil if none remain.")
def butlast(coll: object) -> list[object] | None:
    items = seq_items(coll, "butlast")
    return list(items[:-1]) if len(items) > 1 else None


@declare(DECLS, "ffirst", arities=(1,), doc="(first (first coll)).")
def ffirst(coll: object) -> object:
    return collections_.first(collections_.first(coll))


@declare(DECLS, "fnext", arities=(1,), doc="(first (next coll)): the second item.")
def fnext(coll: object) -> object:
    return collections_.second(coll)


@declare(DECLS, "nfirst", arities=(1,), doc="(next (first coll)).")
def nfirst(coll: object) -> object:
    return collections_.next_(collections_.first(coll))


@declare(DECLS, "nnext", arities=(1,), doc="(next (next coll)): items after the second, or nil.")
def nnext(coll: object) -> object:
    return collections_.next_(collections_.next_(coll))


@declare(DECLS, "peek", arities=(1,), doc="Last item of a vector, or nil.")
def peek(v: object) -> object:
    if v is None:
        return None
    vec = _vector("peek", v)
    return vec[-1] if len(vec) else None


@declare(DECLS, "pop", arities=(1,), doc="Vector without its last item; nil for [] and nil.")
def pop(v: object) -> object:
    if v is None:
        return None
    vec = _vector("pop", v)
    if not len(vec):
        return None
    return list(vec[:-1])


@declare(DECLS, "find", arities=(2,), doc="[k v] entry for key k of a map (flexible) or index k.")
def find(m: object, k: object) -> list[object] | None:
    t = type(m)
    if t is dict or t is PMap:
        tk = type(k)
        if (tk is list or tk is PVec) and EqKey(k) not in m:  # type: ignore[operator]
            v = get_in(m, k, NOT_FOUND, "find")
            return None if v is NOT_FOUND else [k, v]
        found = find_key(m, k)  # type: ignore[arg-type]
        if found is NOT_FOUND:
            return None
        return [found.value if type(found) is EqKey else found, m[found]]  # type: ignore[index]
    if t is list or t is PVec:
        if type(k) is int and 0 <= k < len(m):  # type: ignore[arg-type]
            return [k, m[k]]  # type: ignore[index]
        return None
    if m is None:
        return None
    raise PtcError("type_error", f"find: expected a map or vector, got {kind_name(m)}")


def _index(who: str, i: object) -> int:
    t = type(i)
    if t is int:
        return i  # type: ignore[return-value]
    if t is float and i == i and abs(i) != float("inf"):  # type: ignore[arg-type]
        return int(i)  # type: ignore[call-overload, no-any-return]
    raise PtcError("type_error", f"{who}: index must be a number, got {kind_name(i)}")


@declare(
    DECLS,
    "subvec",
    arities=(2, 3),
    doc="Items of vector v from start to end, indexes clamped (never fails).",
)
def subvec(v: object, start: object, end: object = None) -> list[object]:
    if v is None:
        return []
    vec = _vector("subvec", v)
    n = len(vec)
    b = max(0, min(_index("subvec", start), n))
    e = n if end is None else max(b, min(_index("subvec", end), n))
    if b == 0 and e == n and type(vec) is list:
        return vec
    return list(vec[b:e])


@declare(DECLS, "not-empty", arities=(1,), doc="coll if it has items (strings too), else nil.")
def not_empty(coll: object) -> object:
    if coll is None:
        return None
    t = type(coll)
    if t is list or t is dict or t is str or t is PVec or t is PMap or t is PSet:
        return coll if len(coll) else None  # type: ignore[arg-type]
    raise PtcError(
        "type_error", f"not-empty: expected a collection or string, got {kind_name(coll)}"
    )


@declare(DECLS, "distinct?", variadic_min=1, doc="True if no two arguments are equal.")
def is_distinct(x: object, *more: object) -> bool:
    if not more:
        return True
    seen: set[object] = {to_key(x)}
    for y in more:
        k = to_key(y)
        if k in seen:
            return False
        seen.add(k)
    return True
