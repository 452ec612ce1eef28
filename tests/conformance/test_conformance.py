"""Differential conformance: every program in ``programs/`` against Clojure 1.11.

One test case per program (the id is the program id). A case passes when our result agrees
with Clojure's under the rule in `compare` — or, for a program listed in
``divergences.toml``, when our result is the documented one (``docs/divergences.md`` says why).
An error on both sides is agreement; the error kinds are not compared (Clojure exception
classes have no counterpart), but ours is shown in the message.
"""

from __future__ import annotations

import os

import edn
import pytest
from compare import canon_edn, canon_ptc, describe_ours, same
from suite import (
    CLOJURE_REQUIRED,
    Divergence,
    OracleResult,
    Program,
    clojure_command,
    load_divergences,
    load_programs,
    run_oracle,
)

import ptc_compiler

PROGRAMS = load_programs()
DIVERGENCES = load_divergences()
TIMEOUT_MS = 10_000


@pytest.fixture(scope="session")
def oracle() -> dict[str, OracleResult]:
    command = clojure_command()
    if command is None:
        if os.environ.get("CI") == "true":
            pytest.fail(CLOJURE_REQUIRED, pytrace=False)
        pytest.skip(CLOJURE_REQUIRED)
    results, elapsed = run_oracle(PROGRAMS, command)
    if elapsed:
        print(f"\nClojure batch: {len(PROGRAMS)} programs in {elapsed:.1f}s")
    return results


def test_divergences_name_programs() -> None:
    ids = {p.id for p in PROGRAMS}
    assert sorted(set(DIVERGENCES) - ids) == []
    for pid, d in DIVERGENCES.items():
        assert d.reason and (d.ptc is None) != (d.ptc_error is None), pid
        assert d.output is None or d.ptc is not None, pid


def _theirs(r: OracleResult) -> str:
    if r.status == "error":
        return f"error {r.payload}"
    return r.payload if not r.output else f"{r.payload}   (printed {r.output!r})"


def _check_divergence(p: Program, d: Divergence, result: ptc_compiler.RunResult,
                      clj: OracleResult) -> None:
    where = f"program {p.id} [{p.area}] (documented divergence: {d.reason})\n{p.source}\n"
    if d.ptc_error is not None:
        met = result.error is not None and result.error.code == d.ptc_error
        documented = f"error {d.ptc_error}"
    else:
        met = result.ok and canon_edn(edn.read(d.ptc or "nil")) == canon_ptc(result.value)
        documented = str(d.ptc)
        if d.output is not None:
            met = met and result.output == d.output
            documented += f"   (printed {d.output!r})"
    if not met:
        pytest.fail(f"{where}documented ours: {documented}\nactual ours:     {describe_ours(result)}",
                    pytrace=False)
    agrees = (clj.status == "error" and not result.ok) or (
        clj.status == "ok" and result.ok and same(edn.read(clj.payload), result.value)
        and result.output == clj.output)
    if agrees:
        pytest.fail(f"{where}now agrees with Clojure ({_theirs(clj)}): remove the divergence",
                    pytrace=False)


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.id for p in PROGRAMS])
def test_program(program: Program, oracle: dict[str, OracleResult]) -> None:
    clj = oracle[program.id]
    result = ptc_compiler.run(program.source, timeout_ms=TIMEOUT_MS, native=True)
    divergence = DIVERGENCES.get(program.id)
    if divergence is not None:
        _check_divergence(program, divergence, result, clj)
        return
    message = (f"program {program.id} [{program.area}]\n{program.source}\n"
               f"clojure: {_theirs(clj)}\nours:    {describe_ours(result)}")
    if clj.status == "error":
        agree = not result.ok
    else:
        agree = (result.ok and same(edn.read(clj.payload), result.value)
                 and result.output == clj.output)
    if not agree:
        pytest.fail(message, pytrace=False)
