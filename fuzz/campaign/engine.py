"""Run a plan of shards on this process, on N local processes, or on a dask cluster.

The three ways run the very same shard function (`fuzz.campaign.targets.run_shard`) and
merge the results in plan order, so the outcome is the same whichever runs it. The parent
alone keeps the live progress, the timeline for the report and the failure database.

* ``jobs == 1`` and no scheduler: shards run here, one after another.
* ``jobs > 1``: a `ProcessPoolExecutor` of `jobs` spawned processes, each kept for the whole
  campaign (imports, the Clojure JVM and other per-process setup are paid once per process,
  not per shard); a spawned process gets this one's import path, so it finds `fuzz`.
* ``scheduler``: a `dask.distributed` client at that address; its workers must be able to
  import `fuzz` (the project installed editable from this checkout, or the checkout's root
  on their PYTHONPATH).

At most two shards per worker are in flight, so an endless plan (a time budget) does not
queue work it will never need; when the budget ends, no new shard starts and those in
flight finish.
"""

from __future__ import annotations

import itertools
import os
import time
from collections.abc import Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from multiprocessing import get_context
from typing import Any, TextIO

from fuzz.campaign.model import Outcome, ShardResult, ShardSpec
from fuzz.campaign.targets import run_shard


def default_jobs() -> int:
    """All cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def _clock(seconds: float) -> str:
    seconds = max(0, int(seconds))
    h, rest = divmod(seconds, 3600)
    return f"{h}:{rest // 60:02d}:{rest % 60:02d}" if h else f"{rest // 60:02d}:{rest % 60:02d}"


@dataclass
class Progress:
    """The live progress line: cases, cases/s, failures and time left (at most one a second)."""

    campaign: str
    out: TextIO | None
    total_cases: int | None  # None: an endless plan, so time left comes from the budget
    deadline: float | None  # perf_counter() time the budget ends, or None
    start: float = field(default_factory=time.perf_counter)
    cases: int = 0
    findings: int = 0
    shards: int = 0
    last_print: float = 0.0
    timeline: list[tuple[float, int, int]] = field(default_factory=list)

    def add(self, result: ShardResult) -> None:
        """Count one finished shard and print the line if a second has passed."""
        self.cases += result.cases
        self.findings += len(result.findings)
        self.shards += 1
        now = time.perf_counter()
        self.timeline.append((now - self.start, self.cases, self.findings))
        if now - self.last_print >= 1.0:
            self.show()

    def show(self) -> None:
        """Print the progress line now."""
        if self.out is None:
            return
        now = self.last_print = time.perf_counter()
        elapsed = now - self.start
        rate = self.cases / elapsed if elapsed > 0 else 0.0
        lefts = []  # what ends the run first: its last case at this rate, or the budget
        if self.total_cases is not None and rate > 0:
            lefts.append((self.total_cases - self.cases) / rate)
        if self.deadline is not None:
            lefts.append(self.deadline - now)
        left = _clock(min(lefts)) if lefts else "?"
        of = f"/{self.total_cases}" if self.total_cases is not None else ""
        print(f"[{_clock(elapsed)}] {self.campaign}: {self.cases}{of} cases  {rate:8.1f} cases/s"
              f"  failures {self.findings}  left {left}", file=self.out, flush=True)  # fmt: skip


def _bounded(plan: Iterable[ShardSpec], deadline: float | None) -> Iterator[ShardSpec]:
    for spec in plan:
        if deadline is not None and time.perf_counter() >= deadline:
            return
        yield spec


def _run_here(
    plan: Iterator[ShardSpec], progress: Progress, results: list[ShardResult]
) -> None:
    for spec in plan:
        r = ShardResult.from_dict(run_shard(spec))
        results.append(r)
        progress.add(r)


def _run_pool(
    plan: Iterator[ShardSpec], jobs: int, progress: Progress, results: list[ShardResult]
) -> None:
    # spawn, not fork: a fresh interpreter per worker, whatever threads the parent has
    with ProcessPoolExecutor(max_workers=jobs, mp_context=get_context("spawn")) as pool:
        flight: set[Future[dict[str, Any]]] = set()
        for spec in itertools.islice(plan, 2 * jobs):
            flight.add(pool.submit(run_shard, spec))
        while flight:
            done, flight = wait(flight, return_when=FIRST_COMPLETED)
            for fut in done:
                r = ShardResult.from_dict(fut.result())
                results.append(r)
                progress.add(r)
                nxt = next(plan, None)
                if nxt is not None:
                    flight.add(pool.submit(run_shard, nxt))


def _run_dask(
    plan: Iterator[ShardSpec], address: str, progress: Progress, results: list[ShardResult]
) -> int:
    from distributed import Client, as_completed

    with Client(address) as client:
        slots = max(1, sum(client.nthreads().values()))
        first = [client.submit(run_shard, s, pure=False) for s in itertools.islice(plan, 2 * slots)]
        flight = as_completed(first)
        for fut in flight:
            r = ShardResult.from_dict(fut.result())
            results.append(r)
            progress.add(r)
            nxt = next(plan, None)
            if nxt is not None:
                flight.add(client.submit(run_shard, nxt, pure=False))
        return slots


def run_plan(
    campaign: str,
    plan: Iterable[ShardSpec],
    *,
    jobs: int = 1,
    scheduler: str | None = None,
    minutes: float | None = None,
    total_cases: int | None = None,
    out: TextIO | None = None,
) -> Outcome:
    """Run every shard of `plan` (until `minutes` run out) and merge them in plan order."""
    start = time.perf_counter()
    deadline = None if minutes is None else start + minutes * 60
    progress = Progress(campaign, out, total_cases, deadline, start=start)
    results: list[ShardResult] = []
    shards = _bounded(plan, deadline)
    if scheduler is not None:
        jobs = _run_dask(shards, scheduler, progress, results)
    elif jobs <= 1:
        _run_here(shards, progress, results)
    else:
        _run_pool(shards, jobs, progress, results)
    progress.show()  # the closing line, always printed
    results.sort(key=lambda r: r.index)
    stopped = deadline is not None and time.perf_counter() >= deadline
    return Outcome(campaign, results, time.perf_counter() - start, jobs, scheduler,
                   progress.timeline, stopped_early=stopped)  # fmt: skip

