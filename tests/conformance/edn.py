"""A small EDN reader for what Clojure's `pr-str` prints: text -> Python values.

Only the conformance suite uses it, to read the oracle's results. Clojure values map to:

==================  ===================================================
EDN / Clojure       Python
==================  ===================================================
nil true false      ``None`` ``True`` ``False``
42 42N              ``int``
1.5 1e3 1.5M        ``float`` (BigDecimal read as float)
##Inf ##-Inf ##NaN  ``float``
1/3 (ratio)         ``float`` (numerator / denominator)
"s"                 ``str``
\\a \\newline       `Char` (compares equal to a one-character string)
:k :ns/k            `Kw`
sym                 `Sym`
(…) […]             `EdnList` / ``list`` (both sequential)
{…}                 `EdnMap` (a tuple of key/value pairs, printed order)
#{…}                `EdnSet` (a tuple of elements)
#"re"               `Re` (the pattern source)
#'ns/x              `Var` (the name without its namespace)
#tag v              `Tagged` (``#object[…]``, ``#inst``, …)
==================  ===================================================
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["Char", "EdnError", "EdnList", "EdnMap", "EdnSet", "Kw", "Re", "Sym", "Tagged", "Var",
           "read", "read_all"]


class EdnError(ValueError):
    """Malformed EDN text."""


@dataclass(frozen=True, slots=True)
class Char:
    c: str


@dataclass(frozen=True, slots=True)
class Kw:
    name: str


@dataclass(frozen=True, slots=True)
class Sym:
    name: str


@dataclass(frozen=True, slots=True)
class Re:
    source: str


@dataclass(frozen=True, slots=True)
class Var:
    name: str


@dataclass(frozen=True, slots=True)
class Tagged:
    tag: str
    value: object


class EdnList(list[object]):
    """A Clojure list or sequence (printed with parentheses)."""


@dataclass(frozen=True, slots=True)
class EdnMap:
    pairs: tuple[tuple[object, object], ...]


@dataclass(frozen=True, slots=True)
class EdnSet:
    items: tuple[object, ...]


_CHAR_NAMES = {"newline": "\n", "space": " ", "tab": "\t", "return": "\r",
               "backspace": "\b", "formfeed": "\f"}
_STR_ESCAPES = {'"': '"', "\\": "\\", "n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f"}
_DELIMS = set('()[]{}"; \t\n\r,')
_SPECIAL_FLOATS = {"Inf": math.inf, "-Inf": -math.inf, "NaN": math.nan}


class _Reader:
    def __init__(self, text: str) -> None:
        self.s = text
        self.i = 0

    def skip(self) -> None:
        s, n = self.s, len(self.s)
        while self.i < n:
            c = s[self.i]
            if c in " \t\n\r,":
                self.i += 1
            elif c == ";":
                while self.i < n and s[self.i] != "\n":
                    self.i += 1
            else:
                return

    def at_end(self) -> bool:
        self.skip()
        return self.i >= len(self.s)

    def token(self) -> str:
        start = self.i
        while self.i < len(self.s) and self.s[self.i] not in _DELIMS:
            self.i += 1
        return self.s[start:self.i]

    def read(self) -> object:
        self.skip()
        if self.i >= len(self.s):
            raise EdnError("unexpected end of input")
        c = self.s[self.i]
        if c == "(":
            self.i += 1
            return EdnList(self.read_until(")"))
        if c == "[":
            self.i += 1
            return self.read_until("]")
        if c == "{":
            self.i += 1
            return self.read_map()
        if c == '"':
            self.i += 1
            return self.read_string()
        if c == "\\":
            return self.read_char()
        if c == "#":
            return self.read_dispatch()
        if c in ")]}":
            raise EdnError(f"unexpected {c!r} at {self.i}")
        return self.atom(self.token())

    def read_until(self, close: str) -> list[object]:
        items: list[object] = []
        while True:
            self.skip()
            if self.i >= len(self.s):
                raise EdnError(f"missing {close!r}")
            if self.s[self.i] == close:
                self.i += 1
                return items
            items.append(self.read())

    def read_map(self) -> EdnMap:
        items = self.read_until("}")
        if len(items) % 2:
            raise EdnError("map with an odd number of forms")
        return EdnMap(tuple(zip(items[::2], items[1::2], strict=True)))

    def read_string(self) -> str:
        out: list[str] = []
        s = self.s
        while True:
            if self.i >= len(s):
                raise EdnError("unterminated string")
            c = s[self.i]
            self.i += 1
            if c == '"':
                return "".join(out)
            if c != "\\":
                out.append(c)
                continue
            e = s[self.i]
            self.i += 1
            if e == "u":
                out.append(chr(int(s[self.i:self.i + 4], 16)))
                self.i += 4
            elif e in _STR_ESCAPES:
                out.append(_STR_ESCAPES[e])
            else:
                raise EdnError(f"bad string escape \\{e}")

    def read_char(self) -> Char:
        self.i += 1
        start = self.i
        self.i += 1  # the first character is always part of the literal, even a delimiter
        while self.i < len(self.s) and self.s[self.i] not in _DELIMS:
            self.i += 1
        name = self.s[start:self.i]
        if len(name) == 1:
            return Char(name)
        if name in _CHAR_NAMES:
            return Char(_CHAR_NAMES[name])
        if name.startswith("u") and len(name) == 5:
            return Char(chr(int(name[1:], 16)))
        raise EdnError(f"bad character literal \\{name}")

    def read_dispatch(self) -> object:
        self.i += 1
        c = self.s[self.i] if self.i < len(self.s) else ""
        if c == "{":
            self.i += 1
            return EdnSet(tuple(self.read_until("}")))
        if c == '"':
            self.i += 1
            start = self.i
            while self.s[self.i] != '"':
                self.i += 2 if self.s[self.i] == "\\" else 1
            self.i += 1
            return Re(self.s[start:self.i - 1])
        if c == "#":
            self.i += 1
            name = self.token()
            if name not in _SPECIAL_FLOATS:
                raise EdnError(f"unknown symbolic value ##{name}")
            return _SPECIAL_FLOATS[name]
        if c == "'":
            self.i += 1
            return Var(self.token().rsplit("/", 1)[-1])
        if c == "_":
            self.i += 1
            self.read()
            return self.read()
        tag = self.token()
        return Tagged(tag, self.read())

    def atom(self, tok: str) -> object:
        if tok == "nil":
            return None
        if tok == "true":
            return True
        if tok == "false":
            return False
        if tok.startswith(":"):
            return Kw(tok[1:])
        if tok[0].isdigit() or (tok[0] in "+-" and len(tok) > 1 and tok[1].isdigit()):
            if tok.startswith(("0x", "0X")):  # an identity hash inside #object[...]
                return Sym(tok)
            return _number(tok)
        return Sym(tok)


def _number(tok: str) -> int | float:
    try:
        if tok.endswith("N"):
            return int(tok[:-1])
        if tok.endswith("M"):
            return float(tok[:-1])
        if "/" in tok:
            num, den = tok.split("/")
            return int(num) / int(den)
        if any(ch in tok for ch in ".eE"):
            return float(tok)
        return int(tok)
    except ValueError as e:
        raise EdnError(f"bad number {tok!r}") from e


def read(text: str) -> object:
    """The single EDN value in `text`."""
    r = _Reader(text)
    value = r.read()
    if not r.at_end():
        raise EdnError(f"trailing text at {r.i}")
    return value


def read_all(text: str) -> list[object]:
    """Every EDN value in `text`, in order."""
    r = _Reader(text)
    out: list[object] = []
    while not r.at_end():
        out.append(r.read())
    return out
