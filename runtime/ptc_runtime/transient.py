"""In-place accumulation for `reduce` loops the compiler proved linear.

`(reduce (fn [m x] (assoc m k v)) {} xs)` builds a map one `assoc` at a time; each
intermediate map is dropped at once. When the compiler proves the accumulator never
escapes (the body only reads it through `get`/`count`/keyword calls and writes it through
`assoc`/`update`/`assoc-in`/`update-in`/`conj`, and no fn captures it), it runs the loop
with these helpers, which mutate containers in place with exactly the semantics of the
persistent operations (one-logical-key writes, flexible reads, insertion order).

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
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from itertools import compress, islice, repeat
from operator import countOf, getitem, itemgetter, length_hint, not_
from types import FunctionType
from typing import Any, Final

from ptc_runtime import context
from ptc_runtime.builtins import collections_ as _colls
from ptc_runtime.builtins import maps as _maps
from ptc_runtime.collections import PMap, as_fn, map_write_key, seq_items, to_key
from ptc_runtime.errors import PtcError
from ptc_runtime.fastops import add2 as _add2
from ptc_runtime.fastops import dec1 as _dec1
from ptc_runtime.fastops import inc1 as _inc1
from ptc_runtime.fastops import sub2 as _sub2
from ptc_runtime.fieldfilter import fuel_parts
from ptc_runtime.lookup import NOT_FOUND, find_key, get_flexible
from ptc_runtime.records import is_records
from ptc_runtime.values import Keyword

#: `Owned.plain` when there is none: a map no program ever holds (never nil, which a
#: program's accumulator can be).
_NO_MAP: Final[dict[Any, Any]] = {}


class Owned(dict[int, object]):
    """id -> container, for the containers one linear loop owns (see the module docstring).

    `plain` is one owned map whose keys are all strings without `_` (else `_NO_MAP`): a
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
        self.plain: dict[Any, Any] = _NO_MAP
        self.paths: dict[tuple[object, ...], list[Any]] | None = None


_MISSING: Final = object()
#: At most this many memoized prefix walks per loop (`Owned.paths`); then it starts over.
_MAX_PATHS: Final = 4096
_interned = Keyword._table  # name -> Keyword; read-only here (as in `lookup.find_key`)
#: The operand types the fast helpers of `+`/`-` add and subtract with Python's operator
#: when both operands have the same one (`fastops.add2`: never an OverflowError then).
_NUM: Final = (int, float)
_STR_ONLY: Final = frozenset((str,))


def t_begin(*fresh: object) -> Owned:
    """The ownership table of one loop; `fresh` are start values nothing else references."""
    return Owned({id(x): x for x in fresh})


def _release(owned: Owned, x: object) -> None:
    """`x` and the owned containers inside it are no longer owned (x is now shared)."""
    owned.paths = None  # a memoized path may run through it
    stack = [x]
    while stack:
        c = stack.pop()
        if owned.pop(id(c), None) is None:
            continue  # not owned: nothing below it is owned either (single-parent rule)
        if c is owned.plain:
            owned.plain = _NO_MAP  # `plain` is always owned
        if type(c) is dict:
            stack.extend(v for v in c.values() if type(v) is dict)


def t_seen(owned: Owned, value: object) -> object:
    """`value`, just read out of the accumulator: from now on it may be shared."""
    t = type(value)
    if (t is dict or t is list) and id(value) in owned:
        _release(owned, value)
    return value


def _adopt(owned: Owned, m: object) -> dict[Any, Any]:
    """A private copy of map `m` (a dict or PMap, same entries and order), owned."""
    c: dict[Any, Any] = m.to_dict() if type(m) is PMap else dict(m)  # type: ignore[call-overload]
    owned[id(c)] = c
    return c


def _put(owned: Owned, m: dict[Any, Any], key: object, value: object) -> None:
    """`m[key] = value` on an owned map, releasing an owned container it overwrites."""
    if len(owned) > 1:  # with only `m` owned, no value of it can be
        old = m.get(key, _MISSING)
        if type(old) is dict and id(old) in owned and old is not value:
            _release(owned, old)
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
            owned.plain = _NO_MAP
        return m
    if type(m) is not dict or id(m) not in owned:
        t = type(m)
        if t is not dict and t is not PMap:
            return _colls.assoc(m, k, v)  # nil, vectors, errors: the persistent builtin
        m = _adopt(owned, m)
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
            kw = _interned.get(k)
            if kw is not None and kw in m:
                k = kw
            elif "-" in k:
                alt = k.replace("-", "_")
                kw = _interned.get(alt)
                if kw is not None and kw in m:
                    k = kw
                elif alt in m:
                    k = alt
    elif not ((tk is Keyword or tk is int) and k in m):  # exact key: no search
        k = map_write_key(m, k)
        if m is owned.plain and k not in m:
            owned.plain = _NO_MAP  # a key that is not a string
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
        m = _adopt(owned, m)
    found = find_key(m, k)
    if found is NOT_FOUND:
        if m is owned.plain:
            owned.plain = _NO_MAP  # a new key of any kind: see `Owned`
        m[to_key(k)] = fn(None, *args)
        return m
    old = m[found]
    if type(old) is dict and id(old) in owned:
        _release(owned, old)  # `fn` may keep or share it
    m[found] = fn(old, *args)
    return m


def _in_place_update_in(
    owned: Owned,
    who: str,
    m: Any,
    path: object,
    fn: Callable[..., object] | None,
    args: tuple[Any, ...],
) -> Any:
    """`update-in` (`fn` None: `assoc-in` of `args[0]`) walking owned maps in place.

    Levels that are not maps (nil, vectors, bad values) go to the persistent
    `maps._update_in` for the rest of the path: same results, same errors.
    """
    t = type(m)
    if t is not dict and t is not PMap:
        return _maps._update_in(who, m, path, _change(fn, args))
    keys: Sequence[object] = path if type(path) is list and path else _maps._path(who, path)
    if id(m) not in owned:
        m = _adopt(owned, m)
    cur: dict[Any, Any] = m
    last = len(keys) - 1
    for i in range(last):
        k: Any = keys[i]
        tk = type(k)
        # the stored key a flexible read finds: exact, then (keyword) its name, else search
        nxt: Any = cur.get(k, _MISSING) if tk is str or tk is Keyword else _MISSING
        if nxt is not _MISSING:
            found: object = k
        elif tk is Keyword and (nxt := cur.get(k.name, _MISSING)) is not _MISSING:
            found = k.name
        else:
            found = find_key(cur, k)
            if found is NOT_FOUND:
                # a missing level: the persistent operation builds the fresh maps below it
                if cur is owned.plain:
                    owned.plain = _NO_MAP  # a new key of any kind: see `Owned`
                rest = list(keys[i + 1 :])
                cur[to_key(k)] = _maps._update_in(who, None, rest, _change(fn, args))
                return m
            nxt = cur[found]
        tn = type(nxt)
        if tn is dict:
            if id(nxt) not in owned:
                nxt = _adopt(owned, nxt)
                cur[found] = nxt
        elif tn is PMap:
            nxt = _adopt(owned, nxt)
            cur[found] = nxt
        else:  # nil, a vector or a bad level: persistent from here on
            rest = list(keys[i + 1 :])
            cur[found] = _maps._update_in(who, nxt, rest, _change(fn, args))
            return m
        cur = nxt
    k = keys[last]
    tk = type(k)
    old: Any = cur.get(k, _MISSING) if tk is str or tk is Keyword else _MISSING
    if old is not _MISSING:
        found = k
    elif tk is Keyword and (old := cur.get(k.name, _MISSING)) is not _MISSING:
        found = k.name
    else:
        found = find_key(cur, k)
        if found is NOT_FOUND:
            if cur is owned.plain:
                owned.plain = _NO_MAP  # a new key of any kind: see `Owned`
            cur[to_key(k)] = args[0] if fn is None else fn(None, *args)
            return m
        old = cur[found]
    if type(old) is dict and id(old) in owned:
        _release(owned, old)  # handed to the update fn, or overwritten
    cur[found] = args[0] if fn is None else fn(old, *args)
    return m


def _change(fn: Callable[..., object] | None, args: tuple[Any, ...]) -> Callable[[object], object]:
    if fn is None:
        return lambda _old: args[0]
    return lambda old: fn(old, *args)


def t_update_in(owned: Owned, m: Any, path: object, f: Any, *args: Any) -> Any:
    """`(update-in m path f & args)` with owned maps on the path updated in place."""
    fn = f if type(f) is FunctionType else as_fn(f, "update-in")  # a fn is its own callable
    return _in_place_update_in(owned, "update-in", m, path, fn, args)


def t_update_in2(
    owned: Owned,
    m: Any,
    prefix: Sequence[Any],
    rest1: Sequence[Any],
    f1: Any,
    args1: Sequence[Any],
    rest2: Sequence[Any],
    f2: Any,
    args2: Sequence[Any],
    line1: int | None = None,
    col1: int | None = None,
) -> Any:
    """`(-> m (update-in (into prefix rest1) f1 args1...) (update-in (into prefix rest2) f2
    args2...))` with the shared `prefix` walked once (the compiler fuses two such
    `update-in`s when the prefix is the same pure expressions and the second's other
    arguments cannot fail or have effects, so evaluating them first changes nothing).

    `prefix`, `rest1` and `rest2` are non-empty tuples (or lists). When every prefix
    level is a map, both updates run from the map at its end: the same walk the full
    paths make from there. Otherwise (a level missing, nil, a vector, a bad value, or
    `m` not a map) the two plain updates run; the levels adopted on the way are what the
    first of them adopts anyway.

    A prefix of string and keyword keys that led to owned maps is memoized (`Owned.paths`):
    the next walk of the same keys from the same accumulator goes straight to its end.

    `line1`:`col1` is the first `update-in`'s position: an error of the first update
    (its fn, its walk) is placed there, as unfused, unless generated code below raised
    it (a fn literal's body places its own errors); the call's own is the second's.
    """
    second = False  # the first update is done: errors are the second's
    try:
        fn1 = f1 if type(f1) is FunctionType else as_fn(f1, "update-in")
        key = prefix if type(prefix) is tuple else tuple(prefix)
        paths = owned.paths
        hit = None
        if paths is not None:
            try:
                hit = paths.get(key)
            except TypeError:  # a collection as a key: never memoized
                pass
        if hit is not None and hit[0] is m:
            cur: Any = hit[1]
            entry = hit
        else:
            cur = entry = None
            t = type(m)
            if t is dict or t is PMap:
                if t is not dict or id(m) not in owned:
                    m = _adopt(owned, m)
                cur = m
                memo = True  # only string and keyword keys (equal tuples are the same keys)
                for k in prefix:
                    tk = type(k)
                    # the same lookup as a level of `_in_place_update_in`
                    nxt: Any = cur.get(k, _MISSING) if tk is str or tk is Keyword else _MISSING
                    if nxt is not _MISSING:
                        found: object = k
                    elif tk is Keyword and (nxt := cur.get(k.name, _MISSING)) is not _MISSING:
                        found = k.name
                    else:
                        memo = False
                        found = find_key(cur, k)
                        if found is NOT_FOUND:
                            cur = None
                            break
                        nxt = cur[found]
                    tn = type(nxt)
                    if tn is dict:
                        if id(nxt) not in owned:
                            nxt = _adopt(owned, nxt)
                            cur[found] = nxt
                    elif tn is PMap:
                        nxt = _adopt(owned, nxt)
                        cur[found] = nxt
                    else:
                        cur = None
                        break
                    cur = nxt
                if memo and cur is not None:
                    if paths is None:
                        paths = owned.paths = {}
                    elif len(paths) >= _MAX_PATHS:
                        paths.clear()
                    entry = paths[key] = [m, cur, _MISSING, None, _MISSING, None]
            if cur is None:
                m = _in_place_update_in(owned, "update-in", m, [*prefix, *rest1], fn1, tuple(args1))
                second = True
                fn2 = f2 if type(f2) is FunctionType else as_fn(f2, "update-in")
                return _in_place_update_in(
                    owned, "update-in", m, [*prefix, *rest2], fn2, tuple(args2)
                )
        # `cur` is owned and stays where it is: the first update only writes below it. The
        # two updates are written out (the loop's whole work per event once the prefix is
        # memoized); each remembers in the memo entry the key it found, which stays the key
        # a read finds for as long as the entry lives (see `Owned`).
        old: Any
        if len(rest1) == 1:
            k = rest1[0]
            if entry is not None and entry[2] is k:  # found from `cur` the last time
                found = entry[3]
                old = cur[found]
            else:  # the last step of `_in_place_update_in`
                tk = type(k)
                if tk is Keyword:
                    old = cur.get(k, _MISSING)
                    if old is _MISSING:
                        found = k.name
                        old = cur.get(found, _MISSING)
                        if old is _MISSING:
                            found, old = _stored_key(cur, k)
                    else:
                        found = k
                elif tk is str and (old := cur.get(k, _MISSING)) is not _MISSING:
                    found = k
                else:
                    found, old = _stored_key(cur, k)
            if type(old) is dict and id(old) in owned:
                _release(owned, old)  # handed to the update fn
            cur[found] = fn1(old, *args1)
            if entry is not None:
                entry[2] = k
                entry[3] = found
        else:
            _in_place_update_in(owned, "update-in", cur, list(rest1), fn1, tuple(args1))
        second = True
        fn2 = f2 if type(f2) is FunctionType else as_fn(f2, "update-in")  # after, as unfused
        if len(rest2) == 1:
            k = rest2[0]
            if entry is not None and entry[4] is k:  # found from `cur` the last time
                found = entry[5]
                old = cur[found]
            else:  # the last step of `_in_place_update_in`
                tk = type(k)
                if tk is Keyword:
                    old = cur.get(k, _MISSING)
                    if old is _MISSING:
                        found = k.name
                        old = cur.get(found, _MISSING)
                        if old is _MISSING:
                            found, old = _stored_key(cur, k)
                    else:
                        found = k
                elif tk is str and (old := cur.get(k, _MISSING)) is not _MISSING:
                    found = k
                else:
                    found, old = _stored_key(cur, k)
            if type(old) is dict and id(old) in owned:
                _release(owned, old)  # handed to the update fn
            cur[found] = fn2(old, *args2)
            if entry is not None:
                entry[4] = k
                entry[5] = found
        else:
            _in_place_update_in(owned, "update-in", cur, list(rest2), fn2, tuple(args2))
        return m
    except PtcError as err:
        if not second and line1 is not None:
            _at_first(err, line1, col1)
        raise


def _at_first(err: PtcError, line: int, col: int | None) -> None:
    """Place `err` at the first fused `update-in` unless a generated frame raised it
    (the executor places an error at the innermost generated frame of its traceback,
    which without this is the call of the fused helper, at the second `update-in`)."""
    from ptc_runtime.executor import GENERATED_FILENAME  # the executor imports this module

    tb = err.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == GENERATED_FILENAME:
            return
        tb = tb.tb_next
    err.at(line, col)


def t_update_in2k(
    owned: Owned,
    m: Any,
    prefix: tuple[Any, ...],
    k1: Any,
    f1: Any,
    args1: Sequence[Any],
    k2: Any,
    f2: Any,
    args2: Sequence[Any],
    line1: int | None = None,
    col1: int | None = None,
) -> Any:
    """`t_update_in2` with one key left after the prefix in each path (`rest1` is
    `(k1,)`, `rest2` is `(k2,)`), the keys passed as they are (no tuple per call).

    When the memo entry of `prefix` was walked from `m` and remembers `k1` and `k2`
    (the second call of a prefix on), the two updates go straight to the keys found
    there the last time (see `Owned`). An update fn that is the fast helper of `+`,
    `-` (two ints or two floats), `inc` or `dec` (an int) is applied inline for such
    values: exactly what the helper computes, without its call. Anything else runs
    `t_update_in2`.
    """
    paths = owned.paths
    if paths is not None:
        try:
            hit = paths.get(prefix)
        except TypeError:  # a collection as a key: never memoized
            hit = None
        if hit is not None and hit[0] is m and hit[2] is k1 and hit[4] is k2:
            cur = hit[1]
            found = hit[3]
            old = cur[found]
            to = type(old)
            if f1 is _add2 and len(args1) == 1 and to is type(a := args1[0]) and to in _NUM:
                cur[found] = old + a
            elif f1 is _inc1 and to is int and not args1:
                cur[found] = old + 1
            elif f1 is _sub2 and len(args1) == 1 and to is type(a := args1[0]) and to in _NUM:
                cur[found] = old - a
            elif f1 is _dec1 and to is int and not args1:
                cur[found] = old - 1
            else:
                try:
                    fn1 = f1 if type(f1) is FunctionType else as_fn(f1, "update-in")
                    if to is dict and id(old) in owned:
                        _release(owned, old)  # handed to the update fn
                    cur[found] = fn1(old, *args1)
                except PtcError as err:
                    if line1 is not None:
                        _at_first(err, line1, col1)  # see `t_update_in2`
                    raise
            found = hit[5]
            old = cur[found]
            to = type(old)
            if f2 is _add2 and len(args2) == 1 and to is type(a := args2[0]) and to in _NUM:
                cur[found] = old + a
            elif f2 is _inc1 and to is int and not args2:
                cur[found] = old + 1
            elif f2 is _sub2 and len(args2) == 1 and to is type(a := args2[0]) and to in _NUM:
                cur[found] = old - a
            elif f2 is _dec1 and to is int and not args2:
                cur[found] = old - 1
            else:
                fn2 = f2 if type(f2) is FunctionType else as_fn(f2, "update-in")
                if to is dict and id(old) in owned:
                    _release(owned, old)  # handed to the update fn
                cur[found] = fn2(old, *args2)
            return m
    return t_update_in2(owned, m, prefix, (k1,), f1, args1, (k2,), f2, args2, line1, col1)


def _stored_key(m: dict[Any, Any], k: object) -> tuple[object, object]:
    """The stored key of `m` a flexible read of `k` finds and its value; a new key's
    stored form and nil when there is none (the caller stores it; `m` is below the
    accumulator, so never `Owned.plain`)."""
    found = find_key(m, k)
    if found is NOT_FOUND:
        return to_key(k), None
    return found, m[found]


def t_assoc_in(owned: Owned, m: Any, path: object, v: Any) -> Any:
    """`(assoc-in m path v)` with owned maps on the path updated in place."""
    return _in_place_update_in(owned, "assoc-in", m, path, None, (v,))


def t_assoc_fields(
    m: dict[Any, Any],
    items: Sequence[object],
    kk: Keyword,
    kname: str,
    vk: Keyword | None,
    vname: str | None,
    fuel: context.Fuel,
    credit: context.Credit,
) -> tuple[context.Fuel, dict[Any, Any]]:
    """`(reduce (fn [m x] (assoc m (:k x) (:v x))) {} coll)` (`vk` None: `x` itself as
    the value; keywords whose names have no `-`), the whole loop in one call: `m` is the
    fresh `{}`, `items` are `coll`'s elements (`t_items`, called where a bad collection
    fails), and the fuel chunk to continue with is handed back (`fieldfilter`).

    Each element costs the step the loop pulls for it, taken from the same chunks in
    the same order (`fieldfilter.fuel_parts`); the keyword reads (`rt.kfield`) and the
    `assoc` into a map cannot fail or have effects, so running them a part at a time
    changes nothing. A part whose keys are all strings without `_` going into the plain
    map (see `Owned`) is one `dict.update`: there a new key needs no one-logical-key
    search and an existing one is the key itself, overwritten in place, as `t_assoc1`
    stores them; any other part runs `t_assoc1` element by element.
    """
    owned = t_begin(m)
    module = sys._getframe(1).f_globals  # the caller's `FUEL` (see `fieldfilter`)
    if module.get("FUEL") is not fuel:
        module = {"FUEL": fuel}
    # string-keyed maps only (`ptc_runtime.records`): a field's string spelling is the
    # one a keyword read finds (names without `-`: there is no other spelling)
    records = is_records(items) and "-" not in kname and "-" not in (vname or "")
    for part in fuel_parts(items, module, credit):
        keys: list[Any]
        vals: Sequence[object]
        if records:
            keys = list(map(_dict_get, part, repeat(kname)))
            vals = part if vk is None else list(map(_dict_get, part, repeat(vname)))
        else:
            keys = [
                x.get(kk, x.get(kname)) if type(x) is dict else get_flexible(x, kk) for x in part
            ]
            if vk is None:
                vals = part
            else:
                vals = [
                    x.get(vk, x.get(vname)) if type(x) is dict else get_flexible(x, vk)
                    for x in part
                ]
        if (
            (owned.plain is m or not m)
            and len(owned) == 1  # so no value of `m` is owned (nothing to release)
            and _STR_ONLY.issuperset(map(type, keys))
            and "_" not in "".join(keys)
        ):
            m.update(zip(keys, vals, strict=True))
            owned.plain = m
        else:
            for k, v in zip(keys, vals, strict=True):
                m = t_assoc1(owned, m, k, v)
    return module["FUEL"], m


#: `dict.get` as a two-argument function of any item (the items are dicts where used).
_dict_get: Final[Callable[[Any, object], Any]] = dict.get


#: One update of `t_update_fields`: the path's last key, the update fn (a fast helper
#: of `fastops`), its argument count after the old value (0 or 1), the index of the
#: field that is its argument (-1: `arg` is), `arg`, and the `update-in`'s line and
#: column (where its errors are placed).
FieldUpdate = tuple[Any, Callable[..., Any], int, int, Any, int, int]
#: Consecutive updates of `t_update_fields` whose paths share all keys but the last: the
#: prefix (constant keys, None where an element's field goes), the indexes of the fields
#: that fill those places in order, and the updates.
FieldGroup = tuple[tuple[Any, ...], tuple[int, ...], tuple[FieldUpdate, ...]]
_REPEAT: Final = type(repeat(None, 0))
_left: Final = _REPEAT.__length_hint__


def t_update_fields(
    m: Any,
    items: Sequence[object],
    kws: tuple[Keyword, ...],
    names: tuple[str, ...],
    groups: tuple[FieldGroup, ...],
    fresh: bool,
    fuel: context.Fuel,
    credit: context.Credit,
) -> tuple[context.Fuel, Any]:
    """`(reduce (fn [acc x] (-> acc (update-in [k (:f x) ...] f a) ...)) m coll)`, the
    whole loop in one call: each path holds constant string/keyword keys and fields of
    the element (`kws`, spelled `names`: keywords without `-`), its last key a constant;
    each update fn is a fast helper of `fastops` (pure: it never calls back into the
    program), with no argument or one, a constant or a field. `items` are `coll`'s
    elements (`t_items`, called where a bad collection fails), `fresh` tells that `m` is
    a new `{}`, and the fuel chunk to continue with is handed back (as `t_assoc_fields`).

    Steps. The loop pulls a step per element, then runs the body. Here the elements
    whose steps are still in the chunk run first and their steps are pulled after: the
    updates neither pull steps nor have effects, and an update that fails pulls the
    steps up to its element only, so the count, and the element where an exhausted
    budget or an update fails, are the loop's. (Running ahead of the pulls is not
    observable: the accumulator a failed run leaves is never seen, as no form catches
    an error.) An empty chunk is refilled where the loop would, charging the element.

    Updates. The element's fields are read for a part at a time (reads cannot fail or
    have effects; on a record list straight by their string spelling, see
    `ptc_runtime.records`). Each group's prefix walk is memoized by the element's
    fields in it: (the map at the prefix's end, the key each update found there), under
    the same rules as `Owned.paths` (strings and keywords only, exact or name probes,
    every level owned; all dropped when a map is released or the accumulator replaced).
    A memoized update of an int/float by `+`/`-`/`inc`/`dec` is done inline, exactly
    what the fast helper computes (as `t_update_in2k`); any other update runs what the
    loop runs (`_in_place_update_in`, or the fn on the memoized leaf), its error placed
    at its `update-in`.
    """
    run = _FieldsRun(m, t_begin(m) if fresh else t_begin(), len(groups), kws, names)
    module = sys._getframe(1).f_globals  # the caller's `FUEL` (see `fieldfilter`)
    if module.get("FUEL") is not fuel:
        module = {"FUEL": fuel}
    run.records = is_records(items)
    # one group whose updates are all `+`/`-`/`inc`/`dec`
    inline = len(groups) == 1 and all(u[1] in _DELTA for u in groups[0][2])
    n = len(items)
    i = 0
    while i < n:
        chunk = module["FUEL"]  # now: a parallel worker may have refilled it
        left = _left(chunk) if type(chunk) is _REPEAT else length_hint(chunk)
        if left:
            want = left if left < n - i else n - i
            due = True  # the part's steps are pulled after it ran
        else:  # the loop's pull found the chunk empty: refill, charging this element
            module["FUEL"] = context.current().refill(chunk, credit)
            want, due = 1, False
        run.part = items[i : i + want] if i or want < n else items
        run.cols = [None] * len(kws)
        run.size = want
        run.done = 0
        try:
            if inline:
                run.inline(groups[0])
            else:
                run.general(groups)
        except BaseException:
            if due:
                _pull(module, credit, run.done + 1)  # the steps up to the failing element
            raise
        if due:
            _pull(module, credit, want)
        i += want
    return module["FUEL"], run.m


#: The fast helpers `t_update_fields` applies inline, each as the number added to an
#: int/float of the argument's type (`inc`: an int's 1; `-`: the argument negated, exact
#: for ints and floats: IEEE subtraction is addition of the negation): None = the argument.
_DELTA: Final[dict[Callable[..., Any], int | None]] = {_add2: None, _sub2: -1, _inc1: 1, _dec1: -1}


#: Elements `_FieldsRun.inline` runs one at a time before it tries bare additions again.
_ONE_BY_ONE: Final = 256
_first: Final = itemgetter(0)


def _uniform(values: Sequence[Any]) -> type | None:
    """The type of all of `values` when they have one (None for none or several)."""
    kinds = set(map(type, values))
    return kinds.pop() if len(kinds) == 1 else None


class _FieldsRun:
    """The state of one `t_update_fields` call: the accumulator `m`, its ownership table,
    a memo per group, the accumulator they were walked from, the current part's field
    columns and size, and the element of it running (for the steps when one fails)."""

    __slots__ = (
        "cols",
        "done",
        "epoch",
        "kinds",
        "kws",
        "m",
        "memos",
        "mixed",
        "names",
        "owned",
        "part",
        "records",
        "size",
        "token",
        "walked",
    )

    def __init__(
        self, m: Any, owned: Owned, groups: int, kws: tuple[Keyword, ...], names: tuple[str, ...]
    ) -> None:
        self.kws = kws
        self.names = names
        self.records = False
        self.part: Sequence[Any] = ()
        # the types the leaves of all memoized walks hold (None: no walk yet), unless
        # `mixed` (see `bare`)
        self.kinds: tuple[type, ...] | None = None
        self.mixed = False
        self.m = m
        self.owned = owned
        self.token: dict[tuple[object, ...], list[Any]] = {}
        owned.paths = self.token  # a release replaces it (see `_release`): memos void
        self.memos: list[dict[Any, tuple[Any, ...]]] = [{} for _ in range(groups)]
        self.walked = m
        self.cols: list[list[Any] | None] = []
        self.size = 0
        self.done = 0
        self.epoch = 0  # counts `forget`s

    def col(self, f: int) -> list[Any]:
        """Field `f` of the current part's elements, read once per part."""
        col = self.cols[f]
        if col is None:
            k, name = self.kws[f], self.names[f]
            if self.records:
                col = list(map(_dict_get, self.part, repeat(name)))
            else:
                col = [
                    x.get(k, x.get(name)) if type(x) is dict else get_flexible(x, k)
                    for x in self.part
                ]
            self.cols[f] = col
        return col

    def keys(self, fidx: tuple[int, ...]) -> Sequence[Any]:
        """The memo keys of a group over the current part: its fields' values (one
        field: the value, several: their tuple)."""
        if not fidx:
            return [()] * self.size
        if self.records and all(self.cols[f] is None for f in fidx):
            try:  # straight from the maps when they all hold the fields
                return list(map(itemgetter(*(self.names[f] for f in fidx)), self.part))
            except KeyError:
                pass
        if len(fidx) == 1:
            return self.col(fidx[0])
        return list(zip(*(self.col(f) for f in fidx), strict=True))

    def deltas(self, u: FieldUpdate) -> tuple[Sequence[Any] | None, Any]:
        """What an inline update adds over the current part (see `_DELTA`): a column,
        or None and the one number every element adds (for another fn, a value of no
        number type: never added inline)."""
        if u[1] not in _DELTA:
            return None, _MISSING
        sign = _DELTA[u[1]]
        if not u[2]:  # inc/dec
            return None, sign
        if u[3] < 0:  # a constant argument
            a = u[4]
            return None, a if sign is None or not (type(a) is int or type(a) is float) else -a
        col = self.col(u[3])
        if sign is None:
            return col, None
        return [-a if type(a) is int or type(a) is float else a for a in col], None

    def inline(self, group: FieldGroup) -> None:
        """The part's elements for one group of `+`/`-`/`inc`/`dec` updates.

        Stretches of elements whose walks are all memoized, each adding numbers of one
        type (int or float) to leaves that all hold that type, run as bare additions:
        such an addition keeps the leaf's type, so the leaves stay what was checked, and
        it cannot fail. Each leaf still gets its numbers in element order. Elements
        after a stretch run one at a time (`one_by_one`), for a while."""
        keys = self.keys(group[1])
        cols = [self.deltas(u) for u in group[2]]
        kinds: list[type | None] = []
        for col, d in cols:
            kind = type(d) if col is None else _uniform(col)
            kinds.append(kind if kind is int or kind is float else None)
        n = len(keys)
        get = self.memos[0].get
        try:
            hits = list(map(get, keys)) if None not in kinds else None
        except TypeError:  # a collection as a key: never memoized
            hits = None
        if hits is None:
            self.one_by_one(0, group, keys, cols, 0, n)
            return
        if None in hits:  # walks first taken in this part: memoized ahead where they can be
            near: dict[tuple[Any, ...], tuple[Any, bool]] = {}
            for key in dict.fromkeys(compress(keys, map(not_, hits))):
                self.prewalk(group, key, near)
            hits = list(map(get, keys))
        epoch = self.epoch
        pos = 0
        while pos < n:
            if self.epoch != epoch:  # walks were dropped: look the rest up again
                hits[pos:] = map(get, keys[pos:])
                epoch = self.epoch
            end = pos  # the stretch of memoized walks from `pos`
            while True:
                try:
                    end = hits.index(None, end)
                except ValueError:
                    end = n
                    break
                hit = get(keys[end])  # not memoized when looked up, maybe since
                if hit is None:
                    break
                hits[end] = hit
                end += 1
            if end > pos and self.bare(keys, hits, cols, kinds, pos, end):
                pos = end
            else:
                stop = min(n, max(end, pos + _ONE_BY_ONE))
                self.one_by_one(0, group, keys, cols, pos, stop)
                pos = stop

    def bare(
        self,
        keys: Sequence[Any],
        hits: list[Any],
        cols: list[tuple[Sequence[Any] | None, Any]],
        kinds: list[type | None],
        pos: int,
        end: int,
    ) -> bool:
        """Run elements `pos` to `end` of the part, all memoized (`hits`), as bare
        additions if their leaves hold the types added (see `inline`); whether it did."""
        if self.mixed or self.kinds != tuple(kinds):
            # check the leaves of these walks (else all leaves hold `self.kinds`: each
            # was checked when its walk was memoized, and since then only changed by
            # additions that keep the type, or `mixed` would be set)
            get = self.memos[0].get
            entries: list[Any] = list(map(get, dict.fromkeys(islice(keys, pos, end))))
            maps = list(map(_first, entries))
            for u, kind in enumerate(kinds, 1):
                if _uniform(list(map(getitem, maps, map(itemgetter(u), entries)))) is not kind:
                    return False
        its = [repeat(d) if col is None else islice(col, pos, end) for col, d in cols]
        if len(cols) > 2:
            for hit, *adds in zip(islice(hits, pos, end), *its, strict=False):
                cur = hit[0]
                for f, a in zip(hit[1:], adds, strict=True):
                    cur[f] += a
            return True
        it1 = its[0]
        if len(cols) == 1:
            for (cur, f), a in zip(islice(hits, pos, end), it1, strict=False):
                cur[f] += a
        else:
            it2 = its[1]
            for (cur, f, g), a, b in zip(islice(hits, pos, end), it1, it2, strict=False):
                cur[f] += a
                cur[g] += b
        return True

    def one_by_one(
        self,
        g: int,
        group: FieldGroup,
        keys: Sequence[Any],
        cols: list[tuple[Sequence[Any] | None, Any]],
        start: int,
        stop: int,
    ) -> None:
        """Elements `start` to `stop` of the part one at a time for group `g`: memoized
        walks with the inline additions where the types allow, else as the loop runs
        them."""
        ups = group[2]
        get = self.memos[g].get
        for j in range(start, stop):
            self.done = j
            key = keys[j]
            try:
                hit = get(key)
            except TypeError:  # a collection as a key: never memoized
                hit = None
            if hit is None:
                self.miss(g, group, key, j)
                continue
            cur = hit[0]
            for u, (col, d), found in zip(ups, cols, hit[1:], strict=True):
                a = d if col is None else col[j]
                old = cur[found]
                if (to := type(old)) is type(a) and (to is int or to is float):
                    cur[found] = old + a
                else:
                    self.apply(cur, found, u, j)

    def general(self, groups: tuple[FieldGroup, ...]) -> None:
        """The part's elements for any groups and update fns, each element's groups in
        order (two groups may reach one leaf)."""
        plan = [
            (g, group, self.memos[g].get, self.keys(group[1]), [self.deltas(u) for u in group[2]])
            for g, group in enumerate(groups)
        ]
        for j in range(self.size):
            self.done = j
            for g, group, get, keys, cols in plan:  # `one_by_one` of one element
                key = keys[j]
                try:
                    hit = get(key)
                except TypeError:  # a collection as a key: never memoized
                    hit = None
                if hit is None:
                    self.miss(g, group, key, j)
                    continue
                cur = hit[0]
                for u, (col, d), found in zip(group[2], cols, hit[1:], strict=True):
                    a = d if col is None else col[j]
                    old = cur[found]
                    if (to := type(old)) is type(a) and (to is int or to is float):
                        cur[found] = old + a
                    else:
                        self.apply(cur, found, u, j)

    def apply(self, cur: dict[Any, Any], found: object, u: FieldUpdate, j: int) -> None:
        """Update `u` of element `j` on a memoized leaf: the last step of
        `_in_place_update_in`, its error placed at the `update-in`."""
        _k, fn, nargs, af, arg, line, col = u
        owned = self.owned
        old = cur[found]
        args = () if not nargs else (self.col(af)[j] if af >= 0 else arg,)
        self.mixed = True  # the leaf may hold anything now
        try:
            if type(old) is dict and id(old) in owned:
                _release(owned, old)  # handed to the update fn
            cur[found] = fn(old, *args)
        except PtcError as err:
            err.at(line, col)
            raise
        if owned.paths is not self.token:  # released: the memos are void
            self.forget()

    def miss(self, g: int, group: FieldGroup, key: Any, j: int) -> None:
        """Element `j`'s updates of group `g`, whose walk is not memoized, as the loop
        runs them; then its memo entry, if `Owned.paths` would keep one.

        The prefix is walked once, adopting its levels (what the first update adopts
        anyway, as in `t_update_in2`); when every level is a map, each update is the
        last step of `_in_place_update_in` from the map at its end, else the updates
        run `_in_place_update_in` from the accumulator."""
        ups = group[2]
        path = self.path(group, key)
        owned = self.owned
        cur, memo = self.walk(path)
        m = self.m
        if cur is None or not memo:
            self.mixed = True  # a leaf no memoized walk notes may be one that one does
        if cur is None:
            for u in ups:
                last, fn, nargs, af, arg, line, col = u
                args = () if not nargs else (self.col(af)[j] if af >= 0 else arg,)
                try:
                    m = _in_place_update_in(owned, "update-in", m, [*path, last], fn, args)
                except PtcError as err:
                    err.at(line, col)
                    raise
                self.m = m
            memo = False
        else:
            entry: list[Any] = [cur]
            for u in ups:
                k, fn, nargs, af, arg, line, col = u
                tk = type(k)
                if tk is Keyword:
                    old = cur.get(k, _MISSING)
                    if old is _MISSING:
                        found = k.name
                        old = cur.get(found, _MISSING)
                        if old is _MISSING:
                            found, old = _stored_key(cur, k)
                    else:
                        found = k
                elif tk is str and (old := cur.get(k, _MISSING)) is not _MISSING:
                    found = k
                else:
                    found, old = _stored_key(cur, k)
                if cur is owned.plain and found not in cur:
                    owned.plain = _NO_MAP  # a new key of any kind: see `Owned`
                args = () if not nargs else (self.col(af)[j] if af >= 0 else arg,)
                try:
                    if type(old) is dict and id(old) in owned:
                        _release(owned, old)  # handed to the update fn
                    cur[found] = fn(old, *args)
                except PtcError as err:
                    err.at(line, col)
                    raise
                entry.append(found)
        if owned.paths is not self.token or m is not self.walked:
            self.forget()  # a map was released, or the accumulator replaced
            self.walked = m
            if owned.paths is not self.token:
                return
        if memo:
            self.remember(g, key, entry)

    def walk(
        self, path: list[Any], near: dict[tuple[Any, ...], tuple[Any, bool]] | None = None
    ) -> tuple[Any, bool]:
        """The map at the end of `path` from the accumulator, adopting the levels on the
        way (as `t_update_in2`), or None when a level is missing or not a map; and
        whether `Owned.paths` would memoize the walk (string and keyword keys, each found
        as it is or by its name). `near` keeps the walks of all but the last key, for
        walks one after another with nothing changing the maps but their adoption (which
        leaves a map adopted where it is)."""
        owned = self.owned
        m = self.m
        t = type(m)
        cur: Any = None
        memo = True
        if t is dict or t is PMap:
            if t is not dict or id(m) not in owned:
                m = self.m = _adopt(owned, m)
            cur = m
            if near is not None and len(path) > 1:
                head = tuple(path[:-1])
                try:
                    got = near.get(head)
                except TypeError:  # a collection as a key
                    near = None
                else:
                    if got is None:
                        got = near[head] = self.walk(path[:-1])
                    cur, memo = got
                    if cur is None:
                        return None, memo
                    path = path[-1:]
            for k in path:
                tk = type(k)
                nxt: Any = cur.get(k, _MISSING) if tk is str or tk is Keyword else _MISSING
                if nxt is not _MISSING:
                    found: object = k
                elif tk is Keyword and (nxt := cur.get(k.name, _MISSING)) is not _MISSING:
                    found = k.name
                else:
                    memo = False
                    found = find_key(cur, k)
                    if found is NOT_FOUND:
                        cur = None
                        break
                    nxt = cur[found]
                tn = type(nxt)
                if tn is dict:
                    if id(nxt) not in owned:
                        nxt = _adopt(owned, nxt)
                        cur[found] = nxt
                elif tn is PMap:
                    nxt = _adopt(owned, nxt)
                    cur[found] = nxt
                else:
                    cur = None
                    break
                cur = nxt
        return cur, memo

    def prewalk(
        self, group: FieldGroup, key: Any, near: dict[tuple[Any, ...], tuple[Any, bool]]
    ) -> None:
        """Memoize the walk of `key` (of the one group) ahead of its element when its
        path and every leaf exist: it only adopts levels, which the element's updates
        do anyway (and which no one sees if an earlier element fails)."""
        path = self.path(group, key)
        cur, memo = self.walk(path, near)
        if self.owned.paths is not self.token or self.m is not self.walked:
            self.forget()
            self.walked = self.m
        if cur is None or not memo:
            return
        entry: list[Any] = [cur]
        for u in group[2]:
            k = u[0]
            if k in cur:
                found: object = k
            elif type(k) is Keyword and k.name in cur:
                found = k.name
            else:
                found = find_key(cur, k)
                if found is NOT_FOUND:
                    return  # the update adds the leaf: left to it
            entry.append(found)
        self.remember(0, key, entry)

    def remember(self, g: int, key: Any, entry: list[Any]) -> None:
        """Memoize `entry` (the map at a walk's end, the keys of its leaves)."""
        self.memos[g][key] = tuple(entry)
        cur = entry[0]
        kinds = tuple(map(type, map(cur.__getitem__, islice(entry, 1, None))))
        if self.kinds is None:
            self.kinds = kinds
        elif kinds != self.kinds:
            self.mixed = True

    @staticmethod
    def path(group: FieldGroup, key: Any) -> list[Any]:
        """A group's prefix for an element whose fields there are `key` (see `keys`)."""
        prefix, fidx, _ups = group
        path = list(prefix)
        if fidx:
            i = 0
            for v in key if len(fidx) > 1 else (key,):
                i = path.index(None, i)
                path[i] = v
                i += 1
        return path

    def forget(self) -> None:
        """Drop every memoized walk (a map was released or the accumulator replaced)."""
        for memo in self.memos:
            memo.clear()
        self.owned.paths = self.token
        self.epoch += 1
        self.kinds = None
        self.mixed = False


def _pull(module: dict[str, Any], credit: context.Credit, steps: int) -> None:
    """Pull `steps` steps from the module's `FUEL`, as many loop passes would (a chunk
    a parallel worker emptied meanwhile is refilled, as their pulls would)."""
    while steps:
        chunk = module["FUEL"]
        left = _left(chunk) if type(chunk) is _REPEAT else length_hint(chunk)
        if left:
            steps -= countOf(islice(chunk, left if left < steps else steps), None)
        else:
            module["FUEL"] = context.current().refill(chunk, credit)
            steps -= 1


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


HELPERS: Final[dict[str, Any]] = {
    "rt_t_begin": t_begin,
    "rt_t_items": t_items,
    "rt_t_seen": t_seen,
    "rt_t_assoc": t_assoc,
    "rt_t_assoc1": t_assoc1,
    "rt_t_update": t_update,
    "rt_t_update_in": t_update_in,
    "rt_t_update_in2": t_update_in2,
    "rt_t_update_in2k": t_update_in2k,
    "rt_t_assoc_in": t_assoc_in,
    "rt_t_conj": t_conj,
    "rt_t_assoc_fields": t_assoc_fields,
    "rt_t_update_fields": t_update_fields,
}
