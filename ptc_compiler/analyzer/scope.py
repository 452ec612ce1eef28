"""Lexical context threaded through analysis: locals, the recur target, `#()` state."""

from __future__ import annotations

from dataclasses import dataclass, field

from ptc_compiler.forms import Span
from ptc_runtime.errors import AnalysisError


@dataclass(slots=True)
class ShortFnState:
    """Placeholders met inside one `#()`: index -> local ident (0 means `%&`).

    The arity is only known once the body is analyzed, so `recur` argument counts
    directly targeting the `#()` are recorded and checked afterwards.
    """

    idents: dict[int, str] = field(default_factory=dict)
    recurs: list[tuple[int, Span]] = field(default_factory=list)


class Ctx:
    """An analysis context; cheap to derive, never mutated once shared.

    `locals` maps a PTC name to its unique ident. `recur` is the slot count of the
    innermost recur target (loop bindings / fn params), None where `recur` may not
    appear. `defs_visible` is True where a `def` makes its name known to the forms
    analyzed after it: everywhere outside a function body, as in Clojure, where a `def`
    interns its name when compiled (in a branch that never runs, a read of the name then
    fails at run time with `unbound_var`). `def_self` names may be referenced
    leniently (a `def`'s own initialiser).
    """

    __slots__ = ("def_self", "defs_visible", "locals", "recur", "short")

    def __init__(
        self,
        locals_: dict[str, str],
        recur: int | None,
        defs_visible: bool,
        short: ShortFnState | None,
        def_self: frozenset[str],
    ) -> None:
        self.locals = locals_
        self.recur = recur
        self.defs_visible = defs_visible
        self.short = short
        self.def_self = def_self

    @property
    def sub(self) -> Ctx:
        """The context of a nested expression position (the same: defs stay visible)."""
        return self

    def with_locals(self, locals_: dict[str, str]) -> Ctx:
        """Same context with another locals table (bindings added by the caller)."""
        return Ctx(locals_, self.recur, self.defs_visible, self.short, self.def_self)

    def with_recur(self, recur: int | None, locals_: dict[str, str] | None = None) -> Ctx:
        """A new recur target (loop, fn arity) or none (`for` bodies)."""
        return Ctx(
            self.locals if locals_ is None else locals_,
            recur,
            self.defs_visible,
            self.short,
            self.def_self,
        )

    def for_fn(self, locals_: dict[str, str], recur: int, short: ShortFnState | None) -> Ctx:
        """The context of a function body."""
        return Ctx(locals_, recur, False, short, self.def_self)

    def with_def_self(self, name: str) -> Ctx:
        return Ctx(self.locals, self.recur, self.defs_visible, self.short, self.def_self | {name})


def error(code: str, message: str, span: Span, hint: str | None = None) -> AnalysisError:
    """An `AnalysisError` located at `span` (no position for synthetic forms)."""
    if span.line <= 0:
        return AnalysisError(code, message, hint=hint)
    return AnalysisError(code, message, line=span.line, column=span.col, hint=hint)
