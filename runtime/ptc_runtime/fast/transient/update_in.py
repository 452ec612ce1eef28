"""`update-in`/`assoc-in` on a linear loop's accumulator: path walks over owned maps,
in place, and the memoized prefix walks of two fused `update-in`s (`Owned.paths`).
See `transient.owned` for the ownership rules.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from types import FunctionType
from typing import Any, Final

from ptc_runtime.builtins import maps as _maps
from ptc_runtime.collections import PMap, as_fn, to_key
from ptc_runtime.errors import PtcError
from ptc_runtime.fast.transient.owned import MISSING, NO_MAP, Owned, adopt, owned_child, release
from ptc_runtime.fastops import add2 as _add2
from ptc_runtime.fastops import dec1 as _dec1
from ptc_runtime.fastops import inc1 as _inc1
from ptc_runtime.fastops import sub2 as _sub2
from ptc_runtime.lookup import NOT_FOUND, find_key
from ptc_runtime.values import Keyword

#: At most this many memoized prefix walks per loop (`Owned.paths`); then it starts over.
_MAX_PATHS: Final = 4096
#: The operand types the fast helpers of `+`/`-` add and subtract with Python's operator
#: when both operands have the same one (`fastops.add2`: never an OverflowError then).
_NUM: Final = (int, float)


def in_place_update_in(
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
        m = adopt(owned, m)
    cur: dict[Any, Any] = m
    last = len(keys) - 1
    for i in range(last):
        k: Any = keys[i]
        tk = type(k)
        # the stored key a flexible read finds: exact, then (keyword) its name, else search
        nxt: Any = cur.get(k, MISSING) if tk is str or tk is Keyword else MISSING
        if nxt is not MISSING:
            found: object = k
        elif tk is Keyword and (nxt := cur.get(k.name, MISSING)) is not MISSING:
            found = k.name
        else:
            found = find_key(cur, k)
            if found is NOT_FOUND:
                # a missing level: the persistent operation builds the fresh maps below it
                if cur is owned.plain:
                    owned.plain = NO_MAP  # a new key of any kind: see `Owned`
                rest = list(keys[i + 1 :])
                cur[to_key(k)] = _maps._update_in(who, None, rest, _change(fn, args))
                return m
            nxt = cur[found]
        tn = type(nxt)
        if tn is dict:
            if id(nxt) not in owned:
                nxt = adopt(owned, nxt)
                cur[found] = nxt
        elif tn is PMap:
            nxt = adopt(owned, nxt)
            cur[found] = nxt
        else:  # nil, a vector or a bad level: persistent from here on
            rest = list(keys[i + 1 :])
            cur[found] = _maps._update_in(who, nxt, rest, _change(fn, args))
            return m
        cur = nxt
    k = keys[last]
    tk = type(k)
    old: Any = cur.get(k, MISSING) if tk is str or tk is Keyword else MISSING
    if old is not MISSING:
        found = k
    elif tk is Keyword and (old := cur.get(k.name, MISSING)) is not MISSING:
        found = k.name
    else:
        found = find_key(cur, k)
        if found is NOT_FOUND:
            if cur is owned.plain:
                owned.plain = NO_MAP  # a new key of any kind: see `Owned`
            cur[to_key(k)] = args[0] if fn is None else fn(None, *args)
            return m
        old = cur[found]
    if type(old) is dict and id(old) in owned:
        release(owned, old)  # handed to the update fn, or overwritten
    cur[found] = args[0] if fn is None else fn(old, *args)
    return m


def _change(fn: Callable[..., object] | None, args: tuple[Any, ...]) -> Callable[[object], object]:
    if fn is None:
        return lambda _old: args[0]
    return lambda old: fn(old, *args)


def t_update_in(owned: Owned, m: Any, path: object, f: Any, *args: Any) -> Any:
    """`(update-in m path f & args)` with owned maps on the path updated in place."""
    fn = f if type(f) is FunctionType else as_fn(f, "update-in")  # a fn is its own callable
    return in_place_update_in(owned, "update-in", m, path, fn, args)


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
                    m = adopt(owned, m)
                cur, memo = walk_owned(owned, m, prefix)
                if memo and cur is not None:
                    if paths is None:
                        paths = owned.paths = {}
                    elif len(paths) >= _MAX_PATHS:
                        paths.clear()
                    entry = paths[key] = [m, cur, MISSING, None, MISSING, None]
            if cur is None:
                m = in_place_update_in(owned, "update-in", m, [*prefix, *rest1], fn1, tuple(args1))
                second = True
                fn2 = f2 if type(f2) is FunctionType else as_fn(f2, "update-in")
                return in_place_update_in(
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
            else:  # the last step of `in_place_update_in`
                tk = type(k)
                if tk is Keyword:
                    old = cur.get(k, MISSING)
                    if old is MISSING:
                        found = k.name
                        old = cur.get(found, MISSING)
                        if old is MISSING:
                            found, old = stored_key(cur, k)
                    else:
                        found = k
                elif tk is str and (old := cur.get(k, MISSING)) is not MISSING:
                    found = k
                else:
                    found, old = stored_key(cur, k)
            if type(old) is dict and id(old) in owned:
                release(owned, old)  # handed to the update fn
            cur[found] = fn1(old, *args1)
            if entry is not None:
                entry[2] = k
                entry[3] = found
        else:
            in_place_update_in(owned, "update-in", cur, list(rest1), fn1, tuple(args1))
        second = True
        fn2 = f2 if type(f2) is FunctionType else as_fn(f2, "update-in")  # after, as unfused
        if len(rest2) == 1:
            k = rest2[0]
            if entry is not None and entry[4] is k:  # found from `cur` the last time
                found = entry[5]
                old = cur[found]
            else:  # the last step of `in_place_update_in`
                tk = type(k)
                if tk is Keyword:
                    old = cur.get(k, MISSING)
                    if old is MISSING:
                        found = k.name
                        old = cur.get(found, MISSING)
                        if old is MISSING:
                            found, old = stored_key(cur, k)
                    else:
                        found = k
                elif tk is str and (old := cur.get(k, MISSING)) is not MISSING:
                    found = k
                else:
                    found, old = stored_key(cur, k)
            if type(old) is dict and id(old) in owned:
                release(owned, old)  # handed to the update fn
            cur[found] = fn2(old, *args2)
            if entry is not None:
                entry[4] = k
                entry[5] = found
        else:
            in_place_update_in(owned, "update-in", cur, list(rest2), fn2, tuple(args2))
        return m
    except PtcError as err:
        if not second and line1 is not None:
            _at_first(err, line1, col1)
        raise


def walk_owned(owned: Owned, cur: Any, path: Iterable[Any]) -> tuple[Any, bool]:
    """From the owned map `cur`, the map at the end of `path`, each level adopted on the
    way and read by the same lookup as a level of `in_place_update_in`; None when a level
    is missing or not a map. Also whether `Owned.paths` may memoize the walk: every key a
    string or keyword found as it is or by its name (equal tuples of such keys are the
    same keys)."""
    memo = True
    for k in path:
        tk = type(k)
        nxt: Any = cur.get(k, MISSING) if tk is str or tk is Keyword else MISSING
        if nxt is not MISSING:
            found: object = k
        elif tk is Keyword and (nxt := cur.get(k.name, MISSING)) is not MISSING:
            found = k.name
        else:
            memo = False
            found = find_key(cur, k)
            if found is NOT_FOUND:
                return None, memo
            nxt = cur[found]
        nxt = owned_child(owned, cur, found, nxt)
        if nxt is None:
            return None, memo
        cur = nxt
    return cur, memo


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
                        release(owned, old)  # handed to the update fn
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
                    release(owned, old)  # handed to the update fn
                cur[found] = fn2(old, *args2)
            return m
    return t_update_in2(owned, m, prefix, (k1,), f1, args1, (k2,), f2, args2, line1, col1)


def leaf_key(m: dict[Any, Any], k: object) -> tuple[object, object]:
    """The key of `m` the last step of `in_place_update_in` writes for `k` and its value
    now: the exact key, a keyword's name, else `stored_key` (`t_update_in2` has this
    written out for its two leaves, where it runs per call)."""
    tk = type(k)
    if tk is Keyword:
        old = m.get(k, MISSING)
        if old is not MISSING:
            return k, old
        old = m.get(k.name, MISSING)  # type: ignore[attr-defined]
        if old is not MISSING:
            return k.name, old  # type: ignore[attr-defined]
    elif tk is str:
        old = m.get(k, MISSING)
        if old is not MISSING:
            return k, old
    return stored_key(m, k)


def stored_key(m: dict[Any, Any], k: object) -> tuple[object, object]:
    """The stored key of `m` a flexible read of `k` finds and its value; a new key's
    stored form and nil when there is none (the caller stores it; `m` is below the
    accumulator, so never `Owned.plain`)."""
    found = find_key(m, k)
    if found is NOT_FOUND:
        return to_key(k), None
    return found, m[found]


def t_assoc_in(owned: Owned, m: Any, path: object, v: Any) -> Any:
    """`(assoc-in m path v)` with owned maps on the path updated in place."""
    return in_place_update_in(owned, "assoc-in", m, path, None, (v,))
