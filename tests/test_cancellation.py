"""Cancellation and deadlines always win (in-process; the shared seam in both modes).

A token cancelled before `run()` is `abort` without running; a run queued behind its
state owner honours its cancel and deadline while it waits; a synchronous tool call
runs on a helper thread, so the run ends at its deadline or cancel while the tool is
still running (its late result is discarded); `close()` cancels and awaits every run
in flight.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator

import pytest

import ptc_compiler
from ptc_compiler import api, run
from ptc_runtime.context import CancelToken
from ptc_runtime.runtime import Runtime

MODES = ["in-process", "isolated"]


@pytest.mark.parametrize("mode", MODES)
def test_a_token_cancelled_before_run_is_abort_without_running(mode: str) -> None:
    calls: list[object] = []
    token = CancelToken()
    token.cancel()
    r = run("(tool/t {})", mode=mode, cancel=token, tools={"t": lambda a: calls.append(a) or 1})
    assert r.error is not None and r.error.kind == "abort", r.error
    assert calls == []


# A slow tool holds until the test releases it (at the latest HOLD_S): a run that waited for
# it would take HOLD_S, so "the run did not wait" is `elapsed < HOLD_S / 2`, a bound no
# machine load reaches, instead of a race between a short sleep and a short deadline.
HOLD_S = 60.0
_release = threading.Event()


@pytest.fixture(autouse=True)
def _release_slow_tools() -> Iterator[None]:
    _release.clear()
    yield
    _release.set()  # the held tools return (their late results are discarded)


def _slow(
    seconds: float = HOLD_S,
    started: threading.Event | None = None,
    returned: threading.Event | None = None,
) -> object:
    def tool(_a: object) -> object:
        if started is not None:
            started.set()
        _release.wait(seconds)
        if returned is not None:
            returned.set()
        return 1

    return tool


@pytest.mark.parametrize("mode", MODES)
def test_a_deadline_wins_over_a_synchronous_tool(mode: str) -> None:
    t0 = time.monotonic()
    r = run("(tool/slow {})", mode=mode, timeout_ms=300, tools={"slow": _slow()})
    assert time.monotonic() - t0 < HOLD_S / 2  # the tool still holds; the run did not wait
    assert r.error is not None and r.error.kind == "timeout", r.error


@pytest.mark.parametrize("mode", MODES)
def test_a_cancel_wins_over_a_synchronous_tool(mode: str) -> None:
    token = CancelToken()
    started = threading.Event()

    def cancel_soon() -> None:
        started.wait(10)
        token.cancel()

    threading.Thread(target=cancel_soon, daemon=True).start()
    t0 = time.monotonic()
    r = run(
        "(tool/slow {})",
        mode=mode,
        timeout_ms=10_000,
        cancel=token,
        tools={"slow": _slow(started=started)},
    )
    assert time.monotonic() - t0 < HOLD_S / 2
    assert r.error is not None and r.error.kind == "abort", r.error


def test_an_async_tool_cancelled_in_process_is_abort() -> None:
    token = CancelToken()

    async def slow(_a: object) -> object:
        await asyncio.sleep(HOLD_S)
        return 1

    async def main() -> ptc_compiler.RunResult:
        asyncio.get_running_loop().call_later(0.2, token.cancel)
        return await api.arun(
            "(tool/slow {})", tools={"slow": slow}, cancel=token, timeout_ms=10_000
        )

    t0 = time.monotonic()
    r = asyncio.run(main())
    assert time.monotonic() - t0 < HOLD_S / 2
    assert r.error is not None and r.error.kind == "abort", r.error


def test_the_late_result_of_a_tool_is_discarded() -> None:
    returned = threading.Event()
    owner = object()
    rt = api.runtime()
    try:
        r = run(
            "(def got (tool/slow {}))",
            runtime=rt,
            state_owner=owner,
            timeout_ms=200,
            tools={"slow": _slow(returned=returned)},
        )
        assert r.error is not None and r.error.kind == "timeout"
        _release.set()
        assert returned.wait(HOLD_S)  # the tool has returned: nothing of it is kept
        r = run("got", runtime=rt, state_owner=owner)
        assert r.error is not None and r.error.code == "unbound_var"
    finally:
        rt.close()


def _queued(rt: Runtime, owner: object, **kw: object) -> ptc_compiler.RunResult:
    """Start a run of `owner` held by a slow tool, then run a second one behind it with `kw`."""
    started = threading.Event()
    first = threading.Thread(
        target=run,
        args=("(tool/slow {})",),
        kwargs={
            "runtime": rt,
            "state_owner": owner,
            "timeout_ms": HOLD_S * 1000,
            "tools": {"slow": _slow(started=started)},
        },
        daemon=True,
    )
    first.start()
    assert started.wait(10)
    try:
        return run("1", runtime=rt, state_owner=owner, **kw)  # type: ignore[arg-type]
    finally:
        _release.set()
        first.join(HOLD_S)


def test_a_queued_run_honours_its_cancel() -> None:
    rt = api.runtime()
    try:
        token = CancelToken()
        threading.Timer(0.2, token.cancel).start()
        t0 = time.monotonic()
        r = _queued(rt, object(), cancel=token, timeout_ms=10_000)
        assert r.error is not None and r.error.kind == "abort", r.error
        assert "queued" in r.error.message
        assert time.monotonic() - t0 < HOLD_S / 2  # it did not wait for the first run
    finally:
        rt.close()


def test_a_queued_run_honours_its_deadline() -> None:
    rt = api.runtime()
    try:
        r = _queued(rt, object(), timeout_ms=200)
        assert r.error is not None and r.error.kind == "timeout", r.error
        assert "queued" in r.error.message
    finally:
        rt.close()


@pytest.mark.parametrize("mode", MODES)
def test_close_cancels_and_awaits_every_run_in_flight(mode: str) -> None:
    rt = api.runtime(mode)
    results: list[ptc_compiler.RunResult] = []
    ready = threading.Event()

    def loop_forever() -> None:
        ready.set()
        results.append(run("(loop [] (recur))", runtime=rt, timeout_ms=60_000, max_steps=10**15))

    workers = [threading.Thread(target=loop_forever, daemon=True) for _ in range(2)]
    for w in workers:
        w.start()
    ready.wait(10)
    time.sleep(0.5)  # both runs admitted and looping
    t0 = time.monotonic()
    rt.close()
    assert time.monotonic() - t0 < HOLD_S / 2  # the runs loop forever: close() ended them
    for w in workers:
        w.join(10)
    assert len(results) == 2  # close() returned after every run had ended
    assert all(r.error is not None and r.error.kind == "abort" for r in results), results
    with pytest.raises(RuntimeError):
        run("1", runtime=rt)
