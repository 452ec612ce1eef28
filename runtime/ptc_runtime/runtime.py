"""The run provider (`PtcRuntime`): request -> resolve -> spec -> run -> result.

`Runtime.resolve(request)` validates the caller's choices and applies the provider's
defaults and caps (it raises `ValueError`/`TypeError` only for caller misuse);
`Runtime.run(spec)` never raises for anything the program does: every outcome is a
`RunResult` whose `error` carries a run-contract `kind` and a bounded message.

The runtime package never imports the compiler: a `Runtime` is given a `compiler`
callable (source, granted tool names, existing user names) -> object with `.code`
and `.fn_names` (`ptc_compiler.api` supplies it). Two execution modes share this
front: `in-process` (guards in the generated code: steps, deadline, depth, sizes) and
`isolated` (the same, inside a pool of rlimited worker processes the host can kill;
see `ptc_runtime.worker`).
"""

from __future__ import annotations

import asyncio
import math
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any, Final

from ptc_runtime.bindings import BindingNamespace
from ptc_runtime.completion import finish, settle
from ptc_runtime.context import CancelToken, Records, RunContext
from ptc_runtime.convert import from_host, unsupported_part
from ptc_runtime.errors import PtcError
from ptc_runtime.executor import execute
from ptc_runtime.limits import DEFAULT_LIMITS, Limits
from ptc_runtime.run_contract import (
    Compiled,
    Compiler,
    Kind,
    Mode,
    RunFailure,
    RunRequest,
    RunResult,
    RunSpec,
    _Unset,
)
from ptc_runtime.state import Environment
from ptc_runtime.tool_boundary import make_invoker, tool_names
from ptc_runtime.workdir import resolve_cwd


class Runtime:
    """A PTC-Lisp run provider (`PtcRuntime`), in-process or isolated."""

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
        #: the cancel tokens of the runs in flight (`close` cancels and awaits them)
        self._inflight: set[_LinkedCancel] = set()
        self._inflight_cond = threading.Condition()
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
        """Stop admission, cancel every in-flight run and wait for each to end, then
        release every environment and stop the worker pool (idempotent).

        A cancelled run ends at its next check (in-process: within a loop pass; one
        waiting for a tool stops waiting at once, see `tool_boundary.call_on_helper`;
        isolated: its worker is told to stop and killed after the grace period)."""
        self._closed = True
        if self._pool is not None:  # first: cancels in-flight runs, which hold env locks
            self._pool.close()
        with self._inflight_cond:
            for token in list(self._inflight):
                token.cancel()
            while self._inflight:
                self._inflight_cond.wait(0.05)
                for token in list(self._inflight):  # runs admitted while closing
                    token.cancel()
        with self._owners_lock:
            owners = list(self._owners.values())
            self._owners.clear()
        for _owner, env in owners:
            with env.lock:
                if self._pool is not None:
                    self._pool.release_env(env)

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
        if spec.cancel is not None and spec.cancel.cancelled:
            # cancelled before it started: nothing runs, nothing is created
            return _stopped(self.mode, "abort", "abort", "run cancelled before it started")
        self._admitted = True
        token = _LinkedCancel(spec.cancel)
        spec = replace(spec, cancel=token)
        with self._inflight_cond:
            self._inflight.add(token)
        try:
            return self._run_admitted(spec, token, loop)
        finally:
            with self._inflight_cond:
                self._inflight.discard(token)
                self._inflight_cond.notify_all()

    def _run_admitted(
        self, spec: RunSpec, token: CancelToken, loop: asyncio.AbstractEventLoop | None
    ) -> RunResult:
        start = time.monotonic()
        env, retained = self._env_for(spec.state_owner)
        # A run queued behind its state owner's previous run waits for the owner's lock,
        # but not past its own cancel or deadline: the wait is part of its elapsed budget.
        while not env.lock.acquire(timeout=_QUEUE_POLL_S):
            if token.cancelled:
                return _stopped(self.mode, "abort", "abort", "run cancelled while queued")
            waited_ms = (time.monotonic() - start) * 1000.0
            if spec.timeout_ms is not None and waited_ms >= spec.timeout_ms:
                return _stopped(
                    self.mode,
                    "timeout",
                    "timeout",
                    f"execution exceeded its deadline ({spec.timeout_ms:.0f} ms) while "
                    "queued behind the state owner's previous run",
                )
        try:
            if token.cancelled:
                return _stopped(self.mode, "abort", "abort", "run cancelled while queued")
            if spec.timeout_ms is not None:
                waited_ms = (time.monotonic() - start) * 1000.0
                if waited_ms >= spec.timeout_ms:
                    return _stopped(
                        self.mode,
                        "timeout",
                        "timeout",
                        f"execution exceeded its deadline ({spec.timeout_ms:.0f} ms) while "
                        "queued behind the state owner's previous run",
                    )
                if waited_ms > 1.0:
                    spec = replace(spec, timeout_ms=spec.timeout_ms - waited_ms)
            if self._pool is not None:
                result: RunResult = self._pool.run(self, spec, env, loop)
            else:
                result = self._run_local(spec, env, retained, loop)
        finally:
            env.lock.release()
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
            where = unsupported_part(spec.data) if "host data contains" in err.message else None
            if where is not None:
                err = PtcError(err.code, f"host data has no PTC form {where}", kind=err.kind)
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


#: How often a run queued behind its state owner looks at its cancel token and deadline.
_QUEUE_POLL_S: Final = 0.02


def _stopped(mode: Mode, kind: Kind, code: str, message: str) -> RunResult:
    """The result of a run that ended before its program started."""
    return RunResult(error=RunFailure(kind, message, code), outcome="error", mode=mode)


class _LinkedCancel(CancelToken):
    """Cancelled when the caller's token is, or when `cancel()` is called."""

    def __init__(self, parent: CancelToken | None) -> None:
        super().__init__()
        self._parent = parent

    @property
    def cancelled(self) -> bool:
        return super().cancelled or (self._parent is not None and self._parent.cancelled)
