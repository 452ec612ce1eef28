"""Java temporal values of the interop surface: LocalDate, Instant,
Duration and the legacy java.util.Date.

Each class is immutable, slotted and hashable, equal by value within its class only,
and carries `java_class` (so `type` answers `:java_object`). `str(x)` is the Java
canonical text (`2024-01-31`, `2024-01-31T10:00:00Z`, `PT1H`,
`Tue Jan 02 10:00:00 UTC 2024`); `readable()` is the `pr-str` form, Clojure's without
the identity hash: `#object[java.time.LocalDate "2024-01-31"]`, and `#inst "..."` for
a legacy Date. `order_key()` orders two values of one class chronologically.

The parsers follow `java.time`'s strict ISO formatters; the legacy Date grammar is a
closed, bounded subset of `Date.parse`, documented on
`parse_legacy_date`. Calendar arithmetic is proleptic Gregorian over plain integers,
so the whole Java range works; a legacy Date before 1582-10-15 displays in the Julian
calendar, as Java's does. Failures are `PtcError`s with Java codes and the message
prefix "Java interop error: ".
"""

from __future__ import annotations

import re
from typing import ClassVar, Final

from ptc_runtime.errors import PtcError

LONG_MIN: Final = -(2**63)
LONG_MAX: Final = 2**63 - 1
NANOS: Final = 1_000_000_000
DAY_SECONDS: Final = 86_400
#: LocalDate.MIN / MAX as epoch days (years -999,999,999 and 999,999,999).
EPOCH_DAY_MIN: Final = -365_243_219_162
EPOCH_DAY_MAX: Final = 365_241_780_471
#: Instant.MIN / MAX epoch seconds (years -1,000,000,000 and 1,000,000,000).
INSTANT_SECONDS_MIN: Final = -31_557_014_167_219_200
INSTANT_SECONDS_MAX: Final = 31_556_889_864_403_199
#: 1582-10-15, the first Gregorian day of java.util.Date's hybrid calendar.
GREGORIAN_CUTOVER_DAY: Final = -141_427
MAX_TEXT: Final = 200

_DAY_NAMES: Final = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTH_NAMES: Final = (
    "Jan",
    "Feb",
    "Mar",
    "Apr",
    "May",
    "Jun",
    "Jul",
    "Aug",
    "Sep",
    "Oct",
    "Nov",
    "Dec",
)


def java_error(code: str, message: str) -> PtcError:
    return PtcError(code, "Java interop error: " + message)


# ---------------------------------------------------------------- calendar arithmetic


def is_leap(year: int) -> bool:
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def month_length(year: int, month: int) -> int:
    if month == 2:
        return 29 if is_leap(year) else 28
    return 30 if month in (4, 6, 9, 11) else 31


def epoch_day(year: int, month: int, day: int) -> int:
    """Days since 1970-01-01 of a proleptic Gregorian date (any integer year)."""
    y = year - (month <= 2)
    era = y // 400
    yoe = y - era * 400
    doy = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146_097 + doe - 719_468


def civil(days: int) -> tuple[int, int, int]:
    """(year, month, day) of an epoch day, proleptic Gregorian."""
    z = days + 719_468
    era = z // 146_097
    doe = z - era * 146_097
    yoe = (doe - doe // 1460 + doe // 36_524 - doe // 146_096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    day = doy - (153 * mp + 2) // 5 + 1
    month = mp + 3 if mp < 10 else mp - 9
    return yoe + era * 400 + (month <= 2), month, day


def julian(days: int) -> tuple[int, int, int]:
    """(year, month, day) of an epoch day in the Julian calendar (year 0 = 1 BC)."""
    c = days + 2_440_588 + 32_082
    d = (4 * c + 3) // 1461
    e = c - (1461 * d) // 4
    m = (5 * e + 2) // 153
    return d - 4800 + m // 10, m + 3 - 12 * (m // 10), e - (153 * m + 2) // 5 + 1


def _year_text(year: int) -> str:
    """ISO year as java.time prints it: 4 digits, a sign beyond them."""
    if abs(year) < 1000:
        return ("-" if year < 0 else "") + f"{abs(year):04d}"
    return ("+" if year > 9999 else "") + str(year)


def _java_div(a: int, b: int) -> int:
    """Java `/` on longs: truncates toward zero."""
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def _check_long(value: int, what: str) -> int:
    if not LONG_MIN <= value <= LONG_MAX:
        raise java_error("java_domain_error", f"{what}: ArithmeticException: long overflow")
    return value


# ---------------------------------------------------------------- value classes


class Temporal:
    """Base of the four Java value classes: value equality within one class."""

    __slots__ = ()
    java_class: ClassVar[str] = ""
    short_name: ClassVar[str] = ""

    def order_key(self) -> int:
        raise NotImplementedError

    def readable(self) -> str:
        return f'#object[{self.java_class} "{self}"]'

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.order_key() == other.order_key()

    def __hash__(self) -> int:
        return hash((self.java_class, self.order_key()))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{self.short_name} is immutable")

    def __repr__(self) -> str:
        return self.readable()

    def __reduce__(self) -> tuple[type[Temporal], tuple[int]]:
        return type(self), (self.order_key(),)


class LocalDate(Temporal):
    """A date without time zone, held as its epoch day."""

    __slots__ = ("days",)
    java_class: ClassVar[str] = "java.time.LocalDate"
    short_name: ClassVar[str] = "LocalDate"
    days: int

    def __init__(self, days: int) -> None:
        if not EPOCH_DAY_MIN <= days <= EPOCH_DAY_MAX:
            raise java_error(
                "java_domain_error", "DateTimeException: LocalDate out of the supported range"
            )
        object.__setattr__(self, "days", days)

    def order_key(self) -> int:
        return self.days

    def __str__(self) -> str:
        y, m, d = civil(self.days)
        return f"{_year_text(y)}-{m:02d}-{d:02d}"


class Instant(Temporal):
    """A point on the UTC time line, held as epoch nanoseconds."""

    __slots__ = ("nanos",)
    java_class: ClassVar[str] = "java.time.Instant"
    short_name: ClassVar[str] = "Instant"
    nanos: int

    def __init__(self, nanos: int) -> None:
        if not INSTANT_SECONDS_MIN <= nanos // NANOS <= INSTANT_SECONDS_MAX:
            raise java_error(
                "java_domain_error", "DateTimeException: Instant exceeds minimum or maximum"
            )
        object.__setattr__(self, "nanos", nanos)

    def order_key(self) -> int:
        return self.nanos

    def epoch_milli(self) -> int:
        return _check_long(self.nanos // 1_000_000, ".toEpochMilli")

    def __str__(self) -> str:
        seconds, nano = divmod(self.nanos, NANOS)
        days, secs = divmod(seconds, DAY_SECONDS)
        y, m, d = civil(days)
        hh, rest = divmod(secs, 3600)
        mm, ss = divmod(rest, 60)
        text = f"{_year_text(y)}-{m:02d}-{d:02d}T{hh:02d}:{mm:02d}:{ss:02d}"
        if nano:
            if nano % 1_000_000 == 0:
                text += f".{nano // 1_000_000:03d}"
            elif nano % 1000 == 0:
                text += f".{nano // 1000:06d}"
            else:
                text += f".{nano:09d}"
        return text + "Z"


class Duration(Temporal):
    """An amount of time, held as signed nanoseconds."""

    __slots__ = ("nanos",)
    java_class: ClassVar[str] = "java.time.Duration"
    short_name: ClassVar[str] = "Duration"
    nanos: int

    def __init__(self, nanos: int) -> None:
        object.__setattr__(self, "nanos", nanos)

    def order_key(self) -> int:
        return self.nanos

    def to_millis(self) -> int:
        return _check_long(_java_div(self.nanos, 1_000_000), ".toMillis")

    def to_days(self) -> int:
        return _java_div(self.nanos // NANOS, DAY_SECONDS)

    def __str__(self) -> str:
        """`Duration.toString`: PT[nH][nM][n.nnnS], Java's sign conventions."""
        if self.nanos == 0:
            return "PT0S"
        seconds, nano = divmod(self.nanos, NANOS)
        effective = seconds + 1 if seconds < 0 and nano > 0 else seconds
        hours = _java_div(effective, 3600)
        minutes = _java_div(effective - hours * 3600, 60)
        secs = effective - hours * 3600 - minutes * 60
        out = "PT"
        if hours:
            out += f"{hours}H"
        if minutes:
            out += f"{minutes}M"
        if secs == 0 and nano == 0 and len(out) > 2:
            return out
        out += "-0" if seconds < 0 and nano > 0 and secs == 0 else str(secs)
        if nano > 0:
            frac = str(2 * NANOS - nano if seconds < 0 else nano + NANOS).rstrip("0")
            out += "." + frac[1:]
        return out + "S"


class Date(Temporal):
    """A legacy java.util.Date: epoch milliseconds, displayed in UTC."""

    __slots__ = ("millis",)
    java_class: ClassVar[str] = "java.util.Date"
    short_name: ClassVar[str] = "java.util.Date"
    millis: int

    def __init__(self, millis: int) -> None:
        object.__setattr__(self, "millis", millis)

    def order_key(self) -> int:
        return self.millis

    def _fields(self) -> tuple[int, int, int, int, int, int, int]:
        """(year of era, month, day, hour, minute, second, weekday 0=Mon) in UTC."""
        days, ms = divmod(self.millis, DAY_SECONDS * 1000)
        y, m, d = civil(days) if days >= GREGORIAN_CUTOVER_DAY else julian(days)
        secs = ms // 1000
        return (y if y > 0 else 1 - y, m, d, secs // 3600, secs // 60 % 60, secs % 60,
                (days + 3) % 7)  # fmt: skip

    def __str__(self) -> str:
        y, m, d, hh, mm, ss, wd = self._fields()
        day = f"{_DAY_NAMES[wd]} {_MONTH_NAMES[m - 1]} {d:02d}"
        return f"{day} {hh:02d}:{mm:02d}:{ss:02d} UTC {y}"

    def readable(self) -> str:
        y, m, d, hh, mm, ss, _wd = self._fields()
        ms = self.millis % 1000
        return f'#inst "{y:04d}-{m:02d}-{d:02d}T{hh:02d}:{mm:02d}:{ss:02d}.{ms:03d}-00:00"'


# ---------------------------------------------------------------- ISO parsing

_ISO_DATE: Final = r"([+-]?)([0-9]{4,10})-([0-9]{2})-([0-9]{2})"
_LOCAL_DATE_RE: Final = re.compile(_ISO_DATE)
_INSTANT_RE: Final = re.compile(
    _ISO_DATE + r"[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]{0,9}))?"
    r"(?:([Zz])|([+-])([0-9]{2}):([0-9]{2})(?::([0-9]{2}))?)"
)


def _parse_failure(who: str, text: str) -> PtcError:
    shown = text if len(text) <= 60 else text[:60] + "..."
    return java_error(
        "java_domain_error", f"{who}: DateTimeParseException: Text '{shown}' could not be parsed"
    )


def _text(who: str, x: object) -> str:
    if type(x) is str:
        if len(x) > MAX_TEXT:
            raise _parse_failure(who, x)
        return x
    if x is None:
        raise java_error("java_type_error", f"{who}: NullPointerException: text is nil")
    raise java_error("java_type_error", f"{who}: expected a string, got {kind(x)}")


def _iso_date(
    who: str, text: str, sign: str, year_digits: str, mo: str, dd: str, max_year: int = 999_999_999
) -> int:
    """Epoch day of ISO_LOCAL_DATE fields, with its strict sign and range rules.

    `Instant/parse` reads the year unresolved (`max_year` 10**9), as java.time does,
    and checks the Instant range afterwards.
    """
    if sign != "-" and (sign == "+") != (len(year_digits) > 4):
        raise _parse_failure(who, text)
    year = int(year_digits)
    if sign == "-":
        if year == 0:
            raise _parse_failure(who, text)
        year = -year
    month, day = int(mo), int(dd)
    if year > max_year or year < -max_year or not 1 <= month <= 12:
        raise _parse_failure(who, text)
    if not 1 <= day <= month_length(year, month):
        raise _parse_failure(who, text)
    return epoch_day(year, month, day)


def parse_local_date(x: object) -> LocalDate:
    """`LocalDate/parse`: strict ISO `YYYY-MM-DD` (java.time ISO_LOCAL_DATE)."""
    text = _text("LocalDate/parse", x)
    m = _LOCAL_DATE_RE.fullmatch(text)
    if m is None:
        raise _parse_failure("LocalDate/parse", text)
    sign, year, month, day = m.groups()
    return LocalDate(_iso_date("LocalDate/parse", text, sign, year, month, day))


def parse_instant(x: object) -> Instant:
    """`Instant/parse`: ISO_INSTANT with `Z` or `+HH:MM[:SS]`, 0-9 fraction digits.

    `24:00:00` (no fraction) rolls over to the next day; a leap second `23:59:60`
    reads as `23:59:59`, keeping its fraction, as java.time does.
    """
    who = "Instant/parse"
    text = _text(who, x)
    m = _INSTANT_RE.fullmatch(text)
    if m is None:
        raise _parse_failure(who, text)
    sign, yd, mo, dd, hs, ms, ss, frac, zulu, osign, oh, om, osec = m.groups()
    days = _iso_date(who, text, sign, yd, mo, dd, 1_000_000_000)
    hour, minute, second = int(hs), int(ms), int(ss)
    nano = int((frac or "").ljust(9, "0"))
    if hour == 24 and minute == 0 and second == 0 and nano == 0:
        hour, days = 0, days + 1
    elif hour == 23 and minute == 59 and second == 60:
        second = 59
    if hour > 23 or minute > 59 or second > 59:
        raise _parse_failure(who, text)
    offset = 0
    if zulu is None:
        oh_, om_, os_ = int(oh), int(om), int(osec or "0")
        if oh_ > 18 or om_ > 59 or os_ > 59:
            raise _parse_failure(who, text)
        offset = oh_ * 3600 + om_ * 60 + os_
        if offset > 18 * 3600:
            raise _parse_failure(who, text)
        if osign == "-":
            offset = -offset
    seconds = days * DAY_SECONDS + hour * 3600 + minute * 60 + second - offset
    if not INSTANT_SECONDS_MIN <= seconds <= INSTANT_SECONDS_MAX:
        raise _parse_failure(who, text)
    return Instant(seconds * NANOS + nano)


# ---------------------------------------------------------------- legacy Date grammar

_MONTHS: Final = {
    name: i + 1
    for i, full in enumerate(
        (
            "january",
            "february",
            "march",
            "april",
            "may",
            "june",
            "july",
            "august",
            "september",
            "october",
            "november",
            "december",
        )
    )
    for name in (full, full[:3])
}
_DAYS: Final = (
    r"(?:mon(?:day)?|tue(?:sday)?|wed(?:nesday)?|thu(?:rsday)?|fri(?:day)?|sat(?:urday)?"
    r"|sun(?:day)?)"
)
_MONTH: Final = r"(?P<mon>[a-z]{3,9})"
_TIME: Final = r"(?P<h>[0-9]{1,2}):(?P<mi>[0-9]{2})(?::(?P<s>[0-9]{2}))?"
_ZONE: Final = (
    r"(?P<zone>(?:gmt|utc|ut)(?:[+-][0-9]{2}:?[0-9]{2})?|[+-][0-9]{2}:?[0-9]{2}|[ecmp][sd]t|z)"
)
_YEAR: Final = r"(?P<y>[0-9]{4,9})"
_DAY: Final = r"(?P<d>[0-9]{1,2})"
#: `[Dow] Mon DD HH:MM[:SS] [Zone] YYYY` (Date.toString) and
#: `[Dow[,]] DD Mon YYYY [HH:MM[:SS]] [Zone]` (RFC 1123 / toGMTString).
_LEGACY: Final = (
    re.compile(rf"(?:{_DAYS},? +)?{_MONTH} +{_DAY} +{_TIME}(?: +{_ZONE})? +{_YEAR}"),
    re.compile(rf"(?:{_DAYS},? +)?{_DAY} +{_MONTH} +{_YEAR}(?: +{_TIME})?(?: +{_ZONE})?"),
)
_US_ZONES: Final = {"e": -5, "c": -6, "m": -7, "p": -8}
_ZONE_NAME: Final = re.compile(r"^(?:gmt|utc|ut)")


def _zone_offset_minutes(zone: str | None) -> int:
    if zone is None or zone in ("gmt", "utc", "ut", "z"):
        return 0
    if zone[0] in _US_ZONES and len(zone) == 3:
        return (_US_ZONES[zone[0]] + (zone[1] == "d")) * 60
    numeric = _ZONE_NAME.sub("", zone).replace(":", "")
    hours, minutes = int(numeric[1:3]), int(numeric[3:5])
    if hours > 23 or minutes > 59:
        raise ValueError(zone)
    total = hours * 60 + minutes
    return -total if numeric[0] == "-" else total


def parse_legacy_date(text: str) -> Date:
    """`(java.util.Date. "text")`: the closed legacy grammar of DIV-51.

    Accepted, case-insensitively, with single or repeated spaces: the `Date.toString`
    shape `[Dow] Mon DD HH:MM[:SS] [Zone] YYYY` (`Tue Jan 02 10:00:00 GMT 2024`) and the
    RFC 1123 shape `[Dow[,]] DD Mon YYYY [HH:MM[:SS]] [Zone]`. Month and day names are
    English, full or three letters (the day name is not checked against the date);
    Zone is GMT/UTC/UT/Z with an optional `+HHMM`/`+HH:MM`, a bare `+HHMM`, or one of
    EST EDT CST CDT MST MDT PST PDT; no zone means UTC. The year has 4 to 9 digits,
    fields are range-checked (no rollover) and the date must be >= 1582-10-15. ISO
    text and everything else raise an IllegalArgumentException (`java_domain_error`).
    """
    who = "java.util.Date."
    lowered = text.strip().lower()
    for pattern in _LEGACY:
        m = pattern.fullmatch(lowered)
        if m is not None:
            break
    else:
        raise _illegal(who, text)
    month = _MONTHS.get(m["mon"])
    year, day = int(m["y"]), int(m["d"])
    hour = int(m["h"] or 0)
    minute = int(m["mi"] or 0)
    second = int(m["s"] or 0)
    if month is None or not 1 <= day <= month_length(year, month):
        raise _illegal(who, text)
    if hour > 23 or minute > 59 or second > 59:
        raise _illegal(who, text)
    try:
        offset = _zone_offset_minutes(m["zone"])
    except ValueError:
        raise _illegal(who, text) from None
    days = epoch_day(year, month, day)
    if days < GREGORIAN_CUTOVER_DAY:
        raise java_error(
            "java_domain_error", f"{who}: IllegalArgumentException: dates before 1582-10-15"
        )
    millis = ((days * DAY_SECONDS + hour * 3600 + minute * 60 + second) - offset * 60) * 1000
    return Date(_check_long(millis, who))


def _illegal(who: str, text: str) -> PtcError:
    shown = text if len(text) <= 60 else text[:60] + "..."
    return java_error(
        "java_domain_error",
        f'{who}: IllegalArgumentException: cannot parse "{shown}" as a legacy date'
        ' (expected e.g. "Tue Jan 02 10:00:00 GMT 2024"; ISO text is not accepted)',
    )


def new_date(x: object) -> Date:
    """`(java.util.Date. millis)` or `(java.util.Date. "legacy text")`."""
    t = type(x)
    if t is int:
        if not LONG_MIN <= x <= LONG_MAX:  # type: ignore[operator]
            raise java_error("java_type_error", "java.util.Date.: millis beyond the long range")
        return Date(x)  # type: ignore[arg-type]
    if t is str:
        return parse_legacy_date(_text("java.util.Date.", x))
    if x is None:
        raise java_error("java_type_error", "java.util.Date.: NullPointerException")
    raise java_error(
        "java_type_error",
        f"java.util.Date.: expected epoch milliseconds (an integer) or a string, got {kind(x)}",
    )


def kind(x: object) -> str:
    """The kind of `x` for Java messages: the Java class of a temporal value."""
    if isinstance(x, Temporal):
        return x.short_name
    from ptc_runtime.collections import kind_name  # collections imports us via equality

    return kind_name(x)
