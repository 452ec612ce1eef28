"""Prelude tests never touch the user's cache or key: every test gets its own cache
directory and its own prelude key (created on first use under a private config dir)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    cache = tmp_path / "cache"
    monkeypatch.setenv("PTC_PRELUDE_CACHE", str(cache))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("PTC_PRELUDE_KEY_FILE", raising=False)
    return cache
