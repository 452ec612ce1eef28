"""`clojure.string` functions beyond the core catalogue, with Clojure 1.11
semantics: `capitalize reverse replace-first escape`, and `split_limit` for the
three-argument `split`.

Strings index by Unicode code point: `reverse` and `escape` work on code
points where Clojure works on UTF-16 units; the two agree inside the Basic Multilingual
Plane (and `reverse` keeps surrogate pairs together in Java too).

`reverse` is registered as `string/reverse`, in the `string` group only and not bare:
`(clojure.string/reverse s)` / `(str/reverse s)` reach it, while the bare name stays
`clojure.core/reverse` (the analyzer tries `<group>/<name>` for a namespaced symbol).
"""

from __future__ import annotations

import re

from ptc_runtime.builtins.regex_ import MAX_RESULT_CHARS, replace_regex, string_arg
from ptc_runtime.builtins.registry import BuiltinSpec, declare
from ptc_runtime.collections import kind_name
from ptc_runtime.errors import PtcError
from ptc_runtime.metered import metered_fn
from ptc_runtime.printer import str_ as display
from ptc_runtime.regexp import Regex, compile_regex
from ptc_runtime.values import Keyword

DECLS: list[BuiltinSpec] = []


def _checked_size(who: str, size: int) -> None:
    if size > MAX_RESULT_CHARS:
        raise PtcError("memory_exceeded", f"{who}: result exceeds {MAX_RESULT_CHARS} characters")


@declare(
    DECLS,
    "capitalize",
    arities=(1,),
    doc="s with its first character upper case and the rest lower case.",
    groups=("string",),
)
def capitalize(s: object) -> str:
    text = string_arg("capitalize", s)
    _checked_size("capitalize", 3 * len(text))
    if len(text) < 2:
        return text.upper()
    return text[0].upper() + text[1:].lower()


@declare(
    DECLS,
    "string/reverse",
    arities=(1,),
    doc="s with its characters in reverse order.",
    groups=("string",),
    bare=False,
)
def reverse(s: object) -> str:
    return string_arg("reverse", s)[::-1]


@declare(
    DECLS,
    "replace-first",
    arities=(3,),
    doc="s with the first match replaced (string: literally; regex: $1 groups or (f match)).",
    groups=("string",),
)
def replace_first(s: object, match: object, replacement: object) -> str:
    text = string_arg("replace-first", s)
    if type(match) is Regex:
        if isinstance(replacement, str) or (
            callable(replacement) and not isinstance(replacement, Keyword)
        ):
            return replace_regex(match, text, replacement, "replace-first", count=1)
        raise PtcError(
            "type_error",
            f"replace-first: replacement must be a string or function, got "
            f"{kind_name(replacement)}",
        )
    if type(match) is str:
        rep = string_arg("replace-first", replacement)
        _checked_size("replace-first", len(text) + len(rep))
        return text.replace(match, rep, 1)
    raise PtcError(
        "type_error", f"replace-first: match must be a string or regex, got {kind_name(match)}"
    )


@declare(
    DECLS,
    "escape",
    arities=(2,),
    doc="s with each character c replaced by (str (cmap c)) when (cmap c) is not nil.",
    groups=("string",),
)
def escape(s: object, cmap: object) -> str:
    text = string_arg("escape", s)
    fn = metered_fn(cmap, "escape")
    out: list[str] = []
    size = 0
    for ch in text:
        rep = fn(ch)
        piece = ch if rep is None else display(rep, MAX_RESULT_CHARS)
        size += len(piece)
        _checked_size("escape", size)
        out.append(piece)
    return "".join(out)


def split_limit(text: str, delim: Regex | str, limit: int) -> list[object]:
    """Java `String.split(regex, limit)` for a non-zero `limit`: at most `limit` fields when
    it is positive (the last one holds the rest of `text`), and trailing empty fields kept.
    A string `delim` is a one-character (or empty) literal, as in two-argument `split`."""
    rx = compile_regex(re.escape(delim)) if isinstance(delim, str) else delim
    parts: list[object] = []
    index = 0
    for m in rx.finditer(text):
        if 0 < limit <= len(parts) + 1:
            break
        start, stop = m.span()
        if stop == 0:  # no leading empty field from a zero-width match at 0
            continue
        parts.append(text[index:start])
        index = stop
    if not parts:
        return [text]
    parts.append(text[index:])
    return parts
