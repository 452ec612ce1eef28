"""Lowering: IR program -> one `ast.Module` (then checked and compiled once).

Entry: `lower(program) -> LoweredModule`. The module holds the hoisted constants
and functions, then `def program(): ...` for the top-level forms. Lowering raises
`PtcError` only for limits of the generated code: a compile budget run out
(`compile_limit`) or loops nested past CPython's block limit (`program_too_complex`,
`blocks`); the analyzer has checked everything else a program can get wrong.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from dataclasses import dataclass

from ptc_compiler import ir
from ptc_compiler.budget import CompileBudget
from ptc_compiler.lower.blocks import check_block_depth
from ptc_compiler.lower.check import finalize
from ptc_compiler.lower.ctx import CREDIT, FUEL, PULL, Ctx
from ptc_compiler.lower.emit import Emitter
from ptc_compiler.optimize import registry
from ptc_compiler.optimize import run as optimize_ir
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
    budget: CompileBudget | None = None,
    rules: registry.RuleSet | None = None,
) -> LoweredModule:
    """Lower an analyzed program to a Python module defining `program()`.

    `guards=False` leaves out the step-budget checks (benchmarks of guard overhead only).
    `budget` is charged per node lowered (`ptc_compiler.budget`); none means unbounded.
    `rules`: the optimiser rules it may apply (`ptc_compiler.optimize`; default all of
    them): first the optimiser's IR pass, then the lowering with those rules current.

    Raises `GeneratedCodeRejected` (a compiler bug) if the result leaves the allowed subset.
    """
    if builtins is None:
        from ptc_runtime.builtins import BUILTINS

        builtins = BUILTINS
    if rules is None:
        rules = registry.for_compile(True)
    with registry.using(rules):
        return _lower(optimize_ir(program, rules), builtins, guards, budget)


def _lower(
    program: ir.Program,
    builtins: Mapping[str, BuiltinSpec],
    guards: bool,
    budget: CompileBudget | None,
) -> LoweredModule:
    cx = Ctx()
    if program.prelude_key is not None:
        cx.prelude_key = program.prelude_key
        cx.const("attach", program.prelude_key)  # first: the run sees its prelude
    emitter = Emitter(builtins, cx, budget)
    main = emitter.program(program.body)
    module = ast.Module(body=[*cx.hoisted, main], type_ignores=[])
    if not guards:
        module = _Unguard().visit(module)
    finalize(module, budget=budget)  # positions for every node + the allow-list, in one pass
    check_block_depth(module)  # a program error where loops nest past what CPython compiles
    return LoweredModule(module, dict(cx.fn_names))


class _Unguard(ast.NodeTransformer):
    """Take out the fuel pulls (see `ctx.fuel_check` and `ctx.fuel_loop`).

    A check `for t0 in FUEL: break` and a loop's entry credit `for t0 in CREDIT: break`
    are dropped; a fuel-driven loop
    `while True: for t0 in FUEL: <body> ...` becomes `while True: <body>` (the body's
    `break`s and `continue`s then act on the `while` directly, as they should).
    """

    def visit_For(self, node: ast.For) -> ast.AST | None:
        if _is_pull(node) and len(node.body) == 1 and isinstance(node.body[0], ast.Break):
            return None
        self.generic_visit(node)
        if not node.body:  # `(doseq [x xs] x)`: the check was all there was
            node.body = [ast.Continue()]
        return node

    def visit_While(self, node: ast.While) -> ast.AST:
        first = node.body[0] if node.body else None
        if isinstance(first, ast.For) and _is_pull(first, (FUEL,)):
            node.body = first.body
        self.generic_visit(node)
        return node


def _is_pull(node: ast.For, sources: tuple[str, ...] = (FUEL, CREDIT)) -> bool:
    return (
        isinstance(node.iter, ast.Name)
        and node.iter.id in sources
        and isinstance(node.target, ast.Name)
        and node.target.id == PULL
    )
