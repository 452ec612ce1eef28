"""Forms: what the reader produces from source text and the analyzer consumes.

Every form carries a `Span` (1-based line and column, counted in code points).
Equality ignores spans, so tests can compare trees built by hand.
Forms are plain data: the reader never resolves names or checks special forms.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeAlias


@dataclass(frozen=True, slots=True)
class Span:
    """1-based line and column in code points, start inclusive, end exclusive."""

    line: int
    col: int
    end_line: int
    end_col: int

    def __str__(self) -> str:
        return f"{self.line}:{self.col}"


NO_SPAN = Span(0, 0, 0, 0)


@dataclass(frozen=True, slots=True)
class Const:
    """A scalar literal: nil (None), true/false, int, float (incl. ##Inf/##NaN) or string.

    Character literals read as one-character strings (`is_char` records the spelling).
    """

    value: bool | int | float | str | None
    span: Span = field(default=NO_SPAN, compare=False)
    is_char: bool = field(default=False, compare=False)


@dataclass(frozen=True, slots=True)
class KeywordForm:
    """`:name` — the name without the colon."""

    name: str
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class Symbol:
    """A symbol; `ns` is set for qualified symbols (`data/x`, `str/join`, `Math/abs`).

    The split is at the first `/` when both sides are non-empty; `/` alone is the
    division function (`ns=None, name="/"`). `*1`..`*3` arrive as symbols too.
    """

    name: str
    ns: str | None = None
    span: Span = field(default=NO_SPAN, compare=False)

    @property
    def text(self) -> str:
        """The symbol as written."""
        return self.name if self.ns is None else f"{self.ns}/{self.name}"


@dataclass(frozen=True, slots=True)
class ListForm:
    """`( ... )`: a call or special form (the empty list reads fine; analysis rejects it)."""

    items: tuple[Form, ...]
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class VectorForm:
    """`[ ... ]`."""

    items: tuple[Form, ...]
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class MapForm:
    """`{ k v ... }`: `items` is the flat key/value sequence (always even length)."""

    items: tuple[Form, ...]
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class SetForm:
    """`#{ ... }`."""

    items: tuple[Form, ...]
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class ShortFn:
    """`#( ... )`: the forms inside the parentheses."""

    items: tuple[Form, ...]
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class RegexForm:
    """`#"..."`: the pattern text after string-escape decoding."""

    source: str
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class VarQuote:
    """`#'sym`: evaluates like the symbol itself."""

    symbol: Symbol
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class Quote:
    """`'sym` or `(quote sym)` read as an inert symbol reference; `text` is the raw name."""

    text: str
    span: Span = field(default=NO_SPAN, compare=False)


Form: TypeAlias = (
    Const
    | KeywordForm
    | Symbol
    | ListForm
    | VectorForm
    | MapForm
    | SetForm
    | ShortFn
    | RegexForm
    | VarQuote
    | Quote
)
