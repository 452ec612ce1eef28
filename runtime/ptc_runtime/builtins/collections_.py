"""Collection builtins: construction, counting, positional and keyed access, conj/assoc.

Vectors are `list` or `PVec`, maps `dict` or `PMap`, sets `PSet`; every builtin accepts
both forms. Keyed reads are flexible (`lookup`); keyed writes follow the one-logical-key
rule (`collections.assoc`). Results that are sequences are vectors.
"""

from __future__ import annotations

from ptc_runtime.builtins.registry import BuiltinSpec, Group, declare, wrong_count
from ptc_runtime.collections import (
    PMap,
    PSet,
    PVec,
    from_key,
    kind_name,
    seq_items,
    to_key,
)
from ptc_runtime.collections import assoc as assoc1
from ptc_runtime.collections import conj as conj1
from ptc_runtime.collections import dissoc as dissoc1
from ptc_runtime.errors import PtcError
from ptc_runtime.hashguard import MAX_SAME_HASH, check_keys, check_pairs
from ptc_runtime.lookup import contains_key, get_flexible, get_in

DECLS: list[BuiltinSpec] = []

#: Also reachable as set/... and clojure.set/....
_CORE_SET: tuple[Group, ...] = ("core", "set")


@declare(DECLS, "vector", variadic_min=0, groups=_CORE_SET, doc="A vector of the arguments.")
def vector(*xs: object) -> list[object]:
    return list(xs)


@declare(DECLS, "list", variadic_min=0, doc="A vector of the arguments (there are no lists).")
def list_(*xs: object) -> list[object]:
    return list(xs)


@declare(
    DECLS,
    "vec",
    arities=(1,),
    groups=_CORE_SET,
    doc="A vector of the items of coll (map entries, chars).",
)
def vec(coll: object) -> object:
    t = type(coll)
    if t is list or t is PVec:
        return coll
    return list(seq_items(coll, "vec"))


@declare(DECLS, "hash-map", variadic_min=0, doc="A map of alternating keys and values.")
def hash_map(*kvs: object) -> dict[object, object]:
    if len(kvs) % 2:
        raise PtcError("arity_error", "hash-map: expected an even number of arguments")
    check_keys(kvs[::2], "hash-map")
    out: dict[object, object] = {}
    for i in range(0, len(kvs), 2):
        out[to_key(kvs[i])] = kvs[i + 1]
    return out


@declare(DECLS, "hash-set", variadic_min=0, groups=_CORE_SET, doc="A set of the arguments.")
def hash_set(*xs: object) -> PSet:
    return PSet.from_iterable(xs)


@declare(DECLS, "set", arities=(1,), groups=_CORE_SET, doc="A set of the items of coll.")
def set_(coll: object) -> PSet:
    if type(coll) is PSet:
        return coll
    return PSet.from_iterable(seq_items(coll, "set"))


@declare(DECLS, "count", arities=(1,), doc="Number of items of a collection or chars of a string.")
def count(coll: object) -> int:
    t = type(coll)
    if t is list or t is dict or t is str or t is PVec or t is PMap or t is PSet:
        return len(coll)  # type: ignore[arg-type]
    if coll is None:
        return 0
    raise PtcError("type_error", f"count: expected a collection or string, got {kind_name(coll)}")


@declare(DECLS, "get", arities=(2, 3), doc="Value at key k (flexible) or index k, else default.")
def get(m: object, k: object, default: object = None) -> object:
    return get_flexible(m, k, default)


@declare(DECLS, "get-in", arities=(2, 3), doc="Value at a path of keys/indexes, else default.")
def get_in_(m: object, path: object, default: object = None) -> object:
    return get_in(m, path, default)


def _sequential(coll: object, who: str) -> object:
    """Vectors and strings index directly; other seqables become their items."""
    t = type(coll)
    if t is list or t is PVec or t is str:
        return coll
    return seq_items(coll, who)


@declare(DECLS, "first", arities=(1,), doc="First item, or nil.")
def first(coll: object) -> object:
    t = type(coll)
    if t is list or t is PVec or t is str:
        return coll[0] if len(coll) else None  # type: ignore[index, arg-type]
    items = seq_items(coll, "first")
    return items[0] if items else None


@declare(DECLS, "second", arities=(1,), doc="Second item, or nil.")
def second(coll: object) -> object:
    items = _sequential(coll, "second")
    return items[1] if len(items) > 1 else None  # type: ignore[arg-type, index]


@declare(DECLS, "last", arities=(1,), doc="Last item, or nil.")
def last(coll: object) -> object:
    items = _sequential(coll, "last")
    return items[-1] if len(items) else None  # type: ignore[arg-type, index]


@declare(DECLS, "rest", arities=(1,), doc="All items but the first, as a vector ([] if none).")
def rest(coll: object) -> list[object]:
    items = _sequential(coll, "rest")
    return list(items[1:])  # type: ignore[index]


@declare(DECLS, "next", arities=(1,), doc="All items but the first, or nil if none remain.")
def next_(coll: object) -> list[object] | None:
    items = _sequential(coll, "next")
    return list(items[1:]) if len(items) > 1 else None  # type: ignore[arg-type, index]


def _index(who: str, i: object) -> int:
    t = type(i)
    if t is int:
        return i  # type: ignore[return-value]
    if t is float and i == i and i not in (float("inf"), float("-inf")):
        return int(i)  # type: ignore[call-overload, no-any-return]
    raise PtcError("type_error", f"{who}: index must be a number, got {kind_name(i)}")


@declare(DECLS, "nth", arities=(2, 3), doc="Item at index i of a vector or string, else not-found.")
def nth(coll: object, i: object, not_found: object = None) -> object:
    t = type(coll)
    if coll is None:
        return not_found
    if t is not list and t is not PVec and t is not str:
        raise PtcError("type_error", f"nth: expected a vector or string, got {kind_name(coll)}")
    n = _index("nth", i)
    if 0 <= n < len(coll):  # type: ignore[arg-type]
        return coll[n]  # type: ignore[index]
    return not_found


@declare(DECLS, "conj", variadic_min=0, doc="coll with xs added (vector: at the end).")
def conj(*args: object) -> object:
    if not args:
        return []
    coll = args[0]
    t = type(coll)
    if len(args) == 2 and (t is list or t is PVec):
        return conj1(coll, args[1])
    if len(args) > MAX_SAME_HASH:  # `(apply conj #{} xs)`: many keys hashed in one call
        if t is PSet:
            check_keys(args[1:], "conj")
        elif t is dict or t is PMap:
            check_pairs(args[1:], "conj")
    for x in args[1:]:
        coll = conj1(coll, x)
    return coll


@declare(DECLS, "assoc", variadic_min=3, doc="Map with keys set to values (vector: index).")
def assoc(m: object, *kvs: object) -> object:
    if not kvs:  # `(assoc m)`, `(apply assoc m [])`: Clojure has no one-argument assoc
        raise wrong_count("assoc", 1, "3 or more")
    if len(kvs) % 2:
        raise PtcError("arity_error", "assoc: expected keys and values in pairs")
    if len(kvs) > 2 * MAX_SAME_HASH:  # `(apply assoc m kvs)`: many keys in one call
        check_keys(kvs[::2], "assoc")
    for i in range(0, len(kvs), 2):
        m = assoc1(m, kvs[i], kvs[i + 1])
    return m


@declare(DECLS, "dissoc", variadic_min=1, doc="Map without the given keys.")
def dissoc(m: object, *ks: object) -> object:
    if not ks:  # `(dissoc x)` is x, whatever it is, as in Clojure
        return m
    if m is not None and type(m) is not dict and type(m) is not PMap:
        raise PtcError("type_error", f"dissoc: expected a map, got {kind_name(m)}")
    for k in ks:
        m = dissoc1(m, k)
    return m


def _map_view(m: object, who: str) -> PMap | dict[object, object] | None:
    t = type(m)
    if m is None:
        return None
    if t is dict or t is PMap:
        return m  # type: ignore[return-value]
    raise PtcError("type_error", f"{who}: expected a map, got {kind_name(m)}")


def _entries(m: object, who: str, i: int) -> list[object] | None:
    """Position `i` of each [key value] entry of a vector of entries, or None when `m` is no
    vector. Clojure's keys/vals read a sequence of map entries, as `(sort-by val m)`
    returns: `(keys (sort-by val > freqs))` is an everyday idiom."""
    t = type(m)
    if t is not list and t is not PVec:
        return None
    out: list[object] = []
    for e in m:  # type: ignore[attr-defined]
        te = type(e)
        if (te is not list and te is not PVec) or len(e) != 2:
            raise PtcError(
                "type_error",
                f"{who}: expected a map or a vector of [key value] entries,"
                f" got a vector holding a {kind_name(e)}",
            )
        out.append(e[i])
    return out


@declare(
    DECLS,
    "keys",
    arities=(1,),
    doc="Vector of the keys of a map in insertion order (or of map entries), or nil.",
)
def keys(m: object) -> list[object] | None:
    ks = _entries(m, "keys", 0)
    if ks is not None:
        return ks or None
    mm = _map_view(m, "keys")
    if not mm:
        return None
    return [from_key(k) for k in mm]


@declare(
    DECLS,
    "vals",
    arities=(1,),
    doc="Vector of the values of a map in key order (or of map entries), or nil.",
)
def vals(m: object) -> list[object] | None:
    vs = _entries(m, "vals", 1)
    if vs is not None:
        return vs or None
    mm = _map_view(m, "vals")
    if not mm:
        return None
    return list(mm.values())


@declare(
    DECLS,
    "contains?",
    arities=(2,),
    groups=_CORE_SET,
    doc="Map: key present (flexible); set/vector: member.",
)
def contains(coll: object, k: object) -> bool:
    return contains_key(coll, k)
