"""Crossing the host boundary: host data in, tool arguments and JSON results out.

* `from_host`: Python/JSON values (tool results, `data/` values) into PTC values.
  Valid dicts and lists are used as they are (checked, never copied); only the parts
  that need converting (tuples, boolean keys, sets, dict subclasses) are rebuilt.
* `to_tool_args`: target §7.3 normalisation of a tool's argument map.
* `to_json_value`: a PTC value as plain JSON-able Python for the public result.

Java temporal values leave as their canonical text (`"2024-01-31"`); host data
never contains them.

All three walk values with an explicit stack, so nesting depth is not limited by
Python's recursion limit.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from functools import partial
from itertools import chain, compress
from typing import Any, Final

from ptc_runtime.collections import EqKey, PMap, PSet, PVec, kind_name, to_key
from ptc_runtime.errors import PtcError
from ptc_runtime.printer import pr_str
from ptc_runtime.temporal import Temporal
from ptc_runtime.values import Keyword, SymbolRef

_SCALARS: Final = (type(None), bool, int, float, str, Keyword)

# Container kinds of the walker.
_VEC: Final = 0
_MAP: Final = 1
_SET: Final = 2

#: Classify a value: (kind, children) for containers, (-1, converted) for leaves.
#: Map children are (key, output key, value) triples.
Opener = Callable[[object], tuple[int, Any]]
#: Build a container from (kind, original, converted children, changed?).
Closer = Callable[[int, object, list[Any], bool], object]


def _walk(root: object, open_: Opener, close: Closer) -> object:
    """Rebuild `root` bottom-up without recursion.

    A frame is [kind, original, child iterator, converted children, changed, map key].
    `changed` records whether any converted child (or output key) differs from the
    original, so `close` can hand back the original untouched.
    """
    kind, payload = open_(root)
    if kind < 0:
        return payload
    stack: list[list[Any]] = [[kind, root, iter(payload), [], False, None]]
    while True:
        frame = stack[-1]
        item: Any = next(frame[2], _END)
        if item is _END:
            stack.pop()
            value = close(frame[0], frame[1], frame[3], frame[4])
            if not stack:
                return value
            _attach(stack[-1], value, frame[1])
            continue
        if frame[0] == _MAP:
            key, out_key, child = item
            frame[5] = out_key
            if out_key is not key:
                frame[4] = True
        else:
            child = item
        ckind, cpayload = open_(child)
        if ckind < 0:
            _attach(frame, cpayload, child)
        else:
            stack.append([ckind, child, iter(cpayload), [], False, None])


_END: Final = object()


def _attach(frame: list[Any], value: object, original: object) -> None:
    if value is not original:
        frame[4] = True
    if frame[0] == _MAP:
        frame[3].append((frame[5], value))
    else:
        frame[3].append(value)


# ---------------------------------------------------------------- from_host


def _host_key(k: object) -> object:
    t = type(k)
    if t is str or t is int or t is float or t is Keyword or k is None:
        return k
    if t is bool:
        return EqKey(k)
    if t is tuple:
        return to_key(from_host(list(k)))  # type: ignore[call-overload]
    raise PtcError("tool_error", f"unsupported map key in host data: {_host_kind(k)}")


def _host_kind(x: object) -> str:
    k = kind_name(x)
    return "unsupported value" if k in ("unknown", "function") else k


def _host_open(x: object) -> tuple[int, Any]:
    t = type(x)
    if t in _SCALARS or t is PVec or t is PMap or t is PSet or t is SymbolRef:
        return -1, x
    if t is list or t is tuple:
        return _VEC, x
    if isinstance(x, dict):
        return _MAP, ((k, _host_key(k), v) for k, v in x.items())
    if isinstance(x, (set, frozenset)):
        return _SET, x
    if isinstance(x, list):
        return _VEC, x
    raise PtcError("tool_error", f"host data contains an {_host_kind(x)}")


def _host_close(kind: int, orig: object, children: list[Any], changed: bool) -> object:
    if kind == _VEC:
        return orig if not changed and type(orig) is list else children
    if kind == _MAP:
        return orig if not changed and type(orig) is dict else dict(children)
    return PSet.from_iterable(children)


def from_host(x: object) -> object:
    """Host data as a PTC value; unsupported host types raise `tool_error`.

    JSON-shaped data (dicts with string keys, lists, scalars) is returned as the very same
    object after one quick scan; only other shapes are rebuilt.
    """
    t = type(x)
    if t in _SCALARS:
        return x
    if _is_plain(x):
        return x
    return _walk(x, _host_open, _host_close)


_PLAIN_VALUES: Final = frozenset({str, int, float, bool, type(None)})


def _is_plain(root: object) -> bool:
    """True when `root` is JSON-shaped: usable as a PTC value without any change.

    This scans every value of tool results and run data, so it works level by level with
    C-level iteration (`chain`, `map(type, ...)`): all dicts of one level, then all lists,
    descending only where a level holds containers. Nesting is bounded by `_MAX_LEVELS`.
    """
    dicts: list[dict[object, object]] = []
    lists: list[list[object]] = []
    if type(root) is dict:
        dicts.append(root)
    elif type(root) is list:
        lists.append(root)
    else:
        return False
    for _ in range(_MAX_LEVELS):
        kinds: set[type] = set()
        if dicts:
            if set(map(type, chain.from_iterable(dicts))) - _STR_ONLY:
                return False
            kinds.update(map(type, chain.from_iterable(map(dict.values, dicts))))
        if lists:
            kinds.update(map(type, chain.from_iterable(lists)))
        if kinds - _PLAIN_OR_CONTAINER:
            return False
        if dict not in kinds and list not in kinds:
            return True  # only scalars below: done (the last level is never listed)
        found: list[Any] = list(chain.from_iterable(map(dict.values, dicts)))
        found.extend(chain.from_iterable(lists))
        dicts = list(compress(found, map(_IS_DICT, map(type, found)))) if dict in kinds else []
        lists = list(compress(found, map(_IS_LIST, map(type, found)))) if list in kinds else []
    return False


_MAX_LEVELS: Final = 10_000
_IS_DICT: Final = partial(operator.is_, dict)
_IS_LIST: Final = partial(operator.is_, list)
_STR_ONLY: Final = frozenset({str})
_PLAIN_OR_CONTAINER: Final = _PLAIN_VALUES | {dict, list}


# ---------------------------------------------------------------- to_tool_args


def _arg_key(k: object) -> str:
    k = k.value if type(k) is EqKey else k
    t = type(k)
    if t is Keyword:
        return k.name.replace("-", "_")  # type: ignore[attr-defined, no-any-return]
    if t is str:
        return k.replace("-", "_")  # type: ignore[attr-defined, no-any-return]
    if isinstance(k, Temporal):
        return str(k)
    return pr_str(k, limit=200)


def _args_open(x: object) -> tuple[int, Any]:
    t = type(x)
    if t is Keyword:
        return -1, x.name  # type: ignore[attr-defined]
    if t in _SCALARS:
        return -1, x
    if t is list or t is PVec:
        return _VEC, x
    if t is dict or t is PMap:
        return _MAP, ((k, _arg_key(k), v) for k, v in x.items())  # type: ignore[attr-defined]
    if t is PSet:
        return _SET, x.m.values()  # type: ignore[attr-defined]
    if t is SymbolRef:
        return -1, x.name  # type: ignore[attr-defined]
    if isinstance(x, Temporal):
        return -1, str(x)  # Java canonical text
    raise PtcError("invalid_tool_args", f"a {kind_name(x)} cannot be passed to a tool")


def _args_close(kind: int, orig: object, children: list[Any], changed: bool) -> object:
    if kind == _VEC:
        return children
    if kind == _MAP:
        out: dict[str, object] = {}
        for k, v in children:
            if k in out:
                raise PtcError(
                    "invalid_tool_args",
                    f"ambiguous tool arguments: two keys normalise to {k!s}",
                    hint="keys are sent as strings with - replaced by _",
                )
            out[k] = v
        return out
    seen: set[object] = set()
    for c in children:
        key = to_key(c)
        if key in seen:
            raise PtcError(
                "invalid_tool_args", "ambiguous tool arguments: set elements collapse together"
            )
        seen.add(key)
    return children


def to_tool_args(x: object) -> object:
    """Normalise tool arguments: string keys with `_` for `-`, keyword values as names."""
    return _walk(x, _args_open, _args_close)


# ---------------------------------------------------------------- to_json_value


def _json_key(k: object) -> str:
    k = k.value if type(k) is EqKey else k
    t = type(k)
    if t is Keyword:
        return k.name  # type: ignore[attr-defined, no-any-return]
    if t is str:
        return k  # type: ignore[return-value]
    if t is int:
        return str(k)
    if t is float and math.isfinite(k):  # type: ignore[arg-type]
        return pr_str(k)
    if isinstance(k, Temporal):
        return str(k)
    raise PtcError(
        "invalid_output",
        f"a {kind_name(k)} map key cannot be encoded as JSON",
        kind="invalid-output",
    )


def _json_open(x: object) -> tuple[int, Any]:
    t = type(x)
    if t is Keyword:
        return -1, x.name  # type: ignore[attr-defined]
    if t is float:
        if not math.isfinite(x):  # type: ignore[arg-type]
            raise PtcError(
                "invalid_output",
                "NaN and infinities cannot be encoded as JSON",
                kind="invalid-output",
            )
        return -1, x
    if t in _SCALARS:
        return -1, x
    if t is list or t is PVec:
        return _VEC, x
    if t is dict or t is PMap:
        return _MAP, ((k, _json_key(k), v) for k, v in x.items())  # type: ignore[attr-defined]
    if t is PSet:
        return _SET, x.m.values()  # type: ignore[attr-defined]
    if t is SymbolRef:
        return -1, x.name  # type: ignore[attr-defined]
    if isinstance(x, Temporal):
        return -1, str(x)  # Java canonical text
    raise PtcError(
        "invalid_output", f"a {kind_name(x)} cannot be encoded as JSON", kind="invalid-output"
    )


def _json_close(kind: int, orig: object, children: list[Any], changed: bool) -> object:
    if kind == _MAP:
        out: dict[str, object] = {}
        for k, v in children:
            if k in out:
                raise PtcError(
                    "invalid_output",
                    f"two map keys are both encoded as the JSON key {k!s}",
                    kind="invalid-output",
                )
            out[k] = v
        return out
    return children


def to_json_value(x: object) -> object:
    """`x` as plain JSON-able Python (dict/list/str/int/float/bool/None)."""
    return _walk(x, _json_open, _json_close)
