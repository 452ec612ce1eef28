"""`python -m fuzz clojure|bad-args|host-data|signatures|signature-corpus ...`: the campaigns.

The campaigns live in a source checkout, not in the wheel: run them from the checkout's root
(``python -m fuzz ...``), or as ``ptc fuzz ...`` where the project is installed editable from
the checkout (``pip install -e '.[fuzz]'``), which makes this package importable.

Every campaign is a plan of shards fixed by its options and seeds (`fuzz/campaign/targets.py`),
so its result is the same however it is spread:

* ``--jobs N`` runs the shards on N local processes (default: every core; 1 runs them here);
* ``--scheduler ADDRESS`` runs them on a running dask.distributed cluster instead (the
  ``fuzz`` extra installs dask; the workers must be able to import this package);
* ``--minutes M`` is a time budget: no new shard starts after M minutes. Without a count a
  campaign is endless and the budget ends it.

While it runs a campaign prints a progress line (cases, cases/s, failures, time left); at the
end a table of cases and failures per family and, per bucket of failures, its smallest
failing program. Findings go to one SQLite failure database (``<db>/failures.sqlite``, default
``.ptc-fuzz/``) shared by every run and process, and the report to an HTML file with a plot of
throughput and failures over time (``--report``, default ``<db>/report-<campaign>.html``).

* ``clojure [--programs N] [--seed S ...] [--out FILE]``: generated programs against Clojure
  1.11 (`fuzz/clojure_diff.py`); N programs per seed, disagreements also written to FILE;
  each bucket's smallest disagreement is then minimized (`--no-minimize`: not).
* ``bad-args [--calls N] [--seed S] [--only NAME ...]``: every builtin with every kind of bad
  argument (`fuzz/strategies/bad_args.py`).
* ``host-data [--cases N] [--seed S]``: host values of every Python shape, cases S..S+N-1
  (`fuzz/strategies/host_data.py`).
* ``signatures [--examples N] [--seed S] [--property NAME ...]``: the hypothesis properties of
  `fuzz/properties.py`. With ``--seed`` every shard has its own derived example seed
  (reproducible); without, shards draw fresh examples and share hypothesis's example database
  under the db folder, so a failure one process found is replayed first by the others.
* ``signature-corpus [--write]``: compare (or deliberately regenerate) the checked-in corpus
  of signature error outputs, `fuzz/corpus/signature_errors.jsonl`.

Exit status: 0 no failure, 1 failures (or a corpus that differs), 2 usage or setup.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path
from typing import Any, TextIO

from fuzz import clojure_diff, signature_corpus
from fuzz.campaign import engine, failure_db, report, targets
from fuzz.strategies import bad_args

#: Marks this module as the ptc-compiler campaigns (`ptc fuzz` checks it before delegating).
PTC_FUZZ_CLI = True
DEFAULT_EXAMPLES = 1000
DEFAULT_HOST_CASES = 1000


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--jobs", type=int, metavar="N",
                   help="local processes (default: every core; 1 runs here)")  # fmt: skip
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="dask.distributed scheduler to run the shards on (tcp://host:port)")
    p.add_argument("--shard-size", type=int, metavar="N", help="cases per shard")
    p.add_argument("--db", type=Path, default=Path(".ptc-fuzz"),
                   help="folder of the failure database (and hypothesis's examples)")  # fmt: skip
    p.add_argument("--report", type=Path, metavar="FILE", help="HTML report file")
    p.add_argument("--quiet", action="store_true", help="no progress lines")


def _parser(prog: str) -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog=prog, description="Fuzz campaigns.")
    sub = ap.add_subparsers(dest="target", required=True)
    sig = sub.add_parser("signatures", help="fuzz signature parse/validate/schema/render")
    budget = sig.add_mutually_exclusive_group()
    budget.add_argument("--examples", type=int, metavar="N", help="examples per property")
    budget.add_argument("--minutes", type=float, metavar="M", help="run for M minutes")
    sig.add_argument("--seed", type=int, metavar="S", help="reproducible example generation")
    sig.add_argument(
        "--property", action="append", metavar="NAME", help="only this property (repeatable)"
    )
    sig.add_argument("--properties-module", default="fuzz.properties", help=argparse.SUPPRESS)
    _common(sig)
    clj = sub.add_parser("clojure", help="generated programs against Clojure 1.11")
    clj.add_argument("--programs", type=int, default=1000, metavar="N", help="programs per seed")
    clj.add_argument("--seed", type=int, action="append", metavar="S",
                     help="generator seed (repeatable; default 0; 0, 1, ... with --minutes)")
    clj.add_argument("--out", type=Path, default=Path("clojure-fuzz-report.clj"), metavar="FILE",
                     help="where disagreements are written")  # fmt: skip
    clj.add_argument("--minutes", type=float, metavar="M", help="time budget")
    clj.add_argument("--no-minimize", action="store_true",
                     help="do not shrink each bucket's smallest disagreement")  # fmt: skip
    _common(clj)
    bad = sub.add_parser("bad-args", help="every builtin with every kind of bad argument")
    bad.add_argument("--calls", type=int, metavar="N", help="stop after N calls (default: all)")
    bad.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the samples")
    bad.add_argument("--only", action="append", default=[], metavar="NAME",
                     help="only this builtin or spelling (repeatable)")  # fmt: skip
    bad.add_argument("--minutes", type=float, metavar="M", help="time budget")
    _common(bad)
    host = sub.add_parser("host-data", help="host values of every Python shape")
    host.add_argument("--cases", type=int, metavar="N",
                      help=f"cases (default {DEFAULT_HOST_CASES}; endless with --minutes)")
    host.add_argument("--seed", type=int, default=0, metavar="S", help="first case seed")
    host.add_argument("--minutes", type=float, metavar="M", help="time budget")
    _common(host)
    corpus = sub.add_parser("signature-corpus", help="check or regenerate the signature corpus")
    corpus.add_argument("--write", action="store_true", help="regenerate the checked-in file")
    return ap


def _options(args: argparse.Namespace) -> dict[str, Any]:
    """The campaign's own options (what fixes its cases), for its plan."""
    opts: dict[str, Any] = {"shard_size": args.shard_size}
    if args.target == "clojure":
        seeds = args.seed or (None if args.minutes else [0])
        opts |= {"programs": args.programs, "seeds": seeds}
    elif args.target == "bad-args":
        opts |= {"calls": args.calls, "seed": args.seed, "only": args.only}
    elif args.target == "host-data":
        cases = args.cases or (None if args.minutes else DEFAULT_HOST_CASES)
        opts |= {"cases": cases, "seed": args.seed}
    else:
        examples = args.examples or (None if args.minutes else DEFAULT_EXAMPLES)
        opts |= {"examples": examples, "seed": args.seed, "properties": args.property,
                 "module": args.properties_module, "db": str(args.db.resolve())}  # fmt: skip
    return opts


def _preflight(args: argparse.Namespace, out: TextIO) -> int:
    """0 when the campaign can start; else print why and return 2."""
    if args.target == "clojure":
        if args.programs < 1:
            print("ptc fuzz clojure: --programs must be at least 1", file=out)
            return 2
        if args.scheduler is None and clojure_diff.clojure_command() is None:
            # on a cluster the workers check for themselves
            print(f"ptc fuzz clojure: {clojure_diff.clojure_required()}", file=out)
            return 2
    if args.target == "signatures":
        try:
            import hypothesis  # noqa: F401 - a development dependency, checked up front

            module = importlib.import_module(args.properties_module)
        except ModuleNotFoundError as exc:
            print(f"ptc fuzz: cannot run ({exc}); run it from a checkout with dev extras",
                  file=out)  # fmt: skip
            return 2
        known = [p.name for p in module.PROPERTIES]
        if args.property and not set(args.property) <= set(known):
            print("ptc fuzz: no such property; known: " + ", ".join(known), file=out)
            return 2
    if args.target == "bad-args":
        bad_args.cap_campaign_memory()
    if args.jobs is not None and args.jobs < 1:
        print("ptc fuzz: --jobs must be at least 1", file=out)
        return 2
    return 0


def main_campaign(args: argparse.Namespace, out: TextIO) -> int:
    """Plan, run (here, on local processes or on a cluster), record and report a campaign."""
    code = _preflight(args, out)
    if code:
        return code
    opts = _options(args)
    plan = targets.PLANS[args.target](opts)
    total: int | None = None
    endless = args.minutes is not None and (
        (args.target == "clojure" and not args.seed)
        or (args.target == "host-data" and not args.cases)
        or (args.target == "signatures" and not args.examples)
    )
    if not endless:
        plan = list(plan)
        total = sum(int(s["cases"]) for s in plan)
    jobs = args.jobs or engine.default_jobs()
    where = f"scheduler {args.scheduler}" if args.scheduler else f"{jobs} jobs"
    size = f"{total} cases" if total is not None else f"{args.minutes} min"
    print(f"ptc fuzz {args.target}: {size} on {where}", file=out, flush=True)
    try:
        outcome = engine.run_plan(args.target, iter(plan), jobs=jobs, scheduler=args.scheduler,
                                  minutes=args.minutes, total_cases=total,
                                  out=None if args.quiet else out)  # fmt: skip
    except (OSError, ImportError) as exc:  # no dask, or no scheduler at that address
        if args.scheduler is None:
            raise
        print(f"ptc fuzz: cannot use scheduler {args.scheduler}: {type(exc).__name__}: {exc}",
              file=out)  # fmt: skip
        return 2
    minimized: dict[str, Any] = {}
    if args.target == "clojure" and outcome.findings and not args.no_minimize:
        print("minimizing the smallest disagreement of each bucket...", file=out, flush=True)
        shrunk = engine.run_plan("clojure-minimize",
                                 targets.plan_minimize_clojure(outcome.findings),
                                 jobs=jobs, scheduler=args.scheduler)  # fmt: skip
        minimized = {f.bucket: f for f in shrunk.findings}
    db = failure_db.FailureDB(args.db / "failures.sqlite")
    try:
        known = db.known_buckets(args.target)
        db.record(outcome, opts, minimized)
    finally:
        db.close()
    report.print_table(outcome, out, known, minimized)
    path = args.report or args.db / f"report-{args.target}.html"
    report.write_html(outcome, path, opts, known, minimized)
    print(f"report: {path}; failures recorded in {args.db / 'failures.sqlite'}", file=out)
    if args.target == "clojure":
        text = "\n".join(f";; {f.case} [{f.bucket}]\n{f.program}\n;; {f.detail}\n"
                         for f in outcome.findings)  # fmt: skip
        head = f";; ptc fuzz clojure: seeds {opts['seeds']}, {args.programs} programs each\n"
        args.out.write_text(head + text, encoding="utf-8")
        print(f"disagreements written to {args.out}", file=out)
    if outcome.notes and not outcome.cases:
        return 2
    return 0 if not outcome.findings and not outcome.notes else 1


def main_corpus(args: argparse.Namespace, out: TextIO) -> int:
    """`signature-corpus`: compare the corpus, or regenerate it with --write."""
    return signature_corpus.main(["--write"] if args.write else [], out)


def main(argv: list[str], out: TextIO | None = None, prog: str = "python -m fuzz") -> int:
    """Entry point of ``python -m fuzz`` and ``ptc fuzz``; `argv` after the program's name."""
    out = out or sys.stdout
    args = _parser(prog).parse_args(argv)
    if args.target == "signature-corpus":
        return main_corpus(args, out)
    return main_campaign(args, out)
