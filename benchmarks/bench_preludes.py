"""Prelude loading: a compiled artifact vs compiling the same prelude from source.

    python -m benchmarks.bench_preludes [--quick] [--functions N]

A generated prelude of 50 functions (signatures, private helpers, sibling calls, loops,
sequence functions) is compiled once to an artifact. Then, side by side:

* from source: read, analyze, lower, check, compile() and link (what a cold start without
  an artifact does);
* from the artifact: read the file, verify its hashes and header, unmarshal and link.

Linking (executing the module, building the export table) is in both columns; the
in-process bundle registry is bypassed so every load is a real one. The goal of issue #6
is a ratio of at least 20x.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from ptc_compiler.prelude import artifact as art
from ptc_compiler.prelude.bundle import link
from ptc_compiler.prelude.component import compile_component

QUICK = True
TARGET_RATIO = 20.0


def prelude_source(n: int = 50) -> str:
    """A realistic prelude with `n` exported functions (and a private helper per five)."""
    out = ['(ns bench.lib "Generated benchmark library." {:visibility :prompt})', ""]
    out.append('(def scale "Scale factor." {:type ":float"} 1.5)')
    for i in range(n):
        if i % 5 == 0:
            out.append(
                f"(defn- helper-{i} [x] (if (map? x) (get x :amount 0) (* x scale)))"
            )
        h = f"helper-{i - i % 5}"
        kind = i % 4
        if kind == 0:
            out.append(
                f'(defn total-{i}\n  "Sum of the amounts of the paid orders ({i})."\n'
                f'  {{:signature "(orders [{{amount :float, status :string}}]) -> :float"}}\n'
                f"  [orders]\n"
                f'  (reduce + 0.0 (map {h} (filter #(= (:status %) "paid") orders))))'
            )
        elif kind == 1:
            out.append(
                f'(defn count-{i}\n  "How many items pass the threshold."\n'
                f'  {{:signature "(xs [:int], limit :int) -> :int"}}\n'
                f"  [xs limit]\n"
                f"  (loop [xs xs acc 0]\n"
                f"    (if (empty? xs) acc\n"
                f"      (recur (rest xs) (if (> (first xs) limit) (inc acc) acc)))))"
            )
        elif kind == 2:
            out.append(
                f'(defn summary-{i}\n  "A summary map of a customer."\n'
                f"  [customer]\n"
                f"  (let [{{:keys [name orders]}} customer\n"
                f"        n (count orders)]\n"
                f'    {{:name (str "customer " name) :orders n\n'
                f"     :big (> n {i}) :score ({h} n)}}))"
            )
        else:
            prev = f"total-{i - 3}"
            out.append(
                f'(defn rank-{i}\n  "Rank customers by their total."\n'
                f"  [customers]\n"
                f"  (->> customers\n"
                f"       (map (fn [c] (assoc c :total ({prev} (:orders c)))))\n"
                f"       (sort-by :total >)\n"
                f"       (take 3)\n"
                f"       vec))"
            )
    return "\n".join(out) + "\n"


def _time(fn: Callable[[], object], reps: int) -> list[float]:
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return times


def run(functions: int = 50, reps: int = 15) -> dict[str, float]:
    source = prelude_source(functions)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.lib.ptcc"
        compiled = compile_component(source)
        path.write_bytes(art.build(compiled.meta, compiled.code, {}))

        def from_source() -> object:
            c = compile_component(source)
            return link([(c.meta, c.code)], register=False)

        def from_artifact() -> object:
            a = art.read(path)
            return link([(a.meta(), a.code())], register=False)

        exports = from_artifact().exports  # type: ignore[attr-defined]
        assert len(exports) == functions + 1, len(exports)
        from_source()  # warm both paths (imports, grammar, caches of the compiler itself)
        src_times = _time(from_source, reps)
        art_times = _time(from_artifact, reps * 4)
        size = path.stat().st_size
    src = statistics.median(src_times)
    load = statistics.median(art_times)
    return {"source_ms": src * 1000, "artifact_ms": load * 1000, "ratio": src / load,
            "artifact_bytes": float(size), "functions": float(functions)}


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    quick = "--quick" in args
    functions = 50
    if "--functions" in args:
        functions = int(args[args.index("--functions") + 1])
    r = run(functions, reps=3 if quick else 15)
    print(f"prelude of {int(r['functions'])} functions, artifact {int(r['artifact_bytes'])} bytes")
    print(f"  compile from source + link : {r['source_ms']:8.2f} ms (median)")
    print(f"  load artifact + link       : {r['artifact_ms']:8.2f} ms (median)")
    verdict = "ok" if r["ratio"] >= TARGET_RATIO else "BELOW TARGET"
    print(f"  ratio                      : {r['ratio']:8.1f}x (target >= {TARGET_RATIO:.0f}x: "
          f"{verdict})")


if __name__ == "__main__":
    main()
