"""In-place accumulation for `reduce` loops the compiler proved linear.

`(reduce (fn [m x] (assoc m k v)) {} xs)` builds a map one `assoc` at a time; each
intermediate map is dropped at once. When the compiler proves the accumulator never
escapes (the body only reads it through `get`/`count`/keyword calls and writes it through
`assoc`/`update`/`assoc-in`/`update-in`/`conj`, and no fn captures it), it runs the loop
with these helpers, which mutate containers in place with exactly the semantics of the
persistent operations (one-logical-key writes, flexible reads, insertion order).

- `owned`: the ownership table (`Owned`: which containers the loop may mutate, and when
  a value leaves its control) and the one-key writes `assoc`, `update`, `conj`;
- `update_in`: `update-in`/`assoc-in` walking owned maps, and two fused `update-in`s
  sharing a prefix, whose walk is memoized;
- `assoc_fields`, `update_fields`: whole loops of `assoc`s (of `update-in`s) over element
  fields as one call each.

`HELPERS` is their table for the generated code (`rt.HELPERS` takes it in).
"""

from __future__ import annotations

from typing import Any, Final

from ptc_runtime.fast.transient.assoc_fields import t_assoc_fields
from ptc_runtime.fast.transient.owned import (
    Owned,
    t_assoc,
    t_assoc1,
    t_begin,
    t_conj,
    t_items,
    t_seen,
    t_update,
)
from ptc_runtime.fast.transient.update_fields import t_update_fields
from ptc_runtime.fast.transient.update_in import (
    t_assoc_in,
    t_update_in,
    t_update_in2,
    t_update_in2k,
)

__all__ = [
    "HELPERS",
    "Owned",
    "t_assoc",
    "t_assoc1",
    "t_assoc_fields",
    "t_assoc_in",
    "t_begin",
    "t_conj",
    "t_items",
    "t_seen",
    "t_update",
    "t_update_fields",
    "t_update_in",
    "t_update_in2",
    "t_update_in2k",
]

HELPERS: Final[dict[str, Any]] = {
    "rt_t_begin": t_begin,
    "rt_t_items": t_items,
    "rt_t_seen": t_seen,
    "rt_t_assoc": t_assoc,
    "rt_t_assoc1": t_assoc1,
    "rt_t_update": t_update,
    "rt_t_update_in": t_update_in,
    "rt_t_update_in2": t_update_in2,
    "rt_t_update_in2k": t_update_in2k,
    "rt_t_assoc_in": t_assoc_in,
    "rt_t_conj": t_conj,
    "rt_t_assoc_fields": t_assoc_fields,
    "rt_t_update_fields": t_update_fields,
}
