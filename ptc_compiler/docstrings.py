"""Argument descriptions from a Python docstring, in the three common styles.

    Google:  Args:                  NumPy:  Parameters          reST:  :param query: Text.
                 query: Text.                ----------                :type query: str
                 limit (int): Max.           query : str               :returns: Hits.
                                                 Text.

`parse_docstring(text)` returns the summary (the text before the first section, which is
what a tool's description should be), the per-argument descriptions and the description of
the result. Sections it does not know (`Raises:`, `Examples`, `:raises X:` ...) end the
summary and are otherwise ignored. Continuation lines are joined with single spaces.
"""

from __future__ import annotations

import inspect
import re
from dataclasses import dataclass, field
from typing import Final

_GOOGLE_ARGS: Final = frozenset(
    {"args", "arguments", "parameters", "params", "keyword args", "keyword arguments", "kwargs"}
)
_GOOGLE_RETURNS: Final = frozenset({"returns", "return", "yields"})
_GOOGLE_OTHER: Final = frozenset(
    {
        "raises",
        "examples",
        "example",
        "note",
        "notes",
        "see also",
        "warning",
        "warnings",
        "todo",
        "attributes",
        "references",
    }
)
_GOOGLE_HEADER: Final = re.compile(r"^([A-Za-z][A-Za-z ]*):\s*$")
_GOOGLE_ITEM: Final = re.compile(r"^\*{0,2}([A-Za-z_][A-Za-z0-9_]*)\s*(?:\(([^)]*)\))?\s*:\s*(.*)$")
_NUMPY_RULE: Final = re.compile(r"^\s*-{3,}\s*$")
_NAME: Final = r"[A-Za-z_][A-Za-z0-9_]*"
_NUMPY_ITEM: Final = re.compile(rf"^\*{{0,2}}({_NAME}(?:\s*,\s*{_NAME})*)\s*(?::.*)?$")
_REST_FIELD: Final = re.compile(r"^:([A-Za-z]+)((?:\s+[^:]+?)?)\s*:\s*(.*)$")


@dataclass(frozen=True)
class Docstring:
    """A parsed docstring: summary, argument descriptions (by name), result description."""

    summary: str
    params: dict[str, str] = field(default_factory=dict)
    returns: str | None = None


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _join(parts: list[str]) -> str:
    return " ".join(p.strip() for p in parts if p.strip())


def parse_docstring(text: str | None) -> Docstring:
    """The summary, argument and result descriptions of `text` (any of the three styles)."""
    if not text:
        return Docstring("")
    lines = inspect.cleandoc(text).splitlines()
    params: dict[str, str] = {}
    returns: list[str] = []
    summary: list[str] = []
    i = 0
    in_summary = True
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        # NumPy: a header line followed by a rule of dashes
        if i + 1 < len(lines) and stripped and _NUMPY_RULE.match(lines[i + 1]):
            in_summary = False
            i = _numpy_section(stripped.lower(), lines, i + 2, params, returns)
            continue
        g = _GOOGLE_HEADER.match(stripped) if _indent(line) == 0 else None
        if g is not None and g.group(1).lower() in _GOOGLE_ARGS | _GOOGLE_RETURNS | _GOOGLE_OTHER:
            in_summary = False
            i = _google_section(g.group(1).lower(), lines, i + 1, params, returns)
            continue
        r = _REST_FIELD.match(stripped)
        if r is not None:
            in_summary = False
            i = _rest_field(r, lines, i + 1, params, returns)
            continue
        if in_summary:
            summary.append(line)
        i += 1
    return Docstring("\n".join(summary).strip(), params, _join(returns) or None)


def _block(lines: list[str], i: int, base: int) -> tuple[list[str], int]:
    """The lines from `i` indented deeper than `base` (blank lines included), and the next."""
    out: list[str] = []
    while i < len(lines) and (not lines[i].strip() or _indent(lines[i]) > base):
        out.append(lines[i])
        i += 1
    return out, i


def _google_section(
    name: str, lines: list[str], i: int, params: dict[str, str], returns: list[str]
) -> int:
    body, end = _block(lines, i, 0)
    if name in _GOOGLE_RETURNS:
        returns.extend(body)
        return end
    if name not in _GOOGLE_ARGS:
        return end
    items = [ln for ln in body if ln.strip()]
    if not items:
        return end
    item_indent = min(_indent(ln) for ln in items)
    current: str | None = None
    parts: list[str] = []
    for ln in items:
        m = _GOOGLE_ITEM.match(ln.strip()) if _indent(ln) == item_indent else None
        if m is not None:
            if current is not None:
                params[current] = _join(parts)
            current, parts = m.group(1), [m.group(3)]
        elif current is not None:
            parts.append(ln)
    if current is not None:
        params[current] = _join(parts)
    return end


def _numpy_section(
    name: str, lines: list[str], i: int, params: dict[str, str], returns: list[str]
) -> int:
    end = i
    while end < len(lines) and not (
        end + 1 < len(lines) and lines[end].strip() and _NUMPY_RULE.match(lines[end + 1])
    ):
        end += 1
    body = lines[i:end]
    if name in ("returns", "yields"):
        returns.extend(ln for ln in body if _indent(ln) > 0)
        if not returns:  # "Returns\n-------\nA list of hits." (no type line)
            returns.extend(body)
        return end
    if name not in ("parameters", "other parameters", "keyword arguments"):
        return end
    current: list[str] = []
    parts: list[str] = []
    for ln in body:
        if not ln.strip():
            continue
        if _indent(ln) == 0:
            for n in current:
                params[n] = _join(parts)
            m = _NUMPY_ITEM.match(ln.strip())
            current = [n.strip() for n in m.group(1).split(",")] if m else []
            parts = []
        else:
            parts.append(ln)
    for n in current:
        params[n] = _join(parts)
    return end


def _rest_field(
    m: re.Match[str], lines: list[str], i: int, params: dict[str, str], returns: list[str]
) -> int:
    body, end = _block(lines, i, 0)
    text = _join([m.group(3), *body])
    kind, arg = m.group(1).lower(), m.group(2).split()
    if kind in ("param", "parameter", "arg", "argument", "key", "keyword") and arg:
        params[arg[-1]] = text  # ":param str query:" names the type first
    elif kind in ("returns", "return"):
        returns.append(text)
    return end
