"""`(filter #(= (:k %) "lit") coll)` and its variants in one call (`rt_filter_field`).

The lowering turns a `filter`/`filterv`/`remove` whose fn is a field read compared with a
literal (`=`/`not=` against a string, keyword, nil or boolean; a keyword without `-`,
so a dict has only two spellings to probe: see `rt.kfield`) into this helper instead
of a `for` loop: the test is the same expression, run by a comprehension instead of
the interpreter's loop and a call per element.

The step budget is kept exactly (decision 1): one step per element, taken from the same
fuel chunks in the same order. The loop pulls a step, then tests the element; here the
steps still in the chunk are pulled at once, then those elements are tested. The test
reads a field and compares it with a literal, which cannot fail and has no effects, so
testing earlier or later is invisible; an empty chunk refills exactly where the loop
would (the same `refill`, charging the element's step, checking the budget, deadline
and cancel token), so an exhausted budget fails at the same element with the same
count. The caller rebinds `FUEL` to the chunk handed back.
"""

from __future__ import annotations

from itertools import islice, repeat
from operator import countOf, length_hint
from typing import Any, Final

from ptc_runtime import context
from ptc_runtime.collections import seq_items
from ptc_runtime.lookup import get_flexible

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
    n = len(items)
    out: list[object] = []
    i = 0
    while i < n:
        left = _left(fuel) if type(fuel) is _REPEAT else length_hint(fuel)
        if left:
            # pull up to the steps the elements left need; counted as taken, since a
            # parallel worker may pull from the same chunk meanwhile
            m = countOf(islice(fuel, left if left < n - i else n - i), None)
            if not m:
                continue
        else:  # the loop's pull found the chunk empty: refill, charging this element
            fuel = context.current().refill(fuel, credit)
            m = 1
        out += _matching(items[i : i + m] if i or m < n else items, k, name, lit, keep_equal)
        i += m
    return fuel, out


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


HELPERS: Final[dict[str, Any]] = {"rt_filter_field": filter_field}
