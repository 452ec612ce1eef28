"""`ptc compile -o` and `ptc run --prelude` with `--key-file`, through the real command line.

The key file names the key that signs artifacts when they are compiled and authenticates
them when they are loaded. An artifact loads only under the key it was signed with: a
wrong key (another file, or the per-user default) fails with the typed
`artifact_unauthenticated` and runs nothing; a key file others can read is refused before
anything is written or loaded. Loading happens on the host, so `run` is checked in both
modes.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

CORE = '(ns lib.core "Core.")\n(defn double [x] (* 2 x))\n'
#: Generous: a cold interpreter start, a compile and (isolated) a worker start, on a loaded machine.
CLI_TIMEOUT_S = 120


def _env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PTC_")}
    env["XDG_CONFIG_HOME"] = str(tmp_path / "config")  # the per-user default key lives here
    env["PTC_PRELUDE_CACHE"] = str(tmp_path / "cache")
    return env


def _ptc(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ptc_compiler.cli", *args],
        env=_env(tmp_path),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=CLI_TIMEOUT_S,
        check=False,
    )


def _key_file(path: Path, mode: int = 0o600) -> Path:
    path.write_text(os.urandom(32).hex())
    os.chmod(path, mode)
    return path


def _compiled(tmp_path: Path, key: Path) -> Path:
    src = tmp_path / "core.clj"
    src.write_text(CORE)
    out = tmp_path / "out"
    done = _ptc(tmp_path, "compile", str(src), "-o", str(out), "-q", "--key-file", str(key))
    assert done.returncode == 0, done.stderr
    artifact = out / "lib.core.ptcc"
    assert artifact.is_file()
    return artifact


@pytest.mark.parametrize("mode", ["in-process", "isolated"])
def test_the_right_key_loads_and_a_wrong_one_is_a_typed_error(tmp_path: Path, mode: str) -> None:
    right = _key_file(tmp_path / "build.key")
    artifact = _compiled(tmp_path, right)
    run = ("run", "--mode", mode, "--prelude", str(artifact), "-e", "(lib.core/double 21)")

    ok = _ptc(tmp_path, *run, "--key-file", str(right))
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.strip() == "42"

    wrong = _key_file(tmp_path / "other.key")
    bad = _ptc(tmp_path, *run, "--key-file", str(wrong))
    assert bad.returncode == 1
    assert bad.stdout == ""  # nothing ran
    assert "artifact_unauthenticated" in bad.stderr
    assert "Traceback" not in bad.stderr

    default = _ptc(tmp_path, *run)  # the per-user key, which did not sign it
    assert default.returncode == 1
    assert "artifact_unauthenticated" in default.stderr and "Traceback" not in default.stderr


def test_an_artifact_signed_by_default_needs_no_key_file(tmp_path: Path) -> None:
    src = tmp_path / "core.clj"
    src.write_text(CORE)
    out = tmp_path / "out"
    assert _ptc(tmp_path, "compile", str(src), "-o", str(out), "-q").returncode == 0
    ok = _ptc(tmp_path, "run", "--prelude", str(out), "-e", "(lib.core/double 2)")
    assert ok.returncode == 0 and ok.stdout.strip() == "4", ok.stderr
    other = _key_file(tmp_path / "other.key")
    bad = _ptc(tmp_path, "run", "--prelude", str(out), "--key-file", str(other), "-e", "1")
    assert bad.returncode == 1 and "artifact_unauthenticated" in bad.stderr


def test_a_key_file_others_can_read_is_refused_before_anything_is_written(
    tmp_path: Path,
) -> None:
    shared = _key_file(tmp_path / "shared.key", 0o644)
    src = tmp_path / "core.clj"
    src.write_text(CORE)
    out = tmp_path / "out"
    done = _ptc(tmp_path, "compile", str(src), "-o", str(out), "-q", "--key-file", str(shared))
    assert done.returncode == 1
    assert "prelude_key_insecure" in done.stderr and "Traceback" not in done.stderr
    assert not out.exists() or not any(out.iterdir())
    ran = _ptc(tmp_path, "run", "--prelude", str(src), "--key-file", str(shared), "-e", "1")
    assert ran.returncode == 1 and "prelude_key_insecure" in ran.stderr


def test_a_missing_key_file_is_a_typed_error(tmp_path: Path) -> None:
    src = tmp_path / "core.clj"
    src.write_text(CORE)
    missing = tmp_path / "nope.key"
    done = _ptc(tmp_path, "run", "--prelude", str(src), "--key-file", str(missing), "-e", "1")
    assert done.returncode == 1
    assert "prelude_key" in done.stderr and "Traceback" not in done.stderr


def test_key_file_without_preludes_is_a_usage_error(tmp_path: Path) -> None:
    key = _key_file(tmp_path / "build.key")
    done = _ptc(tmp_path, "run", "--key-file", str(key), "-e", "1")
    assert done.returncode != 0 and "--prelude" in done.stderr
    done = _ptc(tmp_path, "compile", "--key-file", str(key), "-e", "1")
    assert done.returncode != 0 and "-o OUT_DIR" in done.stderr
