"""The isolated worker pool: cold start and burst throughput.

* Cold start: in a fresh Python process with the compiler already used once, the wall
  time of the first ``run(..., mode="isolated")`` (the default runtime is created by
  that call, so it includes starting the pre-started worker and waiting for it), and
  the CPU time the worker spends from exec to `ready` (read from /proc: independent of
  what else the machine runs). Target: first run <= 150 ms. Medians over fresh processes.
* Burst: 200 concurrent trivial runs from 200 threads, and 200 `arun`s under one
  `asyncio.gather`, on a runtime with the default limits (max 4 workers, 2 pre-started),
  in runs per second, with the in-process figure for the same burst and the ratio.
  Every run must succeed.

`python -m benchmarks.bench_pool [--quick]`.
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from typing import Any

from ptc_compiler import api

QUICK = True

_COLD = r"""
import json, os, time
from ptc_compiler import api
api.compile("(+ 1 2)")
t0 = time.perf_counter()
r = api.run("(+ 1 2)", mode="isolated")
first = (time.perf_counter() - t0) * 1000
assert r.ok and r.value == 3, r.error
t0 = time.perf_counter()
api.run("(+ 1 3)", mode="isolated")
second = (time.perf_counter() - t0) * 1000
rt = api.default_runtime("isolated")
proc = next(iter(rt._pool.procs))
with open(f"/proc/{proc.pid}/stat") as f:
    fields = f.read().rsplit(")", 1)[1].split()
cpu = (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")
print(json.dumps({"first_ms": first, "second_ms": second, "worker_cpu_ms": cpu,
                  "started": rt._pool.started}))
"""


def cold_start(quick: bool) -> dict[str, float]:
    """Medians of the first isolated run in fresh processes (see the module doc)."""
    rows = []
    for _ in range(3 if quick else 9):
        out = subprocess.run(
            [sys.executable, "-c", _COLD], capture_output=True, text=True, check=True
        )
        rows.append(json.loads(out.stdout))
    return {
        "first_run_ms": statistics.median(r["first_ms"] for r in rows),
        "first_run_best_ms": min(r["first_ms"] for r in rows),
        "second_run_ms": statistics.median(r["second_ms"] for r in rows),
        "worker_start_cpu_ms": statistics.median(r["worker_cpu_ms"] for r in rows),
        "workers_started_by_then": max(r["started"] for r in rows),
    }


def _burst_threads(rt: Any, n: int) -> float:
    results: list[Any] = [None] * n

    def one(i: int) -> None:
        results[i] = api.run(f"(+ 1 {i})", runtime=rt, timeout_ms=60_000)

    threads = [threading.Thread(target=one, args=(i,)) for i in range(n)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    dt = time.perf_counter() - t0
    bad = [r.error for r in results if r is None or not r.ok]
    assert not bad, bad[:3]
    return n / dt


def _burst_async(rt: Any, n: int) -> float:
    async def main() -> list[Any]:
        return await asyncio.gather(
            *(api.arun(f"(+ 2 {i})", runtime=rt, timeout_ms=60_000) for i in range(n))
        )

    t0 = time.perf_counter()
    results = asyncio.run(main())
    dt = time.perf_counter() - t0
    assert all(r.ok for r in results), [r.error for r in results if not r.ok][:3]
    return n / dt


def burst(quick: bool) -> dict[str, float]:
    """Runs per second of a 200-run burst, per mode (see the module doc)."""
    n = 200
    out: dict[str, float] = {}
    for mode in ("in-process", "isolated"):
        rt = api.runtime(mode)
        try:
            api.run("1", runtime=rt, timeout_ms=60_000)  # started and warm
            reps = 1 if quick else 3
            out[f"{mode}_threads_runs_per_s"] = max(_burst_threads(rt, n) for _ in range(reps))
            out[f"{mode}_arun_runs_per_s"] = max(_burst_async(rt, n) for _ in range(reps))
            if rt._pool is not None:
                out["isolated_workers_started"] = rt._pool.started
        finally:
            rt.close()
    out["isolated_to_in_process_threads"] = (
        out["isolated_threads_runs_per_s"] / out["in-process_threads_runs_per_s"]
    )
    out["isolated_to_in_process_arun"] = (
        out["isolated_arun_runs_per_s"] / out["in-process_arun_runs_per_s"]
    )
    return out


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    quick = "--quick" in args
    print(f"load average: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    for name, fn in (("cold start", cold_start), ("burst of 200", burst)):
        for key, value in fn(quick).items():
            print(f"{name:>14}  {key:<36} {value:10.2f}")


if __name__ == "__main__":
    main()
