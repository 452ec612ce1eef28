"""String builtins (besides `str pr-str subs` and `format`).

Indexes are Unicode code points. Clojure-named functions return signal
values for bad *data* where Clojure's do (`parse-long` gives nil, `index-of`
gives nil) and raise `type_error` for a non-string receiver. Whitespace is Java's
`Character.isWhitespace` set, as `clojure.string/trim` uses.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final, cast

from ptc_runtime.builtins.regex_ import (
    MAX_RESULT_CHARS,
    java_split,
    match_value,
    replace_regex,
    split_literal,
    string_arg,
)
from ptc_runtime.builtins.registry import BuiltinSpec, declare
from ptc_runtime.builtins.strings_extra import split_limit
from ptc_runtime.collections import is_map, is_vector, kind_name, seq_items
from ptc_runtime.errors import PtcError
from ptc_runtime.lookup import NOT_FOUND, get_flexible
from ptc_runtime.printer import str_ as display
from ptc_runtime.regexp import Regex, compile_regex
from ptc_runtime.values import Keyword, keyword

DECLS: list[BuiltinSpec] = []

_BOTH: Final = ("core", "string")

#: Java `Character.isWhitespace`.
JAVA_WHITESPACE: Final = frozenset(
    "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
    "\u2008\u2009\u200a\u2028\u2029\u205f\u3000"
)
_KEYWORD_NAME: Final = re.compile(r"[A-Za-z0-9+\-*<>=?!_]+")
_LONG: Final = re.compile(r"[+-]?\d+")  # \d: Unicode digits, as Long/valueOf
_LONG_MIN: Final = -(2**63)
_LONG_MAX: Final = 2**63 - 1
#: Java `Double.valueOf` grammar (without the surrounding whitespace).
_JAVA_DOUBLE: Final = re.compile(
    r"[+-]?(?:NaN|Infinity|(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
    r"|0[xX](?:[0-9a-fA-F]+\.?|[0-9a-fA-F]*\.[0-9a-fA-F]+)[pP][+-]?[0-9]+)[fFdD]?)"
)
_MAX_NUMBER_TEXT: Final = 10_000


def java_parse_double(s: str) -> float | None:
    """Java `Double.parseDouble` of `s`, or None when Java would throw."""
    if len(s) > _MAX_NUMBER_TEXT:  # a limit, not "not a number": say so (no silent limit)
        raise PtcError(
            "memory_exceeded",
            f"number text of {len(s)} characters is more than the limit of {_MAX_NUMBER_TEXT}",
        )
    text = s.strip("".join(chr(c) for c in range(0x21)))
    if _JAVA_DOUBLE.fullmatch(text) is None:
        return None
    if text[-1] in "fFdD":  # a type suffix: hex digits cannot end the text (pP exponent)
        text = text[:-1]
    if "NaN" in text:
        return float("nan")
    if "Infinity" in text:
        return float("-inf") if text[0] == "-" else float("inf")
    if "x" in text.lower():
        sign = -1.0 if text[0] == "-" else 1.0
        body = text.lstrip("+-")
        try:
            return sign * float.fromhex(body)
        except (ValueError, OverflowError):
            return sign * float("inf")
    try:
        return float(text)
    except (ValueError, OverflowError):
        return None


def parse_long_text(s: str) -> int | None:
    """A whole-string signed decimal integer in the Java long range, else None."""
    if len(s) > 21 or _LONG.fullmatch(s) is None:
        return None
    n = int(s)
    return n if _LONG_MIN <= n <= _LONG_MAX else None


def _checked_size(who: str, size: int) -> None:
    if size > MAX_RESULT_CHARS:
        raise PtcError("memory_exceeded", f"{who}: result exceeds {MAX_RESULT_CHARS} characters")


@declare(
    DECLS,
    "join",
    arities=(1, 2),
    doc="Concatenate the str of each element, with an optional separator.",
    groups=_BOTH,
)
def join(a: object, b: object = NOT_FOUND) -> str:
    # a string joins its characters, as in Clojure
    sep, coll = ("", a) if b is NOT_FOUND else (a, b)
    sep_text = display(sep, MAX_RESULT_CHARS)
    items = seq_items(coll, "join")
    step = len(sep_text)
    if items and type(items[0]) is str:
        # Likely all strings: their total size (an item without a length stops it), then
        # one C-level join, which fails on a sized item that is not a string. Strings are
        # exact `str` in PTC (host data and builtins never give subclasses), so a join
        # that succeeds is the one below. Over the bound, the checks below raise.
        try:
            size = sum(map(len, items)) + step * len(items)  # type: ignore[arg-type]
            if size <= MAX_RESULT_CHARS:
                return sep_text.join(items)  # type: ignore[arg-type]
        except TypeError:
            pass
    if not set(map(type, items)) - _STR_ONLY:  # all strings: one C-level join
        # the running size only grows, so checking the total is checking every prefix
        strs = cast("Sequence[str]", items)
        _checked_size("join", sum(map(len, strs)) + step * len(strs))
        return sep_text.join(strs)
    parts: list[str] = []
    size = 0
    for x in items:
        text = x if type(x) is str else display(x, MAX_RESULT_CHARS)
        size += len(text) + step
        if size > MAX_RESULT_CHARS:
            _checked_size("join", size)
        parts.append(text)
    return sep_text.join(parts)


_STR_ONLY: Final = frozenset({str})


@declare(
    DECLS,
    "split",
    arities=(2, 3),
    doc="Split s on a regex or a one-character string; trailing empty fields dropped "
    "(limit > 0: at most limit fields; limit != 0: trailing empty fields kept).",
    groups=_BOTH,
)
def split(s: object, delim: object, limit: object = 0) -> list[object]:
    text = string_arg("split", s)
    if type(limit) is not int:
        raise PtcError("type_error", f"split: limit must be an integer, got {kind_name(limit)}")
    if limit != 0 and (type(delim) is Regex or (type(delim) is str and len(delim) <= 1)):
        return split_limit(text, delim, limit)
    if type(delim) is Regex:
        return java_split(delim, text)
    if type(delim) is str:
        if delim == "":
            return list(text)
        if len(delim) == 1:
            return split_literal(delim, text)
        raise PtcError(
            "type_error",
            "split: delimiter must be a regex pattern, got plain string",
            hint=f'write #"{delim[:20]}" or (re-pattern ...) for a regex delimiter',
        )
    raise PtcError("type_error", f"split: expected a regex delimiter, got {kind_name(delim)}")


@declare(DECLS, "split-lines", arities=(1,), doc="Split s on \\n or \\r\\n.", groups=_BOTH)
def split_lines(s: object) -> list[object]:
    lines: list[object] = list(re.split(r"\r?\n", string_arg("split-lines", s)))
    while len(lines) > 1 and lines[-1] == "":
        lines.pop()
    return lines


def _lstrip(s: str) -> str:
    i = 0
    while i < len(s) and s[i] in JAVA_WHITESPACE:
        i += 1
    return s[i:]


def _rstrip(s: str) -> str:
    j = len(s)
    while j > 0 and s[j - 1] in JAVA_WHITESPACE:
        j -= 1
    return s[:j]


@declare(
    DECLS, "trim", arities=(1,), doc="s without leading and trailing whitespace.", groups=_BOTH
)
def trim(s: object) -> str:
    return _rstrip(_lstrip(string_arg("trim", s)))


@declare(DECLS, "triml", arities=(1,), doc="s without leading whitespace.", groups=_BOTH)
def triml(s: object) -> str:
    return _lstrip(string_arg("triml", s))


@declare(DECLS, "trimr", arities=(1,), doc="s without trailing whitespace.", groups=_BOTH)
def trimr(s: object) -> str:
    return _rstrip(string_arg("trimr", s))


@declare(DECLS, "trim-newline", arities=(1,), doc="s without trailing \\n and \\r.", groups=_BOTH)
def trim_newline(s: object) -> str:
    return string_arg("trim-newline", s).rstrip("\r\n")


@declare(DECLS, "blank?", arities=(1,), doc='True for nil, "" or whitespace only.', groups=_BOTH)
def is_blank(s: object) -> bool:
    if s is None:
        return True
    return all(c in JAVA_WHITESPACE for c in string_arg("blank?", s))


def _upper(s: object) -> str:
    text = string_arg("upper-case", s)
    _checked_size("upper-case", 3 * len(text))
    return text.upper()


def _lower(s: object) -> str:
    text = string_arg("lower-case", s)
    _checked_size("lower-case", 3 * len(text))
    return text.lower()


declare(DECLS, "upper-case", arities=(1,), doc="s in upper case (Unicode).", groups=_BOTH)(_upper)
declare(DECLS, "upcase", arities=(1,), doc="Alias of upper-case.", groups=_BOTH)(_upper)
declare(DECLS, "lower-case", arities=(1,), doc="s in lower case (Unicode).", groups=_BOTH)(_lower)
declare(DECLS, "downcase", arities=(1,), doc="Alias of lower-case.", groups=_BOTH)(_lower)


@declare(DECLS, "starts-with?", arities=(2,), doc="True if s starts with sub.", groups=_BOTH)
def starts_with(s: object, sub: object) -> bool:
    return string_arg("starts-with?", s).startswith(string_arg("starts-with?", sub))


@declare(DECLS, "ends-with?", arities=(2,), doc="True if s ends with sub.", groups=_BOTH)
def ends_with(s: object, sub: object) -> bool:
    return string_arg("ends-with?", s).endswith(string_arg("ends-with?", sub))


@declare(DECLS, "includes?", arities=(2,), doc="True if s contains sub.", groups=_BOTH)
def includes(s: object, sub: object) -> bool:
    return string_arg("includes?", sub) in string_arg("includes?", s)


def _from(who: str, x: object) -> int:
    if type(x) is int:
        return x
    raise PtcError("type_error", f"{who}: index must be an integer, got {kind_name(x)}")


@declare(
    DECLS,
    "index-of",
    arities=(2, 3),
    doc="Index of the first sub in s at or after from, or nil.",
    groups=_BOTH,
)
def index_of(s: object, sub: object, start: object = 0) -> int | None:
    text = string_arg("index-of", s)
    needle = string_arg("index-of", sub)
    at = max(0, _from("index-of", start))
    if not needle:
        # Java's indexOf finds "" at every index up to the end, a later start at the end.
        return min(at, len(text))
    i = text.find(needle, at)
    return None if i < 0 else i


@declare(
    DECLS,
    "last-index-of",
    arities=(2, 3),
    doc="Index of the last sub in s starting at or before from, or nil.",
    groups=_BOTH,
)
def last_index_of(s: object, sub: object, start: object = None) -> int | None:
    text = string_arg("last-index-of", s)
    needle = string_arg("last-index-of", sub)
    limit = len(text) if start is None else _from("last-index-of", start)
    if limit < 0:
        return None
    i = text.rfind(needle, 0, min(limit, len(text)) + len(needle))
    return None if i < 0 else i


@declare(DECLS, "name", arities=(1,), doc="Name of a keyword (no colon); a string itself.")
def name(x: object) -> str:
    if type(x) is str:
        return x
    if type(x) is Keyword:
        return x.name
    raise PtcError("type_error", f"name: expected a keyword or string, got {kind_name(x)}")


@declare(DECLS, "keyword", arities=(1,), doc="Keyword named s; a keyword itself; nil for nil.")
def keyword_(x: object) -> Keyword | None:
    if x is None or type(x) is Keyword:
        return x
    if type(x) is not str:
        raise PtcError("type_error", f"keyword: expected a string, got {kind_name(x)}")
    if _KEYWORD_NAME.fullmatch(x) is None:
        raise PtcError(
            "runtime_error",
            "keyword: invalid keyword name",
            hint="names use letters, digits and + - * < > = ? ! _",
        )
    return keyword(x)


def _parse_long(s: object) -> int | None:
    return parse_long_text(s) if type(s) is str else None


declare(DECLS, "parse-long", arities=(1,), doc="Whole-string integer in the long range, else nil.")(
    _parse_long
)
declare(DECLS, "parse-int", arities=(1,), doc="Alias of parse-long.")(_parse_long)


@declare(DECLS, "parse-double", arities=(1,), doc="Whole-string float (Java grammar), else nil.")
def parse_double(s: object) -> float | None:
    return java_parse_double(s) if type(s) is str else None


@declare(DECLS, "parse-boolean", arities=(1,), doc='true for "true", false for "false", else nil.')
def parse_boolean(s: object) -> bool | None:
    if s == "true" and type(s) is str:
        return True
    if s == "false" and type(s) is str:
        return False
    return None


@declare(
    DECLS,
    "replace",
    arities=(2, 3),
    doc="(replace s match rep): every match replaced ($1 groups with a regex); "
    "(replace smap coll): elements found in smap replaced.",
    groups=_BOTH,
)
def replace(a: object, b: object, c: object = NOT_FOUND) -> object:
    if c is NOT_FOUND:
        return _replace_items(a, b)
    s = string_arg("replace", a)
    if type(b) is Regex:
        if isinstance(c, str):
            return replace_regex(b, s, c, "replace")
        if callable(c) and not isinstance(c, Keyword):
            return replace_regex(b, s, c, "replace")
        raise PtcError("type_error", f"replace: replacement must be a string, got {kind_name(c)}")
    if type(b) is str:
        rep = string_arg("replace", c)
        if b and rep:
            _checked_size("replace", len(s) + s.count(b) * len(rep))
        elif not b:
            _checked_size("replace", len(s) + (len(s) + 1) * len(rep))
        return s.replace(b, rep)
    raise PtcError("type_error", f"replace: match must be a string or regex, got {kind_name(b)}")


def _replace_items(smap: object, coll: object) -> list[object]:
    items = seq_items(coll, "replace")
    if is_vector(smap):
        table = smap
        n = len(table)  # type: ignore[arg-type]
        return [
            table[x] if type(x) is int and 0 <= x < n else x  # type: ignore[index]
            for x in items
        ]
    if not is_map(smap):
        raise PtcError("type_error", f"replace: expected a map, got {kind_name(smap)}")
    out = []
    for x in items:
        found = get_flexible(smap, x, NOT_FOUND)
        out.append(x if found is NOT_FOUND else found)
    return out


def _extract_match(who: str, pattern: object, s: object, n: object) -> object:
    if type(pattern) is str:
        rx = compile_regex(pattern)
    elif type(pattern) is Regex:
        rx = pattern
    else:
        raise PtcError("type_error", f"{who}: expected a regex or string pattern")
    if type(n) is not int:
        raise PtcError("type_error", f"{who}: group must be an integer, got {kind_name(n)}")
    if type(s) is not str:
        return None
    m = rx.search(s)
    if m is None or not 0 <= n <= rx.groups:
        return None
    g = m.group(n)
    return None if g is None else str(g)


@declare(DECLS, "extract", arities=(2, 3), doc="Group n (default 1) of the first match, or nil.")
def extract(pattern: object, s: object, n: object = 1) -> object:
    return _extract_match("extract", pattern, s, n)


@declare(
    DECLS,
    "extract-int",
    arities=(2, 3, 4),
    doc="extract then parse-long; default (or nil) on no match.",
)
def extract_int(pattern: object, s: object, n: object = 1, default: object = None) -> object:
    text = _extract_match("extract-int", pattern, s, n)
    found = parse_long_text(text) if type(text) is str else None
    return default if found is None else found


__all__ = ["JAVA_WHITESPACE", "java_parse_double", "match_value", "parse_long_text"]
