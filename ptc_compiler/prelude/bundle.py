"""Linking compiled components into an immutable, hash-identified bundle.

`link(units)` executes each component's module once (dependencies first) in its own globals
(runtime helpers, builtins, its table `PNS`, its direct dependencies' exports `PDEP`),
evaluates its constants in a bare run context with no tools, checks constant types, and
collects the public exports. Execution goes through `ptc_runtime.worker.prelude.run_component`,
the routine an isolated worker also uses when it loads the bundle's `package()`. The bundle
answers introspection (`PreludeIndex`, a `DataIndex` over the same data a worker receives)
and computes, per export, the tools it requires (transitively, through private helpers and
dependency exports) and its effect.
"""

from __future__ import annotations

import hashlib
import json
import struct
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import CodeType, MappingProxyType
from typing import Any

from ptc_compiler.analyzer.env import ExportInfo
from ptc_compiler.prelude.component import ComponentMeta, Definition, PreludeError
from ptc_runtime import prelude as rt_prelude
from ptc_runtime.errors import FailSignal, PtcError, ReturnSignal
from ptc_runtime.worker.prelude import (
    Component,
    DataIndex,
    PackageError,
    PreludePackage,
    build_package,
    index_record,
    run_component,
)

_EFFECT_RANK = {"read": 0, "unknown": 1, "write": 2}


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


def _meta_entries(r: ExportRecord) -> list[tuple[str, object, bool]]:
    """The `export-meta` map of a record: (key, value, value-is-keyword) in map order."""
    out: list[tuple[str, object, bool]] = [
        ("ref", r.ref, False),
        ("namespace", r.ns, False),
        ("symbol", r.name, False),
        ("kind", r.kind, True),
        ("call", r.call, False),
        ("doc", r.doc, False),
        ("visibility", r.visibility, True),
        ("effect", r.effect, True),
    ]
    if r.kind == "function":
        out.append(("arity", r._arity(), False))
        out.append(("params", list(r.params), False))
    if r.signature is not None:
        out.append(("signature", r.signature, False))
    if r.type is not None:
        out.append(("type", r.type, False))
    return out


def index_data(records: Mapping[str, ExportRecord]) -> list[dict[str, Any]]:
    """Introspection data of the exports (what `DataIndex` answers from, in both modes)."""
    out = []
    for r in records.values():
        hay = " ".join(x for x in (r.ref, r.signature, r.type, r.doc) if x).lower()
        out.append(index_record(r.ref, r.ns, r.doc_text(), _meta_entries(r), hay))
    return out


class Bundle:
    """Linked preludes: immutable export table, records, index and a graph-hash key."""

    def __init__(
        self,
        metas: Sequence[ComponentMeta],
        exports: Mapping[str, object],
        artifact_hashes: Mapping[str, str] | None = None,
        codes: Mapping[str, CodeType] | None = None,
    ) -> None:
        self.metas: tuple[ComponentMeta, ...] = tuple(metas)
        self.key = graph_hash(metas)
        self.exports: Mapping[str, object] = MappingProxyType(dict(exports))
        self.records: Mapping[str, ExportRecord] = MappingProxyType(export_records(metas))
        self._index_data = index_data(self.records)
        self._sources = source_index(metas)
        self.index = DataIndex(self._index_data, self._sources)
        self.namespaces = frozenset(m.ns for m in metas)
        self.artifact_hashes = dict(artifact_hashes or {})
        self._codes = dict(codes or {})
        self._package: PreludePackage | None = None
        self._package_lock = threading.Lock()

    def package(self) -> PreludePackage:
        """This bundle encoded for isolated workers (built once; raises `PreludeError`).

        Components go in link order (dependencies first) with the names of their public
        definitions, plus the introspection data, so a worker reproduces `link` exactly.
        """
        with self._package_lock:
            if self._package is None:
                missing = [m.ns for m in self.metas if m.ns not in self._codes]
                if missing:
                    raise PreludeError(
                        "unsupported",
                        "this bundle was built without its code objects and cannot be "
                        "shipped to isolated workers",
                    )
                comps = [
                    Component(
                        m.ns,
                        tuple(m.deps),
                        tuple(d.name for d in m.definitions if not d.private),
                        self._codes[m.ns],
                    )
                    for m in self.metas
                ]
                try:
                    self._package = build_package(
                        self.key, comps, self._index_data, self._sources
                    )
                except PackageError as exc:
                    raise PreludeError("prelude_too_large", str(exc)) from None
            return self._package

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
    metas = topo_order([m for m, _ in units])
    if register:
        key = graph_hash(metas)
        found = rt_prelude.lookup(key)
        if isinstance(found, Bundle):
            return found
    codes = {m.ns: code for m, code in units}
    exports: dict[str, object] = {}
    for m in metas:
        table: dict[str, object] = {}
        deps = {r: v for r, v in exports.items() if r.split("/", 1)[0] in m.deps}
        _run_module(m, codes[m.ns], table, deps)
        _check_constants(m, table)
        for d in m.definitions:
            if not d.private:
                exports[f"{m.ns}/{d.name}"] = table[d.name]
    bundle = Bundle(metas, exports, codes=codes)
    if register:
        registered = rt_prelude.register(bundle)
        assert isinstance(registered, Bundle)
        return registered
    return bundle


def _run_module(
    m: ComponentMeta, code: CodeType, table: dict[str, object], deps: Mapping[str, object]
) -> None:
    try:
        run_component(code, table, deps)
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
