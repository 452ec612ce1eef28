"""The `ptc fuzz signatures` campaign driver (with the demo properties, so it is quick)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from ptc_compiler import fuzz_cli

DEMO = ["--properties-module", "fuzz.campaign.demo_properties", "--jobs", "1"]


def test_examples_mode_summary(tmp_path: Path) -> None:
    out = io.StringIO()
    rc = fuzz_cli.main_fuzz(
        ["signatures", *DEMO, "--property", "holds", "--examples", "30", "--seed", "1",
         "--db", str(tmp_path)], out)  # fmt: skip
    text = out.getvalue()
    assert rc == 0
    assert "holds" in text and "total" in text and "cases/s" in text


def test_failure_is_reported_and_kept(tmp_path: Path) -> None:
    out = io.StringIO()
    rc = fuzz_cli.main_fuzz(["signatures", *DEMO, "--property", "breaks", "--examples", "200",
                             "--db", str(tmp_path)], out)  # fmt: skip
    assert rc == 1
    assert "bucket breaks" in out.getvalue()
    assert any((tmp_path / "signatures").rglob("*")), "failing example kept in the database"


def test_minutes_mode(tmp_path: Path) -> None:
    out = io.StringIO()
    rc = fuzz_cli.main_fuzz(["signatures", *DEMO, "--property", "holds", "--minutes", "0.01",
                             "--db", str(tmp_path)], out)  # fmt: skip
    assert rc == 0 and "total" in out.getvalue()


def test_unknown_property(tmp_path: Path) -> None:
    out = io.StringIO()
    rc = fuzz_cli.main_fuzz(["signatures", *DEMO, "--property", "nope", "--db", str(tmp_path)],
                            out)  # fmt: skip
    assert rc == 2


def test_budget_options_are_exclusive() -> None:
    with pytest.raises(SystemExit):
        fuzz_cli.main_fuzz(["signatures", "--examples", "1", "--minutes", "1"])
