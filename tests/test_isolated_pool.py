"""The isolated worker pool under load: admission, queueing, cancellation, disposal,
output batching and worker recycling.

Each test builds a private runtime so the process counts it checks are its own. Time
bounds are generous upper bounds on a hang, never speed assertions.
"""

from __future__ import annotations

import ast
import asyncio
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import CodeType
from typing import Any

import pytest

from ptc_compiler import api
from ptc_runtime.bindings import BindingNamespace
from ptc_runtime.context import CancelToken
from ptc_runtime.limits import Limits
from ptc_runtime.seam import RunRequest, RunResult, Runtime
from ptc_runtime.worker.main import output_messages
from ptc_runtime.worker.protocol import loads
from ptc_runtime.worker.session import _take_output

WORKER_DIR = Path(__file__).parent.parent / "runtime" / "ptc_runtime" / "worker"


@contextmanager
def isolated(pool_size: int = 1, **limits: Any) -> Iterator[Runtime]:
    rt = api.runtime("isolated", pool_size=pool_size, limits=Limits(**limits))
    try:
        yield rt
    finally:
        rt.close()


def go(
    rt: Runtime, program: str, tools: dict[str, Callable[..., Any]] | None = None, **kw: Any
) -> RunResult:
    bindings = (BindingNamespace("tool", tools),) if tools else ()
    return rt.run(rt.resolve(RunRequest(program, bindings=bindings, **kw)))


def wait_started(rt: Runtime, n: int = 1) -> None:
    end = time.monotonic() + 30
    while len(rt._pool.idle) < n:
        assert time.monotonic() < end, "the workers did not start"
        time.sleep(0.01)


def pids(rt: Runtime) -> set[int]:
    return {p.pid for p in rt._pool.procs}


# -- admission ---------------------------------------------------------------------


def test_200_concurrent_threads_all_succeed_within_the_worker_cap() -> None:
    with isolated(pool_size=2, max_workers=3) as rt:
        peak = [0]
        stop = threading.Event()

        def watch() -> None:
            while not stop.is_set():
                peak[0] = max(peak[0], rt._pool.stats()["workers"] + rt._pool.starting)
                time.sleep(0.002)

        results: list[RunResult | None] = [None] * 200

        def one(i: int) -> None:
            results[i] = go(rt, f"(+ 1 {i})", timeout_ms=60_000)

        watcher = threading.Thread(target=watch)
        watcher.start()
        threads = [threading.Thread(target=one, args=(i,)) for i in range(200)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
        stop.set()
        watcher.join()
        assert all(r is not None and r.ok for r in results), [
            r.error for r in results if r is not None and not r.ok
        ][:3]
        assert [r.value for r in results if r is not None] == [1 + i for i in range(200)]
        assert peak[0] <= 3
        assert rt._pool.started <= 3


def test_200_concurrent_aruns_all_succeed() -> None:
    with isolated(pool_size=2, max_workers=2) as rt:

        async def main() -> list[RunResult]:
            specs = [rt.resolve(RunRequest(f"(* 2 {i})", timeout_ms=60_000)) for i in range(200)]
            return await asyncio.gather(*(rt.arun(s) for s in specs))

        results = asyncio.run(main())
        assert [r.value for r in results] == [2 * i for i in range(200)]
        assert rt._pool.started <= 2


def test_the_first_run_waits_for_the_prestarted_worker_instead_of_starting_more() -> None:
    with isolated(pool_size=1, max_workers=4) as rt:
        assert go(rt, "(+ 1 2)").value == 3
        assert rt._pool.started == 1


def test_the_pools_first_start_is_not_charged_to_the_first_run() -> None:
    # A fresh runtime: its first worker is still starting when this run arrives. That
    # one-time start is the provider's cost (like loading a prelude), not the run's.
    with isolated(pool_size=1, max_workers=1) as rt:
        assert rt._pool.booted_at is None
        r = go(rt, "(+ 1 2)", timeout_ms=40)
        assert r.ok and r.value == 3, r.error


def test_a_run_that_times_out_in_the_queue_says_so() -> None:
    release = threading.Event()

    def hold(_: Any) -> str:
        release.wait(20)
        return "done"

    with isolated(pool_size=1, max_workers=1) as rt:
        wait_started(rt)
        first: list[RunResult] = []
        t = threading.Thread(
            target=lambda: first.append(go(rt, "(tool/hold {})", {"hold": hold}, timeout_ms=30_000))
        )
        t.start()
        end = time.monotonic() + 10
        while rt._pool.stats()["idle"] and time.monotonic() < end:
            time.sleep(0.01)
        start = time.monotonic()
        r = go(rt, "(+ 1 2)", timeout_ms=300)
        assert time.monotonic() - start < 15
        assert r.error is not None and r.error.kind == "timeout"
        assert r.error.code == "queue_timeout"
        assert "waited" in r.error.message and "never started" in r.error.message
        assert r.error.details is not None and r.error.details["max_workers"] == "1"
        assert int(r.error.details["waited_ms"]) >= 250
        release.set()
        t.join(30)
        assert first[0].ok and first[0].value == "done"
        assert go(rt, "(+ 1 2)").value == 3  # the worker serves again
        assert rt._pool.started == 1


def test_a_queued_run_is_served_when_a_worker_frees_up_and_its_wait_is_charged() -> None:
    def nap(_: Any) -> int:
        time.sleep(0.4)
        return 1

    with isolated(pool_size=1, max_workers=1) as rt:
        wait_started(rt)
        t = threading.Thread(
            target=lambda: go(rt, "(tool/nap {})", {"nap": nap}, timeout_ms=30_000)
        )
        t.start()
        time.sleep(0.1)
        r = go(rt, "(+ 1 2)", timeout_ms=20_000)
        t.join(30)
        assert r.ok and r.value == 3


def test_cancelling_a_queued_run_is_abort() -> None:
    release = threading.Event()
    with isolated(pool_size=1, max_workers=1) as rt:
        wait_started(rt)
        tools = {"hold": lambda _: release.wait(20)}
        t = threading.Thread(target=lambda: go(rt, "(tool/hold {})", tools, timeout_ms=30_000))
        t.start()
        time.sleep(0.2)
        token = CancelToken()
        threading.Timer(0.2, token.cancel).start()
        start = time.monotonic()
        r = go(rt, "(+ 1 2)", timeout_ms=30_000, cancel=token)
        assert time.monotonic() - start < 10
        assert r.error is not None and r.error.kind == "abort"
        assert "waited for a worker" in r.error.message
        release.set()
        t.join(30)


# -- cancellation --------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["isolated"])
def test_a_token_cancelled_before_the_run_is_abort(mode: str) -> None:
    rt = api.runtime(mode, pool_size=1)
    try:
        token = CancelToken()
        token.cancel()
        r = go(rt, "(+ 1 2)", cancel=token)
        assert r.error is not None and r.error.kind == "abort"
        assert rt._pool.started <= 1  # nothing was started for it
    finally:
        rt.close()


def test_arun_abort_during_an_async_tool_is_abort() -> None:
    async def slow(_: Any) -> int:
        await asyncio.sleep(30)
        return 1

    with isolated(pool_size=1) as rt:

        async def main() -> RunResult:
            token = CancelToken()
            spec = rt.resolve(
                RunRequest(
                    "(tool/slow {})",
                    bindings=(BindingNamespace("tool", {"slow": slow}),),
                    timeout_ms=20_000,
                    cancel=token,
                )
            )
            asyncio.get_running_loop().call_later(0.3, token.cancel)
            return await rt.arun(spec)

        start = time.monotonic()
        r = asyncio.run(main())
        assert time.monotonic() - start < 10
        assert r.error is not None and r.error.kind == "abort", r.error
        assert go(rt, "(+ 1 2)").value == 3


def test_the_deadline_holds_while_a_sync_tool_blocks() -> None:
    release = threading.Event()
    with isolated(pool_size=1) as rt:
        start = time.monotonic()
        r = go(rt, "(tool/stuck {})", {"stuck": lambda _: release.wait(20)}, timeout_ms=300)
        assert time.monotonic() - start < 10
        assert r.error is not None and r.error.kind == "timeout"
        release.set()  # the late result is discarded
        assert go(rt, "(+ 1 2)").value == 3


def test_a_cancel_holds_while_a_sync_tool_blocks() -> None:
    release = threading.Event()
    with isolated(pool_size=1) as rt:
        token = CancelToken()
        threading.Timer(0.3, token.cancel).start()
        start = time.monotonic()
        r = go(
            rt,
            "(tool/stuck {})",
            {"stuck": lambda _: release.wait(20)},
            timeout_ms=30_000,
            cancel=token,
        )
        assert time.monotonic() - start < 10
        assert r.error is not None and r.error.kind == "abort"
        release.set()
        time.sleep(0.1)
        assert go(rt, "(+ 1 2)").value == 3


def test_close_cancels_and_awaits_in_flight_runs_and_kills_every_worker() -> None:
    rt = api.runtime("isolated", pool_size=2, limits=Limits(max_workers=3))
    results: list[RunResult] = []
    owner = object()
    loop = "(loop [i 0] (recur (inc i)))"

    def one(**kw: Any) -> None:
        results.append(go(rt, loop, timeout_ms=60_000, max_steps=10**12, **kw))

    threads = [
        threading.Thread(target=one),
        threading.Thread(target=one, kwargs={"state_owner": owner}),
    ]
    for t in threads:
        t.start()
    end = time.monotonic() + 20
    while rt._pool.inflight < 2 or len(rt._pool.procs) < 2:
        assert time.monotonic() < end
        time.sleep(0.01)
    time.sleep(0.3)
    procs = list(rt._pool.procs)
    start = time.monotonic()
    rt.close()
    assert time.monotonic() - start < 15
    for t in threads:
        t.join(5)
        assert not t.is_alive()
    assert [r.error.kind if r.error else None for r in results] == ["abort", "abort"]
    assert all(p.p.poll() is not None for p in procs)  # dead and reaped
    assert not rt._pool.procs
    with pytest.raises(RuntimeError):
        go(rt, "1")


# -- output ------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["in-process", "isolated"])
def test_900000_empty_printlns_succeed(mode: str) -> None:
    rt = api.runtime(mode, pool_size=1)
    try:
        r = go(rt, "(doseq [_ (range 900000)] (println))", timeout_ms=60_000)
        assert r.ok, r.error
        assert len(r.output) == 900_000 and r.text == "\n" * 900_000
    finally:
        rt.close()


@pytest.mark.parametrize("mode", ["in-process", "isolated"])
def test_output_over_its_cap_is_output_limit(mode: str) -> None:
    rt = api.runtime(mode, pool_size=1)
    try:
        r = go(rt, "(doseq [_ (range 1100000)] (println))", timeout_ms=60_000)
        assert r.error is not None and r.error.kind == "output-limit"
        assert "1000000" in r.error.message
        assert r.text == "\n" * 1_000_000  # what fitted, then the failure
    finally:
        rt.close()


def test_output_messages_keep_fragments_and_stay_under_the_cap() -> None:
    texts = ["a\n", "é" * 5000 + "\n", "\U0001f600" * 300 + "\n", "z"]
    cap = 2000
    wire = output_messages(texts, cap)
    lines = wire.split(b"\n")[:-1]
    assert len(lines) > 5 and all(len(line) <= cap for line in lines)
    got: list[str] = []
    total = 0
    limits = Limits()
    for line in lines:
        total = _take_output(loads(line), got, total, limits)
    assert got == texts


def test_a_worker_sending_output_past_the_cap_is_protocol() -> None:
    from ptc_runtime.worker.protocol import ProtocolError

    limits = Limits(max_output_bytes=10)
    with pytest.raises(ProtocolError):
        _take_output({"op": "output", "text": ["x" * 11]}, [], 0, limits)
    with pytest.raises(ProtocolError):
        _take_output({"op": "output", "text": [""] * 11}, [], 0, limits)


# -- recycling -------------------------------------------------------------------------


@dataclass
class Raw:
    code: CodeType
    fn_names: dict[str, str]
    defines: frozenset[str] = frozenset()


def raw_compiler(source: str, tools: Any, names: Any) -> Any:
    """Test Python as the code sent to the worker (standing for a runtime leak)."""
    if source.startswith("#py\n"):
        body = "\n".join("    " + line for line in source[4:].splitlines())
        return Raw(compile("def program():\n" + body + "\n", "<ptc>", "exec"), {})
    return api.compile(source, tools=tools, user_names=names)


#: memory a run leaves behind in the worker (as the keyword intern table once did)
LEAK = "rt_refill.__globals__['context'].__dict__.setdefault('_leak', []).append(b'\\0' * (150 << 20))\nreturn 1"


def test_a_worker_that_grew_is_replaced_and_an_innocent_run_then_succeeds() -> None:
    limits = Limits(worker_memory_bytes=420 << 20)
    rt = Runtime(raw_compiler, mode="isolated", pool_size=1, limits=limits)
    try:
        assert go(rt, "(+ 1 2)").value == 3
        before = pids(rt)
        r = go(rt, "#py\n" + LEAK, timeout_ms=20_000)
        assert r.ok, r.error
        assert rt._pool.recycled == 1  # past half of worker_memory_bytes: replaced
        # This needs more than the grown worker had left: in it, it would be worker-exit.
        big = "#py\nx = b'\\1' * (220 << 20)\nreturn 220"
        r = go(rt, big, timeout_ms=20_000)
        assert r.ok and r.value == 220, r.error
        assert not (pids(rt) & before)
    finally:
        rt.close()


def test_without_recycling_the_grown_worker_fails_the_innocent_run() -> None:
    """The control for the test above: the same runs with recycling off."""
    limits = Limits(worker_memory_bytes=420 << 20)
    rt = Runtime(raw_compiler, mode="isolated", pool_size=1, limits=limits)
    try:
        rt._pool.recycle_bytes = 1 << 40
        assert go(rt, "#py\n" + LEAK, timeout_ms=20_000).ok
        r = go(rt, "#py\nx = b'\\1' * (220 << 20)\nreturn 220", timeout_ms=20_000)
        assert r.error is not None and r.error.kind == "worker-exit"
    finally:
        rt.close()


def test_light_runs_keep_their_worker() -> None:
    with isolated(pool_size=1) as rt:
        assert go(rt, "(+ 1 2)").value == 3
        before = pids(rt)
        for i in range(20):
            assert go(rt, f"(str {i})").value == str(i)
        assert pids(rt) == before and rt._pool.recycled == 0


# -- structure ---------------------------------------------------------------------


def test_the_pool_modules_do_not_import_the_seam() -> None:
    for name in ("pool.py", "session.py", "process.py", "protocol.py"):
        tree = ast.parse((WORKER_DIR / name).read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                mods = [node.module or ""] + [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                mods = [a.name for a in node.names]
            else:
                continue
            assert not any(m == "ptc_runtime.seam" for m in mods), (name, mods)
    code = "import sys, ptc_runtime.worker.pool; print('ptc_runtime.seam' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
