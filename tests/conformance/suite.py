"""Loading the conformance programs and divergences, and running the Clojure oracle.

Programs live in ``programs/<area>.clj``: each starts with a marker line ``;; @<id>`` and runs
until the next marker; the file name is the program's area tag. Lines before the first
marker (and ``;;;`` lines anywhere) are commentary. Every program must be valid Clojure 1.11
and valid PTC-Lisp.

Known divergences live in ``divergences.toml``, one table per program id::

    [some-id]
    reason = "decision 26: / always returns a float"
    ptc = "\"5.0\""          # our documented result, as EDN text
    # or: ptc_error = "type_error"   (our documented error code)
    # optional with ptc: output = "..."   (what we print, when that is the divergence)

The oracle is one JVM running ``clojure_runner.clj`` over a batch file holding every program.
Its output is cached under the system temp dir, keyed by a hash of the batch and the runner,
except under ``CI=true``, where it always runs fresh.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import subprocess
import tempfile
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path

import edn

HERE = Path(__file__).parent
PROGRAMS = HERE / "programs"
RUNNER = HERE / "clojure_runner.clj"
DIVERGENCES = HERE / "divergences.toml"
CLOJURE_REQUIRED = "Clojure 1.11 is required: apt-get install clojure"
_JARS = ("/usr/share/java/clojure.jar", "/usr/share/java/clojure-1.11.jar")


@dataclass(frozen=True, slots=True)
class Program:
    id: str
    area: str
    source: str


@dataclass(frozen=True, slots=True)
class Divergence:
    reason: str
    ptc: str | None  # EDN text of our documented value
    ptc_error: str | None  # or our documented error code
    output: str | None = None  # our documented printed output (println), when it differs


@dataclass(frozen=True, slots=True)
class OracleResult:
    status: str  # "ok" or "error"
    payload: str  # pr-str text of the value, or the exception class name
    output: str  # what the program printed


def _parse_file(path: Path) -> list[Program]:
    programs: list[Program] = []
    current: str | None = None
    lines: list[str] = []
    for line in [*path.read_text(encoding="utf-8").splitlines(), ";; @"]:
        if line.startswith(";; @"):
            if current is not None:
                programs.append(Program(current, path.stem, "\n".join(lines).strip()))
            current, lines = line[4:].strip(), []
        elif current is not None and not line.startswith(";;;"):
            lines.append(line)
    return programs


def load_programs() -> list[Program]:
    """Every program, in file order; ids are unique across files."""
    programs = [p for path in sorted(PROGRAMS.glob("*.clj")) for p in _parse_file(path)]
    ids = [p.id for p in programs]
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    if dupes:
        raise ValueError(f"duplicate program ids: {dupes}")
    return programs


def load_divergences() -> dict[str, Divergence]:
    raw = tomllib.loads(DIVERGENCES.read_text(encoding="utf-8"))
    return {
        pid: Divergence(t["reason"], t.get("ptc"), t.get("ptc_error"), t.get("output"))
        for pid, t in raw.items()
    }


def batch_text(programs: list[Program]) -> str:
    """One EDN vector ``["id" "source"]`` per line: the runner's input."""
    return "".join(f"[{_edn_str(p.id)} {_edn_str(p.source)}]\n" for p in programs)


def _edn_str(s: str) -> str:
    escaped = s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return '"' + escaped.replace("\t", "\\t").replace("\r", "\\r") + '"'


def clojure_command() -> list[str] | None:
    """How to start the oracle, or None when Clojure is not installed."""
    java = shutil.which("java")
    jar = os.environ.get("PTC_CLOJURE_JAR") or next((j for j in _JARS if Path(j).exists()), None)
    if java and jar:
        return [java, "-cp", jar, "clojure.main"]
    clojure = shutil.which("clojure")
    return [clojure] if clojure else None


def run_oracle(programs: list[Program], command: list[str]) -> tuple[dict[str, OracleResult], float]:
    """Clojure's result for every program and the batch's wall time (0.0 when cached)."""
    batch = batch_text(programs)
    key = hashlib.sha256((batch + RUNNER.read_text(encoding="utf-8")).encode()).hexdigest()[:24]
    cache_dir = Path(tempfile.gettempdir()) / "ptc-conformance"
    cached = cache_dir / f"{key}.out"
    fresh = os.environ.get("CI") == "true"
    elapsed = 0.0
    cache_dir.mkdir(parents=True, exist_ok=True)
    # Under pytest-xdist every worker asks for the batch: a lock lets one run Clojure while
    # the others wait for its output, and "fresh" (CI) means once per test run, not per worker.
    run_id = os.environ.get("PYTEST_XDIST_TESTRUNUID", f"pid{os.getpid()}")
    stamp = cache_dir / f"{key}.{run_id}.done"
    with open(cache_dir / f"{key}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not cached.exists() or (fresh and not stamp.exists()):
            batch_file = cache_dir / f"{key}.{os.getpid()}.batch"
            batch_file.write_text(batch, encoding="utf-8")
            started = time.monotonic()
            proc = subprocess.run(
                [*command, str(RUNNER), str(batch_file)],
                capture_output=True, text=True, encoding="utf-8", timeout=600, check=False,
            )
            elapsed = time.monotonic() - started
            batch_file.unlink(missing_ok=True)
            if proc.returncode != 0:
                raise RuntimeError(
                    f"Clojure runner failed ({proc.returncode}):\n{proc.stderr[-4000:]}"
                )
            tmp = cache_dir / f"{key}.{os.getpid()}.tmp"
            tmp.write_text(proc.stdout, encoding="utf-8")
            tmp.replace(cached)
            stamp.touch()
    results: dict[str, OracleResult] = {}
    for entry in edn.read_all(cached.read_text(encoding="utf-8")):
        assert isinstance(entry, list) and len(entry) == 4, entry
        pid, status, payload, output = entry
        assert isinstance(status, edn.Kw)
        results[str(pid)] = OracleResult(status.name, str(payload), str(output))
    return results, elapsed
