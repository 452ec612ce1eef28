"""An `Environment`: preludes + granted tools + data + limits, the whole API a run sees.

    env = Environment(preludes=["examples/preludes"], tools={"fetch-orders": fetch},
                      data={"region": "EU"})
    env.run("(orders/revenue (tool/fetch-orders {}))").value
    env.inventory()        # structured: exports and tools with signatures and docs
    env.render_api()       # the "available API" text for a prompt
    env.tool_schemas()     # model-visible JSON Schemas of the granted tools

Attaching checks that every tool an export requires (transitively) is granted and that a
private tool is only named by the prelude namespaces it is reserved for. Programs compiled
in the environment resolve `ns/name` to its exports (arity-checked before anything runs),
cannot call private tools, cannot define into a prelude namespace, and see the prelude in
`dir`/`doc`/`apropos`/`export-meta`/`source`.

With `mode="isolated"` the runs execute in worker processes (`ptc_runtime.worker`): the
host still compiles every program; the linked bundle is shipped to each worker once, as
its `Bundle.package()`, and the exports run there, their tool calls proxied back here.
"""

from __future__ import annotations

import builtins
import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import CodeType
from typing import Any

from ptc_compiler.analyzer import AnalysisEnv, analyze
from ptc_compiler.budget import CompileBudget
from ptc_compiler.lower import lower
from ptc_compiler.lower.check import GeneratedCodeRejected, check_restricted
from ptc_compiler.prelude.bundle import Bundle, ExportRecord
from ptc_compiler.prelude.component import PreludeError
from ptc_compiler.prelude.load import CacheDir, PreludeItem, Progress, load_bundle
from ptc_compiler.reader import read
from ptc_compiler.tools import Tool, host_tools
from ptc_runtime import seam
from ptc_runtime.errors import PtcError
from ptc_runtime.executor import GENERATED_FILENAME
from ptc_runtime.limits import DEFAULT_LIMITS, Limits
from ptc_runtime.worker.prelude import PreludePackage

_COMPILE_CACHE = 256


@dataclass(frozen=True)
class ShippedProgram:
    """A program compiled in an isolated environment: code plus the prelude it needs.

    The worker pool ships `prelude` to a worker before the first run that needs it."""

    program: Any  # ptc_compiler.api.Program
    prelude: PreludePackage

    @property
    def code(self) -> CodeType:
        code: CodeType = self.program.code
        return code

    @property
    def fn_names(self) -> Mapping[str, str]:
        names: Mapping[str, str] = self.program.fn_names
        return names

    @property
    def defines(self) -> frozenset[str]:
        defines: frozenset[str] = self.program.defines
        return defines


@dataclass(frozen=True)
class ToolEntry:
    """A granted tool as the inventory shows it."""

    name: str
    signature: str | None
    doc: str | None
    effect: str
    private_to: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name,
            "ref": f"tool/{self.name}",
            "signature": self.signature,
            "doc": self.doc,
            "effect": self.effect,
        }
        if self.private_to:
            out["private_to"] = list(self.private_to)
        return out


@dataclass(frozen=True)
class Inventory:
    """What an environment offers: prelude exports and tools, with signatures and docs."""

    namespaces: Mapping[str, str | None]  # ns -> doc
    exports: tuple[ExportRecord, ...]
    tools: tuple[ToolEntry, ...]
    data_keys: tuple[str, ...]

    def to_json(self, *, prompt_only: bool = False) -> dict[str, Any]:
        exports = [e for e in self.exports if not prompt_only or e.visibility == "prompt"]
        return {
            "namespaces": dict(self.namespaces),
            "exports": [e.to_json() for e in exports],
            "tools": [t.to_json() for t in self.tools if not t.private_to],
            "data": list(self.data_keys),
        }

    def prompt_export_lines(self) -> list[str]:
        """The prompt-visible exports as "Available API" lines, empty when there are none.

        Per namespace (sorted): a `;; ns - doc` header, each export's call form with its
        signature (or type) and its doc, then a blank line. `Environment.render_api` and the
        agent's mission API (`ptc_agent.mission_api`) both list exports this way.
        """
        lines: list[str] = []
        by_ns: dict[str, list[ExportRecord]] = {}
        for e in self.exports:
            if e.visibility == "prompt":
                by_ns.setdefault(e.ns, []).append(e)
        for ns in sorted(by_ns):
            doc = self.namespaces.get(ns)
            lines.append(f";; {ns}" + (f" - {doc}" if doc else ""))
            for e in by_ns[ns]:
                sig = e.signature or e.type
                lines.append(e.call + (f"  ; {sig}" if sig else ""))
                if e.doc:
                    lines.append(f"  ;; {e.doc}")
            lines.append("")
        return lines


class Environment:
    """Preludes, tools, data and limits bundled: every run in it sees exactly that API."""

    def __init__(
        self,
        preludes: Sequence[PreludeItem] | Bundle = (),
        *,
        tools: Mapping[str, Callable[..., Any]] | None = None,
        data: Mapping[str, Any] | None = None,
        limits: Limits | None = None,
        timeout_ms: float | None = 1000,
        max_steps: int = 10_000_000,
        cache_dir: CacheDir = None,
        progress: Progress | None = None,
        mode: seam.Mode = "in-process",
        pool_size: int = 2,
        artifact_key: bytes | str | None = None,
    ) -> None:
        if mode not in ("in-process", "isolated"):
            raise ValueError("mode must be 'in-process' or 'isolated'")
        if isinstance(preludes, Bundle):
            self.bundle = preludes
        else:
            self.bundle = load_bundle(
                list(preludes), cache_dir=cache_dir, progress=progress, key=artifact_key
            )
        self.tools: dict[str, Callable[..., Any]] = dict(host_tools(tools) or {})
        self.data = dict(data) if data is not None else None
        self.timeout_ms = timeout_ms
        self.max_steps = max_steps
        self._private = {
            name: tuple(t.private_to)
            for name, t in self.tools.items()
            if isinstance(t, Tool) and t.private_to
        }
        self._check_attach()
        exports = self.bundle.export_infos()
        self._analysis_env = AnalysisEnv(
            tools=frozenset(n for n in self.tools if n not in self._private),
            exports=exports,
            prelude_namespaces=self.bundle.namespaces,
            prelude_key=self.bundle.key,
            private_tools=frozenset(self._private),
        )
        self._cache: OrderedDict[tuple[str, frozenset[str]], Any] = OrderedDict()
        self._lock = threading.Lock()
        self.mode: seam.Mode = mode
        # Built before any worker starts, so a bundle too large to ship fails here.
        self._package = self.bundle.package() if mode == "isolated" else None
        self.runtime = seam.Runtime(
            self._compile_for_seam,
            mode=mode,
            limits=limits or DEFAULT_LIMITS,
            pool_size=pool_size,
        )

    # -- attach -----------------------------------------------------------------

    def _check_attach(self) -> None:
        granted = set(self.tools)
        missing: list[str] = []
        for rec in self.bundle.records.values():
            for tool in rec.tools:
                if tool not in granted:
                    missing.append(f"{rec.ref} requires tool:{tool}")
        if missing:
            raise PreludeError(
                "missing_tool",
                "prelude requirements are not granted: " + "; ".join(sorted(missing)[:20]),
                hint="grant these tools to the environment, or attach fewer preludes",
            )
        for tool, namespaces in self.bundle.direct_tools().items():
            allowed = self._private.get(tool)
            if allowed is None:
                continue
            bad = sorted(ns for ns in namespaces if ns not in allowed)
            if bad:
                raise PreludeError(
                    "private_tool_unauthorized",
                    f"tool/{tool} is reserved for {', '.join(allowed)}; "
                    f"{', '.join(bad)} may not call it",
                )

    # -- compile and run --------------------------------------------------------------

    def compile(self, source: str, user_names: frozenset[str] = frozenset()) -> Any:
        """Compile a program against this environment (raises `PtcError`)."""
        from ptc_compiler.api import Program

        key = (hashlib.sha256(source.encode("utf-8", "surrogatepass")).hexdigest(), user_names)
        with self._lock:
            hit = self._cache.get(key)
            if hit is not None:
                self._cache.move_to_end(key)
                return hit
        env = AnalysisEnv(
            user_names=user_names,
            tools=self._analysis_env.tools,
            exports=self._analysis_env.exports,
            prelude_namespaces=self._analysis_env.prelude_namespaces,
            prelude_key=self._analysis_env.prelude_key,
            private_tools=self._analysis_env.private_tools,
        )
        limits = self.runtime.limits  # the program's compile budget (ptc_compiler.budget)
        budget = CompileBudget(limits.compile_timeout_ms, limits.compile_nodes)
        try:
            analyzed = analyze(read(source), env, budget)
            lowered = lower(analyzed, budget=budget)
            budget.check()
            check_restricted(lowered.module, budget)
            code = builtins.compile(lowered.module, GENERATED_FILENAME, "exec", dont_inherit=True)
        except GeneratedCodeRejected as exc:
            raise PtcError("internal_error", f"internal compiler error: {exc}") from None
        except RecursionError:
            raise PtcError("program_too_complex", "program nests too deeply to compile") from None
        program = Program(
            source=source,
            code=code,
            ir=analyzed,
            fn_names=lowered.fn_names,
            tools=analyzed.tools,
            data_keys=analyzed.data_keys,
        )
        with self._lock:
            self._cache[key] = program
            while len(self._cache) > _COMPILE_CACHE:
                self._cache.popitem(last=False)
        return program

    def _compile_for_seam(
        self, source: str, tools: frozenset[str] | None, user_names: frozenset[str]
    ) -> Any:
        program = self.compile(source, user_names)
        if self._package is not None:
            return ShippedProgram(program, self._package)
        return program

    def run(
        self,
        source: str,
        *,
        data: Mapping[str, Any] | None = None,
        timeout_ms: float | object | None = ...,
        max_steps: int | None = None,
        state_owner: object | None = None,
        cancel: Any = None,
        native: bool = False,
    ) -> Any:
        """Run `source` here; `data` (if given) is merged over the environment's data.

        The value is the completion's JSON projection in both modes (as for
        `ptc_compiler.run`), or with `native=True` the value as PTC data (isolated:
        `ptc_runtime.worker.crossing`, functions and other non-data as inert labels)."""
        from ptc_compiler.api import result_of

        spec = self._spec(source, data, timeout_ms, max_steps, state_owner, cancel, native)
        return result_of(self.runtime.run(spec))

    async def arun(
        self,
        source: str,
        *,
        data: Mapping[str, Any] | None = None,
        timeout_ms: float | object | None = ...,
        max_steps: int | None = None,
        state_owner: object | None = None,
        cancel: Any = None,
    ) -> Any:
        """`run` for async hosts: coroutine tools are awaited on the calling loop."""
        from ptc_compiler.api import result_of

        spec = self._spec(source, data, timeout_ms, max_steps, state_owner, cancel)
        return result_of(await self.runtime.arun(spec))

    def _spec(
        self,
        source: str,
        data: Mapping[str, Any] | None,
        timeout_ms: float | object | None,
        max_steps: int | None,
        state_owner: object | None,
        cancel: Any,
        native: bool = False,
    ) -> seam.RunSpec:
        from dataclasses import replace

        from ptc_runtime.bindings import namespace_from_tools

        merged = dict(self.data or {})
        if data:
            merged.update(data)
        request = seam.RunRequest(
            program=source,
            bindings=tuple(namespace_from_tools(self.tools)),
            data=merged or None,
            timeout_ms=self.timeout_ms if timeout_ms is ... else timeout_ms,  # type: ignore[arg-type]
            cancel=cancel,
            state_owner=state_owner,
            # with native=True in-process the PTC value itself is returned, unprojected
            discard_completion=native and self.mode == "in-process",
            max_steps=max_steps or self.max_steps,
        )
        spec = self.runtime.resolve(request)
        return replace(spec, native=True) if native else spec

    # -- inventory ----------------------------------------------------------------------

    def inventory(self) -> Inventory:
        namespaces = {m.ns: m.doc for m in self.bundle.metas}
        exports = tuple(sorted(self.bundle.records.values(), key=lambda r: r.ref))
        tools = []
        for name in sorted(self.tools):
            t = self.tools[name]
            if isinstance(t, Tool):
                tools.append(
                    ToolEntry(
                        name, t.signature_text, t.doc, t.effect or "unknown", tuple(t.private_to)
                    )
                )
            else:
                doc = getattr(t, "__doc__", None)
                tools.append(ToolEntry(name, None, doc.strip() if doc else None, "unknown"))
        return Inventory(namespaces, exports, tuple(tools), tuple(sorted(self.data or {})))

    def render_api(self) -> str:
        """The "Available API" text for a prompt (prompt-visible exports and public tools)."""
        from ptc_compiler.tools import render_tools

        inv = self.inventory()
        lines = inv.prompt_export_lines()
        public = {n: t for n, t in self.tools.items() if n not in self._private}
        if public:
            lines.append(render_tools(public))
        if inv.data_keys:
            lines.append(";; data: " + ", ".join(f"data/{k}" for k in inv.data_keys))
        return "\n".join(lines).rstrip() + "\n"

    def tool_schemas(self) -> list[dict[str, Any]]:
        from ptc_compiler.tools import tool_schemas

        return tool_schemas({n: t for n, t in self.tools.items() if n not in self._private})

    def close(self) -> None:
        self.runtime.close()

    def __enter__(self) -> Environment:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
