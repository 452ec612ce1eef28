"""Grouping and aggregation: `group-by frequencies sum avg sum-by avg-by min-by max-by
distinct-by min-key max-key combinations zip`.

Results are built with mutable dicts and lists and handed back finished (performance
notes, point 2). Keys given as keywords or strings are flexible field reads, vectors are
paths, anything else a function (`keyed.key_values`). Map keys of results follow the
one-equality rule: `1` and `1.0` group together, `true` and `1` do not.
"""

from __future__ import annotations

import operator
from collections import Counter, _count_elements  # type: ignore[attr-defined]
from collections.abc import Sequence
from functools import reduce
from itertools import combinations as py_combinations
from math import comb
from typing import Final

from ptc_runtime.builtins.arithmetic import _add2, _float
from ptc_runtime.builtins.grouped import remember
from ptc_runtime.builtins.higher_order import mapcat as _mapcat
from ptc_runtime.builtins.keyed import is_stored_plain, key_values
from ptc_runtime.builtins.registry import BuiltinSpec, declare
from ptc_runtime.collections import kind_name, seq_items, to_key
from ptc_runtime.equality import compare
from ptc_runtime.errors import PtcError
from ptc_runtime.hashguard import MAX_SAME_HASH, check_keys
from ptc_runtime.metered import metered_fn
from ptc_runtime.values import Keyword

DECLS: list[BuiltinSpec] = []

#: The most combinations `combinations` builds.
MAX_COMBINATIONS: Final = 1_000_000
_NUMBERS: Final = frozenset({int, float})


@declare(
    DECLS,
    "group-by",
    arities=(2,),
    allocates=True,
    doc="Map from (keyfn x) to the vector of items with that key, in input order.",
)
def group_by(keyfn: object, coll: object) -> dict[object, object]:
    items = seq_items(coll, "group-by")
    keys = key_values(keyfn, items, "group-by")
    if not is_stored_plain(keys):
        keys = [to_key(k) for k in keys]
    out: dict[object, list[object]] = {}
    get = out.get
    for k, x in zip(keys, items, strict=True):
        group = get(k)
        if group is None:
            out[k] = [x]
        else:
            group.append(x)
    remember(out, keys, items)
    return out  # type: ignore[return-value]


@declare(
    DECLS,
    "frequencies",
    arities=(1,),
    allocates=True,
    doc="Map from each distinct item to the number of times it occurs.",
)
def frequencies(coll: object) -> dict[object, object]:
    items = seq_items(coll, "frequencies")
    if len(items) > MAX_SAME_HASH:
        check_keys(items, "frequencies")  # before `Counter` hashes them all in C
    try:
        counts: Counter[object] | None = Counter(items)
    except TypeError:  # an unhashable item (vector, map, set): it needs wrapping
        counts = None
    if counts is not None and (
        _counted_as_stored(counts) or is_stored_plain(items)  # type: ignore[arg-type]
    ):
        return dict(counts)
    if not is_stored_plain(items):  # type: ignore[arg-type]
        items = [to_key(x) for x in items]
    return dict(Counter(items))


#: Key types no boolean can be equal to (a `Keyword` equals only itself).
_NO_BOOL_EQUALS: Final = frozenset({str, Keyword, type(None)})
_NO_BOOL_EQUALS_BUT_0_1: Final = _NO_BOOL_EQUALS | _NUMBERS


def _counted_as_stored(counts: Counter[object]) -> bool:
    """True when counting the raw items gave what counting their stored keys gives.

    Of the kinds `to_key` wraps (`keyed.WRAPPED`), only booleans are hashable: the others
    made `Counter` fail. A boolean is counted under a key of its own (and its type shows
    among the keys) or merged into an equal key counted before it: 0/1 as an int or a
    float. So keys of these types only, none of them 0 or 1, mean no item needed
    wrapping: the same check as `is_stored_plain` over all items, made on the few
    distinct keys instead.
    """
    kinds = set(map(type, counts))
    if kinds <= _NO_BOOL_EQUALS:
        return True
    return kinds <= _NO_BOOL_EQUALS_BUT_0_1 and 0 not in counts and 1 not in counts


def frequencies_mapcat(f: object, coll: object, *colls: object) -> dict[object, object]:
    """`(frequencies (mapcat f coll colls...))` (the compiler calls this): each part is
    counted as soon as `f` returns it, while its items are fresh in memory, instead of
    after all parts were concatenated into one vector (a third less time on word counts).

    The same calls of `f` in the same order, the same value, the same error: `mapcat`
    calls `f` on every element before it looks at any part, so a part that is not a
    collection is remembered, `f` still runs on the rest, and then its error is raised.
    Parts are counted as they are while no key so far can hide a boolean (none equals 0
    or 1) and all items are hashable; the part that breaks this is taken out again and
    from then on each part's stored keys are counted (`to_key`), as `frequencies` does.
    """
    if colls or type(f) is Keyword:  # zipped or plucked parts: the plain composition
        return frequencies(_mapcat(f, coll, *colls))
    fn = metered_fn(f, "map")
    counts: dict[object, object] = {}
    raw = True
    failed: PtcError | None = None
    for x in seq_items(coll, "map"):
        part = fn(x)
        if failed is not None:
            continue
        try:
            items = seq_items(part, "mapcat")
        except PtcError as err:
            failed = err
            continue
        if raw:
            try:
                _count_elements(counts, items)
                if 0 not in counts and 1 not in counts:
                    continue
            except TypeError:  # an unhashable item: the ones before it were counted
                pass
            _uncount(counts, items)
            raw = False
        if is_stored_plain(items):  # type: ignore[arg-type]
            _count_elements(counts, items)
        else:
            _count_elements(counts, map(to_key, items))
    if failed is not None:
        raise failed
    return counts


def _uncount(counts: dict[object, object], items: Sequence[object]) -> None:
    """Take back the counts of `items` (up to the first unhashable one, where counting
    stopped): keys they added go (the others keep their places), the rest count less."""
    for x in items:
        try:
            n = counts[x]
        except TypeError:
            return
        if n == 1:
            del counts[x]
        else:
            counts[x] = n - 1  # type: ignore[operator]


def _numbers(values: Sequence[object], who: str) -> list[object]:
    """The non-nil values, all of which must be numbers."""
    types = set(map(type, values))
    if types <= _NUMBERS:
        return values if type(values) is list else list(values)
    nums = [v for v in values if v is not None]
    for v in nums:
        if type(v) is not int and type(v) is not float:
            raise PtcError("arithmetic_error", f"{who}: expected numbers, got {kind_name(v)}")
    return nums


def _total(nums: list[object]) -> int | float:
    try:
        return reduce(operator.add, nums, 0)
    except OverflowError:  # a huge integer met a float: IEEE overflow to infinity
        total: int | float = 0
        for x in nums:
            total = _add2(total, x)  # type: ignore[arg-type]
        return total


def _mean(nums: list[object]) -> float | None:
    if not nums:
        return None
    total = _total(nums)
    return _float(total) / len(nums) if type(total) is int else total / len(nums)


@declare(DECLS, "sum", arities=(1,), doc="Sum of the numbers of coll (nils skipped); 0 if none.")
def sum_(coll: object) -> int | float:
    return _total(_numbers(seq_items(coll, "sum"), "sum"))


@declare(DECLS, "avg", arities=(1,), doc="Mean of the numbers of coll (nils skipped), or nil.")
def avg(coll: object) -> float | None:
    return _mean(_numbers(seq_items(coll, "avg"), "avg"))


@declare(DECLS, "sum-by", arities=(2,), doc="Sum of (key x) over coll; key: keyword, path or fn.")
def sum_by(key: object, coll: object) -> int | float:
    items = seq_items(coll, "sum-by")
    return _total(_numbers(key_values(key, items, "sum-by"), "sum-by"))


@declare(DECLS, "avg-by", arities=(2,), doc="Mean of the non-nil (key x) over coll, or nil.")
def avg_by(key: object, coll: object) -> float | None:
    items = seq_items(coll, "avg-by")
    return _mean(_numbers(key_values(key, items, "avg-by"), "avg-by"))


def _extreme_by(who: str, key: object, args: tuple[object, ...], want_max: bool) -> object:
    if len(args) == 1:
        try:
            items = seq_items(args[0], who)
        except PtcError:  # one candidate that is no collection: it is the only candidate
            items = args
    else:
        items = args
    keys = key_values(key, items, who)
    best = -1
    best_key: object = None
    types = set(map(type, keys))
    fast = types <= {int, float, type(None)}
    for i, k in enumerate(keys):
        if k is None:
            continue
        if best < 0:
            if fast and k != k:
                raise PtcError("type_error", f"{who}: NaN cannot be ordered")
            best, best_key = i, k
            continue
        if fast:
            if k != k:
                raise PtcError("type_error", f"{who}: NaN cannot be ordered")
            better = k > best_key if want_max else k < best_key  # type: ignore[operator]
        else:
            try:
                c = compare(k, best_key)
            except PtcError as err:
                raise PtcError(err.code, err.message.replace("compare:", who + ":", 1)) from None
            better = c > 0 if want_max else c < 0
        if better:
            best, best_key = i, k
    return items[best] if best >= 0 else None


@declare(
    DECLS,
    "min-by",
    variadic_min=2,
    doc="Item of coll (or of the arguments) with the least key in natural order, or nil.",
)
def min_by(key: object, first: object, *more: object) -> object:
    return _extreme_by("min-by", key, (first, *more), False)


@declare(
    DECLS,
    "max-by",
    variadic_min=2,
    doc="Item of coll (or of the arguments) with the greatest key in natural order, or nil.",
)
def max_by(key: object, first: object, *more: object) -> object:
    return _extreme_by("max-by", key, (first, *more), True)


@declare(DECLS, "distinct-by", arities=(2,), doc="The first item of coll for each distinct key.")
def distinct_by(key: object, coll: object) -> list[object]:
    items = seq_items(coll, "distinct-by")
    keys = key_values(key, items, "distinct-by")
    if not is_stored_plain(keys):
        keys = [to_key(k) for k in keys]
    seen: dict[object, object] = {}
    for k, x in zip(keys, items, strict=True):
        if k not in seen:
            seen[k] = x
    return list(seen.values())


def _key_number(who: str, v: object) -> int | float:
    t = type(v)
    if t is int or t is float:
        return v  # type: ignore[return-value]
    raise PtcError(
        "type_error", f"{who}: expected numbers from the key function, got {kind_name(v)}"
    )


def _extreme_key(who: str, f: object, xs: tuple[object, ...], want_max: bool) -> object:
    if len(xs) == 1:
        return xs[0]
    fn = metered_fn(f, who)
    best = xs[0]
    kb = _key_number(who, fn(best))
    # As Clojure: ties go to the later argument.
    for x in xs[1:]:
        kx = _key_number(who, fn(x))
        if (kx >= kb) if want_max else (kx <= kb):
            best, kb = x, kx
    return best


@declare(
    DECLS, "min-key", variadic_min=2, doc="The x with the least numeric (f x); ties: the last."
)
def min_key(f: object, x: object, *more: object) -> object:
    return _extreme_key("min-key", f, (x, *more), False)


@declare(
    DECLS, "max-key", variadic_min=2, doc="The x with the greatest numeric (f x); ties: the last."
)
def max_key(f: object, x: object, *more: object) -> object:
    return _extreme_key("max-key", f, (x, *more), True)


@declare(
    DECLS,
    "combinations",
    arities=(2,),
    allocates=True,
    doc="Vector of all n-item combinations of coll, in input order.",
)
def combinations(coll: object, n: object) -> list[object]:
    if type(n) is not int:
        raise PtcError("type_error", f"combinations: expected an integer count, got {kind_name(n)}")
    items = seq_items(coll, "combinations")
    if n < 0 or n > len(items):
        return []
    count = comb(len(items), n)
    if count > MAX_COMBINATIONS:
        raise PtcError(
            "memory_exceeded",
            f"combinations: {count} combinations is more than the limit of {MAX_COMBINATIONS}",
            hint="choose fewer items or a smaller n",
        )
    return [list(c) for c in py_combinations(items, n)]


@declare(DECLS, "zip", arities=(2,), doc="Vector of [a b] pairs, stopping at the shorter input.")
def zip_(c1: object, c2: object) -> list[object]:
    a = seq_items(c1, "zip")
    b = seq_items(c2, "zip")
    return [[x, y] for x, y in zip(a, b, strict=False)]
