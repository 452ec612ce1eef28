"""Preludes in isolated workers: the package the host ships and the worker's loader.

The host links a prelude bundle itself (it compiles, checks constants' types, computes
records); a worker needs only what running it takes: each component's code object, in
dependency order, the names of its public exports, and the introspection data (`dir`,
`doc`, `apropos`, `export-meta`, `source`). `build_package` turns that into one protocol
line, identified by the SHA-256 of its canonical JSON (`digest`); the worker loads it once
(`load_package`) and keeps it until the host tells it to drop it, so a warm run ships only
the digest.

Direction and trust: packages travel host -> worker only, and contain `marshal` data of
code objects our own compiler produced, exactly like the program code of every run. The
host is trusted, and so is what it writes on the worker's stdin; whoever could write there
could already send code in a `run` message, so the package adds no capability. The worker
still checks the digest, the framing, every size and every type before unmarshalling
anything, so a damaged or truncated message fails as a load failure, never as execution
of partial code. Nothing is ever unmarshalled in the other direction: the worker answers
with JSON only (`prelude_ok` / `prelude_failed`), which the host validates.

A loaded prelude is made resolvable (`ptc_runtime.prelude.register`) only for the duration
of a run that the host compiled against it, so a program cannot resolve the key of a
prelude another run shipped to the same worker, even by naming it in generated code.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import marshal
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import CodeType, MappingProxyType
from typing import Any, Final

from ptc_runtime import context
from ptc_runtime.values import keyword

#: Steps and seconds a prelude's constants may take when its components are executed.
CONSTANT_STEPS: Final = 1_000_000
CONSTANT_SECONDS: Final = 5.0
#: Largest prelude package line the host sends and the worker accepts.
MAX_PACKAGE_BYTES: Final = 32 * 1024 * 1024
#: Components in one package, and preludes one worker keeps loaded.
MAX_COMPONENTS: Final = 512
MAX_LOADED: Final = 8


class PackageError(Exception):
    """A prelude package that cannot be built or loaded (message is bounded and path-free)."""


# ---------------------------------------------------------------- execution


def run_component(code: CodeType, table: dict[str, object], deps: Mapping[str, object]) -> None:
    """Execute one component module: its `program()` fills `table` (PNS).

    `deps` are the direct dependencies' exports (PDEP). Constants run in a bare context
    (no tools, no data) under `CONSTANT_STEPS` and `CONSTANT_SECONDS`. Raises whatever the
    module raises (`PtcError`, return/fail signals, `RecursionError`, ...): the caller maps
    it. The host's linker and the worker's loader both execute components through here.
    """
    from ptc_runtime.executor import base_globals

    g = dict(base_globals())
    g["__builtins__"] = {}
    g["PNS"] = table
    g["PDEP"] = dict(deps)
    ctx = context.RunContext(max_steps=CONSTANT_STEPS, deadline=time.monotonic() + CONSTANT_SECONDS)
    g["FUEL"] = ctx.first_fuel()
    g["CREDIT"] = context.fresh_credit()
    token = context.install(ctx)
    try:
        exec(code, g)
        g["program"]()
    finally:
        context.uninstall(token)
    # Export calls later refill from whichever run calls them (see docs/preludes.md).
    g["FUEL"] = context.idle_fuel()
    context.credits_taken(g["CREDIT"], retire=True)  # the constants' credits end with them
    g["CREDIT"] = context.fresh_credit()


# ---------------------------------------------------------------- introspection


def index_record(
    ref: str,
    ns: str,
    doc_text: str,
    meta: Sequence[tuple[str, object, bool]],
    hay: str,
) -> dict[str, Any]:
    """One export's introspection data as JSON: `meta` is (key, value, value-is-keyword)."""
    return {
        "ref": ref,
        "ns": ns,
        "doc_text": doc_text,
        "meta": [[k, v, kw] for k, v, kw in meta],
        "hay": hay,
    }


class DataIndex:
    """A `PreludeIndex` over plain data (`index_record`s and source texts).

    The host's bundles and the worker's loaded packages answer introspection through this
    same class, so `(dir)`, `(doc ...)`, `(export-meta ...)` agree in both modes.
    """

    def __init__(self, records: Sequence[Mapping[str, Any]], sources: Mapping[str, str]) -> None:
        self._records = {str(r["ref"]): r for r in records}
        self._sources = dict(sources)
        self._namespaces = sorted({str(r["ns"]) for r in records})

    def namespaces(self) -> Sequence[str]:
        return list(self._namespaces)

    def exports(self, ns: str) -> Sequence[str]:
        return sorted(ref for ref, r in self._records.items() if r["ns"] == ns)

    def doc_text(self, ref: str) -> str | None:
        r = self._records.get(ref)
        return None if r is None else str(r["doc_text"])

    def meta(self, ref: str) -> Mapping[object, object] | None:
        r = self._records.get(ref)
        if r is None:
            return None
        out: dict[object, object] = {}
        for key, value, is_kw in r["meta"]:
            if is_kw:
                value = keyword(value)
            elif isinstance(value, list):
                value = list(value)  # every call gets its own vector
            out[keyword(key)] = value
        return out

    def source(self, ref: str) -> str | None:
        return self._sources.get(ref)

    def search(self, term: str) -> Sequence[str]:
        return sorted(ref for ref, r in self._records.items() if term in r["hay"])


# ---------------------------------------------------------------- host side


@dataclass(frozen=True)
class Component:
    """One compiled component as shipped: namespace, direct deps, public names, code."""

    ns: str
    deps: tuple[str, ...]
    exports: tuple[str, ...]
    code: CodeType


@dataclass(frozen=True)
class PreludePackage:
    """A linked bundle ready to ship: its key, its digest and the encoded protocol line."""

    key: str
    digest: str
    line: bytes


def _canonical(body: Mapping[str, Any]) -> bytes:
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def build_package(
    key: str,
    components: Sequence[Component],
    records: Sequence[Mapping[str, Any]],
    sources: Mapping[str, str],
) -> PreludePackage:
    """Encode a bundle for workers (components in dependency order); host side only."""
    if len(components) > MAX_COMPONENTS:
        raise PackageError(f"a prelude bundle of more than {MAX_COMPONENTS} components")
    body = {
        "key": key,
        "components": [
            {
                "ns": c.ns,
                "deps": list(c.deps),
                "exports": list(c.exports),
                "code": base64.b64encode(marshal.dumps(c.code)).decode("ascii"),
            }
            for c in components
        ],
        "index": {"records": list(records), "sources": dict(sources)},
    }
    canonical = _canonical(body)
    digest = hashlib.sha256(canonical).hexdigest()
    line = b'{"op":"prelude","digest":"' + digest.encode() + b'","body":' + canonical + b"}\n"
    if len(line) > MAX_PACKAGE_BYTES:
        raise PackageError(
            f"the prelude bundle is {len(line)} bytes encoded; isolated workers accept at "
            f"most {MAX_PACKAGE_BYTES}"
        )
    return PreludePackage(key, digest, line)


# ---------------------------------------------------------------- worker side


@dataclass(frozen=True)
class LoadedPrelude:
    """A package executed in the worker: what `ptc_runtime.prelude` resolves by key."""

    key: str
    exports: Mapping[str, object]
    index: DataIndex


def _str(x: object, what: str, limit: int = 256) -> str:
    if type(x) is not str or not x or len(x) > limit:
        raise PackageError(f"malformed prelude package ({what})")
    return x


def _str_list(x: object, what: str) -> list[str]:
    if type(x) is not list or len(x) > 100_000:
        raise PackageError(f"malformed prelude package ({what})")
    return [_str(v, what, 4096) for v in x]


def load_package(msg: Mapping[str, Any]) -> tuple[str, LoadedPrelude]:
    """Validate and execute a `prelude` message; returns (digest, loaded prelude).

    Every check precedes `marshal.loads`: the digest over the canonical body, the shape
    and size of every field, dependency order. Raises `PackageError` (bounded message) or
    whatever a component raises while it runs (the caller reports it).
    """
    digest = _str(msg.get("digest"), "digest", 64)
    body = msg.get("body")
    if type(body) is not dict:
        raise PackageError("malformed prelude package (body)")
    if hashlib.sha256(_canonical(body)).hexdigest() != digest:
        raise PackageError("prelude package digest mismatch")
    key = _str(body.get("key"), "key", 128)
    comps = body.get("components")
    # An empty bundle is a valid package: an isolated environment without preludes still
    # compiles its programs against the bundle's key (for `dir`, `doc`, ...).
    if type(comps) is not list or len(comps) > MAX_COMPONENTS:
        raise PackageError("malformed prelude package (components)")
    index = body.get("index")
    if type(index) is not dict:
        raise PackageError("malformed prelude package (index)")
    records = index.get("records")
    sources = index.get("sources")
    if type(records) is not list or type(sources) is not dict:
        raise PackageError("malformed prelude package (index)")
    for r in records:
        if (
            type(r) is not dict
            or type(r.get("ref")) is not str
            or type(r.get("ns")) is not str
            or type(r.get("doc_text")) is not str
            or type(r.get("hay")) is not str
            or type(r.get("meta")) is not list
            or not all(type(m) is list and len(m) == 3 and type(m[0]) is str for m in r["meta"])
        ):
            raise PackageError("malformed prelude package (record)")
    if not all(type(k) is str and type(v) is str for k, v in sources.items()):
        raise PackageError("malformed prelude package (sources)")
    parsed: list[tuple[str, list[str], list[str], bytes]] = []
    seen: set[str] = set()
    for c in comps:
        if type(c) is not dict:
            raise PackageError("malformed prelude package (component)")
        ns = _str(c.get("ns"), "namespace", 128)
        deps = _str_list(c.get("deps"), "deps")
        exports = _str_list(c.get("exports"), "exports")
        if ns in seen or not all(d in seen for d in deps):
            raise PackageError("prelude package components are not in dependency order")
        seen.add(ns)
        text = c.get("code")
        if type(text) is not str or len(text) > MAX_PACKAGE_BYTES:
            raise PackageError("malformed prelude package (code)")
        try:
            raw = base64.b64decode(text, validate=True)
        except (binascii.Error, ValueError):
            raise PackageError("malformed prelude package (code encoding)") from None
        parsed.append((ns, deps, exports, raw))
    exported: dict[str, object] = {}
    for ns, deps, names, raw in parsed:
        try:
            code = marshal.loads(raw)
        except (ValueError, EOFError, TypeError):
            raise PackageError(f"prelude component {ns} does not unmarshal") from None
        if not isinstance(code, CodeType):
            raise PackageError(f"prelude component {ns} is not a code object")
        table: dict[str, object] = {}
        dep_exports = {r: v for r, v in exported.items() if r.split("/", 1)[0] in deps}
        run_component(code, table, dep_exports)
        for name in names:
            if name not in table:
                raise PackageError(f"prelude component {ns} does not define {name}")
            exported[f"{ns}/{name}"] = table[name]
    loaded = LoadedPrelude(key, MappingProxyType(exported), DataIndex(records, sources))
    return digest, loaded
