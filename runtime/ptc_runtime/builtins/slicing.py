"""Slicing, partitioning and reordering: `take drop take-last drop-last
take-while drop-while nthrest nthnext split-at split-with partition partition-all
partition-by distinct dedupe reverse flatten interleave interpose`.

Counts follow Clojure: a negative count takes nothing / drops nothing, a fractional one
counts up (`(take 1.5 xs)` takes 2). Results are vectors; `partition` checks the size of
what it would build before building it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final

from ptc_runtime.builtins.keyed import is_stored_plain
from ptc_runtime.builtins.registry import BuiltinSpec, declare, wrong_count
from ptc_runtime.collections import PVec, kind_name, seq_items, to_key
from ptc_runtime.equality import eq
from ptc_runtime.errors import PtcError
from ptc_runtime.metered import metered_fn

DECLS: list[BuiltinSpec] = []

#: The most items (summed over all groups) `partition` / `partition-all` build.
MAX_ITEMS: Final = 10_000_000


def _count(who: str, n: object) -> int:
    """A count argument: integers as they are, floats rounded up (as Clojure counts)."""
    t = type(n)
    if t is int:
        return n  # type: ignore[return-value]
    if t is float:
        if n != n:
            raise PtcError("type_error", f"{who}: count must be a number, got NaN")
        if math.isinf(n):  # type: ignore[arg-type]
            return MAX_ITEMS * 1000 if n > 0 else -1  # type: ignore[operator]
        return math.ceil(n)  # type: ignore[call-overload, no-any-return]
    raise PtcError("type_error", f"{who}: count must be a number, got {kind_name(n)}")


def _as_list(items: Sequence[object]) -> list[object]:
    return items if type(items) is list else list(items)


@declare(DECLS, "take", arities=(2,), doc="Vector of the first n items.")
def take(n: object, coll: object) -> list[object]:
    k = _count("take", n)
    items = seq_items(coll, "take")
    if k <= 0:
        return []
    if k >= len(items):
        return _as_list(items)
    return list(items[:k])


@declare(DECLS, "drop", arities=(2,), doc="Vector of all but the first n items.")
def drop(n: object, coll: object) -> list[object]:
    k = _count("drop", n)
    items = seq_items(coll, "drop")
    if k <= 0:
        return _as_list(items)
    return list(items[k:])


@declare(DECLS, "take-last", arities=(2,), doc="Vector of the last n items, or nil if none.")
def take_last(n: object, coll: object) -> list[object] | None:
    k = _count("take-last", n)
    items = seq_items(coll, "take-last")
    if k <= 0 or not items:
        return None
    return list(items[-k:])


@declare(DECLS, "drop-last", arities=(1, 2), doc="Vector of all but the last n (default 1) items.")
def drop_last(a: object, *coll: object) -> list[object]:
    if len(coll) > 1:  # `*coll` takes any count; the registry says 1 or 2 arguments
        raise wrong_count("drop-last", len(coll) + 1, "1 or 2")
    k = 1 if not coll else _count("drop-last", a)
    items = seq_items(coll[-1] if coll else a, "drop-last")
    if k <= 0:
        return _as_list(items)
    return list(items[: max(0, len(items) - k)])


def _prefix_len(pred: object, items: Sequence[object], who: str) -> int:
    fn = metered_fn(pred, who)
    i = 0
    for x in items:
        v = fn(x)
        if v is None or v is False:
            return i
        i += 1
    return i


@declare(DECLS, "take-while", arities=(2,), doc="Vector of the leading items for which pred holds.")
def take_while(pred: object, coll: object) -> list[object]:
    items = seq_items(coll, "take-while")
    return list(items[: _prefix_len(pred, items, "take-while")])


@declare(
    DECLS, "drop-while", arities=(2,), doc="Vector of the items from the first where pred fails."
)
def drop_while(pred: object, coll: object) -> list[object]:
    items = seq_items(coll, "drop-while")
    return list(items[_prefix_len(pred, items, "drop-while") :])


@declare(DECLS, "nthrest", arities=(2,), doc="Vector of the items after the first n; nil for nil.")
def nthrest(coll: object, n: object) -> list[object] | None:
    result = drop(n, coll)  # checks n, also for a nil coll
    return None if coll is None else result  # Clojure's loop hands back nil itself


@declare(DECLS, "nthnext", arities=(2,), doc="Vector of the items after the first n, or nil.")
def nthnext(coll: object, n: object) -> list[object] | None:
    return drop(n, coll) or None


@declare(DECLS, "split-at", arities=(2,), doc="[(take n coll) (drop n coll)].")
def split_at(n: object, coll: object) -> list[object]:
    k = max(0, _count("split-at", n))
    items = seq_items(coll, "split-at")
    return [list(items[:k]), list(items[k:])]


@declare(DECLS, "split-with", arities=(2,), doc="[(take-while pred coll) (drop-while pred coll)].")
def split_with(pred: object, coll: object) -> list[object]:
    items = seq_items(coll, "split-with")
    k = _prefix_len(pred, items, "split-with")
    return [list(items[:k]), list(items[k:])]


def _positive(who: str, n: object, what: str) -> int:
    if type(n) is not int or n <= 0:
        got = kind_name(n) if type(n) is not int else str(n)
        raise PtcError("type_error", f"{who}: {what} must be a positive integer, got {got}")
    return n


def _check_size(who: str, groups: int, size: int) -> None:
    if groups * size > MAX_ITEMS:
        raise PtcError(
            "memory_exceeded",
            f"{who}: {groups} groups of {size} items is more than the limit of {MAX_ITEMS}",
            hint="use a larger step or a smaller group size",
        )


@declare(
    DECLS,
    "partition",
    arities=(2, 3, 4),
    allocates=True,
    doc="Vector of n-item groups every step items; a short last group is dropped unless padded.",
)
def partition(n: object, a: object, *more: object) -> list[object]:
    if len(more) > 2:  # `*more` takes any count; the registry says 2, 3 or 4 arguments
        raise wrong_count("partition", len(more) + 2, "2 or 3 or 4")
    args = (a, *more)
    size = _positive("partition", n, "group size")
    step = size if len(args) == 1 else _positive("partition", args[0], "step")
    items = seq_items(args[-1], "partition")
    count = len(items)
    full = 0 if count < size else (count - size) // step + 1
    pad: Sequence[object] | None = None
    if len(args) == 3:
        pad = seq_items(args[1], "partition")
    tail = pad is not None and full * step < count
    _check_size("partition", full + tail, size)
    out: list[object] = [list(items[i : i + size]) for i in range(0, full * step, step)]
    if tail:
        assert pad is not None
        last = list(items[full * step : full * step + size])
        last.extend(pad[: size - len(last)])
        out.append(last)
    return out


@declare(
    DECLS,
    "partition-all",
    arities=(2, 3),
    allocates=True,
    doc="Vector of n-item groups every step items, keeping a short last group.",
)
def partition_all(n: object, a: object, *more: object) -> list[object]:
    if len(more) > 1:  # `*more` takes any count; the registry says 2 or 3 arguments
        raise wrong_count("partition-all", len(more) + 2, "2 or 3")
    args = (a, *more)
    size = _positive("partition-all", n, "group size")
    step = size if len(args) == 1 else _positive("partition-all", args[0], "step")
    items = seq_items(args[-1], "partition-all")
    starts = range(0, len(items), step)
    _check_size("partition-all", len(starts), min(size, len(items)))
    return [list(items[i : i + size]) for i in starts]


@declare(DECLS, "partition-by", arities=(2,), doc="Vector of runs of items with equal (f x).")
def partition_by(f: object, coll: object) -> list[object]:
    fn = metered_fn(f, "partition-by")
    out: list[object] = []
    group: list[object] = []
    prev: object = None
    for x in seq_items(coll, "partition-by"):
        k = fn(x)
        if group and not eq(k, prev):
            out.append(group)
            group = []
        group.append(x)
        prev = k
    if group:
        out.append(group)
    return out


@declare(DECLS, "distinct", arities=(1,), doc="Vector of the items without repeats (first kept).")
def distinct(coll: object) -> list[object]:
    items = seq_items(coll, "distinct")
    if is_stored_plain(items):  # type: ignore[arg-type]
        return list(dict.fromkeys(items))
    seen: dict[object, object] = {}
    for x in items:
        k = to_key(x)
        if k not in seen:
            seen[k] = x
    return list(seen.values())


@declare(DECLS, "dedupe", arities=(1,), doc="Vector of the items without consecutive repeats.")
def dedupe(coll: object) -> list[object]:
    out: list[object] = []
    for x in seq_items(coll, "dedupe"):
        if not out or not eq(out[-1], x):
            out.append(x)
    return out


@declare(DECLS, "reverse", arities=(1,), doc="Vector of the items in reverse order.")
def reverse(coll: object) -> list[object]:
    return list(reversed(seq_items(coll, "reverse")))


@declare(DECLS, "flatten", arities=(1,), doc="Vector of the non-vector leaves of nested vectors.")
def flatten(coll: object) -> list[object]:
    t = type(coll)
    if t is not list and t is not PVec:
        return []
    out: list[object] = []
    stack = [iter(coll)]  # type: ignore[call-overload]
    opened = 0  # shared sub-vectors are walked once per reference: bound the walk
    while stack:
        for x in stack[-1]:
            tx = type(x)
            if tx is list or tx is PVec:
                opened += 1
                if opened > _FLATTEN_NODES or len(out) > _FLATTEN_ITEMS:
                    raise PtcError(
                        "memory_exceeded",
                        "flatten: the nested vectors hold too many items to flatten",
                    )
                stack.append(iter(x))
                break
            out.append(x)
        else:
            stack.pop()
    if len(out) > _FLATTEN_ITEMS:
        raise PtcError("memory_exceeded", "flatten: the nested vectors hold too many items")
    return out


_FLATTEN_NODES = 1_000_000
_FLATTEN_ITEMS = 10_000_000


@declare(
    DECLS,
    "interleave",
    variadic_min=0,
    doc="Vector of the first items of each coll, then the second ...",
)
def interleave(*colls: object) -> list[object]:
    seqs = [seq_items(c, "interleave") for c in colls]
    if len(seqs) == 1:
        return _as_list(seqs[0])
    out: list[object] = []
    for group in zip(*seqs, strict=False):
        out.extend(group)
    return out


@declare(DECLS, "interpose", arities=(2,), doc="Vector of the items with sep between them.")
def interpose(sep: object, coll: object) -> list[object]:
    items = seq_items(coll, "interpose")
    out: list[object] = []
    for i, x in enumerate(items):
        if i:
            out.append(sep)
        out.append(x)
    return out
