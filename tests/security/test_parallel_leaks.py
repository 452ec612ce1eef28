"""Parallel work that would outlive its run (`pmap`/`pcalls`), in both modes.

A run's worker threads stop when it ends: each checks the run's stop flag before every
item and (through its child context) at every step, and the run tells them to stop and
waits a bounded grace for them whatever way it ends. Items are handed out one at a time,
so a huge input is never turned into per-item contexts or closures up front.

In-process the host's own threads are counted; in isolated mode the worker process is
out of sight, so the checks are the failure kind, the time bound and that the next run
is served at once.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest

from ptc_compiler import api
from ptc_runtime.bindings import BindingNamespace
from ptc_runtime.seam import RunRequest, RunResult, Runtime

# a wall bound only a run that never ends reaches (machine load stretches wall time)
HANG_GUARD_S = 60.0


@pytest.fixture(scope="module", params=["in-process", "isolated"])
def runtime(request: pytest.FixtureRequest) -> Iterator[Runtime]:
    rt = api.runtime(request.param, pool_size=1)
    yield rt
    rt.close()


def _run(rt: Runtime, program: str, timeout_ms: int = 1000, **kw: object) -> RunResult:
    return rt.run(rt.resolve(RunRequest(program, timeout_ms=timeout_ms, **kw)))  # type: ignore[arg-type]


def _parallel_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("ptc-p")]


def _settled(within: float) -> bool:
    """No pmap/pcalls worker thread is alive (waiting at most `within` seconds)."""
    end = time.monotonic() + within
    while _parallel_threads():
        if time.monotonic() > end:
            return False
        time.sleep(0.01)
    return True


def _cpu_after(seconds: float) -> float:
    """CPU seconds this process burns while the test sleeps `seconds` (a leftover worker
    spinning shows as about one second per second)."""
    start = time.process_time()
    time.sleep(seconds)
    return time.process_time() - start


def _check_after(rt: Runtime) -> None:
    if rt.mode == "in-process":
        assert _settled(1.0), [t.name for t in _parallel_threads()]
        assert _cpu_after(0.5) < 0.25
    start = time.monotonic()
    again = _run(rt, "(+ 1 2)")
    assert again.error is None and again.value == 3, again.error
    assert time.monotonic() - start < HANG_GUARD_S


@pytest.mark.parametrize(
    "program",
    [
        "(pmap (fn [_] (loop [] (recur))) (range 8))",
        "(pcalls (fn [] (loop [] (recur))) (fn [] (loop [] (recur))) (fn [] 1))",
        "(pmap (fn [_] (pmap (fn [_] (loop [] (recur))) (range 3))) (range 3))",
        "(pmap (fn [x] (if (= x 0) (/ 1 0) (loop [] (recur)))) (range 8))",
    ],
    ids=["pmap-spin", "pcalls-spin", "nested-spin", "one-fails-others-spin"],
)
def test_workers_stop_when_the_run_ends(runtime: Runtime, program: str) -> None:
    start = time.monotonic()
    result = _run(runtime, program, max_steps=10**12)
    assert time.monotonic() - start < HANG_GUARD_S  # the programs spin forever
    assert result.error is not None
    assert result.error.kind in ("timeout", "exception"), result.error
    _check_after(runtime)


@pytest.mark.parametrize(
    "program",
    [
        "(count (pmap inc (range 3000000)))",
        "(count (pmap (fn [x] (inc x)) (range 3000000)))",
        "(count (pmap + (range 3000000) (range 3000000)))",
        "(count (apply pcalls (repeat 2000000 (fn [] 1))))",
    ],
    ids=["builtin", "user-fn", "two-colls", "pcalls"],
)
def test_a_huge_input_is_admitted_in_bounded_chunks(runtime: Runtime, program: str) -> None:
    """Building millions of per-item contexts took 23 s past a 1 s deadline (and GBs);
    now items start one at a time and each checks the deadline first."""
    start = time.monotonic()
    result = _run(runtime, program)
    assert time.monotonic() - start < HANG_GUARD_S  # the programs spin forever
    if result.error is not None:  # a fast machine may finish within the second
        assert result.error.kind in ("timeout", "exception"), result.error
    _check_after(runtime)


def test_many_small_items_still_complete(runtime: Runtime) -> None:
    result = _run(runtime, "(reduce + (pmap inc (range 20000)))", timeout_ms=20_000)
    assert result.error is None, result.error
    assert result.value == sum(range(1, 20001))
    _check_after(runtime)


def test_output_of_items_is_bounded_as_a_whole(runtime: Runtime) -> None:
    """Each item starts with the output budget its predecessors left, and the merge in
    input order fails over the cap (`output-limit`, never a silent cut)."""
    result = _run(
        runtime,
        '(pmap (fn [i] (println (apply str (repeat 1000 "x")))) (range 5000))',
        timeout_ms=20_000,
    )
    assert result.error is not None and result.error.kind == "output-limit", result.error
    _check_after(runtime)


def test_item_budgets_share_the_run_step_budget(runtime: Runtime) -> None:
    """An item starts with the steps the finished ones left: 40 items of ~1,000 steps
    under a 10,000-step budget fail, and no more than the budget plus what the items in
    flight had is spent (it was 40 times the budget)."""
    src = "(pmap (fn [_] (loop [i 0] (if (< i 1000) (recur (inc i)) i))) (range 40))"
    result = _run(runtime, src, timeout_ms=20_000, max_steps=10_000)
    assert result.error is not None and result.error.code == "step_limit_exceeded"
    _check_after(runtime)


SPIN_IN_BUILTIN = "(count (map str (range 10000000)))"  # one builtin call, seconds long


@pytest.mark.parametrize(
    "program",
    [
        f"(pmap (fn [_] {SPIN_IN_BUILTIN}) (range 8))",
        f"(pmap (fn [x] (if (= x 3) (/ 1 0) {SPIN_IN_BUILTIN})) (range 8))",
        f"(pmap (fn [_] (pmap (fn [_] {SPIN_IN_BUILTIN}) (range 2))) (range 2))",
    ],
    ids=["timeout", "one-fails", "nested"],
)
def test_a_worker_inside_a_long_builtin_is_stopped_too(runtime: Runtime, program: str) -> None:
    """A builtin loop that checks nothing sees no stop flag: once told to stop, such a
    worker gets a grace, then is interrupted (an exception raised in its thread)."""
    start = time.monotonic()
    result = _run(runtime, program)
    assert time.monotonic() - start < HANG_GUARD_S  # the programs spin forever
    assert result.error is not None and result.error.kind in ("timeout", "exception")
    _check_after(runtime)


def test_a_host_tool_is_never_interrupted() -> None:
    """The interruption lands only in runtime or generated code: a worker inside a host
    tool is left to finish it (it then takes no further item)."""
    finished: list[str] = []

    def slow(args: object) -> object:
        try:
            end = time.monotonic() + 2.0
            while time.monotonic() < end:  # Python bytecode all along: interruptible
                time.sleep(0.001)
        except BaseException as exc:
            finished.append(f"interrupted: {type(exc).__name__}")
            raise
        finished.append("done")
        return 1

    rt = api.runtime("in-process")
    try:
        program = f"(pmap (fn [i] (if (= i 0) (tool/slow {{}}) {SPIN_IN_BUILTIN})) (range 4))"
        start = time.monotonic()
        bindings = (BindingNamespace("tool", {"slow": slow}),)
        result = _run(rt, program, bindings=bindings)
        assert time.monotonic() - start < HANG_GUARD_S  # the programs spin forever
        assert result.error is not None and result.error.kind == "timeout"
        assert _settled(4.0), [t.name for t in _parallel_threads()]
        # a sync tool runs on a helper thread of its own (the run stops waiting for it at
        # the deadline): it is left to finish, never interrupted
        give_up = time.monotonic() + 5.0
        while not finished and time.monotonic() < give_up:
            time.sleep(0.01)
        assert finished == ["done"]
    finally:
        rt.close()
