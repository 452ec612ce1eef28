"""Complexity checks without wall-clock thresholds.

A unit test must not assert a speed (that is what `benchmarks/` is for), but it may assert
an algorithmic property: that work grows linearly, not quadratically, with the input. We
time the same job at size n and 4n in this thread's CPU time (other processes on a loaded
machine do not count), take the best of a few runs, and compare the ratio: about 4 for
linear work, about 16 for quadratic. The bound of 9 sits between the two.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import Any

GROWTH = 4
LINEAR_BOUND = 9.0


def _best(job: Callable[[], Any], repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        gc.collect()
        # The cyclic collector's full passes grow with the number of live objects, so an
        # allocating job looks superlinear with it on: we measure the algorithm, not it.
        enabled = gc.isenabled()
        gc.disable()
        try:
            start = time.thread_time()
            job()
            best = min(best, time.thread_time() - start)
        finally:
            if enabled:
                gc.enable()
    return best


def growth_ratio(make_job: Callable[[int], Callable[[], Any]], n: int, repeats: int = 3) -> float:
    """CPU time of the job at size `GROWTH * n` over its time at size `n` (best of `repeats`)."""
    small, large = make_job(n), make_job(GROWTH * n)
    small()  # warm caches and lazy imports outside the measurement
    return _best(large, repeats) / max(_best(small, repeats), 1e-6)


def assert_linear(make_job: Callable[[int], Callable[[], Any]], n: int, repeats: int = 3) -> None:
    """Fail when the job's cost grows clearly faster than its input size.

    A ratio over the bound is measured again (up to twice) and the smallest kept: another
    process sharing the cores can slow one size's runs even in thread CPU time (caches,
    a loaded CI host), while quadratic work gives about 16 every time.
    """
    ratio = growth_ratio(make_job, n, repeats)
    for _ in range(2):
        if ratio < LINEAR_BOUND:
            break
        ratio = min(ratio, growth_ratio(make_job, n, repeats))
    assert ratio < LINEAR_BOUND, f"work grew {ratio:.1f}x for {GROWTH}x the input"
