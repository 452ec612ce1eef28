"""Values at the host boundary: the lossless-JSON projection, bounded by its byte budget.

Every value that crosses between a program and its host takes one shape: `dict` with
`str` keys, `list`, `str`, `int`, `float`, `bool` and `None`. `to_host` builds that shape
from a PTC value (a run's completion, a tool's arguments) or checks and copies host data
(a tool's result) in one walk:

* The walk charges what the value's compact JSON encoding would cost, in UTF-8 bytes,
  as it goes, and stops as soon as the charge passes the cap. Shared structure is
  charged every time it is reached, as its encoding would be, so a value of 2^64
  leaves built in 64 steps costs at most the cap, never its size. A container whose
  items cannot fit (two bytes per item at least) is refused before it is walked.
* Anything that has no lossless JSON form is refused with the path to it inside the
  value: NaN and infinities, functions, regexes, sets, map keys that collide once they
  are text, strings with a lone surrogate, integers past Python's printing digit limit,
  nesting deeper than `MAX_DEPTH`.

The walk uses an explicit stack: Python's recursion limit plays no part.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from ptc_runtime.collections import EqKey, PMap, PSet, PVec, kind_name
from ptc_runtime.errors import LimitExceeded, PtcError, bound_message
from ptc_runtime.printer import format_float
from ptc_runtime.temporal import Temporal
from ptc_runtime.values import Keyword, SymbolRef

#: JSON nesting deeper than this is refused: JSON readers recurse, and the host's must
#: not fail on a value the run handed it.
MAX_DEPTH: Final = 512


@dataclass(frozen=True, slots=True)
class Rules:
    """Which values a crossing accepts and how it reports a refusal.

    `limit`: the name of the byte limit (for messages). `ptc_keys`: map keys may be
    keywords, numbers and dates (spelled as text), not only strings. `ptc_values`:
    keywords, quoted symbols and dates are accepted (as their names / canonical text).
    `arg_keys`: keys are sent with `-` replaced by `_` (tool arguments). `code`/`kind`:
    the error of a refused value; `limit_code`/`limit_kind`: the error of a value over
    the cap.
    """

    limit: str
    ptc_keys: bool
    ptc_values: bool
    arg_keys: bool
    code: str
    kind: str
    limit_code: str
    limit_kind: str


#: A run's completion (and fail value) on its way to the host.
COMPLETION: Final = Rules(
    "max_value_bytes",
    True,
    True,
    False,
    "invalid_output",
    "invalid-output",
    "output_limit",
    "output-limit",
)
#: A tool's arguments, built by the program, on their way to the host's function.
TOOL_ARGS: Final = Rules(
    "tool_arg_bytes",
    True,
    True,
    True,
    "invalid_tool_args",
    "protocol",  # the program sent traffic with no JSON form
    "invalid_tool_args",
    "protocol",
)
#: A tool's result, host data on its way into the program: plain JSON only.
TOOL_RESULT: Final = Rules(
    "tool_result_bytes",
    False,
    False,
    False,
    "tool_error",
    "exception",
    "tool_result_too_large",
    "exception",
)


class _Frame:
    __slots__ = ("is_map", "it", "key", "n", "out", "shown")

    def __init__(self, out: Any, it: Any, is_map: bool) -> None:
        self.out = out
        self.it = it
        self.is_map = is_map
        self.n = 0
        self.key: object = None  # the output key of the current entry
        self.shown: object = None  # the original key (for the path)


_END: Final = object()
#: distinct map keys whose text a walk remembers
_KEY_CACHE: Final = 4096
_PUSHED: Final = object()


def to_host(
    value: object,
    cap: int,
    what: str,
    rules: Rules = COMPLETION,
    *,
    describe: Callable[[str], str] | None = None,
) -> object:
    """`value` as plain JSON-shaped Python whose compact JSON text fits in `cap` bytes.

    `what` names the value in errors ("the result value", "the result of tool/x").
    Raises `PtcError` (`rules.code`/`rules.kind`) for a value with no lossless JSON form,
    naming the path to the offending part, and `LimitExceeded` (`rules.limit_*`) when
    the encoding would pass `cap`; either is found after at most `cap` bytes of work.
    `describe`, if given, rewrites the final message (e.g. to add a tool's name).
    """
    used = 0
    stack: list[_Frame] = []
    root: object = None
    x: Any = value
    ptc_values = rules.ptc_values
    #: map keys met so far (keywords and strings repeat across records): text and cost
    keys: dict[object, tuple[str, int]] = {}
    try:
        while True:
            # -- convert x (a leaf, or open a container) ------------------------------
            t = type(x)
            v: Any
            if t is str:
                used += len(x) + 2
                if used > cap:
                    raise _over(rules, cap, what)
                if not (x.isascii() and x.isprintable() and '"' not in x and "\\" not in x):
                    used += _str_extra(x)
                v = x
            elif x is None:
                used += 4
                v = None
            elif t is bool:
                used += 4 if x else 5
                v = x
            elif t is int:
                v = x
                used += _int_len(x, cap)
            elif t is float:
                if not math.isfinite(x):
                    raise _Refused("NaN or an infinity")
                used += len(repr(x))
                v = x
            elif t is list or t is tuple or t is PVec or (not ptc_values and isinstance(x, list)):
                n = len(x)
                if used + 2 * n + 1 > cap:
                    raise _over(rules, cap, what)
                if len(stack) >= MAX_DEPTH:
                    raise _Refused(f"nesting deeper than {MAX_DEPTH} levels")
                used += 1  # "[" (the "]" when it closes)
                out: list[object] = []
                if stack:
                    _attach(stack[-1], out)
                else:
                    root = out
                it = list.__iter__(x) if t is not list and isinstance(x, list) else iter(x)
                stack.append(_Frame(out, it, False))
                v = _PUSHED
            elif t is dict or t is PMap or (not ptc_values and isinstance(x, dict)):
                n = len(x)
                if used + 5 * n + 1 > cap:  # `"":0,` at least per entry
                    raise _over(rules, cap, what)
                if len(stack) >= MAX_DEPTH:
                    raise _Refused(f"nesting deeper than {MAX_DEPTH} levels")
                used += 1
                out_d: dict[str, object] = {}
                if stack:
                    _attach(stack[-1], out_d)
                else:
                    root = out_d
                if t is PMap:  # its stored keys and values, read at C speed
                    ks = x._keys()
                    items: Any = zip(ks, map(x.vals.__getitem__, ks), strict=True)
                else:
                    items = dict.items(x)
                stack.append(_Frame(out_d, iter(items), True))
                v = _PUSHED
            elif ptc_values and t is Keyword:
                v = x.name
                used += len(v) + 2
                if used > cap:
                    raise _over(rules, cap, what)
                used += _str_extra(v)
            elif ptc_values and t is SymbolRef:
                v = x.name
                used += len(v) + 2 + _str_extra(v)
            elif ptc_values and isinstance(x, Temporal):
                v = str(x)  # Java canonical text
                used += len(v) + 2
            else:
                raise _Refused(_what_is(x))
            if v is not _PUSHED:
                if not stack:
                    if used > cap:
                        raise _over(rules, cap, what)
                    return v
                f = stack[-1]
                if f.is_map:
                    f.out[f.key] = v
                else:
                    f.out.append(v)
            if used > cap:
                raise _over(rules, cap, what)
            # -- the next item ---------------------------------------------------------
            while stack:
                f = stack[-1]
                item: Any = next(f.it, _END)
                if item is _END:
                    stack.pop()
                    used += 1  # the closing bracket
                    continue
                if f.n:
                    used += 1  # ","
                f.n += 1
                if f.is_map:
                    k, x = item
                    f.shown = k
                    tk = type(k)
                    known = keys.get(k) if tk is Keyword or tk is str else None
                    if known is None:
                        key = _key_text(k, rules)
                        known = (key, len(key) + 3 + _str_extra(key))  # quotes and ":"
                        if (tk is Keyword or tk is str) and len(keys) < _KEY_CACHE:
                            keys[k] = known
                    key = known[0]
                    if key in f.out:
                        raise _Refused(f"two map keys that are both the JSON key {_show(key)}")
                    f.key = key
                    used += known[1]
                else:
                    x = item
                break
            else:
                if used > cap:  # the closing brackets count too
                    raise _over(rules, cap, what)
                return root
            if used > cap:
                raise _over(rules, cap, what)
    except _Refused as r:
        message = f"{what} cannot be encoded as JSON: {r.args[0]}{_where(stack)}"
        if describe is not None:
            message = describe(message)
        raise PtcError(rules.code, bound_message(message, 480), kind=rules.kind) from None
    except LimitExceeded as err:
        if describe is not None:
            err.message = describe(err.message)
        raise


class _Refused(Exception):
    """A part of the value with no lossless JSON form (internal: becomes a PtcError)."""


def _attach(f: _Frame, out: object) -> None:
    if f.is_map:
        f.out[f.key] = out
    else:
        f.out.append(out)


def _over(rules: Rules, cap: int, what: str) -> LimitExceeded:
    return LimitExceeded(
        rules.limit_code,
        f"{what} exceeded {rules.limit} ({cap} bytes as JSON)",
        kind=rules.limit_kind,
    )


def _str_extra(s: str) -> int:
    """Bytes the JSON text of `s` needs beyond len(s) + 2; refuses a lone surrogate."""
    if s.isascii():
        if s.isprintable() and '"' not in s and "\\" not in s:
            return 0
        return len(json.dumps(s)) - len(s) - 2
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        raise _Refused("a string with a lone surrogate") from None
    return len(json.dumps(s, ensure_ascii=False).encode("utf-8")) - len(s) - 2


def _int_len(x: int, cap: int) -> int:
    if x.bit_length() > 4 * cap + 64:  # more digits than the cap holds: never convert
        return cap + 1
    try:
        return len(str(x))
    except ValueError:  # past Python's integer printing digit limit
        raise _Refused("an integer with more digits than can be printed") from None


def _key_text(k: object, rules: Rules) -> str:
    if type(k) is EqKey:
        k = k.value
    t = type(k)
    if t is str:
        key: str = k  # type: ignore[assignment]
        if rules.arg_keys:
            key = key.replace("-", "_")
    elif not rules.ptc_keys:
        raise _Refused(f"a map key that is not a string ({_what_is(k)})")
    elif t is Keyword or t is SymbolRef:
        key = k.name  # type: ignore[attr-defined]
        if rules.arg_keys:
            key = key.replace("-", "_")
    elif t is int:
        try:
            key = str(k)
        except ValueError:
            raise _Refused("an integer map key with more digits than can be printed") from None
    elif t is float and math.isfinite(k):  # type: ignore[arg-type]
        key = format_float(k)  # type: ignore[arg-type]
    elif isinstance(k, Temporal):
        key = str(k)
    else:
        raise _Refused(f"a map key that is {_what_is(k)}")
    _str_extra(key)  # a key with a lone surrogate
    return key


def python_type(x: object) -> str:
    """The Python type of a host value, for messages: `datetime.datetime`, `Decimal`."""
    t = type(x)
    mod = getattr(t, "__module__", "") or ""
    name = getattr(t, "__qualname__", t.__name__)
    text = name if mod in ("builtins", "__main__", "") else f"{mod}.{name}"
    return bound_message(text, 80)


def _what_is(x: object) -> str:
    if isinstance(x, set | frozenset) or type(x) is PSet:
        return "a set"
    k = kind_name(x)
    if k == "unknown":
        return f"a host object ({python_type(x)})" if not callable(x) else "a function"
    if k == "nil":
        return "nil"
    return ("an " if k[0] in "aeiou" else "a ") + k


def _show(key: object) -> str:
    if type(key) is EqKey:
        key = key.value
    if type(key) is Keyword:
        return bound_message(":" + key.name, 40)
    if type(key) is str:
        return bound_message(json.dumps(key), 40)
    if type(key) is int:
        return str(key) if key.bit_length() < 200 else "<a large integer>"
    return bound_message(kind_name(key), 40)


def _where(stack: list[_Frame]) -> str:
    """The path of the entry being converted: ` at [:users 3 :name]` (empty at the root)."""
    if not stack:
        return ""
    parts = []
    for f in stack[:24]:
        parts.append(_show(f.shown) if f.is_map else str(f.n - 1))
    if len(stack) > 24:
        parts.append("...")
    return " at [" + " ".join(parts) + "]"
