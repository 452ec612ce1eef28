"""Scalar value types of PTC-Lisp that Python lacks: keywords, symbol references, var displays.

The whole value model (see `docs/design/values.md`):

=============  ==============================================================
PTC value      Python representation
=============  ==============================================================
nil            ``None``
boolean        ``bool`` (never equal to a number: see `equality.eq`)
integer        ``int`` (arbitrary precision)
float          ``float`` (IEEE, incl. inf and nan)
string         ``str`` (characters are one-character strings)
keyword        `Keyword` (interned: identity equality and hash)
vector         ``list`` (tool data, literals, builtin results) or `collections.PVec`
map            ``dict`` (insertion ordered) or `collections.PMap` (large, persistent)
set            `collections.PSet` (insertion ordered)
function       a Python function (compiled `fn`) or a builtin
regex          `regexp.Regex`
symbol ref     `SymbolRef` (``'foo``)
var display    `VarRef` (value of ``(def x 1)``, prints ``#'x``)
=============  ==============================================================

All values are immutable by discipline: nothing ever mutates a list or dict that a
program can see. Map keys and set elements that Python would conflate or cannot
hash (booleans, vectors, maps, sets) are stored wrapped in `collections.EqKey`.
"""

from __future__ import annotations

import threading
from typing import ClassVar, Final


class Keyword:
    """An interned keyword; `:name` prints with its colon.

    Interning makes equality and hashing the C-level identity defaults, so keywords are
    as fast as strings as map keys. Never construct directly: use `keyword(name)`.
    """

    __slots__ = ("__weakref__", "name")
    _table: ClassVar[dict[str, Keyword]] = {}
    _lock: ClassVar[threading.Lock] = threading.Lock()

    name: str

    def __new__(cls, name: str) -> Keyword:
        found = cls._table.get(name)
        if found is not None:
            return found
        with cls._lock:
            found = cls._table.get(name)
            if found is None:
                found = object.__new__(cls)
                object.__setattr__(found, "name", name)
                cls._table[name] = found
            return found

    def __setattr__(self, key: str, value: object) -> None:
        raise AttributeError("keywords are immutable")

    def __repr__(self) -> str:
        return ":" + self.name

    def __reduce__(self) -> tuple[type[Keyword], tuple[str]]:
        return (Keyword, (self.name,))

    def __call__(self, m: object, default: object = None) -> object:
        """`(:k m)` / `(:k m default)`: flexible lookup (the generated code inlines this)."""
        from ptc_runtime.lookup import get_flexible

        return get_flexible(m, self, default)


def keyword(name: str) -> Keyword:
    """The keyword named `name` (without the colon)."""
    return Keyword(name)


class SymbolRef:
    """An inert quoted symbol (`'foo`, `'server/tool`); prints as `'name`."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __eq__(self, other: object) -> bool:
        return type(other) is SymbolRef and other.name == self.name

    def __hash__(self) -> int:
        return hash(("SymbolRef", self.name))

    def __repr__(self) -> str:
        return "'" + self.name


class VarRef:
    """The value of `def`/`defn`: an inert display `#'name`."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __eq__(self, other: object) -> bool:
        return type(other) is VarRef and other.name == self.name

    def __hash__(self) -> int:
        return hash(("VarRef", self.name))

    def __repr__(self) -> str:
        return "#'" + self.name


NIL: Final = None
