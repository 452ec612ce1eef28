"""The run contract of seed 003 in Python: request -> resolve -> spec -> run -> result.

`Runtime.resolve(request)` validates the caller's choices and applies the provider's
defaults and caps (it raises `ValueError`/`TypeError` only for caller misuse);
`Runtime.run(spec)` never raises for anything the program does: every outcome is a
`RunResult` whose `error` carries a seed-003 `kind` and a bounded message.

The runtime package never imports the compiler: a `Runtime` is given a `compiler`
callable (source, granted tool names, existing user names) -> object with `.code`
and `.fn_names` (`ptc_compiler.api` supplies it). Two execution modes share this
front: `in-process` (guards in the generated code: steps, deadline, depth, sizes) and
`isolated` (the same, inside a pool of rlimited worker processes the host can kill;
see `ptc_runtime.worker`).
"""

from __future__ import annotations

import asyncio
import json
import math
import os
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from types import CodeType
from typing import Any, Final, Literal, Protocol

from ptc_runtime import context
from ptc_runtime.bindings import (
    BindingNamespace,
    BindingRejection,
    call_host,
    host_failure,
    rejection,
)
from ptc_runtime.context import CancelToken, Records, RunContext
from ptc_runtime.convert import from_host
from ptc_runtime.errors import KINDS, LimitExceeded, PtcError, bound_message
from ptc_runtime.executor import Outcome, execute
from ptc_runtime.images import OutputImage, PtcImage
from ptc_runtime.limits import DEFAULT_LIMITS, Limits, encode_json
from ptc_runtime.printer import pr_str
from ptc_runtime.state import Environment
from ptc_runtime.workdir import resolve_cwd

Kind = Literal[
    "exception",
    "timeout",
    "abort",
    "worker-exit",
    "invalid-output",
    "output-limit",
    "protocol",
    "sandbox-unavailable",
]
OutcomeName = Literal["value", "return", "fail", "error"]
Mode = Literal["in-process", "isolated"]


class _Unset:
    __slots__ = ()

    def __repr__(self) -> str:
        return "UNSET"


UNSET: Final = _Unset()


class _Missing:
    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"

    def __bool__(self) -> bool:
        return False


#: `RunResult.value` when the run produced no (projected) value: absent is not null.
MISSING: Final = _Missing()


@dataclass(frozen=True, slots=True)
class OutputText:
    """One captured text fragment (newlines kept); concatenate without separators."""

    text: str
    type: Literal["text"] = "text"


def output_entries(raw: list[str | PtcImage]) -> tuple[OutputText | OutputImage, ...]:
    """A run's captured output as result entries, in emission order."""
    return tuple(OutputText(t) if type(t) is str else OutputImage(t.attachment) for t in raw)  # type: ignore[union-attr]


@dataclass(frozen=True, slots=True)
class RunFailure:
    """Why a run failed: seed-003 `kind`, bounded `message`, PTC `code`, position."""

    kind: Kind
    message: str
    code: str = "error"
    line: int | None = None
    column: int | None = None
    hint: str | None = None
    details: Mapping[str, str] | None = None

    def render(self) -> str:
        """One line for a model: ``code: message (line L, column C). Hint: ...``."""
        text = f"{self.code}: {self.message}"
        if self.line is not None:
            text += f" (line {self.line}, column {self.column})"
        if self.hint:
            text += f". Hint: {self.hint}"
        return bound_message(text, 2048)

    @classmethod
    def of(cls, err: PtcError, prefix: str = "") -> RunFailure:
        kind = err.kind if err.kind in KINDS else "exception"
        details = getattr(err, "details", None)
        return cls(
            kind,  # type: ignore[arg-type]
            bound_message(prefix + err.message, 1024),
            err.code,
            err.line,
            err.column,
            err.hint,
            details,
        )


@dataclass(frozen=True, slots=True)
class RunResult:
    """The outcome of one run; an error is a field, never an exception."""

    value: Any = MISSING
    output: tuple[OutputText | OutputImage, ...] = ()
    error: RunFailure | None = None
    outcome: OutcomeName = "value"
    fail_value: Any = MISSING
    steps: int = 0
    mode: Mode = "in-process"
    #: the completion (or fail value) as a PTC value (keywords, sets ...), unprojected:
    #: in-process the value itself; isolated, its native crossing (`worker.crossing`).
    native_value: Any = field(default=MISSING, repr=False, compare=False)

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def text(self) -> str:
        return "".join(o.text for o in self.output)


@dataclass(frozen=True, slots=True)
class RunRequest:
    """Caller inputs for one program (seed 003 PtcRunRequest)."""

    program: str
    bindings: tuple[BindingNamespace, ...] = ()
    data: Mapping[str, Any] | None = None
    timeout_ms: float | _Unset | None = UNSET  # UNSET: default; number: capped; None: none
    cancel: CancelToken | None = None
    state_owner: object | None = None
    discard_completion: bool = False
    max_steps: int | None = None  # None: the provider's default
    #: working directory (`str` or path-like); None: `workdir.DEFAULT_CWD`. Resolved to an
    #: absolute existing directory by `resolve` and reported as `RunSpec.cwd`.
    cwd: str | os.PathLike[str] | None = None


@dataclass(frozen=True, slots=True)
class RunSpec:
    """Fully resolved inputs: produced only by `Runtime.resolve`."""

    program: str
    bindings: tuple[BindingNamespace, ...]
    data: Mapping[str, Any] | None
    timeout_ms: float | None
    cancel: CancelToken | None
    state_owner: object | None
    discard_completion: bool
    max_steps: int
    cwd: str = "/"  # absolute directory (`workdir.resolve_cwd`); programs have no filesystem
    #: keep the unprojected value (the public `ptc_compiler.run`); isolated, the worker
    #: sends it in the native wire form of `ptc_runtime.worker.crossing`
    native: bool = False


class Compiled(Protocol):
    @property
    def code(self) -> CodeType: ...

    @property
    def fn_names(self) -> Mapping[str, str]: ...


Compiler = Callable[[str, "frozenset[str] | None", "frozenset[str]"], Compiled]


# ---------------------------------------------------------------- runtime


class Runtime:
    """A PTC-Lisp run provider (seed 003 `PtcRuntime`), in-process or isolated."""

    language: Final = "ptc-lisp"

    def __init__(
        self,
        compiler: Compiler,
        *,
        mode: Mode = "in-process",
        limits: Limits = DEFAULT_LIMITS,
        pool_size: int = 2,
    ) -> None:
        if mode not in ("in-process", "isolated"):
            raise ValueError("mode must be 'in-process' or 'isolated'")
        if not isinstance(limits, Limits):
            raise TypeError("limits must be a ptc_runtime.limits.Limits")
        self.compiler = compiler
        self.mode: Mode = mode
        self.limits = limits
        self._owners: dict[int, tuple[object, Any]] = {}
        self._owners_lock = threading.Lock()
        self._initializer: str | None = None
        self._init_compiled: Compiled | None = None
        self._admitted = False
        self._closed = False
        self._pool: Any = None
        self._pool_size = pool_size
        if mode == "isolated":
            from ptc_runtime.worker.pool import WorkerPool

            self._pool = WorkerPool(limits, size=pool_size)

    # -- seam -------------------------------------------------------------

    @property
    def timeout(self) -> tuple[int, int]:
        """(default, maximum) elapsed budget in milliseconds."""
        return self.limits.default_timeout_ms, self.limits.max_timeout_ms

    def resolve(self, request: RunRequest) -> RunSpec:
        """Validate and cap a request; raises only for caller misuse."""
        if not isinstance(request, RunRequest):
            raise TypeError("resolve() takes a RunRequest")
        if not isinstance(request.program, str):
            raise TypeError("program must be a string")
        bindings = tuple(request.bindings)
        names: set[str] = set()
        for b in bindings:
            if not isinstance(b, BindingNamespace):
                raise TypeError("bindings must be BindingNamespace values")
            if b.name in names:
                raise ValueError(f"binding namespace {b.name!r} given twice")
            names.add(b.name)
        if request.data is not None and not isinstance(request.data, Mapping):
            raise TypeError("data must be a mapping")
        t = request.timeout_ms
        timeout: float | None
        if isinstance(t, _Unset):
            timeout = float(self.limits.default_timeout_ms)
        elif t is None:
            if not self.limits.allow_no_deadline:
                raise ValueError("this runtime requires a deadline (timeout_ms=None refused)")
            timeout = None
        else:
            if isinstance(t, bool) or not isinstance(t, int | float):
                raise TypeError("timeout_ms must be a number, None, or omitted")
            if not math.isfinite(t) or t <= 0:
                raise ValueError("timeout_ms must be positive and finite")
            timeout = float(min(t, self.limits.max_timeout_ms))
        steps = self.limits.max_steps if request.max_steps is None else request.max_steps
        if isinstance(steps, bool) or not isinstance(steps, int) or steps <= 0:
            raise ValueError("max_steps must be a positive integer")
        if request.cancel is not None and not hasattr(request.cancel, "cancelled"):
            raise TypeError("cancel must be a CancelToken")
        if type(request.discard_completion) is not bool:
            raise TypeError("discard_completion must be a bool")
        return RunSpec(
            program=request.program,
            bindings=bindings,
            data=request.data,
            timeout_ms=timeout,
            cancel=request.cancel,
            state_owner=request.state_owner,
            discard_completion=request.discard_completion,
            max_steps=steps,
            cwd=resolve_cwd(request.cwd),
        )

    def run(self, spec: RunSpec) -> RunResult:
        """Execute a resolved spec; program outcomes are result fields."""
        return self._run(spec, None)

    async def arun(self, spec: RunSpec) -> RunResult:
        """`run` for async hosts: coroutine tools are awaited on the calling loop.

        Cancelling the awaiting task aborts the run (kind `abort`) and waits for it to stop.
        """
        loop = asyncio.get_running_loop()
        link = _LinkedCancel(spec.cancel)
        spec2 = replace(spec, cancel=link)
        fut = loop.run_in_executor(None, self._run, spec2, loop)
        try:
            return await asyncio.shield(fut)
        except asyncio.CancelledError:
            link.cancel()
            await asyncio.wait([fut])
            raise

    def retained_names(self, owner: object) -> frozenset[str]:
        """The names an owner's retained environment defines: what its next program may
        reference (empty for an owner that has not run). Waits for a run of that owner."""
        with self._owners_lock:
            entry = self._owners.get(id(owner))
        if entry is None or entry[0] is not owner:
            return frozenset()
        env = entry[1]
        with env.lock:
            names = getattr(env, "names", None)  # a RemoteEnv tracks its names
            return names if isinstance(names, frozenset) else frozenset(env.ns)

    def holds_worker(self, owner: object) -> bool:
        """Isolated: does `owner`'s retained environment live in a running worker? A worker
        that was killed or died took the owner's definitions with it. In-process: False."""
        with self._owners_lock:
            entry = self._owners.get(id(owner))
        if entry is None or entry[0] is not owner:
            return False
        proc = getattr(entry[1], "proc", None)
        return proc is not None and bool(proc.alive())

    def release(self, owner: object) -> None:
        """Drop an owner's retained environment (and its worker, in isolated mode)."""
        with self._owners_lock:
            entry = self._owners.pop(id(owner), None)
        if entry is None:
            return
        env = entry[1]
        with env.lock:
            if self._pool is not None:
                self._pool.release_env(env)

    def register_environment_initializer(self, source: str) -> Callable[[], None]:
        """Evaluate `source` once whenever an environment is created (before its first run).

        Must precede the first run; only one initializer. Returns an idempotent disposer
        that stops admission and releases all environments.
        """
        if not isinstance(source, str):
            raise TypeError("initializer source must be a string")
        if self._initializer is not None:
            raise RuntimeError("an environment initializer is already registered")
        if self._admitted:
            raise RuntimeError("register the environment initializer before the first run")
        self._init_compiled = self.compiler(source, None, frozenset())  # raises PtcError
        self._initializer = source

        def dispose() -> None:
            self.close()

        return dispose

    def close(self) -> None:
        """Stop admission, release every environment and stop the worker pool (idempotent)."""
        self._closed = True
        with self._owners_lock:
            owners = list(self._owners.values())
            self._owners.clear()
        for _owner, env in owners:
            with env.lock:
                if self._pool is not None:
                    self._pool.release_env(env)
        if self._pool is not None:
            self._pool.close()

    # -- internals --------------------------------------------------------

    def _env_for(self, owner: object | None) -> tuple[Any, bool]:
        """(environment, retained?) for an owner; a fresh one-shot env for None."""
        if owner is None:
            return self._new_env(), False
        with self._owners_lock:
            entry = self._owners.get(id(owner))
            if entry is None or entry[0] is not owner:
                entry = (owner, self._new_env())
                self._owners[id(owner)] = entry
        return entry[1], True

    def _new_env(self) -> Any:
        if self._pool is not None:
            from ptc_runtime.worker.pool import RemoteEnv

            return RemoteEnv()
        return Environment()

    def _forget(self, owner: object | None, env: Any) -> None:
        if owner is None:
            return
        with self._owners_lock:
            entry = self._owners.get(id(owner))
            if entry is not None and entry[1] is env:
                del self._owners[id(owner)]

    def _run(self, spec: RunSpec, loop: asyncio.AbstractEventLoop | None) -> RunResult:
        if not isinstance(spec, RunSpec):
            raise TypeError("run() takes a RunSpec from resolve()")
        if self._closed:
            raise RuntimeError("this runtime was closed")
        self._admitted = True
        env, retained = self._env_for(spec.state_owner)
        with env.lock:
            if self._pool is not None:
                result: RunResult = self._pool.run(self, spec, env, loop)
            else:
                result = self._run_local(spec, env, retained, loop)
        if getattr(env, "discard", False):
            self._forget(spec.state_owner, env)
        return result

    def compile_for(self, spec: RunSpec, user_names: frozenset[str]) -> Compiled:
        """Compile `spec.program` (raises PtcError); caps the source size first."""
        if len(spec.program) > self.limits.program_bytes:
            raise PtcError(
                "program_too_large",
                f"program exceeds {self.limits.program_bytes} characters",
            )
        tools = tool_names(spec.bindings)
        try:
            return self.compiler(spec.program, tools, user_names)
        except RecursionError:
            raise PtcError("parse_error", "program too deeply nested") from None
        except MemoryError:
            raise PtcError("memory_exceeded", "program too large to compile") from None

    def _run_local(
        self,
        spec: RunSpec,
        env: Environment,
        retained: bool,
        loop: asyncio.AbstractEventLoop | None,
    ) -> RunResult:
        limits = self.limits
        start = time.monotonic()
        deadline = None if spec.timeout_ms is None else start + spec.timeout_ms / 1000.0
        records = Records()  # the data's record lists, for the run (`ptc_runtime.records`)
        try:
            data = from_host(dict(spec.data), records) if spec.data else {}
        except PtcError as err:
            return RunResult(error=RunFailure.of(err, "data: "), outcome="error")
        ctx = RunContext(
            max_steps=spec.max_steps,
            deadline=deadline,
            cancel=spec.cancel,
            data=data,  # type: ignore[arg-type]
            records=records,
            ns=env.ns,
            nsc=env.nsc,
            history=env.history,
            modules=env.modules,
            max_output_bytes=limits.max_output_bytes,
            print_line_chars=limits.print_line_chars,
        )
        ctx.options["limits"] = limits
        ctx.options["loop"] = loop
        ctx.tool_invoker = make_invoker(ctx, spec.bindings, limits, loop)
        env.begin()
        if not env.initialized and self._init_compiled is not None:
            init = self._init_compiled
            out = execute(init.code, ctx, init.fn_names)
            if out.status in ("error", "fail"):
                env.rollback()
                env.discard = True
                why = out.error or PtcError("fail", "the initializer called fail")
                return finish(ctx, None, why, "error", spec, "environment initializer failed: ")
            env.begin()
        env.initialized = True
        try:
            compiled = self.compile_for(spec, frozenset(env.ns))
        except PtcError as err:
            env.rollback()
            return finish(ctx, None, err, "error", spec)
        outcome = execute(compiled.code, ctx, compiled.fn_names)
        return settle(ctx, outcome, spec, env if retained else None, limits)


class _LinkedCancel(CancelToken):
    """Cancelled when the caller's token is, or when `cancel()` is called."""

    def __init__(self, parent: CancelToken | None) -> None:
        super().__init__()
        self._parent = parent

    @property
    def cancelled(self) -> bool:
        return super().cancelled or (self._parent is not None and self._parent.cancelled)


def tool_names(bindings: tuple[BindingNamespace, ...]) -> frozenset[str]:
    """Callable members for the compiler: `tool/` members bare, others as "ns/member"."""
    names: set[str] = set()
    for b in bindings:
        if b.name == "tool":
            names.update(b.functions)
        else:
            names.update(f"{b.name}/{m}" for m in b.functions)
    return frozenset(names)


def binding_member(
    bindings: tuple[BindingNamespace, ...], name: str
) -> tuple[BindingNamespace | None, str, Callable[..., Any] | None]:
    """(namespace, member, function) for a called name: "x" is tool/x, "ns/x" is ns/x.

    Exact string lookups only: a name never reaches an attribute or a prototype."""
    ns_name, member = name.split("/", 1) if "/" in name else ("tool", name)
    ns = next((b for b in bindings if b.name == ns_name), None)
    return ns, member, (ns.functions.get(member) if ns is not None else None)


def make_invoker(
    ctx: RunContext,
    bindings: tuple[BindingNamespace, ...],
    limits: Limits,
    loop: asyncio.AbstractEventLoop | None,
) -> Callable[[str, object], object]:
    """The in-process tool path: exact-name lookup, byte caps both ways, call budget."""

    def invoke(name: str, args: object) -> object:
        ns, member, fn = binding_member(bindings, name) if type(name) is str else (None, "", None)
        if fn is None:
            raise PtcError("unknown_tool", f"Unknown tool: {bound_message(str(name), 80)}")
        check_tool_args(name, args, limits)
        cur = context.current()
        count_tool_call(cur, limits)
        cur.check_time()
        remaining = None if cur.deadline is None else max(0.0, cur.deadline - time.monotonic())
        try:
            result = call_host(fn, args, loop, remaining, lambda: _cancelled(cur))
        except BindingRejection as exc:
            raise rejection(ns, member, str(exc) or "rejected") from None
        except PtcError:
            raise
        except TimeoutError:
            cur.check_time()
            raise LimitExceeded(
                "timeout", f"tool/{name} did not finish before the deadline", kind="timeout"
            ) from None
        except Exception as exc:  # the host's tool failed: its type only, text to the log
            raise host_failure(ns, member, exc) from None
        if type(result) is PtcImage:  # an image descriptor is the whole result
            return result
        check_tool_result(ns, name, result, limits)
        return result

    return invoke


def _cancelled(ctx: RunContext) -> bool:
    return ctx.cancel is not None and ctx.cancel.cancelled


def check_tool_args(name: str, args: object, limits: Limits) -> str:
    """Encode tool arguments as JSON under the argument cap (kind `protocol` otherwise)."""
    try:
        return encode_json(args, limits.tool_arg_bytes, f"arguments of tool/{name}")
    except PtcError as err:
        raise PtcError("invalid_tool_args", err.message, kind="protocol") from None


def count_tool_call(ctx: RunContext, limits: Limits) -> None:
    shared = ctx.shared
    with shared.lock:
        shared.tool_calls += 1
        n = shared.tool_calls
    ctx.tool_calls += 1
    if n > limits.max_tool_calls:
        raise PtcError(
            "tool_call_limit",
            f"tool-call budget of {limits.max_tool_calls} calls per run exhausted",
        )


def check_tool_result(
    ns: BindingNamespace | None, name: str, result: object, limits: Limits
) -> None:
    """Tool results must be JSON-like and under the result cap (host data: C encoder).

    Map keys may be what `from_host` accepts besides strings: keywords and tuples (vector
    keys) are measured by their JSON spelling, as keyword values already are.
    """
    try:
        text = _encode_result(result)
    except TypeError:
        try:
            text = _encode_result(_keys_as_text(result))
        except Exception:  # any failure of the host's value: as below
            raise rejection(ns, name, "returned a value that is not JSON") from None
    except Exception:
        # ValueError (NaN, a cycle), RecursionError, or a host object's own method (a dict
        # subclass's items, a list subclass's __iter__) raising: the host's value, not ours
        raise rejection(ns, name, "returned a value that is not JSON") from None
    if len(text) > limits.tool_result_bytes or (
        not text.isascii() and len(text.encode("utf-8", "surrogatepass")) > limits.tool_result_bytes
    ):
        raise PtcError(
            "tool_result_too_large",
            f"tool/{name} returned more than {limits.tool_result_bytes} bytes",
        )


def _encode_result(result: object) -> str:
    return json.dumps(
        result, ensure_ascii=False, allow_nan=False, default=_host_default, separators=(",", ":")
    )


def _keys_as_text(x: object) -> object:
    """`x` with keyword and tuple map keys spelled as JSON text (for measuring only); any
    other key is left for the encoder to refuse."""
    if isinstance(x, dict):
        out = {}
        for k, v in x.items():
            if isinstance(k, tuple):
                k = _encode_result(_keys_as_text(list(k)))
            elif type(k).__name__ == "Keyword":
                k = getattr(k, "name", k)
            out[k] = _keys_as_text(v)
        return out
    if isinstance(x, list | tuple | set | frozenset):
        return [_keys_as_text(v) for v in x]
    return x


def plain_json(result: object) -> object:
    """Host data or a checked tool result (`check_tool_result`) as plain JSON data, for a
    worker: keyword map keys by their name, vector keys by their JSON text, sets and
    tuples as lists, keywords and symbols by their name. Raises `TypeError`/`ValueError`
    for anything else."""
    try:
        return json.loads(json.dumps(result, default=_host_default))
    except TypeError:  # keyword or vector map keys
        return json.loads(json.dumps(_keys_as_text(result), default=_host_default))


def _host_default(x: object) -> object:
    if isinstance(x, set | frozenset | tuple):
        return list(x)
    name = getattr(x, "name", None)
    if type(x).__name__ in ("Keyword", "SymbolRef") and isinstance(name, str):
        return name
    raise TypeError("not JSON")


def finish(
    ctx: RunContext | None,
    value: object,
    err: PtcError | None,
    outcome: OutcomeName,
    spec: RunSpec,
    prefix: str = "",
    *,
    steps: int | None = None,
) -> RunResult:
    """A result from the pieces (output from `ctx`)."""
    output = output_entries(ctx.output) if ctx is not None else ()
    used = ctx.steps_used if ctx is not None and steps is None else (steps or 0)
    if err is not None:
        return RunResult(
            output=output, error=RunFailure.of(err, prefix), outcome=outcome, steps=used
        )
    return RunResult(value=value, output=output, outcome=outcome, steps=used)


def project(value: object, limits: Limits) -> object:
    """The completion as lossless JSON (kinds `invalid-output` / `output-limit`)."""
    return json.loads(encode_json(value, limits.max_value_bytes, "the result value"))


def settle(
    ctx: RunContext, out: Outcome, spec: RunSpec, env: Environment | None, limits: Limits
) -> RunResult:
    """Project the completion, commit or roll back the owner's environment, build the result."""
    steps = ctx.steps_used
    output = output_entries(ctx.output)
    if out.status == "error":
        if env is not None:
            env.rollback()
        assert out.error is not None
        return RunResult(
            output=output, error=RunFailure.of(out.error), outcome="error", steps=steps
        )
    if out.status == "fail":
        if env is not None:
            env.rollback()
        try:
            fv: object = project(out.value, limits)
        except PtcError:
            fv = _preview(out.value)
        failure = RunFailure("exception", "fail: " + _preview(out.value), "fail")
        return RunResult(
            output=output,
            error=failure,
            outcome="fail",
            fail_value=fv,
            steps=steps,
            native_value=out.value if spec.native else MISSING,
        )
    value: object = MISSING
    try:
        if not spec.discard_completion:
            value = project(out.value, limits)
        if env is not None:
            env.commit(
                out.value,
                advance_history=out.status == "value",
                memory_bytes=limits.memory_bytes,
                history_bytes=limits.history_bytes,
            )
    except PtcError as err:
        if env is not None:
            env.rollback()
        return RunResult(output=output, error=RunFailure.of(err), outcome="error", steps=steps)
    return RunResult(
        value=value,
        output=output,
        outcome=out.status,
        steps=steps,
        native_value=out.value if spec.native else MISSING,
    )


def _preview(value: object) -> str:
    try:
        return pr_str(value, limit=400)[:400]
    except PtcError:
        return "<unprintable value>"
