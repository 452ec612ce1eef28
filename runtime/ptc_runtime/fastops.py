"""Fixed-arity fast paths for the hottest builtins, called by generated code.

`(+ a b)` on operands the compiler cannot prove numeric compiles to `rt_add2(a, b)`:
a plain two-argument function that does the common case (two numbers) with one
Python operator and otherwise defers to the registry builtin, which owns the
semantics and the error messages. Variadic builtins cost a tuple and a loop per
call; these cost one type check per operand.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from ptc_runtime.builtins import BUILTINS
from ptc_runtime.builtins.aggregation import frequencies_mapcat
from ptc_runtime.builtins.ordering import take_sort, take_sort_by
from ptc_runtime.builtins.strings_core import (
    str1,
    str_format,
    str_format1,
    str_format2,
    str_format3,
    str_format4,
)


def _builtin(name: str) -> Callable[..., Any]:
    return BUILTINS[name].fn


_add, _sub, _mul = _builtin("+"), _builtin("-"), _builtin("*")
_lt, _gt, _le, _ge = _builtin("<"), _builtin(">"), _builtin("<="), _builtin(">=")
_eq, _inc, _dec = _builtin("="), _builtin("inc"), _builtin("dec")
_SMALL: Final = 1 << 62


def add2(a: Any, b: Any) -> Any:
    ta, tb = type(a), type(b)
    if (ta is int or ta is float) and (tb is int or tb is float):
        try:
            return a + b
        except OverflowError:
            pass
    return _add(a, b)


def sub2(a: Any, b: Any) -> Any:
    ta, tb = type(a), type(b)
    if (ta is int or ta is float) and (tb is int or tb is float):
        try:
            return a - b
        except OverflowError:
            pass
    return _sub(a, b)


def mul2(a: Any, b: Any) -> Any:
    ta, tb = type(a), type(b)
    if ta is float or tb is float or (ta is int and tb is int and -_SMALL < a < _SMALL):
        # floats, or an int small enough that the product cannot approach the size cap
        # (big products go through the builtin, which checks the size first)
        if (ta is int or ta is float) and (tb is int or tb is float):
            try:
                return a * b
            except OverflowError:
                pass
    return _mul(a, b)


def lt2(a: Any, b: Any) -> Any:
    ta, tb = type(a), type(b)
    if (ta is int or ta is float) and (tb is int or tb is float):
        return a < b
    return _lt(a, b)


def gt2(a: Any, b: Any) -> Any:
    ta, tb = type(a), type(b)
    if (ta is int or ta is float) and (tb is int or tb is float):
        return a > b
    return _gt(a, b)


def le2(a: Any, b: Any) -> Any:
    ta, tb = type(a), type(b)
    if (ta is int or ta is float) and (tb is int or tb is float):
        return a <= b
    return _le(a, b)


def ge2(a: Any, b: Any) -> Any:
    ta, tb = type(a), type(b)
    if (ta is int or ta is float) and (tb is int or tb is float):
        return a >= b
    return _ge(a, b)


def eq2(a: Any, b: Any) -> Any:
    ta = type(a)
    if ta is type(b) and (ta is int or ta is str or ta is float):
        return a == b
    return _eq(a, b)


def inc1(a: Any) -> Any:
    if type(a) is int:
        return a + 1
    return _inc(a)


def dec1(a: Any) -> Any:
    if type(a) is int:
        return a - 1
    return _dec(a)


#: builtin name -> (argument count, helper global) used by lowering.
FAST_CALLS: Final[dict[str, tuple[int, str]]] = {
    "+": (2, "rt_add2"),
    "-": (2, "rt_sub2"),
    "*": (2, "rt_mul2"),
    "<": (2, "rt_lt2"),
    ">": (2, "rt_gt2"),
    "<=": (2, "rt_le2"),
    ">=": (2, "rt_ge2"),
    "=": (2, "rt_eq2"),
    "==": (2, "rt_eq2"),
    "inc": (1, "rt_inc1"),
    "dec": (1, "rt_dec1"),
}

#: `(str ...)` with string literals among at most this many parts, each literal at most
#: `STR_FORMAT_LITERAL` characters, lowers to `rt_str_format` (see `str_format`).
STR_FORMAT_PARTS: Final = 64
STR_FORMAT_LITERAL: Final = 8192
#: With 1 to this many non-literal parts, `rt_str_format1` ... `rt_str_format4` instead.
STR_FORMAT_UNROLLED: Final = 4

HELPERS: Final[dict[str, Callable[..., Any]]] = {
    "rt_add2": add2,
    "rt_take_sort": take_sort,
    "rt_take_sort_by": take_sort_by,
    "rt_frequencies_mapcat": frequencies_mapcat,
    "rt_str1": str1,
    "rt_str_format": str_format,
    "rt_str_format1": str_format1,
    "rt_str_format2": str_format2,
    "rt_str_format3": str_format3,
    "rt_str_format4": str_format4,
    "rt_sub2": sub2,
    "rt_mul2": mul2,
    "rt_lt2": lt2,
    "rt_gt2": gt2,
    "rt_le2": le2,
    "rt_ge2": ge2,
    "rt_eq2": eq2,
    "rt_inc1": inc1,
    "rt_dec1": dec1,
}
