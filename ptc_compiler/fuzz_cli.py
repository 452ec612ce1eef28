"""`ptc fuzz signatures|clojure|bad-args ...`: the fuzz campaigns.

`ptc fuzz bad-args [--calls N] [--seed S] [--only NAME ...]` calls every builtin with every kind
of bad argument (`fuzz/strategies/bad_args.py`: every combination up to two arguments, seeded
draws for three, the refused counts) and checks each outcome is a value or a typed, located
error without Python in its message. Exit status: 0 no problem, 1 problems, 2 setup.

`ptc fuzz clojure [--programs N] [--seed S ...] [--out FILE]` is the generative differential
campaign against Clojure 1.11 (`fuzz/clojure_diff.py`): N generated programs per seed, one JVM
batch per seed, each compared with our result; disagreements go to FILE. Exit status: 0 all
agree, 1 disagreements, 2 usage/setup (no checkout, no Clojure).

`ptc fuzz signatures [--examples N | --minutes M] [--seed S]` is the signature fuzz campaign.

Runs the properties of `fuzz/properties.py` (a checkout's `fuzz/` package; hypothesis is a
development dependency) with a hypothesis example database under `.ptc-fuzz/`, so a failing
example is kept and replayed first by the next campaign. Shows progress while it runs and ends
with a summary table. Exit status: 0 all properties held, 1 a property failed, 2 usage/setup.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, TextIO

DEFAULT_EXAMPLES = 1000
BATCH = 500  # examples per property per round in --minutes mode


@dataclass
class Tally:
    """What one property did during the campaign."""

    name: str
    examples: int = 0
    seconds: float = 0.0
    failure: str | None = None
    rounds: int = 0
    notes: list[str] = field(default_factory=list)


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="ptc fuzz", description="Property-based fuzz campaigns.")
    sub = ap.add_subparsers(dest="target", required=True)
    sig = sub.add_parser("signatures", help="fuzz signature parse/validate/schema/render")
    budget = sig.add_mutually_exclusive_group()
    budget.add_argument("--examples", type=int, metavar="N", help="examples per property")
    budget.add_argument("--minutes", type=float, metavar="M", help="run for M minutes")
    sig.add_argument("--seed", type=int, metavar="S", help="reproducible example generation")
    sig.add_argument(
        "--property", action="append", metavar="NAME", help="only this property (repeatable)"
    )
    sig.add_argument("--db", type=Path, default=Path(".ptc-fuzz"), help="example database dir")
    clj = sub.add_parser("clojure", help="generated programs against Clojure 1.11")
    clj.add_argument("--programs", type=int, default=1000, metavar="N", help="programs per seed")
    clj.add_argument("--seed", type=int, action="append", metavar="S",
                     help="generator seed (repeatable; default 0)")  # fmt: skip
    clj.add_argument("--out", type=Path, default=Path("clojure-fuzz-report.clj"), metavar="FILE",
                     help="where disagreements are written")  # fmt: skip
    bad = sub.add_parser("bad-args", help="every builtin with every kind of bad argument")
    bad.add_argument("--calls", type=int, metavar="N", help="stop after N calls (default: all)")
    bad.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the samples")
    bad.add_argument("--only", action="append", default=[], metavar="NAME",
                     help="only this builtin or spelling (repeatable)")  # fmt: skip
    return ap


def _load_module(name: str) -> ModuleType:
    """Import `fuzz.<name>` from the current checkout (cwd or the package's parent)."""
    try:
        return importlib.import_module(f"fuzz.{name}")
    except ModuleNotFoundError as exc:
        if exc.name not in ("fuzz", f"fuzz.{name}"):
            raise
    here = Path(__file__).resolve().parent.parent
    for root in (Path.cwd(), here):
        if (root / "fuzz" / f"{name.replace('.', '/')}.py").is_file():
            sys.path.insert(0, str(root))
            sys.modules.pop("fuzz", None)
            return importlib.import_module(f"fuzz.{name}")
    raise ModuleNotFoundError(f"fuzz.{name}")


def main_clojure(args: argparse.Namespace, out: TextIO) -> int:
    """`ptc fuzz clojure`: run the campaign, write the disagreements, print a summary."""
    if args.programs < 1:
        print("ptc fuzz clojure: --programs must be at least 1", file=out)
        return 2
    try:
        diff = _load_module("clojure_diff")
    except ModuleNotFoundError as exc:
        print(f"ptc fuzz clojure: cannot run ({exc}); run it from a checkout", file=out)
        return 2
    command = diff.clojure_command()
    if command is None:
        print(f"ptc fuzz clojure: {diff.clojure_required()}", file=out)
        return 2
    seeds: list[int] = args.seed or [0]
    start = time.perf_counter()
    rows: list[tuple[int, int, int, float]] = []  # seed, programs, disagreements, seconds
    report: list[str] = []
    for seed in seeds:
        t0 = time.perf_counter()
        programs = diff.seed_programs(seed, args.programs)
        print(f"seed {seed}: {len(programs)} programs, running Clojure (one JVM)...",
              file=out, flush=True)  # fmt: skip

        def progress(done: int, total: int, seed: int = seed) -> None:
            if done % 500 == 0 or done == total:
                print(f"  seed {seed}: compared {done}/{total}", file=out, flush=True)

        try:
            outcomes, jvm = diff.run_programs(programs, command, progress)
        except RuntimeError as exc:  # the runner itself failed: a setup problem
            print(f"ptc fuzz clojure: {exc}", file=out)
            return 2
        bad = [o for o in outcomes if not o.agree]
        report += [diff.describe(o) for o in bad]
        rows.append((seed, len(outcomes), len(bad), time.perf_counter() - t0))
        print(f"  seed {seed}: {len(bad)} disagreements (JVM {jvm:.1f}s)", file=out, flush=True)
    header = f";; ptc fuzz clojure: seeds {seeds}, {args.programs} programs each\n"
    args.out.write_text(header + "\n".join(report), encoding="utf-8")
    print("", file=out)
    print(f"{'seed':>8}  {'programs':>9}  {'disagree':>8}  {'agree %':>8}  {'seconds':>8}",
          file=out)  # fmt: skip
    for seed, n, bad_n, secs in rows:
        print(f"{seed:>8}  {n:>9}  {bad_n:>8}  {100 * (n - bad_n) / n:>8.2f}  {secs:>8.1f}",
              file=out)  # fmt: skip
    total = sum(r[1] for r in rows)
    failed = sum(r[2] for r in rows)
    print(f"{'total':>8}  {total:>9}  {failed:>8}  {100 * (total - failed) / total:>8.2f}  "
          f"{time.perf_counter() - start:>8.1f}", file=out)  # fmt: skip
    print(f"disagreements written to {args.out}", file=out)
    return 0 if failed == 0 else 1


def main_bad_args(args: argparse.Namespace, out: TextIO) -> int:
    """`ptc fuzz bad-args`: the sweep of `fuzz/strategies/bad_args.py`, with its summary."""
    try:
        sweep = _load_module("strategies.bad_args")
    except ModuleNotFoundError as exc:
        print(f"ptc fuzz bad-args: cannot run ({exc}); run it from a checkout", file=out)
        return 2
    code: int = sweep.main_campaign(args.calls, args.seed, args.only, out)
    return code


def _load_properties() -> ModuleType:
    """Import `fuzz.properties` from the current checkout (cwd or the package's parent)."""
    return _load_module("properties")


def _run_batch(prop: Any, tally: Tally, n: int, seed: int | None, db: Path) -> None:
    from hypothesis import HealthCheck, given, settings
    from hypothesis import seed as fix_seed
    from hypothesis.database import DirectoryBasedExampleDatabase

    count = [0]

    def body(arg: Any) -> None:
        count[0] += 1
        prop.check(arg)

    test = given(prop.strategy)(body)  # type: ignore[no-untyped-call]
    test = settings(
        max_examples=n,
        deadline=None,
        database=DirectoryBasedExampleDatabase(str(db / "signatures")),
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        print_blob=True,
    )(test)
    if seed is not None:
        test = fix_seed(seed)(test)
    t0 = time.perf_counter()
    try:
        test()
    except Exception as exc:  # a falsified property (hypothesis already printed the example)
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        tally.failure = f"{type(exc).__name__}: {first}"[:200]
    finally:
        tally.seconds += time.perf_counter() - t0
        tally.examples += count[0]
        tally.rounds += 1


def _summary(tallies: Sequence[Tally], elapsed: float, out: TextIO) -> None:
    width = max(len("property"), *(len(t.name) for t in tallies))
    print("", file=out)
    print(f"{'property':<{width}}  {'examples':>9}  {'seconds':>8}  result", file=out)
    print(f"{'-' * width}  {'-' * 9}  {'-' * 8}  ------", file=out)
    for t in tallies:
        result = "ok" if t.failure is None else "FAIL " + t.failure
        print(f"{t.name:<{width}}  {t.examples:>9}  {t.seconds:>8.1f}  {result}", file=out)
    total = sum(t.examples for t in tallies)
    failed = sum(t.failure is not None for t in tallies)
    print(f"{'total':<{width}}  {total:>9}  {elapsed:>8.1f}  {failed} failed", file=out)


def main_fuzz(argv: list[str], out: TextIO | None = None) -> int:
    """Entry point of ``ptc fuzz``; `argv` excludes the ``fuzz`` word itself."""
    out = out or sys.stdout
    args = _parser().parse_args(argv)
    if args.target == "clojure":
        return main_clojure(args, out)
    if args.target == "bad-args":
        return main_bad_args(args, out)
    try:
        import hypothesis  # noqa: F401 - a development dependency, checked up front

        module = _load_properties()
    except ModuleNotFoundError as exc:
        print(f"ptc fuzz: cannot run ({exc}); run it from a checkout with dev extras", file=out)
        return 2
    props = [p for p in module.PROPERTIES if not args.property or p.name in args.property]
    if not props:
        print("ptc fuzz: no such property; known: "
              + ", ".join(p.name for p in module.PROPERTIES), file=out)  # fmt: skip
        return 2
    args.db.mkdir(parents=True, exist_ok=True)
    tallies = {p.name: Tally(p.name) for p in props}
    start = time.perf_counter()
    budget = f"{args.minutes} min" if args.minutes else f"{args.examples or DEFAULT_EXAMPLES}/prop"
    seed_note = f", seed {args.seed}" if args.seed is not None else ""
    print(f"fuzzing signatures: {len(props)} properties, {budget}{seed_note}, db {args.db}",
          file=out, flush=True)  # fmt: skip

    def step(prop: Any, n: int, seed: int | None) -> None:
        t = tallies[prop.name]
        _run_batch(prop, t, n, seed, args.db)
        mark = "ok" if t.failure is None else "FAIL"
        stamp = time.strftime("%M:%S", time.gmtime(time.perf_counter() - start))
        print(f"[{stamp}] {prop.name:<18} {t.examples:>8} examples  {mark}", file=out, flush=True)

    if args.minutes is None:
        for p in props:
            step(p, args.examples or DEFAULT_EXAMPLES, args.seed)
    else:
        deadline = start + args.minutes * 60
        rnd = 0
        while time.perf_counter() < deadline:
            live = [p for p in props if tallies[p.name].failure is None]
            if not live:
                break
            for p in live:
                if time.perf_counter() >= deadline:
                    break
                step(p, BATCH, None if args.seed is None else args.seed + rnd)
            rnd += 1
    _summary(list(tallies.values()), time.perf_counter() - start, out)
    return 0 if all(t.failure is None for t in tallies.values()) else 1


if __name__ == "__main__":
    sys.exit(main_fuzz(sys.argv[1:]))
