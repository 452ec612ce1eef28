"""Output: `println` captures one line in the run context."""

from __future__ import annotations

from ptc_runtime.builtins.registry import BuiltinSpec, declare
from ptc_runtime.context import current, emit_line
from ptc_runtime.printer import pr_str

DECLS: list[BuiltinSpec] = []


@declare(
    DECLS, "println", variadic_min=0, pure=False, doc="Print xs separated by spaces as one line."
)
def println(*xs: object) -> None:
    # A bounded print: a value larger than the line cap is cut by emit_line anyway, so
    # printing more than a little past it would only waste time and memory.
    budget = current().print_line_chars + 100
    parts = [x if type(x) is str else pr_str(x, budget) for x in xs]
    emit_line(" ".join(parts))
