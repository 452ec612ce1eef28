"""The ownership table of a linear `reduce` loop and its in-place leaf writes.

Ownership. Each loop has an `Owned` table: the containers this loop created (a fresh
`{}`/`[]` start value, or the private copy it makes of a shared map the first time it
writes into it), by `id`, holding them alive so an id is never reused while listed. An
owned container is referenced from exactly one place: the accumulator itself or one slot
of an owned parent map. Only owned containers are mutated; anything else (host data, the
start value, values computed by the body) is copied once, and the copy is owned. So
`(reduce (fn [t e] (update-in t [:a (:k e) :n] + 1)) tree events)` copies the containers
on each path once and then updates them in place, where the persistent operation copies
the whole path at every step.

A value leaves the loop's control when the body reads it out of the accumulator (`get`,
`get-in`, `(:k acc)`; the compiler wraps those reads in `t_seen`) or when it is handed
to an `update`/`update-in` function: then that container and every owned container inside
it are released (no longer owned), so later writes copy them again and whatever holds
the value keeps seeing it unchanged. A container overwritten by a write is released too
(it is garbage; releasing frees it).

The writes here are the one-key ones (`assoc`, `update`, `conj`); the path writes are in
`transient.update_in`, the fused whole-loop calls in `transient.assoc_fields` and
`transient.update_fields`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from ptc_runtime.builtins import collections_ as _colls
from ptc_runtime.builtins import maps as _maps
from ptc_runtime.collections import PMap, as_fn, map_write_key, seq_items, to_key
from ptc_runtime.errors import PtcError
from ptc_runtime.lookup import NOT_FOUND, find_key
from ptc_runtime.values import Keyword, existing_keyword

#: `Owned.plain` when there is none: a map no program ever holds (never nil, which a
#: program's accumulator can be).
NO_MAP: Final[dict[Any, Any]] = {}


class Owned(dict[int, object]):
    """id -> container, for the containers one linear loop owns (see the module docstring).

    `plain` is one owned map whose keys are all strings without `_` (else `NO_MAP`): a
    new string key needs no one-logical-key search there, as the search looks for
    keywords and `_` spellings, none of which such a map holds. It starts as an empty
    map that takes a string key without `_` (`t_assoc1`); from then on every helper
    that adds any other key to it forgets it (`t_assoc1`'s non-string keys, and the new
    keys of `update` and `update-in`/`assoc-in`), and so does a release,
    so `plain is m` also tells that `m` is owned. `plain` is held, not its id, so a map
    built later at the same address can never pass for it.

    `paths` (None when empty) memoizes the prefix walks of `t_update_in2`: a tuple of
    string/keyword keys -> [the accumulator they were walked from, the owned map at
    their end, then for each of the two updates with one key left the last such key and
    the key of the end map it addressed]. An entry stays true until an owned map is
    released, which drops them all (and owned maps never lose a key):
    - every level of the path is owned, and an owned map is referenced from one place
      only, so a level is replaced only by overwriting that place, which releases it;
    - a key added to a level never changes which key a read there finds: the spellings
      a read of `k` tries before the one it found (`lookup.find_key`) are each searched
      under that found spelling too, and every write addresses the key its search
      finds (one logical key), so none of them can be added next to it.
    """

    __slots__ = ("paths", "plain")

    def __init__(self, entries: dict[int, object]) -> None:
        super().__init__(entries)
        self.plain: dict[Any, Any] = NO_MAP
        self.paths: dict[tuple[object, ...], list[Any]] | None = None


#: The default of a `dict.get` that tells a missing key from a stored nil.
MISSING: Final = object()


def t_begin(*fresh: object) -> Owned:
    """The ownership table of one loop; `fresh` are start values nothing else references."""
    return Owned({id(x): x for x in fresh})


def release(owned: Owned, x: object) -> None:
    """`x` and the owned containers inside it are no longer owned (x is now shared)."""
    owned.paths = None  # a memoized path may run through it
    stack = [x]
    while stack:
        c = stack.pop()
        if owned.pop(id(c), None) is None:
            continue  # not owned: nothing below it is owned either (single-parent rule)
        if c is owned.plain:
            owned.plain = NO_MAP  # `plain` is always owned
        if type(c) is dict:
            stack.extend(v for v in c.values() if type(v) is dict)


def t_seen(owned: Owned, value: object) -> object:
    """`value`, just read out of the accumulator: from now on it may be shared."""
    t = type(value)
    if (t is dict or t is list) and id(value) in owned:
        release(owned, value)
    return value


def adopt(owned: Owned, m: object) -> dict[Any, Any]:
    """A private copy of map `m` (a dict or PMap, same entries and order), owned."""
    c: dict[Any, Any] = m.to_dict() if type(m) is PMap else dict(m)  # type: ignore[call-overload]
    owned[id(c)] = c
    return c


def owned_child(
    owned: Owned, parent: dict[Any, Any], key: object, child: object
) -> dict[Any, Any] | None:
    """`child`, stored at `key` of the owned map `parent`, as an owned map: itself when
    owned, else a copy (`adopt`) put back in its place; None when it is no map (nil, a
    vector, any other value). For walks made once per path (`update_in.walk_owned`,
    `update_fields`' prewalks); `in_place_update_in`, run per element, has this inline."""
    tc = type(child)
    if tc is dict:
        if id(child) in owned:
            return child  # type: ignore[return-value]
    elif tc is not PMap:
        return None
    made = adopt(owned, child)
    parent[key] = made
    return made


def _put(owned: Owned, m: dict[Any, Any], key: object, value: object) -> None:
    """`m[key] = value` on an owned map, releasing an owned container it overwrites."""
    if len(owned) > 1:  # with only `m` owned, no value of it can be
        old = m.get(key, MISSING)
        if type(old) is dict and id(old) in owned and old is not value:
            release(owned, old)
    m[key] = value


def t_assoc(owned: Owned, m: Any, *kvs: Any) -> Any:
    """`(assoc m k v ...)`: in place when `m` is a map (copied once if not yet owned)."""
    t = type(m)
    if t is not dict and t is not PMap:
        return _colls.assoc(m, *kvs)  # nil, vectors, errors: the persistent builtin
    if not kvs or len(kvs) % 2:
        raise PtcError("arity_error", "assoc: expected keys and values in pairs")
    for i in range(0, len(kvs), 2):
        m = t_assoc1(owned, m, kvs[i], kvs[i + 1])
    return m


def t_assoc1(owned: Owned, m: Any, k: Any, v: Any) -> Any:
    """`(assoc m k v)` with one pair, the common case (the compiler calls it for that
    arity): `t_assoc` without the argument tuple and the loop over pairs."""
    if owned.plain is m and type(k) is str and k not in m:
        # a new string key into the map being built (`(assoc m (:sku p) ...)`): `m` is
        # owned and its keys are all strings without `_` (see `Owned`), so the
        # one-logical-key search could find nothing, and no value is overwritten
        m[k] = v
        if "_" in k:
            owned.plain = NO_MAP
        return m
    if type(m) is not dict or id(m) not in owned:
        t = type(m)
        if t is not dict and t is not PMap:
            return _colls.assoc(m, k, v)  # nil, vectors, errors: the persistent builtin
        m = adopt(owned, m)
    tk = type(k)
    if tk is str:
        if k not in m:
            if not m:  # the first key of an empty map: nothing the search could find
                m[k] = v
                if "_" not in k:
                    owned.plain = m  # from now on the shortcut above
                return m
            # `find_key`'s string search inline (a new key is the common case when a
            # map is built): the keyword spelling, then the `_` spellings
            kw = existing_keyword(k)
            if kw is not None and kw in m:
                k = kw
            elif "-" in k:
                alt = k.replace("-", "_")
                kw = existing_keyword(alt)
                if kw is not None and kw in m:
                    k = kw
                elif alt in m:
                    k = alt
    elif not ((tk is Keyword or tk is int) and k in m):  # exact key: no search
        k = map_write_key(m, k)
        if m is owned.plain and k not in m:
            owned.plain = NO_MAP  # a key that is not a string
    if len(owned) == 1:  # only `m` is owned, so none of its values is: a plain store
        m[k] = v
    else:
        _put(owned, m, k, v)
    return m


def t_update(owned: Owned, m: Any, k: Any, f: Any, *args: Any) -> Any:
    """`(update m k f & args)`: in place when `m` is a map (flexible read, one key)."""
    t = type(m)
    if t is not dict and t is not PMap:
        return _maps.update(m, k, f, *args)
    fn = as_fn(f, "update")
    if id(m) not in owned:
        m = adopt(owned, m)
    found = find_key(m, k)
    if found is NOT_FOUND:
        if m is owned.plain:
            owned.plain = NO_MAP  # a new key of any kind: see `Owned`
        m[to_key(k)] = fn(None, *args)
        return m
    old = m[found]
    if type(old) is dict and id(old) in owned:
        release(owned, old)  # `fn` may keep or share it
    m[found] = fn(old, *args)
    return m


def t_conj(owned: Owned, v: list[Any], *xs: Any) -> list[Any]:
    """`(conj v x ...)` on the loop's vector (a fresh `[]`), in place; copied once if it
    was read out whole (`(get-in v [])`) since."""
    if id(v) not in owned:
        v = list(v)
        owned[id(v)] = v
    v.extend(xs)
    return v


def t_items(coll: object) -> Sequence[object]:
    """The elements `reduce` visits (errors name `reduce`)."""
    return seq_items(coll, "reduce")
