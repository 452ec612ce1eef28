"""A field filter whose vector only a group-by without groups reads, grouping as it filters.

`(->> coll (filter #(= (:f %) "lit")) (group-by :k) (map (fn [[k vs]] ... (map :v vs))))`:
the lowering turns the `group-by` into `rt_group_columns(:k, xs, :v)` (or `group_vals`,
`group_counts`: `builtins.grouped`), and the filter into `rt_filter_field`, whose vector
`xs` that helper alone reads. Over a record list (`ptc_runtime.records`) the two passes
read the same maps twice: the filter every item's `"f"`, the grouping the kept items'
`"k"` and `"v"`, by then out of the processor's cache. `filter_groups` (the lowering calls
it in place of `filter_field` there, with the key fn and fields) reads all three while
the map is in the cache, and hands on the grouping's stand-ins (`grouped.Prefiltered`)
instead of the vector. `filter_sums` does the same for `group_sums`, adding up each
group's values as it goes (`group_sums.add_all` of the kept maps).

The same result, errors and steps: the steps are pulled as `filter_field` pulls them
(`fieldfilter.fuel_parts`: one per element, the same chunks, failing at the same
element), and what runs per part cannot fail or have effects: the test is `filter_field`'s
on a record list (`x.get("f") == lit`), the reads of a kept map are `_record_groups`'
(`grouped`: the string spelling, which is the flexible read in a record list). Where
those give up (a map without `"k"` or `"v"`, an unhashable key, keys that `group-by`
would store otherwise: `grouped.raw_keys`) the rest of the parts only take their steps,
and the vector is made as `filter_field` makes it, for the general grouping. Anything
else (no record list, a key fn that is no keyword, several fields, a literal that is no
string) is `filter_field` itself.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from functools import partial
from textwrap import indent
from typing import Any, Final

from ptc_runtime import context
from ptc_runtime.builtins.grouped import Prefiltered, raw_keys
from ptc_runtime.collections import seq_items
from ptc_runtime.fast.group_sums import (
    ADD_SUM,
    ADD_SUM_COUNT,
    NO_SUM,  # noqa: F401  (read by the sums' generated body, `ADD_SUM`)
    SUM_COUNTS,
    SUM_FAILS,
    SUMS,
    plain_pairs,
    plain_sums,
)
from ptc_runtime.fast.unrolled import Cases, define
from ptc_runtime.fieldfilter import (
    calling_module,
    filter_items,
    fuel_parts,
    matching_records,
)
from ptc_runtime.records import add_derived, is_records
from ptc_runtime.values import Keyword


def filter_groups(
    coll: object,
    k: object,
    name: str,
    lit: object,
    keep_equal: bool,
    fuel: context.Fuel,
    credit: context.Credit,
    keyfn: object,
    *fields: object,
) -> tuple[context.Fuel, object]:
    """`filter_field(coll, k, name, lit, keep_equal, fuel, credit)` whose vector is read
    only by `group_columns(keyfn, vector, *fields)` (or `group_vals`, `group_counts`):
    the fuel chunk to go on with and that vector, or, over a record list, the grouping's
    stand-ins made in the filter's pass (see the module docstring)."""
    module = calling_module(fuel)
    return _grouped(coll, k, name, lit, keep_equal, module, credit, keyfn, fields, 0)


def filter_sums(
    coll: object,
    k: object,
    name: str,
    lit: object,
    keep_equal: bool,
    fuel: context.Fuel,
    credit: context.Credit,
    keyfn: object,
    field: object,
) -> tuple[context.Fuel, object]:
    """`filter_groups` whose vector is read only by `group_sums(keyfn, vector, field)` (or
    `group_val_sums`): over a record list, the groups' sums made in the filter's pass
    (`group_sums.add_all`'s, for the kept maps), where all are plain numbers."""
    module = calling_module(fuel)
    return _grouped(coll, k, name, lit, keep_equal, module, credit, keyfn, (field,), SUMS)


def filter_sum_counts(
    coll: object,
    k: object,
    name: str,
    lit: object,
    keep_equal: bool,
    fuel: context.Fuel,
    credit: context.Credit,
    keyfn: object,
    field: object,
) -> tuple[context.Fuel, object]:
    """`filter_sums` for `group_sum_counts` (or `group_val_sum_counts`): [sum, count]
    pairs (`group_sums.add_all_counted`'s, for the kept maps)."""
    module = calling_module(fuel)
    return _grouped(coll, k, name, lit, keep_equal, module, credit, keyfn, (field,), SUM_COUNTS)


def _grouped(
    coll: object,
    k: object,
    name: str,
    lit: object,
    keep_equal: bool,
    module: dict[str, Any],
    credit: context.Credit,
    keyfn: object,
    fields: tuple[object, ...],
    summed: int,
) -> tuple[context.Fuel, object]:
    items = seq_items(coll, "for")
    if not (
        type(lit) is str
        and type(keyfn) is Keyword
        and len(fields) <= 1
        and all(type(f) is Keyword for f in fields)
        and "-" not in name
        and is_records(items)
    ):
        return filter_items(items, k, name, lit, keep_equal, module, credit)
    key = keyfn.name
    groups: dict[object, Any]
    if summed:
        field = fields[0].name  # type: ignore[attr-defined]
        groups = {}
        split: _Split = (_SUMS if summed == SUMS else _SUM_COUNTS)[keep_equal]
    elif fields:
        field = fields[0].name  # type: ignore[attr-defined]
        groups = defaultdict(list)
        split = _COLUMNS[keep_equal]
    else:
        field = ""
        groups = defaultdict(int)
        split = _COUNTS[keep_equal]
    grouped = True
    for part in fuel_parts(items, module, credit):
        if grouped:
            try:
                split(part, name, lit, key, field, groups)
            except SUM_FAILS:  # a missing key or field, an unhashable key, no number
                grouped = False
    fuel = module["FUEL"]
    vector = partial(_vector, items, name, lit, keep_equal)
    if grouped and _PLAIN[summed](groups):
        return fuel, Prefiltered(groups, keyfn, fields, vector, summed)
    return fuel, vector()


def _vector(items: Sequence[object], name: str, lit: object, keep_equal: bool) -> list[object]:
    """`filter_field`'s vector of the record list `items` (its steps taken already)."""
    out = matching_records(items, name, lit, keep_equal)
    add_derived(out)  # the same maps: a record list too
    return out


#: Groups the kept maps of a part: (part, name, lit, key, field, groups).
_Split = Callable[[Any, str, object, str, str, Any], None]


# The splits, one per kind of group and comparison, are made from one template
# (`unrolled.define`), each with its test and body inline: a plain loop (a dict subscript
# is specialized, `itemgetter` has no vectorcall in 3.11); the sums are
# `group_sums.add_all`'s body under the test (6 % of the run against a comprehension of
# the kept maps handed to it). Only this module's text is compiled, never a program's.
_SPLIT: Final = """\
def {name}(part, name, lit, key, field, groups):
{prelude}    for x in part:
        if x.get(name) {op} lit:
{body}"""
#: Per kind of group: the line before the loop and the body run for each kept map `x`.
_KINDS: Final = {
    "columns": ("", "groups[x[key]].append(x[field])\n"),
    "counts": ("", "groups[x[key]] += 1\n"),
    "sums": ("    get = groups.get\n", ADD_SUM),
    "sum_counts": ("    get = groups.get\n", ADD_SUM_COUNT),
}


def _split(kind: str, keep_equal: bool) -> _Split:
    """`kind`'s split keeping the maps whose field is `lit` (`keep_equal`), or is not."""
    prelude, body = _KINDS[kind]
    op, which = ("==", "equal") if keep_equal else ("!=", "other")
    name = f"_{kind}_{which}"
    source = _SPLIT.format(name=name, prelude=prelude, op=op, body=indent(body, " " * 12))
    made: _Split = define(source, __name__, name, globals())
    return made


#: By `keep_equal` (each made on its first use): the split of one field's columns, of
#: counts (no field), of sums, of [sum, count] pairs.
_COLUMNS: Final[Cases[bool, _Split]] = Cases(partial(_split, "columns"), (True, False))
_COUNTS: Final[Cases[bool, _Split]] = Cases(partial(_split, "counts"), (True, False))
_SUMS: Final[Cases[bool, _Split]] = Cases(partial(_split, "sums"), (True, False))
_SUM_COUNTS: Final[Cases[bool, _Split]] = Cases(partial(_split, "sum_counts"), (True, False))
#: By `Prefiltered.summed`: whether the stand-ins may stand in.
_PLAIN: Final[dict[int, Callable[[dict[object, Any]], bool]]] = {
    0: raw_keys,
    SUMS: plain_sums,
    SUM_COUNTS: plain_pairs,
}

HELPERS: Final[dict[str, Any]] = {
    "rt_filter_groups": filter_groups,
    "rt_filter_sums": filter_sums,
    "rt_filter_sum_counts": filter_sum_counts,
}
