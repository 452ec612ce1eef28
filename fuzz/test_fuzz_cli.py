"""The campaigns' command: ``python -m fuzz`` from a checkout, and ``ptc fuzz`` handing over to
it, or saying clearly that the campaigns are not installed (the wheel has no `fuzz`)."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

import ptc_compiler
from ptc_compiler import fuzz_cli

ROOT = Path(__file__).resolve().parent.parent


def _run(argv: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=300, check=False)


def test_python_m_fuzz_runs_a_campaign(tmp_path: Path) -> None:
    r = _run([sys.executable, "-m", "fuzz", "host-data", "--cases", "4", "--jobs", "1",
              "--quiet", "--db", str(tmp_path)], ROOT)  # fmt: skip
    assert r.returncode == 0, r.stdout + r.stderr
    assert "ptc fuzz host-data: 4 cases on 1 jobs" in r.stdout
    assert (tmp_path / "failures.sqlite").is_file()


def test_ptc_fuzz_hands_over_to_the_checkout(tmp_path: Path) -> None:
    ptc = Path(sys.executable).parent / "ptc"
    r = _run([str(ptc), "fuzz", "bad-args", "--calls", "5", "--only", "inc", "--jobs", "1",
              "--db", str(tmp_path)], tmp_path)  # fmt: skip
    assert r.returncode == 0, r.stdout + r.stderr
    assert "usage: ptc fuzz" in _run([str(ptc), "fuzz", "nope"], tmp_path).stderr


def test_ptc_fuzz_without_the_campaigns_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "fuzz.cli", None)  # as where `fuzz` is not importable
    out = io.StringIO()
    assert fuzz_cli.main_fuzz(["host-data"], out) == 2
    assert out.getvalue().strip() == fuzz_cli.NOT_INSTALLED


def test_an_installed_package_without_the_checkout() -> None:
    # ptc_compiler imported, then the checkout's root taken off the path: what a wheel
    # install sees. The shipped package must not put the checkout back on the path.
    code = (f"import sys, ptc_compiler.fuzz_cli as f; root = {str(ROOT)!r}\n"
            "sys.path[:] = [p for p in sys.path if p not in ('', root)]\n"
            "rc = f.main_fuzz(['host-data', '--cases', '1'])\n"
            "assert not any(p == root for p in sys.path), 'path changed'\n"
            "sys.exit(rc)")  # fmt: skip
    r = _run([sys.executable, "-c", code], Path(ptc_compiler.__file__).parent.parent.parent)
    assert r.returncode == 2, r.stdout + r.stderr
    assert r.stdout.strip() == fuzz_cli.NOT_INSTALLED


def test_the_shipped_package_never_edits_the_import_path() -> None:
    shipped = Path(ptc_compiler.__file__).parent
    offenders = [p.name for p in shipped.rglob("*.py") if "sys.path" in p.read_text("utf-8")]
    assert offenders == []
