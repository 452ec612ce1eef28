"""`ptc fuzz signatures [--examples N | --minutes M] [--seed S]`: the signature fuzz campaign.

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
    return ap


def _load_properties() -> ModuleType:
    """Import `fuzz.properties` from the current checkout (cwd or the package's parent)."""
    try:
        return importlib.import_module("fuzz.properties")
    except ModuleNotFoundError as exc:
        if exc.name not in ("fuzz", "fuzz.properties"):
            raise
    here = Path(__file__).resolve().parent.parent
    for root in (Path.cwd(), here):
        if (root / "fuzz" / "properties.py").is_file():
            sys.path.insert(0, str(root))
            sys.modules.pop("fuzz", None)
            return importlib.import_module("fuzz.properties")
    raise ModuleNotFoundError("fuzz.properties")


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
