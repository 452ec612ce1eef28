"""Measure how each campaign scales from 1 to N local jobs: ``python -m fuzz.scaling``.

Each campaign's fixed plan (`PLANS`) runs with 1 job and with N jobs, interleaved (1, N, then
N, 1, then 1, N, ...) so that both settings meet the same load on a shared machine. Every
run is a fresh process (`--one`), so no run inherits a warm JVM or warm caches from the one
before; its wall time is that of `engine.run_plan`, as a user's campaign spends it: starting
the worker processes, their imports and (for the Clojure differential) the JVM included.

    python -m fuzz.scaling [--repeat 3] [--jobs 2] [--campaign NAME ...] [--markdown]

For each campaign it prints cases/s of every run, the median and the spread (max - min, as
a share of the median) per setting, the ratio of the medians and the median of the ratios
of the runs paired in time, the load average (1 min) before and after, and the mean wall
time of a shard (`s/shard`: it stays put from 1 to N jobs on an idle machine and grows when
the processes wait for a core), and the CPU seconds per 1000 cases of the run's whole process
tree (workers and JVMs included): unlike wall time it hardly depends on the load, and when it
is the same for 1 and N jobs, spreading adds no work. ``--markdown`` prints the table for
docs/fuzzing.md.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from typing import Any

#: Plans large enough that starting the worker processes is a small part of a run
#: (about 20 s each on one core of a quiet machine here).
PLANS: dict[str, dict[str, Any]] = {
    "clojure": {"programs": 1500, "seeds": [1, 2], "shard_size": 200},
    "bad-args": {"calls": 15000, "seed": 0},
    "host-data": {"cases": 600, "seed": 0},
    "signatures": {"examples": 200, "seed": 1},
}


def one(campaign: str, jobs: int) -> dict[str, float]:
    """One run of `campaign`'s plan on `jobs` local processes, in this process."""
    from fuzz.campaign import engine, targets

    opts = dict(PLANS[campaign])
    if campaign == "signatures":
        opts["db"] = tempfile.mkdtemp(prefix="ptc-fuzz-scaling-")
    if campaign == "bad-args":
        from fuzz.strategies.bad_args import cap_campaign_memory

        cap_campaign_memory()
    plan = list(targets.PLANS[campaign](opts))
    out = engine.run_plan(campaign, iter(plan), jobs=jobs)
    if out.notes:
        raise SystemExit(f"{campaign}: {out.notes[0]}")
    from fuzz import clojure_diff

    clojure_diff._close_servers()  # this process's JVM, so its CPU time is counted
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime
    return {"cases": out.cases, "seconds": out.seconds, "cpu": cpu,
            "shard": sum(s.seconds for s in out.shards) / len(out.shards)}  # fmt: skip


def _measure(campaign: str, jobs: int) -> dict[str, float]:
    argv = [sys.executable, "-m", "fuzz.scaling", "--one", campaign, str(jobs)]
    r = subprocess.run(argv, capture_output=True, text=True, check=False)
    if r.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed:\n{r.stdout}{r.stderr}")
    result: dict[str, float] = json.loads(r.stdout.strip().splitlines()[-1])
    return result


def _spread(xs: list[float]) -> float:
    return (max(xs) - min(xs)) / statistics.median(xs) * 100


def campaign_row(campaign: str, jobs: int, repeat: int) -> dict[str, Any]:
    """Interleaved runs of one campaign with 1 and `jobs` jobs, and what they say."""
    load_before = os.getloadavg()[0]
    runs: dict[int, list[dict[str, float]]] = {1: [], jobs: []}
    for r in range(repeat):
        for j in (1, jobs) if r % 2 == 0 else (jobs, 1):
            runs[j].append(_measure(campaign, j))
    load_after = os.getloadavg()[0]
    rates = {j: [x["cases"] / x["seconds"] for x in rs] for j, rs in runs.items()}
    return {
        "campaign": campaign, "jobs": jobs, "repeat": repeat,
        "cases": runs[1][0]["cases"],
        "rates": rates,
        "median": {j: statistics.median(v) for j, v in rates.items()},
        "spread": {j: _spread(v) for j, v in rates.items()},
        "shard": {j: statistics.median(x["shard"] for x in rs) for j, rs in runs.items()},
        # CPU seconds (this process, its workers and their JVMs) per 1000 cases: what the work
        # costs, whatever the load; equal for 1 and N jobs when no work is added by spreading
        "cpu": {j: statistics.median(1000 * x["cpu"] / x["cases"] for x in rs) for j, rs in runs.items()},
        "ratio": statistics.median(rates[jobs]) / statistics.median(rates[1]),
        "paired": statistics.median(b / a for a, b in zip(rates[1], rates[jobs], strict=True)),
        "load": (load_before, load_after),
    }  # fmt: skip


def print_row(row: dict[str, Any], markdown: bool) -> None:
    """One campaign's lines (or its line of the docs' table)."""
    n, name = row["jobs"], row["campaign"]
    lo, hi = row["load"]
    if markdown:
        print(f"| `{name}` ({row['cases']} cases) | {row['median'][1]:.1f} | "
              f"{row['median'][n]:.1f} | **{row['ratio']:.2f}** | {row['paired']:.2f} | "
              f"{row['repeat']} | {row['spread'][1]:.0f}% / {row['spread'][n]:.0f}% | "
              f"{row['shard'][1]:.2f} / {row['shard'][n]:.2f} | "
              f"{row['cpu'][1]:.1f} / {row['cpu'][n]:.1f} | {lo:.2f}–{hi:.2f} |", flush=True)  # fmt: skip
        return
    for j in (1, n):
        cells = " ".join(f"{r:.1f}" for r in row["rates"][j])
        print(f"{name:<11} {j:>4}  {cells:<34} {row['median'][j]:>8.1f} "
              f"{row['spread'][j]:>6.0f}%  {row['shard'][j]:>7.2f}  {row['cpu'][j]:>9.1f}", flush=True)  # fmt: skip
    print(f"{name:<11} {n}/1: ratio of medians {row['ratio']:.2f}, median of paired ratios "
          f"{row['paired']:.2f}; load average {lo:.2f} before, {hi:.2f} after", flush=True)  # fmt: skip


def main(argv: list[str]) -> int:
    """Print the table of runs, medians, spreads and ratios."""
    ap = argparse.ArgumentParser(prog="python -m fuzz.scaling")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--campaign", action="append", choices=list(PLANS))
    ap.add_argument("--markdown", action="store_true", help="the table for docs/fuzzing.md")
    ap.add_argument("--one", nargs=2, metavar=("CAMPAIGN", "JOBS"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.one:
        print(json.dumps(one(args.one[0], int(args.one[1]))))
        return 0
    if args.markdown:
        print(f"| campaign | 1 job: cases/s | {args.jobs} jobs: cases/s | ratio | paired "
              f"| repeats | spread (1 / {args.jobs}) | s/shard (1 / {args.jobs}) "
              f"| CPU s per 1000 cases (1 / {args.jobs}) | load |")
        print("|---|---|---|---|---|---|---|---|---|---|")
    else:
        print(f"{'campaign':<11} {'jobs':>4}  {'cases/s per run':<34} {'median':>8} "
              f"{'spread':>7}  {'s/shard':>7}  {'cpu/1000':>9}")  # fmt: skip
    for campaign in args.campaign or list(PLANS):
        print_row(campaign_row(campaign, args.jobs, args.repeat), args.markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
