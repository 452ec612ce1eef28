"""The mission's "Available API" for the default agent prompt (seed 001, agent-design §3.12
BUD-07..10).

Prompt-visible prelude exports are listed per namespace with their signatures and docs. When
at least one such facade exists, raw `tool/...` entries are left out: the facades are how the
model should reach the capabilities. Otherwise every public tool is shown with its exact call
form. Each top-level `data` key appears as `data/<name>` with a bounded structural type,
never with its value. Every export and tool shows its effect (`read`, `write`, `unknown`),
which decides whether a failed program may be corrected and repeated.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from ptc_compiler import render_tools
from ptc_compiler.prelude import Environment
from ptc_runtime.host_api import Keyword, PMap, PSet, PVec

#: The reserved runtime routes every mission is granted (agent-design §1.9): usage and
#: capability discovery, reachable as `tool/<route>`. They are kernel surface, not the
#: mission's own capabilities, so the Available API does not list them.
MISSION_ROUTES: Final = ("cap-describe", "cap-list", "runtime-remaining", "runtime-usage")
TYPE_DEPTH: Final = 3
TYPE_FIELDS: Final = 8
TYPE_CHARS: Final = 200


def data_type(value: object, depth: int = 0) -> str:
    """A structural type of `value` in signature syntax; never any of its values."""
    if value is None:
        return ":any"
    if isinstance(value, bool):
        return ":bool"
    if isinstance(value, int):
        return ":int"
    if isinstance(value, float):
        return ":float"
    if isinstance(value, str):
        return ":string"
    if isinstance(value, Keyword):
        return ":keyword"
    if isinstance(value, list | tuple | PVec | PSet):
        items = list(value.m.values()) if isinstance(value, PSet) else value
        if depth >= TYPE_DEPTH or not items:
            return "[:any]"
        return "[" + data_type(next(iter(items)), depth + 1) + "]"
    if isinstance(value, dict | PMap):
        if depth >= TYPE_DEPTH or not value:
            return ":map"
        fields = []
        for i, (k, v) in enumerate(value.items()):
            if i >= TYPE_FIELDS:
                fields.append("...")
                break
            name = k.name if isinstance(k, Keyword) else str(k)
            fields.append(f"{name} {data_type(v, depth + 1)}")
        return "{" + ", ".join(fields) + "}"
    return ":any"


def _export_lines(inv: Any) -> list[str]:
    """The prompt-visible exports per namespace (sorted): a `;; ns - doc` header, each
    export's call form with its signature (or type) and its effect (`read`, `write` or
    `unknown`: an export reaching a capability is never reported as a read unless
    declared), and its doc; a blank line after each namespace."""
    by_ns: dict[str, list[Any]] = {}
    for e in inv.exports:
        if e.visibility == "prompt":
            by_ns.setdefault(e.ns, []).append(e)
    lines: list[str] = []
    for ns in sorted(by_ns):
        doc = inv.namespaces.get(ns)
        lines.append(f";; {ns}" + (f" - {doc}" if doc else ""))
        for e in by_ns[ns]:
            sig = e.signature or e.type
            lines.append(e.call + (f"  ; {sig}" if sig else "") + f"  ; effect: {e.effect}")
            if e.doc:
                lines.append(f"  ;; {e.doc}")
        lines.append("")
    return lines


def render(env: Environment) -> str:
    """The Available API text of a mission environment (see the module docstring)."""
    inv = env.inventory()
    lines = _export_lines(inv)
    facades = bool(lines)
    public = {
        t.name: env.tools[t.name]
        for t in inv.tools
        if not t.private_to and t.name not in MISSION_ROUTES
    }
    if public and not facades:  # facades, when present, replace the raw tool entries
        lines.append(";; tools")
        for name in sorted(public):
            # one tool's entry: its call form line first, then its doc line
            entry = render_tools({name: public[name]}).split("\n")[1:]
            effect = getattr(public[name], "effect", None) or "unknown"
            lines.extend([f"{entry[0]}  ; effect: {effect}", *entry[1:]])
    data: Mapping[str, Any] = env.data or {}
    if data:
        lines.append(";; data")
        for key in sorted(data):
            shape = data_type(data[key])
            if len(shape) > TYPE_CHARS:
                shape = shape[: TYPE_CHARS - 3] + "..."
            lines.append(f"data/{key}  ; {shape}")
    return "\n".join(lines).rstrip() + "\n"
