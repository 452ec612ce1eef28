"""Compile latency and the loop/recur hot path, side by side with hand-written Python.

Run: `python -m benchmarks.bench_compiler` (or `make bench`). Prints a table of medians
and ratios; never asserts timings (numbers vary by machine). Times are CPU time of the
benchmarking thread (`time.thread_time`), so other load on a shared machine inflates them
less than wall time would.
"""

from __future__ import annotations

import builtins
import statistics
import time
from collections.abc import Callable

from benchmarks.programs import LOOP_SUM, THIRTY_LINES
from ptc_compiler import api
from ptc_compiler.analyzer import AnalysisEnv, analyze
from ptc_compiler.lower import lower
from ptc_compiler.lower.check import check_restricted
from ptc_compiler.reader import read
from ptc_runtime.executor import GENERATED_FILENAME


def median_ms(fn: Callable[[], object], repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        t0 = time.thread_time()
        fn()
        samples.append((time.thread_time() - t0) * 1000)
    return statistics.median(samples)


def bench_compile(repeat: int = 200) -> dict[str, float]:
    api.compile(THIRTY_LINES)  # warm the reader, registry and imports
    counter = iter(range(10**9))

    def cold() -> None:  # a source never seen before: defeats the cache
        api.compile(THIRTY_LINES + f"\n{next(counter)}")

    def cached() -> None:
        api.compile(THIRTY_LINES)

    def python_compile() -> None:  # CPython compiling comparable Python source, for scale
        compile(PY_EQUIVALENT + f"\n{next(counter)}", "<bench>", "exec")

    return {
        "compile 30-line program, cold (ms)": median_ms(cold, repeat),
        "compile 30-line program, cached (ms)": median_ms(cached, repeat * 5),
        "CPython compile() of similar Python (ms)": median_ms(python_compile, repeat),
    }


PY_EQUIVALENT = """
def score(order):
    base = order['amount'] if order['status'] == 'paid' else 0
    return base + 0.1 * len(order['items'])
def summarize(orders):
    paid = [o for o in orders if o['status'] == 'paid']
    total = sum(o['amount'] for o in paid)
    return {'count': len(paid), 'total': total, 'avg': total / len(paid) if paid else 0}
threshold = 100
orders = data['orders']
big = [o for o in orders if o['amount'] > threshold]
scores = [score(o) for o in big]
best = 0
for s in scores:
    best = max(best, s)
by_status = {}
for o in orders:
    by_status[o['status']] = by_status.get(o['status'], 0) + 1
result = {'summary': summarize(orders), 'best': best, 'by_status': by_status,
          'labels': ['order-' + str(o['id']) for o in big if o['amount'] > 200]}
"""


def bench_stages(repeat: int = 200) -> dict[str, float]:
    """The cold compile stage by stage, in pipeline order within each iteration (medians).

    Like `api.compile`, with the cyclic collector paused; the stages are timed separately,
    so the sum of their medians is close to, not equal to, the cold compile's median.
    """
    stages: dict[str, list[float]] = {
        "read": [],
        "analyze": [],
        "lower (emit + positions + allow-list)": [],
        "RestrictedPython policy": [],
        "CPython compile()": [],
    }
    clock = time.thread_time
    for i in range(repeat + 20):
        source = THIRTY_LINES + f"\n{i}"
        with api._gc_pause:
            t0 = clock()
            forms = read(source)
            t1 = clock()
            analyzed = analyze(forms, AnalysisEnv())
            t2 = clock()
            module = lower(analyzed).module
            t3 = clock()
            check_restricted(module)  # before compile(), as in `api.compile`
            t4 = clock()
            builtins.compile(module, GENERATED_FILENAME, "exec", dont_inherit=True)
            t5 = clock()
        if i >= 20:  # warm-up
            for samples, dt in zip(
                stages.values(), (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4), strict=True
            ):
                samples.append(dt * 1000)
    return {f"  stage: {k} (ms)": statistics.median(v) for k, v in stages.items()}


def python_loop(n: int) -> int:
    i = 0
    s = 0
    while i < n:
        s += i
        i += 1
    return s


def bench_loop(n: int = 1_000_000, repeat: int = 9) -> dict[str, float]:
    program = api.compile(LOOP_SUM.format(n=n))
    result = program.run(timeout_ms=None)
    assert result.ok and result.value == python_loop(n), result
    # Interleaved, best of `repeat`: on a shared machine the minimum is the stable statistic.
    ptc_runs, py_runs = [], []
    for _ in range(repeat):
        ptc_runs.append(median_ms(lambda: program.run(timeout_ms=None), 1))
        py_runs.append(median_ms(lambda: python_loop(n), 1))
    ptc, py = min(ptc_runs), min(py_runs)
    return {
        f"loop/recur sum to {n:,}, best (ms)": ptc,
        f"Python while loop to {n:,}, best (ms)": py,
        "ratio loop/recur : Python": ptc / py,
    }


def main() -> None:
    rows = {**bench_compile(), **bench_stages(), **bench_loop()}
    width = max(len(k) for k in rows)
    for name, value in rows.items():
        print(f"{name:<{width}}  {value:10.3f}")


if __name__ == "__main__":
    main()
