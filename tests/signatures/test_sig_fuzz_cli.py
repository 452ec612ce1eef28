"""The `ptc fuzz signatures` campaign driver (with stand-in properties, so it is quick)."""

from __future__ import annotations

import io
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import strategies as st

from ptc_compiler import fuzz_cli


@dataclass(frozen=True)
class FakeProperty:
    name: str
    strategy: st.SearchStrategy[Any]
    check: Any


def _never_negative(x: int) -> None:
    assert x >= 0


def _fake(monkeypatch: pytest.MonkeyPatch, *props: FakeProperty) -> None:
    module = types.SimpleNamespace(PROPERTIES=props)
    monkeypatch.setattr(fuzz_cli, "_load_properties", lambda: module)


def test_examples_mode_summary(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    _fake(monkeypatch, FakeProperty("holds", st.integers(0, 9), _never_negative))
    out = io.StringIO()
    rc = fuzz_cli.main_fuzz(
        ["signatures", "--examples", "30", "--seed", "1", "--db", str(tmp_path)], out
    )
    text = out.getvalue()
    assert rc == 0
    assert "holds" in text and "0 failed" in text and "examples" in text


def test_failure_is_reported_and_kept(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    _fake(monkeypatch, FakeProperty("breaks", st.integers(), _never_negative))
    out = io.StringIO()
    rc = fuzz_cli.main_fuzz(["signatures", "--examples", "200", "--db", str(tmp_path)], out)
    assert rc == 1
    assert "FAIL" in out.getvalue() and "1 failed" in out.getvalue()
    assert any((tmp_path / "signatures").rglob("*")), "failing example kept in the database"


def test_minutes_mode(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    _fake(monkeypatch, FakeProperty("holds", st.integers(0, 9), _never_negative))
    out = io.StringIO()
    rc = fuzz_cli.main_fuzz(["signatures", "--minutes", "0.01", "--db", str(tmp_path)], out)
    assert rc == 0 and "total" in out.getvalue()


def test_unknown_property(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    _fake(monkeypatch, FakeProperty("holds", st.integers(), _never_negative))
    out = io.StringIO()
    rc = fuzz_cli.main_fuzz(["signatures", "--property", "nope", "--db", str(tmp_path)], out)
    assert rc == 2


def test_budget_options_are_exclusive() -> None:
    with pytest.raises(SystemExit):
        fuzz_cli.main_fuzz(["signatures", "--examples", "1", "--minutes", "1"])
