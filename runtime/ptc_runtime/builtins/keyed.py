"""Key extraction and natural-order sorting shared by the `*-by` builtins.

`key_values(spec, items, who)` computes every item's key once: a keyword or string
`spec` is a flexible field read, a vector is a path (`get-in`), anything
else a PTC callable (`as_fn`). Plucking a field from plain dicts runs as one list
comprehension (the common `(sort-by :price orders)` on JSON data whose keys are strings);
on a record list (`ptc_runtime.records`) a keyword field is read by its string spelling
at once, in C, without first probing the keyword.

`natural_order(keys, descending)` sorts indexes by natural order with
`sorted(key=...)` whenever the keys are all numbers, all strings, all keywords or all
booleans (plus nils, which sort first); mixed or nested keys fall back to `compare`.
"""

from __future__ import annotations

import heapq
import re
from collections.abc import Callable, Sequence
from functools import cmp_to_key
from itertools import repeat
from operator import contains, itemgetter, ne
from typing import Any, Final

from ptc_runtime.collections import PMap, PSet, PVec, as_fn, kind_name
from ptc_runtime.equality import compare
from ptc_runtime.errors import PtcError
from ptc_runtime.hashguard import MAX_SAME_HASH, check_keys
from ptc_runtime.lookup import NOT_FOUND, find_key, get_flexible, get_in
from ptc_runtime.metered import map_each, metered_fn
from ptc_runtime.records import is_records
from ptc_runtime.values import Keyword, existing_keyword

#: A C-level function recomputing sort keys (`operator.itemgetter`); keys are opaque here.
Getter = Callable[[Any], Any]

#: Types whose values `to_key` wraps (so they cannot be dict keys as they are).
WRAPPED: Final = frozenset({bool, list, dict, PVec, PMap, PSet})
_NUMBERS: Final = frozenset({int, float})
_NONE: Final = type(None)
# Code points where Python's order differs from Java's UTF-16 order: astral characters
# sort above U+E000..U+FFFF in Python, below them in UTF-16.
_HIGH_BMP: Final = re.compile("[\ue000-\uffff]")
_ASTRAL: Final = re.compile("[\U00010000-\U0010ffff]")


def _other_spelling(k: object) -> object:
    """`"a"` for `:a` and `:a` for `"a"` (when that keyword exists), else NOT_FOUND."""
    if type(k) is Keyword:
        return k.name
    kw = existing_keyword(k)  # type: ignore[arg-type]
    return NOT_FOUND if kw is None else kw


def pluck(items: Sequence[object], k: object) -> list[object]:
    """`[(get x k) for x in items]` for a keyword or string `k`, fast on plain dicts.

    One pass over maps holding either spelling of `k` (the exact key wins where an item
    has both): each item is probed while it is in the cache, and string-keyed tool data
    raises no `KeyError` first. Anything else (another spelling, a missing key, an item
    that is no map) makes the pass fail and every item is read flexibly.
    """
    if type(k) is Keyword and is_records(items):
        found = _record_field(items, k.name)  # type: ignore[arg-type]
        if found is not None:
            return found
    alt = _other_spelling(k)
    try:
        if alt is NOT_FOUND:
            return [x[k] for x in items]  # type: ignore[index]
        return [x[k] if k in x else x[alt] for x in items]  # type: ignore[index, operator]
    except (KeyError, TypeError, IndexError):
        return [_get(x, k) for x in items]


def pluck_getter(items: Sequence[object], k: object) -> tuple[list[object], Getter | None]:
    """`pluck`, plus a C-level getter giving the same keys when every item is a map
    holding one spelling of `k` (for `sorted(key=...)` without an index permutation)."""
    if type(k) is Keyword and is_records(items):
        getter: Getter = itemgetter(k.name)
        try:
            return list(map(getter, items)), getter
        except KeyError:
            pass
    try:
        keys = [x[k] for x in items]  # type: ignore[index]
        return keys, itemgetter(k)
    except (KeyError, TypeError, IndexError):
        pass
    alt = _other_spelling(k)
    if alt is not NOT_FOUND:
        try:
            keys = [x[alt] for x in items]  # type: ignore[index]
        except (KeyError, TypeError, IndexError):
            pass
        else:
            # The exact key wins where an item has both spellings.
            if not any(map(contains, items, repeat(k))):  # type: ignore[arg-type]
                return keys, itemgetter(alt)
    return [_get(x, k) for x in items], None


def _record_field(items: list[dict[str, object]], name: str) -> list[object] | None:
    """Every item's flexible read of the keyword named `name` when `items` is a record
    list (`ptc_runtime.records`), or None when the general path must answer.

    The keyword is never a key of such a map, so the read finds the string `name` first.
    A name without `-` has no other spelling to try (nil where it is missing); one with
    `-` would go on to its `_` spelling, which is left to the general path.
    """
    try:
        return list(map(itemgetter(name), items))
    except KeyError:
        if "-" not in name:
            return list(map(dict.get, items, repeat(name)))
        return None


def _get(x: object, k: object) -> object:
    t = type(x)
    if t is dict or t is PMap:
        found = find_key(x, k)  # type: ignore[arg-type]
        return None if found is NOT_FOUND else x[found]  # type: ignore[index]
    return get_flexible(x, k)


def key_fn(spec: object, who: str) -> Callable[[object], object]:
    """One item's key under `spec` (keyword/string field, vector path or callable)."""
    t = type(spec)
    if t is Keyword or t is str:
        return lambda x: _get(x, spec)
    if t is list or t is PVec:
        return lambda x: get_in(x, spec, None, who)
    return metered_fn(spec, who)


def key_values(spec: object, items: Sequence[object], who: str) -> list[object]:
    """The key of every item, each computed once."""
    t = type(spec)
    if t is Keyword or t is str:
        return pluck(items, spec)
    return key_values_getter(spec, items, who)[0]


def key_values_getter(
    spec: object, items: Sequence[object], who: str
) -> tuple[list[object], Getter | None]:
    """`key_values`, plus a C-level getter of the same keys when there is one."""
    t = type(spec)
    if t is Keyword or t is str:
        return pluck_getter(items, spec)
    if t is list or t is PVec:
        return [get_in(x, spec, None, who) for x in items], None
    return map_each(as_fn(spec, who), items), None


# ---------------------------------------------------------------- natural order


def _nan_error(who: str) -> PtcError:
    return PtcError("type_error", f"{who}: NaN cannot be ordered")


def _utf16_needed(names: list[str]) -> bool:
    """True when Python's code point order differs from UTF-16 order for these strings."""
    joined = "".join(names)
    return not joined.isascii() and bool(_HIGH_BMP.search(joined) and _ASTRAL.search(joined))


def _utf16(s: str) -> bytes:
    return s.encode("utf-16-be", "surrogatepass")


_DIRECT: Final = object()  # the keys compare in natural order as they are


def _has_nan(keys: list[Any]) -> bool:
    """Whether one of `keys` (exact ints and floats) is NaN, the one value != itself.

    Their C-level sum is NaN when one is (and when infinities of both signs meet): only
    then is each key tested (the test alone costs as much as several sums).
    """
    try:
        total = sum(keys)
    except OverflowError:  # an int too large for a float among floats: test each key
        return any(map(ne, keys, keys))
    return total != total and any(map(ne, keys, keys))


def _fast_key(keys: list[object], who: str, types: set[type] | None = None) -> object:
    """`_DIRECT`, a list of substitute sort keys, or None when `compare` is needed
    (`types`: the set of the keys' types, when the caller has it; it is consumed)."""
    if types is None:
        types = set(map(type, keys))
    if types <= _NUMBERS:
        if float in types and _has_nan(keys):
            raise _nan_error(who)
        return _DIRECT
    if len(types) != 1:
        return None
    t = types.pop()
    if t is str:
        return [_utf16(k) for k in keys] if _utf16_needed(keys) else _DIRECT  # type: ignore[arg-type]
    if t is Keyword:
        names = [k.name for k in keys]  # type: ignore[attr-defined]
        return [_utf16(k) for k in names] if _utf16_needed(names) else names
    if t is bool:
        return _DIRECT
    return None


def natural_order(keys: list[object], descending: bool, who: str) -> list[int]:
    """Indexes of `keys` in stable natural order (nil first; reversed when descending)."""
    n = len(keys)
    if None in keys:
        nils = [i for i in range(n) if keys[i] is None]
        rest = [i for i in range(n) if keys[i] is not None]
        ordered = natural_order([keys[i] for i in rest], descending, who)
        body = [rest[j] for j in ordered]
        return body + nils if descending else nils + body
    fast = _fast_key(keys, who)
    if fast is not None:
        sort_keys: list[Any] = keys if fast is _DIRECT else fast  # type: ignore[assignment]
        return sorted(range(n), key=sort_keys.__getitem__, reverse=descending)

    def cmp(i: int, j: int) -> int:
        try:
            return compare(keys[i], keys[j])
        except PtcError as err:
            raise PtcError(err.code, err.message.replace("compare:", who + ":", 1)) from None

    return sorted(range(n), key=cmp_to_key(cmp), reverse=descending)


def natural_sorted(
    items: Sequence[object],
    keys: list[object],
    descending: bool,
    who: str,
    getter: Getter | None = None,
    limit: int | None = None,
    numeric: str | None = None,
) -> list[object]:
    """`items` stably sorted by their `keys` in natural order.

    `numeric` names the comparator (`<`, `>`, ...) when it takes numbers only: two or
    more keys (so that it is called) of any other kind are its `type_error`.

    When the keys compare as they are, sort the items directly: by themselves (`keys is
    items`) or by a C-level `getter` that recomputes the same keys. With a `limit` (for
    `(take n (sort ...))`) only the first `limit` elements of the result are certain to
    be right: a few of many are then found without sorting the rest (`_head_order`,
    exactly `sorted(...)[:limit]`, equal keys in their original order).
    """
    types = set(map(type, keys))  # also tells whether a key is nil, faster than `in`
    if numeric is not None and not types <= _NUMBERS and len(keys) > 1:
        bad = next(k for k in keys if type(k) not in _NUMBERS)
        raise PtcError(
            "type_error",
            f"{who}: {numeric}: expected numbers, got {kind_name(bad)}",
            hint="to order strings, dates or keywords use :asc or :desc (or compare)",
        )
    if _NONE not in types and _fast_key(keys, who, types) is _DIRECT:
        if limit is not None and limit * 4 < len(keys):
            return [items[i] for i in _head_order(keys, limit, descending)]
        if getter is not None or keys is items:
            comparable: Sequence[Any] = items
            return sorted(comparable, key=getter, reverse=descending)
        direct: list[Any] = keys  # compare as they are (`_DIRECT`)
        order = sorted(range(len(keys)), key=direct.__getitem__, reverse=descending)
        return [items[i] for i in order]
    return [items[i] for i in natural_order(keys, descending, who)]


#: Keys sampled at least (`_head_order`): the sample's `limit`-th key leaves about
#: `n * limit / _SAMPLE` candidates of `n` keys to sort.
_SAMPLE: Final = 2048


def _head_order(keys: list[Any], limit: int, descending: bool) -> list[int]:
    """The indexes of the first `limit` of `keys` (which compare as they are: `_DIRECT`)
    in stable natural order, reversed when `descending`: `sorted(...)[:limit]`.

    The `limit`-th key of an evenly spaced sample is no further from the head than the
    `limit`-th of all keys (the sample's first `limit` are keys too), so the keys up to it
    (ties included) hold the whole head: only they are sorted, stably, in input order.
    Finding them is one comparison per key in the interpreter's specialized loop, which
    is cheaper than a heap selection over all keys (`heapq.nlargest` with a key function,
    which calls it per item) or a C-level `map` of `operator.le` (a call per key).
    """
    n = len(keys)
    sample = keys[:: max(1, n // (_SAMPLE + 16 * limit))]  # at least `limit` keys
    if descending:
        bound = heapq.nlargest(limit, sample)[-1]
        head = [i for i in range(n) if keys[i] >= bound]
    else:
        bound = heapq.nsmallest(limit, sample)[-1]
        head = [i for i in range(n) if keys[i] <= bound]
    head.sort(key=keys.__getitem__, reverse=descending)
    del head[limit:]
    return head


def comparator_order(keys: list[object], cmp_fn: Callable[..., object], who: str) -> list[int]:
    """Indexes of `keys` stably sorted by a PTC comparator (number or boolean result)."""

    def cmp(i: int, j: int) -> int:
        a, b = keys[i], keys[j]
        r = cmp_fn(a, b)
        tr = type(r)
        if tr is int or tr is float:
            return -1 if r < 0 else (1 if r > 0 else 0)  # type: ignore[operator]
        if r is None or tr is bool:
            if r:
                return -1
            back = cmp_fn(b, a)
            return 1 if back is not None and back is not False else 0
        raise PtcError(
            "type_error",
            f"{who}: a comparator must return a number or a boolean, got {kind_name(r)}",
        )

    return sorted(range(len(keys)), key=cmp_to_key(cmp))


def is_stored_plain(keys: list[object]) -> bool:
    """True when none of `keys` needs wrapping to be a dict key (see `to_key`)."""
    types = set(map(type, keys))
    if len(keys) > MAX_SAME_HASH:
        check_keys(keys, "keys", types)  # every caller hashes them next
    return WRAPPED.isdisjoint(types)
