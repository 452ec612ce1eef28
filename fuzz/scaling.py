"""Measure how each campaign scales from 1 to N local jobs: ``python -m fuzz.scaling``.

Runs every campaign's same fixed plan with 1 job and with N jobs, a few times each
(the machine may be shared, so single runs are noisy), and prints cases/s per run, the
best and the spread, and the ratio of the bests. Wall time includes starting the worker
processes (and, for the Clojure differential, a JVM per shard), as a user sees it.

    python -m fuzz.scaling [--repeat 3] [--jobs 2] [--campaign NAME ...]

`s/shard` is the smallest over the runs of the mean wall time of a shard: on an idle
machine it stays the same from 1 to N jobs, and grows when the processes wait for a core.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from fuzz.campaign import engine, targets

#: Plans of about half a minute each on one core here.
PLANS: dict[str, dict[str, Any]] = {
    "clojure": {"programs": 1200, "seeds": [1], "shard_size": 200},
    "bad-args": {"calls": 3000, "seed": 0, "shard_size": 250},
    "host-data": {"cases": 640, "seed": 0, "shard_size": 40},
    "signatures": {"examples": 400, "seed": 1, "shard_size": 200},
}


def measure(campaign: str, jobs: int) -> tuple[float, float]:
    """Cases/s of one run of `campaign`'s plan on `jobs` local processes, and the mean
    wall time of its shards (a shard that takes longer with more jobs was starved of CPU)."""
    plan = list(targets.PLANS[campaign](PLANS[campaign]))
    out = engine.run_plan(campaign, iter(plan), jobs=jobs)
    return out.cases / out.seconds, sum(s.seconds for s in out.shards) / len(out.shards)


def main(argv: list[str]) -> int:
    """Print the table of runs, bests, spreads and ratios."""
    ap = argparse.ArgumentParser(prog="python -m fuzz.scaling")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--campaign", action="append", choices=list(PLANS))
    args = ap.parse_args(argv)
    # The conformance runner caches Clojure's answers to a batch it has seen, except under
    # CI=true; a repeated plan must run the JVM each time to be measured as a campaign runs.
    os.environ["CI"] = "true"
    if "bad-args" in (args.campaign or PLANS):
        from fuzz.strategies.bad_args import cap_campaign_memory

        cap_campaign_memory()
    print(f"{'campaign':<11} {'jobs':>4}  {'cases/s per run':<30} {'best':>8} {'spread':>7}"
          f"  {'s/shard':>7}")  # fmt: skip
    for campaign in args.campaign or list(PLANS):
        bests = {}
        for jobs in (1, args.jobs):
            runs = [measure(campaign, jobs) for _ in range(args.repeat)]
            rates = [r for r, _ in runs]
            best = max(rates)
            spread = (best - min(rates)) / best * 100
            bests[jobs] = best
            cells = " ".join(f"{r:.1f}" for r in rates)
            shard = min(s for _, s in runs)
            print(f"{campaign:<11} {jobs:>4}  {cells:<30} {best:>8.1f} {spread:>6.0f}%"
                  f"  {shard:>7.2f}", flush=True)  # fmt: skip
        print(f"{campaign:<11} ratio {args.jobs}/1 of the bests: {bests[args.jobs] / bests[1]:.2f}",
              flush=True)  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
