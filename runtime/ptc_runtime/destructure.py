"""Runtime helpers that desugared destructuring calls (`rt_<name>` in generated code).

The analyzer turns every pattern into flat `let` bindings whose values call these
helpers through `ir.RtCall`. Sequential patterns read positions of a vector (or nil);
map patterns read keys flexibly and tell an absent key from a present
nil for `:or` defaults. Shape mismatches raise `PtcError("destructure_error", ...)`
naming the kind of value, never the value itself.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Final

from ptc_runtime.collections import PVec, is_map, is_vector, kind_name, seq_items, to_key
from ptc_runtime.errors import PtcError
from ptc_runtime.lookup import NOT_FOUND, find_key


def check_vec(value: object) -> object:
    """What a sequential pattern reads: a vector, a string or nil, as is.

    A string is read by character (Clojure destructures strings): `nth`, `rest` and
    `rest_map` index it like a vector, and `:as` binds the string itself, as in Clojure.
    """
    if value is None or is_vector(value) or type(value) is str:
        return value
    raise PtcError("destructure_error", f"expected a vector or nil, got {kind_name(value)}")


def nth(vec: object, index: int) -> object:
    """Element `index` of a checked vector; nil past the end or for nil."""
    if vec is None:
        return None
    seq: list[object] | str = vec  # type: ignore[assignment]  # checked by check_vec
    return seq[index] if index < len(seq) else None


def rest(vec: object, start: int) -> object:
    """The elements from `start` on as a vector; nil when there are none (Clojure)."""
    if vec is None:
        return None
    seq: list[object] | str = vec  # type: ignore[assignment]  # checked by check_vec
    if start >= len(seq):
        return None
    return list(seq[start:])


def rest_map(vec: object, start: int) -> object:
    """Rest elements read as key/value pairs (`[& {:keys [a]}]`); a lone map is itself."""
    if vec is None:
        return None
    seq: list[object] | str = vec  # type: ignore[assignment]  # checked by check_vec
    tail = seq[start:]
    if not tail:
        return None
    if len(tail) == 1 and is_map(tail[0]):
        return tail[0]
    if len(tail) % 2:
        raise PtcError(
            "destructure_error",
            f"expected key/value pairs after &, got {len(tail)} values (an odd count)",
        )
    out: dict[object, object] = {}
    for i in range(0, len(tail), 2):
        out[to_key(tail[i])] = tail[i + 1]
    return out


def seq_or_nil(coll: object) -> object:
    """The elements of a seqable value, or nil when it has none (`when-first`)."""
    items = seq_items(coll, "when-first")
    return items if len(items) else None


def check_map(value: object) -> object:
    """The value itself when a map pattern may read it: a map, nil or a vector (read by
    index, as `get` reads it: `{a 0 b 1}` of `[10 20]` binds 10 and 20, as in Clojure)."""
    if value is None or is_map(value) or type(value) is list or type(value) is PVec:
        return value
    raise PtcError(
        "destructure_error", f"expected a map, a vector or nil, got {kind_name(value)}"
    )


def _find(m: object, key: object) -> object:
    """The value under `key` read flexibly (`lookup.find_key`), or `NOT_FOUND`."""
    if m is None:
        return NOT_FOUND
    tm = type(m)
    if tm is list or tm is PVec:  # by index: an exact int in range (`lookup.get_flexible`)
        items: Sequence[object] = m  # type: ignore[assignment]
        return items[key] if type(key) is int and 0 <= key < len(items) else NOT_FOUND
    mapping: Mapping[object, object] = m  # type: ignore[assignment]  # checked by check_map
    found = find_key(mapping, key)
    return NOT_FOUND if found is NOT_FOUND else mapping[found]


def get_key(m: object, key: object) -> object:
    """`(get m key)` with flexible keys; nil when absent."""
    found = _find(m, key)
    return None if found is NOT_FOUND else found


def get_or(m: object, key: object, default: object) -> object:
    """The value under `key`, or `default` only when the key is absent (`:or`)."""
    found = _find(m, key)
    return default if found is NOT_FOUND else found


def has_key(m: object, key: object) -> bool:
    """True when a flexible read of `key` finds an entry (even a nil one)."""
    return _find(m, key) is not NOT_FOUND


#: Helper name (as used in `ir.RtCall.helper`) -> function; lowering binds `rt_<name>`.
HELPERS: Final[dict[str, Callable[..., object]]] = {
    "ds_check_vec": check_vec,
    "ds_nth": nth,
    "ds_rest": rest,
    "ds_rest_map": rest_map,
    "ds_check_map": check_map,
    "ds_get": get_key,
    "ds_get_or": get_or,
    "ds_has": has_key,
    "ds_seq": seq_or_nil,
}
