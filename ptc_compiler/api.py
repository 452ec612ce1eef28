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
import hashlib
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import CodeType
from typing import Any, Literal

from ptc_compiler import ir
from ptc_compiler.analyzer import AnalysisEnv, analyze
from ptc_compiler.lower import lower
from ptc_compiler.lower.check import GeneratedCodeRejected, check_restricted
from ptc_compiler.reader import read
from ptc_runtime import context
from ptc_runtime.convert import from_host
from ptc_runtime.errors import PtcError
from ptc_runtime.executor import GENERATED_FILENAME, Outcome, execute
from ptc_runtime.printer import pr_str

Outcome_ = Literal["value", "return", "fail", "error"]

CACHE_SIZE = 256


@dataclass(frozen=True, slots=True)
class RunFailure:
    """Why a run failed: a seed-003 `kind`, the PTC `code`, a bounded message, the place."""

    kind: str
    code: str
    message: str
    line: int | None = None
    column: int | None = None
    hint: str | None = None

    @classmethod
    def from_error(cls, err: PtcError) -> RunFailure:
        return cls(err.kind, err.code, err.message, err.line, err.column, err.hint)

    def __str__(self) -> str:
        where = f" ({self.line}:{self.column})" if self.line is not None else ""
        hint = f" Hint: {self.hint}" if self.hint else ""
        return f"{self.kind}: {self.code}: {self.message}{where}{hint}"


@dataclass(frozen=True, slots=True)
class RunResult:
    """The outcome of one run.

    `outcome` is "value" (ordinary result), "return" (`(return v)`), "fail" (`(fail v)`:
    `ok` is False, `value` carries the fail payload and `error.code` is "fail"), or
    "error". `output` is the printed text in emission order.
    """

    ok: bool
    value: Any = None
    output: str = ""
    error: RunFailure | None = None
    outcome: Outcome_ = "value"
    steps: int = 0


@dataclass(frozen=True, slots=True)
class Program:
    """A compiled program, reusable across runs (and threads)."""

    source: str
    code: CodeType
    ir: ir.Program = field(repr=False)
    fn_names: Mapping[str, str] = field(repr=False)
    tools: frozenset[str] = frozenset()
    data_keys: frozenset[str] = frozenset()

    @property
    def python_source(self) -> str:
        """The generated Python, for reading (lowering is deterministic: same code as compiled)."""
        return ast.unparse(lower(self.ir).module)

    def run(
        self,
        *,
        data: Mapping[str, Any] | None = None,
        tools: Mapping[str, Callable[..., Any]] | None = None,
        timeout_ms: float | None = 1000,
        max_steps: int = 10_000_000,
    ) -> RunResult:
        """Execute this program once with its own fresh state."""
        ctx = make_context(data=data, tools=tools, timeout_ms=timeout_ms, max_steps=max_steps)
        return result_of(execute(self.code, ctx, self.fn_names), ctx)


def make_context(
    *,
    data: Mapping[str, Any] | None,
    tools: Mapping[str, Callable[..., Any]] | None,
    timeout_ms: float | None,
    max_steps: int,
) -> context.RunContext:
    """A fresh run context; validates the options (raises ValueError for caller misuse)."""
    if max_steps <= 0:
        raise ValueError("max_steps must be positive")
    if timeout_ms is not None and not timeout_ms > 0:
        raise ValueError("timeout_ms must be positive or None")
    deadline = None if timeout_ms is None else time.monotonic() + timeout_ms / 1000.0
    host_data = from_host(dict(data)) if data else {}
    return context.RunContext(
        max_steps=max_steps,
        deadline=deadline,
        data=host_data,  # type: ignore[arg-type]
        tools=dict(tools or {}),
    )


def result_of(outcome: Outcome, ctx: context.RunContext) -> RunResult:
    output = "".join(ctx.output)
    steps = ctx.steps_used
    if outcome.status == "error":
        assert outcome.error is not None
        return RunResult(False, None, output, RunFailure.from_error(outcome.error), "error", steps)
    if outcome.status == "fail":
        failure = RunFailure("exception", "fail", "fail: " + _preview(outcome.value))
        return RunResult(False, outcome.value, output, failure, "fail", steps)
    return RunResult(True, outcome.value, output, None, outcome.status, steps)


def _preview(value: object) -> str:
    try:
        return pr_str(value)[:400]
    except PtcError:
        return "<unprintable value>"


_cache: OrderedDict[tuple[str, frozenset[str] | None], Program] = OrderedDict()
_cache_lock = threading.Lock()


def compile(source: str, *, tools: frozenset[str] | None = None) -> Program:
    """Compile PTC-Lisp `source` to a `Program`; raises `PtcError` for a bad program.

    `tools`: the granted tool names; when given, a reference to any other tool is an
    analysis error (`unknown_tool`) before anything runs.
    """
    digest = hashlib.sha256(source.encode("utf-8", "surrogatepass")).hexdigest()
    key = (digest, tools)
    with _cache_lock:
        hit = _cache.get(key)
        if hit is not None:
            _cache.move_to_end(key)
            return hit
    program = _compile_uncached(source, tools)
    with _cache_lock:
        _cache[key] = program
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    return program


def _compile_uncached(source: str, tools: frozenset[str] | None) -> Program:
    forms = read(source)
    analyzed = analyze(forms, AnalysisEnv(tools=tools))
    try:
        lowered = lower(analyzed)  # includes the AST allow-list check
        code = builtins.compile(lowered.module, GENERATED_FILENAME, "exec", dont_inherit=True)
        # RestrictedPython rewrites the tree it checks: run it on the tree just compiled.
        check_restricted(lowered.module)
    except GeneratedCodeRejected as exc:
        raise PtcError("internal_error", f"internal compiler error: {exc}") from None
    return Program(
        source=source,
        code=code,
        ir=analyzed,
        fn_names=lowered.fn_names,
        tools=analyzed.tools,
        data_keys=analyzed.data_keys,
    )


def run(
    source: str,
    *,
    data: Mapping[str, Any] | None = None,
    tools: Mapping[str, Callable[..., Any]] | None = None,
    timeout_ms: float | None = 1000,
    max_steps: int = 10_000_000,
) -> RunResult:
    """Compile and run `source`; never raises for anything the program does."""
    try:
        program = compile(source, tools=frozenset(tools or {}))
    except PtcError as err:
        return RunResult(False, None, "", RunFailure.from_error(err), "error")
    except RecursionError:
        failure = RunFailure("exception", "parse_error", "program too deeply nested")
        return RunResult(False, None, "", failure, "error")
    return program.run(data=data, tools=tools, timeout_ms=timeout_ms, max_steps=max_steps)
