"""The optimiser stage: rules that rewrite particular shapes of a program, declared in one
registry (`optimize.rules`), between analysis and the general lowering.

`run` is the IR -> IR pass (the `ir` rules, tried top-down at every node until none
applies there); the lowering (`ptc_compiler.lower`) then tries the `call` and `args`
rules registered for each call's head and consults the `site` rules where it meets their
form, and otherwise lowers generally. `compile(..., optimize=False)` compiles with no
rule at all: the general lowering alone, which every rule must agree with. The runtime
helpers that exist only for these rewrites live in `ptc_runtime.fast`.
"""

from __future__ import annotations

from typing import Any

from ptc_compiler import ir
from ptc_compiler.lower.scan import data_fields
from ptc_compiler.optimize import registry
from ptc_compiler.optimize.registry import RuleSet, disabled, fired, registered

__all__ = ["RuleSet", "disabled", "fired", "registered", "run"]


def run(program: ir.Program, rules: RuleSet) -> ir.Program:
    """`program` with the enabled `ir` rules applied (the same object when none applies)."""
    passes = [r for r in rules.stage("ir") if r.lower is not None]
    if not passes:
        return program
    body = _rewrite(program.body, passes)
    return program if body is program.body else _replace(program, body=body)


def _rewrite(node: Any, passes: list[registry.Rule]) -> Any:
    kind = type(node)
    if kind is tuple:
        items = tuple(_rewrite(x, passes) for x in node)
        return node if all(a is b for a, b in zip(items, node, strict=True)) else items
    names = data_fields(kind)
    if not names:
        return node
    again = True
    while again:  # every rule at this node, until none applies (each makes it smaller)
        again = False
        for rule in passes:
            new = rule.lower(node)  # type: ignore[misc]
            if new is not None:
                registry.fire(rule.name)
                node, again = new, True
                names = data_fields(type(node))
    changes: dict[str, Any] = {}
    for name in names:
        value = getattr(node, name)
        new = _rewrite(value, passes)
        if new is not value:
            changes[name] = new
    return _replace(node, **changes) if changes else node


def _replace(node: Any, **changes: Any) -> Any:
    from dataclasses import replace

    return replace(node, **changes)
