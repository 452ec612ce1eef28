"""Seven whole workloads: our compiler vs hand-written Python vs basilisp, side by side.

    .venv/bin/python -m benchmarks.bench_workloads [--quick] [--repeat N]
                                                   [--basilisp-repeat N] [--no-basilisp]
    sh benchmarks/setup_basilisp.sh    # once: basilisp 0.5.1 in benchmarks/.venv-basilisp

Each workload is an idiomatic PTC-Lisp program (what a model would write), the same job as
idiomatic Python, and the same job as a basilisp (Clojure on Python) function. The data is
generated deterministically from a seed, tool-shaped (lists of dicts with string keys).

- ours: `program.run(data=..., timeout_ms=None)` on a program compiled beforehand; the
  time includes the run's set-up and the host-data scan (`from_host`), reported separately.
- Python: a plain function over the same dicts.
- basilisp: a namespace file loaded (direct-linked, as `basilisp run` would) in a
  subprocess of `benchmarks/.venv-basilisp/bin/python`; the same data is read from a temp
  JSON file and converted to keyword-keyed persistent maps *before* timing; only the
  workload is timed inside that process (no start-up, no compilation, no conversion).

Every side's result is checked against Python's. Times are medians of N runs of thread CPU
time (robust when other processes share the cores; wall-clock medians are kept too, and
their geomean printed). Never asserts timings.
`--quick` (CI): small sizes, one repetition, no basilisp.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ptc_compiler import api
from ptc_runtime.convert import from_host

HERE = Path(__file__).resolve().parent
BASILISP_PY = HERE / ".venv-basilisp" / "bin" / "python"
SEED = 20240607
#: `python -m benchmarks --quick` passes `--quick` to this module.
QUICK = True

FULL_SIZES = {
    "orders": 100_000, "words": 200_000, "entries": 50_000, "tree_ops": 20_000,
    "join": 100_000, "sort": 100_000, "fib": 25,
}
QUICK_SIZES = {
    "orders": 2_000, "words": 4_000, "entries": 1_000, "tree_ops": 400,
    "join": 2_000, "sort": 2_000, "fib": 15,
}

# ------------------------------------------------------------------ the data


def make_data(sizes: dict[str, int], seed: int = SEED) -> dict[str, dict[str, Any]]:
    """Per workload, the `data=` map (string keys, JSON-shaped), deterministic in `seed`."""
    rnd = random.Random(seed)
    statuses = ["paid", "paid", "paid", "pending", "refunded"]
    orders = [
        {
            "id": i,
            "customer": f"c{rnd.randrange(2000):04d}",
            "status": rnd.choice(statuses),
            "amount": round(rnd.uniform(1, 500), 2),
            "region": rnd.choice(["eu", "us", "apac"]),
        }
        for i in range(sizes["orders"])
    ]
    vocab = [f"w{i}" for i in range(5000)]
    weights = [1 / (r + 1) for r in range(len(vocab))]  # Zipf-like
    words = rnd.choices(vocab, weights, k=sizes["words"])
    docs = [{"id": i, "text": " ".join(words[j:j + 100])}
            for i, j in enumerate(range(0, len(words), 100))]
    products = [
        {"sku": f"sku-{i:06d}", "price": round(rnd.uniform(0.5, 999), 2), "qty": rnd.randrange(100)}
        for i in range(max(sizes["entries"], sizes["join"], sizes["sort"]))
    ]
    regions = [f"r{i}" for i in range(10)]
    stores = [f"s{i}" for i in range(50)]
    tree = {"regions": {r: {"name": r.upper(), "stores": {s: {"sales": 0, "orders": 0}
                                                          for s in stores}} for r in regions}}
    events = [{"region": rnd.choice(regions), "store": rnd.choice(stores),
               "amount": rnd.randrange(1, 100)} for _ in range(sizes["tree_ops"])]
    return {
        "pipeline": {"orders": orders},
        "word_freq": {"docs": docs},
        "assoc_build": {"products": products[: sizes["entries"]]},
        "tree_update": {"tree": tree, "events": events},
        "str_join": {"products": products[: sizes["join"]]},
        "sort_by": {"products": products[: sizes["sort"]]},
        "fib": {"n": sizes["fib"]},
    }


# ------------------------------------------------------------------ PTC-Lisp

PTC: dict[str, str] = {
    "pipeline": """
(->> data/orders
     (filter #(= (:status %) "paid"))
     (group-by :customer)
     (map (fn [[customer orders]]
            {:customer customer :total (reduce + (map :amount orders))}))
     (sort-by :total >)
     (take 10))""",
    "word_freq": """
(->> data/docs
     (mapcat #(str/split (:text %) #" "))
     frequencies
     (sort-by val >)
     (take 10))""",
    "assoc_build": """
(let [prices (reduce (fn [m p] (assoc m (:sku p) (:price p))) {} data/products)]
  {:count (count prices) :first (get prices "sku-000000")})""",
    "tree_update": """
(let [tree (reduce (fn [t e]
                     (-> t
                         (update-in [:regions (:region e) :stores (:store e) :sales] + (:amount e))
                         (update-in [:regions (:region e) :stores (:store e) :orders] inc)))
                   data/tree
                   data/events)]
  {:total (reduce + (map #(get-in tree [:regions (:region %) :stores (:store %) :sales])
                         data/events))
   :r0s0 (get-in tree [:regions "r0" :stores "s0"])})""",
    "str_join": """
(str/join "\\n" (map #(str (:sku %) "," (:price %) "," (:qty %)) data/products))""",
    "sort_by": """
(take 10 (sort-by :price > data/products))""",
    "fib": """
(defn fib [n] (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))
(fib data/n)""",
}

# ------------------------------------------------------------------ hand-written Python


def py_pipeline(data: dict[str, Any]) -> Any:
    totals: dict[str, float] = defaultdict(float)
    for o in data["orders"]:
        if o["status"] == "paid":
            totals[o["customer"]] += o["amount"]
    rows: list[dict[str, Any]] = [{"customer": c, "total": t} for c, t in totals.items()]
    return sorted(rows, key=lambda r: r["total"], reverse=True)[:10]


def py_word_freq(data: dict[str, Any]) -> Any:
    counts = Counter(w for d in data["docs"] for w in d["text"].split(" "))
    return sorted(counts.items(), key=lambda kv: kv[1], reverse=True)[:10]


def py_assoc_build(data: dict[str, Any]) -> Any:
    prices = {p["sku"]: p["price"] for p in data["products"]}
    return {"count": len(prices), "first": prices.get("sku-000000")}


def py_tree_update(data: dict[str, Any]) -> Any:
    tree = {"regions": {r: {**reg, "stores": {s: dict(st) for s, st in reg["stores"].items()}}
                        for r, reg in data["tree"]["regions"].items()}}  # don't mutate the input
    for e in data["events"]:
        store = tree["regions"][e["region"]]["stores"][e["store"]]
        store["sales"] += e["amount"]
        store["orders"] += 1
    total = sum(tree["regions"][e["region"]]["stores"][e["store"]]["sales"] for e in data["events"])
    return {"total": total, "r0s0": tree["regions"]["r0"]["stores"]["s0"]}


def py_str_join(data: dict[str, Any]) -> Any:
    return "\n".join(f"{p['sku']},{p['price']},{p['qty']}" for p in data["products"])


def py_sort_by(data: dict[str, Any]) -> Any:
    return sorted(data["products"], key=lambda p: p["price"], reverse=True)[:10]


def py_fib(data: dict[str, Any]) -> Any:
    def fib(n: int) -> int:
        return n if n < 2 else fib(n - 1) + fib(n - 2)

    return fib(data["n"])


PYTHON: dict[str, Callable[[dict[str, Any]], Any]] = {
    "pipeline": py_pipeline, "word_freq": py_word_freq, "assoc_build": py_assoc_build,
    "tree_update": py_tree_update, "str_join": py_str_join, "sort_by": py_sort_by,
    "fib": py_fib,
}

LABELS = {
    "pipeline": "orders: filter/group-by/sum/sort-by/take 10",
    "word_freq": "word frequencies (split + frequencies)",
    "assoc_build": "map built by reduce + assoc",
    "tree_update": "update-in x2 + get-in over a tree",
    "str_join": "str/join of formatted items",
    "sort_by": "sort-by :price > on maps, take 10",
    "fib": "recursive fib",
}

# ------------------------------------------------------------------ basilisp side

BASILISP_NS = r"""
(ns ptc-bench-workloads
  (:require [basilisp.string :as str]))

(defn pipeline [data]
  (->> (:orders data)
       (filter #(= (:status %) "paid"))
       (group-by :customer)
       (map (fn [[customer orders]]
              {:customer customer :total (reduce + (map :amount orders))}))
       (sort-by :total >)
       (take 10)
       doall))

(defn word-freq [data]
  (->> (:docs data)
       (mapcat #(str/split (:text %) #" "))
       frequencies
       (sort-by val >)
       (take 10)
       doall))

(defn assoc-build [data]
  (let [prices (reduce (fn [m p] (assoc m (:sku p) (:price p))) {} (:products data))]
    {:count (count prices) :first (get prices "sku-000000")}))

(defn tree-update [data]
  (let [tree (reduce (fn [t e]
                       (-> t
                           (update-in [:regions (:region e) :stores (:store e) :sales]
                                      + (:amount e))
                           (update-in [:regions (:region e) :stores (:store e) :orders] inc)))
                     (:tree data)
                     (:events data))]
    {:total (reduce + (map #(get-in tree [:regions (:region %) :stores (:store %) :sales])
                           (:events data)))
     :r0s0 (get-in tree [:regions "r0" :stores "s0"])}))

(defn str-join [data]
  (str/join "\n" (map #(str (:sku %) "," (:price %) "," (:qty %)) (:products data))))

(defn sort-by-price [data]
  (doall (take 10 (sort-by :price > (:products data)))))

(defn fib [n] (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))

(defn fib-job [data] (fib (:n data)))
"""

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

FNS = {"pipeline": "pipeline", "word_freq": "word_freq", "assoc_build": "assoc_build",
       "tree_update": "tree_update", "str_join": "str_join", "sort_by": "sort_by_price",
       "fib": "fib_job"}
data_path, repeat, out_path, *names = sys.argv[1:]
with open(data_path) as fh:
    all_data = json.load(fh)
out = {}
for name in names:
    # identifier-like keys become keywords (Clojure style); the tree's region/store names
    # stay strings, as in the PTC program (they are data, not field names)
    data = to_lisp(all_data[name], lambda k: not (k[:1] in "rs" and k[1:].isdigit()))
    fn = getattr(ns, FNS[name].replace("-", "_"))
    samples, walls, value = [], [], None
    for _ in range(int(repeat)):
        c0, w0 = time.thread_time(), time.perf_counter()
        value = fn(data)
        samples.append((time.thread_time() - c0) * 1000)
        walls.append((time.perf_counter() - w0) * 1000)
    out[name] = {"ms": statistics.median(samples), "wall_ms": statistics.median(walls),
                 "value": to_py(value)}
    print(f"  basilisp {name}: {out[name]['ms']:.0f} ms", file=sys.stderr, flush=True)
with open(out_path, "w") as fh:
    json.dump(out, fh)
"""


def run_basilisp(datasets: dict[str, dict[str, Any]], repeat: int,
                 names: list[str]) -> dict[str, dict[str, Any]] | None:
    if not BASILISP_PY.exists():
        print(f"(basilisp skipped: run `sh {HERE / 'setup_basilisp.sh'}` first)")
        return None
    with tempfile.TemporaryDirectory(prefix="ptc-bench-") as tmp:
        (Path(tmp) / "ptc_bench_workloads.lpy").write_text(BASILISP_NS)
        (Path(tmp) / "driver.py").write_text(BASILISP_DRIVER)
        data_path, out_path = Path(tmp) / "data.json", Path(tmp) / "out.json"
        data_path.write_text(json.dumps(datasets))
        env = {**os.environ, "PYTHONPATH": tmp}
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # else basilisp.core recompiles (~15 s)
        subprocess.run(
            [str(BASILISP_PY), str(Path(tmp) / "driver.py"), str(data_path), str(repeat),
             str(out_path), *names],
            check=True, env=env, cwd=tmp,
        )
        result: dict[str, dict[str, Any]] = json.loads(out_path.read_text())
        return result


# ------------------------------------------------------------------ timing and checks


def timed(fn: Callable[[], object]) -> tuple[float, float]:
    """(thread CPU ms, wall ms) of one call."""
    c0, w0 = time.thread_time(), time.perf_counter()
    fn()
    return (time.thread_time() - c0) * 1000, (time.perf_counter() - w0) * 1000


def plain(x: Any) -> Any:
    """A PTC or basilisp result as JSON-shaped Python (keyword keys -> names), for checks."""
    if isinstance(x, dict):
        return {getattr(k, "name", k): plain(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [plain(v) for v in x]
    if isinstance(x, float):
        return round(x, 6)
    return x


def check(name: str, side: str, got: Any, want: Any) -> None:
    got, want = plain(got), plain(want)
    if name == "word_freq" and side == "basilisp":
        # basilisp's `frequencies` is a hash map, so words with equal counts come in
        # another order (ours keeps first-seen order, as Python's Counter does)
        got, want = (sorted(x, key=lambda e: (-e[1], e[0])) for x in (got, want))
    if got != want:
        raise AssertionError(f"{name}: {side} result differs from Python's:\n"
                             f"{str(got)[:300]}\n{str(want)[:300]}")


def run_ours(program: api.Program, data: dict[str, Any]) -> Any:
    res = program.run(data=data, timeout_ms=None, max_steps=10**12)
    if not res.ok:
        raise RuntimeError(f"PTC run failed: {res.error}")
    return res.value


def bench(sizes: dict[str, int], repeat: int, basilisp_repeat: int | None,
          only: list[str] | None = None) -> list[dict[str, Any]]:
    datasets = make_data(sizes)
    names = only or list(PTC)
    bas = run_basilisp({n: datasets[n] for n in names}, basilisp_repeat, names) \
        if basilisp_repeat else None
    rows = []
    for name in names:
        data = datasets[name]
        program = api.compile(PTC[name])
        want = PYTHON[name](data)
        check(name, "ours", run_ours(program, data), want)
        if bas is not None:
            check(name, "basilisp", bas[name]["value"], want)
        # interleave the sides so drifting machine load hits both alike
        ours_s, py_s, host_s = [], [], []
        for _ in range(repeat):
            ours_s.append(timed(lambda p=program, d=data: run_ours(p, d)))
            py_s.append(timed(lambda f=PYTHON[name], d=data: f(d)))
            host_s.append(timed(lambda d=data: from_host(dict(d))))
        rows.append({
            "name": name,
            "ours": statistics.median(s[0] for s in ours_s),
            "py": statistics.median(s[0] for s in py_s),
            "from_host": statistics.median(s[0] for s in host_s),
            "ours_wall": statistics.median(s[1] for s in ours_s),
            "py_wall": statistics.median(s[1] for s in py_s),
            "basilisp": bas[name]["ms"] if bas is not None else None,
            "basilisp_wall": bas[name]["wall_ms"] if bas is not None else None,
        })
    return rows


def print_table(rows: list[dict[str, Any]], sizes: dict[str, int]) -> None:
    size_of = {"pipeline": "orders", "word_freq": "words", "assoc_build": "entries",
               "tree_update": "tree_ops", "str_join": "join", "sort_by": "sort", "fib": "fib"}
    head = (f"{'workload':<48} {'ours ms':>9} {'(scan)':>7} {'Python ms':>10} "
            f"{'basilisp ms':>12} {'ours/Py':>8} {'bas/ours':>9} {'bas/Py':>7}")
    print(head)
    print("-" * len(head))
    for r in rows:
        label = f"{r['name']} ({sizes[size_of[r['name']]]:,}): {LABELS[r['name']]}"
        bas = f"{r['basilisp']:12.0f}" if r["basilisp"] is not None else f"{'-':>12}"
        bo = f"{r['basilisp'] / r['ours']:8.0f}x" if r["basilisp"] is not None else f"{'-':>9}"
        # basilisp against hand-written Python: the ceiling of bas/ours for any
        # implementation that does at least Python's own work
        bp = f"{r['basilisp'] / r['py']:6.0f}x" if r["basilisp"] is not None else f"{'-':>7}"
        print(f"{label[:48]:<48} {r['ours']:9.2f} {r['from_host']:7.2f} {r['py']:10.2f} "
              f"{bas} {r['ours'] / r['py']:7.2f}x {bo} {bp}")
    geo = math.exp(statistics.fmean(math.log(r["ours"] / r["py"]) for r in rows))
    geo_wall = math.exp(statistics.fmean(math.log(r["ours_wall"] / r["py_wall"]) for r in rows))
    print(f"geomean ours/Python: {geo:.2f}x (wall-clock: {geo_wall:.2f}x)")
    if all(r["basilisp"] is not None for r in rows):
        worst = min(r["basilisp"] / r["ours"] for r in rows)
        bgeo = math.exp(statistics.fmean(math.log(r["basilisp"] / r["ours"]) for r in rows))
        print(f"basilisp/ours: geomean {bgeo:.0f}x, smallest {worst:.0f}x")
        worst_py = min(r["basilisp"] / r["py"] for r in rows)
        print(f"basilisp/Python: smallest {worst_py:.0f}x")
    print("ms = thread CPU time, median; (scan) = the host-data scan (from_host) included in"
          " 'ours'")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--quick", action="store_true", help="CI: small sizes, 1 run, no basilisp")
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--basilisp-repeat", type=int, default=3)
    ap.add_argument("--no-basilisp", action="store_true")
    ap.add_argument("--only", nargs="*", choices=list(PTC))
    args = ap.parse_args(argv)
    sizes = QUICK_SIZES if args.quick else FULL_SIZES
    repeat = 1 if args.quick else args.repeat
    bas_repeat = None if args.quick or args.no_basilisp else args.basilisp_repeat
    rows = bench(sizes, repeat, bas_repeat, args.only)
    print_table(rows, sizes)


if __name__ == "__main__":
    main(sys.argv[1:])
