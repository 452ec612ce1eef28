"""Rounding, powers and conversions: `floor ceil round trunc sqrt pow double float int long`.

Also the quote-suffixed aliases `+' -' *' inc' dec'` (integers never overflow, so
they are the plain operators). Bare `floor`/`ceil`/`round`/`trunc` return integers
and pass `##Inf`/`##NaN` through; `sqrt` and `pow` return floats with Java
`Math.sqrt`/`Math.pow` special cases (IEEE results, never an error).
"""

from __future__ import annotations

import math
from typing import Final

from ptc_runtime.builtins import arithmetic
from ptc_runtime.builtins.registry import BuiltinSpec, declare
from ptc_runtime.collections import kind_name
from ptc_runtime.errors import PtcError

DECLS: list[BuiltinSpec] = []

_INF: Final = math.inf
_NAN: Final = math.nan
_INT_MIN: Final = -(2**31)
_INT_MAX: Final = 2**31 - 1
_LONG_MIN: Final = -(2**63)
_LONG_MAX: Final = 2**63 - 1

declare(DECLS, "+'", variadic_min=0, doc="Alias of + (integers never overflow).")(arithmetic.add)
declare(DECLS, "-'", variadic_min=1, doc="Alias of - (integers never overflow).")(arithmetic.sub)
declare(DECLS, "*'", variadic_min=0, doc="Alias of * (integers never overflow).")(arithmetic.mul)
declare(DECLS, "inc'", arities=(1,), doc="Alias of inc.")(arithmetic.inc)
declare(DECLS, "dec'", arities=(1,), doc="Alias of dec.")(arithmetic.dec)


def number_arg(who: str, x: object) -> int | float:
    """`x` when it is a number (never a boolean), else a type error naming `who`."""
    t = type(x)
    if t is int or t is float:
        return x  # type: ignore[return-value]
    raise PtcError("type_error", f"{who}: expected a number, got {kind_name(x)}")


def to_float(x: int | float) -> float:
    """`x` as a float; integers too large for a float become an infinity (as Java's cast)."""
    try:
        return float(x)
    except OverflowError:
        return _INF if x > 0 else -_INF


def _rounded(who: str, x: object, op: object) -> int | float:
    n = number_arg(who, x)
    if type(n) is int:
        return n
    if n != n or n in (_INF, -_INF):
        return n
    return op(n)  # type: ignore[operator, no-any-return]


@declare(DECLS, "floor", arities=(1,), doc="Largest integer <= x (specials pass through).")
def floor(x: object) -> int | float:
    return _rounded("floor", x, math.floor)


@declare(DECLS, "ceil", arities=(1,), doc="Smallest integer >= x (specials pass through).")
def ceil(x: object) -> int | float:
    return _rounded("ceil", x, math.ceil)


def _round_half_away(f: float) -> int:
    a = abs(f)
    whole = math.floor(a)
    # a - whole is exact for floats, so halves are detected without rounding error.
    r = whole + 1 if a - whole >= 0.5 else whole
    return r if f >= 0 else -r


@declare(DECLS, "round", arities=(1,), doc="Nearest integer, halves away from zero.")
def round_(x: object) -> int | float:
    return _rounded("round", x, _round_half_away)


@declare(DECLS, "trunc", arities=(1,), doc="x truncated toward zero, as an integer.")
def trunc(x: object) -> int | float:
    return _rounded("trunc", x, math.trunc)


def java_sqrt(x: int | float) -> float:
    """Java `Math.sqrt`: negative or NaN gives NaN."""
    f = to_float(x)
    if f != f or f < 0:
        return _NAN
    return math.sqrt(f)


@declare(DECLS, "sqrt", arities=(1,), doc="Square root as a float; negative gives ##NaN.")
def sqrt(x: object) -> float:
    return java_sqrt(number_arg("sqrt", x))


def _is_odd_integer(e: float) -> bool:
    return math.isfinite(e) and e == math.floor(e) and math.fmod(e, 2.0) != 0.0


def java_pow(b: int | float, e: int | float) -> float:
    """Java `Math.pow`, including its special-value table."""
    fb = to_float(b)
    fe = to_float(e)
    if fe == 0.0:
        return 1.0
    if fe != fe or fb != fb:
        return _NAN
    if abs(fb) == 1.0 and math.isinf(fe):
        return _NAN
    try:
        return math.pow(fb, fe)
    except ZeroDivisionError:
        return -_INF if math.copysign(1.0, fb) < 0 and _is_odd_integer(fe) else _INF
    except ValueError:
        if fb == 0.0:
            return -_INF if math.copysign(1.0, fb) < 0 and _is_odd_integer(fe) else _INF
        return _NAN
    except OverflowError:
        return -_INF if fb < 0 and _is_odd_integer(fe) else _INF


@declare(DECLS, "pow", arities=(2,), doc="b to the power e as a float (Java Math.pow).")
def pow_(b: object, e: object) -> float:
    return java_pow(number_arg("pow", b), number_arg("pow", e))


@declare(DECLS, "double", arities=(1,), doc="x as a float.")
def double(x: object) -> float:
    return to_float(number_arg("double", x))


@declare(DECLS, "float", arities=(1,), doc="x as a float (64-bit; alias of double).")
def float_(x: object) -> float:
    return to_float(number_arg("float", x))


@declare(
    DECLS, "int", arities=(1,), doc="x truncated to a 32-bit integer; a character's code point."
)
def int_(x: object) -> int:
    return _truncate("int", x, _INT_MIN, _INT_MAX, "32-bit")


@declare(
    DECLS, "long", arities=(1,), doc="x truncated to a 64-bit integer; a character's code point."
)
def long_(x: object) -> int:
    return _truncate("long", x, _LONG_MIN, _LONG_MAX, "64-bit")


def _truncate(who: str, x: object, low: int, high: int, width: str) -> int:
    """`x` toward zero as an integer in [low, high] (NaN is 0, as in Java)."""
    if type(x) is str:
        if len(x) == 1:
            return ord(x)
        raise PtcError("type_error", f"{who}: expected a number or a one-character string")
    n = number_arg(who, x)
    if type(n) is float:
        if n != n:
            return 0
        if math.isinf(n):
            raise PtcError("arithmetic_error", f"{who}: integer overflow (infinite value)")
        n = math.trunc(n)
    if not low <= n <= high:
        raise PtcError("arithmetic_error", f"{who}: integer overflow (outside the {width} range)")
    return int(n)
