"""The generative differential campaign against Clojure 1.11: generate, run both, compare.

Programs come from `fuzz/strategies/clojure_programs.py`. Clojure runs them through the
conformance suite's runner (`tests/conformance/suite.py`, `clojure_runner.clj`): the CI test
runs one batch in one JVM; a campaign keeps one long-lived JVM per process
(`ClojureServer`, `fuzz/clojure_server.clj`) and sends it batch after batch, so no shard pays
a JVM start and a Clojure load. The comparison is the conformance suite's rule (`tests/conformance/compare.py`): an
error on both sides is agreement, values compare structurally, printed output must be equal.
Both the CI test (`fuzz/test_clojure_differential.py`) and `ptc fuzz clojure`
(`fuzz/cli.py`) use this module.
"""

from __future__ import annotations

import atexit
import importlib
import os
import random
import selectors
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import ptc_compiler
from fuzz.strategies.clojure_programs import generate, program

CONFORMANCE = Path(__file__).resolve().parent.parent / "tests" / "conformance"
TIMEOUT_MS = 10_000
SERVER = Path(__file__).resolve().parent / "clojure_server.clj"

#: JVM options of the campaign's oracle. Measured here on one 200-program batch: the default
#: JVM spends 3.8 s of CPU in 2.2 s of wall time, most of it in its optimising (C2) compiler
#: threads, which never pay off on code that is evaluated once; C1 alone with the serial
#: collector spends 0.6 s of CPU per warm batch in 0.6 s of wall time. One core's worth per
#: process is what lets N processes use N cores.
JVM_OPTIONS = ("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-XX:ActiveProcessorCount=1")
#: Seconds one batch may take in the long-lived JVM before it is taken for hung.
BATCH_TIMEOUT_S = 600.0
#: Programs one long-lived JVM evaluates before it is replaced by a fresh one: every `eval`
#: loads classes, so an endless campaign restarts it now and then to bound its memory.
PROGRAMS_PER_JVM = 20_000


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


class ClojureServer:
    """One long-lived Clojure process that evaluates batches with the conformance runner.

    Its results are those of `suite.run_oracle` for the same batch (the same runner
    function evaluates each program in a fresh namespace), without the cache and without a
    JVM start per batch. A batch that fails or hangs kills the process and raises
    RuntimeError; the next batch starts a fresh one.
    """

    def __init__(self, command: list[str]) -> None:
        self.command = list(command)
        self.proc: subprocess.Popen[bytes] | None = None
        self.programs = 0  # evaluated by the current process
        self.starts = 0  # processes started so far
        self._err: Any = None
        self._dir = tempfile.mkdtemp(prefix="ptc-fuzz-clj-")

    def _start(self) -> subprocess.Popen[bytes]:
        env = dict(os.environ)
        # JAVA_TOOL_OPTIONS reaches the JVM whether `command` is java itself or a launcher
        # script such as Debian's `clojure`
        env["JAVA_TOOL_OPTIONS"] = " ".join([env.get("JAVA_TOOL_OPTIONS", ""), *JVM_OPTIONS]).strip()
        self._err = tempfile.TemporaryFile(dir=self._dir)
        runner = str(conformance("suite").RUNNER)
        self.proc = subprocess.Popen([*self.command, str(SERVER), runner], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self._err, env=env)  # fmt: skip
        self.programs = 0
        self.starts += 1
        return self.proc

    def close(self) -> None:
        """End the process (closing its input ends it; kill it if it does not stop)."""
        proc, self.proc = self.proc, None
        if proc is None:
            return
        try:
            assert proc.stdin is not None
            proc.stdin.close()
            proc.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            proc.kill()
            proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()
        if self._err is not None:
            self._err.close()

    def _failed(self, why: str) -> RuntimeError:
        err = b""
        if self._err is not None:
            self._err.seek(0)
            err = self._err.read()[-4000:]
        if self.proc is not None:
            self.proc.kill()
        self.close()
        return RuntimeError(f"Clojure server {why}:\n{err.decode('utf-8', 'replace')}")

    def run(self, programs: list[Any]) -> dict[str, Any]:
        """Clojure's `OracleResult` of every `suite.Program` of the batch, by id."""
        suite, edn = conformance("suite"), conformance("edn")
        if self.proc is not None and self.programs >= PROGRAMS_PER_JVM:
            self.close()
        proc = self.proc if self.proc is not None and self.proc.poll() is None else self._start()
        batch = Path(self._dir) / "batch.edn"
        batch.write_text(suite.batch_text(programs), encoding="utf-8")
        assert proc.stdin is not None and proc.stdout is not None
        try:
            proc.stdin.write(f"{batch}\n".encode())
            proc.stdin.flush()
        except OSError as exc:
            raise self._failed(f"did not take the batch ({exc})") from None
        text = self._read_batch(proc)
        self.programs += len(programs)
        results: dict[str, Any] = {}
        for entry in edn.read_all(text):
            assert isinstance(entry, list) and len(entry) == 4, entry
            pid, status, payload, output = entry
            results[str(pid)] = suite.OracleResult(status.name, str(payload), str(output))
        missing = [p.id for p in programs if p.id not in results]
        if missing:
            raise self._failed(f"gave no result for {len(missing)} programs ({missing[0]}, ...)")
        return results

    def _read_batch(self, proc: subprocess.Popen[bytes]) -> str:
        """The lines the process prints up to the batch's end marker."""
        assert proc.stdout is not None
        end = b"\n:ptc.fuzz/batch-end\n"
        fd = proc.stdout.fileno()
        buf = bytearray(b"\n")
        deadline = time.monotonic() + BATCH_TIMEOUT_S
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while not buf.endswith(end):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise self._failed(f"took more than {BATCH_TIMEOUT_S:.0f} s for one batch")
                if not sel.select(timeout=left):
                    continue
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    raise self._failed(f"ended (exit status {proc.wait()})")
                buf += chunk
        return buf[1 : -len(end) + 1].decode("utf-8")


_SERVERS: dict[tuple[str, ...], ClojureServer] = {}


def server(command: list[str]) -> ClojureServer:
    """This process's long-lived Clojure for `command` (started on its first batch)."""
    key = tuple(command)
    if key not in _SERVERS:
        _SERVERS[key] = ClojureServer(command)
    return _SERVERS[key]


@atexit.register
def _close_servers() -> None:
    for s in _SERVERS.values():
        s.close()
        shutil.rmtree(s._dir, ignore_errors=True)


def run_programs(
    programs: list[tuple[str, str]],
    command: list[str],
    progress: Callable[[int, int], None] | None = None,
    *,
    oracle: ClojureServer | None = None,
) -> tuple[list[Outcome], float]:
    """Every (id, source) through one Clojure batch and here; the outcomes and the JVM's time.

    Without `oracle` the batch is one JVM run of the conformance runner (cached as the
    conformance suite caches); with one, it goes to that long-lived process.
    """
    suite = conformance("suite")
    batch = [suite.Program(pid, "fuzz", src) for pid, src in programs]
    if oracle is None:
        oracle_results, elapsed = suite.run_oracle(batch, command)
    else:
        started = time.monotonic()
        oracle_results = oracle.run(batch)
        elapsed = time.monotonic() - started
    outcomes: list[Outcome] = []
    for i, (pid, src) in enumerate(programs):
        clj = oracle_results[pid]
        outcomes.append(compare_one(pid, src, str(clj.status), str(clj.payload), str(clj.output)))
        if progress is not None:
            progress(i + 1, len(programs))
    return outcomes, float(elapsed)


def seed_programs(
    seed: int, n: int, disabled: frozenset[str] | None = None
) -> list[tuple[str, str]]:
    """The (id, source) pairs of seed `seed` (`disabled` as for `generate`)."""
    return [(program_id(seed, i), src) for i, src in enumerate(generate(seed, n, disabled))]


#: Per seed, where this process's generator stands: (programs drawn, the generator's rng).
_GENERATORS: dict[int, tuple[int, random.Random]] = {}


def seed_slice(seed: int, start: int, stop: int) -> list[tuple[str, str]]:
    """Programs `start`..`stop`-1 of seed `seed`, as `seed_programs(seed, stop)[start:]`.

    Generation is sequential per seed, so the generator is kept where the last slice left
    it: a process that runs a seed's shards in order draws each program once, instead of
    drawing all earlier programs again for every shard.
    """
    drawn, rng = _GENERATORS.pop(seed, (0, None))
    if rng is None or drawn > start:
        drawn, rng = 0, random.Random(seed)
    for _ in range(start - drawn):
        program(rng, None)
    out = [(program_id(seed, i), program(rng, None)) for i in range(start, stop)]
    _GENERATORS[seed] = (stop, rng)
    return out


def describe(o: Outcome) -> str:
    """A disagreement as text: the program, Clojure's result and ours."""
    return f";; {o.id}\n{o.source}\n;; clojure: {o.clojure}\n;; ours:    {o.ours}\n"
