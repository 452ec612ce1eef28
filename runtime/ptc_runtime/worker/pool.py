"""Host side of isolated execution: a warm pool of worker processes.

A one-shot run borrows an idle worker and returns it afterwards; a state owner's
environment lives in a worker dedicated to that owner until `release`. The host
compiles the program, sends the code object (marshal, host -> worker only: the host
is trusted) and then only reads JSON lines under a byte cap. It enforces the
deadline itself: a worker that has not answered by deadline + grace is killed
(`timeout`), one that dies is reported (`worker-exit`) and replaced, malformed
traffic is `protocol` (and the worker is killed), and a cancel token asks the worker
to stop and kills it if it does not (`abort`).

Preludes: a compiled program may carry `.prelude`, a `PreludePackage` (the linked bundle
it was compiled against, see `ptc_runtime.worker.prelude`). Each worker records which
packages it holds; a package is shipped once per worker, before the first run that needs
it, and the host waits for the worker's `prelude_ok` (outside the run's deadline, as
linking happens outside a run in-process). Later runs name only its digest.
"""

from __future__ import annotations

import asyncio
import base64
import dataclasses
import json
import marshal
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ptc_runtime.bindings import BindingRejection, call_host, rejection
from ptc_runtime.errors import KINDS, PtcError, bound_message
from ptc_runtime.limits import Limits
from ptc_runtime.run_contract import MISSING, OutputText, RunFailure, RunResult
from ptc_runtime.tool_boundary import binding_member, check_tool_result, plain_json
from ptc_runtime.worker.prelude import CONSTANT_SECONDS, MAX_LOADED, PreludePackage
from ptc_runtime.worker.protocol import Closed, LineReader, ProtocolError, dumps, loads

_SAFE_ENV = {
    "PATH": "/usr/bin:/bin",
    "LANG": "C.UTF-8",
    "MALLOC_ARENA_MAX": "2",
    "PYTHONHASHSEED": "0",
    "PYTHONDONTWRITEBYTECODE": "1",
}


class Unavailable(Exception):
    """Isolation could not be established."""


class Proc:
    """One worker process and its pipes."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        args = json.dumps(dataclasses.asdict(limits))
        try:
            self.p = subprocess.Popen(
                [sys.executable, "-I", "-m", "ptc_runtime.worker", args],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                env=dict(_SAFE_ENV),
                cwd="/",
                close_fds=True,
                start_new_session=True,
            )
        except OSError as exc:
            raise Unavailable(f"cannot start a worker process ({type(exc).__name__})") from None
        assert self.p.stdin is not None and self.p.stdout is not None
        self.reader = LineReader(self.p.stdout.fileno(), limits.protocol_bytes)
        self.wlock = threading.Lock()
        self.ready = False
        self.env_keys: set[str] = set()
        #: digests of the prelude packages this worker holds, least recently used first
        self.preludes: OrderedDict[str, None] = OrderedDict()

    def wait_ready(self, timeout: float) -> None:
        try:
            line = self.reader.read_line(timeout)
        except (Closed, ProtocolError):
            line = None
        if line is None:
            self.kill()
            raise Unavailable("the worker did not start")
        msg = loads(line)
        if msg.get("op") != "ready":
            self.kill()
            raise Unavailable("the worker could not confine itself (rlimits)")
        self.ready = True

    def alive(self) -> bool:
        return self.p.poll() is None

    def cpu_limit_hit(self, settle_s: float = 0.5) -> bool:
        """After its pipe closed: did the worker die of its CPU rlimit (SIGXCPU)?

        That is an implementation-owned budget expiring (`timeout`), not a substrate
        failure (`worker-exit`). The exit status may lag the closed pipe a little."""
        try:
            code = self.p.wait(timeout=settle_s)
        except subprocess.TimeoutExpired:
            return False
        return code == -signal.SIGXCPU

    def send(self, msg: dict[str, Any]) -> None:
        self.send_raw(dumps(msg))

    def send_raw(self, data: bytes) -> None:
        with self.wlock:
            assert self.p.stdin is not None
            self.p.stdin.write(data)
            self.p.stdin.flush()

    def kill(self) -> None:
        try:
            self.p.kill()
        except OSError:
            pass
        try:
            self.p.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        for f in (self.p.stdin, self.p.stdout):
            try:
                if f is not None:
                    f.close()
            except OSError:
                pass


@dataclasses.dataclass
class RemoteEnv:
    """A state owner's environment living in a dedicated worker."""

    lock: threading.Lock = dataclasses.field(default_factory=threading.Lock)
    key: str = dataclasses.field(default_factory=lambda: uuid.uuid4().hex)
    proc: Proc | None = None
    names: frozenset[str] = frozenset()
    initialized: bool = False
    discard: bool = False


class WorkerPool:
    """Pre-started workers; `run` executes one spec on one of them."""

    def __init__(self, limits: Limits, size: int = 2) -> None:
        if size < 0:
            raise ValueError("pool size must be >= 0")
        self.limits = limits
        self.size = size
        self.idle: list[Proc] = []
        self.lock = threading.Lock()
        self.closed = False
        self.tools = ThreadPoolExecutor(max_workers=16, thread_name_prefix="ptc-tool")
        self.unavailable: str | None = None
        try:
            import resource  # noqa: F401
        except ImportError:
            self.unavailable = "rlimits are not supported on this platform"
        if self.unavailable is None:
            for _ in range(size):
                self._spawn_async()

    # -- pool management ----------------------------------------------------

    def _start(self) -> Proc:
        proc = Proc(self.limits)
        proc.wait_ready(30.0)
        return proc

    def _spawn_async(self) -> None:
        def spawn() -> None:
            try:
                proc = self._start()
            except Unavailable as exc:
                self.unavailable = str(exc)
                return
            with self.lock:
                if self.closed or len(self.idle) >= self.size:
                    proc.kill()
                else:
                    self.idle.append(proc)

        threading.Thread(target=spawn, daemon=True, name="ptc-spawn").start()

    def acquire(self) -> Proc:
        with self.lock:
            while self.idle:
                proc = self.idle.pop()
                if proc.alive():
                    self._spawn_async() if len(self.idle) < self.size - 1 else None
                    return proc
        if self.unavailable is not None and self.unavailable.startswith("rlimits"):
            raise Unavailable(self.unavailable)
        proc = self._start()
        self.unavailable = None
        return proc

    def give_back(self, proc: Proc) -> None:
        with self.lock:
            if not self.closed and proc.alive() and len(self.idle) < self.size:
                self.idle.append(proc)
                return
        proc.kill()

    def retire(self, proc: Proc) -> None:
        proc.kill()
        if not self.closed:
            self._spawn_async()

    def release_env(self, env: RemoteEnv) -> None:
        if env.proc is not None:
            env.proc.kill()
            env.proc = None
        env.initialized = False
        env.names = frozenset()

    def close(self) -> None:
        with self.lock:
            self.closed = True
            idle, self.idle = self.idle, []
        for p in idle:
            p.kill()
        self.tools.shutdown(wait=False, cancel_futures=True)

    # -- one run --------------------------------------------------------------

    def run(self, runtime: Any, spec: Any, env: Any, loop: asyncio.AbstractEventLoop | None) -> Any:
        retained = spec.state_owner is not None
        start = time.monotonic()
        deadline = None if spec.timeout_ms is None else start + spec.timeout_ms / 1000.0

        def fail(kind: str, code: str, message: str, output: tuple[Any, ...] = ()) -> Any:
            return RunResult(
                output=output,
                error=RunFailure(kind, message, code),  # type: ignore[arg-type]
                outcome="error",
                mode="isolated",
            )

        # Compile on the host (the worker never sees source).
        init = runtime._init_compiled
        fresh = not (retained and env.proc is not None and env.proc.alive() and env.initialized)
        try:
            names = frozenset() if fresh else env.names
            if fresh and init is not None:
                names = names | frozenset(getattr(init, "defines", ()))
            compiled = runtime.compile_for(spec, names)
        except PtcError as err:
            r = RunFailure.of(err)
            return RunResult(error=r, outcome="error", mode="isolated")
        try:
            if retained and env.proc is not None and env.proc.alive():
                proc = env.proc
            else:
                if retained and env.proc is not None:  # its worker died: state is gone
                    env.proc = None
                    env.initialized = False
                    env.names = frozenset()
                proc = self.acquire()
                if retained:
                    env.proc = proc
        except Unavailable as exc:
            return fail("sandbox-unavailable", "sandbox_unavailable", str(exc))
        needed = _packages(compiled)
        if init is not None and not (retained and env.initialized):
            needed += [p for p in _packages(init) if p not in needed]
        for pkg in needed:
            problem = self._ensure_prelude(proc, pkg, spec)
            if problem is not None:
                kind, code, message, lost = problem
                if lost:
                    self._lost(proc, env, retained)
                elif not retained:
                    self.give_back(proc)
                return fail(kind, code, message)
        msg: dict[str, Any] = {
            "op": "run",
            "id": uuid.uuid4().hex,
            "code": base64.b64encode(marshal.dumps(compiled.code)).decode("ascii"),
            "fn_names": dict(compiled.fn_names),
            "timeout_ms": None
            if deadline is None
            else max(1.0, (deadline - time.monotonic()) * 1000),
            "max_steps": spec.max_steps,
            "discard": spec.discard_completion,
            "env": env.key if retained else None,
        }
        if spec.native:  # the completion as PTC data (`ptc_runtime.worker.crossing`)
            msg["native"] = True
        if needed:
            msg["preludes"] = [p.digest for p in needed]
        if init is not None and not (retained and env.initialized):
            msg["init"] = {
                "code": base64.b64encode(marshal.dumps(init.code)).decode("ascii"),
                "fn_names": dict(init.fn_names),
            }
        try:
            msg["data"] = plain_json(dict(spec.data or {}))
        except (TypeError, ValueError) as exc:
            if not retained:
                self.give_back(proc)
            return fail("exception", "tool_error", f"data is not JSON: {type(exc).__name__}")
        table = next((b for b in spec.bindings if b.name == "tool"), None)
        state = _RunState()
        try:
            proc.send(msg)
        except OSError:
            self._lost(proc, env, retained)
            return fail("worker-exit", "worker_exit", "the worker exited before the run started")

        grace = self.limits.kill_grace_ms / 1000.0
        cancel_sent_at: float | None = None
        while True:
            now = time.monotonic()
            if spec.cancel is not None and spec.cancel.cancelled:
                if cancel_sent_at is None:
                    cancel_sent_at = now
                    try:
                        proc.send({"op": "cancel"})
                    except OSError:
                        pass
                elif now - cancel_sent_at > grace:
                    self._lost(proc, env, retained)
                    return fail("abort", "abort", "run cancelled (worker stopped)")
            if deadline is not None and now > deadline + grace:
                self._lost(proc, env, retained)
                return fail(
                    "timeout", "timeout", "execution exceeded its deadline; the worker was killed"
                )
            wait = (
                0.02
                if spec.cancel is not None or deadline is None
                else min(0.25, max(0.001, deadline + grace - now))
            )
            try:
                line = proc.reader.read_line(wait)
            except Closed:
                cpu_limit = proc.cpu_limit_hit()
                self._lost(proc, env, retained)
                if spec.cancel is not None and spec.cancel.cancelled:
                    return fail("abort", "abort", "run cancelled")
                if cpu_limit:
                    return fail(
                        "timeout",
                        "timeout",
                        "execution exceeded its CPU budget; the worker was stopped",
                    )
                return fail(
                    "worker-exit",
                    "worker_exit",
                    "the worker process died without settling (memory or CPU limit, "
                    "or a crash); it was replaced",
                )
            except ProtocolError as exc:
                self._lost(proc, env, retained)
                return fail("protocol", "protocol", str(exc))
            if line is None:
                continue
            try:
                reply = loads(line)
                op = reply["op"]
                if op == "tool_call":
                    self._tool_call(proc, reply, table, state, loop, deadline, spec)
                    continue
                if op != "done" or reply.get("id") != msg["id"]:
                    raise ProtocolError("an unexpected message")
                result = _result_from(reply, self.limits)
            except ProtocolError as exc:
                self._lost(proc, env, retained)
                return fail("protocol", "protocol", f"the worker sent {exc}")
            if retained:
                env.initialized = True
                if result.error is None or result.outcome == "fail":
                    names = reply.get("names")
                    if isinstance(names, list) and all(type(n) is str for n in names):
                        env.names = frozenset(names)
                elif result.error.message.startswith("environment initializer failed"):
                    env.discard = True
                    env.initialized = False
            if result.error is not None and result.error.kind == "worker-exit":
                self._lost(proc, env, retained)
            elif not retained:
                self.give_back(proc)
            return result

    def _ensure_prelude(
        self, proc: Proc, pkg: PreludePackage, spec: Any
    ) -> tuple[str, str, str, bool] | None:
        """Ship `pkg` to `proc` unless it holds it; None, or (kind, code, message, lost).

        Loading is bounded by the constants' budget plus the grace period, not by the
        run's deadline. The answer is untrusted worker traffic, validated like any other.
        """
        if pkg.digest in proc.preludes:
            proc.preludes.move_to_end(pkg.digest)
            return None
        try:
            while len(proc.preludes) >= MAX_LOADED:
                old, _ = proc.preludes.popitem(last=False)
                proc.send({"op": "prelude_drop", "digest": old})
            proc.send_raw(pkg.line)
        except (OSError, ValueError):
            return "worker-exit", "worker_exit", "the worker exited before the run started", True
        until = time.monotonic() + CONSTANT_SECONDS + self.limits.kill_grace_ms / 1000.0
        while True:
            if spec.cancel is not None and spec.cancel.cancelled:
                return "abort", "abort", "run cancelled (worker stopped)", True
            left = until - time.monotonic()
            if left <= 0:
                return (
                    "sandbox-unavailable",
                    "prelude_load_failed",
                    "the worker did not load the prelude in time; it was replaced",
                    True,
                )
            try:
                line = proc.reader.read_line(min(left, 0.05))
            except Closed:
                return (
                    "worker-exit",
                    "worker_exit",
                    "the worker died while loading the prelude; it was replaced",
                    True,
                )
            except ProtocolError as exc:
                return "protocol", "protocol", str(exc), True
            if line is None:
                continue
            try:
                reply = loads(line)
            except ProtocolError as exc:
                return "protocol", "protocol", f"the worker sent {exc}", True
            op = reply.get("op")
            if op not in ("prelude_ok", "prelude_failed") or reply.get("digest") != pkg.digest:
                return "protocol", "protocol", "the worker sent an unexpected message", True
            if op == "prelude_ok":
                proc.preludes[pkg.digest] = None
                return None
            reason = reply.get("reason")
            why = bound_message(reason, 300) if isinstance(reason, str) else "unknown reason"
            return (
                "sandbox-unavailable",
                "prelude_load_failed",
                f"the isolated worker could not load the prelude: {why}",
                False,
            )

    def _lost(self, proc: Proc, env: Any, retained: bool) -> None:
        if retained:
            env.proc = None
            env.initialized = False
            env.names = frozenset()
        self.retire(proc)

    def _tool_call(
        self,
        proc: Proc,
        msg: dict[str, Any],
        table: Any,
        state: _RunState,
        loop: asyncio.AbstractEventLoop | None,
        deadline: float | None,
        spec: Any,
    ) -> None:
        call = msg.get("call")
        name = msg.get("name")
        if type(call) is not int or type(name) is not str or "args" not in msg:
            raise ProtocolError("a malformed tool call")
        limits = self.limits
        args = msg["args"]

        def answer(reply: dict[str, Any]) -> None:
            reply.update({"op": "tool_result", "call": call})
            try:
                data = dumps(reply)
            except (TypeError, ValueError, RecursionError):
                data = dumps(
                    {
                        "op": "tool_result",
                        "call": call,
                        "ok": False,
                        "code": "tool_error",
                        "message": "tool result is not JSON",
                    }
                )
            if len(data) > limits.protocol_bytes:
                data = dumps(
                    {
                        "op": "tool_result",
                        "call": call,
                        "ok": False,
                        "code": "tool_result_too_large",
                        "message": f"tool/{name} returned more than "
                        f"{limits.tool_result_bytes} bytes",
                    }
                )
            try:
                with proc.wlock:
                    assert proc.p.stdin is not None
                    proc.p.stdin.write(data)
                    proc.p.stdin.flush()
            except (OSError, ValueError):
                pass

        def error(code: str, message: str, kind: str = "exception", details: Any = None) -> None:
            r: dict[str, Any] = {
                "ok": False,
                "code": code,
                "kind": kind,
                "message": bound_message(message, 400),
            }
            if details:
                r["details"] = details
            answer(r)

        table, member, fn = binding_member(tuple(spec.bindings), name)
        if fn is None:
            error("unknown_tool", f"Unknown tool: {bound_message(name, 80)}")
            return
        if len(json.dumps(args)) > limits.tool_arg_bytes:
            error(
                "invalid_tool_args",
                f"arguments of tool/{name} exceed {limits.tool_arg_bytes} bytes",
                "protocol",
            )
            return
        with state.lock:
            state.calls += 1
            over = state.calls > limits.max_tool_calls
        if over:
            error(
                "tool_call_limit",
                f"tool-call budget of {limits.max_tool_calls} calls per run exhausted",
            )
            return

        def work() -> None:
            remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
            cancelled = (
                (lambda: spec.cancel.cancelled) if spec.cancel is not None else (lambda: False)
            )
            try:
                result = call_host(fn, args, loop, remaining, cancelled)
                check_tool_result(table, name, result, limits)
                answer({"ok": True, "value": plain_json(result)})
            except BindingRejection as exc:
                rej = rejection(table, member, str(exc) or "rejected")
                error(rej.code, rej.message, details=getattr(rej, "details", None))
            except PtcError as perr:
                error(perr.code, perr.message, perr.kind, getattr(perr, "details", None))
            except TimeoutError:
                error("timeout", f"tool/{name} did not finish before the deadline", "timeout")
            except BaseException as exc:  # SystemExit & co from a tool: answered, not lost
                rej = rejection(table, member, str(exc) or type(exc).__name__)
                error(rej.code, rej.message, details=getattr(rej, "details", None))

        self.tools.submit(work)


def _packages(compiled: Any) -> list[PreludePackage]:
    """The prelude package a compiled program carries (`.prelude`), as a list."""
    pkg = getattr(compiled, "prelude", None)
    return [pkg] if isinstance(pkg, PreludePackage) else []


class _RunState:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.calls = 0


_OUTCOMES = frozenset({"value", "return", "fail", "error"})


def _result_from(reply: dict[str, Any], limits: Limits) -> Any:
    """Validate a worker's `done` body strictly; anything off is a protocol error."""
    body = reply.get("result")
    if type(body) is not dict:
        raise ProtocolError("a result that is not an object")
    outcome = body.get("outcome")
    output = body.get("output")
    steps = body.get("steps", 0)
    if outcome not in _OUTCOMES or type(output) is not list or type(steps) is not int:
        raise ProtocolError("a malformed result")
    total = 0
    for t in output:
        if type(t) is not str:
            raise ProtocolError("malformed output")
        total += len(t)
    if total > limits.max_output_bytes * 4:
        raise ProtocolError("output over its cap")
    err = body.get("error")
    failure = None
    if err is not None:
        if type(err) is not dict or err.get("kind") not in KINDS:
            raise ProtocolError("a malformed error")
        line, col = err.get("line"), err.get("column")
        details = err.get("details")
        if details is not None and (
            type(details) is not dict
            or not all(type(k) is str and type(v) is str for k, v in details.items())
        ):
            raise ProtocolError("malformed error details")
        failure = RunFailure(
            err["kind"],
            bound_message(str(err.get("message", "")), 1024),
            bound_message(str(err.get("code", "error")), 64),
            line if type(line) is int else None,
            col if type(col) is int else None,
            bound_message(str(err["hint"]), 512) if isinstance(err.get("hint"), str) else None,
            details,
        )
    elif outcome in ("error", "fail"):
        raise ProtocolError("a failed result without an error")
    native: Any = MISSING
    if "native" in body:
        from ptc_runtime.worker.crossing import MalformedValue, decode

        try:
            native = decode(body["native"])
        except MalformedValue as exc:
            raise ProtocolError(f"a malformed native value ({exc})") from None
    return RunResult(
        value=body["value"] if "value" in body else MISSING,
        output=tuple(OutputText(t) for t in output),
        error=failure,
        outcome=outcome,
        fail_value=body["fail_value"] if "fail_value" in body else MISSING,
        steps=steps,
        mode="isolated",
        native_value=native,
    )
