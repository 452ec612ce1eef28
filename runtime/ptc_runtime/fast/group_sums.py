"""Groups summed while grouping, for `(map (fn [[k vs]] .. (reduce + (map :f vs)) ..) groups)`.

When the fn reads its group only through that one sum (the lowering proves it:
`rules_grouping.group_uses`, no other read of the column, the pluck by a keyword; also
`(reduce + 0 ..)`, `(apply + ..)`, `(sum-by :f vs)`, see `plain_sums`), the column is
never needed: `group_sums` (`group_val_sums` over `vals`; with `(count vs)` too,
`group_sum_counts`, whose stand-in is a pair of the sum and the count) hands
out, in place of each group, its sum, made in the grouping's pass over a record list
(`records`) grouped by a keyword, and `grouped.sum_column` hands that sum back. The
reads are `grouped._record_groups'` (the string spelling, which is the flexible read in a
record list); the sum is the same fold as `sum_column`'s: the group's values in input
order, each added to the sum so far with Python's `+`, which is `+`'s for exact ints and
floats (`arithmetic.add`; a huge int meeting a float raises `OverflowError` here).

Only where every value of every group is such a number (no boolean: `True + 1` is 2, where
`+` refuses it) are the sums handed out; anything else (a missing key or field, an
unhashable key, a value that is no number, keys `group-by` would store otherwise:
`grouped.raw_keys`) gives the columns instead, and `sum_column` folds (or fails) group by
group, at the sum's position, as before. Nothing here has effects: starting over is
invisible. A group's first value is tested before it starts a sum, so a sum is always a
number (a string never grows by concatenation).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from math import copysign
from operator import itemgetter
from textwrap import indent
from typing import Any, Final

from ptc_runtime.builtins.grouped import Prefiltered, raw_keys, stand_ins_of
from ptc_runtime.collections import map_entries
from ptc_runtime.fast.unrolled import Cases, define
from ptc_runtime.records import is_records
from ptc_runtime.values import Keyword


def group_sums(keyfn: object, coll: object, field: object) -> list[object]:
    """`grouped.group_columns(keyfn, coll, field)` for a fn that reads each column only as
    `(reduce + column)` (`sum_column`): in place of a group, its sum where `record_sums`
    makes them, else its column."""
    return map_entries(_summed_stand_ins(keyfn, coll, field))


def group_val_sums(keyfn: object, coll: object, field: object) -> list[object]:
    """`group_sums` without the keys (`(vals (group-by keyfn coll))`)."""
    return list(_summed_stand_ins(keyfn, coll, field).values())


def group_sum_counts(keyfn: object, coll: object, field: object) -> list[object]:
    """`group_sums` for a fn that also counts its group: in place of a group, a pair of its
    sum (or, where `record_sum_counts` makes no sums, its column) and its count."""
    return map_entries(_counted_stand_ins(keyfn, coll, field))


def group_val_sum_counts(keyfn: object, coll: object, field: object) -> list[object]:
    """`group_sum_counts` without the keys (`(vals (group-by keyfn coll))`)."""
    return list(_counted_stand_ins(keyfn, coll, field).values())


def _summed_stand_ins(keyfn: object, coll: object, field: object) -> Any:
    if type(coll) is Prefiltered:
        if coll.summed == SUMS and keyfn is coll.keyfn and coll.fields == (field,):
            return coll.groups
    elif type(coll) is list:  # a record list is one (anything else: `group-by`'s errors)
        sums = record_sums(keyfn, coll, field)
        if sums is not None:
            return sums
    return stand_ins_of(keyfn, coll, (field,))  # the columns (a Prefiltered's, its vector's)


def _counted_stand_ins(keyfn: object, coll: object, field: object) -> Any:
    if type(coll) is Prefiltered:
        if coll.summed == SUM_COUNTS and keyfn is coll.keyfn and coll.fields == (field,):
            return coll.groups
    elif type(coll) is list:
        pairs = record_sum_counts(keyfn, coll, field)
        if pairs is not None:
            return pairs
    columns = stand_ins_of(keyfn, coll, (field,))
    return {k: (col, len(col)) for k, col in columns.items()}


#: `grouped.Prefiltered.summed`: its stand-ins are sums, or [sum, count] pairs.
SUMS: Final = 1
SUM_COUNTS: Final = 2


def record_sums(keyfn: object, items: Sequence[object], field: object) -> dict[object, Any] | None:
    """Stored key -> the sum of its group's values of `field`, in first-seen order, for a
    record list grouped by a keyword; None where the columns must answer (see the module
    docstring)."""
    return _record_totals(keyfn, items, field, SUMS)


def record_sum_counts(
    keyfn: object, items: Sequence[object], field: object
) -> dict[object, Any] | None:
    """`record_sums` with each group's count: stored key -> [sum, count]."""
    return _record_totals(keyfn, items, field, SUM_COUNTS)


def _record_totals(
    keyfn: object, items: Sequence[object], field: object, summed: int
) -> dict[object, Any] | None:
    # `summed`: sums (`SUMS`) or [sum, count] pairs (`SUM_COUNTS`)
    if type(keyfn) is not Keyword or type(field) is not Keyword or not is_records(items):
        return None
    add, plain = (add_all, plain_sums) if summed == SUMS else (add_all_counted, plain_pairs)
    totals: dict[object, Any] = {}
    try:
        add(items, keyfn.name, field.name, totals)  # type: ignore[arg-type]
    except SUM_FAILS:
        return None
    return totals if plain(totals) else None


def plain_pairs(pairs: dict[object, Any]) -> bool:
    """`plain_sums` of [sum, count] pairs."""
    return plain_sums(dict(zip(pairs, map(itemgetter(0), pairs.values()), strict=True)))


def plain_sums(sums: dict[object, Any]) -> bool:
    """Whether `sums` may stand in for their groups: keyed as `group-by` stores keys
    (`grouped.raw_keys`), and none -0.0, the one sum that `0 + ` changes (so each is also
    what `(reduce + 0 ..)`, `(apply + ..)` and `sum-by` make of the group's numbers)."""
    if not raw_keys(sums):
        return False
    values = sums.values()
    return 0 not in values or not any(map(_negative_zero, values))


def _negative_zero(x: object) -> bool:
    return x == 0 and type(x) is float and copysign(1.0, x) < 0


#: What adding a part's values raises where the columns must answer: a missing key or
#: field (`KeyError`), an unhashable key or a value that is no number (`TypeError`), a
#: huge int meeting a float (`OverflowError`).
SUM_FAILS: Final = (KeyError, TypeError, OverflowError)


#: No sum yet (a `get` default no value can be).
NO_SUM: Final = object()

# The loops of `add_all`, `add_all_counted` and the filtered ones of `filtered_groups`
# (the same bodies under a filter's test: 6 % of the run faster than a comprehension of
# the kept maps handed to `add_all`) are made from these templates (`unrolled`), each on
# its first use. Only this module's text is compiled, never a program's.
#: A map `x`'s value `v` of `field` and its key `k`: a boolean is no number here.
_VALUE: Final = """\
k = x[key]
v = x[field]
if v is True or v is False:
    raise TypeError("a boolean")
"""
#: The loop body adding `x`'s value to its group's entry in `groups` (`get` is
#: `groups.get`): its sum; a group's first value is tested before it starts one.
ADD_SUM: Final = (
    _VALUE
    + """\
s = get(k, NO_SUM)
if s is NO_SUM:
    if type(v) is not float and type(v) is not int:
        raise TypeError("no number")
    groups[k] = v
else:
    groups[k] = s + v
"""
)
#: `ADD_SUM` for a [sum, count] pair.
ADD_SUM_COUNT: Final = (
    _VALUE
    + """\
pair = get(k)
if pair is None:
    if type(v) is not float and type(v) is not int:
        raise TypeError("no number")
    groups[k] = [v, 1]
else:
    pair[0] += v
    pair[1] += 1
"""
)
_ADD_ALL: Final = """\
def {name}(part, key, field, groups):
    get = groups.get
    for x in part:
{body}"""
#: Adds the maps of a part to `groups`: (part, key, field, groups).
Add = Callable[[Sequence[dict[str, Any]], str, str, dict[object, Any]], None]


def _add_all(summed: int) -> Add:
    """The loop adding each map of its part to `groups`: as sums (`SUMS`), or as
    [sum, count] pairs (`SUM_COUNTS`)."""
    name, body = ("_add_sums", ADD_SUM) if summed == SUMS else ("_add_sum_counts", ADD_SUM_COUNT)
    made: Add = define(
        _ADD_ALL.format(name=name, body=indent(body, " " * 8)), __name__, name, globals()
    )
    return made


#: By `grouped.Prefiltered.summed`, each made on its first use.
_ADD: Final[Cases[int, Add]] = Cases(_add_all, (SUMS, SUM_COUNTS))


def add_all(part: Sequence[dict[str, Any]], key: str, field: str, sums: dict[object, Any]) -> None:
    """Add the `field` of each map of `part` to the sum of its `key` in `sums` (a plain loop:
    a dict subscript is specialized, `itemgetter` has no vectorcall in 3.11)."""
    _ADD[SUMS](part, key, field, sums)


def add_all_counted(
    part: Sequence[dict[str, Any]], key: str, field: str, pairs: dict[object, Any]
) -> None:
    """`add_all` keeping [sum, count] per key."""
    _ADD[SUM_COUNTS](part, key, field, pairs)


HELPERS: Final[dict[str, Any]] = {
    "rt_group_sums": group_sums,
    "rt_group_val_sums": group_val_sums,
    "rt_group_sum_counts": group_sum_counts,
    "rt_group_val_sum_counts": group_val_sum_counts,
}
