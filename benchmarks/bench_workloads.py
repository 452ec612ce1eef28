"""Whole workloads side by side in one process: ours, hand-written Python, hy, basilisp.

    .venv/bin/python -m benchmarks.bench_workloads [--quick] [--repeat N] [--only NAME...]
                                                   [--basilisp-repeat N] [--no-basilisp]
    .venv/bin/pip install -e '.[bench]'     # hy, for its column
    sh benchmarks/setup_basilisp.sh         # once: basilisp 0.5.1 in benchmarks/.venv-basilisp

The workloads (`benchmarks/workloads.py`) are each one job written as an idiomatic
PTC-Lisp program, as idiomatic Python, in hy and, for the first seven, in basilisp.

- ours: `program.run(data=..., timeout_ms=None)` on a program compiled beforehand (guards
  on: the step budget is counted); the time includes the run's set-up and the host-data
  scan (`from_host`), whose own time is shown in `(scan)`. `agent_turns` compiles each of
  its 30 programs afresh (a unique source each time, so the compile cache never answers).
- Python: a plain function over the same dicts.
- hy: the same job in hy (Python semantics, no guards), compiled beforehand in this
  process; for `agent_turns` each turn is read, compiled and run once, as ours.
- basilisp: a namespace loaded in a subprocess of `benchmarks/.venv-basilisp/bin/python`,
  the data converted to keyword-keyed persistent maps before timing (a reference ratio).

Every side's result is checked against Python's. Times are medians of N runs of thread CPU
time (robust when other processes share the cores; wall-clock medians are kept too, and
their geomean printed). Never asserts timings. `--quick` (CI): small sizes, one
repetition, no basilisp.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks.workloads import BY_NAME, FULL_SIZES, QUICK_SIZES, WORKLOADS, make_data, turns
from ptc_compiler import api
from ptc_runtime.convert import from_host

HERE = Path(__file__).resolve().parent
BASILISP_PY = HERE / ".venv-basilisp" / "bin" / "python"
#: `python -m benchmarks --quick` passes `--quick` to this module.
QUICK = True
_fresh = itertools.count()

# ------------------------------------------------------------------ basilisp side


def basilisp_ns() -> str:
    jobs = "\n".join(f"(defn job-{w.name.replace('_', '-')} [data]{w.basilisp})\n"
                     for w in WORKLOADS if w.basilisp is not None)
    return "(ns ptc-bench-workloads\n  (:require [basilisp.string :as str]))\n\n" + jobs


# Runs inside the basilisp venv: argv = data.json, repeat, out.json, workload names...
BASILISP_DRIVER = r"""
import importlib, json, statistics, sys, time
from basilisp import main as bmain
bmain.init()
from basilisp.lang import keyword, map as lmap, vector as lvec, runtime
ns = importlib.import_module("ptc_bench_workloads")

def to_lisp(x, key_kw):
    if isinstance(x, dict):
        return lmap.map({(keyword.keyword(k) if key_kw(k) else k): to_lisp(v, key_kw)
                         for k, v in x.items()})
    if isinstance(x, list):
        return lvec.vector([to_lisp(v, key_kw) for v in x])
    return x

def to_py(x):
    if isinstance(x, keyword.Keyword):
        return x.name
    if isinstance(x, lmap.PersistentMap):
        return {to_py(k): to_py(v) for k, v in x.items()}
    if hasattr(x, "__iter__") and not isinstance(x, (str, dict)):  # vectors, seqs
        return [to_py(v) for v in x]
    return x

data_path, repeat, out_path, *names = sys.argv[1:]
with open(data_path) as fh:
    all_data = json.load(fh)
out = {}
for name in names:
    # identifier-like keys become keywords (Clojure style); the tree's region/store names
    # stay strings, as in the PTC program (they are data, not field names)
    data = to_lisp(all_data[name], lambda k: not (k[:1] in "rs" and k[1:].isdigit()))
    fn = getattr(ns, "job_" + name)
    samples, walls, value = [], [], None
    try:
        for _ in range(int(repeat)):
            c0, w0 = time.thread_time(), time.perf_counter()
            value = fn(data)
            samples.append((time.thread_time() - c0) * 1000)
            walls.append((time.perf_counter() - w0) * 1000)
    except Exception as exc:
        print(f"  basilisp {name}: failed: {exc!r}"[:300], file=sys.stderr, flush=True)
        continue
    out[name] = {"ms": statistics.median(samples), "wall_ms": statistics.median(walls),
                 "value": to_py(value)}
    print(f"  basilisp {name}: {out[name]['ms']:.0f} ms", file=sys.stderr, flush=True)
with open(out_path, "w") as fh:
    json.dump(out, fh)
"""


def run_basilisp(datasets: dict[str, dict[str, Any]], repeat: int,
                 names: list[str]) -> dict[str, dict[str, Any]] | None:
    names = [n for n in names if BY_NAME[n].basilisp is not None]
    if not BASILISP_PY.exists():
        print(f"(basilisp skipped: run `sh {HERE / 'setup_basilisp.sh'}` first)")
        return None
    with tempfile.TemporaryDirectory(prefix="ptc-bench-") as tmp:
        (Path(tmp) / "ptc_bench_workloads.lpy").write_text(basilisp_ns())
        (Path(tmp) / "driver.py").write_text(BASILISP_DRIVER)
        data_path, out_path = Path(tmp) / "data.json", Path(tmp) / "out.json"
        data_path.write_text(json.dumps({n: datasets[n] for n in names}))
        env = {**os.environ, "PYTHONPATH": tmp}
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # else basilisp.core recompiles (~15 s)
        subprocess.run(
            [str(BASILISP_PY), str(Path(tmp) / "driver.py"), str(data_path), str(repeat),
             str(out_path), *names],
            check=True, env=env, cwd=tmp,
        )
        result: dict[str, dict[str, Any]] = json.loads(out_path.read_text())
        return result


# ------------------------------------------------------------------ hy side


def hy_available() -> bool:
    try:
        import hy  # noqa: F401
    except ImportError:
        return False
    return True


def hy_job(name: str) -> Callable[[dict[str, Any]], Any]:
    """The workload's hy `job`, compiled now (so not timed); for `agent_turns`, a job
    that reads, compiles and runs each turn once."""
    import hy

    if name == "agent_turns":
        srcs = [h for _, h, _ in turns()]

        def batch(data: dict[str, Any]) -> Any:
            out = []
            for src in srcs:
                mod = types.ModuleType("hy_turn")
                mod.data = data  # type: ignore[attr-defined]
                out.append(hy.eval(hy.read(src), module=mod))
            return out

        return batch
    mod = types.ModuleType(f"hy_bench_{name}")
    for form in hy.read_many(BY_NAME[name].hy):
        hy.eval(form, module=mod)
    job: Callable[[dict[str, Any]], Any] = mod.job
    return job


# ------------------------------------------------------------------ ours


def our_job(name: str, *, optimize: bool = True) -> Callable[[dict[str, Any]], Any]:
    """Our side of a workload: its program compiled now, or for `agent_turns` a job that
    compiles each of the 30 turns afresh and runs it once."""
    if name == "agent_turns":
        srcs = [p for p, _, _ in turns()]

        def batch(data: dict[str, Any]) -> Any:
            tag = next(_fresh)
            return [run_ours(compile_ptc(f"{src}\n;{tag}", optimize), data) for src in srcs]

        return batch
    program = compile_ptc(BY_NAME[name].ptc, optimize)
    return lambda data: run_ours(program, data)


def compile_ptc(source: str, optimize: bool) -> api.Program:
    return api.compile(source, optimize=optimize)


def run_ours(program: api.Program, data: dict[str, Any]) -> Any:
    res = program.run(data=data, timeout_ms=None, max_steps=10**12)
    if not res.ok:
        raise RuntimeError(f"PTC run failed: {res.error}")
    return res.value


# ------------------------------------------------------------------ timing and checks


def timed(fn: Callable[[], object]) -> tuple[float, float]:
    """(thread CPU ms, wall ms) of one call."""
    c0, w0 = time.thread_time(), time.perf_counter()
    fn()
    return (time.thread_time() - c0) * 1000, (time.perf_counter() - w0) * 1000


def plain(x: Any) -> Any:
    """A PTC, hy or basilisp result as JSON-shaped Python (keyword keys -> names)."""
    if isinstance(x, dict):
        return {getattr(k, "name", k): plain(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [plain(v) for v in x]
    if isinstance(x, float):
        return round(x, 6)
    return x


def check(name: str, side: str, got: Any, want: Any) -> None:
    """Raise unless `got` (one side's result) is Python's `want`."""
    got, want = plain(got), plain(want)
    if name == "word_freq" and side == "basilisp":
        # basilisp's `frequencies` is a hash map, so words with equal counts come in
        # another order (ours keeps first-seen order, as Python's Counter does)
        got, want = (sorted(x, key=lambda e: (-e[1], e[0])) for x in (got, want))
    if got != want:
        raise AssertionError(f"{name}: {side} result differs from Python's:\n"
                             f"{str(got)[:300]}\n{str(want)[:300]}")


def bench(sizes: dict[str, int], repeat: int, basilisp_repeat: int | None,
          only: list[str] | None = None, hy: bool = True,
          general: bool = False) -> list[dict[str, Any]]:
    datasets = make_data(sizes)
    names = only or [w.name for w in WORKLOADS]
    bas = run_basilisp(datasets, basilisp_repeat, names) if basilisp_repeat else None
    hy = hy and hy_available()
    rows = []
    for name in names:
        data = datasets[name]
        py_fn = BY_NAME[name].python
        ours_fn = our_job(name)
        hy_fn = hy_job(name) if hy else None
        gen_fn = our_job(name, optimize=False) if general else None
        want = py_fn(data)
        check(name, "ours", ours_fn(data), want)
        if gen_fn is not None:
            check(name, "ours (optimize=False)", gen_fn(data), want)
        if hy_fn is not None:
            check(name, "hy", hy_fn(data), want)
        bas_row = bas.get(name) if bas is not None else None
        if bas_row is not None:
            check(name, "basilisp", bas_row["value"], want)
        # interleave the sides so drifting machine load hits them alike
        ours_s, py_s, hy_s, host_s, gen_s = [], [], [], [], []
        for _ in range(repeat):
            ours_s.append(timed(lambda d=data, f=ours_fn: f(d)))
            py_s.append(timed(lambda d=data, f=py_fn: f(d)))
            if hy_fn is not None:
                hy_s.append(timed(lambda d=data, f=hy_fn: f(d)))
            host_s.append(timed(lambda d=data: from_host(dict(d))))
            if gen_fn is not None:
                gen_s.append(timed(lambda d=data, f=gen_fn: f(d)))
        rows.append({
            "name": name,
            "ours": statistics.median(s[0] for s in ours_s),
            "py": statistics.median(s[0] for s in py_s),
            "hy": statistics.median(s[0] for s in hy_s) if hy_s else None,
            "general": statistics.median(s[0] for s in gen_s) if gen_s else None,
            "from_host": statistics.median(s[0] for s in host_s),
            "ours_wall": statistics.median(s[1] for s in ours_s),
            "py_wall": statistics.median(s[1] for s in py_s),
            "basilisp": bas_row["ms"] if bas_row is not None else None,
        })
        print(f"  {name}: ours {rows[-1]['ours']:.1f} ms, Python {rows[-1]['py']:.1f} ms",
              file=sys.stderr, flush=True)
    return rows


def geomean(xs: list[float]) -> float:
    return math.exp(statistics.fmean(math.log(x) for x in xs))


def print_table(rows: list[dict[str, Any]], sizes: dict[str, int]) -> None:
    def col(v: float | None, fmt: str, width: int) -> str:
        return f"{v:{width}{fmt}}" if v is not None else f"{'-':>{width}}"

    head = (f"{'workload':<52} {'ours ms':>9} {'(scan)':>7} {'Python ms':>10} {'hy ms':>8} "
            f"{'basilisp ms':>12} {'ours/Py':>8} {'ours/hy':>8} {'hy/Py':>6} {'bas/Py':>7}")
    print(head)
    print("-" * len(head))
    for r in rows:
        w = BY_NAME[r["name"]]
        label = f"{r['name']} ({sizes[w.size]:,}): {w.label}"
        hy, bas = r["hy"], r["basilisp"]
        print(f"{label[:52]:<52} {r['ours']:9.2f} {r['from_host']:7.2f} {r['py']:10.2f} "
              f"{col(hy, '.2f', 8)} {col(bas, '.0f', 12)} {r['ours'] / r['py']:7.2f}x "
              f"{col(r['ours'] / hy if hy else None, '.2f', 7)}x "
              f"{col(hy / r['py'] if hy else None, '.2f', 5)}x "
              f"{col(bas / r['py'] if bas else None, '.0f', 6)}x")
    geo = geomean([r["ours"] / r["py"] for r in rows])
    geo_wall = geomean([r["ours_wall"] / r["py_wall"] for r in rows])
    worst = max(rows, key=lambda r: r["ours"] / r["py"])
    print(f"geomean ours/Python: {geo:.2f}x (wall-clock: {geo_wall:.2f}x); "
          f"largest {worst['ours'] / worst['py']:.1f}x ({worst['name']})")
    if all(r["hy"] for r in rows):
        print(f"geomean ours/hy: {geomean([r['ours'] / r['hy'] for r in rows]):.2f}x; "
              f"hy/Python: {geomean([r['hy'] / r['py'] for r in rows]):.2f}x")
    with_bas = [r for r in rows if r["basilisp"]]
    if with_bas:
        bas_geo = geomean([r["basilisp"] / r["py"] for r in with_bas])
        ours_geo = geomean([r["ours"] / r["py"] for r in with_bas])
        print(f"basilisp/Python over its {len(with_bas)} workloads: geomean {bas_geo:.0f}x "
              f"(ours/Python over the same: {ours_geo:.2f}x)")
    if all(r["general"] for r in rows):
        print("without the optimiser (optimize=False), ours/Python: geomean "
              f"{geomean([r['general'] / r['py'] for r in rows]):.2f}x; per workload, "
              "optimize=False / ours:")
        print("  " + ", ".join(f"{r['name']} {r['general'] / r['ours']:.2f}x" for r in rows))
    print("ms = thread CPU time, median; (scan) = the host-data scan (from_host) included in"
          " 'ours'")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--quick", action="store_true", help="CI: small sizes, 1 run, no basilisp")
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--basilisp-repeat", type=int, default=1)
    ap.add_argument("--no-basilisp", action="store_true")
    ap.add_argument("--no-hy", action="store_true")
    ap.add_argument("--general", action="store_true",
                    help="also time ours compiled with optimize=False (the general lowering)")
    ap.add_argument("--only", nargs="*", choices=[w.name for w in WORKLOADS])
    args = ap.parse_args(argv)
    sizes = QUICK_SIZES if args.quick else FULL_SIZES
    repeat = 1 if args.quick else args.repeat
    bas_repeat = None if args.quick or args.no_basilisp else args.basilisp_repeat
    rows = bench(sizes, repeat, bas_repeat, args.only, hy=not args.no_hy, general=args.general)
    print_table(rows, sizes)


if __name__ == "__main__":
    main(sys.argv[1:])
