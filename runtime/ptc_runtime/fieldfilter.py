"""`(filter #(= (:k %) "lit") coll)` and its variants in one call (`rt_filter_field`).

The lowering turns a `filter`/`filterv`/`remove` whose fn is a field read compared with a
literal (`=`/`not=` against a string, keyword, nil or boolean; a keyword without `-`,
so a dict has only two spellings to probe: see `rt.kfield`) into this helper instead
of a `for` loop: the test is the same expression, run by a comprehension instead of
the interpreter's loop and a call per element.

The step budget is kept exactly: one step per element, taken from the same
fuel chunks in the same order. The loop pulls a step, then tests the element; here the
steps still in the chunk are pulled at once, then those elements are tested. The test
reads a field and compares it with a literal, which cannot fail and has no effects, so
testing earlier or later is invisible; an empty chunk refills exactly where the loop
would (the same `refill`, charging the element's step, checking the budget, deadline
and cancel token), so an exhausted budget fails at the same element with the same
count. The caller rebinds `FUEL` to the chunk handed back.

The chunk is the calling module's `FUEL` as it is *now*, read again before each pull and
stored back at once after a refill (from the caller's frame, whose globals are the
module's): pmap/pcalls workers pull from that same global, and a worker that refilled
meanwhile has accounted the chunk this call was given and handed out a new one, which
the loop's next pull would take. Holding on to the old chunk charged it a second time
and orphaned the new one's steps (step counts off by up to a chunk).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from itertools import islice, repeat
from operator import countOf, length_hint
from typing import Any, Final

from ptc_runtime import context
from ptc_runtime.collections import seq_items
from ptc_runtime.lookup import get_flexible
from ptc_runtime.records import add_derived, is_records

_REPEAT: Final = type(repeat(None, 0))
#: A chunk's steps left (`itertools.repeat`'s own length method, as `context` reads it).
_left: Final = _REPEAT.__length_hint__


def filter_field(
    coll: object,
    k: object,
    name: str,
    lit: object,
    keep_equal: bool,
    fuel: context.Fuel,
    credit: context.Credit,
) -> tuple[context.Fuel, list[object]]:
    """The elements of `coll` whose field `k` (spelled `name` as a string) equals `lit`
    (`keep_equal`) or does not, and the fuel chunk to continue with.

    Equality is `=` against such a literal: `==` for a string, identity for a keyword,
    nil or boolean (as `emit.inline_equality` compiles it).
    """
    items = seq_items(coll, "for")
    return filter_items(items, k, name, lit, keep_equal, calling_module(fuel), credit)


def calling_module(fuel: context.Fuel) -> dict[str, Any]:
    """The globals of the module whose code called the helper calling this, when its
    `FUEL` is `fuel` (called from generated code); anything else (a direct call) keeps
    the chunk in a dict of its own."""
    module = sys._getframe(2).f_globals
    return module if module.get("FUEL") is fuel else {"FUEL": fuel}


def filter_items(
    items: Sequence[object],
    k: object,
    name: str,
    lit: object,
    keep_equal: bool,
    module: dict[str, Any],
    credit: context.Credit,
) -> tuple[context.Fuel, list[object]]:
    """`filter_field` given its collection's elements (`seq_items`) and the globals whose
    `FUEL` it pulls the steps from (`calling_module`)."""
    out: list[object] = []
    if is_records(items) and "-" not in name:
        # string-keyed maps only: the keyword is never a key, `name` is the one spelling
        for part in fuel_parts(items, module, credit):
            out += matching_records(part, name, lit, keep_equal)
        add_derived(out)  # the same maps: a record list too
    else:
        for part in fuel_parts(items, module, credit):
            out += _matching(part, k, name, lit, keep_equal)
    return module["FUEL"], out


def fuel_parts(
    items: Sequence[object], module: dict[str, Any], credit: context.Credit
) -> Iterator[Sequence[object]]:
    """`items` in consecutive parts, each yielded once its elements' steps (one per
    element) are pulled from `module["FUEL"]`: what a loop pulling a step per element
    takes, in the same order, refilling (and failing) at the same element (see the
    module docstring). Whatever runs per part must not fail or have effects."""
    n = len(items)
    i = 0
    while i < n:
        fuel = module["FUEL"]  # the chunk now: a parallel worker may have refilled it
        left = _left(fuel) if type(fuel) is _REPEAT else length_hint(fuel)
        if left:
            # pull up to the steps the elements left need; counted as taken, since a
            # parallel worker may pull from the same chunk meanwhile
            m = countOf(islice(fuel, left if left < n - i else n - i), None)
            if not m:
                continue
        else:  # the loop's pull found the chunk empty: refill, charging this element
            module["FUEL"] = context.current().refill(fuel, credit)
            m = 1
        yield items[i : i + m] if i or m < n else items
        i += m


def _matching(part: Any, k: object, name: str, lit: object, keep_equal: bool) -> list[object]:
    # `rt.kfield` inlined: a dict's exact key, else its string spelling (both probed, as
    # there), anything else read flexibly.
    if type(lit) is str:
        if keep_equal:
            return [
                x
                for x in part
                if (x.get(k, x.get(name)) if type(x) is dict else get_flexible(x, k)) == lit
            ]
        return [
            x
            for x in part
            if (x.get(k, x.get(name)) if type(x) is dict else get_flexible(x, k)) != lit
        ]
    if keep_equal:
        return [
            x
            for x in part
            if (x.get(k, x.get(name)) if type(x) is dict else get_flexible(x, k)) is lit
        ]
    return [
        x
        for x in part
        if (x.get(k, x.get(name)) if type(x) is dict else get_flexible(x, k)) is not lit
    ]


def matching_records(part: Any, name: str, lit: object, keep_equal: bool) -> list[object]:
    """The maps of `part` (of a record list, `ptc_runtime.records`) kept by the field
    filter: `_matching` where the field's one spelling is `name`."""
    if type(lit) is str:
        if keep_equal:
            return [x for x in part if x.get(name) == lit]
        return [x for x in part if x.get(name) != lit]
    if keep_equal:
        return [x for x in part if x.get(name) is lit]
    return [x for x in part if x.get(name) is not lit]


HELPERS: Final[dict[str, Any]] = {"rt_filter_field": filter_field}
