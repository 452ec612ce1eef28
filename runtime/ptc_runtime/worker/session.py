"""One isolated run, host side: the protocol conversation with one lent worker.

`execute` compiles the program on the host, asks the pool for a worker (queueing under
the run's deadline and cancel token), ships the preludes the worker lacks, sends the
code object (marshal, host -> worker only: the host is trusted) and then only reads
capped JSON lines. It enforces the deadline itself: a worker that has not answered by
deadline + grace is killed (`timeout`), one that dies is reported (`worker-exit`) and
replaced, malformed traffic is `protocol` (and the worker is killed), and a cancel
token, or the runtime closing, asks the worker to stop and kills it if it does not
(`abort`). Each tool call the worker makes runs on its own host thread, so the run's
deadline and cancel token hold while a tool runs; the answer of a call that outlives its
run is dropped.

Output arrives as `output` messages (many fragments per message) before `done`, so a
run that prints many short lines costs a few messages, not one per line.

Preludes: a compiled program may carry `.prelude`, a `PreludePackage` (the linked bundle
it was compiled against, see `ptc_runtime.worker.prelude`). A package is shipped once per
worker, before the first run that needs it, and the host waits for the worker's
`prelude_ok` (outside the run's deadline, as linking happens outside a run in-process).
Later runs name only its digest.
"""

from __future__ import annotations

import asyncio
import base64
import dataclasses
import json
import marshal
import threading
import time
import uuid
from typing import TYPE_CHECKING, Any

from ptc_runtime.bindings import (
    BindingRejection,
    as_called,
    call_host,
    host_failure,
    rejection,
)
from ptc_runtime.convert import unsupported_part
from ptc_runtime.errors import KINDS, PtcError, bound_message
from ptc_runtime.images import OutputImage, PtcImage, attachment_from_json
from ptc_runtime.limits import Limits
from ptc_runtime.run_contract import MISSING, Kind, OutputText, RunFailure, RunResult
from ptc_runtime.tool_boundary import binding_member, check_tool_result, plain_json
from ptc_runtime.worker.prelude import CONSTANT_SECONDS, MAX_LOADED, PreludePackage
from ptc_runtime.worker.process import Proc, Unavailable
from ptc_runtime.worker.protocol import Closed, ProtocolError, dumps, loads

if TYPE_CHECKING:
    from ptc_runtime.worker.pool import WorkerPool


@dataclasses.dataclass
class RemoteEnv:
    """A state owner's environment living in a worker dedicated to that owner."""

    lock: threading.Lock = dataclasses.field(default_factory=threading.Lock)
    key: str = dataclasses.field(default_factory=lambda: uuid.uuid4().hex)
    proc: Proc | None = None
    names: frozenset[str] = frozenset()
    initialized: bool = False
    discard: bool = False


class QueueTimeout(Exception):
    """The run's deadline passed while it waited for a worker."""

    def __init__(self, waited_s: float, max_workers: int) -> None:
        super().__init__(waited_s)
        self.waited_s = waited_s
        self.max_workers = max_workers


class QueueAborted(Exception):
    """The run was cancelled (or the runtime closed) while it waited for a worker."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class _RunState:
    """What the tool threads of one run share with its session."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.calls = 0
        self.over = False  # the session ended: late tool answers are dropped


def execute(
    pool: WorkerPool,
    runtime: Any,
    spec: Any,
    env: Any,
    loop: asyncio.AbstractEventLoop | None,
) -> Any:
    """Run one resolved spec on a worker of `pool`; always returns a run result."""
    retained = spec.state_owner is not None
    start = time.monotonic()
    deadline = None if spec.timeout_ms is None else start + spec.timeout_ms / 1000.0

    def fail(kind: Kind, code: str, message: str, details: Any = None) -> RunResult:
        return RunResult(
            error=RunFailure(kind, message, code, None, None, None, details),
            outcome="error",
            mode="isolated",
        )

    def stopped() -> str | None:
        """Why the run must stop now (cancelled, or the runtime closing), or None."""
        if spec.cancel is not None and spec.cancel.cancelled:
            return "run cancelled"
        if pool.closed:
            return "run cancelled: the runtime was closed"
        return None

    why = stopped()
    if why is not None:  # a token cancelled before the run: nothing starts
        return fail("abort", "abort", f"{why} before it started")
    # Compile on the host (the worker never sees source).
    init = runtime._init_compiled
    fresh = not (retained and env.proc is not None and env.proc.alive() and env.initialized)
    try:
        names = frozenset() if fresh else env.names
        if fresh and init is not None:
            names = names | frozenset(getattr(init, "defines", ()))
        compiled = runtime.compile_for(spec, names)
    except PtcError as err:
        return RunResult(error=RunFailure.of(err), outcome="error", mode="isolated")
    try:
        if retained and env.proc is not None and env.proc.alive():
            proc = env.proc
        else:
            if retained and env.proc is not None:  # its worker died: state is gone
                pool.retire(env.proc)
                env.proc = None
                env.initialized = False
                env.names = frozenset()
            queued_at = time.monotonic()
            proc = pool.acquire(deadline, stopped)
            if deadline is not None:  # the pool's first start is not the run's time
                deadline += pool.boot_wait(queued_at)
            if retained:
                env.proc = proc
    except Unavailable as exc:
        return fail("sandbox-unavailable", "sandbox_unavailable", str(exc))
    except QueueTimeout as exc:
        waited = round(exc.waited_s * 1000)
        return fail(
            "timeout",
            "queue_timeout",
            f"the run's deadline passed while it waited {waited} ms for a free isolated "
            f"worker (this runtime runs at most {exc.max_workers}, all busy or starting); "
            "the program never started",
            {"waited_ms": str(waited), "max_workers": str(exc.max_workers)},
        )
    except QueueAborted as exc:
        return fail("abort", "abort", f"{exc.reason} while it waited for a worker")
    return _converse(pool, proc, compiled, init, spec, env, retained, deadline, loop, fail)


def _converse(
    pool: WorkerPool,
    proc: Proc,
    compiled: Any,
    init: Any,
    spec: Any,
    env: Any,
    retained: bool,
    deadline: float | None,
    loop: asyncio.AbstractEventLoop | None,
    fail: Any,
) -> Any:
    """The run's traffic on `proc`, from the preludes to `done`."""
    limits = pool.limits

    def lost() -> None:
        if retained:
            env.proc = None
            env.initialized = False
            env.names = frozenset()
        pool.retire(proc)

    def done_with() -> None:
        if not retained:
            pool.give_back(proc)

    needed = _packages(compiled)
    if init is not None and not (retained and env.initialized):
        needed += [p for p in _packages(init) if p not in needed]
    for pkg in needed:
        problem = _ensure_prelude(pool, proc, pkg, spec)
        if problem is not None:
            kind, code, message, broken = problem
            if broken:
                lost()
            else:
                done_with()
            return fail(kind, code, message)
    msg: dict[str, Any] = {
        "op": "run",
        "id": uuid.uuid4().hex,
        "code": base64.b64encode(marshal.dumps(compiled.code)).decode("ascii"),
        "fn_names": dict(compiled.fn_names),
        "timeout_ms": None if deadline is None else max(1.0, (deadline - time.monotonic()) * 1000),
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
        done_with()
        where = unsupported_part(dict(spec.data or {}))
        if where is not None:
            return fail("exception", "tool_error", f"data: host data has no PTC form {where}")
        return fail("exception", "tool_error", f"data is not JSON: {type(exc).__name__}")
    state = _RunState()
    try:
        proc.send(msg)
    except (OSError, ValueError):
        lost()
        return fail("worker-exit", "worker_exit", "the worker exited before the run started")
    output: list[Any] = []
    output_bytes = 0
    grace = limits.kill_grace_ms / 1000.0
    cancel_sent_at: float | None = None
    try:
        while True:
            now = time.monotonic()
            why = "run cancelled" if spec.cancel is not None and spec.cancel.cancelled else None
            if why is None and pool.closed:
                why = "run cancelled: the runtime was closed"
            if why is not None:
                if cancel_sent_at is None:
                    cancel_sent_at = now
                    try:
                        proc.send({"op": "cancel"})
                    except (OSError, ValueError):
                        pass
                elif now - cancel_sent_at > grace:
                    lost()
                    return fail("abort", "abort", f"{why} (worker stopped)")
            if deadline is not None and now > deadline + grace:
                lost()
                return fail(
                    "timeout", "timeout", "execution exceeded its deadline; the worker was killed"
                )
            wait = (
                0.02
                if spec.cancel is not None or deadline is None or cancel_sent_at is not None
                else min(0.25, max(0.001, deadline + grace - now))
            )
            try:
                line = proc.reader.read_line(wait)
            except Closed:
                cpu_limit = proc.cpu_limit_hit()
                lost()
                if cancel_sent_at is not None or (
                    spec.cancel is not None and spec.cancel.cancelled
                ):
                    return fail("abort", "abort", why or "run cancelled")
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
                lost()
                return fail("protocol", "protocol", str(exc))
            if line is None:
                continue
            try:
                reply = loads(line)
                op = reply["op"]
                if op == "tool_call":
                    _tool_call(pool, proc, reply, state, loop, deadline, spec)
                    continue
                if op == "output":
                    output_bytes = _take_output(reply, output, output_bytes, limits)
                    continue
                if op != "done" or reply.get("id") != msg["id"]:
                    raise ProtocolError("an unexpected message")
                result = result_from(reply, limits, output, output_bytes)
            except ProtocolError as exc:
                lost()
                return fail("protocol", "protocol", f"the worker sent {exc}")
            proc.runs_served += 1
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
                lost()
            else:
                done_with()
            return result
    finally:
        with state.lock:
            state.over = True


def _take_output(reply: dict[str, Any], output: list[Any], total: int, limits: Limits) -> int:
    """Append one `output` message's text chunks; the worker enforces the output cap, so
    text past it is a misbehaving worker (`protocol`)."""
    chunks = reply.get("text")
    joined = reply.get("joined", False)
    if type(chunks) is not list or type(joined) is not bool:
        raise ProtocolError("malformed output")
    for t in chunks:
        if type(t) is dict and set(t) == {"image"}:  # an image entry, in its place
            try:
                image = OutputImage(attachment_from_json(t["image"]))
            except ValueError:
                raise ProtocolError("a malformed image output entry") from None
            total += 64 + len(image.attachment.id.encode("utf-8", "surrogatepass"))
            if total > limits.max_output_bytes:
                raise ProtocolError(f"output over its cap of {limits.max_output_bytes} bytes")
            output.append(image)
            joined = False
            continue
        if type(t) is not str:
            raise ProtocolError("malformed output")
        # An honest worker sends no empty fragment (each is a println line or part of
        # one): counting one byte for it keeps a flood of empty ones bounded too.
        total += max(1, len(t.encode("utf-8", "surrogatepass")))
        if total > limits.max_output_bytes:
            raise ProtocolError(f"output over its cap of {limits.max_output_bytes} bytes")
        if joined and output and type(output[-1]) is str:
            output[-1] += t
        else:
            output.append(t)
        joined = False
    return total


def _ensure_prelude(
    pool: WorkerPool, proc: Proc, pkg: PreludePackage, spec: Any
) -> tuple[str, str, str, bool] | None:
    """Ship `pkg` to `proc` unless it holds it; None, or (kind, code, message, broken).

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
    until = time.monotonic() + CONSTANT_SECONDS + pool.limits.kill_grace_ms / 1000.0
    while True:
        if (spec.cancel is not None and spec.cancel.cancelled) or pool.closed:
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


def _tool_call(
    pool: WorkerPool,
    proc: Proc,
    msg: dict[str, Any],
    state: _RunState,
    loop: asyncio.AbstractEventLoop | None,
    deadline: float | None,
    spec: Any,
) -> None:
    """Answer one `tool_call` of the worker, on a host tool thread."""
    call = msg.get("call")
    name = msg.get("name")
    if type(call) is not int or type(name) is not str or "args" not in msg:
        raise ProtocolError("a malformed tool call")
    limits = pool.limits
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
                    "message": f"tool/{name} returned more than {limits.tool_result_bytes} bytes",
                }
            )
        with state.lock:
            if state.over:  # the run ended (timeout, abort): its late answer is dropped
                return
            try:
                proc.send_raw(data)
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

    def cancelled() -> bool:
        return (spec.cancel is not None and spec.cancel.cancelled) or pool.closed or state.over

    def work() -> None:
        if cancelled():
            return
        remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
        try:
            result = call_host(fn, args, loop, remaining, cancelled)
            if type(result) is PtcImage:  # an image descriptor is the whole result
                answer({"ok": True, "image": result.to_json()})
                return
            check_tool_result(table, name, result, limits)
            answer({"ok": True, "value": plain_json(result)})
        except BindingRejection as exc:
            rej = rejection(table, member, str(exc) or "rejected")
            error(rej.code, rej.message, details=getattr(rej, "details", None))
        except PtcError as perr:
            perr = as_called(table, member, fn, perr)
            error(perr.code, perr.message, perr.kind, getattr(perr, "details", None))
        except TimeoutError:
            if cancelled():  # stopped waiting because the run was cancelled, not late
                error("abort", "run cancelled during a call of tool/" + name, "abort")
            else:
                error("timeout", f"tool/{name} did not finish before the deadline", "timeout")
        except BaseException as exc:  # SystemExit & co too; its type only, text to the log
            rej = host_failure(table, member, exc)
            error(rej.code, rej.message, details=getattr(rej, "details", None))

    # A thread per call, not a shared executor: a host tool that never returns keeps
    # only its own thread, and cannot make the tool calls of later runs wait behind it.
    threading.Thread(target=work, daemon=True, name="ptc-tool").start()


def _packages(compiled: Any) -> list[PreludePackage]:
    """The prelude package a compiled program carries (`.prelude`), as a list."""
    pkg = getattr(compiled, "prelude", None)
    return [pkg] if isinstance(pkg, PreludePackage) else []


_OUTCOMES = frozenset({"value", "return", "fail", "error"})


def result_from(
    reply: dict[str, Any],
    limits: Limits,
    streamed: list[Any] | None = None,
    streamed_bytes: int = 0,
) -> Any:
    """Validate a worker's `done` body strictly; anything off is a protocol error.

    `streamed`: the text the run's `output` messages carried before `done` (`done` may
    carry more output of its own, under the same cap)."""
    body = reply.get("result")
    if type(body) is not dict:
        raise ProtocolError("a result that is not an object")
    outcome = body.get("outcome")
    output = body.get("output", [])
    steps = body.get("steps", 0)
    if outcome not in _OUTCOMES or type(output) is not list or type(steps) is not int:
        raise ProtocolError("a malformed result")
    texts = list(streamed or ())
    _take_output({"text": output}, texts, streamed_bytes, limits)
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
        output=tuple(OutputText(t) if type(t) is str else t for t in texts),
        error=failure,
        outcome=outcome,
        fail_value=body["fail_value"] if "fail_value" in body else MISSING,
        steps=steps,
        mode="isolated",
        native_value=native,
    )
