"""Linking compiled components into an immutable, hash-identified bundle.

`link(units)` executes each component's module once (dependencies first) in its own globals
(runtime helpers, builtins, its table `PNS`, its direct dependencies' exports `PDEP`),
evaluates its constants in a bare run context with no tools, checks constant types, and
collects the public exports. The bundle also answers introspection (`PreludeIndex`) and
computes, per export, the tools it requires (transitively, through private helpers and
dependency exports) and its effect.
"""

from __future__ import annotations

import hashlib
import json
import struct
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import CodeType, MappingProxyType
from typing import Any

from ptc_compiler.analyzer.env import ExportInfo
from ptc_compiler.prelude.component import ComponentMeta, Definition, PreludeError
from ptc_runtime import context
from ptc_runtime import prelude as rt_prelude
from ptc_runtime.errors import FailSignal, PtcError, ReturnSignal
from ptc_runtime.values import keyword

_EFFECT_RANK = {"read": 0, "unknown": 1, "write": 2}
#: Steps and time a component's constants may take when the bundle is linked.
CONSTANT_STEPS = 1_000_000
CONSTANT_SECONDS = 5.0


def join_effects(effects: Iterable[str]) -> str:
    best = "read"
    for e in effects:
        if _EFFECT_RANK[e] > _EFFECT_RANK[best]:
            best = e
    return best


def graph_hash(metas: Iterable[ComponentMeta]) -> str:
    """Hash of the component graph: changes iff a source or a dependency edge changes.

    Domain-separated framing over the components sorted by namespace; each record is the
    canonical JSON of `{deps, source_hash}` (independent of the Python and compiler version).
    """
    items = sorted(metas, key=lambda m: m.ns.encode())
    h = hashlib.sha256(b"ptc.prelude-bundle.v1\0")
    h.update(struct.pack(">I", len(items)))
    for m in items:
        ns = m.ns.encode()
        payload = json.dumps(
            {"deps": sorted(m.deps), "source_hash": m.source_hash},
            sort_keys=True,
            separators=(",", ":"),
        ).encode()
        h.update(b"\x01" + struct.pack(">I", len(ns)) + ns + struct.pack(">Q", len(payload)))
        h.update(payload)
    return h.hexdigest()


def topo_order(metas: Sequence[ComponentMeta]) -> list[ComponentMeta]:
    """Dependencies before dependants; unknown deps, duplicates and cycles are errors."""
    by_ns: dict[str, ComponentMeta] = {}
    for m in metas:
        if m.ns in by_ns:
            raise PreludeError(
                "duplicate_namespace", f"namespace {m.ns} is provided twice", component=m.ns
            )
        by_ns[m.ns] = m
    out: list[ComponentMeta] = []
    state: dict[str, int] = {}

    def visit(ns: str, path: list[str]) -> None:
        s = state.get(ns)
        if s == 2:
            return
        if s == 1:
            cycle = " -> ".join([*path[path.index(ns) :], ns])
            raise PreludeError("dependency_cycle", f"dependency cycle: {cycle}", component=ns)
        state[ns] = 1
        m = by_ns[ns]
        for dep in m.deps:
            if dep not in by_ns:
                raise PreludeError(
                    "unknown_dependency",
                    f"depends on {dep}, which is not among the preludes given",
                    component=ns,
                )
            visit(dep, [*path, ns])
        state[ns] = 2
        out.append(m)

    for ns in sorted(by_ns):
        visit(ns, [])
    return out


@dataclass(frozen=True)
class ExportRecord:
    """One public export as prompts, `export-meta` and attach checks see it."""

    ref: str
    ns: str
    name: str
    kind: str
    doc: str | None
    signature: str | None
    type: str | None
    arities: tuple[int, ...]
    variadic_min: int | None
    params: tuple[str, ...]
    visibility: str
    effect: str
    requires: tuple[str, ...]  # "tool:x", transitive + declared

    @property
    def call(self) -> str:
        """The call form: `(ns/name a b)`, or the bare ref of a constant."""
        if self.kind == "constant":
            return self.ref
        return "(" + " ".join([self.ref, *self.params]) + ")"

    @property
    def tools(self) -> tuple[str, ...]:
        return tuple(r.split(":", 1)[1] for r in self.requires)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "ref": self.ref,
            "namespace": self.ns,
            "name": self.name,
            "kind": self.kind,
            "call": self.call,
            "doc": self.doc,
            "visibility": self.visibility,
            "effect": self.effect,
            "requires": list(self.requires),
        }
        if self.kind == "function":
            out["arity"] = self._arity()
            out["params"] = list(self.params)
        if self.signature is not None:
            out["signature"] = self.signature
        if self.type is not None:
            out["type"] = self.type
        return out

    def _arity(self) -> int | str:
        if self.variadic_min is None and len(self.arities) == 1:
            return self.arities[0]
        parts = [str(a) for a in self.arities]
        if self.variadic_min is not None:
            parts.append(f"{self.variadic_min}+")
        return " or ".join(parts)

    def doc_text(self) -> str:
        lines = [self.call]
        if self.signature is not None:
            lines.append("  " + self.signature)
        if self.type is not None:
            lines.append("  " + self.type)
        lines.append("  " + (self.doc or "(no documentation)"))
        return "\n".join(lines)


def export_records(metas: Sequence[ComponentMeta]) -> dict[str, ExportRecord]:
    """Records of all public exports with transitive requirements and inferred effects."""
    defs: dict[str, tuple[ComponentMeta, Definition]] = {}
    for m in metas:
        for d in m.definitions:
            defs[f"{m.ns}/{d.name}"] = (m, d)
    tools: dict[str, set[str]] = {}
    effects: dict[str, str] = {}
    for ref, (_m, d) in defs.items():
        tools[ref] = set(d.tools) | {r.split(":", 1)[1] for r in d.requires}
        effects[ref] = d.effect or "read"
    edges = {
        ref: [f"{m.ns}/{s}" for s in d.siblings] + list(d.exports)
        for ref, (m, d) in defs.items()
    }
    changed = True
    while changed:  # fixpoint (mutual recursion between siblings)
        changed = False
        for ref, callees in edges.items():
            t = tools[ref]
            e = effects[ref]
            for c in callees:
                if c not in tools:
                    continue
                if not tools[c] <= t:
                    t |= tools[c]
                    changed = True
                joined = join_effects((e, effects[c]))
                if joined != e:
                    e = joined
                    changed = True
            effects[ref] = e
    out: dict[str, ExportRecord] = {}
    for ref, (m, d) in defs.items():
        if d.private:
            continue
        effect = effects[ref]
        if tools[ref] and effect == "read":
            effect = "unknown"  # reaching a capability is never reported as :read
        out[ref] = ExportRecord(
            ref=ref,
            ns=m.ns,
            name=d.name,
            kind=d.kind,
            doc=d.doc,
            signature=d.signature,
            type=d.type,
            arities=d.arities,
            variadic_min=d.variadic_min,
            params=d.params,
            visibility=d.visibility or m.visibility,
            effect=effect,
            requires=tuple(sorted(f"tool:{t}" for t in tools[ref])),
        )
    return out


def source_index(metas: Sequence[ComponentMeta]) -> dict[str, str]:
    """`(source ns/x)` texts: public exports, and private helpers reachable from them only."""
    out: dict[str, str] = {}
    for m in metas:
        by_name = {d.name: d for d in m.definitions}
        reachable: set[str] = set()
        todo = [d.name for d in m.definitions if not d.private]
        while todo:
            name = todo.pop()
            if name in reachable:
                continue
            reachable.add(name)
            todo.extend(by_name[name].siblings)
        for d in m.definitions:
            if d.name not in reachable:
                continue
            vis = "private" if d.private else (d.visibility or m.visibility)
            arity = "constant" if d.kind == "constant" else _arity_text(d)
            header = f";; {m.ns}/{d.name} ({vis}, {arity})"
            out[f"{m.ns}/{d.name}"] = header + "\n" + d.source
    return out


def _arity_text(d: Definition) -> str:
    parts = [str(a) for a in d.arities]
    if d.variadic_min is not None:
        parts.append(f"{d.variadic_min}+")
    return "arity " + " or ".join(parts)


class BundleIndex:
    """The `PreludeIndex` of a bundle (introspection builtins read it)."""

    def __init__(self, records: Mapping[str, ExportRecord], sources: Mapping[str, str]) -> None:
        self._records = records
        self._sources = sources

    def namespaces(self) -> Sequence[str]:
        return sorted({r.ns for r in self._records.values()})

    def exports(self, ns: str) -> Sequence[str]:
        return sorted(r.ref for r in self._records.values() if r.ns == ns)

    def doc_text(self, ref: str) -> str | None:
        r = self._records.get(ref)
        return None if r is None else r.doc_text()

    def meta(self, ref: str) -> Mapping[object, object] | None:
        r = self._records.get(ref)
        if r is None:
            return None
        out: dict[object, object] = {
            keyword("ref"): r.ref,
            keyword("namespace"): r.ns,
            keyword("symbol"): r.name,
            keyword("kind"): keyword(r.kind),
            keyword("call"): r.call,
            keyword("doc"): r.doc,
            keyword("visibility"): keyword(r.visibility),
            keyword("effect"): keyword(r.effect),
        }
        if r.kind == "function":
            out[keyword("arity")] = r._arity()
            out[keyword("params")] = list(r.params)
        if r.signature is not None:
            out[keyword("signature")] = r.signature
        if r.type is not None:
            out[keyword("type")] = r.type
        return out

    def source(self, ref: str) -> str | None:
        return self._sources.get(ref)

    def search(self, term: str) -> Sequence[str]:
        hits = []
        for r in self._records.values():
            hay = " ".join(x for x in (r.ref, r.signature, r.type, r.doc) if x).lower()
            if term in hay:
                hits.append(r.ref)
        return sorted(hits)


class Bundle:
    """Linked preludes: immutable export table, records, index and a graph-hash key."""

    def __init__(
        self,
        metas: Sequence[ComponentMeta],
        exports: Mapping[str, object],
        artifact_hashes: Mapping[str, str] | None = None,
    ) -> None:
        self.metas: tuple[ComponentMeta, ...] = tuple(metas)
        self.key = graph_hash(metas)
        self.exports: Mapping[str, object] = MappingProxyType(dict(exports))
        self.records: Mapping[str, ExportRecord] = MappingProxyType(export_records(metas))
        self.index = BundleIndex(self.records, source_index(metas))
        self.namespaces = frozenset(m.ns for m in metas)
        self.artifact_hashes = dict(artifact_hashes or {})

    def export_infos(self) -> dict[str, ExportInfo]:
        out: dict[str, ExportInfo] = {}
        for m in self.metas:
            out.update(m.export_infos())
        return out

    def direct_tools(self) -> dict[str, set[str]]:
        """tool name -> namespaces whose code names it directly."""
        out: dict[str, set[str]] = {}
        for m in self.metas:
            for d in m.definitions:
                for t in d.tools:
                    out.setdefault(t, set()).add(m.ns)
        return out

    def __repr__(self) -> str:
        return f"Bundle({', '.join(sorted(self.namespaces))}; {self.key[:12]})"


def link(units: Sequence[tuple[ComponentMeta, CodeType]], *, register: bool = True) -> Bundle:
    """Execute the components (dependencies first) and build the bundle.

    With `register`, a bundle with the same key already linked in this process is reused.
    """
    from ptc_runtime.executor import base_globals

    metas = topo_order([m for m, _ in units])
    if register:
        key = graph_hash(metas)
        found = rt_prelude.lookup(key)
        if isinstance(found, Bundle):
            return found
    codes = {m.ns: code for m, code in units}
    exports: dict[str, object] = {}
    base = base_globals()
    for m in metas:
        table: dict[str, object] = {}
        g = dict(base)
        g["__builtins__"] = {}
        g["PNS"] = table
        g["PDEP"] = {r: v for r, v in exports.items() if r.split("/", 1)[0] in m.deps}
        g["FUEL"] = context.FUEL_CHUNK
        _run_module(m, codes[m.ns], g)
        _check_constants(m, table)
        for d in m.definitions:
            if not d.private:
                exports[f"{m.ns}/{d.name}"] = table[d.name]
    bundle = Bundle(metas, exports)
    if register:
        registered = rt_prelude.register(bundle)
        assert isinstance(registered, Bundle)
        return registered
    return bundle


def _run_module(m: ComponentMeta, code: CodeType, g: dict[str, Any]) -> None:
    ctx = context.RunContext(
        max_steps=CONSTANT_STEPS, deadline=time.monotonic() + CONSTANT_SECONDS
    )
    g["FUEL"] = ctx.first_fuel()
    token = context.install(ctx)
    try:
        exec(code, g)
        g["program"]()
    except (ReturnSignal, FailSignal):
        raise PreludeError(
            "invalid_form", "return/fail in a constant initialiser", component=m.ns
        ) from None
    except PtcError as exc:
        raise PreludeError(
            "constant_error", f"evaluating constants failed: {exc.message}", component=m.ns
        ) from None
    except RecursionError:
        raise PreludeError(
            "constant_error", "evaluating constants recursed too deeply", component=m.ns
        ) from None
    except Exception as exc:  # a constant's Python-level failure (bad types, ...)
        raise PreludeError(
            "constant_error",
            f"evaluating constants failed ({type(exc).__name__})",
            component=m.ns,
        ) from None
    finally:
        context.uninstall(token)
    g["FUEL"] = context.FUEL_CHUNK


def _check_constants(m: ComponentMeta, table: Mapping[str, object]) -> None:
    from ptc_compiler.signatures import parse_type, path_text, validate_value

    for d in m.definitions:
        if d.kind != "constant" or d.type is None:
            continue
        errors = validate_value(parse_type(d.type), table[d.name])
        if errors:
            e = errors[0]
            where = path_text(e.path) if e.path else "value"
            raise PreludeError(
                "type_mismatch",
                f"constant {d.name} does not match its :type {d.type} at {where}: "
                f"{e.message}",
                component=m.ns,
            )
