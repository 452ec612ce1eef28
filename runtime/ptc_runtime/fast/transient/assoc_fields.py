"""`(reduce (fn [m x] (assoc m (:k x) (:v x))) {} coll)` as one call
(`rt_t_assoc_fields`): the loop's steps and `t_assoc1`'s writes, a part at a time, or
over a record list one dict comprehension (`_record_map`).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Generator, Iterable, Sequence
from itertools import chain, islice, repeat
from typing import Any, Final

from ptc_runtime import context
from ptc_runtime.fast.transient.owned import Owned, t_assoc1, t_begin
from ptc_runtime.fieldfilter import fuel_parts
from ptc_runtime.lookup import get_flexible
from ptc_runtime.records import is_records
from ptc_runtime.values import Keyword

#: The key types of a part `t_assoc_fields` stores with one `dict.update` (with no `_`).
_STR_ONLY: Final = frozenset((str,))
#: Key types a plain `dict` store addresses as `t_assoc1` does, in a map whose keys are
#: all of these (strings without `_`): see `_plain_keys`.
_PLAIN_KEYS: Final = frozenset((str, int, float, type(None)))


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
    (or after all the steps) changes nothing. On a record list the whole map is first
    built by a comprehension (`_record_map`), kept when its keys show that plain stores
    did what `t_assoc1` does.
    Otherwise (and for the elements that one pulled the steps of, when it gives up) a
    part whose keys are all strings without `_` going into the plain map (see `Owned`)
    is one `dict.update`: there a new key needs no one-logical-key search and an
    existing one is the key itself, overwritten in place, as `t_assoc1` stores them;
    any other part runs `t_assoc1` element by element.
    """
    owned = t_begin(m)
    module = sys._getframe(1).f_globals  # the caller's `FUEL` (see `fieldfilter`)
    if module.get("FUEL") is not fuel:
        module = {"FUEL": fuel}
    pulled = [0]  # elements whose steps are pulled
    counts = _pulled_parts(len(items), module, credit, pulled)
    # string-keyed maps only (`ptc_runtime.records`): a field's string spelling is the
    # one a keyword read finds (names without `-`: there is no other spelling)
    records = is_records(items) and "-" not in kname and "-" not in (vname or "")
    if records:
        built = _record_map(items, counts, pulled, kname, None if vk is None else vname)
        if built is not None:
            return module["FUEL"], built
    start = 0
    # the elements a failed `_record_map` pulled the steps of, then the parts to come
    for n in chain([pulled[0]] if pulled[0] else [], counts):
        part = items[start : start + n] if start or n < len(items) else items
        start += n
        m = _assoc_part(owned, m, part, kk, kname, vk, vname, records)
    return module["FUEL"], m


def _pulled_parts(
    n: int, module: dict[str, Any], credit: context.Credit, pulled: list[int]
) -> Generator[int, None, None]:
    """The sizes of `fuel_parts` of `n` elements, each yielded once its steps are pulled
    (counted in `pulled[0]` too)."""
    for part in fuel_parts(range(n), module, credit):
        pulled[0] += len(part)
        yield len(part)


def _record_map(
    items: Sequence[Any],
    counts: Generator[int, None, None],
    pulled: list[int],
    kname: str,
    vname: str | None,
) -> dict[Any, Any] | None:
    """The map the loop builds from `items` (a record list), made by a comprehension,
    or None when plain stores may differ from `t_assoc1` (see `_plain_keys`) or a key is
    a map or vector: then `counts` has pulled the steps of `pulled[0]` elements, which
    are not stored yet.

    Up to `_AT_ONCE` elements, every step is pulled first (`counts` as the loop pulls
    them, failing at the same element), then the comprehension runs over the list itself;
    a longer list is taken a part at a time from `counts` (each part's steps pulled
    before its elements are read, as the loop does), which costs two iterator layers per
    element (~13 ns).

    The comprehension's stores are plain `dict` stores: a new key is added at the end, an
    equal one keeps its place and gets the value, as `t_assoc1` stores keys its
    one-logical-key search cannot redirect (`_plain_keys`). It is the loop Python runs
    for `{x[k]: x[v] for x in xs}`, with no list of keys per part: the first one reads
    the fields by subscript (a specialized dict read) and stops at a key that is not a
    string without `_` (`in` fails on any other value, and the stand-in for a `_` key
    cannot be hashed). When it stops, or a field is missing, the second reads them with
    `dict.get` (a missing field is nil), from the first element again, refusing only
    booleans, and the finished map's keys are checked instead.
    """
    n = len(items)
    rest: Iterable[Any]
    if n <= _AT_ONCE:
        for _ in counts:
            pass
        rest = items
    else:
        rest = chain.from_iterable(map(islice, repeat(iter(items)), counts))
    try:
        if vname is None:
            return {(k if "_" not in (k := x[kname]) else _NO_KEY): x for x in rest}
        return {(k if "_" not in (k := x[kname]) else _NO_KEY): x[vname] for x in rest}
    except (KeyError, TypeError):  # a missing field, or a key of another kind
        if pulled[0] < n and getattr(counts, "gi_frame", None) is None:
            raise  # from the fuel pull itself, not a read (it ended the generator)
    if pulled[0] == n:
        rest = items
    else:  # the elements whose steps are pulled, then the parts to come
        again = iter(items)
        rest = chain(
            islice(again, pulled[0]), chain.from_iterable(map(islice, repeat(again), counts))
        )
    get: Callable[[Any, object], Any] = dict.get  # record lists hold exact dicts only
    try:
        # a boolean key stops it too: `t_assoc1` wraps it (`to_key`), where a plain store
        # would merge it into an equal number key (true into 1), out of `_plain_keys`' sight
        if vname is None:
            built = {(k if type(k := get(x, kname)) is not bool else _NO_KEY): x for x in rest}
        else:
            built = {
                (k if type(k := get(x, kname)) is not bool else _NO_KEY): get(x, vname)
                for x in rest
            }
    except TypeError:  # an unhashable key (a map or a vector) or a boolean
        if pulled[0] < n and getattr(counts, "gi_frame", None) is None:
            raise
        return None
    return built if _plain_keys(built) else None


#: Lists up to this long are read by `_record_map` after all their steps are pulled: its
#: comprehension then runs unchecked for up to ~8 ms (about as long as the scan of the
#: same records took), where the budget, deadline and cancel token are otherwise checked
#: every chunk (chunks shrink when one took over `context.SLOW_CHUNK_S`, 10 ms).
_AT_ONCE: Final = 1 << 16

#: What `_record_map`'s first comprehension stores a `_` key under: no key at all (an
#: unhashable value, so the store fails and the second comprehension takes over).
_NO_KEY: Final[list[Any]] = []


def _plain_keys(m: dict[Any, Any]) -> bool:
    """Whether every key of `m`, built by plain stores of keys read from a record list's
    maps (so of exact JSON types), was stored where `t_assoc1` would have stored it.

    A string without `_` has no other spelling in such a map (it holds no keywords, and
    a `-` name's `_` spelling would contain `_`); ints, floats and nil are stored as they
    are by `t_assoc1` too (`to_key` leaves them, and a dict finds 1 and 1.0, or 0 and
    -0.0, alike both ways). A `_` string may be the other spelling of a later `-` key:
    those maps are built again the general way. Booleans (which `to_key` wraps) are
    refused here too, but only a store can see them: a plain store merges true into an
    existing 1, which the finished map no longer shows (`_record_map` refuses them).
    """
    try:
        return "_" not in "".join(m)  # also: every key is a `str` (record values are exact)
    except TypeError:
        pass
    kinds = set(map(type, m))
    if not kinds <= _PLAIN_KEYS:
        return False
    return str not in kinds or "_" not in "".join([k for k in m if type(k) is str])


def _assoc_part(
    owned: Owned,
    m: dict[Any, Any],
    part: Sequence[object],
    kk: Keyword,
    kname: str,
    vk: Keyword | None,
    vname: str | None,
    records: bool,
) -> dict[Any, Any]:
    """`m` with the `assoc`s of `part`'s elements (whose steps are pulled), in order."""
    keys: list[Any]
    vals: Sequence[object]
    if records:
        keys = list(map(_dict_get, part, repeat(kname)))
        vals = part if vk is None else list(map(_dict_get, part, repeat(vname)))
    else:
        keys = [x.get(kk, x.get(kname)) if type(x) is dict else get_flexible(x, kk) for x in part]
        if vk is None:
            vals = part
        else:
            vals = [
                x.get(vk, x.get(vname)) if type(x) is dict else get_flexible(x, vk) for x in part
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
    return m


#: `dict.get` as a two-argument function of any item (the items are dicts where used).
_dict_get: Final[Callable[[Any, object], Any]] = dict.get
