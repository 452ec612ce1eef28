"""Sequence builtins: `cons concat range into map filter reduce reductions`.

Everything is eager and returns vectors. Function arguments may be any PTC callable
(`collections.as_fn`): compiled fns, builtins, keywords, sets and maps.
`range` needs a bound and refuses to allocate more than
`MAX_RANGE` items.
"""

from __future__ import annotations

import functools
import math
import operator
import sys
from itertools import islice
from typing import Final, cast

from ptc_runtime.builtins.grouped import pluck
from ptc_runtime.builtins.registry import BuiltinSpec, declare, wrong_count
from ptc_runtime.collections import (
    PMap,
    PSet,
    PVec,
    as_fn,
    kind_name,
    seq_items,
    vec_extend,
)
from ptc_runtime.collections import conj as conj1
from ptc_runtime.errors import PtcError
from ptc_runtime.hashguard import check_pairs
from ptc_runtime.lookup import NOT_FOUND
from ptc_runtime.metered import (
    fold_each,
    map_each,
    map_many,
    metered_fn,
    select_each,
    self_charging,
)
from ptc_runtime.values import Keyword

DECLS: list[BuiltinSpec] = []

_NO_ARG: object = object()  # marks an argument not given

#: The largest vector `range` builds.
MAX_RANGE: Final = 10_000_000


@declare(DECLS, "cons", arities=(2,), doc="New vector with x followed by the items of coll.")
def cons(x: object, coll: object) -> list[object]:
    out = [x]
    out.extend(seq_items(coll, "cons"))
    return out


@declare(DECLS, "concat", variadic_min=0, doc="Vector of the items of all colls in order.")
def concat(*colls: object) -> list[object]:
    parts = [seq_items(c, "concat") for c in colls]
    _check_size("concat", sum(map(len, parts)))
    out: list[object] = []
    for part in parts:
        out.extend(part)
    return out


def _check_size(who: str, n: int) -> None:
    """Refuse a result of `n` items before building it (doubling loops)."""
    if n > MAX_RANGE:
        raise PtcError(
            "memory_exceeded", f"{who}: {n} items is more than the limit of {MAX_RANGE}"
        )


def _range_num(x: object) -> int | float:
    t = type(x)
    if t is int or t is float:
        return x  # type: ignore[return-value]
    raise PtcError("type_error", f"range: expected numbers, got {kind_name(x)}")


@declare(
    DECLS,
    "range",
    arities=(1, 2, 3),
    allocates=True,
    doc="Vector of numbers from start (default 0) below end, by step (default 1).",
)
def range_(*args: object) -> list[object]:
    if not args:
        raise PtcError(
            "arity_error",
            "range: infinite sequences are not supported",
            hint="give a bound, e.g. (range 10)",
        )
    if len(args) > 3:  # `(apply range ...)` reaches here without the analyzer's check
        raise wrong_count("range", len(args), "1 or 2 or 3")
    nums = [_range_num(a) for a in args]
    start: int | float = 0
    step: int | float = 1
    if len(nums) == 1:
        end = nums[0]
    elif len(nums) == 2:
        start, end = nums
    else:
        start, end, step = nums
    if step == 0 or step != step:
        raise PtcError("type_error", "range: step must not be zero", hint="use repeat")
    if all(type(n) is int for n in nums):
        r = range(start, end, step)  # type: ignore[arg-type]
        if len(r) > MAX_RANGE:
            raise _too_big(len(r))
        return list(r)
    return _float_range(start, end, step)


def _too_big(n: float) -> PtcError:
    return PtcError(
        "memory_exceeded",
        f"range: {n:.0f} items is more than the limit of {MAX_RANGE}",
        hint="take fewer items",
    )


def _float_range(start: int | float, end: int | float, step: int | float) -> list[object]:
    span = (end - start) / step
    if span != span:
        return []
    if span > MAX_RANGE:
        raise _too_big(span if math.isfinite(span) else math.inf)
    out: list[object] = []
    x = start
    # Clojure adds the step repeatedly (so (range 0 1 0.1) ends 0.9999999999999999).
    if step > 0:
        while x < end:
            out.append(x)
            x += step
    else:
        while x > end:
            out.append(x)
            x += step
    return out


@declare(
    DECLS,
    "into",
    arities=(0, 1, 2),
    doc="to with every item of from added (as by conj); (into) is [], (into to) is to.",
)
def into(to: object = _NO_ARG, frm: object = _NO_ARG) -> object:
    if frm is _NO_ARG:  # Clojure's (into) and (into to)
        return [] if to is _NO_ARG else to
    t = type(to)
    items = seq_items(frm, "into")
    if t is list or t is PVec or t is PSet:
        _check_size("into", len(to) + len(items))  # type: ignore[arg-type]
    if t is list or t is PVec:
        if not items:
            return to
        if not to and type(items) is list:
            return list(items)
        return vec_extend(to, items)  # type: ignore[arg-type]
    if t is PSet:
        s: PSet = to  # type: ignore[assignment]
        if len(items) > 8 and type(s.m) is dict:
            return PSet.from_iterable([*s, *items])
        for x in items:
            s = s.conj(x)
        return s
    if to is None or t is dict or t is PMap:
        check_pairs(items, "into")
        out = to
        for x in items:
            out = conj1(out, x, "into")
        return out
    raise PtcError("type_error", f"into: expected a collection, got {kind_name(to)}")


@declare(DECLS, "map", variadic_min=2, doc="Vector of (f x) for each x; several colls are zipped.")
def map_(f: object, coll: object, *colls: object) -> list[object]:
    if not colls:
        if type(f) is Keyword:  # (map :k rows): one comprehension over plain dicts
            return pluck(seq_items(coll, "map"), f)
        return map_each(as_fn(f, "map"), seq_items(coll, "map"))
    fn = as_fn(f, "map")
    seqs = [seq_items(c, "map") for c in (coll, *colls)]
    if self_charging(fn):
        return [fn(*xs) for xs in zip(*seqs, strict=False)]
    return map_many(fn, seqs)


@declare(DECLS, "filter", arities=(2,), doc="Vector of the items for which (pred x) is truthy.")
def filter_(pred: object, coll: object) -> list[object]:
    fn = as_fn(pred, "filter")
    if not self_charging(fn):
        return select_each(fn, seq_items(coll, "filter"), True)
    out = []
    for x in seq_items(coll, "filter"):
        v = fn(x)
        if v is not None and v is not False:
            out.append(x)
    return out


@declare(
    DECLS,
    "reduce",
    arities=(2, 3),
    doc="Left fold of f over coll, starting from init or the first.",
)
def reduce_(f: object, a: object, b: object = NOT_FOUND) -> object:
    fn = as_fn(f, "reduce")
    if fn is _PLUS:
        # Plain numbers are summed in one C call: no callback runs, so no step is charged
        # (the call is bounded by the collection's size, itself bounded: `MAX_RANGE`). Every
        # other fold, `+` over anything else included, charges each call (`fold_each`).
        total = _sum_numbers(a, b)
        if total is not None:
            return total
    if b is NOT_FOUND:
        items = seq_items(a, "reduce")
        if not items:
            return fn()
        acc = items[0]
        it = iter(items)
        next(it)
    else:
        acc = a
        items = seq_items(b, "reduce")
        it = iter(items)
    if not self_charging(fn):
        return fold_each(fn, acc, items, 1) if b is NOT_FOUND else fold_each(fn, acc, items)
    for x in it:
        acc = fn(acc, x)
    return acc


def _sum_numbers(a: object, b: object) -> int | float | None:
    """`(reduce + ...)` over plain numbers in C (`sum`); None when anything else is there,
    so the general fold (and its error messages) handles it."""
    if b is NOT_FOUND:
        items, start = a, None
    else:
        items, start = b, a
    if type(items) is PVec:  # its items, as a list (a slice of its buffer, in C)
        vec: PVec = items
        items = vec.buf if len(vec.buf) == vec.n else vec.buf[: vec.n]
    if type(items) is not list or not items:
        return None
    kinds = set(map(type, items))
    if start is not None:
        kinds.add(type(start))
    if not kinds <= _NUMBER_TYPES:
        return None
    try:
        # left to right like the fold: `sum` where it folds (`_SUM_FOLDS`), else
        # functools.reduce(operator.add); started with the first item, not 0 (`0 + -0.0`
        # is `0.0`)
        numbers = cast("list[int | float]", items)  # element types checked above
        if start is not None:
            first = cast("int | float", start)
            if _SUM_FOLDS:
                return sum(numbers, first)
            return functools.reduce(operator.add, numbers, first)
        if _SUM_FOLDS:
            return sum(islice(numbers, 1, None), numbers[0])
        return functools.reduce(operator.add, numbers)
    except OverflowError:  # an int too large for float arithmetic: let the fold decide
        return None


_NUMBER_TYPES = frozenset({int, float})
#: Before 3.12 `sum` adds exact ints and floats as a left fold does, one `+` at a time
#: with the same rounding, in a third of `functools.reduce`'s time; from 3.12 on it
#: compensates float rounding (another result). As `grouped.sum_column`.
_SUM_FOLDS: Final = sys.version_info < (3, 12)


@declare(
    DECLS,
    "reductions",
    arities=(2, 3),
    doc="Vector of the intermediate values of (reduce f init coll), init first.",
)
def reductions(f: object, a: object, b: object = NOT_FOUND) -> list[object]:
    fn = metered_fn(f, "reductions")
    if b is NOT_FOUND:
        items = seq_items(a, "reductions")
        if not items:
            return [fn()]
        acc = items[0]
        it = iter(items)
        next(it)
    else:
        acc = a
        it = iter(seq_items(b, "reductions"))
    out = [acc]
    for x in it:
        acc = fn(acc, x)
        out.append(acc)
    return out


def _plus_builtin() -> object:
    from ptc_runtime.builtins.arithmetic import add

    return add


_PLUS = _plus_builtin()
