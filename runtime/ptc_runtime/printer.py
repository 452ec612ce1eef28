"""Printing values: `pr_str` (readable, as `pr-str`) and `str_` (display, as `str`).

Floats follow Java's `Double.toString`, as Clojure prints them: plain
decimals for magnitudes in [1e-3, 1e7), computerised scientific notation otherwise
(`1.0E7`, `1.0E-4`), `##Inf`/`##-Inf`/`##NaN` readably and `Infinity`/`-Infinity`/`NaN`
in `str`. Maps print in insertion order with `, ` between entries. The printer is
iterative (an explicit work stack), so deep values print without recursion, and it
takes an optional character budget after which it stops with a marker: heavily shared
values can describe astronomically long text. Java temporal values print their Java
canonical text in `str` and Clojure's readable form (without the identity hash) in
`pr-str`; Java surface members print as inert `#java[Math/abs]` labels.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from decimal import Decimal
from typing import Final

from ptc_runtime.collections import EqKey, PMap, PSet, PVec
from ptc_runtime.errors import PtcError
from ptc_runtime.temporal import Temporal
from ptc_runtime.values import Keyword, SymbolRef, VarRef

#: Appended when a budgeted print stops early.
TRUNCATION_MARKER: Final = "..."

_ESCAPES: Final = {
    '"': '\\"',
    "\\": "\\\\",
    "\n": "\\n",
    "\t": "\\t",
    "\r": "\\r",
    "\b": "\\b",
    "\f": "\\f",
}
_NEEDS_ESCAPE: Final = re.compile(r'["\\\n\t\r\b\f]')
_COMPILED_NAME: Final = re.compile(r"^f\d+_(.+)$")


#: The least positive float: its shortest text has one digit (`5e-324`), where Java's
#: two digits are the closer 4.9 (every other one-digit float's two are `d.0`, as here).
_MIN_SUBNORMAL: Final = 5e-324


def format_float(x: float, readable: bool = True) -> str:
    """Java `Double.toString` text of `x` (specials as `##Inf` when `readable`)."""
    if x != x:
        return "##NaN" if readable else "NaN"
    if x == math.inf:
        return "##Inf" if readable else "Infinity"
    if x == -math.inf:
        return "##-Inf" if readable else "-Infinity"
    if x == 0.0:
        return "-0.0" if math.copysign(1.0, x) < 0 else "0.0"
    r = repr(x)
    ax = abs(x)
    if 1e-3 <= ax < 1e7:
        # Python's repr is plain decimal in this range and already shortest round-trip.
        return r
    _sign, digits, exponent = Decimal(r).as_tuple()
    ds = "".join(map(str, digits)).rstrip("0") or "0"
    assert isinstance(exponent, int)
    if ax == _MIN_SUBNORMAL:  # Java's two digits of it (`Double.MIN_VALUE`): not 5.0E-324
        return "-4.9E-324" if x < 0 else "4.9E-324"
    sci_exp = len(digits) + exponent - 1
    mantissa = ds[0] + "." + (ds[1:] or "0")
    return ("-" if x < 0 else "") + mantissa + "E" + str(sci_exp)


def format_int(x: int) -> str:
    try:
        return str(x)
    except ValueError:
        raise PtcError(
            "arithmetic_error", "integer too large to print", hint="the digit limit is 4300"
        ) from None


def _escape(s: str) -> str:
    if _NEEDS_ESCAPE.search(s) is None:
        return '"' + s + '"'
    return '"' + _NEEDS_ESCAPE.sub(lambda m: _ESCAPES[m.group(0)], s) + '"'


def fn_name(f: object) -> str:
    """The PTC name of a function value, for `#function[name]`."""
    name = getattr(f, "ptc_name", None)
    if isinstance(name, str):
        return name
    py = getattr(f, "__name__", None)
    if isinstance(py, str):
        m = _COMPILED_NAME.match(py)
        if m:
            return m.group(1)
    return "fn"


def fn_label(f: object) -> str:
    """`#function[name]`, or the inert `#java[Math/abs]` for a Java surface member."""
    name = fn_name(f)
    from ptc_runtime.builtins import BUILTINS  # the registry imports the printer

    spec = BUILTINS.get(name)
    if spec is not None and spec.fn is f and "java" in spec.groups:
        return "#java[" + name + "]"
    return "#function[" + name + "]"


def _atom(x: object, readable: bool) -> str | None:
    """Text of a non-collection value, or None for a collection."""
    t = type(x)
    if t is str:
        return _escape(x) if readable else x  # type: ignore[arg-type, return-value]
    if t is Keyword:
        return ":" + x.name  # type: ignore[attr-defined, no-any-return]
    if t is int:
        return format_int(x)  # type: ignore[arg-type]
    if t is float:
        return format_float(x, readable)  # type: ignore[arg-type]
    if x is None:
        return "nil"
    if t is bool:
        return "true" if x else "false"
    if t is list or t is PVec or t is dict or t is PMap or t is PSet:
        return None
    if t is EqKey:
        return None
    if t is SymbolRef:
        return "'" + x.name  # type: ignore[attr-defined, no-any-return]
    if t is VarRef:
        return "#'" + x.name  # type: ignore[attr-defined, no-any-return]
    if t.__name__ == "Regex":
        src = getattr(x, "source", None)
        if not isinstance(src, str):
            src = getattr(x, "pattern", "")
        return '#"' + (src if isinstance(src, str) else "") + '"'
    if isinstance(x, Temporal):
        return x.readable() if readable else str(x)
    if t.__name__ == "PtcImage":  # a tool's image descriptor: #image[WxH path]
        return repr(x)
    if callable(x):
        return fn_label(x)
    return "#object[unknown]"


def _print(x: object, readable: bool, limit: int | None) -> str:
    out: list[str] = []
    size = 0
    # A stack of piece iterators: a piece is literal text (str) or a value to print,
    # wrapped in a 1-tuple so that a string value differs from literal text.
    stack: list[Iterator[object]] = [iter(((x,),))]
    while stack:
        item = next(stack[-1], None)
        if item is None:
            stack.pop()
            continue
        if type(item) is str:
            text = item
        else:
            v = item[0]  # type: ignore[index]
            if type(v) is EqKey:
                v = v.value
            atom = _atom(v, readable)
            if atom is None:
                stack.append(_pieces(v))
                continue
            text = atom
        out.append(text)
        size += len(text)
        if limit is not None and size > limit:
            return "".join(out)[:limit] + TRUNCATION_MARKER
        if len(out) & 0xFFFF == 0:
            check_deadline()  # a big print is long work: honour the run's deadline and cancel
    return "".join(out)


def check_deadline() -> None:
    """Fail the current run if its deadline passed (no-op outside a run): for builtins whose
    single call can take long (printing, encoding)."""
    from ptc_runtime import context

    try:
        ctx = context.current()
    except PtcError:
        return  # printing outside a run (host side): no deadline
    ctx.check_time()


def _pieces(v: object) -> Iterator[object]:
    """The text and element pieces of collection `v`, in order."""
    t = type(v)
    if t is list or t is PVec:
        yield "["
        first = True
        for x in v:  # type: ignore[attr-defined]
            if not first:
                yield " "
            first = False
            yield (x,)
        yield "]"
    elif t is PSet:
        yield "#{"
        first = True
        for x in v.m.values():  # type: ignore[attr-defined]
            if not first:
                yield " "
            first = False
            yield (x,)
        yield "}"
    else:
        yield "{"
        first = True
        for k, x in v.items():  # type: ignore[attr-defined]
            if not first:
                yield ", "
            first = False
            yield (k,)
            yield " "
            yield (x,)
        yield "}"


def pr_str(x: object, limit: int | None = None) -> str:
    """Readable text of `x` (as `pr-str`); with `limit`, at most that many chars + marker."""
    t = type(x)
    if t is str:
        return _escape(x)  # type: ignore[arg-type]
    if t is Keyword:
        return ":" + x.name  # type: ignore[attr-defined, no-any-return]
    return _print(x, True, limit)


def str_(x: object, limit: int | None = None) -> str:
    """Display text of `x` (as `str`): nil is "", strings raw, collections readable."""
    t = type(x)
    if t is str:
        return x  # type: ignore[return-value]
    if x is None:
        return ""
    if t is float:
        return format_float(x, readable=False)  # type: ignore[arg-type]
    if t is Keyword:
        return ":" + x.name  # type: ignore[attr-defined, no-any-return]
    if isinstance(x, Temporal):
        return str(x)  # Java canonical text
    if t.__name__ == "Regex":  # `(str #"a+")` is the pattern source, as in Clojure
        src = getattr(x, "source", None)
        if not isinstance(src, str):
            src = getattr(x, "pattern", "")
        return src if isinstance(src, str) else ""
    return _print(x, True, limit)
