"""Signature validation vs jsonschema on the same data, side by side.

    .venv/bin/python benchmarks/bench_signatures.py [--items N] [--repeat R]

Validates a list of N small typed maps (valid data, the common case, and data with one bad
item) with the compiled native validator and with jsonschema (Draft 2020-12 validator built
once from the projected output schema), prints a table and the speed ratio. Exits 1 when the
native validator is not at least 5x faster on valid data.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable

import jsonschema  # type: ignore[import-untyped]

from ptc_compiler import signatures as sigs

SIGNATURE = "[{id :int, name :string, price :float, in_stock :bool, tags [:string], note :string?}]"


def make_items(n: int) -> list[dict[str, object]]:
    return [
        {
            "id": i,
            "name": f"item {i}",
            "price": 9.5 + i if i % 2 else 10 + i,
            "in_stock": i % 3 == 0,
            "tags": ["a", "b"],
            "note": None if i % 4 else "fragile",
        }
        for i in range(n)
    ]


def best_of(fn: Callable[[], object], repeat: int) -> float:
    """Median seconds of `repeat` runs (after one warm-up)."""
    fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--items", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=30)
    args = ap.parse_args(argv)

    sig = sigs.parse(SIGNATURE)
    schema = sigs.to_json_schema(sig, side="output")
    jsonschema.Draft202012Validator.check_schema(schema)
    js = jsonschema.Draft202012Validator(schema)

    good = make_items(args.items)
    bad = make_items(args.items)
    bad[args.items // 2] = {**bad[args.items // 2], "price": "12.5"}
    assert sigs.validate_output(sig, good) == [] and js.is_valid(good)
    assert sigs.validate_output(sig, bad) != [] and not js.is_valid(bad)

    rows = []
    for label, data in (("valid", good), ("one bad item", bad)):
        native = best_of(lambda d=data: sig.check_output(d), args.repeat)  # type: ignore[misc]
        other = best_of(lambda d=data: list(js.iter_errors(d)), args.repeat)  # type: ignore[misc]
        rows.append((label, native, other, other / native))

    print(f"signature: {SIGNATURE}")
    print(f"{args.items} items, median of {args.repeat} runs")
    print(f"{'data':<14} {'native ms':>10} {'jsonschema ms':>14} {'ratio':>7}")
    for label, native, other, ratio in rows:
        print(f"{label:<14} {native * 1e3:>10.3f} {other * 1e3:>14.3f} {ratio:>6.1f}x")
    ok = rows[0][3] >= 5.0
    print("PASS: native >= 5x faster" if ok else "FAIL: native < 5x faster")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
