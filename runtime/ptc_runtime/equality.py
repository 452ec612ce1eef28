"""PTC `=`, the hash consistent with it, and the natural order used by `compare`/`sort`.

One equality everywhere: numbers by value (`(= 1 1.0)`), booleans never
equal numbers, NaN equals nothing, keywords never equal strings, vectors element-wise
(list and `PVec` alike), maps by keys and values (dict and `PMap` alike), sets by
members. All walks use explicit stacks, so deep values never hit Python's recursion
limit. Java temporal values (`ptc_runtime.temporal`) are equal by value within one
class and order chronologically against their own class only.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from ptc_runtime.collections import EqKey, PMap, PSet, PVec
from ptc_runtime.errors import PtcError
from ptc_runtime.temporal import Temporal, kind
from ptc_runtime.values import Keyword

_HASH_DEPTH: Final = 8  # hash_value looks this deep; deeper parts hash to a constant
_HASH_ITEMS: Final = 32  # vectors hash their first and last items; big maps/sets their size
_HASH_HALF: Final = _HASH_ITEMS // 2
_TRUE_HASH: Final = 0x5A17_C0DE_0001
_FALSE_HASH: Final = 0x5A17_C0DE_0000
_NIL_HASH: Final = 0x5A17_C0DE_00FF
_NUMBER_TYPES: Final = (int, float)


def _shallow(a: object, b: object) -> bool | None:
    """Decide `=` without descending, or return None when both are same-kind collections."""
    if a is b:
        return type(a) is not float or a == a
    ta = type(a)
    tb = type(b)
    if ta is str or tb is str:
        return ta is tb and a == b
    if (ta is int or ta is float) and (tb is int or tb is float):
        return a == b
    if ta is list or ta is PVec:
        if tb is list or tb is PVec:
            return None if len(a) == len(b) else False  # type: ignore[arg-type]
        return False
    if ta is dict or ta is PMap:
        if tb is dict or tb is PMap:
            return None if len(a) == len(b) else False  # type: ignore[arg-type]
        return False
    if ta is PSet:
        if tb is PSet:
            return None if len(a) == len(b) else False  # type: ignore[arg-type]
        return False
    if ta is bool or tb is bool or a is None or b is None or ta is Keyword:
        return False
    if ta is EqKey and tb is EqKey:
        return _shallow(a.value, b.value)  # type: ignore[attr-defined]
    return bool(a == b)


def eq(a: object, b: object) -> bool:
    """PTC `=` of two values."""
    r = _shallow(a, b)
    if r is not None:
        return r
    stack: list[tuple[object, object]] = [(a, b)]
    # Each pair of containers is compared once: shared sub-structure (a DAG that unfolds
    # to 2^64 paths) costs its number of distinct pairs, not its number of paths.
    seen: set[tuple[int, int]] = set()
    while stack:
        x, y = stack.pop()
        r = _shallow(x, y)
        if r is None:
            pair = (id(x), id(y))
            if pair in seen:
                continue
            seen.add(pair)
            tx = type(x)
            if tx is list or tx is PVec:
                stack.extend(zip(x, y, strict=True))  # type: ignore[call-overload]
            elif tx is PSet:
                ym = y.m  # type: ignore[attr-defined]
                for k in x.m:  # type: ignore[attr-defined]
                    if k not in ym:
                        return False
            else:
                ym = y
                for k, v in x.items():  # type: ignore[attr-defined]
                    w = ym.get(k, _MISSING)  # type: ignore[attr-defined]
                    if w is _MISSING:
                        return False
                    stack.append((v, w))
        elif not r:
            return False
    return True


_MISSING: Final = object()


def hash_value(x: object) -> int:
    """A hash consistent with `eq` (equal values hash equal), bounded in depth and work.

    Shared structure is hashed once per call (`memo`, by identity): a 32-wide DAG costs
    its distinct nodes, not its 32^depth paths."""
    return _hash(x, _HASH_DEPTH, {})


def _hash(x: object, depth: int, memo: dict[int, int]) -> int:
    t = type(x)
    if t is str or t is int or t is float or t is Keyword:
        return hash(x)
    if t is bool:
        return _TRUE_HASH if x else _FALSE_HASH
    if x is None:
        return _NIL_HASH
    if t is EqKey:
        return hash(x)
    if depth <= 0:
        return 0x7E57
    key = id(x)
    h = memo.get(key)
    if h is not None:
        return h
    if t is list or t is PVec:
        n = len(x)  # type: ignore[arg-type]
        h = 0x3C6E_F372 + n
        # the first and the last items: long vectors that share a prefix stay apart
        items = x if n <= _HASH_ITEMS else [*x[:_HASH_HALF], *x[n - _HASH_HALF :]]  # type: ignore[index]
        for item in items:  # type: ignore[attr-defined]
            h = (h * 1_000_003) ^ _hash(item, depth - 1, memo)
            h &= 0xFFFF_FFFF_FFFF
    elif t is dict or t is PMap:
        n = len(x)  # type: ignore[arg-type]
        h = 0x6A09_E667 + n
        if n <= _HASH_ITEMS:
            for k, v in x.items():  # type: ignore[attr-defined]
                h += (hash(k) * 31) ^ _hash(v, depth - 1, memo)
        h &= 0xFFFF_FFFF_FFFF
    elif t is PSet:
        n = len(x)  # type: ignore[arg-type]
        h = 0x1F83_D9AB + n
        if n <= _HASH_ITEMS:
            for k in x.m:  # type: ignore[attr-defined]
                h += hash(k)
        h &= 0xFFFF_FFFF_FFFF
    else:
        try:
            return hash(x)
        except TypeError:
            return id(x)
    memo[key] = h
    return h


# ---------------------------------------------------------------- natural order


def _utf16_cmp(a: str, b: str) -> int:
    if a == b:
        return 0
    if a.isascii() and b.isascii():
        return -1 if a < b else 1
    ea = a.encode("utf-16-be", "surrogatepass")
    eb = b.encode("utf-16-be", "surrogatepass")
    return -1 if ea < eb else 1


def _rank(x: object) -> int:
    t = type(x)
    if x is None:
        return 0
    if t is bool:
        return 1
    if t is int or t is float:
        return 2
    if t is str:
        return 3
    if t is Keyword:
        return 4
    if t is list or t is PVec:
        return 5
    if isinstance(x, Temporal):
        return 6
    return -1


def _not_comparable(a: object, b: object) -> PtcError:
    return PtcError(
        "type_error",
        f"compare: values are not comparable: {kind(a)} and {kind(b)}",
    )


def _cmp_atoms(a: object, b: object) -> int:
    ra, rb = _rank(a), _rank(b)
    if ra < 0 or rb < 0:
        raise _not_comparable(a, b)
    if ra == 0 or rb == 0:
        return (ra > 0) - (rb > 0)
    if ra != rb:
        raise _not_comparable(a, b)
    if ra == 2:
        if a != a or b != b:
            raise PtcError("type_error", "compare: NaN cannot be ordered")
        return -1 if a < b else (1 if a > b else 0)  # type: ignore[operator]
    if ra == 3:
        return _utf16_cmp(a, b)  # type: ignore[arg-type]
    if ra == 4:
        return _utf16_cmp(a.name, b.name)  # type: ignore[attr-defined]
    if ra == 1:
        return (a is True) - (b is True)
    if ra == 6:  # Java temporal values: one class, chronologically
        if type(a) is not type(b):
            raise _not_comparable(a, b)
        ka, kb = a.order_key(), b.order_key()  # type: ignore[attr-defined]
        return (ka > kb) - (ka < kb)  # type: ignore[no-any-return]
    return 0


def compare(a: object, b: object) -> int:
    """Natural order: -1, 0 or 1; incomparable kinds raise `type_error`.

    A pair of vectors compared equal is remembered (by identity) for the rest of the
    walk: two equal DAGs that unfold to 2^64 paths cost their distinct pairs, as in `eq`.
    """
    stack: list[Iterator[tuple[object, object]]] = [iter(((a, b),))]
    pairs: list[tuple[int, int] | None] = [None]  # the vectors each iterator walks
    done: set[tuple[int, int]] = set()
    while stack:
        pair = next(stack[-1], None)
        if pair is None:
            stack.pop()
            finished = pairs.pop()
            if finished is not None:
                done.add(finished)
            continue
        x, y = pair
        tx, ty = type(x), type(y)
        if (tx is list or tx is PVec) and (ty is list or ty is PVec):
            nx, ny = len(x), len(y)  # type: ignore[arg-type]
            if nx != ny:
                return -1 if nx < ny else 1
            ids = (id(x), id(y))
            if ids in done:  # both still held by their parents: the ids are theirs
                continue
            stack.append(zip(x, y, strict=True))  # type: ignore[call-overload]
            pairs.append(ids)
            continue
        c = _cmp_atoms(x, y)
        if c:
            return c
    return 0
