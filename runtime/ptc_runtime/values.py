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
import weakref
from typing import Final

try:  # removes a key only while its value is a dead reference (as WeakValueDictionary)
    from _weakref import _remove_dead_weakref  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - other interpreters

    def _remove_dead_weakref(d: dict[str, weakref.KeyedRef[str, Keyword]], key: str) -> None:
        ref = d.get(key)
        if ref is not None and ref() is None:
            d.pop(key, None)


#: The intern table: name -> a weak reference to the one live `Keyword` of that name.
#: Weak, so a keyword lives exactly as long as something refers to it (a value a run
#: holds, a session's definitions, a compiled module's constants, a prelude's exports)
#: and a run that mints many keywords leaves nothing behind. Identity still means
#: equality: while a keyword is alive the table returns it, and once it is gone no
#: value can hold it to compare with a newer one of the same name.
#: Readers that must not mint a keyword use `existing_keyword` (or inline it).
INTERNED: Final[dict[str, weakref.KeyedRef[str, Keyword]]] = {}
_lock: Final = threading.Lock()


def _forget(ref: weakref.KeyedRef[str, Keyword]) -> None:
    """A keyword died: drop its entry, unless a new one of that name took its place."""
    _remove_dead_weakref(INTERNED, ref.key)


class Keyword:
    """An interned keyword; `:name` prints with its colon.

    Interning makes equality and hashing the C-level identity defaults, so keywords are
    as fast as strings as map keys. Never construct directly: use `keyword(name)`.
    The table holds keywords weakly (see `INTERNED`).
    """

    __slots__ = ("__weakref__", "name")

    name: str

    def __new__(cls, name: str) -> Keyword:
        ref = INTERNED.get(name)
        if ref is not None:
            found = ref()
            if found is not None:
                return found
        with _lock:
            ref = INTERNED.get(name)
            found = None if ref is None else ref()
            if found is None:
                found = object.__new__(cls)
                object.__setattr__(found, "name", name)
                INTERNED[name] = weakref.KeyedRef(found, _forget, name)
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


def existing_keyword(name: str) -> Keyword | None:
    """The live keyword named `name`, or None; never mints one."""
    ref = INTERNED.get(name)
    return None if ref is None else ref()


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
