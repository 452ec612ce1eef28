"""In-place accumulation for `reduce` loops the compiler proved linear.

`(reduce (fn [m x] (assoc m k v)) {} xs)` builds a map one `assoc` at a time; each
intermediate map is dropped at once. When the compiler proves the accumulator never
escapes (it starts as a literal `{}`/`[]` and the body only reads it through
`get`/`count`/keyword calls and writes it through `assoc`/`update`/`conj`), it runs the
loop on one private dict or list mutated in place, with exactly the semantics of the
persistent operations (one-logical-key writes, flexible reads). Nothing else can see the
object until the loop ends, so immutability is never observable.
"""

from __future__ import annotations

from typing import Any, Final

from ptc_runtime.collections import as_fn, map_write_key
from ptc_runtime.errors import PtcError
from ptc_runtime.lookup import NOT_FOUND, find_key
from ptc_runtime.values import Keyword


def t_assoc(m: dict[Any, Any], *kvs: Any) -> dict[Any, Any]:
    """`(assoc m k v ...)` on the private map, in place."""
    if not kvs or len(kvs) % 2:
        raise PtcError("arity_error", "assoc: expected keys and values in pairs")
    for i in range(0, len(kvs), 2):
        k = kvs[i]
        tk = type(k)
        if (tk is str or tk is Keyword or tk is int) and k in m:  # exact key: no search
            m[k] = kvs[i + 1]
        else:
            m[map_write_key(m, k)] = kvs[i + 1]
    return m


def t_update(m: dict[Any, Any], k: Any, f: Any, *args: Any) -> dict[Any, Any]:
    """`(update m k f & args)` on the private map, in place (flexible read, one key)."""
    fn = as_fn(f, "update")
    found = find_key(m, k)
    if found is NOT_FOUND:
        m[map_write_key(m, k)] = fn(None, *args)
    else:
        m[found] = fn(m[found], *args)
    return m


def t_conj(v: list[Any], *xs: Any) -> list[Any]:
    """`(conj v x ...)` on the private vector, in place."""
    v.extend(xs)
    return v


HELPERS: Final[dict[str, Any]] = {
    "rt_t_assoc": t_assoc,
    "rt_t_update": t_update,
    "rt_t_conj": t_conj,
}
