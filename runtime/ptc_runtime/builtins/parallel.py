"""`pmap` and `pcalls`: concurrent applications.

Each application runs on a worker thread with its own child run context: a read-only
snapshot of the user namespace (its `def`s are discarded), its own output buffer
(merged in input order), the run's step budget, tool budget and cancel token, and one
deadline for the whole operation (`parallel_timeout_ms`, 30 s by default, clamped by
the run's deadline; nested calls inherit it). Live workers are capped per run across
nesting (`parallel_workers`, 8); when none is free the call fails with
`parallel_capacity_exceeded` (no sequential fallback). The first failing item (lowest
index) fails the whole expression; the others are stopped. `return`/`fail` inside a
worker is an error. CPython runs one thread at a time, so the gain is in tool calls
(I/O), which run concurrently.

Nothing outlives the operation: items are handed out one at a time (at most one per
worker in flight, each item's context made when it starts), every worker checks the
operation's stop flag before each item and, as its context's cancel token, at every
step, and the flag is set however the operation ends; the workers are joined with a
bound (`_GRACE_S` after the stop, then `_Operation.interrupt` for a worker stuck in one
long builtin call, then `_GRACE_S` more).
"""

from __future__ import annotations

import contextvars
import ctypes
import os
import threading
import time
from collections.abc import Callable
from typing import Any

from ptc_runtime import context
from ptc_runtime.builtins.registry import BuiltinSpec, declare
from ptc_runtime.collections import as_fn, seq_items
from ptc_runtime.context import CancelToken, RunContext
from ptc_runtime.errors import Aborted, ControlSignal, LimitExceeded, PtcError

DECLS: list[BuiltinSpec] = []

_DEFAULT_TIMEOUT_MS = 30_000
_DEFAULT_WORKERS = 8
_DEFAULT_PER_CPU = 2
#: How long the workers are waited for once told to stop, before the last resort
#: (`_Operation.interrupt`), and again after it.
_GRACE_S = 0.5


class _Stopped(BaseException):
    """Raised inside a worker thread that did not stop when told to (see `interrupt`).
    A `BaseException`, so no `except Exception` of the runtime takes it for an error."""


def _checkpoint() -> None:
    """A Python-level call: an interruption already pending lands here (at its `RESUME`)
    rather than in whatever Python code the thread enters next."""


def _raise_in(thread_id: int) -> None:
    ctypes.pythonapi.PyThreadState_SetAsyncExc(
        ctypes.c_ulong(thread_id), ctypes.py_object(_Stopped)
    )


class _Stop(CancelToken):
    """Cancelled when the operation is stopped or the run itself is cancelled."""

    def __init__(self, parent: CancelToken | None) -> None:
        super().__init__()
        self.parent = parent
        self.stopped_by_us = False

    @property
    def cancelled(self) -> bool:
        return super().cancelled or (self.parent is not None and self.parent.cancelled)


def _limits(ctx: RunContext) -> tuple[int, int, int]:
    limits = ctx.options.get("limits")
    timeout = getattr(limits, "parallel_timeout_ms", _DEFAULT_TIMEOUT_MS)
    workers = getattr(limits, "parallel_workers", _DEFAULT_WORKERS)
    per_cpu = getattr(limits, "parallel_per_cpu", _DEFAULT_PER_CPU)
    return int(timeout), int(workers), int(per_cpu)


def _child(
    parent: RunContext, deadline: float | None, stop: _Stop, steps: int, output: int
) -> RunContext:
    child = RunContext(
        max_steps=steps,
        deadline=deadline,
        cancel=stop,
        data=parent.data,
        tools=parent.tools,
        ns=dict(parent.ns),
        nsc=dict(parent.nsc),
        history=parent.history,
        max_output_bytes=output,
        print_line_chars=parent.print_line_chars,
    )
    child.tool_invoker = parent.tool_invoker
    child.shared = parent.shared
    # Workers pull from the parent's fuel chunks (the module globals are shared): a
    # worker's refill charges the chunk's real size, known only from this table.
    child.fuel_out = parent.fuel_out
    child.fuel_retired = parent.fuel_retired
    child.linked = parent.linked  # and from every module of the run (see `RunContext.link`)
    child.options = parent.options
    child.records = parent.records  # record lists of the run's data and tool results
    return child


class _Operation:
    """The shared state of one `pmap`/`pcalls`: the next item to hand out, what the
    finished items left (results, errors, output, steps), all guarded by `lock`.

    Items are handed out one at a time to the worker threads, so no more items are in
    flight than there are workers, and an item's child context is made when the item
    starts and dropped when it ends (a million-item `pmap` holds a handful of contexts,
    never a million)."""

    def __init__(self, parent: RunContext, n: int, call: Callable[[int], object], who: str) -> None:
        self.parent = parent
        self.n = n
        self.call = call
        self.who = who
        self.lock = threading.Lock()
        self.next = 0
        self.results: list[object] = [None] * n
        self.errors: dict[int, PtcError] = {}
        # a Python-level failure of a worker's generated code (an arity `TypeError`, ...),
        # kept to be raised as it is: the executor translates it as it would outside a worker
        self.raw: dict[int, Exception] = {}
        self.output: dict[int, list[Any]] = {}  # only the items that printed (text, images)
        self.output_bytes = 0
        self.steps = 0  # of the finished items
        self.deadline: float | None = None
        self.stop = _Stop(parent.cancel)
        #: Worker threads inside an item and outside any host tool: the only places an
        #: interruption may land (`interrupt`). Only with the seam's tool invoker, which
        #: the children call through `_outside`; a context without one calls host tools
        #: directly, so it is never interrupted.
        self.running: set[int] = set()
        self.interruptible = parent.tool_invoker is not None
        self.interrupted = False

    def interrupt(self) -> None:
        """The last resort for a worker that ignores the stop flag (inside one long
        builtin loop that checks nothing): raise `_Stopped` in it, at its next bytecode.
        Only a thread inside an item and not inside a host tool is interrupted (both
        under `lock`), so the exception lands in runtime or generated code, never in
        the host's: a tool call first leaves `running`, then passes `_checkpoint`."""
        with self.lock:
            if self.interrupted or not self.interruptible:
                return
            self.interrupted = True
            for tid in self.running:
                _raise_in(tid)
            self.running.clear()

    def tool_invoker(
        self, invoke: Callable[[str, object], object]
    ) -> Callable[[str, object], object]:
        """`invoke` for a child: the thread is out of `running` while the host's tool runs."""

        def call(name: str, args: object) -> object:
            tid = threading.get_ident()
            with self.lock:
                inside = tid in self.running
                self.running.discard(tid)
            try:
                _checkpoint()
                return invoke(name, args)
            finally:
                if inside:
                    with self.lock:
                        if not self.interrupted:
                            self.running.add(tid)

        return call

    def take(self) -> int | None:
        """The next item to run, None when all are handed out (or the operation stops)."""
        with self.lock:
            i = self.next
            if i >= self.n or self.stop.cancelled:
                return None
            self.next = i + 1
            return i

    def fail(self, i: int, err: PtcError, raw: Exception | None = None, ours: bool = True) -> None:
        """Item `i` failed: keep its error, stop the other items."""
        with self.lock:
            self.errors[i] = err
            if raw is not None:
                self.raw[i] = raw
        if ours:
            self.stop.stopped_by_us = True
        self.stop.cancel()

    def work(self) -> None:
        """A worker thread: run items until none is left or the operation stops. The run
        stop flag is read before every item, and inside one at every step (the child's
        cancel token is the flag)."""
        try:
            self._work()
        except _Stopped:
            pass  # interrupted: the operation has ended without this thread

    def _work(self) -> None:
        parent, stop, who = self.parent, self.stop, self.who
        tid = threading.get_ident()
        while True:
            i = self.take()
            if i is None:
                return
            with self.lock:
                steps = parent.max_steps - parent.steps_used - self.steps
                out = parent.max_output_bytes - parent.output_bytes - self.output_bytes
            child = _child(parent, self.deadline, stop, max(1, steps), max(0, out))
            if self.interruptible:
                child.tool_invoker = self.tool_invoker(parent.tool_invoker)  # type: ignore[arg-type]
            token = context.install(child)
            with self.lock:
                self.running.add(tid)
            try:
                child.check_time()  # deadline and stop, before each item
                if steps <= 0:
                    child.over_budget()
                self.results[i] = self.call(i)
            except PtcError as err:
                self.fail(i, err)
            except ControlSignal:
                self.fail(
                    i,
                    PtcError(
                        "invalid_form",
                        f"{who}: return/fail cannot be used inside a parallel worker",
                    ),
                )
            except RecursionError:
                self.fail(
                    i,
                    LimitExceeded(
                        "recursion_limit", "recursion too deep in a parallel worker", kind="timeout"
                    ),
                    ours=False,
                )
            except MemoryError:
                self.fail(i, PtcError("memory_exceeded", "memory limit exceeded"), ours=False)
            except Exception as exc:
                self.fail(i, PtcError("runtime_error", f"{who}: item {i} failed"), exc)
            finally:
                with self.lock:
                    self.running.discard(tid)
                _checkpoint()  # an interruption raised before the discard lands here
                context.uninstall(token)
                with self.lock:
                    self.steps += child.steps_used
                    if child.output:
                        self.output[i] = child.output
                        self.output_bytes += child.output_bytes


def run_parallel(n: int, call: Callable[[int], object], who: str) -> list[object]:
    """Run `call(0) .. call(n - 1)` concurrently; results in input order."""
    if n == 0:
        return []
    parent = context.current()
    parent.check_time()
    timeout_ms, max_workers, per_cpu = _limits(parent)
    window = min(max_workers, per_cpu * (os.cpu_count() or 1), n)
    shared = parent.shared
    with shared.lock:
        free = max_workers - shared.live_workers
        take = min(window, free)
        if take > 0:
            shared.live_workers += take
    if take <= 0:
        raise PtcError(
            "parallel_capacity_exceeded",
            f"{who}: all {max_workers} parallel workers of this run are busy",
            hint="avoid nesting pmap/pcalls deeply; use map inside a pmap",
        )
    op = _Operation(parent, n, call, who)
    own_deadline = time.monotonic() + timeout_ms / 1000.0
    deadline = own_deadline if parent.deadline is None else min(parent.deadline, own_deadline)
    op.deadline = deadline
    stop = op.stop
    threads: list[threading.Thread] = []
    try:
        for _ in range(take):
            t = threading.Thread(
                target=contextvars.copy_context().run,
                args=(op.work,),
                name=f"ptc-{who}",
                daemon=True,
            )
            t.start()
            threads.append(t)
        _join(op, threads, deadline)
    except _Stopped:
        # this thread is itself a worker of an outer operation, interrupted: so are the
        # workers it started, at once (they were told to stop long ago)
        stop.cancel()
        op.interrupt()
        raise
    finally:
        # however this ends (done, failed, timed out, cancelled, or an error here), no
        # worker starts another item or takes another step after it
        stop.cancel()
        with shared.lock:
            shared.live_workers -= take
    parent.steps_used += op.steps
    errors = op.errors
    first = next((i for i in sorted(errors) if not _echo(errors[i], stop)), None)
    if first is None:
        first = min(errors, default=None)
    if first is not None:
        err = errors[first]
        if isinstance(err, Aborted) and parent.cancel is not None and parent.cancel.cancelled:
            raise err
        if (
            err.code == "timeout"
            and deadline == own_deadline
            and (parent.deadline is None or own_deadline < parent.deadline)
        ):
            raise LimitExceeded(
                "timeout",
                f"{who} exceeded its parallel deadline of {timeout_ms} ms",
                kind="timeout",
            )
        host = op.raw.get(first)
        if host is not None:
            # after an inner pmap's prefix, as the messages of typed errors nest
            inner = getattr(host, "ptc_prefix", "")
            host.ptc_prefix = f"{who}: item {first} failed: {inner}"  # type: ignore[attr-defined]
            raise host
        err.message = f"{who}: item {first} failed: {err.message}"
        raise err
    if any(t.is_alive() for t in threads) or time.monotonic() > deadline:
        parent.check_time()
        raise LimitExceeded(
            "timeout", f"{who} exceeded its parallel deadline of {timeout_ms} ms", kind="timeout"
        )
    parent.charge(0)
    for i in sorted(op.output):
        for text in op.output[i]:
            parent.emit(text)
    return op.results


def _join(op: _Operation, threads: list[threading.Thread], deadline: float) -> None:
    """Wait for the workers. Stop them at the deadline or when the run is cancelled; once
    stopped (by that or by a failing item), wait `_GRACE_S` for them to see it, then
    interrupt the ones still inside an item and wait `_GRACE_S` more. A worker inside a
    host tool is never interrupted: it stops at its next check and takes no item after."""
    stop, parent = op.stop, op.parent
    stopped_at: float | None = None
    while True:
        alive = [t for t in threads if t.is_alive()]
        if not alive:
            return
        alive[0].join(0.02)
        if parent.cancel is not None and parent.cancel.cancelled:
            stop.cancel()
        now = time.monotonic()
        if now > deadline + 0.05:
            stop.cancel()
        if not stop.cancelled:
            continue
        if stopped_at is None:
            stopped_at = now
        elif now > stopped_at + 2 * _GRACE_S:
            return
        elif now > stopped_at + _GRACE_S:
            op.interrupt()


def _echo(err: PtcError, stop: _Stop) -> bool:
    """True for the aborts we caused ourselves when stopping the other workers."""
    return isinstance(err, Aborted) and stop.stopped_by_us


@declare(
    DECLS,
    "pmap",
    variadic_min=2,
    pure=False,
    doc="Like map, but the applications run concurrently (results in input order).",
)
def pmap(f: object, coll: object, *colls: object) -> list[object]:
    fn = as_fn(f, "pmap")
    if not colls:
        items = seq_items(coll, "pmap")
        return run_parallel(len(items), lambda i: fn(items[i]), "pmap")
    seqs = [seq_items(c, "pmap") for c in (coll, *colls)]
    return run_parallel(min(map(len, seqs)), lambda i: fn(*[s[i] for s in seqs]), "pmap")


@declare(
    DECLS,
    "pcalls",
    variadic_min=0,
    pure=False,
    doc="Call the zero-argument fns concurrently; vector of results in argument order.",
)
def pcalls(*fns: object) -> list[object]:
    calls = [as_fn(f, "pcalls") for f in fns]
    return run_parallel(len(calls), lambda i: calls[i](), "pcalls")
