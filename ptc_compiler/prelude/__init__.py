"""Preludes: libraries of PTC-Lisp compiled once, loaded fast (docs/preludes.md).

    from ptc_compiler.prelude import Environment, compile_to_dir, load_bundle

    compile_to_dir(["examples/preludes"], "build/preludes")       # ptc compile ... -o ...
    env = Environment(["build/preludes"], tools={...}, data={...})
    env.run("(orders/revenue data/orders)")
"""

from ptc_compiler.prelude.bundle import Bundle, ExportRecord, graph_hash
from ptc_compiler.prelude.component import PreludeError, compile_component
from ptc_compiler.prelude.environment import Environment, Inventory, ToolEntry
from ptc_compiler.prelude.load import compile_to_dir, load_bundle

__all__ = [
    "Bundle",
    "Environment",
    "ExportRecord",
    "Inventory",
    "PreludeError",
    "ToolEntry",
    "compile_component",
    "compile_to_dir",
    "graph_hash",
    "load_bundle",
]
