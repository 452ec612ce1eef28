"""Regex builtins: `re-pattern re-find re-matches re-seq re-split regex?`.

Matching follows Clojure: a match without groups is its text, with groups the vector
`[whole g1 g2 ...]` where a group that did not take part is `nil`; `re-seq` without a
match is `nil`. The helpers `java_split` and `replace_regex` (String.split and
Matcher.replaceAll semantics) serve `split`, `re-split` and `replace` too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from ptc_runtime.builtins.registry import BuiltinSpec, declare
from ptc_runtime.collections import kind_name
from ptc_runtime.errors import PtcError
from ptc_runtime.regexp import Regex, compile_regex

DECLS: list[BuiltinSpec] = []

#: Longest string a regex replacement or split may build.
MAX_RESULT_CHARS: Final = 10_000_000


def regex_arg(who: str, x: object) -> Regex:
    if type(x) is Regex:
        return x
    hint = ' (write #"..." or (re-pattern s))' if type(x) is str else ""
    raise PtcError("type_error", f"{who}: expected a regex, got {kind_name(x)}{hint}")


def string_arg(who: str, x: object) -> str:
    if type(x) is str:
        return x
    raise PtcError("type_error", f"{who}: expected a string, got {kind_name(x)}")


def match_value(m: Any) -> object:
    """Clojure's view of a match: its text, or `[whole g1 ...]` when there are groups."""
    if m.re.groups == 0:
        return str(m.group(0))
    return [str(m.group(0)), *(None if g is None else str(g) for g in m.groups())]


@declare(DECLS, "regex?", arities=(1,), doc="True if x is a regex.", groups=("core", "regex"))
def is_regex(x: object) -> bool:
    return type(x) is Regex


@declare(
    DECLS,
    "re-pattern",
    arities=(1,),
    doc="Compile string s (at most 256 bytes) to a regex.",
    groups=("core", "regex"),
)
def re_pattern(s: object) -> Regex:
    if type(s) is not str:
        raise PtcError("type_error", f"re-pattern: expected a string, got {kind_name(s)}")
    return compile_regex(s)


@declare(
    DECLS,
    "re-find",
    arities=(2,),
    doc="First match of re in s: its text, or [whole g1 ...] with groups; nil if none.",
    groups=("core", "regex"),
)
def re_find(re: object, s: object) -> object:
    m = regex_arg("re-find", re).search(string_arg("re-find", s))
    return None if m is None else match_value(m)


@declare(
    DECLS,
    "re-matches",
    arities=(2,),
    doc="Like re-find, but the whole of s must match.",
    groups=("core", "regex"),
)
def re_matches(re: object, s: object) -> object:
    m = regex_arg("re-matches", re).fullmatch(string_arg("re-matches", s))
    return None if m is None else match_value(m)


@declare(
    DECLS,
    "re-seq",
    arities=(2,),
    doc="Vector of every match of re in s (nil if none).",
    groups=("core", "regex"),
)
def re_seq(re: object, s: object) -> object:
    out = [match_value(m) for m in regex_arg("re-seq", re).finditer(string_arg("re-seq", s))]
    return out or None


#: Characters with a meaning in a pattern; a source without them matches itself.
_META: Final = frozenset(".^$*+?{}[]|()\\")
#: Escapes that stand for one control character.
_CONTROL_ESCAPES: Final = {"n": "\n", "t": "\t", "r": "\r", "f": "\f"}
#: Whitespace `str.split()` knows but the regex `\s` does not (in ASCII).
_NOT_REGEX_SPACE: Final = ("\x1c", "\x1d", "\x1e", "\x1f")


def literal_of(source: str) -> str | None:
    """The text a pattern matches when it matches exactly one text (`,` `\\|` `\\n`), else None."""
    if "\\" not in source:
        return source if source and _META.isdisjoint(source) else None
    out: list[str] = []
    i, n = 0, len(source)
    while i < n:
        ch = source[i]
        if ch == "\\":
            if i + 1 == n:
                return None
            nxt = source[i + 1]
            if nxt in _CONTROL_ESCAPES:
                out.append(_CONTROL_ESCAPES[nxt])
            elif nxt.isascii() and not nxt.isalnum():  # an escaped symbol is itself
                out.append(nxt)
            else:
                return None
            i += 2
        elif ch in _META:
            return None
        else:
            out.append(ch)
            i += 1
    return "".join(out) or None


def split_literal(sep: str, s: str) -> list[object]:
    """`java_split` for a pattern matching only the non-empty text `sep` (whole `s` searched)."""
    if sep not in s:
        return [s]
    parts: list[object] = s.split(sep)  # type: ignore[assignment]
    while parts and parts[-1] == "":
        parts.pop()
    return parts


def _split_spaces(s: str) -> list[object] | None:
    """`java_split` on `\\s+` for ASCII text, or None when `str.split()` would differ."""
    if not s.isascii() or any(c in s for c in _NOT_REGEX_SPACE):
        return None
    parts: list[object] = s.split()  # type: ignore[assignment]
    if not parts:
        return [s] if s == "" else []
    if s[0].isspace():
        parts.insert(0, "")
    return parts


def java_split(rx: Regex, s: str) -> list[object]:
    """`String.split(regex)`: no leading empty field from a zero-width match at 0,
    trailing empty fields dropped, the whole string when nothing matches."""
    source = rx.source  # plain patterns split in C
    if source == "\\s+":
        fast = _split_spaces(s)
        if fast is not None:
            return fast
    else:
        sep = literal_of(source)
        if sep is not None:
            return split_literal(sep, s)
    parts: list[object] = []
    last = 0
    for m in rx.finditer(s):
        start, stop = m.span()
        if stop == 0:
            continue
        parts.append(s[last:start])
        last = stop
    if not parts:
        return [s]
    parts.append(s[last:])
    while parts and parts[-1] == "":
        parts.pop()
    return parts


@declare(
    DECLS,
    "re-split",
    arities=(2,),
    doc="Split s on re (note: regex first); trailing empty fields dropped.",
    groups=("core", "regex"),
)
def re_split(re: object, s: object) -> list[object]:
    return java_split(regex_arg("re-split", re), string_arg("re-split", s))


def _expand(template: str, m: Any, who: str) -> str:
    """Java `Matcher.appendReplacement` text: `$n`, `${name}`, `\\x` escapes."""
    out: list[str] = []
    i = 0
    n = len(template)
    groups = m.re.groups
    while i < n:
        ch = template[i]
        if ch == "\\":
            if i + 1 >= n:
                raise PtcError("runtime_error", f"{who}: character to be escaped is missing")
            out.append(template[i + 1])
            i += 2
        elif ch == "$":
            i += 1
            if i < n and template[i] == "{":
                close = template.find("}", i)
                if close < 0:
                    raise PtcError("runtime_error", f"{who}: named group is missing a '}}'")
                gname = template[i + 1 : close]
                if gname not in m.re.groupindex:
                    raise PtcError("runtime_error", f"{who}: no group named {gname[:40]}")
                out.append(m.group(gname) or "")
                i = close + 1
                continue
            if i >= n or not template[i].isdigit():
                raise PtcError(
                    "runtime_error",
                    f"{who}: illegal group reference in the replacement",
                    hint="write \\$ for a literal dollar sign",
                )
            num = int(template[i])
            i += 1
            while i < n and template[i].isdigit() and num * 10 + int(template[i]) <= groups:
                num = num * 10 + int(template[i])
                i += 1
            if num > groups:
                raise PtcError("runtime_error", f"{who}: no group {num} in the pattern")
            out.append(m.group(num) or "")
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def replace_regex(
    rx: Regex, s: str, replacement: str | Callable[[object], object], who: str, count: int = 0
) -> str:
    """Replace every match of `rx` in `s` (`$1` references, or a function of the match);
    only the first `count` matches when `count` is positive."""
    pieces: list[str] = []
    size = 0
    last = 0
    for i, m in enumerate(rx.finditer(s)):
        if i == count and count > 0:
            break
        start, stop = m.span()
        if callable(replacement):
            rep = replacement(match_value(m))
            if type(rep) is not str:
                raise PtcError(
                    "type_error",
                    f"{who}: replacement function must return a string, got {kind_name(rep)}",
                )
        else:
            rep = _expand(replacement, m, who)
        pieces.append(s[last:start])
        pieces.append(rep)
        size += start - last + len(rep)
        if size > MAX_RESULT_CHARS:
            raise PtcError(
                "memory_exceeded", f"{who}: result exceeds {MAX_RESULT_CHARS} characters"
            )
        last = stop
    pieces.append(s[last:])
    return "".join(pieces)
