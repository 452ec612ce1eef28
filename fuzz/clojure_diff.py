"""The generative differential campaign against Clojure 1.11: generate, run both, compare.

Programs come from `fuzz/strategies/clojure_programs.py`. Clojure runs them all in one JVM
through the conformance suite's runner (`tests/conformance/suite.py`, `clojure_runner.clj`),
and the comparison is the conformance suite's rule (`tests/conformance/compare.py`): an
error on both sides is agreement, values compare structurally, printed output must be equal.
Both the CI test (`fuzz/test_clojure_differential.py`) and `ptc fuzz clojure`
(`ptc_compiler/fuzz_cli.py`) use this module.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import ptc_compiler
from fuzz.strategies.clojure_programs import generate

CONFORMANCE = Path(__file__).resolve().parent.parent / "tests" / "conformance"
TIMEOUT_MS = 10_000


def conformance(name: str) -> ModuleType:
    """One of the conformance suite's modules (`suite`, `compare`, `edn`), from this checkout.

    They are top-level modules of tests/conformance (pytest puts that folder on the path for
    its own tests); the campaign puts it there too, so both share one copy of each.
    """
    if str(CONFORMANCE) not in sys.path:
        sys.path.insert(0, str(CONFORMANCE))
    return importlib.import_module(name)


@dataclass(frozen=True, slots=True)
class Outcome:
    """One program's result on both sides."""

    id: str
    source: str
    clojure: str  # Clojure's value (pr-str), or "error <class>"; printed output appended
    ours: str  # our value (pr-str), or "error <code>: <message>"; printed output appended
    agree: bool


def program_id(seed: int, index: int) -> str:
    """The id of the `index`-th program of `seed`; `ptc fuzz clojure` reports use it."""
    return f"s{seed}-{index:05d}"


def clojure_command() -> list[str] | None:
    """How to start Clojure (the conformance suite's finder), or None when it is missing."""
    command: list[str] | None = conformance("suite").clojure_command()
    return command


def clojure_required() -> str:
    """The message of a missing Clojure (the conformance suite's)."""
    return str(conformance("suite").CLOJURE_REQUIRED)


def compare_one(pid: str, source: str, status: str, payload: str, output: str) -> Outcome:
    """Run `source` here and compare with Clojure's (status, payload, output)."""
    edn, compare = conformance("edn"), conformance("compare")
    result = ptc_compiler.run(source, timeout_ms=TIMEOUT_MS, native=True)
    if status == "error":
        theirs = f"error {payload}"
        agree = not result.ok
    else:
        theirs = payload if not output else f"{payload}   (printed {output!r})"
        try:
            value = edn.read(payload)
        except (ValueError, RecursionError) as exc:  # the test reader's limits, not ours
            return Outcome(pid, source, f"{theirs}   (unreadable here: {type(exc).__name__})",
                           compare.describe_ours(result), False)
        agree = bool(result.ok and compare.same(value, result.value) and result.output == output)
    return Outcome(pid, source, theirs, compare.describe_ours(result), agree)


def run_programs(
    programs: list[tuple[str, str]],
    command: list[str],
    progress: Callable[[int, int], None] | None = None,
) -> tuple[list[Outcome], float]:
    """Every (id, source) through one Clojure batch and here; the outcomes and the JVM's time."""
    suite = conformance("suite")
    batch = [suite.Program(pid, "fuzz", src) for pid, src in programs]
    oracle, elapsed = suite.run_oracle(batch, command)
    outcomes: list[Outcome] = []
    for i, (pid, src) in enumerate(programs):
        clj = oracle[pid]
        outcomes.append(compare_one(pid, src, str(clj.status), str(clj.payload), str(clj.output)))
        if progress is not None:
            progress(i + 1, len(programs))
    return outcomes, float(elapsed)


def seed_programs(
    seed: int, n: int, disabled: frozenset[str] | None = None
) -> list[tuple[str, str]]:
    """The (id, source) pairs of seed `seed` (`disabled` as for `generate`)."""
    return [(program_id(seed, i), src) for i, src in enumerate(generate(seed, n, disabled))]


def describe(o: Outcome) -> str:
    """A disagreement as text: the program, Clojure's result and ours."""
    return f";; {o.id}\n{o.source}\n;; clojure: {o.clojure}\n;; ours:    {o.ours}\n"
