"""The worker process: confine itself, then run programs the host compiled.

Started by the host as ``python -I -m ptc_runtime.worker '<limits json>'`` with a
scrubbed environment. Before reading any request it sets RLIMIT_AS (memory),
RLIMIT_CORE and RLIMIT_FSIZE (0: no core dumps, no file writes) and RLIMIT_NOFILE,
moves the protocol pipes off fds 0/1 (so nothing a program reaches can write
protocol traffic), and says `ready`. If confinement cannot be established it says
`unavailable` and exits. Each run gets RLIMIT_CPU = CPU used so far + its budget.

Messages in: run, prelude, prelude_drop, tool_result, cancel, release, exit. Out:
ready, unavailable, prelude_ok, prelude_failed, tool_call, done. Tool calls block the
calling program thread until the host answers; a reader thread dispatches answers and
cancellations. A `prelude` message carries a linked prelude bundle (see
`ptc_runtime.worker.prelude`); the worker keeps it by digest until `prelude_drop`, and a
run names the digests it was compiled against.
"""

from __future__ import annotations

import base64
import dataclasses
import json
import marshal
import os
import queue
import sys
import threading
import time
from typing import Any

from ptc_runtime.images import PtcImage, output_wire
from ptc_runtime.worker.protocol import Closed, LineReader, ProtocolError, dumps, loads


class Channel:
    """The worker's end of the protocol (thread-safe writes)."""

    def __init__(self, rfd: int, wfd: int, cap: int) -> None:
        self.reader = LineReader(rfd, cap)
        self.wfd = wfd
        self.lock = threading.Lock()

    def send(self, msg: dict[str, Any]) -> None:
        self.send_raw(dumps(msg))

    def send_raw(self, data: bytes) -> None:
        with self.lock:
            view = memoryview(data)
            while view:
                n = os.write(self.wfd, view)
                view = view[n:]


def confine(limits: dict[str, Any]) -> None:
    import resource

    mem = int(limits["worker_memory_bytes"])
    baseline = _address_space()
    if baseline is not None and mem < baseline + 64 * 1024 * 1024:
        raise MemoryError("the memory limit is below what a worker needs to run")
    resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
    resource.setrlimit(resource.RLIMIT_NOFILE, (32, 32))


def _address_space() -> int | None:
    """This process's current virtual size in bytes (Linux), or None."""
    try:
        with open("/proc/self/statm") as f:
            pages = int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return None
    return pages * os.sysconf("SC_PAGE_SIZE")


def set_cpu_budget(timeout_ms: float | None, fixed: int) -> None:
    import resource

    used = resource.getrusage(resource.RUSAGE_SELF)
    spent = used.ru_utime + used.ru_stime
    if fixed > 0:
        budget = fixed
    elif timeout_ms is None:
        budget = 3600
    else:
        budget = int(timeout_ms / 1000.0) + 2
    soft = int(spent) + budget
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    if hard != resource.RLIM_INFINITY:
        soft = min(soft, hard)
    resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))


class Worker:
    def __init__(self, chan: Channel, limits_json: dict[str, Any]) -> None:
        from ptc_runtime.limits import Limits

        self.chan = chan
        self.limits = Limits(**limits_json)
        self.runs: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.pending: dict[int, list[Any]] = {}  # call id -> [event, reply]
        self.pending_lock = threading.Lock()
        self.calls = 0
        self.cancel: Any = None
        self.envs: dict[str, Any] = {}
        self.preludes: dict[str, Any] = {}  # digest -> LoadedPrelude

    # -- reader thread --------------------------------------------------

    def read_loop(self) -> None:
        try:
            while True:
                line = self.chan.reader.read_line(None)
                if line is None:
                    continue
                msg = loads(line)
                op = msg["op"]
                if op == "tool_result":
                    with self.pending_lock:
                        slot = self.pending.get(msg.get("call"))  # type: ignore[arg-type]
                    if slot is not None:
                        slot[1] = msg
                        slot[0].set()
                elif op == "cancel":
                    if self.cancel is not None:
                        self.cancel.cancel()
                elif op in ("run", "release", "prelude", "prelude_drop"):
                    self.runs.put(msg)  # in order: a run follows the prelude it needs
                elif op == "exit":
                    break
        except (Closed, ProtocolError, OSError):
            pass
        self.runs.put(None)

    # -- tool proxy -----------------------------------------------------

    def tool_invoker(self, ctx: Any) -> Any:
        from ptc_runtime import context
        from ptc_runtime.errors import Aborted, LimitExceeded, PtcError
        from ptc_runtime.tool_boundary import check_tool_args

        def invoke(name: str, args: object) -> object:
            text = check_tool_args(name, args, self.limits)
            cur = context.current()
            cur.check_time()
            with self.pending_lock:
                self.calls += 1
                call = self.calls
                slot: list[Any] = [threading.Event(), None]
                self.pending[call] = slot
            head = dumps({"op": "tool_call", "call": call, "name": name})[:-2]  # drop "}\n"
            self.chan.send_raw(head + b',"args":' + text.encode("utf-8") + b"}\n")
            try:
                while not slot[0].wait(0.02):
                    cur.check_time()
            finally:
                with self.pending_lock:
                    self.pending.pop(call, None)
            reply = slot[1]
            if reply.get("ok") is True:
                if "image" in reply:  # a host-issued image descriptor
                    return PtcImage.from_json(reply["image"])
                return reply.get("value")
            kind = reply.get("kind") if isinstance(reply.get("kind"), str) else "exception"
            code = reply.get("code") if isinstance(reply.get("code"), str) else "tool_error"
            message = str(reply.get("message", "tool call failed"))
            if kind == "abort":  # the host stopped waiting for the tool: the run was cancelled
                raise Aborted("abort", message)
            cls = LimitExceeded if kind == "timeout" else PtcError
            err = cls(code, message, kind=kind)
            details = reply.get("details")
            if isinstance(details, dict):
                err.details = details  # type: ignore[attr-defined]
            raise err

        return invoke

    # -- runs -------------------------------------------------------------

    def serve(self) -> None:
        threading.Thread(target=self.read_loop, daemon=True).start()
        while True:
            msg = self.runs.get()
            if msg is None:
                return
            if msg["op"] == "release":
                self.envs.pop(str(msg.get("env")), None)
                continue
            if msg["op"] == "prelude_drop":
                self.preludes.pop(str(msg.get("digest")), None)
                continue
            if msg["op"] == "prelude":
                answer, fatal = self.load_prelude(msg)
                self.chan.send(answer)
                if fatal:
                    os._exit(0)
                continue
            reply, fatal = self.run(msg)
            self.chan.send_raw(reply)
            if fatal:
                os._exit(0)

    def load_prelude(self, msg: dict[str, Any]) -> tuple[dict[str, Any], bool]:
        """Load a shipped prelude; answer `prelude_ok` or `prelude_failed` (fatal on OOM)."""
        from ptc_runtime.errors import PtcError, bound_message
        from ptc_runtime.worker.prelude import (
            CONSTANT_SECONDS,
            MAX_LOADED,
            PackageError,
            load_package,
        )

        digest = msg.get("digest")
        answer: dict[str, Any] = {"op": "prelude_failed", "digest": digest}
        if type(digest) is not str:
            answer["digest"] = ""
            answer["reason"] = "malformed prelude package (digest)"
            return answer, False
        set_cpu_budget(CONSTANT_SECONDS * 1000, self.limits.worker_cpu_seconds)
        try:
            if digest not in self.preludes:
                if len(self.preludes) >= MAX_LOADED:
                    raise PackageError("too many preludes loaded in this worker")
                got, loaded = load_package(msg)
                self.preludes[got] = loaded
        except MemoryError:
            answer["reason"] = "out of memory while loading the prelude"
            return answer, True
        except PackageError as exc:
            answer["reason"] = bound_message(str(exc), 300)
            return answer, False
        except PtcError as exc:
            answer["reason"] = bound_message(f"a constant failed: {exc.message}", 300)
            return answer, False
        except RecursionError:
            answer["reason"] = "a constant recursed too deeply"
            return answer, False
        except Exception as exc:  # return/fail signals, Python-level failures of constants
            answer["reason"] = f"a constant failed ({type(exc).__name__})"
            return answer, False
        return {"op": "prelude_ok", "digest": digest}, False

    def run(self, msg: dict[str, Any]) -> tuple[bytes, bool]:
        """One run, with the preludes it was compiled against resolvable only meanwhile."""
        from ptc_runtime import prelude as rt_prelude
        from ptc_runtime.errors import PtcError

        wanted = msg.get("preludes") or []
        if type(wanted) is not list:
            wanted = [None]
        found = [self.preludes.get(d) if type(d) is str else None for d in wanted]
        loaded = [p for p in found if p is not None]
        if len(loaded) != len(found):
            ctx = _Bare()
            err = PtcError(
                "prelude_unavailable",
                "the prelude of this run is not loaded in the worker",
                kind="sandbox-unavailable",
            )
            return self.reply(msg, ctx, None, err, ""), False
        for p in loaded:
            rt_prelude.register(p)
        try:
            return self._run(msg)
        finally:
            for p in loaded:
                rt_prelude.unregister(p)

    def _run(self, msg: dict[str, Any]) -> tuple[bytes, bool]:
        from ptc_runtime.completion import settle
        from ptc_runtime.context import CancelToken, Records, RunContext
        from ptc_runtime.convert import from_host
        from ptc_runtime.errors import OutOfMemory, PtcError
        from ptc_runtime.executor import Outcome, execute
        from ptc_runtime.run_contract import RunSpec
        from ptc_runtime.state import Environment

        start = time.monotonic()
        timeout = msg.get("timeout_ms")
        set_cpu_budget(timeout, self.limits.worker_cpu_seconds)
        deadline = None if timeout is None else start + float(timeout) / 1000.0
        key = msg.get("env")
        env = self.envs.get(key) if key is not None else None
        if env is None:
            env = Environment()
            if key is not None:
                self.envs[key] = env
        self.cancel = CancelToken()
        records = Records()  # the data's record lists (`ptc_runtime.records`)
        ctx = RunContext(
            max_steps=int(msg["max_steps"]),
            deadline=deadline,
            cancel=self.cancel,
            data=from_host(msg.get("data") or {}, records),  # type: ignore[arg-type]
            records=records,
            ns=env.ns,
            nsc=env.nsc,
            history=env.history,
            modules=env.modules,
            max_output_bytes=self.limits.max_output_bytes,
            print_line_chars=self.limits.print_line_chars,
        )
        ctx.options["limits"] = self.limits
        ctx.tool_invoker = self.tool_invoker(ctx)
        spec = RunSpec(
            program="",
            bindings=(),
            data=None,
            timeout_ms=timeout,
            cancel=None,
            state_owner=None,
            discard_completion=bool(msg.get("discard")),
            max_steps=int(msg["max_steps"]),
        )
        env.begin()
        init = msg.get("init")
        if init is not None and not env.initialized:
            code = marshal.loads(base64.b64decode(init["code"]))
            out = execute(code, ctx, init["fn_names"])
            if out.status in ("error", "fail"):
                env.rollback()
                if key is not None:
                    self.envs.pop(key, None)
                err = out.error or PtcError("fail", "the initializer called fail")
                failed: tuple[bytes, bool] = self.reply(
                    msg, ctx, None, err, "environment initializer failed: "
                )
                return failed
            env.begin()
        env.initialized = True
        code = marshal.loads(base64.b64decode(msg["code"]))
        outcome = execute(code, ctx, msg["fn_names"])
        wire: Any = _NO_NATIVE
        if msg.get("native") is True and outcome.status != "error":
            # Encoded before the commit, so a completion too large to cross is rolled back
            # like any failed run; a fail value that cannot cross keeps its projection.
            try:
                wire = native_wire(outcome.value, self.limits.max_value_bytes)
            except PtcError as err:
                if outcome.status != "fail":
                    outcome = Outcome("error", error=err)
            if wire is not _NO_NATIVE:
                spec = dataclasses.replace(spec, discard_completion=True)
        result = settle(ctx, outcome, spec, env if key is not None else None, self.limits)
        # Only a real MemoryError damages the worker; a size guard's refusal does not.
        fatal = outcome.status == "error" and isinstance(outcome.error, OutOfMemory)
        return self.reply(
            msg, ctx, result, None, "", names=sorted(env.ns), fatal=fatal, native=wire
        ), fatal

    def reply(
        self,
        msg: dict[str, Any],
        ctx: Any,
        result: Any,
        err: Any,
        prefix: str,
        *,
        names: list[str] | None = None,
        fatal: bool = False,
        native: Any = None,
    ) -> Any:
        from ptc_runtime.run_contract import MISSING, RunFailure

        if result is None:
            failure = RunFailure.of(err, prefix)
            body: dict[str, Any] = {"outcome": "error", "steps": ctx.steps_used}
            body["error"] = _failure_json(failure)
            done = dumps({"op": "done", "id": msg.get("id"), "result": body})
            head = output_messages(output_wire(ctx.output), self.limits.protocol_bytes)
            return head + done, False
        body = {"outcome": result.outcome, "steps": result.steps}
        wire = [
            o.text if o.type == "text" else {"image": o.attachment.to_json()} for o in result.output
        ]
        head = output_messages(wire, self.limits.protocol_bytes)
        if result.value is not MISSING:
            body["value"] = result.value
        if result.fail_value is not MISSING:
            body["fail_value"] = result.fail_value
        if native is not None and native is not _NO_NATIVE and result.outcome != "error":
            body["native"] = native[0]
        if result.error is not None:
            f = result.error
            if fatal:
                f = RunFailure(
                    "worker-exit",
                    "the worker ran out of memory and was replaced",
                    "memory_exceeded",
                )
            body["error"] = _failure_json(f)
        out: dict[str, Any] = {"op": "done", "id": msg.get("id"), "result": body}
        if names is not None:
            out["names"] = names
        try:
            return head + dumps(out)
        except (ValueError, RecursionError):
            body.pop("value", None)
            body.pop("fail_value", None)
            body.pop("native", None)
            return head + dumps(out)


#: characters of output text per `output` message (fewer when the protocol cap is small)
OUTPUT_CHUNK_CHARS = 65_536


def output_messages(texts: list[Any], protocol_bytes: int = 4_000_000) -> bytes:
    """A run's output as `output` messages sent before `done`: the fragments in emission
    order, as many per message as fit in `OUTPUT_CHUNK_CHARS` characters, so many short
    lines cost a few messages and no protocol line grows with the output. A fragment
    longer than that is split across messages; ``"joined": true`` says the message's
    first fragment continues the previous message's last one. A message stays under the
    protocol cap even when every character is escaped (at most 12 bytes each, plus a few
    bytes of framing per fragment)."""
    budget = max(64, min(OUTPUT_CHUNK_CHARS, (protocol_bytes - 64) // 16))
    out: list[bytes] = []
    batch: list[str] = []
    used = 0
    joined = False

    def flush(next_joined: bool) -> None:
        nonlocal batch, used, joined
        if batch:
            msg: dict[str, Any] = {"op": "output", "text": batch}
            if joined:
                msg["joined"] = True
            out.append(dumps(msg))
        batch, used, joined = [], 0, next_joined

    for t in texts:
        if type(t) is not str:  # an image entry ({"image": ...}, `images.output_wire`) in its place
            if used + 256 > budget:
                flush(False)
            batch.append(t)
            used += 256
            continue
        cost = len(t) + 4  # quotes and comma count against the budget too
        if used + cost > budget:
            flush(False)
        while len(t) + 4 > budget:  # a long fragment: split across messages
            piece, t = t[: budget - 4], t[budget - 4 :]
            batch.append(piece)
            flush(True)
        batch.append(t)
        used += len(t) + 4
    flush(False)
    return b"".join(out)


#: No native wire value (not asked for, or the value nests too deeply for it).
_NO_NATIVE: Any = object()


def native_wire(value: object, cap: int) -> Any:
    """(the native wire form of `value`,) under `cap` JSON bytes, or `_NO_NATIVE` when it
    nests too deeply (the projection is sent instead). Over `cap` is `output-limit`; the
    size is estimated first (`measure`), so an enormous value costs bounded work."""
    from ptc_runtime.errors import LimitExceeded
    from ptc_runtime.limits import measure
    from ptc_runtime.worker.crossing import TooDeep, encode

    def too_large() -> LimitExceeded:
        return LimitExceeded(
            "output_limit", f"the result value exceeded {cap} bytes", kind="output-limit"
        )

    if measure(value, 8 * cap) > 8 * cap:
        raise too_large()
    try:
        wire = encode(value)
    except TooDeep:
        return _NO_NATIVE
    if len(json.dumps(wire, ensure_ascii=True, separators=(",", ":"))) > cap:
        raise too_large()
    return (wire,)


class _Bare:
    """The output and steps of a run that never started."""

    output: tuple[str, ...] = ()
    steps_used = 0


def _failure_json(f: Any) -> dict[str, Any]:
    d = {
        "kind": f.kind,
        "message": f.message,
        "code": f.code,
        "line": f.line,
        "column": f.column,
        "hint": f.hint,
    }
    if f.details:
        d["details"] = dict(f.details)
    return d


def main() -> None:
    limits = json.loads(sys.argv[1]) if len(sys.argv) > 1 else {}
    # Keep the protocol pipes on private fds; fds 0/1 become /dev/null.
    rfd = os.dup(0)
    wfd = os.dup(1)
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    os.close(null)
    sys.stdout = open(os.devnull, "w")
    from ptc_runtime.worker.prelude import MAX_PACKAGE_BYTES

    # Host -> worker lines: the host is trusted; the cap only bounds a confused sender.
    # Prelude packages may be larger than an ordinary message.
    cap = max(int(limits.get("protocol_bytes", 4_000_000)), MAX_PACKAGE_BYTES)
    chan = Channel(rfd, wfd, cap)
    try:
        # Import everything a run needs before confinement (and before the first run).
        from ptc_runtime import builtins as _b  # noqa: F401
        from ptc_runtime import completion, executor, tool_boundary  # noqa: F401
        from ptc_runtime import prelude as _p  # noqa: F401

        executor.base_globals()
        confine(limits)
    except Exception as exc:
        chan.send({"op": "unavailable", "reason": type(exc).__name__})
        os._exit(3)
    chan.send({"op": "ready", "pid": os.getpid()})
    Worker(chan, limits).serve()
    os._exit(0)
