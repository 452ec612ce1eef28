"""The collector during runs: objects older than the run are frozen, the run's own
garbage is still collected, and the host's collector settings are left as they were."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from ptc_compiler.api import run
from ptc_runtime import executor


@pytest.fixture(autouse=True)
def fresh_freeze(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Each test gets its own counter (one test makes it see a host that freezes)."""
    monkeypatch.setattr(executor, "_gc_freeze", executor._GcFreeze())
    was_enabled = gc.isenabled()
    yield
    gc.unfreeze()
    if was_enabled:
        gc.enable()


def probe(seen: list[dict[str, Any]]) -> Any:
    def tool(_args: object = None) -> int:
        seen.append({"frozen": gc.get_freeze_count(), "enabled": gc.isenabled()})
        return len(seen)

    return tool


def test_objects_made_before_the_run_are_frozen_during_it_only() -> None:
    seen: list[dict[str, Any]] = []
    result = run("(tool/probe {})", tools={"probe": probe(seen)})
    assert result.ok, result.error
    assert seen[0]["frozen"] > 1000  # the interpreter's modules, at least
    assert seen[0]["enabled"]
    assert gc.get_freeze_count() == 0


def test_a_program_error_still_unfreezes() -> None:
    result = run("(tool/probe {}) (/ 1 0)", tools={"probe": probe([])})
    assert not result.ok
    assert gc.get_freeze_count() == 0


def test_cyclic_garbage_the_run_makes_is_collected_during_the_run() -> None:
    # a named fn refers to itself through its closure: each one left behind is a cycle
    collected = [0]

    def count(phase: str, info: dict[str, int]) -> None:
        if phase == "stop":
            collected[0] += info["collected"]

    source = """
    (loop [i 0 acc 0]
      (if (< i 20000)
        (recur (inc i) (+ acc ((fn self [n] (if (pos? n) (self (dec n)) i)) 1)))
        acc))"""
    gc.callbacks.append(count)
    try:
        result = run(source, timeout_ms=None)
    finally:
        gc.callbacks.remove(count)
    assert result.ok, result.error
    assert result.value == sum(range(20000))
    assert collected[0] >= 20000  # the 20,000 closures, by the collector, before the end


def test_a_collector_the_host_disabled_stays_disabled() -> None:
    seen: list[dict[str, Any]] = []
    gc.disable()
    result = run("(tool/probe {})", tools={"probe": probe(seen)})
    assert result.ok, result.error
    assert not seen[0]["enabled"]
    assert not gc.isenabled()


def test_objects_the_host_froze_stay_frozen_and_runs_stop_freezing() -> None:
    seen: list[dict[str, Any]] = []
    mine = [[i] for i in range(1000)]
    gc.freeze()
    frozen = gc.get_freeze_count()
    assert run("(tool/probe {})", tools={"probe": probe(seen)}).ok
    assert gc.get_freeze_count() >= frozen - 10  # not unfrozen by the run
    gc.unfreeze()
    # once a host has frozen objects, runs leave the permanent generation alone
    assert run("(tool/probe {})", tools={"probe": probe(seen)}).ok
    assert seen[1]["frozen"] == 0
    assert mine


def test_overlapping_runs_unfreeze_once_when_the_last_ends() -> None:
    n = 4
    barrier = threading.Barrier(n, timeout=30)
    seen: list[int] = []
    results: list[Any] = []

    def meet(_args: object = None) -> int:
        barrier.wait()  # all four runs are inside execute now
        seen.append(gc.get_freeze_count())
        return 1

    def one() -> None:
        results.append(run("(tool/meet {})", tools={"meet": meet}, timeout_ms=None))

    threads = [threading.Thread(target=one) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(r.ok for r in results), [r.error for r in results]
    assert len(seen) == n and all(c > 1000 for c in seen)
    assert gc.get_freeze_count() == 0
    # our own frozen generation was not taken for the host's: the next run freezes again
    later: list[dict[str, Any]] = []
    assert run("(tool/probe {})", tools={"probe": probe(later)}).ok
    assert later[0]["frozen"] > 1000


@pytest.mark.parametrize("source", ["(+ 5 1)", "(+ 5 (range 100))"])
def test_runs_leave_no_garbage_behind(source: str) -> None:
    # `gc.unfreeze()` puts the frozen objects in the oldest generation without counting them
    # toward its next collection: garbage frozen at a run's start (the last run's globals
    # dict, the cycles of its error) stayed for good, 4 objects a run for (+ 5 1), 66 for a
    # failing one (a sweep of failing programs grew to 20 GB). No explicit collect here: the
    # collector must reclaim them on its own, as it does without the freeze.
    assert gc.isenabled()
    for _ in range(200):
        run(source)
    before = len(gc.get_objects())
    for _ in range(3000):
        run(source)
    grown = len(gc.get_objects()) - before
    assert grown < 3000, grown  # the old freeze: 12 000 and 198 000
