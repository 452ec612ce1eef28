"""Map builtins: `assoc-in update update-in merge merge-with select-keys
entries key val update-keys update-vals`.

Reads are flexible; every key-addressed write follows the one-logical-key rule
: it writes the key a flexible read finds, if there is one, so
`(update {"n" 1} :n inc)` is `{"n" 2}`. Nested writes copy only the containers on the
path. Merges build one mutable dict and hand it back.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Final

from ptc_runtime.builtins.registry import BuiltinSpec, declare
from ptc_runtime.collections import (
    PMap,
    PVec,
    _assoc_stored,
    as_fn,
    assoc,
    from_key,
    kind_name,
    map_entries,
    map_write_key,
    seq_items,
    to_key,
)
from ptc_runtime.errors import PtcError
from ptc_runtime.lookup import NOT_FOUND, find_key, get_flexible
from ptc_runtime.metered import metered_fn

DECLS: list[BuiltinSpec] = []


def _read(who: str, m: object, k: object) -> object:
    """The value a write of `k` into `m` replaces (nil when absent)."""
    t = type(m)
    if t is dict or t is PMap:
        found = find_key(m, k)  # type: ignore[arg-type]
        return None if found is NOT_FOUND else m[found]  # type: ignore[index]
    if m is None:
        return None
    if t is list or t is PVec:
        return get_flexible(m, k)
    raise PtcError("type_error", f"{who}: expected a map or vector, got {kind_name(m)}")


def _path(who: str, path: object) -> Sequence[object]:
    t = type(path)
    if path is None:
        return (None,)
    if t is list or t is PVec:
        return path if len(path) else (None,)  # type: ignore[arg-type, return-value]
    raise PtcError("type_error", f"{who}: path must be a vector, got {kind_name(path)}")


#: In `_update_in`, a level that is not a map (its write goes through `assoc`).
_NOT_A_MAP: Final = object()


def _update_in(who: str, m: object, path: object, change: Callable[[object], object]) -> object:
    keys = _path(who, path)
    last = len(keys) - 1
    levels = [m]
    # the stored key each map level's read found: the write addresses the same key
    # (`map_write_key`), so it is looked up once, not again by `assoc`
    found_keys: list[object] = []
    cur = m
    old: object = None
    for i, k in enumerate(keys):
        t = type(cur)
        if t is dict or t is PMap:
            found = find_key(cur, k)  # type: ignore[arg-type]
            found_keys.append(found)
            nxt = None if found is NOT_FOUND else cur[found]  # type: ignore[index]
        else:
            found_keys.append(_NOT_A_MAP)
            nxt = _read(who, cur, k)
        if i < last:
            levels.append(nxt)
            cur = nxt
        else:
            old = nxt
    val = change(old)
    for i in range(last, -1, -1):
        found = found_keys[i]
        if found is _NOT_A_MAP:
            val = assoc(levels[i], keys[i], val, who)
        else:
            key = to_key(keys[i]) if found is NOT_FOUND else found
            val = _assoc_stored(levels[i], key, val)  # type: ignore[arg-type]
    return val


@declare(DECLS, "assoc-in", arities=(3,), doc="m with v at a path of keys (missing levels: maps).")
def assoc_in(m: object, path: object, v: object) -> object:
    return _update_in("assoc-in", m, path, lambda _old: v)


@declare(DECLS, "update", variadic_min=3, doc="m with key k set to (f old & args).")
def update(m: object, k: object, f: object, *args: object) -> object:
    fn = as_fn(f, "update")
    return assoc(m, k, fn(_read("update", m, k), *args), "update")


@declare(DECLS, "update-in", variadic_min=3, doc="m with the value at path set to (f old & args).")
def update_in(m: object, path: object, f: object, *args: object) -> object:
    fn = as_fn(f, "update-in")
    return _update_in("update-in", m, path, lambda old: fn(old, *args))


def _entries_of(who: str, x: object) -> Mapping[object, object]:
    """A merge argument as a map of stored keys (a [k v] entry counts as a map)."""
    t = type(x)
    if t is dict or t is PMap:
        return x  # type: ignore[return-value]
    if (t is list or t is PVec) and len(x) == 2:  # type: ignore[arg-type]
        return {to_key(x[0]): x[1]}  # type: ignore[index]
    raise PtcError("type_error", f"{who}: expected maps, got {kind_name(x)}")


def _merge(who: str, maps: tuple[object, ...], f: Callable[..., object] | None) -> object:
    present = [m for m in maps if m is not None]
    if not present:
        return None
    if len(maps) == 1:  # `(merge x)` is x, whatever it is, as in Clojure
        return maps[0]
    base = present[0]
    if type(base) is not dict and type(base) is not PMap:
        raise PtcError("type_error", f"{who}: expected maps, got {kind_name(base)}")
    if len(present) == 1:
        return base
    if type(base) is PMap:
        acc: object = base
        for m in present[1:]:
            for sk, v in _entries_of(who, m).items():
                k = from_key(sk)
                if f is not None:
                    found = find_key(acc, k)  # type: ignore[arg-type]
                    if found is not NOT_FOUND:
                        v = f(acc[found], v)  # type: ignore[index]
                acc = assoc(acc, k, v, who)
        return acc
    out = dict(base)
    for m in present[1:]:
        for sk, v in _entries_of(who, m).items():
            key = sk if sk in out else map_write_key(out, from_key(sk))
            if f is not None and key in out:
                v = f(out[key], v)
            out[key] = v
    return out


@declare(DECLS, "merge", variadic_min=0, doc="Maps merged left to right (later wins); nil skipped.")
def merge(*maps: object) -> object:
    return _merge("merge", maps, None)


@declare(
    DECLS,
    "merge-with",
    variadic_min=1,
    doc="Maps merged left to right, colliding values combined with (f old new).",
)
def merge_with(f: object, *maps: object) -> object:
    return _merge("merge-with", maps, metered_fn(f, "merge-with"))


@declare(
    DECLS,
    "select-keys",
    arities=(2,),
    doc="Map of the keys ks present in m (flexible), spelled as in ks.",
)
def select_keys(m: object, ks: object) -> dict[object, object]:
    t = type(m)
    if not (m is None or t is dict or t is PMap or t is list or t is PVec):
        raise PtcError("type_error", f"select-keys: expected a map, got {kind_name(m)}")
    out: dict[object, object] = {}
    for k in seq_items(ks, "select-keys"):
        v = get_flexible(m, k, NOT_FOUND)
        if v is not NOT_FOUND:
            out[to_key(k)] = v
    return out


@declare(DECLS, "entries", arities=(1,), doc="Vector of the [k v] entries of a map.")
def entries(m: object) -> list[object]:
    t = type(m)
    if t is dict or t is PMap:
        return map_entries(m)  # type: ignore[arg-type]
    if m is None:
        return []
    raise PtcError("type_error", f"entries: expected a map, got {kind_name(m)}")


def _entry(who: str, e: object) -> Sequence[object]:
    t = type(e)
    if (t is list or t is PVec) and len(e) == 2:  # type: ignore[arg-type]
        return e  # type: ignore[return-value]
    raise PtcError("type_error", f"{who}: expected a map entry [k v], got {kind_name(e)}")


@declare(DECLS, "key", arities=(1,), doc="The key of a map entry [k v].")
def key(e: object) -> object:
    return _entry("key", e)[0]


@declare(DECLS, "val", arities=(1,), doc="The value of a map entry [k v].")
def val(e: object) -> object:
    return _entry("val", e)[1]


def _map_arg(who: str, m: object) -> Mapping[object, object]:
    t = type(m)
    if t is dict or t is PMap:
        return m  # type: ignore[return-value]
    if m is None:
        return {}
    raise PtcError("type_error", f"{who}: expected a map, got {kind_name(m)}")


@declare(DECLS, "update-keys", arities=(2,), doc="m with every key k replaced by (f k).")
def update_keys(m: object, f: object) -> dict[object, object]:
    mm = _map_arg("update-keys", m)
    fn = metered_fn(f, "update-keys")
    return {to_key(fn(from_key(k))): v for k, v in mm.items()}


@declare(DECLS, "update-vals", arities=(2,), doc="m with every value v replaced by (f v).")
def update_vals(m: object, f: object) -> dict[object, object]:
    mm = _map_arg("update-vals", m)
    fn = metered_fn(f, "update-vals")
    return {k: fn(v) for k, v in mm.items()}
