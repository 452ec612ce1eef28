"""Lowering: IR program -> one `ast.Module` (then checked and compiled once).

Entry: `lower(program) -> LoweredModule`. The module holds the hoisted constants
and functions, then `def program(): ...` for the top-level forms. Lowering never
raises `PtcError`: the analyzer has checked everything a program can get wrong.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from dataclasses import dataclass

from ptc_compiler import ir
from ptc_compiler.lower.check import finalize
from ptc_compiler.lower.ctx import FUEL, Ctx
from ptc_compiler.lower.emit import Emitter
from ptc_runtime.builtins.registry import BuiltinSpec


@dataclass(frozen=True, slots=True)
class LoweredModule:
    """The generated module and the PTC names of its functions (for messages)."""

    module: ast.Module
    fn_names: Mapping[str, str]


def lower(
    program: ir.Program,
    builtins: Mapping[str, BuiltinSpec] | None = None,
    *,
    guards: bool = True,
) -> LoweredModule:
    """Lower an analyzed program to a Python module defining `program()`.

    `guards=False` leaves out the step-budget checks (benchmarks of guard overhead only).

    Raises `GeneratedCodeRejected` (a compiler bug) if the result leaves the allowed subset.
    """
    if builtins is None:
        from ptc_runtime.builtins import BUILTINS

        builtins = BUILTINS
    cx = Ctx()
    if program.prelude_key is not None:
        cx.prelude_key = program.prelude_key
        cx.const("attach", program.prelude_key)  # first: the run sees its prelude
    emitter = Emitter(builtins, cx)
    main = emitter.program(program.body)
    module = ast.Module(body=[*cx.hoisted, main], type_ignores=[])
    if not guards:
        module = _Unguard().visit(module)
    finalize(module)  # positions for every node + the allow-list, in one pass
    return LoweredModule(module, dict(cx.fn_names))


class _Unguard(ast.NodeTransformer):
    """Drop `FUEL -= 1` and `if FUEL < 0: FUEL = rt_refuel()` (see `ctx.fuel_check`)."""

    def visit_AugAssign(self, node: ast.AugAssign) -> ast.AST | None:
        if isinstance(node.target, ast.Name) and node.target.id == FUEL:
            return None
        return node

    def visit_If(self, node: ast.If) -> ast.AST | None:
        t = node.test
        if (
            isinstance(t, ast.Compare)
            and isinstance(t.left, ast.Name)
            and t.left.id == FUEL
            and not node.orelse
        ):
            return None
        self.generic_visit(node)
        return node
