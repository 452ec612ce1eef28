"""Arithmetic builtins: `+ - * / inc dec quot rem mod abs max min`.

Numbers are `int` (arbitrary precision) and `float` (IEEE). Booleans and nil are type
errors, never numbers. `/` always returns a float; integer division by
zero is an `arithmetic_error`, float results follow IEEE, including overflow to
infinity.
"""

from __future__ import annotations

import math
from typing import Final

from ptc_runtime.builtins.registry import BuiltinSpec, declare, wrong_count
from ptc_runtime.collections import kind_name
from ptc_runtime.errors import PtcError
from ptc_runtime.metered import fold_each

DECLS: list[BuiltinSpec] = []

_INF: Final = math.inf
_NAN: Final = math.nan


def _is_num(x: object) -> bool:
    t = type(x)
    return t is int or t is float


def _bad(who: str, args: tuple[object, ...]) -> PtcError:
    got = ", ".join(kind_name(a) for a in args if not _is_num(a))
    return PtcError("type_error", f"{who}: expected numbers, got {got}")


def _float(x: int | float) -> float:
    """`x` as a float, with IEEE overflow to an infinity for huge integers."""
    try:
        return float(x)
    except OverflowError:
        return _INF if x > 0 else -_INF


def _add2(a: int | float, b: int | float) -> int | float:
    try:
        return a + b
    except OverflowError:  # a huge int meets a float
        return _float(a) + _float(b)


#: Largest integer product computed (integers are arbitrary precision, but a
#: program must not square its way to a gigabyte number). Checked before multiplying.
MAX_PRODUCT_BITS = 1_000_000


def _mul2(a: int | float, b: int | float) -> int | float:
    if type(a) is int and type(b) is int and a.bit_length() + b.bit_length() > MAX_PRODUCT_BITS:
        raise PtcError("memory_exceeded", f"*: integer product above {MAX_PRODUCT_BITS} bits")
    try:
        return a * b
    except OverflowError:
        return _float(a) * _float(b)


def _div2(a: int | float, b: int | float) -> float:
    # Only integer-by-integer division by zero is an error; a float operand
    # on either side makes it IEEE (Clojure: (/ 1.0 0) is ##Inf).
    if type(b) is int and type(a) is int:
        if b == 0:
            raise PtcError("arithmetic_error", "/: divide by zero")
        try:
            return a / b
        except OverflowError:
            return _float(a) / _float(b)
    fb = float(b)
    if fb == 0.0:
        fa = _float(a)
        if fa != fa or fa == 0.0:
            return _NAN
        neg = (fa < 0) != (math.copysign(1.0, fb) < 0)
        return -_INF if neg else _INF
    try:
        return a / b
    except OverflowError:
        return _float(a) / fb


@declare(DECLS, "+", variadic_min=0, doc="Sum of the numbers; (+) is 0.")
def add(*xs: object) -> object:
    if len(xs) == 2:
        a, b = xs
        if (type(a) is int or type(a) is float) and (type(b) is int or type(b) is float):
            return _add2(a, b)
    if not xs:
        return 0
    for x in xs:
        if not _is_num(x):
            raise _bad("+", xs)
    # start from the first number, not 0: (+ -0.0) is -0.0, and 0 + -0.0 would be 0.0
    total: int | float = xs[0]  # type: ignore[assignment]
    for x in xs[1:]:
        total = _add2(total, x)  # type: ignore[arg-type]
    return total


@declare(DECLS, "-", variadic_min=1, doc="Negation of one number, else left-to-right difference.")
def sub(*xs: object) -> object:
    if not xs:
        raise wrong_count("-", 0, "1 or more")
    for x in xs:
        if not _is_num(x):
            raise _bad("-", xs)
    if len(xs) == 1:
        return -xs[0]  # type: ignore[operator]
    acc = xs[0]
    for x in xs[1:]:
        try:
            acc = acc - x  # type: ignore[operator]
        except OverflowError:
            acc = _float(acc) - _float(x)  # type: ignore[arg-type]
    return acc


@declare(DECLS, "*", variadic_min=0, doc="Product of the numbers; (*) is 1.")
def mul(*xs: object) -> object:
    acc: int | float = 1
    if len(xs) > _FEW:
        # `(apply * (range 1 300000))`: each product grows, so the fold is charged one
        # step per factor and checks the deadline (`metered`), as `reduce` does
        if not all(map(_is_num, xs)):
            raise _bad("*", xs)
        return fold_each(_mul2, acc, xs)
    for x in xs:
        if not _is_num(x):
            raise _bad("*", xs)
        acc = _mul2(acc, x)  # type: ignore[arg-type]
    return acc


#: Up to this many factors `*` multiplies without charging them.
_FEW: Final = 32


@declare(
    DECLS,
    "/",
    variadic_min=1,
    doc="Reciprocal of one number, else left-to-right quotient; a float.",
)
def div(*xs: object) -> object:
    if not xs:
        raise wrong_count("/", 0, "1 or more")
    for x in xs:
        if not _is_num(x):
            raise _bad("/", xs)
    if len(xs) == 1:
        return _div2(1, xs[0])  # type: ignore[arg-type]
    acc: int | float = xs[0]  # type: ignore[assignment]
    for x in xs[1:]:
        acc = _div2(acc, x)  # type: ignore[arg-type]
    return _float(acc)


@declare(DECLS, "inc", arities=(1,), doc="x plus one.")
def inc(x: object) -> object:
    if not _is_num(x):
        raise _bad("inc", (x,))
    return _add2(x, 1)  # type: ignore[arg-type]


@declare(DECLS, "dec", arities=(1,), doc="x minus one.")
def dec(x: object) -> object:
    if not _is_num(x):
        raise _bad("dec", (x,))
    return _add2(x, -1)  # type: ignore[arg-type]


def _check_div(who: str, a: object, b: object) -> bool:
    """Validate operands; True when the float path applies."""
    if not _is_num(a) or not _is_num(b):
        raise _bad(who, (a, b))
    if type(b) is int and b == 0:
        raise PtcError("arithmetic_error", f"{who}: divide by zero")
    return type(a) is float or type(b) is float


def _int_quot(a: int, b: int) -> int:
    q = a // b
    if q < 0 and q * b != a:
        q += 1
    return q


@declare(DECLS, "quot", arities=(2,), doc="Quotient of x by y, truncated toward zero.")
def quot(a: object, b: object) -> object:
    if _check_div("quot", a, b):
        fa, fb = _float(a), _float(b)  # type: ignore[arg-type]
        if fb == 0.0 or not math.isfinite(fa) or fb != fb:
            return _NAN
        return float(math.trunc(fa / fb)) if math.isfinite(fa / fb) else fa / fb
    return _int_quot(a, b)  # type: ignore[arg-type]


@declare(DECLS, "rem", arities=(2,), doc="Remainder of x by y, with the sign of x.")
def rem(a: object, b: object) -> object:
    if _check_div("rem", a, b):
        fa, fb = _float(a), _float(b)  # type: ignore[arg-type]
        if fb == 0.0 or not math.isfinite(fa) or fb != fb:
            return _NAN
        return math.fmod(fa, fb)
    return a - b * _int_quot(a, b)  # type: ignore[operator, arg-type]


@declare(DECLS, "mod", arities=(2,), doc="Floored modulus of x by y, with the sign of y.")
def mod(a: object, b: object) -> object:
    if _check_div("mod", a, b):
        fa, fb = _float(a), _float(b)  # type: ignore[arg-type]
        if fb == 0.0 or not math.isfinite(fa) or fb != fb:
            return _NAN
        m = math.fmod(fa, fb)
        if m != 0.0 and (m < 0) != (fb < 0):
            m += fb
        return m
    return a % b  # type: ignore[operator]


@declare(DECLS, "abs", arities=(1,), doc="Absolute value.")
def abs_(x: object) -> object:
    if not _is_num(x):
        raise _bad("abs", (x,))
    return abs(x)  # type: ignore[arg-type]


def _extremum(who: str, xs: tuple[object, ...], want_max: bool) -> object:
    if len(xs) == 1:
        return xs[0]
    if not xs:
        raise wrong_count(who, 0, "1 or more")
    for x in xs:
        if not _is_num(x):
            raise _bad(who, xs)
    if any(x != x for x in xs):
        return _NAN
    best = xs[0]
    for y in xs[1:]:
        if want_max:
            best = best if best > y else y  # type: ignore[operator]
        else:
            best = best if best < y else y  # type: ignore[operator]
    return best


@declare(DECLS, "max", variadic_min=1, doc="Greatest of the numbers (NaN if any is NaN).")
def max_(*xs: object) -> object:
    return _extremum("max", xs, True)


@declare(DECLS, "min", variadic_min=1, doc="Least of the numbers (NaN if any is NaN).")
def min_(*xs: object) -> object:
    return _extremum("min", xs, False)
