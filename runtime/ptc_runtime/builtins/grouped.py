"""Fields of `group-by`'s groups read in input order: `(map :k group)` for many groups.

`group-by` hands out groups whose items are interleaved in the input, so their maps lie
scattered through memory: reading a field of every item group by group is bound by cache
misses (about three times the cost of the same reads in input order on 100k records).
A run therefore remembers its last large `group-by` (`Grouping`: the input items, their
stored group keys and the groups). When the program plucks the same field from several of
those groups (`(map :amount os)` in a `map`/`for` over the result, the usual shape), the
field is read from every item once, in input order, split into per-group columns, and
the later plucks of that field hand those columns out.

The values are the same: a pluck is a per-item flexible read (`keyed.pluck`),
which has no effects and cannot fail, so reading every item earlier and in input order
gives each group's column exactly (the same objects in the group's order). Nothing here
raises or charges steps. A group is recognised by identity (`group-by` makes its vectors
and nothing mutates them), so any other vector, even an equal one, takes the plain pluck.
The first plucks of a field are plain: splitting pays off only when many groups are read,
and a program reading a few groups should not pay for all of them. When the lowering sees
the field plucked from the groups of the `group-by` a `map` walks
(`(map (fn [[k vs]] ... (map :f vs) ...) (group-by ...))`), it calls `group_by_field`,
which splits that field while grouping.

When the fn (or a `for`/`doseq` body) reads its group only through plucks `(map :f vs)`
(each field once, outside any nested fn or loop) and `(count vs)`, the groups themselves
are never needed: the lowering calls `group_columns`, which builds only what stands in
for each group (its column of the one field, a tuple of its columns of several, or its
count when nothing is plucked), and `(reduce + (map :f vs))` becomes `sum_column`, the
same fold over the column (`(sum-by :f vs)` and `(avg-by :f vs)` likewise; a read by a
literal fn, `(map #(:f %) vs)`, takes the column with the loop's steps). Over a
record list grouped by a keyword (`records`), the key and the fields of each item are
read in one pass (`_record_groups`). A field filter whose vector only these helpers read
may have grouped its kept maps already, in its own pass, and hand on those stand-ins
instead (`Prefiltered`, made by `filtered_groups.filter_groups`).
"""

from __future__ import annotations

import functools
import operator
import sys
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from itertools import islice
from operator import getitem, itemgetter
from typing import Any, Final, cast

from ptc_runtime import context
from ptc_runtime.builtins.arithmetic import add
from ptc_runtime.builtins.keyed import is_stored_plain, key_values
from ptc_runtime.builtins.keyed import pluck as plain_pluck
from ptc_runtime.collections import map_entries, seq_items, to_key
from ptc_runtime.errors import PtcError
from ptc_runtime.fieldfilter import fuel_parts
from ptc_runtime.hashguard import check_keys
from ptc_runtime.metered import charge_calls
from ptc_runtime.records import is_records
from ptc_runtime.values import Keyword

#: Fewer items than this fit in the caches: remembering them would gain nothing.
MIN_ITEMS: Final = 512
#: Fewer groups than this are read nearly in input order anyway.
MIN_GROUPS: Final = 4
#: Plain plucks of a field before its columns are split: at least this many...
MIN_ASKED: Final = 2
#: ...and at least one group in this many (1/32 of the groups read plainly at most).
ASKED_SHARE: Final = 32


class Grouping:
    """One `group-by`: its items, their stored keys and its groups, for `column`."""

    __slots__ = ("asked", "columns", "groups", "ids", "items", "keys", "trigger")

    def __init__(
        self, groups: dict[object, list[object]], keys: list[object], items: Sequence[object]
    ) -> None:
        self.groups = groups
        self.keys = keys
        self.items = items
        #: id of each group vector -> (its stored key, the vector); built on first use.
        self.ids: dict[int, tuple[object, list[object]]] | None = None
        #: field -> plain plucks of it so far (until its columns are split).
        self.asked: dict[object, int] = {}
        #: field -> stored group key -> the group's column not yet handed out.
        self.columns: dict[object, dict[object, list[object]]] = {}
        self.trigger = max(MIN_ASKED, len(groups) // ASKED_SHARE)

    def column(self, field: object, group: list[object]) -> list[object] | None:
        """`group`'s values of `field` in order, or None when `group` is not one of these
        groups or the plain pluck should answer (see the module docstring)."""
        ids = self.ids
        if ids is None:
            ids = self.ids = {id(g): (k, g) for k, g in self.groups.items()}
        entry = ids.get(id(group))
        if entry is None or entry[1] is not group:
            return None
        table = self.columns.get(field)
        if table is None:
            asked = self.asked.get(field, 0) + 1
            self.asked[field] = asked
            if asked < self.trigger:
                return None
            table = self.columns[field] = self.split(field)
        # Each column is handed out once (a later pluck of the same group is plain).
        return table.pop(entry[0], None)

    def split(self, field: object) -> dict[object, list[object]]:
        """Every group's column of `field`, read from the items in input order."""
        values = plain_pluck(self.items, field)
        columns: dict[object, list[object]] = {}
        get = columns.get
        for k, v in zip(self.keys, values, strict=True):
            col = get(k)
            if col is None:
                columns[k] = [v]
            else:
                col.append(v)
        return columns


def remember(
    groups: dict[object, list[object]],
    keys: list[object],
    items: Sequence[object],
    columns: tuple[object, dict[object, list[object]]] | None = None,
) -> None:
    """Called by `group-by` with its result: keep it for `pluck` if it is large enough
    (with one field's `columns`, split already)."""
    if len(items) < MIN_ITEMS or len(groups) < MIN_GROUPS:
        return
    try:
        ctx = context.current()
    except PtcError:  # called outside a run (tests, constant folding): nothing to keep
        return
    grouping = Grouping(groups, keys, items)
    if columns is not None:
        grouping.columns[columns[0]] = columns[1]
    ctx.grouping = grouping


def group_by_field(keyfn: object, coll: object, field: object) -> dict[object, object]:
    """`(group-by keyfn coll)` whose groups the program plucks `field` from, as in
    `(map (fn [[k vs]] ... (map :f vs) ...) (group-by keyfn coll))` (the lowering passes
    the field): the groups and their columns of `field` in one pass over the items, so the
    plucks take their columns at once.

    The same result and errors as `group-by`: the items and keys are found as there
    (errors included), and reading `field` from every item cannot fail or have effects.
    """
    items = seq_items(coll, "group-by")
    keys = key_values(keyfn, items, "group-by")
    if not is_stored_plain(keys):
        keys = [to_key(k) for k in keys]
    # Too few items to be remembered: the columns are not needed (any values will do).
    values = items if len(items) < MIN_ITEMS else plain_pluck(items, field)
    out: dict[object, list[object]] = {}
    columns: dict[object, list[object]] = {}
    get = out.get
    for k, x, v in zip(keys, items, values, strict=True):
        group = get(k)
        if group is None:
            out[k] = [x]
            columns[k] = [v]
        else:
            group.append(x)
            columns[k].append(v)
    remember(out, keys, items, (field, columns))
    return out  # type: ignore[return-value]


def group_columns(keyfn: object, coll: object, *fields: object) -> list[object]:
    """The `[k group]` entries of `(group-by keyfn coll)` with, in place of each group, its
    column of the one field (`(map field group)`), a tuple of its columns of several
    fields, or, with no field, its count: for a `map` whose fn reads its group only
    through those plucks and `count` (the lowering proves it; see the module docstring).

    The items and keys are found as `group-by` finds them (errors included), the keys are
    stored and grouped the same way (so in the same order, with the same first key), and
    the entries unwrap them as `seq` of the map would. Reading a field cannot fail.
    """
    return map_entries(stand_ins_of(keyfn, coll, fields))


def group_vals(keyfn: object, coll: object, *fields: object) -> list[object]:
    """`group_columns` without the keys: what stands in for each group of
    `(vals (group-by keyfn coll))`, in order (for a `map`/`for` over it)."""
    return list(stand_ins_of(keyfn, coll, fields).values())


def group_counts(keyfn: object, coll: object) -> dict[object, object]:
    """`(update-vals (group-by keyfn coll) count)`: the same map (stored keys in the same
    order, each with its group's size), counted without building the groups."""
    return dict(stand_ins_of(keyfn, coll, ()))


def counted_groups(counts: dict[object, object]) -> dict[object, object]:
    """`group_counts`' map, charged one step per group: the `count` calls `update-vals`
    would make (a builtin callback costs one step, `metered`), failing where it would
    (the lowering stamps this call at the update-vals)."""
    charge_calls(len(counts))
    return counts


class Prefiltered:
    """What a field filter feeding one of the three helpers above (or `group_sums`) hands
    on in place of its vector when it grouped the kept items itself, in its own pass
    (`filtered_groups`): the stand-ins `_stand_ins` would find in that vector for `keyfn`
    and `fields`, or with `summed` (1, 2) the sums (or [sum, count] pairs) `group_sums`
    would. The lowering makes it only
    where that helper is the vector's one reader; `vector` makes the vector itself (for
    any other key fn or fields).
    """

    __slots__ = ("fields", "groups", "keyfn", "summed", "vector")

    def __init__(
        self,
        groups: dict[object, Any],
        keyfn: object,
        fields: tuple[object, ...],
        vector: Callable[[], list[object]],
        summed: int = 0,
    ) -> None:
        self.groups = groups
        self.keyfn = keyfn
        self.fields = fields
        self.vector = vector
        self.summed = summed


def stand_ins_of(keyfn: object, coll: object, fields: tuple[object, ...]) -> Any:
    """`_stand_ins` of `(group-by keyfn coll)`'s items (`coll` may be `Prefiltered`)."""
    if type(coll) is Prefiltered:
        if keyfn is coll.keyfn and fields == coll.fields and not coll.summed:
            return coll.groups
        coll = coll.vector()
    return _stand_ins(keyfn, seq_items(coll, "group-by"), fields)


def _stand_ins(keyfn: object, items: Sequence[object], fields: tuple[object, ...]) -> Any:
    """Stored key -> what stands in for its group (`group_columns`), in first-seen order."""
    groups = _record_groups(keyfn, items, fields)
    if groups is not None:
        return groups
    keys = key_values(keyfn, items, "group-by")
    if not is_stored_plain(keys):
        keys = [to_key(k) for k in keys]
    if not fields:
        return Counter(keys)
    if len(fields) == 1:
        columns: defaultdict[object, list[object]] = defaultdict(list)
        # One append per item, all in C: `columns[k]` (dict subscript calls `__missing__`,
        # which inserts a new key's list) paired with the item's value; `append` returns
        # None, so `any` runs the whole zip.
        any(map(list.append, map(columns.__getitem__, keys), plain_pluck(items, fields[0])))
        return columns
    n = len(fields)
    groups = defaultdict(lambda: tuple([] for _ in range(n)))
    slots = list(map(groups.__getitem__, keys))  # each item's group, found once
    for i, field in enumerate(fields):
        any(map(list.append, map(itemgetter(i), slots), plain_pluck(items, field)))
    return groups


#: Key types a dict groups as `group-by` groups their stored keys (`to_key` keeps them),
#: provided no int or float key equal to 0 or 1 took in a boolean (`True == 1`).
_RAW_KEYS: Final = frozenset({str, Keyword, type(None), int, float})


def _record_groups(
    keyfn: object, items: Sequence[object], fields: tuple[object, ...]
) -> dict[object, Any] | None:
    """`_stand_ins` of a record list (`ptc_runtime.records`) grouped by a keyword, all
    fields keywords too: each item's key and values read in one pass, while its map is in
    the cache (the general path reads the items once per field and once for the keys).
    None when the general path must answer.

    In a record list the flexible read of `:k` is the item's `"k"` when it has one
    (`records`); an item without it raises `KeyError` here, and the general path reads
    again. Keys are grouped as they are, then checked: every distinct key of a kind
    `to_key` keeps, none equal to 0 or 1 (a boolean would have joined it, where stored
    keys keep `true` apart), and none unhashable (`TypeError`); else the general path.
    Nothing here has effects, so starting over is invisible.
    """
    if type(keyfn) is not Keyword or not is_records(items):
        return None
    names: list[str] = []
    for field in fields:
        if type(field) is not Keyword:
            return None
        names.append(field.name)
    records = cast("list[dict[str, object]]", items)  # exact dicts (`is_records`)
    key = keyfn.name
    keys = map(itemgetter(key), records)
    groups: dict[object, Any]
    try:
        # host data can hold numbers chosen to share one hash: the same bound as the
        # general path's keys (`hashguard`), read in one C pass before anything is hashed
        check_keys(list(map(itemgetter(key), records)), "group-by")
        if not names:
            groups = Counter(keys)
        elif len(names) == 1:
            groups = defaultdict(list)
            name = names[0]
            # a plain loop: `x[key]` is a specialized dict subscript, faster than
            # `itemgetter`, which has no vectorcall in 3.11 (-17% against `map`s in C)
            for x in records:
                groups[x[key]].append(x[name])
        else:
            n = len(names)
            groups = defaultdict(lambda: tuple([] for _ in range(n)))
            slots = list(map(groups.__getitem__, keys))
            for i, name in enumerate(names):
                values = map(itemgetter(name), records)
                any(map(list.append, map(itemgetter(i), slots), values))
    except (KeyError, TypeError):
        return None
    return groups if raw_keys(groups) else None


def raw_keys(groups: dict[object, Any]) -> bool:
    """Whether `groups`, keyed by the values of a record field as they are, is keyed as
    `group-by` would store them: every key of a kind `to_key` keeps, and none equal to 0
    or 1 among numbers (a boolean would have joined it, where stored keys keep `true`
    apart)."""
    kinds = set(map(type, groups))
    numbers = int in kinds or float in kinds
    return kinds <= _RAW_KEYS and not (numbers and (0 in groups or 1 in groups))


_NUMBERS: Final = frozenset({int, float})
#: Before 3.12 `sum` adds exact ints and floats as a left fold does, one `+` at a time
#: with the same rounding (a third of `functools.reduce`'s time); from 3.12 on it
#: compensates float rounding (another result). Started with the first item, not 0: `0 +
#: -0.0` is `0.0`.
_SUM_FOLDS: Final = sys.version_info < (3, 12)


def sum_column(col: Any) -> object:
    """`(reduce + col)` for a column `group_columns` handed out (a list, never empty), or
    the group's sum `group_sums` handed out in its place (an int or float: itself).

    Plain numbers (exact ints and floats: no booleans) are folded left to right in C, as
    `reduce` does (`sum` where it folds, `_SUM_FOLDS`, else `functools.reduce`); anything
    else, or an int too large for float arithmetic, goes to `reduce` itself for its
    result or error.
    """
    if type(col) is float or type(col) is int:
        return col  # the sum itself, made while grouping (`group_sums`)
    if _NUMBERS.issuperset(map(type, col)):
        try:
            if _SUM_FOLDS:
                return sum(islice(col, 1, None), col[0])
            return functools.reduce(operator.add, col)
        except OverflowError:
            pass
    # Imported here: `sequences` imports this module (`pluck`).
    from ptc_runtime.builtins.sequences import reduce_

    return reduce_(add, col)


def reduce0_column(col: Any) -> object:
    """`(reduce + 0 col)` for a column (as `sum_column`), or the sum `group_sums` handed
    out in its place: `0 + ` that fold is the fold itself, the sum never being -0.0."""
    if type(col) is float or type(col) is int:
        return col
    from ptc_runtime.builtins.sequences import reduce_  # see `sum_column`

    return reduce_(add, 0, col)


def apply_sum_column(col: Any) -> object:
    """`(apply + col)` for a column (as `sum_column`), or the sum `group_sums` handed out in
    its place: `+` of the values (`0 + ` the fold, or the one `a + b` of two) is that sum,
    never being -0.0."""
    if type(col) is float or type(col) is int:
        return col
    from ptc_runtime.builtins.combinators import apply  # as `sum_column`'s import

    return apply(add, col)


def charged_column(
    col: list[object], fuel: context.Fuel, credit: context.Credit
) -> tuple[context.Fuel, list[object]]:
    """`(map (fn [x] (:k x)) group)` given the group's column of `:k`: the column, and
    the steps of the loop `map` would run (one per element, pulled from the same chunks,
    refilling and failing at the same element: `fieldfilter.fuel_parts`), with the fuel
    chunk to go on with. The reads cannot fail, so reading them earlier is invisible."""
    # the module's globals, whose `FUEL` is `fuel` (called from generated code)
    module = sys._getframe(1).f_globals
    if module.get("FUEL") is not fuel:
        module = {"FUEL": fuel}
    for _ in fuel_parts(col, module, credit):
        pass
    return module["FUEL"], col


def sum_by_column(col: Any) -> object:
    """`(sum-by :f group)` given the group's column of `:f`: what `sum-by` does with the
    values it reads (the same result and errors); or the sum `group_sums` handed out in
    its place (`sum-by` of numbers only, no nil, is `0 + ` their fold, the sum itself)."""
    if type(col) is float or type(col) is int:
        return col
    numbers, total, _ = _aggregation()
    return total(numbers(col, "sum-by"))


def avg_by_column(col: list[object]) -> object:
    """`(avg-by :f group)` given the group's column of `:f` (as `sum_by_column`)."""
    numbers, _, mean = _aggregation()
    return mean(numbers(col, "avg-by"))


_AGGREGATION: tuple[Any, Any, Any] | None = None


def _aggregation() -> tuple[Any, Any, Any]:
    """`aggregation`'s `_numbers`, `_total` and `_mean`, found on first use: that module
    imports this one (`remember`). Bound in one assignment (pmap workers may race here)."""
    global _AGGREGATION
    found = _AGGREGATION
    if found is None:
        from ptc_runtime.builtins.aggregation import _mean, _numbers, _total

        found = _AGGREGATION = (_numbers, _total, _mean)
    return found


HELPERS: Final[dict[str, Any]] = {
    "rt_group_by_field": group_by_field,
    "rt_group_columns": group_columns,
    "rt_group_counts": group_counts,
    "rt_counted_groups": counted_groups,
    "rt_group_vals": group_vals,
    "rt_sum_column": sum_column,
    "rt_reduce0_column": reduce0_column,
    "rt_apply_sum_column": apply_sum_column,
    "rt_sum_by_column": sum_by_column,
    "rt_charged_column": charged_column,
    "rt_avg_by_column": avg_by_column,
    "rt_column": getitem,  # (rt_column stand-in i): column i of several (a tuple)
    "rt_first_of": itemgetter(0),  # (:k (first group)): the first of its column
}


def pluck(items: Sequence[object], field: object) -> list[object]:
    """`keyed.pluck`, taking the column of a remembered group when there is one."""
    if type(items) is list:
        try:
            grouping: Grouping | None = context.current().grouping
        except PtcError:  # outside a run
            grouping = None
        if grouping is not None:
            col = grouping.column(field, items)
            if col is not None:
                return col
    return plain_pluck(items, field)
