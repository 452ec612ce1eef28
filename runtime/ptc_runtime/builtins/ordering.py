"""Sorting builtins: `sort sort-by`.

Both are stable. The order is natural by default; a comparator may be `:asc`,
`:desc`, a boolean predicate such as `>` (truthy: the first argument goes first) or a
function returning a number (negative or zero: the first argument goes first).
`sort-by` computes each element's key once, then sorts indexes with `sorted(key=...)`;
only a user comparator goes through `cmp_to_key`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import itemgetter
from types import FunctionType
from typing import Any

from ptc_runtime.builtins import comparison, maps
from ptc_runtime.builtins.keyed import comparator_order, key_values_getter, natural_sorted
from ptc_runtime.builtins.registry import BuiltinSpec, declare, wrong_count
from ptc_runtime.builtins.slicing import take
from ptc_runtime.collections import PMap, PSet, PVec, kind_name, seq_items
from ptc_runtime.errors import PtcError
from ptc_runtime.metered import charge_calls, metered_fn
from ptc_runtime.values import Keyword

DECLS: list[BuiltinSpec] = []

_ASC = Keyword("asc")
_DESC = Keyword("desc")
#: Builtin comparators whose order is the natural one, ascending or descending.
_NATURAL: dict[object, bool] = {
    comparison.lt: False,
    comparison.le: False,
    comparison.compare: False,
    comparison.gt: True,
    comparison.ge: True,
}
#: Those of them that take numbers only, by name: as in Clojure, sorting anything else
#: with them (two or more keys, so that they are called) is the error they would raise.
_NUMERIC: dict[object, str] = {
    comparison.lt: "<",
    comparison.le: "<=",
    comparison.gt: ">",
    comparison.ge: ">=",
}


def _is_coll(x: object) -> bool:
    t = type(x)
    return x is None or t is list or t is dict or t is PVec or t is PMap or t is PSet or t is str


def _comparator(c: object, who: str) -> bool | Callable[..., object]:
    """True/False for natural descending/ascending, else the comparator as a callable."""
    if type(c) is Keyword:
        if c is _ASC:
            return False
        if c is _DESC:
            return True
        raise PtcError(
            "type_error",
            f"{who}: unknown comparator :{c.name}, expected :asc, :desc or a function",
            hint="use :asc, :desc, < or >",
        )
    if c is None:
        raise PtcError(
            "type_error", f"{who}: expected a comparator, got nil", hint="use :asc, :desc, < or >"
        )
    desc = _NATURAL.get(c) if type(c) is FunctionType else None
    if desc is not None:
        return desc
    return metered_fn(c, who)


def _arrange(
    items: Sequence[object],
    keys: list[object],
    order: bool | Callable[..., object],
    who: str,
    getter: Callable[[object], object] | None = None,
    limit: int | None = None,
    numeric: str | None = None,
) -> list[object]:
    """`items` in order; with a `limit`, only its first `limit` elements are certain to
    be right (see `natural_sorted`). `numeric` names a numbers-only comparator."""
    if type(order) is bool:
        return natural_sorted(items, keys, order, who, getter, limit, numeric)
    return [items[i] for i in comparator_order(keys, order, who)]


def _swapped(who: str, usage: str) -> PtcError:
    return PtcError(
        "type_error",
        f"{who} expects ({usage}) but the comparator came after the collection",
        hint=f"write ({who} {usage.replace(',', '')})",
    )


@declare(
    DECLS,
    "sort",
    arities=(1, 2),
    allocates=True,
    doc="Stable sort by natural order, or by a comparator (:asc, :desc, <, > or a fn).",
)
def sort(*args: object) -> list[object]:
    return _sort(args, None)


def _sort(args: tuple[object, ...], limit: int | None) -> list[object]:
    if not 1 <= len(args) <= 2:  # `*args` takes any count; the registry says 1 or 2
        raise wrong_count("sort", len(args), "1 or 2")
    if len(args) == 1:
        items = seq_items(args[0], "sort")
        order: bool | Callable[..., object] = False
    else:
        if _is_coll(args[0]) and args[0] is not None and not _is_coll(args[1]):
            raise _swapped("sort", "comparator, coll")
        order = _comparator(args[0], "sort")
        items = seq_items(args[1], "sort")
    if type(order) is bool and type(items) is list:
        keys: list[object] = items
    else:
        keys = list(items)
    return _arrange(items, keys, order, "sort", None, limit, _numeric(args))


@declare(
    DECLS,
    "sort-by",
    arities=(2, 3),
    allocates=True,
    doc="Stable sort by (keyfn x) (keyword/string key or fn), optionally with a comparator.",
)
def sort_by(keyfn: object, *args: object) -> list[object]:
    return _sort_by(keyfn, args, None)


def _sort_by(keyfn: object, args: tuple[object, ...], limit: int | None) -> list[object]:
    if not 1 <= len(args) <= 2:  # `*args` takes any count; the registry says 2 or 3
        raise wrong_count("sort-by", len(args) + 1, "2 or 3")
    if len(args) == 1:
        order: bool | Callable[..., object] = False
        coll = args[0]
    else:
        if not _is_coll(args[1]) and _is_coll(args[0]) and args[0] is not None:
            raise _swapped("sort-by", "keyfn, comparator, coll")
        order = _comparator(args[0], "sort-by")
        coll = args[1]
    if not _is_coll(coll):
        raise PtcError("type_error", f"sort-by: expected a collection, got {kind_name(coll)}")
    items = seq_items(coll, "sort-by")
    part = _ENTRY_PARTS.get(keyfn) if type(keyfn) is FunctionType else None
    if part is not None and (type(coll) is dict or type(coll) is PMap):
        # `(sort-by val m)`, `(sort-by key m)`: the items are the map's fresh `[k v]`
        # entries, so the builtin's value for each is its item at `part`; a C-level
        # getter then computes the same keys (and lets a top n be a heap selection)
        getter: Callable[[Any], Any] = itemgetter(part)
        keys: list[object] = list(map(getter, items))
        charge_calls(len(keys))  # the calls of `key`/`val` this stands for
        return _arrange(items, keys, order, "sort-by", getter, limit, _numeric(args))
    keys, getter_ = key_values_getter(keyfn, items, "sort-by")
    return _arrange(items, keys, order, "sort-by", getter_, limit, _numeric(args))


def _numeric(args: tuple[object, ...]) -> str | None:
    """The name of a numbers-only comparator given as the first of two `args`."""
    c = args[0]
    return _NUMERIC.get(c) if len(args) == 2 and type(c) is FunctionType else None


#: The builtins `key` and `val` by the position they read in a map entry.
_ENTRY_PARTS: dict[object, int] = {maps.key: 0, maps.val: 1}


# `(take n (sort ...))` and `(take n (sort-by ...))` with a literal count n >= 1: the
# compiler calls these instead (the same value and errors; `take` of a vector with such
# an n cannot fail). Only the first n of the order are needed, which a heap selection
# finds without sorting everything (the "top 10" of 100,000 maps: 21 -> 4 ms).


def take_sort(n: int, *args: object) -> list[object]:
    """`(take n (sort args...))` for a count `n` >= 1 known at compile time."""
    return take(n, _sort(args, n))


def take_sort_by(n: int, keyfn: object, *args: object) -> list[object]:
    """`(take n (sort-by keyfn args...))` for a count `n` >= 1 known at compile time."""
    return take(n, _sort_by(keyfn, args, n))
