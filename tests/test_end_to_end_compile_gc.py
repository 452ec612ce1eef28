"""A cold compile pauses the cyclic garbage collector and always restores its state."""

from __future__ import annotations

import gc
import itertools
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from ptc_compiler import api
from ptc_compiler.analyzer import analyze
from ptc_runtime.errors import PtcError

_fresh = itertools.count()


def _source() -> str:
    """A program never compiled before in this process (the cache would skip the work)."""
    return f"(let [x {next(_fresh)}] (+ x 1))"


@pytest.fixture
def gc_enabled() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def test_collector_is_paused_while_compiling(
    gc_enabled: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[bool] = []

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.append(gc.isenabled())
        return analyze(*args, **kwargs)

    monkeypatch.setattr("ptc_compiler.api.analyze", spy)
    api.compile(_source())
    assert seen == [False]
    assert gc.isenabled()


def test_collector_is_restored_after_a_failed_compile(gc_enabled: None) -> None:
    with pytest.raises(PtcError):
        api.compile(f"(+ 1 undefined-{next(_fresh)})")
    with pytest.raises(PtcError):
        api.compile(f"(+ 1 {next(_fresh)}")  # reader error
    assert gc.isenabled()


def test_a_disabled_collector_stays_disabled() -> None:
    was = gc.isenabled()
    gc.disable()
    try:
        api.compile(_source())
        assert not gc.isenabled()
    finally:
        if was:
            gc.enable()


def test_concurrent_compiles_restore_the_collector_once(gc_enabled: None) -> None:
    errors: list[BaseException] = []
    sources = [[_source() for _ in range(30)] for _ in range(4)]

    def work(batch: list[str]) -> None:
        try:
            for source in batch:
                api.compile(source)
        except BaseException as exc:  # reported below, not lost in the thread
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(batch,)) for batch in sources]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert gc.isenabled()
