"""Sandbox costs: in-process guard overhead, isolated latency, throughput per mode.

* Guard overhead: the same program compiled with and without the step-budget checks
  (`lower(..., guards=False)`), executed directly, on the loop workload (`LOOP_SUM`),
  the pipeline workload (`THIRTY_LINES` over 500 orders), a recursive fn (`fib 20`,
  one check per call) and nested loops whose inner loop is entered on every outer pass
  and recurs 0-3 times (`NESTED`: a loop entry is free, so it takes a credit). Thread
  CPU time, medians of interleaved runs. Target: <= 25 %. Then the cost of one loop
  entry's credit: `NESTED` guarded with and without the `for t0 in CREDIT: break` pulls
  (the latter charges every entry a step, as before the credit).
* Isolated latency: one trivial run on a warm worker pool (median wall time, and CPU
  time per run: the host process plus the worker, read from /proc). Target: <= 5 ms.
  The same in an isolated prelude environment (50-function prelude), plus the one-time
  cost of shipping and loading that prelude into a worker (its first run).
* Throughput: 1,000 distinct short programs (compile included) in each mode.

`python -m benchmarks.bench_sandbox [--quick]`.
"""

from __future__ import annotations

import ast
import statistics
import sys
import time
from collections.abc import Callable, Mapping
from types import CodeType
from typing import Any

from benchmarks.bench_preludes import prelude_source
from benchmarks.programs import LOOP_SUM, THIRTY_LINES
from ptc_compiler import api
from ptc_compiler.analyzer import AnalysisEnv, analyze
from ptc_compiler.lower import lower
from ptc_compiler.lower.ctx import CREDIT
from ptc_compiler.prelude import Environment
from ptc_compiler.reader import read
from ptc_runtime.context import RunContext
from ptc_runtime.convert import from_host
from ptc_runtime.executor import execute
from ptc_runtime.seam import RunRequest

QUICK = True


def orders(n: int) -> list[dict[str, Any]]:
    statuses = ["paid", "open", "refunded"]
    return [
        {"id": i, "amount": (i * 37) % 400, "status": statuses[i % 3], "items": [1] * (i % 5)}
        for i in range(n)
    ]


def _run_code(program: api.Program, data: Any) -> Callable[[], object]:
    host = from_host(data) if data else {}

    def once() -> object:
        ctx = RunContext(max_steps=10**12, deadline=None, data=host)  # type: ignore[arg-type]
        out = execute(program.code, ctx, program.fn_names)
        assert out.status in ("value", "return"), out
        return out.value

    return once


def cpu_ms(fn: Callable[[], object], inner: int) -> float:
    """Thread CPU time of `inner` calls, per call (other jobs on the machine do not count)."""
    t = time.thread_time()
    for _ in range(inner):
        fn()
    return (time.thread_time() - t) * 1000 / inner


FIB = "(defn fib [n] (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2))))) (fib 20)"
NESTED = (
    "(loop [i 0 s 0] (if (< i {n}) "
    "(recur (inc i) (+ s (loop [j 0] (if (< j (mod i 4)) (recur (inc j)) j)))) s))"
)


def guard_overhead(quick: bool) -> dict[str, float]:
    n = 200_000 if quick else 1_000_000
    repeat = 5 if quick else 21
    rows: dict[str, float] = {}
    cases = [
        ("loop", LOOP_SUM.format(n=n), None, 1),
        ("pipeline", THIRTY_LINES, {"orders": orders(500)}, 20),
        ("recursive fn (fib 20)", FIB, None, 2),
        ("nested loops (inner 0-3 recurs)", NESTED.format(n=n // 4), None, 1),
    ]
    for name, src, data, inner in cases:
        guarded = _run_code(api.compile(src + " ", guards=True), data)
        bare = _run_code(api.compile(src + " ", guards=False), data)
        assert guarded() == bare()
        g_runs, b_runs = [], []
        for _ in range(repeat):  # interleaved, so both see the same machine load
            g_runs.append(cpu_ms(guarded, inner))
            b_runs.append(cpu_ms(bare, inner))
        g, b = statistics.median(g_runs), statistics.median(b_runs)
        rows[f"{name}: guarded, CPU (ms)"] = g
        rows[f"{name}: unguarded, CPU (ms)"] = b
        rows[f"{name}: guard overhead (%)"] = (g - b) / b * 100
    return rows


def _without_credits(src: str) -> tuple[CodeType, Mapping[str, str]]:
    """`src` guarded, but with the loop-entry credit pulls taken out."""

    class Strip(ast.NodeTransformer):
        def visit_For(self, node: ast.For) -> ast.AST | None:
            if isinstance(node.iter, ast.Name) and node.iter.id == CREDIT:
                return None
            self.generic_visit(node)
            return node

    lowered = lower(analyze(read(src), AnalysisEnv()))
    module = ast.fix_missing_locations(Strip().visit(lowered.module))
    return compile(module, "<ptc>", "exec"), lowered.fn_names


def entry_credit_cost(quick: bool) -> dict[str, float]:
    """ns per loop entry that the credit costs (see the module docstring)."""
    entries = 50_000 if quick else 200_000
    repeat = 5 if quick else 21
    src = NESTED.format(n=entries)
    program = api.compile(src + " ")
    code, names = _without_credits(src)

    def run(code: CodeType, names: Mapping[str, str]) -> Callable[[], object]:
        def once() -> object:
            ctx = RunContext(max_steps=10**12, deadline=None)
            out = execute(code, ctx, names)
            assert out.status == "value", out
            return out.value

        return once

    credited, charged = run(program.code, program.fn_names), run(code, names)
    assert credited() == charged()
    c_runs, o_runs = [], []
    for _ in range(repeat):
        c_runs.append(cpu_ms(credited, 1))
        o_runs.append(cpu_ms(charged, 1))
    extra_ms = statistics.median(c_runs) - statistics.median(o_runs)
    return {"loop entry: credit, CPU (ns per entry)": extra_ms * 1e6 / entries}


def _worker_cpu(rt: Any) -> float:
    """CPU seconds used so far by the pool's idle workers (Linux /proc; 0 elsewhere)."""
    import os

    total = 0.0
    for proc in list(rt._pool.idle):
        try:
            with open(f"/proc/{proc.p.pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError):
            pass
    return total


def _warm_pool(rt: Any) -> None:
    deadline = time.monotonic() + 30
    while len(rt._pool.idle) < rt._pool.size and time.monotonic() < deadline:
        time.sleep(0.02)


def _latency(rt: Any, run: Callable[[], object], count: int, label: str) -> dict[str, float]:
    """Median wall time of `run`, and host + worker CPU per run over all `count` runs."""
    for _ in range(20):
        run()
    samples = []
    host0, workers0 = time.process_time(), _worker_cpu(rt)
    for _ in range(count):
        t = time.perf_counter()
        run()
        samples.append((time.perf_counter() - t) * 1000)
    host = (time.process_time() - host0) * 1000 / count
    workers = (_worker_cpu(rt) - workers0) * 1000 / count
    return {
        f"{label}, median wall (ms)": statistics.median(samples),
        f"{label}, p90 wall (ms)": sorted(samples)[int(len(samples) * 0.9)],
        f"{label}, CPU host + worker (ms)": host + workers,
    }


def isolated_latency(quick: bool) -> dict[str, float]:
    rt = api.runtime("isolated", pool_size=2)
    try:
        _warm_pool(rt)
        spec = rt.resolve(RunRequest("(+ 1 2)"))
        assert rt.run(spec).value == 3
        return _latency(rt, lambda: rt.run(spec), 100 if quick else 1000, "isolated trivial run")
    finally:
        rt.close()


def prelude_latency(quick: bool) -> dict[str, float]:
    """Isolated runs in a prelude environment: the first (ships the prelude), then warm."""
    env = Environment([prelude_source(50)], cache_dir=False, mode="isolated", pool_size=1)
    rt = env.runtime
    try:
        _warm_pool(rt)
        env.compile("(+ 1 2)")  # compile outside the measured first run
        host0, workers0, t = time.process_time(), _worker_cpu(rt), time.perf_counter()
        assert env.run("(+ 1 2)").value == 3
        rows = {
            "prelude first run (ship + load), wall (ms)": (time.perf_counter() - t) * 1000,
            "prelude first run (ship + load), CPU host + worker (ms)": (
                time.process_time() - host0 + _worker_cpu(rt) - workers0
            )
            * 1000,
            "prelude package size (KiB)": len(env.bundle.package().line) / 1024,
        }
        count = 100 if quick else 1000
        rows.update(_latency(rt, lambda: env.run("(+ 1 2)"), count, "prelude env trivial run"))
        call = "(bench.lib/count-1 [1 5 9 2] 3)"
        assert env.run(call).value == 2
        rows.update(_latency(rt, lambda: env.run(call), count, "prelude env export call"))
        return rows
    finally:
        env.close()


def throughput(quick: bool) -> dict[str, float]:
    count = 200 if quick else 1000
    rows: dict[str, float] = {}
    for mode in ("in-process", "isolated"):
        rt = api.runtime(mode, pool_size=2)
        try:
            rt.run(rt.resolve(RunRequest("(+ 1 1)")))
            time.sleep(0.2 if mode == "isolated" else 0)
            tag = f"{mode}-{time.time_ns()}"
            programs = [
                f'(let [xs (range {i % 50})] {{:tag "{tag}" :n {i} :sum (reduce + xs)}})'
                for i in range(count)
            ]
            if mode == "isolated":
                _warm_pool(rt)
            t = time.perf_counter()
            cpu0, workers0 = time.process_time(), _worker_cpu(rt) if rt._pool else 0.0
            for p in programs:
                r = rt.run(rt.resolve(RunRequest(p)))
                assert r.error is None, r.error
            elapsed = time.perf_counter() - t
            cpu = time.process_time() - cpu0 + (_worker_cpu(rt) - workers0 if rt._pool else 0.0)
            rows[f"{mode}: {count} short programs (s)"] = elapsed
            rows[f"{mode}: programs per second"] = count / elapsed
            rows[f"{mode}: CPU per program, host + worker (ms)"] = cpu * 1000 / count
        finally:
            rt.close()
    return rows


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    quick = "--quick" in args
    rows = {
        **guard_overhead(quick),
        **entry_credit_cost(quick),
        **isolated_latency(quick),
        **prelude_latency(quick),
        **throughput(quick),
    }
    width = max(len(k) for k in rows)
    for name, value in rows.items():
        print(f"{name:<{width}}  {value:10.3f}")


if __name__ == "__main__":
    main()
