"""`format`: our own Java `String.format` subset, never Python's.

A directive is `%[index$][flags][width][.precision]conversion` with conversions
`s S d x X o f e E b B c n %` and flags `- 0 + space , (`. Width and precision are
bounded before anything is allocated. `%s` of nil is "" (DIV-21); floats round half
up on their shortest decimal text, as Java does; `##Inf`/`##NaN` print as
`Infinity`/`NaN`. Every mistake is a `runtime_error` naming the directive.
"""

from __future__ import annotations

import math
import re
from decimal import ROUND_HALF_UP, Decimal, localcontext
from typing import Final

from ptc_runtime.builtins.registry import BuiltinSpec, declare
from ptc_runtime.collections import kind_name
from ptc_runtime.errors import PtcError
from ptc_runtime.printer import format_int
from ptc_runtime.printer import str_ as display
from ptc_runtime.values import Keyword

DECLS: list[BuiltinSpec] = []

MAX_WIDTH: Final = 10_000
MAX_PRECISION: Final = 1_000
MAX_OUTPUT_CHARS: Final = 10_000_000

_DIRECTIVE: Final = re.compile(r"%(?:([1-9][0-9]*)\$)?([-#+ 0,(]*)([0-9]+)?(?:\.([0-9]+))?(.?)")
_CONVERSIONS: Final = frozenset("sSdxXofeEbBcn%")
_LONG_MIN: Final = -(2**63)
_LONG_MAX: Final = 2**63 - 1


def _fail(directive: str, why: str) -> PtcError:
    return PtcError("runtime_error", f"format: {why} in {directive[:20]}")


def _pad(text: str, width: int | None, left: bool) -> str:
    if width is None or len(text) >= width:
        return text
    fill = " " * (width - len(text))
    return text + fill if left else fill + text


def _signed(directive: str, negative: bool, digits: str, flags: str, width: int | None) -> str:
    """Sign, zero padding and parentheses of a formatted number's `digits`."""
    if negative and "(" in flags:
        prefix, suffix = "(", ")"
    elif negative:
        prefix, suffix = "-", ""
    elif "+" in flags:
        prefix, suffix = "+", ""
    elif " " in flags:
        prefix, suffix = " ", ""
    else:
        prefix, suffix = "", ""
    if "0" in flags:
        if width is None or "-" in flags:
            raise _fail(directive, "the 0 flag needs a width and no - flag")
        fill = width - len(prefix) - len(digits) - len(suffix)
        if fill > 0:
            digits = "0" * fill + digits
    return _pad(prefix + digits + suffix, width, "-" in flags)


def _group(digits: str) -> str:
    head, dot, tail = digits.partition(".")
    return f"{int(head):,}" + dot + tail


def _number(directive: str, x: object, conv: str) -> int | float:
    if type(x) is int or (type(x) is float and conv in "feE"):
        return x
    got = "nil" if x is None else kind_name(x)
    want = "an integer" if conv in "dxXo" else "a number"
    raise _fail(directive, f"%{conv} needs {want}, got {got}")


def _fixed(x: int | float, conv: str, precision: int) -> str:
    """Digits of |x| for %f / %e, rounded half up on its shortest decimal text."""
    d = Decimal(abs(x)) if type(x) is int else Decimal(repr(abs(x)))
    with localcontext() as ctx:
        ctx.rounding = ROUND_HALF_UP
        ctx.prec = max(64, precision + 40, len(str(d.adjusted())) + precision + 40)
        if conv == "f":
            return f"{d:.{precision}f}"
        if d == 0:
            return ("0." + "0" * precision if precision else "0") + "e+00"
        text = f"{d:.{precision}e}"
    mantissa, _, exp = text.partition("e")
    sign = "-" if exp.startswith("-") else "+"
    return mantissa + "e" + sign + exp.lstrip("+-").rjust(2, "0")


def _integer_text(x: int, conv: str) -> str:
    if conv == "d":
        return format_int(abs(x))
    if x < 0 and _LONG_MIN <= x:
        x += 2**64  # Java prints a negative long in two's complement
        return format(x, "x" if conv in "xX" else "o")
    return format(abs(x), "x" if conv in "xX" else "o")


def _directive(
    directive: str, flags: str, width: int | None, precision: int | None, conv: str, arg: object
) -> str:
    left = "-" in flags
    if conv in "sS":
        if set(flags) - {"-"}:
            raise _fail(directive, "unsupported flag")
        text = display(arg, MAX_OUTPUT_CHARS)
        if precision is not None:
            text = text[:precision]
        return _pad(text.upper() if conv == "S" else text, width, left)
    if conv in "bB":
        text = "false" if arg is None or arg is False else "true"
        return _pad(text.upper() if conv == "B" else text, width, left)
    if conv == "c":
        if type(arg) is str and len(arg) == 1:
            return _pad(arg, width, left)
        if type(arg) is int and 0 <= arg <= 0x10FFFF:
            return _pad(chr(arg), width, left)
        raise _fail(directive, "%c needs a one-character string or a code point")
    if type(arg) is float and not math.isfinite(arg):
        if conv not in "feE":
            raise _fail(directive, f"%{conv} cannot format a special float")
        text = "NaN" if arg != arg else "Infinity"
        return _signed(directive, arg < 0, text, flags.replace("0", ""), width)
    x = _number(directive, arg, conv)
    if conv in "dxXo":
        if precision is not None:
            raise _fail(directive, "precision is not allowed for integers")
        if x < 0 and conv != "d" and x >= _LONG_MIN and set(flags) & {"+", " ", "("}:
            raise _fail(directive, "sign flags need %d")
        digits = _integer_text(x, conv)  # type: ignore[arg-type]
        if "," in flags:
            if conv != "d":
                raise _fail(directive, "the , flag needs %d")
            digits = _group(digits)
        if conv == "X":
            digits = digits.upper()
        negative = x < 0 and (conv == "d" or x < _LONG_MIN)
        return _signed(directive, negative, digits, flags, width)
    digits = _fixed(x, conv[0].lower(), 6 if precision is None else precision)
    if "," in flags and conv == "f":
        digits = _group(digits)
    if conv == "E":
        digits = digits.upper()
    negative = x < 0 or (type(x) is float and math.copysign(1.0, x) < 0)
    return _signed(directive, negative, digits, flags, width)


@declare(
    DECLS,
    "format",
    variadic_min=1,
    doc="Java-style formatting: %s %d %f %.2f %e %x %o %b %c %n %% with width and flags.",
)
def format_(fmt: object, *args: object) -> str:
    if type(fmt) is not str:
        raise PtcError("type_error", f"format: expected a format string, got {kind_name(fmt)}")
    out: list[str] = []
    size = 0
    pos = 0
    next_arg = 0
    while True:
        start = fmt.find("%", pos)
        literal = fmt[pos:] if start < 0 else fmt[pos:start]
        out.append(literal)
        size += len(literal)
        if start < 0:
            break
        m = _DIRECTIVE.match(fmt, start)
        assert m is not None
        directive = m.group(0)
        index, flags, w, p, conv = m.groups()
        if conv not in _CONVERSIONS or not conv:
            raise _fail(directive, "unsupported conversion" if conv else "incomplete directive")
        if "#" in flags or len(set(flags)) != len(flags):
            raise _fail(directive, "unsupported flag")
        width = None if w is None else int(w[:6])
        precision = None if p is None else int(p[:6])
        if (width or 0) > MAX_WIDTH or (precision or 0) > MAX_PRECISION:
            raise _fail(directive, f"width above {MAX_WIDTH} or precision above {MAX_PRECISION}")
        if conv == "n" or conv == "%":
            text = "\n" if conv == "n" else _pad("%", width, "-" in flags)
        else:
            if index is not None:
                i = int(index[:6]) - 1
            else:
                i = next_arg
                next_arg += 1
            if i >= len(args):
                raise _fail(directive, "missing argument")
            arg = args[i]
            if type(arg) is Keyword and conv not in "sSbB":
                raise _fail(directive, f"%{conv} needs a number, got keyword")
            text = _directive(directive, flags, width, precision, conv, arg)
        out.append(text)
        size += len(text)
        if size > MAX_OUTPUT_CHARS:
            raise PtcError(
                "memory_exceeded", f"format: result exceeds {MAX_OUTPUT_CHARS} characters"
            )
        pos = m.end()
    return "".join(out)
