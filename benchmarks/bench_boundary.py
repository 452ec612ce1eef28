"""The cost of the host boundary check: projecting the completion to lossless JSON.

Two measurements, each as a ratio of a run with the check to the same run without it
(`native=True` skips the projection and hands back the PTC value):

* a 100,000-record completion (`{:id :name :score :tags}` maps), under a raised
  `max_value_bytes` so it fits;
* a trivial run (`(+ 1 2)`), where the check is a few attribute tests.

Also the projection alone (`ptc_runtime.host_value.to_host`) on the 100k-record value,
next to the C `json.dumps` of the same data as plain Python, for scale.

`python -m benchmarks.bench_boundary [--quick]`
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections.abc import Callable

from ptc_compiler import api
from ptc_runtime.host_value import COMPLETION, to_host
from ptc_runtime.limits import DEFAULT_LIMITS

QUICK = True

RECORDS = (
    '(mapv (fn [i] {:id i :name (str "user-" i) :score (* i 1.5) :tags [:a "b"]})'
    " (range N))"
)


def _best(fn: Callable[[], object], reps: int) -> float:
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times) if reps < 5 else statistics.median(times)


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    quick = "--quick" in args
    n = 10_000 if quick else 100_000
    reps = 1 if quick else 5
    trivial_reps = 200 if quick else 2_000
    limits = DEFAULT_LIMITS.with_(max_value_bytes=100_000_000)
    rt = api.runtime(limits=limits)
    try:
        src = RECORDS.replace("N", str(n))
        api.run(src, runtime=rt, timeout_ms=60_000)  # compile once, warm up

        def checked() -> None:
            r = api.run(src, runtime=rt, timeout_ms=60_000)
            assert r.ok, r.error

        def unchecked() -> None:
            r = api.run(src, runtime=rt, timeout_ms=60_000, native=True)
            assert r.ok, r.error

        with_check = _best(checked, reps)
        without = _best(unchecked, reps)
        print(
            f"{n} records: run {with_check * 1000:.1f} ms with the check, "
            f"{without * 1000:.1f} ms without: ratio {with_check / without:.2f}"
        )
        native = api.run(src, runtime=rt, timeout_ms=60_000, native=True).native
        walk = _best(lambda: to_host(native, limits.max_value_bytes, "v", COMPLETION), reps)
        plain = api.run(src, runtime=rt, timeout_ms=60_000).value
        size = len(json.dumps(plain, separators=(",", ":")))
        c_json = _best(lambda: json.dumps(plain), reps)
        print(
            f"  projection alone {walk * 1000:.1f} ms for {size} bytes of JSON "
            f"(C json.dumps of the result: {c_json * 1000:.1f} ms, ratio {walk / c_json:.1f})"
        )

        def trivial(native: bool) -> float:
            t0 = time.perf_counter()
            for _ in range(trivial_reps):
                api.run("(+ 1 2)", runtime=rt, native=native)
            return (time.perf_counter() - t0) / trivial_reps

        trivial(False)
        t_with = min(trivial(False) for _ in range(3))
        t_without = min(trivial(True) for _ in range(3))
        print(
            f"trivial run: {t_with * 1e6:.1f} us with the check, {t_without * 1e6:.1f} us "
            f"without: ratio {t_with / t_without:.3f}"
        )
    finally:
        rt.close()


if __name__ == "__main__":
    main()
