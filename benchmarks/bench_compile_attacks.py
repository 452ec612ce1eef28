"""Compile time of hostile programs, and how it grows: n against 4n.

Run: `python -m benchmarks.bench_compile_attacks [--quick]`. For each shape that once
compiled in super-linear time (nested `if`/`when` around loops, nested numeric fns,
long `cond->`/`let`/`as->`), prints the CPU time of one compile (best of a few, outside
the compile budget) at size n and 4n and their ratio: about 4 is linear, 16 quadratic,
far more exponential. Never asserts (`tests/test_compile_budget.py` holds the loose
complexity check).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

from ptc_compiler import api
from ptc_runtime.errors import PtcError
from ptc_runtime.limits import Limits

QUICK = True

#: a budget these sizes never reach: the bench measures the passes, not the limit
_UNLIMITED = Limits(compile_timeout_ms=600_000, compile_nodes=10**9)


def _nested(shape: str) -> Callable[[int], str]:
    def make(n: int) -> str:
        body = "x"
        for i in range(n):
            body = shape.format(body=body, i=i)
        return f"(let [x 1] {body})"

    return make


SHAPES: dict[str, tuple[Callable[[int], str], int]] = {
    "nested when/map fn": (_nested("(when (> x {i}) (map (fn [x] {body}) [1 2]))"), 4),
    "nested if/doseq": (_nested("(if (> x {i}) (doseq [y [1 2]] {body}) 0)"), 4),
    "nested if/for": (_nested("(if (> x {i}) (for [x [1 2]] {body}) 0)"), 4),
    "nested numeric fns": (_nested("((fn [p{i}] (+ p{i} {body})) {i})"), 5),
    "cond-> steps": (lambda n: "(cond-> 1 " + "true inc " * n + ")", 12_500),
    "let bindings": (lambda n: "(let [" + "a 1 " * n + "] a)", 12_500),
    "as-> steps": (lambda n: "(as-> 1 x " + "(inc x) " * n + ")", 7_500),
}


def _best_ms(source: str, repeat: int) -> tuple[float, str]:
    best, outcome = float("inf"), "ok"
    for _ in range(repeat):
        start = time.thread_time()
        try:
            api._compile_uncached(source, None, frozenset(), True, _UNLIMITED)
        except PtcError as err:
            outcome = err.code
        best = min(best, time.thread_time() - start)
    return best * 1000, outcome


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    quick = "--quick" in args
    repeat = 1 if quick else 3
    print(f"{'shape':22s} {'n':>7s} {'ms':>9s} {'4n':>7s} {'ms':>9s} {'ratio':>6s}  outcome")
    for name, (make, n) in SHAPES.items():
        if quick and n > 100:
            n //= 4
        small, _ = _best_ms(make(n), repeat)
        large, outcome = _best_ms(make(4 * n), repeat)
        ratio = large / max(small, 1e-3)
        print(f"{name:22s} {n:7d} {small:9.1f} {4 * n:7d} {large:9.1f} {ratio:6.1f}  {outcome}")


if __name__ == "__main__":
    main()
