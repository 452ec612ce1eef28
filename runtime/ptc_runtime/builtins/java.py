"""The closed Java interop surface, part 1: parsers, constants,
`Math/...`, `java.lang.String` methods and `System/currentTimeMillis`.

Entries keep their Java names (group "java", never bare) and Java semantics: errors
instead of signal values, UTF-16 code-unit indexes for String methods. Failures are
`PtcError`s whose message starts "Java interop error: ". `Math/...` returns plain
integers and floats. Constants are registered with the value itself as
the entry, so `Double/NaN` in value position is the float.
"""

from __future__ import annotations

import math
import re
import struct
import time
from collections.abc import Callable
from typing import Any, Final, cast

from ptc_runtime.builtins.math_ import java_pow, java_sqrt
from ptc_runtime.builtins.registry import BuiltinSpec, declare
from ptc_runtime.builtins.strings import java_parse_double
from ptc_runtime.collections import kind_name
from ptc_runtime.errors import PtcError

DECLS: list[BuiltinSpec] = []

_JAVA: Final = ("java",)
_LONG_MIN: Final = -(2**63)
_LONG_MAX: Final = 2**63 - 1
_INT_MIN: Final = -(2**31)
_INT_MAX: Final = 2**31 - 1
_DIGITS: Final = re.compile(r"[+-]?\d+")  # \d: Unicode digits, as Character.digit
MAX_STRING_BYTES: Final = 256_000


def java_error(code: str, message: str) -> PtcError:
    return PtcError(code, "Java interop error: " + message)


def _number_format(s: str) -> PtcError:
    shown = s if len(s) <= 40 else s[:40] + "..."
    return java_error("java_domain_error", f'NumberFormatException: For input string: "{shown}"')


def _java_declare(
    name: str, arities: tuple[int, ...], doc: str
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    return declare(DECLS, name, arities=arities, doc=doc, groups=_JAVA, bare=False)


def _string(who: str, x: object, null_ok: bool = False) -> str:
    if type(x) is str:
        if len(x) * 4 > MAX_STRING_BYTES and len(x.encode("utf-8", "surrogatepass")) > (
            MAX_STRING_BYTES
        ):
            raise java_error("invalid_java_string", f"{who}: string over {MAX_STRING_BYTES} bytes")
        return x
    if x is None:
        raise java_error("java_type_error", f"{who}: NullPointerException")
    raise java_error("java_type_error", f"{who}: expected a string, got {kind_name(x)}")


def _parse_integer(who: str, s: object, low: int, high: int) -> int:
    text = _string(who, s)
    if len(text) > 40 or _DIGITS.fullmatch(text) is None:
        raise _number_format(text)
    n = int(text)
    if not low <= n <= high:
        raise _number_format(text)
    return n


@_java_declare("Integer/parseInt", (1,), "Parse a 32-bit decimal integer (Java rules).")
def parse_int(s: object) -> int:
    return _parse_integer("Integer/parseInt", s, _INT_MIN, _INT_MAX)


@_java_declare("Long/parseLong", (1,), "Parse a 64-bit decimal integer (Java rules).")
def parse_long(s: object) -> int:
    return _parse_integer("Long/parseLong", s, _LONG_MIN, _LONG_MAX)


@_java_declare("Double/parseDouble", (1,), "Parse a double (Java grammar, hex, NaN, Infinity).")
def parse_double(s: object) -> float:
    text = _string("Double/parseDouble", s)
    value = java_parse_double(text)
    if value is None:
        raise _number_format(text)
    return value


@_java_declare("Float/parseFloat", (1,), "Parse a float, rounded to 32-bit precision.")
def parse_float(s: object) -> float:
    value: float = parse_double(s)
    if not math.isfinite(value):
        return value
    try:
        return float(struct.unpack("<f", struct.pack("<f", value))[0])
    except OverflowError:
        return math.copysign(math.inf, value)


@_java_declare("Boolean/parseBoolean", (1,), 'True iff s equals "true" ignoring case.')
def parse_boolean(s: object) -> bool:
    if s is None:
        return False
    return _string("Boolean/parseBoolean", s).lower() == "true"


#: Constants of the surface. Each entry is a zero-argument function returning the value;
#: the analyzer should lower a value-position reference to one of these names as a call.
JAVA_CONSTANTS: Final = frozenset(
    {"Double/POSITIVE_INFINITY", "Double/NEGATIVE_INFINITY", "Double/NaN"}
)


@_java_declare("Double/POSITIVE_INFINITY", (0,), "The constant ##Inf.")
def positive_infinity() -> float:
    return math.inf


@_java_declare("Double/NEGATIVE_INFINITY", (0,), "The constant ##-Inf.")
def negative_infinity() -> float:
    return -math.inf


@_java_declare("Double/NaN", (0,), "The constant ##NaN.")
def nan() -> float:
    return math.nan


def _math_number(who: str, x: object) -> int | float:
    t = type(x)
    if t is float:
        return cast(float, x)
    if t is int:
        if not _LONG_MIN <= cast(int, x) <= _LONG_MAX:
            raise java_error("java_type_error", f"{who}: integer beyond the 64-bit range")
        return cast(int, x)
    raise java_error("java_type_error", f"{who}: expected a number, got {kind_name(x)}")


@_java_declare("Math/abs", (1,), "Absolute value with Java overloads (long minimum overflows).")
def math_abs(x: object) -> int | float:
    n = _math_number("Math/abs", x)
    if n == _LONG_MIN and type(n) is int:
        return n
    return abs(n)


@_java_declare("Math/ceil", (1,), "Smallest whole number >= x, as a float.")
def math_ceil(x: object) -> float:
    f = float(_math_number("Math/ceil", x))
    return f if not math.isfinite(f) or f == 0 else math.copysign(float(math.ceil(f)), f)


@_java_declare("Math/floor", (1,), "Largest whole number <= x, as a float.")
def math_floor(x: object) -> float:
    f = float(_math_number("Math/floor", x))
    return f if not math.isfinite(f) or f == 0 else float(math.floor(f))


def _pair(who: str, a: object, b: object) -> tuple[int | float, int | float]:
    x = _math_number(who, a)
    y = _math_number(who, b)
    if type(x) is not type(y):
        raise java_error("java_type_error", f"{who}: both arguments must be integers or floats")
    return x, y


@_java_declare("Math/max", (2,), "Greater of two numbers of the same kind (Java NaN rules).")
def math_max(a: object, b: object) -> int | float:
    x, y = _pair("Math/max", a, b)
    if x != x or y != y:
        return math.nan
    if x == y == 0 and type(x) is float:
        return 0.0 if math.copysign(1, x) > 0 or math.copysign(1, y) > 0 else -0.0
    return x if x >= y else y


@_java_declare("Math/min", (2,), "Lesser of two numbers of the same kind (Java NaN rules).")
def math_min(a: object, b: object) -> int | float:
    x, y = _pair("Math/min", a, b)
    if x != x or y != y:
        return math.nan
    if x == y == 0 and type(x) is float:
        return -0.0 if math.copysign(1, x) < 0 or math.copysign(1, y) < 0 else 0.0
    return x if x <= y else y


@_java_declare("Math/pow", (2,), "b to the power e as a float (Java special cases).")
def math_pow(b: object, e: object) -> float:
    return java_pow(_math_number("Math/pow", b), _math_number("Math/pow", e))


@_java_declare("Math/round", (1,), "Float to the nearest integer, ties toward +Inf; NaN is 0.")
def math_round(x: object) -> int:
    if type(x) is not float:
        raise java_error("java_type_error", f"Math/round: expected a float, got {kind_name(x)}")
    if x != x:
        return 0
    if math.isinf(x):
        return _LONG_MAX if x > 0 else _LONG_MIN
    if abs(x) >= 2**52:  # already an integer
        return max(_LONG_MIN, min(_LONG_MAX, int(x)))
    # Java rounds floor(x + 1/2) taken exactly; x + 0.5 in floats rounds up first
    # (0.49999999999999994 + 0.5 is 1.0), x - floor(x) is exact.
    whole = math.floor(x)
    return whole + 1 if x - whole >= 0.5 else whole


@_java_declare("Math/sqrt", (1,), "Square root as a float; negative gives ##NaN.")
def math_sqrt(x: object) -> float:
    return java_sqrt(_math_number("Math/sqrt", x))


@declare(
    DECLS,
    "System/currentTimeMillis",
    arities=(0,),
    doc="Current time in epoch milliseconds.",
    groups=_JAVA,
    bare=False,
    pure=False,
)
def current_time_millis() -> int:
    return time.time_ns() // 1_000_000


# ------------------------------------------------------------------ String methods


def _units(s: str) -> str:
    """`s` as UTF-16 code units, one Python character per unit (surrogates kept apart)."""
    if all(ord(c) < 0x10000 for c in s):
        return s
    return "".join(
        c
        if ord(c) < 0x10000
        else chr(0xD800 + ((ord(c) - 0x10000) >> 10)) + chr(0xDC00 + ((ord(c) - 0x10000) & 0x3FF))
        for c in s
    )


def _from_units(u: str) -> str:
    try:
        return u.encode("utf-16-le", "surrogatepass").decode("utf-16-le")
    except UnicodeDecodeError:
        raise java_error(
            "invalid_java_string", ".substring: the slice would split a surrogate pair"
        ) from None


def _method(
    name: str, arities: tuple[int, ...], doc: str
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    return declare(DECLS, name, arities=arities, doc=doc, groups=_JAVA, bare=False)


@_method(".length", (1,), "UTF-16 length of a string.")
def length(s: object) -> int:
    return len(_units(_string(".length", s)))


@_method(".indexOf", (2, 3), "UTF-16 index of sub in s (from an index), or -1.")
def index_of(s: object, sub: object, start: object = 0) -> int:
    u = _units(_string(".indexOf", s))
    n = _units(_string(".indexOf", sub))
    i = max(0, _index(".indexOf", start))
    if i >= len(u):
        return len(u) if n == "" else -1
    return u.find(n, i)


@_method(".lastIndexOf", (2,), "UTF-16 index of the last sub in s, or -1.")
def last_index_of(s: object, sub: object) -> int:
    return _units(_string(".lastIndexOf", s)).rfind(_units(_string(".lastIndexOf", sub)))


@_method(".contains", (2,), "True if s contains sub.")
def contains(s: object, sub: object) -> bool:
    return _string(".contains", sub) in _string(".contains", s)


@_method(".startsWith", (2,), "True if s starts with prefix.")
def starts_with(s: object, sub: object) -> bool:
    return _string(".startsWith", s).startswith(_string(".startsWith", sub))


@_method(".endsWith", (2,), "True if s ends with suffix.")
def ends_with(s: object, sub: object) -> bool:
    return _string(".endsWith", s).endswith(_string(".endsWith", sub))


def _index(who: str, x: object) -> int:
    if type(x) is int:
        return x
    if type(x) is float:
        if x != x:
            return 0
        if math.isinf(x):
            raise java_error("java_type_error", f"{who}: index is infinite")
        return math.trunc(x)
    raise java_error("java_type_error", f"{who}: index must be a number, got {kind_name(x)}")


@_method(".substring", (2, 3), "UTF-16 slice from start to end; out of range raises.")
def substring(s: object, start: object, end: object = None) -> str:
    u = _units(_string(".substring", s))
    b = _index(".substring", start)
    e = len(u) if end is None else _index(".substring", end)
    if b < 0 or e > len(u) or b > e:
        raise java_error(
            "java_domain_error",
            f"StringIndexOutOfBoundsException: begin {b}, end {e}, length {len(u)}",
        )
    return _from_units(u[b:e])


@_method(".trim", (1,), "s without leading/trailing characters <= U+0020 (Java String.trim).")
def trim(s: object) -> str:
    return _string(".trim", s).strip("".join(chr(c) for c in range(0x21)))
