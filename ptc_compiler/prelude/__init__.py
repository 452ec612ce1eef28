"""Preludes: libraries of PTC-Lisp compiled once, loaded fast (docs/preludes.md).

    from ptc_compiler.prelude import Environment, compile_to_dir, load_bundle

    compile_to_dir(["examples/preludes"], "build/preludes")       # ptc compile ... -o ...
    env = Environment(["build/preludes"], tools={...}, data={...})
    env.run("(orders/revenue data/orders)")

Hosts that manage bundles themselves (the agent library) also use `read_header` (a
component's namespace and dependencies, without compiling it), `source_hash`,
`bundle_fingerprint` (a cheap identity for in-process caches of `load_bundle`) and
`resolve_cache_dir` (what a `CacheDir` choice names).
"""

from ptc_compiler.prelude.bundle import Bundle, ExportRecord, graph_hash
from ptc_compiler.prelude.component import compile_component
from ptc_compiler.prelude.environment import Environment, Inventory, ToolEntry
from ptc_compiler.prelude.header import Header, PreludeError, read_header, source_hash
from ptc_compiler.prelude.load import (
    CacheDir,
    bundle_fingerprint,
    compile_to_dir,
    load_bundle,
    resolve_cache_dir,
)

__all__ = [
    "Bundle",
    "CacheDir",
    "Environment",
    "ExportRecord",
    "Header",
    "Inventory",
    "PreludeError",
    "ToolEntry",
    "bundle_fingerprint",
    "compile_component",
    "compile_to_dir",
    "graph_hash",
    "load_bundle",
    "read_header",
    "resolve_cache_dir",
    "source_hash",
]
