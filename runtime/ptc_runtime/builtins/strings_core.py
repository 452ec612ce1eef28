"""Core string builtins: `str pr-str subs`.

Strings index by Unicode code point. `str` of nil is "", keywords keep
their colon, floats print as Java does.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from ptc_runtime.builtins.registry import BuiltinSpec, declare
from ptc_runtime.collections import kind_name
from ptc_runtime.errors import PtcError
from ptc_runtime.printer import format_float, format_int
from ptc_runtime.printer import pr_str as print_readably
from ptc_runtime.printer import str_ as print_display

DECLS: list[BuiltinSpec] = []

#: Longest text `str`/`pr-str` build from one collection before failing.
MAX_PRINT_CHARS: Final = 10_000_000


def _bounded(text: str) -> str:
    if len(text) > MAX_PRINT_CHARS:
        raise PtcError("memory_exceeded", f"printed text exceeds {MAX_PRINT_CHARS} characters")
    return text


@declare(DECLS, "str", variadic_min=0, doc='Concatenation of the display text of xs (nil is "").')
def str_(*xs: object) -> str:
    n = len(xs)
    if n == 1 and type(xs[0]) is str:
        return xs[0]
    if n <= _FEW:
        # Parts that print as Python's `%s` does: short strings, ints (over the
        # interpreter's digit limit `%` raises ValueError: part by part, with its error),
        # floats where `repr` is Java's text. Then one C-level formatting of all parts, its
        # length checked after (a printed int may be long when a host lifts the limit).
        for x in xs:
            t = type(x)
            if t is str:
                if len(x) <= _SHORT:  # type: ignore[arg-type]
                    continue
            elif t is int:
                continue
            elif t is float:
                if 1e-3 <= x < 1e7 or -1e7 < x <= -1e-3 or x == 0:  # type: ignore[operator]
                    continue
            break
        else:
            try:
                text = _FORMATS[n] % xs
            except ValueError:
                return _checked_str(xs)
            if len(text) <= MAX_PRINT_CHARS:
                return text
            return _checked_str(xs)
    # the common parts inline; on an error, or a total that might be over the bound,
    # `_checked_str` builds it again (its text, or what it raises, in its order)
    parts: list[str] = []
    append = parts.append
    long = len(xs) > _FEW  # below: with few short parts the total is far under the bound
    try:
        for x in xs:
            t = type(x)
            if t is str:
                if len(x) > _SHORT:  # type: ignore[arg-type]
                    long = True
                append(x)  # type: ignore[arg-type]
            elif t is float and (1e-3 <= x < 1e7 or -1e7 < x <= -1e-3):  # type: ignore[operator]
                append(repr(x))  # what `format_float` gives in this range, without its checks
            elif t is int:
                # `format_int` inline: over the interpreter's digit limit `str` raises
                # ValueError (handled below); a host may lift the limit, hence the length
                text = str(x)
                if len(text) > _SHORT:
                    long = True
                append(text)
            else:
                text = _display(x)
                if len(text) > _SHORT:
                    long = True
                append(text)
    except (PtcError, ValueError):  # ValueError: an int too long to print
        return _checked_str(xs)
    if long and sum(map(len, parts)) > MAX_PRINT_CHARS:  # before join allocates
        return _checked_str(xs)
    return "".join(parts)


def str1(x: object) -> str:
    """`str_(x)`, `(str x)` (the compiler calls this): a string as it is (even one over the
    bound, as `str_` gives it), an int or a float where `repr` is Java's text printed at
    once, anything else by `str_`."""
    t = type(x)
    if t is str:
        return x  # type: ignore[return-value]
    if t is int:
        try:
            return f"{x}"  # `str_` gives one int's text whatever its length
        except ValueError:  # over the interpreter's digit limit: `str_` raises its error
            pass
    elif t is float and (1e-3 <= x < 1e7 or -1e7 < x <= -1e-3 or x == 0):  # type: ignore[operator]
        return f"{x}"  # `repr`
    return str_(x)


def str_format(fmt: str, *xs: object) -> str:
    """`(str ...)` with string literals among its parts (the compiler calls this): `fmt` is
    the literals with `%` doubled and `%s` for each of the other parts, `xs`.

    The same text and errors as `str_` of all the parts: when the parts print as `%s`
    prints them (as in `str_`'s fast path), one formatting, its length checked after;
    otherwise `str_` of the literals and parts in their order. `str_format1` to
    `str_format4` do the same for that many parts, with the test of each part unrolled.
    """
    for x in xs:
        t = type(x)
        if t is str:
            if len(x) <= _SHORT:  # type: ignore[arg-type]
                continue
        elif t is int:
            continue
        elif t is float:
            if 1e-3 <= x < 1e7 or -1e7 < x <= -1e-3 or x == 0:  # type: ignore[operator]
                continue
        break
    else:
        try:
            text = fmt % xs
        except ValueError:  # an int over the interpreter's digit limit
            return _format_by_parts(fmt, xs)
        if len(text) <= MAX_PRINT_CHARS:
            return text
    return _format_by_parts(fmt, xs)


# `str_format` for one to four parts: a positional call (cheaper than packing `*xs`) and
# each part tested inline, as `str_format`'s loop does: a string of at most `_SHORT`
# characters, an int (a too-long one raises ValueError in `%`) or a float where `repr` is
# Java's text. Measured: ~35 ns a part and ~50 ns a call less than the loop.


def str_format1(fmt: str, a: object) -> str:
    """`str_format(fmt, a)`."""
    t = type(a)
    if (
        (t is str and len(a) <= _SHORT)  # type: ignore[arg-type]
        or t is int
        or (t is float and (1e-3 <= a < 1e7 or -1e7 < a <= -1e-3 or a == 0))  # type: ignore[operator]
    ):
        try:
            text = fmt % a
        except ValueError:
            return _format_by_parts(fmt, (a,))
        if len(text) <= MAX_PRINT_CHARS:
            return text
    return _format_by_parts(fmt, (a,))


def str_format2(fmt: str, a: object, b: object) -> str:
    """`str_format(fmt, a, b)`."""
    t = type(a)
    if (
        (t is str and len(a) <= _SHORT)  # type: ignore[arg-type]
        or t is int
        or (t is float and (1e-3 <= a < 1e7 or -1e7 < a <= -1e-3 or a == 0))  # type: ignore[operator]
    ):
        t = type(b)
        if (
            (t is str and len(b) <= _SHORT)  # type: ignore[arg-type]
            or t is int
            or (t is float and (1e-3 <= b < 1e7 or -1e7 < b <= -1e-3 or b == 0))  # type: ignore[operator]
        ):
            try:
                text = fmt % (a, b)
            except ValueError:
                return _format_by_parts(fmt, (a, b))
            if len(text) <= MAX_PRINT_CHARS:
                return text
    return _format_by_parts(fmt, (a, b))


def str_format3(fmt: str, a: object, b: object, c: object) -> str:
    """`str_format(fmt, a, b, c)`."""
    t = type(a)
    if (
        (t is str and len(a) <= _SHORT)  # type: ignore[arg-type]
        or t is int
        or (t is float and (1e-3 <= a < 1e7 or -1e7 < a <= -1e-3 or a == 0))  # type: ignore[operator]
    ):
        t = type(b)
        if (
            (t is str and len(b) <= _SHORT)  # type: ignore[arg-type]
            or t is int
            or (t is float and (1e-3 <= b < 1e7 or -1e7 < b <= -1e-3 or b == 0))  # type: ignore[operator]
        ):
            t = type(c)
            if (
                (t is str and len(c) <= _SHORT)  # type: ignore[arg-type]
                or t is int
                or (t is float and (1e-3 <= c < 1e7 or -1e7 < c <= -1e-3 or c == 0))  # type: ignore[operator]
            ):
                try:
                    text = fmt % (a, b, c)
                except ValueError:
                    return _format_by_parts(fmt, (a, b, c))
                if len(text) <= MAX_PRINT_CHARS:
                    return text
    return _format_by_parts(fmt, (a, b, c))


def str_format4(fmt: str, a: object, b: object, c: object, d: object) -> str:
    """`str_format(fmt, a, b, c, d)`."""
    t = type(a)
    if (
        (t is str and len(a) <= _SHORT)  # type: ignore[arg-type]
        or t is int
        or (t is float and (1e-3 <= a < 1e7 or -1e7 < a <= -1e-3 or a == 0))  # type: ignore[operator]
    ):
        t = type(b)
        if (
            (t is str and len(b) <= _SHORT)  # type: ignore[arg-type]
            or t is int
            or (t is float and (1e-3 <= b < 1e7 or -1e7 < b <= -1e-3 or b == 0))  # type: ignore[operator]
        ):
            t = type(c)
            if (
                (t is str and len(c) <= _SHORT)  # type: ignore[arg-type]
                or t is int
                or (t is float and (1e-3 <= c < 1e7 or -1e7 < c <= -1e-3 or c == 0))  # type: ignore[operator]
            ):
                t = type(d)
                if (
                    (t is str and len(d) <= _SHORT)  # type: ignore[arg-type]
                    or t is int
                    or (t is float and (1e-3 <= d < 1e7 or -1e7 < d <= -1e-3 or d == 0))  # type: ignore[operator]
                ):
                    try:
                        text = fmt % (a, b, c, d)
                    except ValueError:
                        return _format_by_parts(fmt, (a, b, c, d))
                    if len(text) <= MAX_PRINT_CHARS:
                        return text
    return _format_by_parts(fmt, (a, b, c, d))


def _format_by_parts(fmt: str, xs: tuple[object, ...]) -> str:
    """`str_` of the literals of `fmt` and the parts `xs` in their order."""
    pieces = _literal_pieces(fmt)
    parts: list[object] = [pieces[0]]
    for x, piece in zip(xs, pieces[1:], strict=True):
        parts.append(x)
        parts.append(piece)
    return str_(*parts)


@lru_cache(maxsize=256)
def _literal_pieces(fmt: str) -> tuple[str, ...]:
    """The literal text around each `%s` of a `str_format` format (`%%` is one `%`)."""
    pieces: list[str] = []
    current: list[str] = []
    i = 0
    while i < len(fmt):
        if fmt[i] == "%":
            if fmt[i + 1] == "%":
                current.append("%")
            else:  # `%s`
                pieces.append("".join(current))
                current = []
            i += 2
        else:
            current.append(fmt[i])
            i += 1
    pieces.append("".join(current))
    return tuple(pieces)


#: `str` sums its parts' lengths only with more than `_FEW` parts or one over `_SHORT`
#: characters (`_FEW * _SHORT` is far below `MAX_PRINT_CHARS`).
_FEW: Final = 64
_SHORT: Final = 8192
#: `"%s" * n`: the format of `n` parts that print as `%s` prints them.
_FORMATS: Final = tuple("%s" * n for n in range(_FEW + 1))
#: Ints printed by `%s` in `str`'s fast path: far below the interpreter's digit limit.
_SMALL_INT: Final = 10**18


def _display(x: object) -> str:
    """The `str` text of one non-string value (as `_checked_str` builds it)."""
    t = type(x)
    if t is float:
        return format_float(x, readable=False)  # type: ignore[arg-type]
    if t is int:
        return format_int(x)  # type: ignore[arg-type]
    if x is None:
        return ""
    return _bounded(print_display(x, MAX_PRINT_CHARS))


def _checked_str(xs: tuple[object, ...]) -> str:
    """`str` checking each part and the total against the bound as it goes."""
    parts: list[str] = []
    for x in xs:  # the common atoms inline, the same text `print_display` gives
        t = type(x)
        if t is str:
            if len(x) > MAX_PRINT_CHARS:  # type: ignore[arg-type]
                _bounded(x)  # type: ignore[arg-type]
            parts.append(x)  # type: ignore[arg-type]
        elif t is int:
            parts.append(format_int(x))  # type: ignore[arg-type]
        elif t is float:
            parts.append(format_float(x, readable=False))  # type: ignore[arg-type]
        elif x is not None:
            parts.append(_bounded(print_display(x, MAX_PRINT_CHARS)))
    if len(parts) > 1 and sum(map(len, parts)) > MAX_PRINT_CHARS:  # before join allocates
        raise PtcError("memory_exceeded", f"str: result exceeds {MAX_PRINT_CHARS} characters")
    return "".join(parts)


@declare(DECLS, "pr-str", variadic_min=0, doc="Readable text of xs separated by spaces.")
def pr_str(*xs: object) -> str:
    return " ".join(_bounded(print_readably(x, MAX_PRINT_CHARS)) for x in xs)


def _int_arg(who: str, x: object) -> int:
    if type(x) is int:
        return x
    raise PtcError("type_error", f"{who}: index must be an integer, got {kind_name(x)}")


@declare(DECLS, "subs", arities=(2, 3), doc="Substring from start to end (clamped, never fails).")
def subs(s: object, start: object, end: object = None) -> str:
    if type(s) is not str:
        raise PtcError("type_error", f"subs: expected a string, got {kind_name(s)}")
    n = len(s)
    b = _int_arg("subs", start)
    e = n if end is None else _int_arg("subs", end)
    if b < 0 or b >= n or e <= b:
        return ""
    return s[b : min(e, n)]
