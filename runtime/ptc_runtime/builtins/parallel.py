"""`pmap` and `pcalls` (target §9.19, decision 7): concurrent applications.

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
"""

from __future__ import annotations

import contextvars
import os
import queue
import threading
import time
from collections.abc import Callable

from ptc_runtime import context
from ptc_runtime.builtins.registry import BuiltinSpec, declare
from ptc_runtime.collections import as_fn, seq_items
from ptc_runtime.context import CancelToken, RunContext
from ptc_runtime.errors import Aborted, ControlSignal, LimitExceeded, PtcError

DECLS: list[BuiltinSpec] = []

_DEFAULT_TIMEOUT_MS = 30_000
_DEFAULT_WORKERS = 8


class _Stop(CancelToken):
    """Cancelled when the operation is stopped or the run itself is cancelled."""

    def __init__(self, parent: CancelToken | None) -> None:
        super().__init__()
        self.parent = parent
        self.stopped_by_us = False

    @property
    def cancelled(self) -> bool:
        return super().cancelled or (self.parent is not None and self.parent.cancelled)


def _limits(ctx: RunContext) -> tuple[int, int]:
    limits = ctx.options.get("limits")
    timeout = getattr(limits, "parallel_timeout_ms", _DEFAULT_TIMEOUT_MS)
    workers = getattr(limits, "parallel_workers", _DEFAULT_WORKERS)
    return int(timeout), int(workers)


def _child(parent: RunContext, deadline: float | None, stop: _Stop) -> RunContext:
    child = RunContext(
        max_steps=max(1, parent.max_steps - parent.steps_used),
        deadline=deadline,
        cancel=stop,
        data=parent.data,
        tools=parent.tools,
        ns=dict(parent.ns),
        nsc=dict(parent.nsc),
        history=parent.history,
        max_output_bytes=max(0, parent.max_output_bytes - parent.output_bytes),
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


def run_parallel(thunks: list[Callable[[], object]], who: str) -> list[object]:
    """Run `thunks` concurrently; results in input order."""
    n = len(thunks)
    if n == 0:
        return []
    parent = context.current()
    parent.check_time()
    timeout_ms, max_workers = _limits(parent)
    window = min(max_workers, 2 * (os.cpu_count() or 1), n)
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
    own_deadline = time.monotonic() + timeout_ms / 1000.0
    deadline = own_deadline if parent.deadline is None else min(parent.deadline, own_deadline)
    stop = _Stop(parent.cancel)
    children = [_child(parent, deadline, stop) for _ in range(n)]
    results: list[object] = [None] * n
    errors: list[PtcError | None] = [None] * n
    # a Python-level failure of a worker's generated code (an arity `TypeError`, ...), kept
    # to be raised as it is: the executor translates it as it would outside a worker
    raw: list[Exception | None] = [None] * n
    todo: queue.SimpleQueue[int] = queue.SimpleQueue()
    for i in range(n):
        todo.put(i)

    def work() -> None:
        while not stop.cancelled:
            try:
                i = todo.get_nowait()
            except queue.Empty:
                return
            token = context.install(children[i])
            try:
                results[i] = thunks[i]()
            except PtcError as err:
                errors[i] = err
                stop.stopped_by_us = True
                stop.cancel()
            except ControlSignal:
                errors[i] = PtcError(
                    "invalid_form", f"{who}: return/fail cannot be used inside a parallel worker"
                )
                stop.stopped_by_us = True
                stop.cancel()
            except RecursionError:
                errors[i] = LimitExceeded(
                    "recursion_limit", "recursion too deep in a parallel worker", kind="timeout"
                )
                stop.cancel()
            except MemoryError:
                errors[i] = PtcError("memory_exceeded", "memory limit exceeded")
                stop.cancel()
            except Exception as exc:
                errors[i] = PtcError("runtime_error", f"{who}: item {i} failed")
                raw[i] = exc
                stop.stopped_by_us = True
                stop.cancel()
            finally:
                context.uninstall(token)

    threads = []
    try:
        for _ in range(take):
            t = threading.Thread(target=contextvars.copy_context().run, args=(work,), daemon=True)
            t.start()
            threads.append(t)
        for t in threads:
            while t.is_alive():
                t.join(0.02)
                if parent.cancel is not None and parent.cancel.cancelled:
                    stop.cancel()
                if time.monotonic() > deadline + 0.05:
                    stop.cancel()
                    if all(not x.is_alive() for x in threads):
                        break
                    if time.monotonic() > deadline + 0.5:
                        break  # a host tool is stuck: it will stop at its next check
    finally:
        with shared.lock:
            shared.live_workers -= take
    used = sum(c.steps_used for c in children)
    parent.steps_used += used
    first = next(
        ((i, e) for i, e in enumerate(errors) if e is not None and not _echo(e, stop)), None
    )
    if first is None:
        first = next(((i, e) for i, e in enumerate(errors) if e is not None), None)
    if first is not None:
        i, err = first
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
        host = raw[i]
        if host is not None:
            # after an inner pmap's prefix, as the messages of typed errors nest
            inner = getattr(host, "ptc_prefix", "")
            host.ptc_prefix = f"{who}: item {i} failed: {inner}"  # type: ignore[attr-defined]
            raise host
        err.message = f"{who}: item {i} failed: {err.message}"
        raise err
    if any(t.is_alive() for t in threads) or time.monotonic() > deadline:
        parent.check_time()
        raise LimitExceeded(
            "timeout", f"{who} exceeded its parallel deadline of {timeout_ms} ms", kind="timeout"
        )
    parent.charge(0)
    for c in children:
        for text in c.output:
            parent.emit(text)
    return results


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
        return run_parallel([_bind(fn, (x,)) for x in items], "pmap")
    seqs = [seq_items(c, "pmap") for c in (coll, *colls)]
    return run_parallel([_bind(fn, xs) for xs in zip(*seqs, strict=False)], "pmap")


@declare(
    DECLS,
    "pcalls",
    variadic_min=0,
    pure=False,
    doc="Call the zero-argument fns concurrently; vector of results in argument order.",
)
def pcalls(*fns: object) -> list[object]:
    return run_parallel([_bind(as_fn(f, "pcalls"), ()) for f in fns], "pcalls")


def _bind(fn: Callable[..., object], args: tuple[object, ...]) -> Callable[[], object]:
    return lambda: fn(*args)
