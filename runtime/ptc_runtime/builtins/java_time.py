"""The closed Java interop surface, part 2: dates and times.

Constructors `LocalDate/parse`, `Instant/parse`, `Duration/between` and
`java.util.Date.`, and the instance methods of those classes. Methods are owned by
class: a receiver of another class is a `java_type_error` naming the classes that do
have the method. A method name several classes share (`.isBefore`) is one entry that
dispatches on the receiver's class. The values themselves live in `ptc_runtime.temporal`.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any, Final

from ptc_runtime.builtins.registry import BuiltinSpec, declare
from ptc_runtime.errors import PtcError
from ptc_runtime.temporal import (
    LONG_MAX,
    LONG_MIN,
    Date,
    Duration,
    Instant,
    LocalDate,
    Temporal,
    java_error,
    kind,
    new_date,
    parse_instant,
    parse_local_date,
)

DECLS: list[BuiltinSpec] = []

_JAVA: Final = ("java",)
_NOW: Final = object()  # `(java.util.Date.)` without an argument


def _java(
    name: str, arities: tuple[int, ...], doc: str, pure: bool = True
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    return declare(DECLS, name, arities=arities, doc=doc, groups=_JAVA, bare=False, pure=pure)


def _no_method(method: str, x: object, owners: str) -> PtcError:
    if x is None:
        return java_error("java_type_error", f"{method}: NullPointerException (receiver is nil)")
    return java_error(
        "java_type_error", f"{method}: no such method for {kind(x)} (defined on {owners})"
    )


def _argument(method: str, want: type[Temporal], x: object) -> Any:
    if type(x) is want:
        return x
    if x is None:
        raise java_error("java_type_error", f"{method}: NullPointerException (argument is nil)")
    raise java_error(
        "java_type_error", f"{method}: expected a {want.short_name} argument, got {kind(x)}"
    )


def _java_long(method: str, x: object) -> int:
    """`n` coerced like a Java long: floats truncate, NaN is 0, out of range raises."""
    t = type(x)
    if t is float:
        if x != x:
            return 0
        if math.isinf(x):  # type: ignore[arg-type]
            raise java_error("java_type_error", f"{method}: day count is infinite")
        x = math.trunc(x)  # type: ignore[arg-type]
    elif t is not int:
        raise java_error("java_type_error", f"{method}: expected a number, got {kind(x)}")
    if not LONG_MIN <= x <= LONG_MAX:  # type: ignore[operator]
        raise java_error("java_type_error", f"{method}: day count is beyond the long range")
    return x  # type: ignore[return-value]


# ---------------------------------------------------------------- constructors


@_java("LocalDate/parse", (1,), "Parse a strict ISO date YYYY-MM-DD into a LocalDate.")
def local_date_parse(text: object) -> LocalDate:
    return parse_local_date(text)


@_java("Instant/parse", (1,), "Parse an ISO instant (Z or +HH:MM offset) into an Instant.")
def instant_parse(text: object) -> Instant:
    return parse_instant(text)


@_java("Duration/between", (2,), "The Duration from one Instant to another.")
def duration_between(start: object, end: object) -> Duration:
    a = _argument("Duration/between", Instant, start)
    b = _argument("Duration/between", Instant, end)
    return Duration(b.nanos - a.nanos)


@_java(
    "java.util.Date.",
    (0, 1),
    "A legacy Date: now, from epoch milliseconds, or from legacy text.",
    pure=False,
)
def date_new(arg: object = _NOW) -> Date:
    if arg is _NOW:
        return Date(time.time_ns() // 1_000_000)
    return new_date(arg)


# ---------------------------------------------------------------- LocalDate


@_java(".toEpochDay", (1,), "Days since 1970-01-01 of a LocalDate.")
def to_epoch_day(d: object) -> int:
    if type(d) is not LocalDate:
        raise _no_method(".toEpochDay", d, "LocalDate")
    return d.days


def _plus_days(method: str, d: object, n: object, sign: int) -> LocalDate:
    if type(d) is not LocalDate:
        raise _no_method(method, d, "LocalDate")
    days = _java_long(method, n)
    return LocalDate(d.days + sign * days)


@_java(".plusDays", (2,), "The LocalDate n days later.")
def plus_days(d: object, n: object) -> LocalDate:
    return _plus_days(".plusDays", d, n, 1)


@_java(".minusDays", (2,), "The LocalDate n days earlier.")
def minus_days(d: object, n: object) -> LocalDate:
    return _plus_days(".minusDays", d, n, -1)


def _chrono(method: str, a: object, b: object, owners: tuple[type[Temporal], ...]) -> int:
    """Compare receiver `a` with argument `b` of the same owning class: -1, 0 or 1."""
    if not isinstance(a, owners) or type(a) not in owners:  # exact class, not a subclass
        raise _no_method(method, a, " and ".join(c.short_name for c in owners))
    other = _argument(method, type(a), b)
    ka: int = a.order_key()
    kb: int = other.order_key()
    return (ka > kb) - (ka < kb)


_JAVA_TIME: Final = (LocalDate, Instant)


@_java(".isBefore", (2,), "True if LocalDate/Instant a is before b (same class).")
def is_before(a: object, b: object) -> bool:
    return _chrono(".isBefore", a, b, _JAVA_TIME) < 0


@_java(".isAfter", (2,), "True if LocalDate/Instant a is after b (same class).")
def is_after(a: object, b: object) -> bool:
    return _chrono(".isAfter", a, b, _JAVA_TIME) > 0


# ---------------------------------------------------------------- Instant and Duration


@_java(".toEpochMilli", (1,), "Epoch milliseconds of an Instant.")
def to_epoch_milli(i: object) -> int:
    if type(i) is not Instant:
        raise _no_method(".toEpochMilli", i, "Instant")
    return i.epoch_milli()


@_java(".toMillis", (1,), "Length of a Duration in milliseconds (truncated).")
def to_millis(d: object) -> int:
    if type(d) is not Duration:
        raise _no_method(".toMillis", d, "Duration")
    return d.to_millis()


@_java(".toDays", (1,), "Whole days of a Duration (truncated toward zero).")
def to_days(d: object) -> int:
    if type(d) is not Duration:
        raise _no_method(".toDays", d, "Duration")
    return d.to_days()


# ---------------------------------------------------------------- legacy Date


@_java(".getTime", (1,), "Epoch milliseconds of a java.util.Date.")
def get_time(d: object) -> int:
    if type(d) is not Date:
        raise _no_method(".getTime", d, "java.util.Date")
    return d.millis


@_java(".before", (2,), "True if java.util.Date a is before b.")
def before(a: object, b: object) -> bool:
    return _chrono(".before", a, b, (Date,)) < 0


@_java(".after", (2,), "True if java.util.Date a is after b.")
def after(a: object, b: object) -> bool:
    return _chrono(".after", a, b, (Date,)) > 0
