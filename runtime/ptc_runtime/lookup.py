"""Flexible key reads.

A read of key `k` in a map tries the exact key, then the other spelling (keyword `:k`
<-> string `"k"`), then, when the name contains `-`, the name with `_` for every `-`
(as keyword and as string). Writes use `find_key` to address the one logical key a
read would find (see `collections.assoc`). The common case, a plain dict holding the
exact keyword or string key, costs one type check and one dict lookup.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from ptc_runtime.collections import EqKey, PMap, PSet, PVec, kind_name, to_key
from ptc_runtime.errors import PtcError
from ptc_runtime.values import Keyword, existing_keyword


class _NotFound:
    __slots__ = ()

    def __repr__(self) -> str:
        return "NOT_FOUND"


#: Returned by `find_key` when no variant of the key is present.
NOT_FOUND: Final = _NotFound()


def find_key(m: Mapping[object, object], k: object) -> object:
    """The stored key of `m` that a flexible read of `k` finds, or `NOT_FOUND`."""
    tk = type(k)
    if tk is Keyword:
        if k in m:
            return k
        name: str = k.name  # type: ignore[attr-defined]
        if name in m:
            return name
        if "-" in name:
            alt = name.replace("-", "_")
            kw = existing_keyword(alt)
            if kw is not None and kw in m:
                return kw
            if alt in m:
                return alt
        return NOT_FOUND
    if tk is str:
        if k in m:
            return k
        kw = existing_keyword(k)  # type: ignore[arg-type]
        if kw is not None and kw in m:
            return kw
        if "-" in k:  # type: ignore[operator]
            alt = k.replace("-", "_")  # type: ignore[attr-defined]
            kw = existing_keyword(alt)
            if kw is not None and kw in m:
                return kw
            if alt in m:
                return alt
        return NOT_FOUND
    sk = to_key(k)
    return sk if sk in m else NOT_FOUND


def _get_map(m: Mapping[object, object], k: object, default: object) -> object:
    found = find_key(m, k)
    if found is NOT_FOUND:
        return default
    return m[found]


def get_flexible(m: object, k: object, default: object = None) -> object:
    """`(get m k default)`: maps flexibly, vectors by index, sets by membership.

    A vector key reads a literal vector key if the map has one, otherwise it is a path
    (`(get m [:a :b])` is `(get-in m [:a :b])`). Other receivers give `default`.
    """
    tm = type(m)
    if tm is dict or tm is PMap:
        tk = type(k)
        if tk is Keyword or tk is str:
            v = m.get(k, NOT_FOUND)  # type: ignore[attr-defined]
            if v is not NOT_FOUND:
                return v
            return _get_map(m, k, default)  # type: ignore[arg-type]
        if tk is list or tk is PVec:
            sk = EqKey(k)
            if sk in m:  # type: ignore[operator]
                return m[sk]  # type: ignore[index]
            return get_in(m, k, default)
        v = m.get(to_key(k), NOT_FOUND)  # type: ignore[attr-defined]
        return default if v is NOT_FOUND else v
    if tm is list or tm is PVec:
        if type(k) is int and 0 <= k < len(m):  # type: ignore[arg-type]
            return m[k]  # type: ignore[index]
        return default
    if m is None:
        return default
    if tm is PSet:
        return m.m.get(to_key(k), default)  # type: ignore[attr-defined]
    if tm is str:
        if type(k) is int and 0 <= k < len(m):  # type: ignore[arg-type]
            return m[k]  # type: ignore[index]
        return default
    return default


def get_in(m: object, path: object, default: object = None, who: str = "get-in") -> object:
    """`(get-in m path default)`: flexible reads level by level; default when a key is absent."""
    tp = type(path)
    if path is None:
        return m
    if tp is not list and tp is not PVec:
        raise PtcError("type_error", f"{who}: path must be a vector, got {kind_name(path)}")
    cur = m
    for k in path:  # type: ignore[attr-defined]
        if type(cur) is dict:
            # the common level inline: a string/keyword key found exactly or (keyword)
            # by its name, the first two probes `get_flexible` makes
            tk = type(k)
            if tk is str or tk is Keyword:
                v = cur.get(k, NOT_FOUND)
                if v is NOT_FOUND and tk is Keyword:
                    v = cur.get(k.name, NOT_FOUND)
                if v is not NOT_FOUND:
                    cur = v
                    continue
        cur = get_flexible(cur, k, NOT_FOUND)
        if cur is NOT_FOUND:
            return default
    return cur


def get_path(m: object, *path: object) -> object:
    """`(get-in m [k1 k2 ...])` with a literal vector path, whose keys the compiler
    passes as arguments: `get_in(m, [k1 k2 ...])` without the vector and its checks.

    Each level is the flexible read `get_in` makes. On a dict the exact key is probed
    first for any key; its value is taken at once for a string or keyword (exactly what
    a flexible read finds first), a keyword then tries its name (the second spelling),
    and everything else goes through `get_flexible`. An unhashable key (a vector or map)
    makes the probe raise `TypeError`; then `get_in` reads the path from the start.
    """
    cur = m
    try:
        for k in path:
            if type(cur) is dict:
                v = cur.get(k, NOT_FOUND)
                if v is not NOT_FOUND:
                    tk = type(k)
                    if tk is str or tk is Keyword:
                        cur = v
                        continue
                elif type(k) is Keyword:
                    v = cur.get(k.name, NOT_FOUND)
                    if v is not NOT_FOUND:
                        cur = v
                        continue
            cur = get_flexible(cur, k, NOT_FOUND)
            if cur is NOT_FOUND:
                return None
    except TypeError:
        return get_in(m, list(path))
    return cur


# `(get-in m [k1 .. kn])` with a literal path of 1 to 5 keys: `get_path1` .. `get_path5`,
# unrolled (a loop over the levels, even over a tuple of pairs, costs as much again as the
# reads: ~45 ns a level on 3.11). The compiler passes each key `kI` with `nI`: the name of a
# constant keyword without `-`, else None. Per level on a dict:
# - `nI` given: the keyword's flexible read is the exact key, else the string `nI`, else
#   nothing (`find_key` tries `_` spellings only for names with `-`): two C-level probes;
# - else the exact probe: a hit is what `get_flexible` finds first for any key but a
#   boolean (stored as `EqKey`, and `True == 1` would find the key 1); a miss, a boolean,
#   and anything but a dict read through `get_flexible`.
# Levels never fail and have no effects, and a missing key and a nil value both read as
# nil from there on, so each level reads with default nil and nothing returns early. An
# unhashable key (a vector or map: its probe raises TypeError) reads the path again with
# `get_in`.


def get_path1(m: object, k1: object, n1: str | None) -> object:
    """`(get-in m [k1])` / `(get m k1)`: one level as in `get_path2` (see the comment above)."""
    try:
        if type(m) is dict:
            if n1 is not None:
                return m.get(k1, m.get(n1))
            if (v := m.get(k1, NOT_FOUND)) is not NOT_FOUND and type(k1) is not bool:
                return v
        return get_flexible(m, k1, None)
    except TypeError:
        return get_in(m, [k1])


def get_path2(m: object, k1: object, n1: str | None, k2: object, n2: str | None) -> object:
    """`(get-in m [k1 k2])` of a literal path: `get_in(m, [k1, k2])`, level by level
    unrolled (see the comment above)."""
    c = m
    try:
        if type(c) is dict:
            if n1 is not None:
                c = c.get(k1, c.get(n1))
            elif (v := c.get(k1, NOT_FOUND)) is not NOT_FOUND and type(k1) is not bool:
                c = v
            else:
                c = get_flexible(c, k1, None)
        else:
            c = get_flexible(c, k1, None)
        if type(c) is dict:
            if n2 is not None:
                return c.get(k2, c.get(n2))
            if (v := c.get(k2, NOT_FOUND)) is not NOT_FOUND and type(k2) is not bool:
                return v
        return get_flexible(c, k2, None)
    except TypeError:
        return get_in(m, [k1, k2])


def get_path3(
    m: object, k1: object, n1: str | None, k2: object, n2: str | None, k3: object, n3: str | None
) -> object:
    """`(get-in m [k1 .. k3])`: see the comment above `get_path2`."""
    c = m
    try:
        if type(c) is dict:
            if n1 is not None:
                c = c.get(k1, c.get(n1))
            elif (v := c.get(k1, NOT_FOUND)) is not NOT_FOUND and type(k1) is not bool:
                c = v
            else:
                c = get_flexible(c, k1, None)
        else:
            c = get_flexible(c, k1, None)
        if type(c) is dict:
            if n2 is not None:
                c = c.get(k2, c.get(n2))
            elif (v := c.get(k2, NOT_FOUND)) is not NOT_FOUND and type(k2) is not bool:
                c = v
            else:
                c = get_flexible(c, k2, None)
        else:
            c = get_flexible(c, k2, None)
        if type(c) is dict:
            if n3 is not None:
                return c.get(k3, c.get(n3))
            if (v := c.get(k3, NOT_FOUND)) is not NOT_FOUND and type(k3) is not bool:
                return v
        return get_flexible(c, k3, None)
    except TypeError:
        return get_in(m, [k1, k2, k3])


def get_path4(
    m: object,
    k1: object,
    n1: str | None,
    k2: object,
    n2: str | None,
    k3: object,
    n3: str | None,
    k4: object,
    n4: str | None,
) -> object:
    """`(get-in m [k1 .. k4])`: see the comment above `get_path2`."""
    c = m
    try:
        if type(c) is dict:
            if n1 is not None:
                c = c.get(k1, c.get(n1))
            elif (v := c.get(k1, NOT_FOUND)) is not NOT_FOUND and type(k1) is not bool:
                c = v
            else:
                c = get_flexible(c, k1, None)
        else:
            c = get_flexible(c, k1, None)
        if type(c) is dict:
            if n2 is not None:
                c = c.get(k2, c.get(n2))
            elif (v := c.get(k2, NOT_FOUND)) is not NOT_FOUND and type(k2) is not bool:
                c = v
            else:
                c = get_flexible(c, k2, None)
        else:
            c = get_flexible(c, k2, None)
        if type(c) is dict:
            if n3 is not None:
                c = c.get(k3, c.get(n3))
            elif (v := c.get(k3, NOT_FOUND)) is not NOT_FOUND and type(k3) is not bool:
                c = v
            else:
                c = get_flexible(c, k3, None)
        else:
            c = get_flexible(c, k3, None)
        if type(c) is dict:
            if n4 is not None:
                return c.get(k4, c.get(n4))
            if (v := c.get(k4, NOT_FOUND)) is not NOT_FOUND and type(k4) is not bool:
                return v
        return get_flexible(c, k4, None)
    except TypeError:
        return get_in(m, [k1, k2, k3, k4])


def get_path5(
    m: object,
    k1: object,
    n1: str | None,
    k2: object,
    n2: str | None,
    k3: object,
    n3: str | None,
    k4: object,
    n4: str | None,
    k5: object,
    n5: str | None,
) -> object:
    """`(get-in m [k1 .. k5])`: see the comment above `get_path2`."""
    c = m
    try:
        if type(c) is dict:
            if n1 is not None:
                c = c.get(k1, c.get(n1))
            elif (v := c.get(k1, NOT_FOUND)) is not NOT_FOUND and type(k1) is not bool:
                c = v
            else:
                c = get_flexible(c, k1, None)
        else:
            c = get_flexible(c, k1, None)
        if type(c) is dict:
            if n2 is not None:
                c = c.get(k2, c.get(n2))
            elif (v := c.get(k2, NOT_FOUND)) is not NOT_FOUND and type(k2) is not bool:
                c = v
            else:
                c = get_flexible(c, k2, None)
        else:
            c = get_flexible(c, k2, None)
        if type(c) is dict:
            if n3 is not None:
                c = c.get(k3, c.get(n3))
            elif (v := c.get(k3, NOT_FOUND)) is not NOT_FOUND and type(k3) is not bool:
                c = v
            else:
                c = get_flexible(c, k3, None)
        else:
            c = get_flexible(c, k3, None)
        if type(c) is dict:
            if n4 is not None:
                c = c.get(k4, c.get(n4))
            elif (v := c.get(k4, NOT_FOUND)) is not NOT_FOUND and type(k4) is not bool:
                c = v
            else:
                c = get_flexible(c, k4, None)
        else:
            c = get_flexible(c, k4, None)
        if type(c) is dict:
            if n5 is not None:
                return c.get(k5, c.get(n5))
            if (v := c.get(k5, NOT_FOUND)) is not NOT_FOUND and type(k5) is not bool:
                return v
        return get_flexible(c, k5, None)
    except TypeError:
        return get_in(m, [k1, k2, k3, k4, k5])


# `(get-in m [k1 .. kn] d)`, a literal path of 2 to 5 keys with a default: `get_path_or2`
# .. `get_path_or5`, the levels of `get_path2` .. that stop at the first missing key with
# the default (a nil value found is not missing; a separate family because the check costs
# ~9 ns a level, 10% of a read without a default). The default is the last argument, as
# the program evaluates it.


def get_path_or2(
    m: object, k1: object, n1: str | None, k2: object, n2: str | None, d: object
) -> object:
    """`(get-in m [k1 k2] d)`: see the comment above."""
    c = m
    try:
        if type(c) is dict:
            if n1 is not None:
                c = c.get(k1, c.get(n1, NOT_FOUND))
            elif (v := c.get(k1, NOT_FOUND)) is NOT_FOUND or type(k1) is bool:
                c = get_flexible(c, k1, NOT_FOUND)
            else:
                c = v
        else:
            c = get_flexible(c, k1, NOT_FOUND)
        if c is NOT_FOUND:
            return d
        if type(c) is dict:
            if n2 is not None:
                c = c.get(k2, c.get(n2, NOT_FOUND))
            elif (v := c.get(k2, NOT_FOUND)) is NOT_FOUND or type(k2) is bool:
                c = get_flexible(c, k2, NOT_FOUND)
            else:
                c = v
        else:
            c = get_flexible(c, k2, NOT_FOUND)
        if c is NOT_FOUND:
            return d
    except TypeError:
        return get_in(m, [k1, k2], d)
    return c


def get_path_or3(
    m: object,
    k1: object,
    n1: str | None,
    k2: object,
    n2: str | None,
    k3: object,
    n3: str | None,
    d: object,
) -> object:
    """`(get-in m [k1 k2 k3] d)`: see the comment above `get_path_or2`."""
    c = m
    try:
        if type(c) is dict:
            if n1 is not None:
                c = c.get(k1, c.get(n1, NOT_FOUND))
            elif (v := c.get(k1, NOT_FOUND)) is NOT_FOUND or type(k1) is bool:
                c = get_flexible(c, k1, NOT_FOUND)
            else:
                c = v
        else:
            c = get_flexible(c, k1, NOT_FOUND)
        if c is NOT_FOUND:
            return d
        if type(c) is dict:
            if n2 is not None:
                c = c.get(k2, c.get(n2, NOT_FOUND))
            elif (v := c.get(k2, NOT_FOUND)) is NOT_FOUND or type(k2) is bool:
                c = get_flexible(c, k2, NOT_FOUND)
            else:
                c = v
        else:
            c = get_flexible(c, k2, NOT_FOUND)
        if c is NOT_FOUND:
            return d
        if type(c) is dict:
            if n3 is not None:
                c = c.get(k3, c.get(n3, NOT_FOUND))
            elif (v := c.get(k3, NOT_FOUND)) is NOT_FOUND or type(k3) is bool:
                c = get_flexible(c, k3, NOT_FOUND)
            else:
                c = v
        else:
            c = get_flexible(c, k3, NOT_FOUND)
        if c is NOT_FOUND:
            return d
    except TypeError:
        return get_in(m, [k1, k2, k3], d)
    return c


def get_path_or4(
    m: object,
    k1: object,
    n1: str | None,
    k2: object,
    n2: str | None,
    k3: object,
    n3: str | None,
    k4: object,
    n4: str | None,
    d: object,
) -> object:
    """`(get-in m [k1 k2 k3 k4] d)`: see the comment above `get_path_or2`."""
    c = m
    try:
        if type(c) is dict:
            if n1 is not None:
                c = c.get(k1, c.get(n1, NOT_FOUND))
            elif (v := c.get(k1, NOT_FOUND)) is NOT_FOUND or type(k1) is bool:
                c = get_flexible(c, k1, NOT_FOUND)
            else:
                c = v
        else:
            c = get_flexible(c, k1, NOT_FOUND)
        if c is NOT_FOUND:
            return d
        if type(c) is dict:
            if n2 is not None:
                c = c.get(k2, c.get(n2, NOT_FOUND))
            elif (v := c.get(k2, NOT_FOUND)) is NOT_FOUND or type(k2) is bool:
                c = get_flexible(c, k2, NOT_FOUND)
            else:
                c = v
        else:
            c = get_flexible(c, k2, NOT_FOUND)
        if c is NOT_FOUND:
            return d
        if type(c) is dict:
            if n3 is not None:
                c = c.get(k3, c.get(n3, NOT_FOUND))
            elif (v := c.get(k3, NOT_FOUND)) is NOT_FOUND or type(k3) is bool:
                c = get_flexible(c, k3, NOT_FOUND)
            else:
                c = v
        else:
            c = get_flexible(c, k3, NOT_FOUND)
        if c is NOT_FOUND:
            return d
        if type(c) is dict:
            if n4 is not None:
                c = c.get(k4, c.get(n4, NOT_FOUND))
            elif (v := c.get(k4, NOT_FOUND)) is NOT_FOUND or type(k4) is bool:
                c = get_flexible(c, k4, NOT_FOUND)
            else:
                c = v
        else:
            c = get_flexible(c, k4, NOT_FOUND)
        if c is NOT_FOUND:
            return d
    except TypeError:
        return get_in(m, [k1, k2, k3, k4], d)
    return c


def get_path_or5(
    m: object,
    k1: object,
    n1: str | None,
    k2: object,
    n2: str | None,
    k3: object,
    n3: str | None,
    k4: object,
    n4: str | None,
    k5: object,
    n5: str | None,
    d: object,
) -> object:
    """`(get-in m [k1 k2 k3 k4 k5] d)`: see the comment above `get_path_or2`."""
    c = m
    try:
        if type(c) is dict:
            if n1 is not None:
                c = c.get(k1, c.get(n1, NOT_FOUND))
            elif (v := c.get(k1, NOT_FOUND)) is NOT_FOUND or type(k1) is bool:
                c = get_flexible(c, k1, NOT_FOUND)
            else:
                c = v
        else:
            c = get_flexible(c, k1, NOT_FOUND)
        if c is NOT_FOUND:
            return d
        if type(c) is dict:
            if n2 is not None:
                c = c.get(k2, c.get(n2, NOT_FOUND))
            elif (v := c.get(k2, NOT_FOUND)) is NOT_FOUND or type(k2) is bool:
                c = get_flexible(c, k2, NOT_FOUND)
            else:
                c = v
        else:
            c = get_flexible(c, k2, NOT_FOUND)
        if c is NOT_FOUND:
            return d
        if type(c) is dict:
            if n3 is not None:
                c = c.get(k3, c.get(n3, NOT_FOUND))
            elif (v := c.get(k3, NOT_FOUND)) is NOT_FOUND or type(k3) is bool:
                c = get_flexible(c, k3, NOT_FOUND)
            else:
                c = v
        else:
            c = get_flexible(c, k3, NOT_FOUND)
        if c is NOT_FOUND:
            return d
        if type(c) is dict:
            if n4 is not None:
                c = c.get(k4, c.get(n4, NOT_FOUND))
            elif (v := c.get(k4, NOT_FOUND)) is NOT_FOUND or type(k4) is bool:
                c = get_flexible(c, k4, NOT_FOUND)
            else:
                c = v
        else:
            c = get_flexible(c, k4, NOT_FOUND)
        if c is NOT_FOUND:
            return d
        if type(c) is dict:
            if n5 is not None:
                c = c.get(k5, c.get(n5, NOT_FOUND))
            elif (v := c.get(k5, NOT_FOUND)) is NOT_FOUND or type(k5) is bool:
                c = get_flexible(c, k5, NOT_FOUND)
            else:
                c = v
        else:
            c = get_flexible(c, k5, NOT_FOUND)
        if c is NOT_FOUND:
            return d
    except TypeError:
        return get_in(m, [k1, k2, k3, k4, k5], d)
    return c


def contains_key(m: object, k: object, who: str = "contains?") -> bool:
    """`(contains? coll k)`: map key (flexible), set member, vector value, string index."""
    tm = type(m)
    if tm is dict or tm is PMap:
        if type(k) is list or type(k) is PVec:
            if EqKey(k) in m:  # type: ignore[operator]
                return True
            return get_in(m, k, NOT_FOUND) is not NOT_FOUND
        return find_key(m, k) is not NOT_FOUND  # type: ignore[arg-type]
    if tm is PSet:
        return to_key(k) in m.m  # type: ignore[attr-defined]
    if tm is list or tm is PVec:
        from ptc_runtime.equality import eq

        return any(eq(x, k) for x in m)  # type: ignore[attr-defined]
    if m is None:
        return False
    if tm is str:
        if type(k) is float and k.is_integer():  # decision 4: 1.0 is the index 1
            k = int(k)
        return type(k) is int and 0 <= k < len(m)  # type: ignore[arg-type]
    raise PtcError("type_error", f"{who}: expected a collection, got {kind_name(m)}")
