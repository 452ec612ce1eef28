"""Regex values: Java-style patterns run on the `regex` package with a time budget.

`compile_regex(source)` validates a pattern (at most 256 bytes, target §9.15),
translates the few Java spellings the `regex` package reads differently, and returns
an opaque `Regex` that prints as `#"source"`. Every match operation goes through the
methods here, which

* search at most the first `MAX_SUBJECT_BYTES` of the subject (silently),
* give each call a time budget (`MATCH_TIMEOUT_S`, clamped by the run deadline), and
  turn an exceeded budget into `runtime_error` "Regex complexity limit exceeded".

Java syntax accepted as is by `regex`: `\\d \\w \\s \\b`, lookarounds, `(?<name>...)`,
possessive and lazy quantifiers, inline flags, `\\p{...}`. Translated: `\\z` (absolute
end, `regex`'s `\\Z`), `\\Z` (end or before a final newline) and `\\Q...\\E` (the text
between taken literally; an unclosed `\\Q` quotes to the end, as in Java).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any, Final

import regex as _regex

from ptc_runtime.errors import PtcError

MAX_PATTERN_BYTES: Final = 256
#: Only this much of a subject is searched (target §9.15).
MAX_SUBJECT_BYTES: Final = 32_768
#: Longest time one regex call may take before it counts as catastrophic backtracking.
MATCH_TIMEOUT_S: Final = 0.25

_COMPLEXITY = "Regex complexity limit exceeded (ReDoS protection)"


class Regex:
    """A compiled pattern; equality is by source text."""

    __slots__ = ("compiled", "source")

    def __init__(self, source: str, compiled: Any) -> None:
        self.source = source
        self.compiled = compiled

    def __eq__(self, other: object) -> bool:
        return type(other) is Regex and other.source == self.source

    def __hash__(self) -> int:
        return hash(("Regex", self.source))

    def __repr__(self) -> str:
        return '#"' + self.source + '"'

    @property
    def groups(self) -> int:
        """Number of capture groups."""
        return int(self.compiled.groups)

    def search(self, s: str) -> Any:
        """First match in the searched part of `s`, or None."""
        return _guarded(lambda t: self.compiled.search(subject(s), timeout=t))

    def fullmatch(self, s: str) -> Any:
        """A match of the whole of `s`, or None (a subject over the cap never matches)."""
        if searched_end(s) < len(s):
            return None
        return _guarded(lambda t: self.compiled.fullmatch(s, timeout=t))

    def finditer(self, s: str) -> Iterator[Any]:
        """All non-overlapping matches in the searched part of `s`."""
        it = _guarded(lambda t: self.compiled.finditer(subject(s), timeout=t))
        while True:
            m = _guarded(lambda _t: next(it, None))
            if m is None:
                return
            yield m


def subject(s: str) -> str:
    """The searched prefix of `s`: at most `MAX_SUBJECT_BYTES` of UTF-8."""
    return s[: searched_end(s)]


def searched_end(s: str) -> int:
    """Code-point index where searching `s` stops."""
    if len(s) * 4 <= MAX_SUBJECT_BYTES:
        return len(s)
    raw = s.encode("utf-8", "surrogatepass")
    if len(raw) <= MAX_SUBJECT_BYTES:
        return len(s)
    return len(raw[:MAX_SUBJECT_BYTES].decode("utf-8", "ignore"))


def _budget() -> float:
    """Seconds this regex call may run: the fixed budget, clamped by the run deadline."""
    from ptc_runtime.context import current

    try:
        ctx = current()
    except PtcError:
        return MATCH_TIMEOUT_S
    if ctx.deadline is None:
        return MATCH_TIMEOUT_S
    return max(0.001, min(MATCH_TIMEOUT_S, ctx.deadline - time.monotonic()))


def _guarded(call: Any) -> Any:
    try:
        return call(_budget())
    except TimeoutError:
        raise PtcError(
            "runtime_error",
            _COMPLEXITY,
            hint="simplify the pattern: avoid nested or overlapping repetition like (a+)+",
        ) from None
    except RecursionError:
        raise PtcError("runtime_error", _COMPLEXITY) from None


def translate(source: str) -> str:
    """The `regex`-package spelling of Java pattern `source`."""
    out: list[str] = []
    i = 0
    n = len(source)
    in_class = False
    while i < n:
        ch = source[i]
        if ch == "\\" and i + 1 < n:
            nxt = source[i + 1]
            if nxt == "Q":
                end = source.find("\\E", i + 2)
                stop = n if end < 0 else end
                out.append(_regex.escape(source[i + 2 : stop]))
                i = n if end < 0 else end + 2
                continue
            if not in_class and nxt == "z":
                out.append("\\Z")
            elif not in_class and nxt == "Z":
                out.append("(?=\\n?\\Z)")
            else:
                out.append(source[i : i + 2])
            i += 2
            continue
        if ch == "[" and not in_class:
            in_class = True
            out.append(ch)
            i += 1
            # A leading ']' (or '^]') is a literal member, as in Java.
            if i < n and source[i] == "^":
                out.append("^")
                i += 1
            if i < n and source[i] == "]":
                out.append("\\]")
                i += 1
            continue
        if ch == "]" and in_class:
            in_class = False
        out.append(ch)
        i += 1
    return "".join(out)


def compile_regex(source: str) -> Regex:
    """Compile `source`, or raise PtcError naming the problem (never a Python message)."""
    if len(source.encode("utf-8", "surrogatepass")) > MAX_PATTERN_BYTES:
        raise PtcError("runtime_error", f"regex pattern exceeds {MAX_PATTERN_BYTES} bytes")
    try:
        compiled = _regex.compile(translate(source))
    except _regex.error as exc:
        pos = getattr(exc, "pos", None)
        where = f" at position {pos}" if pos is not None else ""
        raise PtcError("invalid_regex", f"Invalid regex{where}: {exc.msg}") from None
    except (RecursionError, OverflowError, ValueError):
        raise PtcError("invalid_regex", "Invalid regex: pattern too complex") from None
    return Regex(source, compiled)
