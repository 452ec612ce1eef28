"""Load on the isolated pool: bursts, hung host tools, runs the runtime outlives.

Each case bounds the wall time generously, checks the pool never runs more workers
than `Limits.max_workers`, and that the host is left with no worker process after
`close`.
"""

from __future__ import annotations

import os
import threading
import time
from typing import Any

from ptc_compiler import api
from ptc_runtime.bindings import BindingNamespace
from ptc_runtime.limits import Limits
from ptc_runtime.seam import RunRequest, RunResult, Runtime


def _go(rt: Runtime, program: str, tools: dict[str, Any] | None = None, **kw: Any) -> RunResult:
    bindings = (BindingNamespace("tool", tools),) if tools else ()
    return rt.run(rt.resolve(RunRequest(program, bindings=bindings, **kw)))


def _burst(rt: Runtime, n: int, program: str, **kw: Any) -> list[RunResult]:
    out: list[Any] = [None] * n

    def one(i: int) -> None:
        out[i] = _go(rt, program.format(i=i), **kw)

    threads = [threading.Thread(target=one, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
        assert not t.is_alive(), "a run hung"
    return out


def _all_reaped(pids: set[int]) -> bool:
    for pid in pids:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            continue
        return False
    return True


def test_16_concurrent_trivial_runs_all_succeed() -> None:
    rt = api.runtime("isolated")
    try:
        start = time.monotonic()
        results = _burst(rt, 16, "(+ 1 {i})", timeout_ms=10_000)
        assert time.monotonic() - start < 60
        assert all(r.ok for r in results), [r.error for r in results if not r.ok][:3]
        assert rt._pool.started <= rt.limits.max_workers
    finally:
        rt.close()


def test_200_concurrent_runs_start_at_most_max_workers_and_leave_no_process() -> None:
    rt = api.runtime("isolated", limits=Limits(max_workers=3))
    seen: set[int] = set()
    stop = threading.Event()

    def watch() -> None:
        while not stop.is_set():
            seen.update(p.pid for p in list(rt._pool.procs))
            time.sleep(0.005)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        results = _burst(rt, 200, "(reduce + (range {i}))", timeout_ms=60_000)
        assert [r.value for r in results] == [sum(range(i)) for i in range(200)]
    finally:
        stop.set()
        watcher.join()
        rt.close()
    assert rt._pool.started <= 3 and len(seen) <= 3
    assert _all_reaped(seen)


def test_a_hung_host_tool_cannot_wedge_later_runs() -> None:
    never = threading.Event()
    rt = api.runtime("isolated", limits=Limits(max_workers=2))
    try:
        tools = {"hang": lambda _: never.wait(60), "ok": lambda _: 7}
        start = time.monotonic()
        hung = _burst(rt, 40, "(tool/hang {{}})", tools=tools, timeout_ms=300)
        assert time.monotonic() - start < 90
        assert all(r.error is not None and r.error.kind == "timeout" for r in hung)
        r = _go(rt, "(tool/ok {})", tools, timeout_ms=10_000)
        assert r.ok and r.value == 7, r.error
    finally:
        never.set()
        rt.close()


def test_closing_under_a_burst_ends_every_run_and_reaps_every_worker() -> None:
    rt = api.runtime("isolated", limits=Limits(max_workers=2))
    seen: set[int] = set()
    results: list[RunResult] = []
    lock = threading.Lock()

    def one() -> None:
        try:
            r = _go(rt, "(loop [i 0] (recur (inc i)))", timeout_ms=60_000, max_steps=10**12)
        except RuntimeError:  # admitted after close: refused
            return
        with lock:
            results.append(r)

    threads = [threading.Thread(target=one) for _ in range(30)]
    for t in threads:
        t.start()
    end = time.monotonic() + 30
    while rt._pool.stats()["in_flight"] < 30 and time.monotonic() < end:
        seen.update(p.pid for p in list(rt._pool.procs))
        time.sleep(0.01)
    time.sleep(0.3)
    seen.update(p.pid for p in list(rt._pool.procs))
    start = time.monotonic()
    rt.close()
    for t in threads:
        t.join(30)
        assert not t.is_alive()
    assert time.monotonic() - start < 30
    assert results and all(r.error is not None and r.error.kind == "abort" for r in results)
    assert _all_reaped(seen) and len(seen) <= 2


# One C call that never returns to the interpreter (it holds the GIL throughout): the
# worker's own checks never run, so only the host's kill can end it. Generated PTC code
# cannot make such a call (its calls are bounded in size, docs/security.md); the raw code
# stands for a worker stuck in one, reaching Python's builtins as an escape would.
STUCK_IN_C = (
    "def program():\n"
    "    b = rt_refill.__globals__['__builtins__']\n"
    "    return b['sum'](b['range'](10 ** 12))\n"
)


class _Raw:
    def __init__(self, source: str) -> None:
        self.code = compile(source, "<ptc>", "exec")
        self.fn_names: dict[str, str] = {}
        self.defines: frozenset[str] = frozenset()


def _raw_or_ptc(source: str, tools: Any, names: Any) -> Any:
    if source.startswith("def program():"):
        return _Raw(source)
    return api.compile(source, tools=tools, user_names=names)


def _stuck_runtime() -> Runtime:
    return Runtime(
        _raw_or_ptc,  # type: ignore[arg-type]
        mode="isolated",
        pool_size=1,
        limits=Limits(kill_grace_ms=250),
    )


def test_a_worker_stuck_in_one_c_call_is_killed_at_deadline_plus_grace() -> None:
    rt = _stuck_runtime()
    try:
        assert _go(rt, "(+ 1 2)").value == 3  # the worker is up
        before = {p.pid for p in list(rt._pool.procs)}
        start = time.monotonic()
        result = _go(rt, STUCK_IN_C, timeout_ms=300)
        elapsed = time.monotonic() - start
        assert result.error is not None, result
        assert result.error.kind == "timeout" and "killed" in result.error.message, result.error
        assert elapsed < 0.3 + 0.25 + 5.0  # deadline + grace, generous for a loaded machine
        deadline = time.monotonic() + 10
        while not _all_reaped(before) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _all_reaped(before)  # the stuck worker is gone
        after = _go(rt, "(+ 1 2)", timeout_ms=10_000)  # replaced, still serving
        assert after.ok and after.value == 3, after.error
        assert rt._pool.started <= rt.limits.max_workers
    finally:
        rt.close()


def test_a_cancel_kills_a_worker_stuck_in_one_c_call() -> None:
    from ptc_runtime.context import CancelToken

    rt = _stuck_runtime()
    try:
        assert _go(rt, "(+ 1 2)").value == 3
        token = CancelToken()
        timer = threading.Timer(0.2, token.cancel)
        timer.start()
        start = time.monotonic()
        result = _go(rt, STUCK_IN_C, timeout_ms=60_000, cancel=token)
        elapsed = time.monotonic() - start
        timer.cancel()
        assert result.error is not None and result.error.kind == "abort", result.error
        assert elapsed < 0.2 + 0.25 + 5.0
        after = _go(rt, "(+ 1 2)", timeout_ms=10_000)
        assert after.ok and after.value == 3, after.error
    finally:
        rt.close()
