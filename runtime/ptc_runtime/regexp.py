"""Regex values: Java-style patterns compiled with the `regex` package.

`compile_regex(source)` validates and compiles a pattern (at most 256 bytes, as the
target says) into an opaque `Regex` value that prints as `#"source"`.
"""

from __future__ import annotations

from typing import Any

import regex as _regex

from ptc_runtime.errors import PtcError

MAX_PATTERN_BYTES = 256


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


def compile_regex(source: str) -> Regex:
    """Compile `source`, or raise PtcError naming the problem (never a Python message)."""
    if len(source.encode("utf-8", "surrogatepass")) > MAX_PATTERN_BYTES:
        raise PtcError("runtime_error", f"regex pattern exceeds {MAX_PATTERN_BYTES} bytes")
    try:
        compiled = _regex.compile(source)
    except _regex.error as exc:
        pos = getattr(exc, "pos", None)
        where = f" at position {pos}" if pos is not None else ""
        raise PtcError("invalid_regex", f"Invalid regex{where}: {exc.msg}") from None
    return Regex(source, compiled)
