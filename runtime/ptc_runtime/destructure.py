"""Runtime helpers that desugared destructuring calls (`rt_<name>` in generated code).

The analyzer turns every pattern into flat `let` bindings whose values call these
helpers through `ir.RtCall`. Sequential patterns read positions of a vector (or nil);
map patterns read keys flexibly (target §4.6) and tell an absent key from a present
nil for `:or` defaults. Shape mismatches raise `PtcError("destructure_error", ...)`
naming the kind of value, never the value itself.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final

from ptc_runtime.errors import PtcError
from ptc_runtime.values import Keyword, keyword

_ABSENT: Final = object()


def kind_of(value: object) -> str:
    """The PTC kind of a value for messages ("map", "vector", "string" ...)."""
    if value is None:
        return "nil"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, Keyword):
        return "keyword"
    if isinstance(value, list | tuple):
        return "vector"
    if isinstance(value, dict | Mapping):
        return "map"
    name = type(value).__name__.lower()
    for marker, kind in (("set", "set"), ("vec", "vector"), ("map", "map"), ("regex", "regex")):
        if marker in name:
            return kind
    if callable(value):
        return "function"
    return "value"


def _is_map(value: object) -> bool:
    if isinstance(value, dict | Mapping):
        return True
    return kind_of(value) == "map"


def _is_vec(value: object) -> bool:
    if isinstance(value, list | tuple):
        return True
    return kind_of(value) == "vector"


def check_vec(value: object) -> object:
    """The value itself when a sequential pattern may read it (a vector or nil)."""
    if value is None or isinstance(value, list) or _is_vec(value):
        return value
    raise PtcError("destructure_error", f"expected a vector or nil, got {kind_of(value)}")


def nth(vec: object, index: int) -> object:
    """Element `index` of a checked vector; nil past the end or for nil."""
    if vec is None:
        return None
    seq: list[object] = vec  # type: ignore[assignment]  # checked by check_vec
    return seq[index] if index < len(seq) else None


def rest(vec: object, start: int) -> object:
    """The elements from `start` on as a vector; nil when there are none (Clojure)."""
    if vec is None:
        return None
    seq: list[object] = vec  # type: ignore[assignment]  # checked by check_vec
    if start >= len(seq):
        return None
    return list(seq[start:])


def rest_map(vec: object, start: int) -> object:
    """Rest elements read as key/value pairs (`[& {:keys [a]}]`); a lone map is itself."""
    if vec is None:
        return None
    seq: list[object] = vec  # type: ignore[assignment]  # checked by check_vec
    tail = seq[start:]
    if not tail:
        return None
    if len(tail) == 1 and _is_map(tail[0]):
        return tail[0]
    if len(tail) % 2:
        raise PtcError(
            "destructure_error",
            f"expected key/value pairs after &, got {len(tail)} values (an odd count)",
        )
    out: dict[object, object] = {}
    for i in range(0, len(tail), 2):
        try:
            out[tail[i]] = tail[i + 1]
        except TypeError:
            raise PtcError(
                "destructure_error", f"a {kind_of(tail[i])} cannot be a key after &"
            ) from None
    return out


def check_map(value: object) -> object:
    """The value itself when a map pattern may read it (a map or nil)."""
    if value is None or isinstance(value, dict) or _is_map(value):
        return value
    raise PtcError("destructure_error", f"expected a map or nil, got {kind_of(value)}")


def _variants(key: object) -> tuple[object, ...]:
    """The keys a flexible read tries, in order (decision 5)."""
    if isinstance(key, Keyword):
        name = key.name
        snake = name.replace("-", "_")
        if snake != name:
            return (key, name, snake, keyword(snake))
        return (key, name)
    if isinstance(key, str):
        snake = key.replace("-", "_")
        if snake != key:
            return (key, keyword(key), snake, keyword(snake))
        return (key, keyword(key))
    return (key,)


def _find(m: object, key: object) -> object:
    """The value under `key` read flexibly, or `_ABSENT`."""
    if m is None:
        return _ABSENT
    getter = m.get  # type: ignore[attr-defined]  # checked by check_map
    for k in _variants(key):
        try:
            found = getter(k, _ABSENT)
        except TypeError:  # an unhashable key cannot be present
            return _ABSENT
        if found is not _ABSENT:
            return found
    return _ABSENT


def get_key(m: object, key: object) -> object:
    """`(get m key)` with flexible keys; nil when absent."""
    found = _find(m, key)
    return None if found is _ABSENT else found


def get_or(m: object, key: object, default: object) -> object:
    """The value under `key`, or `default` only when the key is absent (`:or`)."""
    found = _find(m, key)
    return default if found is _ABSENT else found


def has_key(m: object, key: object) -> bool:
    """True when a flexible read of `key` finds an entry (even a nil one)."""
    return _find(m, key) is not _ABSENT


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
}
