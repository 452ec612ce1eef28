"""`(reduce (fn [m x] (assoc m (:k x) (:v x))) {} coll)` as one call
(`rt_t_assoc_fields`): the loop's steps and `t_assoc1`'s writes, a part at a time.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from itertools import repeat
from typing import Any, Final

from ptc_runtime import context
from ptc_runtime.fieldfilter import fuel_parts
from ptc_runtime.lookup import get_flexible
from ptc_runtime.records import is_records
from ptc_runtime.transient.owned import t_assoc1, t_begin
from ptc_runtime.values import Keyword

#: The key types of a part `t_assoc_fields` stores with one `dict.update` (with no `_`).
_STR_ONLY: Final = frozenset((str,))


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
    changes nothing. A part whose keys are all strings without `_` going into the plain
    map (see `Owned`) is one `dict.update`: there a new key needs no one-logical-key
    search and an existing one is the key itself, overwritten in place, as `t_assoc1`
    stores them; any other part runs `t_assoc1` element by element.
    """
    owned = t_begin(m)
    module = sys._getframe(1).f_globals  # the caller's `FUEL` (see `fieldfilter`)
    if module.get("FUEL") is not fuel:
        module = {"FUEL": fuel}
    # string-keyed maps only (`ptc_runtime.records`): a field's string spelling is the
    # one a keyword read finds (names without `-`: there is no other spelling)
    records = is_records(items) and "-" not in kname and "-" not in (vname or "")
    for part in fuel_parts(items, module, credit):
        keys: list[Any]
        vals: Sequence[object]
        if records:
            keys = list(map(_dict_get, part, repeat(kname)))
            vals = part if vk is None else list(map(_dict_get, part, repeat(vname)))
        else:
            keys = [
                x.get(kk, x.get(kname)) if type(x) is dict else get_flexible(x, kk) for x in part
            ]
            if vk is None:
                vals = part
            else:
                vals = [
                    x.get(vk, x.get(vname)) if type(x) is dict else get_flexible(x, vk)
                    for x in part
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
    return module["FUEL"], m


#: `dict.get` as a two-argument function of any item (the items are dicts where used).
_dict_get: Final[Callable[[Any, object], Any]] = dict.get
