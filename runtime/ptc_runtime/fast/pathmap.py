"""`(map (fn [x] (get-in m [k (:f x) ...])) coll)` in one call (`rt_map_path`).

The lowering (`ptc_compiler.optimize.rules_pathmap`) turns a `map`/`mapv`/one-binding `for`
whose body reads a path out of a local `m` (not the element; also a chain of reads), each
key a constant, a field read of the element (`(:f x)`, `(get x :f)`) or the element
itself, into this helper instead of a loop.

Why it is exact:

- The body cannot fail and has no effects: a field read never fails, nor does a level of
  `get-in` (a missing key, or a non-map, reads nil; an unhashable key is read as the key
  it is). So reading the elements' fields and paths a part at a time, apart from their
  steps, is invisible; the steps are the loop's, one per element, pulled from the same
  chunks and refilling (or failing) at the same element (`fieldfilter.fuel_parts`).
- `m` is a local bound outside the loop: its value is the same for every element, and
  no value a program can see is ever mutated (the in-place accumulator of a linear
  `reduce` is never such a local here: its reads are wrapped in `t_seen`, which this
  shape does not match). So the path read is a function of the element's field values
  alone, and its result is memoized by them (one probe per element instead of a walk)
  when equal values are the same key: strings, keywords and nil only (`1`, `1.0` and
  `true` are equal in Python but not the same key of a vector or a map here). A lookup
  by any other value cannot hit such an entry (it is equal to none of them) and reads
  the path itself. There is no memo where it would rarely hit (`worth_a_memo`).
- Each read is `lookup.get_path1` .. `get_path5` (`get_path` for longer paths), which
  read as `get_in` does, from the map at the end of the path's constant keys that come
  first (read once: without a default, a missing key and a nil value read alike from
  there on).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from itertools import repeat
from operator import itemgetter
from typing import Any, Final

from ptc_runtime import context
from ptc_runtime.collections import seq_items
from ptc_runtime.fieldfilter import fuel_parts
from ptc_runtime.lookup import (
    get_flexible,
    get_in,
    get_path,
    get_path1,
    get_path2,
    get_path3,
    get_path4,
    get_path5,
)
from ptc_runtime.records import is_records
from ptc_runtime.values import Keyword

#: The elements whose keys `worth_a_memo` looks at.
_SAMPLE: Final = 256
#: A memo is made when each key is expected to be read this many times or more.
_REPEATS: Final = 3
#: Field values equal only to themselves as keys (see the module docstring).
_EXACT_KEYS: Final = frozenset({str, Keyword, type(None)})


class _Miss:
    __slots__ = ()


_MISS: Final = _Miss()


def map_path(
    m: object,
    coll: object,
    path: tuple[object, ...],
    slots: tuple[int, ...],
    fields: tuple[object, ...],
    names: tuple[str, ...],
    fuel: context.Fuel,
    credit: context.Credit,
) -> tuple[context.Fuel, list[object]]:
    """`(map (fn [x] (get-in m path)) coll)` as a vector, and the fuel chunk to go on
    with: `path` holds the constant keys, with the element's field `fields[i]` (a keyword
    or string key, spelled `names[i]`; None: the element itself) at index `slots[i]`
    (ascending, at least one).
    """
    items = seq_items(coll, "for")
    # the module's globals, whose `FUEL` is `fuel` (called from generated code); anything
    # else (a direct call) keeps the chunk here
    module = sys._getframe(1).f_globals
    if module.get("FUEL") is not fuel:
        module = {"FUEL": fuel}
    paths = _Paths(m, path, slots)
    reader = _Fields(fields, names, is_records(items))
    if paths.memo is not None and not worth_a_memo(items, reader):
        paths.memo = None  # the inner reader's memo, if any, is not judged: it is small
    out: list[object] = []
    for part in fuel_parts(items, module, credit):
        out += paths.read_part(part, reader)
    return module["FUEL"], out


def worth_a_memo(items: Sequence[Any], reader: _Fields) -> bool:
    """Whether the keys of `items` can be memo keys (`exact`) and repeat enough for a
    memo to pay (`_REPEATS` reads a key), judged by the first `_SAMPLE` of them (reading
    fields ahead is invisible: a read cannot fail or have effects): `d` distinct among
    `s` sampled is all of them when `s` is all; else the keys number about
    `s * s / (2 * (s - d))` (each pair of the sample is equal with chance one in their
    number)."""
    s = min(len(items), _SAMPLE)
    keys = reader.keys(items[:s])
    if not all(map(exact, keys)):  # ints, floats, ...: never memo keys
        return False
    d = len(set(keys))
    if s == len(items):
        return s >= _REPEATS * d
    return 2 * (s - d) * len(items) >= _REPEATS * s * s


class _Fields:
    """Reads the elements' fields of a part (the memo keys): one value per element for
    one field, a tuple of them for several."""

    __slots__ = ("fields", "getter", "names")

    def __init__(self, fields: tuple[object, ...], names: tuple[str, ...], records: bool) -> None:
        self.fields = fields
        self.names = names
        # a record list's maps hold only string keys: a flexible read finds the string
        # spelling first, when the map holds it (see `ptc_runtime.records`)
        records = records and None not in fields
        self.getter: Callable[[Any], Any] | None = itemgetter(*names) if records else None

    def keys(self, part: Sequence[Any]) -> list[Any]:
        """The field values of `part`'s elements."""
        if self.getter is not None:
            try:
                return list(map(self.getter, part))
            except KeyError:  # a field some map lacks: its flexible read decides
                pass
        cols = [_column(part, k, name) for k, name in zip(self.fields, self.names, strict=True)]
        return cols[0] if len(cols) == 1 else list(zip(*cols, strict=True))


def _column(part: Sequence[Any], k: object, name: str) -> list[Any]:
    # `(:k x)` / `(get x k)` of every element: on a dict, a keyword without `-` is its
    # exact key or its name (`rt.kfield`); anything else reads flexibly; no key (None):
    # the element itself
    if k is None:
        return list(part)
    if type(k) is Keyword and "-" not in name:
        return [x.get(k, x.get(name)) if type(x) is dict else get_flexible(x, k) for x in part]
    return [get_flexible(x, k) for x in part]


def exact(key: Any) -> bool:
    """Whether `key` (field values: one, or a tuple of them) may be a memo key: values
    that are equal only to themselves as keys of a map (see the module docstring). A key
    equal to such a key is one too."""
    if type(key) is tuple:
        return all(type(v) in _EXACT_KEYS for v in key)
    return type(key) in _EXACT_KEYS


class _Paths:
    """The path reads of one call: the map at the end of the constant keys the path
    starts with (`head`), the read of the rest for one element (`one`), and the memo."""

    __slots__ = (
        "after",
        "head",
        "inner",
        "memo",
        "one_level",
        "read_rest",
        "single",
    )

    def __init__(self, m: object, path: tuple[object, ...], slots: tuple[int, ...]) -> None:
        lead = slots[0]
        self.head = get_in(m, list(path[:lead])) if lead else m
        rest = path[lead:]
        # a memo saves the walk of two levels or more; one level is a probe either way
        self.memo: dict[Any, object] | None = {} if len(rest) > 1 else None
        self.single = len(slots) == 1
        # several fields: the path up to the last one is read by `inner` (with its memo,
        # by the other fields: elements the memo here misses often share it), the rest
        # from there (a path read is its prefix's read, then the rest's)
        self.inner: _Paths | None = None
        if not self.single:
            cut = slots[-1] - lead
            self.inner = _Paths(self.head, rest[:cut], tuple(s - lead for s in slots[:-1]))
            rest = rest[cut:]
        # the rest as `lookup.get_path1` .. `get_path5` take it (each key followed by the
        # name of a constant keyword without `-`, else None), or `get_path`'s keys; its
        # first key is the (last) field
        self.one_level = len(rest) == 1
        if len(rest) <= len(_UNROLLED):
            self.read_rest = _UNROLLED[len(rest) - 1]
            args: list[object] = []
            for k in rest:
                name = k.name if type(k) is Keyword and "-" not in k.name else None
                args += (k, name)
        else:
            self.read_rest = get_path
            args = list(rest)
        self.after = tuple(args[1:])  # the arguments after the field

    def one(self, key: Any) -> object:
        """The path read for an element whose field values are `key` (the rest's first
        key is a field: the constant lead ends where the first field is, and the inner
        reader's path where the last one is)."""
        inner = self.inner
        if inner is None:
            return self.read_rest(self.head, key, *self.after)
        m = inner.value(key[:-1] if len(key) > 2 else key[0])
        return self.read_rest(m, key[-1], *self.after)

    def value(self, key: Any) -> object:
        """`one(key)` through the memo."""
        memo = self.memo
        if memo is None:
            return self.one(key)
        try:
            v = memo.get(key, _MISS)
        except TypeError:  # a collection: no memo key
            return self.one(key)
        if v is _MISS:
            v = self.one(key)
            if exact(key):
                memo[key] = v
        return v

    def read_part(self, part: Sequence[Any], fields: _Fields) -> list[object]:
        """The path reads for the elements of `part`."""
        memo = self.memo
        getter = fields.getter
        if memo is not None and getter is not None:
            # every key memoized: the field values streamed into the lookups (the keys
            # are not kept: a list of them costs as much again)
            try:
                out = list(map(memo.__getitem__, map(getter, part)))
            except (KeyError, TypeError):  # a field missing, a key not memoized
                pass
            else:
                return out
        return self.read(fields.keys(part))

    def read(self, keys: list[Any]) -> list[object]:
        """The path reads for the elements whose field values are `keys`."""
        memo = self.memo
        if memo is None:
            head = self.head
            if type(head) is dict and self.one_level and self.inner is None:
                # `(get m (:k x))`: `get_path1`'s exact probe, taken unless the key is
                # a boolean; anything else reads flexibly
                get = head.get
                try:
                    return [
                        v
                        if (v := get(k, _MISS)) is not _MISS and type(k) is not bool
                        else get_flexible(head, k, None)
                        for k in keys
                    ]
                except TypeError:  # an unhashable key: read by `get_path1`
                    pass
            if self.inner is None:  # `one` of each key, without its frame
                return list(map(self.read_rest, repeat(head), keys, *map(repeat, self.after)))
            return list(map(self.one, keys))
        try:
            out = list(map(memo.__getitem__, keys))
        except (KeyError, TypeError):  # a key not memoized, or unhashable
            pass
        else:
            return out
        get = memo.get
        one = self.one
        out = []
        for key in keys:
            try:
                v = get(key, _MISS)
            except TypeError:  # a collection: no memo key
                v = _MISS
            if v is _MISS:
                v = one(key)
                if exact(key):
                    memo[key] = v
            out.append(v)
        return out


#: `(get-in m [k1 .. kn])` of one to five keys, unrolled (`lookup.get_path1` ..).
_UNROLLED: Final[tuple[Callable[..., object], ...]] = (
    get_path1,
    get_path2,
    get_path3,
    get_path4,
    get_path5,
)


HELPERS: Final[dict[str, Any]] = {"rt_map_path": map_path}
