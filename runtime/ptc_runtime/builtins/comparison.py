"""Equality and ordering builtins: `= == not= < > <= >= compare`.

`=` is PTC equality (`equality.eq`); the numeric chains accept numbers only and are false
whenever NaN takes part; `compare` is the natural order.
"""

from __future__ import annotations

from collections.abc import Callable

from ptc_runtime.builtins.registry import BuiltinSpec, declare, wrong_count
from ptc_runtime.collections import kind_name
from ptc_runtime.equality import compare as natural_compare
from ptc_runtime.equality import eq
from ptc_runtime.errors import PtcError

DECLS: list[BuiltinSpec] = []


def _all_equal(who: str, xs: tuple[object, ...]) -> bool:
    if not xs:
        raise wrong_count(who, 0, "1 or more")
    first = xs[0]
    return all(eq(first, x) for x in xs[1:])


@declare(DECLS, "=", variadic_min=1, doc="True if all arguments are equal (1 and 1.0 are equal).")
def equal(*xs: object) -> bool:
    if len(xs) == 2:
        return eq(xs[0], xs[1])
    return _all_equal("=", xs)


@declare(DECLS, "==", variadic_min=1, doc="Same as =.")
def equal_num(*xs: object) -> bool:
    return _all_equal("==", xs)


@declare(DECLS, "not=", variadic_min=1, doc="True unless all arguments are equal.")
def not_equal(*xs: object) -> bool:
    return not _all_equal("not=", xs)


def _chain(who: str, xs: tuple[object, ...], ok: Callable[[object, object], bool]) -> bool:
    if len(xs) == 1:
        return True
    if not xs:
        raise wrong_count(who, 0, "1 or more")
    # pair by pair, as Clojure: a pair that is false ends it before later operands are
    # looked at ((< 5 3 nil) is false), a pair holding a non-number is the error
    for i in range(len(xs) - 1):
        a, b = xs[i], xs[i + 1]
        ta, tb = type(a), type(b)
        if (ta is not int and ta is not float) or (tb is not int and tb is not float):
            got = ", ".join(kind_name(x) for x in xs)
            raise PtcError("type_error", f"{who}: expected numbers, got {got}")
        if not ok(a, b):
            return False
    return True


@declare(DECLS, "<", variadic_min=1, doc="True if the numbers strictly increase.")
def lt(*xs: object) -> bool:
    return _chain("<", xs, lambda a, b: a < b)  # type: ignore[operator]


@declare(DECLS, ">", variadic_min=1, doc="True if the numbers strictly decrease.")
def gt(*xs: object) -> bool:
    return _chain(">", xs, lambda a, b: a > b)  # type: ignore[operator]


@declare(DECLS, "<=", variadic_min=1, doc="True if the numbers never decrease.")
def le(*xs: object) -> bool:
    return _chain("<=", xs, lambda a, b: a <= b)  # type: ignore[operator]


@declare(DECLS, ">=", variadic_min=1, doc="True if the numbers never increase.")
def ge(*xs: object) -> bool:
    return _chain(">=", xs, lambda a, b: a >= b)  # type: ignore[operator]


@declare(DECLS, "compare", arities=(2,), doc="-1, 0 or 1 by natural order (nil first).")
def compare(a: object, b: object) -> int:
    return natural_compare(a, b)
