"""The public Python API: `compile` a program once, `run` it many times.

`compile(source)` reads, analyzes, lowers, checks and compiles a program into a
reusable `Program` (cached by source hash, so a resent program is cheap).
`run(source, ...)` compiles and executes in one call and never raises for
anything the program does: parse, analysis and runtime failures come back as
`RunResult.error`.
"""

from __future__ import annotations

import ast
import builtins
import gc
import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import CodeType
from typing import Any, Literal

from ptc_compiler import ir
from ptc_compiler.analyzer import AnalysisEnv, analyze
from ptc_compiler.budget import CompileBudget
from ptc_compiler.lower import lower
from ptc_compiler.lower.check import GeneratedCodeRejected, check_restricted
from ptc_compiler.optimize.registry import RuleSet, for_compile
from ptc_compiler.reader import read
from ptc_compiler.tools import host_tools
from ptc_runtime import seam
from ptc_runtime.bindings import namespace_from_tools
from ptc_runtime.errors import PtcError
from ptc_runtime.executor import GENERATED_FILENAME
from ptc_runtime.images import OutputImage
from ptc_runtime.limits import DEFAULT_LIMITS, Limits

Outcome_ = Literal["value", "return", "fail", "error"]

CACHE_SIZE = 256


@dataclass(frozen=True, slots=True)
class RunFailure:
    """Why a run failed: a run-contract `kind`, the PTC `code`, a bounded message, the place."""

    kind: str
    code: str
    message: str
    line: int | None = None
    column: int | None = None
    hint: str | None = None
    #: structured facts of some failures, e.g. `{"phase": "commit"}` when a state owner's
    #: commit was rejected after the program completed (`memory_exceeded`, `history_exceeded`)
    details: Mapping[str, str] | None = None

    @classmethod
    def from_error(cls, err: PtcError) -> RunFailure:
        details = getattr(err, "details", None)
        return cls(err.kind, err.code, err.message, err.line, err.column, err.hint, details)

    def __str__(self) -> str:
        where = f" ({self.line}:{self.column})" if self.line is not None else ""
        hint = f" Hint: {self.hint}" if self.hint else ""
        return f"{self.kind}: {self.code}: {self.message}{where}{hint}"


@dataclass(frozen=True, slots=True)
class RunResult:
    """The outcome of one run.

    `outcome` is "value" (ordinary result), "return" (`(return v)`), "fail" (`(fail v)`:
    `ok` is False, `value` carries the fail payload and `error.code` is "fail"), or
    "error". `output` is the printed text in emission order; `entries` holds the same
    output as run-contract entries, text (`OutputText`) and images (`OutputImage`, from
    `(inspect img)` of a tool's `PtcImage`) in emission order.

    `value` is the completion's lossless-JSON projection, the same in both modes: dicts
    with `str` keys (a keyword key becomes its name), lists, strings, ints, floats,
    booleans and None. A completion with no such form fails the run (`invalid-output`),
    one over `max_value_bytes` too (`output-limit`). Run with `native=True` to get the
    PTC value itself instead: then the completion is not projected and `value` and
    `native` both hold it (keywords, sets, functions ...; printing it with `pr_str`
    and a `limit` is bounded). Without `native=True`, `native` is None.
    """

    ok: bool
    value: Any = None
    output: str = ""
    error: RunFailure | None = None
    outcome: Outcome_ = "value"
    steps: int = 0
    native: Any = field(default=None, repr=False, compare=False)
    entries: tuple[seam.OutputText | OutputImage, ...] = field(default=(), repr=False)


@dataclass(frozen=True, slots=True)
class Program:
    """A compiled program, reusable across runs (and threads)."""

    source: str
    code: CodeType
    ir: ir.Program = field(repr=False)
    fn_names: Mapping[str, str] = field(repr=False)
    tools: frozenset[str] = frozenset()
    data_keys: frozenset[str] = frozenset()
    #: the optimiser rules it was compiled with (`ptc_compiler.optimize`)
    rules: RuleSet = field(default_factory=lambda: for_compile(True), repr=False)

    @property
    def defines(self) -> frozenset[str]:
        """User names the program's `def`s make known (those outside function bodies)."""
        return self.ir.defines

    @property
    def python_source(self) -> str:
        """The generated Python, for reading (lowering is deterministic: same code as compiled)."""
        return ast.unparse(lower(self.ir, rules=self.rules).module)

    def run(
        self,
        *,
        data: Mapping[str, Any] | None = None,
        tools: Mapping[str, Callable[..., Any]] | None = None,
        timeout_ms: float | None = 1000,
        max_steps: int = 10_000_000,
        **options: Any,
    ) -> RunResult:
        """Execute this program once with its own fresh state (options as for `run`)."""
        if "runtime" not in options:
            options.setdefault("optimize", bool(self.rules.enabled))
        return run(
            self.source,
            data=data,
            tools=tools,
            timeout_ms=timeout_ms,
            max_steps=max_steps,
            **options,
        )


def result_of(res: seam.RunResult) -> RunResult:
    """The public result for a seam result (the native value only if it was kept)."""
    output = res.text
    entries = res.output
    err = res.error
    failure = None
    if err is not None:
        failure = RunFailure(
            err.kind, err.code, err.message, err.line, err.column, err.hint, err.details
        )
    kept = res.native_value is not seam.MISSING
    native = res.native_value if kept else None
    if res.outcome == "fail":
        value = res.native_value if kept else res.fail_value
        return RunResult(False, value, output, failure, "fail", res.steps, native, entries)
    if failure is not None:
        return RunResult(False, None, output, failure, "error", res.steps, None, entries)
    value = res.native_value if kept else res.value
    if value is seam.MISSING:
        value = None
    return RunResult(True, value, output, None, res.outcome, res.steps, native, entries)


_CacheKey = tuple[str, frozenset[str] | None, frozenset[str], bool, frozenset[str]]
_cache: OrderedDict[_CacheKey, Program] = OrderedDict()
_cache_lock = threading.Lock()


def compile(
    source: str,
    *,
    tools: frozenset[str] | None = None,
    user_names: frozenset[str] = frozenset(),
    guards: bool = True,
    preludes: Sequence[str | Path] | None = None,
    limits: Limits | None = None,
    optimize: bool = True,
) -> Program:
    """Compile PTC-Lisp `source` to a `Program`; raises `PtcError` for a bad program.

    `tools`: the granted tool names; when given, a reference to any other tool is an
    analysis error (`unknown_tool`) before anything runs. `user_names`: definitions that
    already exist (a state owner's earlier runs). `guards=False` omits the step-budget
    checks (benchmarks only: such code is not safe to run on untrusted programs).
    `preludes`: prelude sources, files, artifacts or directories (docs/preludes.md).
    `limits`: the compile budget (`compile_timeout_ms`, `compile_nodes`; default
    `DEFAULT_LIMITS`): past it the compile fails with `compile_limit`. A program found
    in the cache costs no compile work and is returned whatever the budget.
    `optimize=False`: no optimiser rule (`ptc_compiler.optimize`), only the general
    lowering: the same results, errors, output and step counts, slower.
    """
    if preludes is not None:  # preludes: see ptc_compiler.prelude
        from ptc_compiler.prelude.hosting import compile_with_preludes

        program: Program = compile_with_preludes(source, preludes, tools, frozenset(user_names))
        return program
    digest = hashlib.sha256(source.encode("utf-8", "surrogatepass")).hexdigest()
    rules = for_compile(optimize)
    key = (digest, tools, frozenset(user_names), guards, rules.enabled)
    with _cache_lock:
        hit = _cache.get(key)
        if hit is not None:
            _cache.move_to_end(key)
            return hit
    budget = limits if limits is not None else DEFAULT_LIMITS
    program = _compile_uncached(source, tools, frozenset(user_names), guards, budget, rules)
    with _cache_lock:
        _cache[key] = program
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    return program


class _GcPause:
    """Cyclic garbage collection paused while compiles run (restored when the last ends).

    A compile allocates thousands of short-lived acyclic objects (forms, IR, AST nodes),
    which reference counting frees; the collections their allocation triggers only
    traverse the young tree being built, costing several percent of compile time. The
    pause is counted, so concurrent compiles restore the collector's state once, and it
    never enables a collector that was disabled before the first compile began.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._depth = 0
        self._was_enabled = False

    def __enter__(self) -> None:
        with self._lock:
            if self._depth == 0:
                self._was_enabled = gc.isenabled()
                gc.disable()
            self._depth += 1

    def __exit__(self, *exc: object) -> None:
        with self._lock:
            self._depth -= 1
            if self._depth == 0 and self._was_enabled:
                gc.enable()


_gc_pause = _GcPause()


def _compile_uncached(
    source: str,
    tools: frozenset[str] | None,
    user_names: frozenset[str],
    guards: bool,
    limits: Limits,
    rules: RuleSet | None = None,
) -> Program:
    if rules is None:
        rules = for_compile(True)
    with _gc_pause:
        return _compile_uncached_now(source, tools, user_names, guards, limits, rules)


def _compile_uncached_now(
    source: str,
    tools: frozenset[str] | None,
    user_names: frozenset[str],
    guards: bool,
    limits: Limits,
    rules: RuleSet,
) -> Program:
    # Every pass is linear in the source; the budget bounds the whole compile anyway
    # (it runs on the host in both modes). The analyzer and the lowering charge it per
    # node, the allow-list checks read its clock as they walk, and it is checked between
    # passes. CPython's `compile()` cannot be interrupted, but the node count bounds the
    # tree it compiles.
    budget = CompileBudget(limits.compile_timeout_ms, limits.compile_nodes)
    try:
        # The reader caps source nesting, but macros (`->`, `some->`, `cond`) nest the
        # forms they expand to as deep as the source is long: every pass may recurse.
        forms = read(source)
        budget.check()
        analyzed = analyze(forms, AnalysisEnv(user_names=user_names, tools=tools), budget)
    except RecursionError:
        raise PtcError("program_too_complex", _TOO_DEEP, hint=_TOO_DEEP_HINT) from None
    try:
        # the optimiser's IR pass, then the lowering; includes the allow-list
        lowered = lower(analyzed, guards=guards, budget=budget, rules=rules)
        budget.check()
        check_restricted(lowered.module, budget)  # RestrictedPython's verdict; tree unchanged
        budget.check()
        code = builtins.compile(lowered.module, GENERATED_FILENAME, "exec", dont_inherit=True)
    except GeneratedCodeRejected as exc:
        raise PtcError("internal_error", f"internal compiler error: {exc}") from None
    except RecursionError:
        raise PtcError("program_too_complex", _TOO_DEEP, hint=_TOO_DEEP_HINT) from None
    except (ValueError, SyntaxError, TypeError) as exc:  # CPython refused our AST: our bug
        raise PtcError("internal_error", f"internal compiler error: {type(exc).__name__}") from None
    return Program(
        source=source,
        code=code,
        ir=analyzed,
        fn_names=lowered.fn_names,
        tools=analyzed.tools,
        data_keys=analyzed.data_keys,
        rules=rules,
    )


_TOO_DEEP = "program nests too deeply to compile"
_TOO_DEEP_HINT = "Bind intermediate results with let instead of nesting hundreds of forms."


def _compiler_for(
    limits: Limits, optimize: bool = True
) -> Callable[[str, frozenset[str] | None, frozenset[str]], Program]:
    """The compiler a `Runtime` calls, held to that runtime's compile budget."""

    def compile_for_seam(
        source: str, tools: frozenset[str] | None, user_names: frozenset[str]
    ) -> Program:
        return compile(
            source, tools=tools, user_names=user_names, limits=limits, optimize=optimize
        )

    return compile_for_seam


_runtimes: dict[tuple[str, bool], seam.Runtime] = {}
_runtimes_lock = threading.Lock()


def runtime(
    mode: seam.Mode = "in-process",
    *,
    limits: Limits | None = None,
    pool_size: int = 2,
    optimize: bool = True,
) -> seam.Runtime:
    """A new `Runtime` backed by this compiler (the caller owns and closes it);
    `optimize=False`: it compiles with no optimiser rule (see `compile`)."""
    limits = limits or DEFAULT_LIMITS
    return seam.Runtime(
        _compiler_for(limits, optimize), mode=mode, limits=limits, pool_size=pool_size
    )


def default_runtime(mode: seam.Mode = "in-process", *, optimize: bool = True) -> seam.Runtime:
    """The shared runtime `run`/`arun` use for `mode` (created on first use)."""
    with _runtimes_lock:
        rt = _runtimes.get((mode, optimize))
        if rt is None:
            rt = runtime(mode, optimize=optimize)
            _runtimes[(mode, optimize)] = rt
        return rt


def _spec(
    source: str,
    data: Mapping[str, Any] | None,
    tools: Mapping[str, Callable[..., Any]] | None,
    timeout_ms: float | None,
    max_steps: int,
    options: dict[str, Any],
) -> tuple[seam.Runtime, seam.RunSpec]:
    known = {"mode", "cancel", "state_owner", "runtime", "bindings", "native", "cwd"}
    unknown = set(options) - known - {"optimize"}
    if unknown:
        raise TypeError(f"unknown run option(s): {', '.join(sorted(unknown))}")
    optimize = options.get("optimize", True)
    if type(optimize) is not bool:
        raise TypeError("optimize must be a bool")
    if options.get("runtime") is not None and "optimize" in options:
        raise TypeError("give runtime= or optimize=, not both (see runtime(optimize=...))")
    rt = options.get("runtime") or default_runtime(
        options.get("mode", "in-process"), optimize=optimize
    )
    bindings = tuple(options.get("bindings") or namespace_from_tools(host_tools(tools)))
    if options.get("bindings") and tools:
        raise TypeError("give tools= or bindings=, not both")
    request = seam.RunRequest(
        program=source,
        bindings=bindings,
        data=data,
        timeout_ms=timeout_ms,
        cancel=options.get("cancel"),
        state_owner=options.get("state_owner"),
        max_steps=max_steps,
        cwd=options.get("cwd"),
    )
    spec = rt.resolve(request)
    native = options.get("native", False)
    if type(native) is not bool:
        raise TypeError("native must be a bool")
    if native:
        # the PTC value instead of its projection (isolated: the worker's native crossing)
        spec = replace(spec, native=True, discard_completion=rt.mode == "in-process")
    return rt, spec


def run(
    source: str,
    *,
    data: Mapping[str, Any] | None = None,
    tools: Mapping[str, Callable[..., Any]] | None = None,
    timeout_ms: float | None = 1000,
    max_steps: int = 10_000_000,
    preludes: Sequence[str | Path] | None = None,
    **options: Any,
) -> RunResult:
    """Compile and run `source`; never raises for anything the program does.

    Options: `mode` ("in-process" or "isolated"), `cancel` (a `CancelToken`),
    `state_owner` (any object: definitions and *1..*3 persist across its runs),
    `runtime` (a `Runtime` from `runtime()`), `bindings` (instead of `tools`),
    `native` (True: `value` is the PTC value, not its JSON projection; see `RunResult`),
    `cwd` (the run's working directory: an existing directory, made absolute; programs
    have no file access, tools may read it from the request), `optimize` (False: compile
    with no optimiser rule, as `compile(..., optimize=False)`). Without `native`, both
    modes return the completion's lossless-JSON projection.
    `preludes`: prelude sources, files, artifacts or directories whose exports the
    program calls as `ns/name`, in either mode (with `mode`, `cancel` and
    `state_owner` only; a bad prelude raises `PreludeError`).
    """
    if preludes is not None:  # preludes: see ptc_compiler.prelude
        from ptc_compiler.prelude.hosting import run_with_preludes

        result: RunResult = run_with_preludes(
            source,
            preludes,
            data=data,
            tools=tools,
            timeout_ms=timeout_ms,
            max_steps=max_steps,
            options=options,
        )
        return result
    rt, spec = _spec(source, data, tools, timeout_ms, max_steps, options)
    return result_of(rt.run(spec))


async def arun(
    source: str,
    *,
    data: Mapping[str, Any] | None = None,
    tools: Mapping[str, Callable[..., Any]] | None = None,
    timeout_ms: float | None = 1000,
    max_steps: int = 10_000_000,
    preludes: Sequence[str | Path] | None = None,
    **options: Any,
) -> RunResult:
    """`run` for async hosts: compile and run `source` without blocking the event loop.

        async def search(query: str) -> list[str]: ...
        result = await ptc_compiler.arun('(tool/search {:query "ada"})',
                                         tools={"search": search})

    Tools may be coroutine functions (or return awaitables): they are awaited on the
    calling loop, while the program itself runs on a worker thread (in-process) or in a
    worker process (`mode="isolated"`). Arguments, options and result are those of
    `run` (with `preludes`, the options `mode`, `cancel` and `state_owner` only); like
    `run`, it never raises for anything the program does.
    """
    if preludes is not None:  # preludes: see ptc_compiler.prelude
        from ptc_compiler.prelude.hosting import check_prelude_options, environment_for

        mode = check_prelude_options(options, allowed={"mode", "cancel", "state_owner"})
        env = environment_for(preludes, tools, mode)
        result: RunResult = await env.arun(
            source,
            data=data,
            timeout_ms=timeout_ms,
            max_steps=max_steps,
            state_owner=options.get("state_owner"),
            cancel=options.get("cancel"),
        )
        return result
    rt, spec = _spec(source, data, tools, timeout_ms, max_steps, options)
    return result_of(await rt.arun(spec))
