"""The generative differential test against Clojure 1.11 (`fuzz/clojure_diff.py`), CI-sized.

A fixed seed, a few hundred generated programs, one JVM batch: every program must agree with
Clojure under the conformance suite's rule. Longer campaigns: `ptc fuzz clojure`. Under
``CI=true`` a missing Clojure fails; elsewhere the Clojure-needing test skips, as
tests/conformance does. The generator checks need no Clojure.
"""

from __future__ import annotations

import io
import os
import re
from pathlib import Path

import pytest

import ptc_compiler
from fuzz import cli, clojure_diff
from fuzz.strategies.clojure_programs import DISABLED, SWITCHES, generate

SEED = 20261130
PROGRAMS = 300


def test_generator_is_deterministic_per_seed() -> None:
    assert generate(7, 40) == generate(7, 40)
    assert generate(7, 40) != generate(8, 40)


@pytest.mark.parametrize("seed", [SEED, 1, 2])
def test_every_generated_program_compiles(seed: int) -> None:
    # A program the generator gets wrong must fail here, not pass for a divergence.
    for i, source in enumerate(generate(seed, PROGRAMS)):
        try:
            ptc_compiler.compile(source)
        except Exception as exc:
            pytest.fail(f"program {i} of seed {seed} does not compile: {exc}\n{source}",
                        pytrace=False)


def test_switches_turn_families_off() -> None:
    assert DISABLED.keys() <= SWITCHES
    # A numeric comparator over strings: generated with every switch on, never with its
    # switch off.
    shape = re.compile(r"\(sort-by (str/lower-case|identity) [<>] ")
    assert any(shape.search(p) for p in generate(SEED, 3000, disabled=frozenset()))
    off = frozenset({"numeric-comparator-on-strings"})
    assert not any(shape.search(p) for p in generate(SEED, 3000, disabled=off))


def test_programs_agree_with_clojure() -> None:
    command = clojure_diff.clojure_command()
    if command is None:
        if os.environ.get("CI") == "true":
            pytest.fail(clojure_diff.clojure_required(), pytrace=False)
        pytest.skip(clojure_diff.clojure_required())
    outcomes, _ = clojure_diff.run_programs(clojure_diff.seed_programs(SEED, PROGRAMS), command)
    assert len(outcomes) == PROGRAMS
    bad = [o for o in outcomes if not o.agree]
    if bad:
        pytest.fail(f"{len(bad)} of {PROGRAMS} programs disagree with Clojure:\n\n"
                    + "\n".join(clojure_diff.describe(o) for o in bad[:10]), pytrace=False)


def test_campaign_command(tmp_path: Path) -> None:
    out = io.StringIO()
    assert cli.main(["clojure", "--programs", "0"], out) == 2
    if clojure_diff.clojure_command() is None:
        if os.environ.get("CI") == "true":
            pytest.fail(clojure_diff.clojure_required(), pytrace=False)
        pytest.skip(clojure_diff.clojure_required())
    report = tmp_path / "report.clj"
    out = io.StringIO()
    code = cli.main(["clojure", "--programs", "30", "--seed", str(SEED), "--out", str(report),
                      "--jobs", "1", "--db", str(tmp_path / "db")], out)
    assert code == 0, out.getvalue()
    assert re.search(r"^total\s+30\s+0$", out.getvalue(), re.M), out.getvalue()
    assert report.read_text(encoding="utf-8").startswith(";; ptc fuzz clojure: seeds")


def test_round_three_families_are_drawn() -> None:
    # LLM-shaped dataset pipelines, their failing and printing variants, the rarer families
    # weighted up, and deeper nesting: each must show up in an ordinary campaign's programs.
    programs = generate(SEED, 2000)
    assert sum("(def data [" in p for p in programs) > 100
    assert any("(def data [" in p and "(println" in p for p in programs)
    assert any("(def data [" in p and " bad" in p for p in programs)
    assert sum(p.startswith(("(when-some", "(if-some")) for p in programs) > 10
    assert sum("(group-by #(get % \"dept\")" in p for p in programs) > 5


def _command_or_skip() -> list[str]:
    command = clojure_diff.clojure_command()
    if command is None:
        if os.environ.get("CI") == "true":
            pytest.fail(clojure_diff.clojure_required(), pytrace=False)
        pytest.skip(clojure_diff.clojure_required())
    return command


def test_the_long_lived_jvm_gives_the_runner_s_results(monkeypatch: pytest.MonkeyPatch) -> None:
    command = _command_or_skip()
    suite = clojure_diff.conformance("suite")
    batch = [suite.Program(pid, "fuzz", src) for pid, src in clojure_diff.seed_programs(SEED, 40)]
    monkeypatch.setenv("CI", "true")  # the runner's own JVM, not its cache
    once, _ = suite.run_oracle(batch, command)
    server = clojure_diff.ClojureServer(command)
    try:
        assert server.run(batch[:20]) == {p.id: once[p.id] for p in batch[:20]}
        assert server.run(batch) == once
        assert server.starts == 1 and server.programs == 60
        monkeypatch.setattr(clojure_diff, "PROGRAMS_PER_JVM", 60)
        assert server.run(batch[:3]) == {p.id: once[p.id] for p in batch[:3]}
        assert server.starts == 2, "replaced after PROGRAMS_PER_JVM programs"
    finally:
        server.close()


def test_a_batch_that_ends_or_hangs_the_jvm_fails_and_the_next_starts_afresh(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    command = _command_or_skip()
    suite = clojure_diff.conformance("suite")
    server = clojure_diff.ClojureServer(command)
    try:
        with pytest.raises(RuntimeError, match=r"ended \(exit status 3\)"):
            server.run([suite.Program("a", "fuzz", "(System/exit 3)")])
        monkeypatch.setattr(clojure_diff, "BATCH_TIMEOUT_S", 3.0)
        with pytest.raises(RuntimeError, match="took more than 3 s"):
            server.run([suite.Program("b", "fuzz", "(loop [] (recur))")])
        monkeypatch.setattr(clojure_diff, "BATCH_TIMEOUT_S", 600.0)
        [r] = server.run([suite.Program("c", "fuzz", "(+ 1 2)")]).values()
        assert (r.status, r.payload) == ("ok", "3") and server.starts == 3
    finally:
        server.close()
