"""Shared helpers for the prelude tests."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pytest

from ptc_compiler.api import RunResult
from ptc_compiler.prelude import Environment, PreludeError


def env(
    *sources: str, tools: Mapping[str, Callable[..., Any]] | None = None, **kw: Any
) -> Environment:
    return Environment(list(sources), tools=tools, cache_dir=False, **kw)


def ok(e: Environment, program: str, **kw: Any) -> Any:
    r: RunResult = e.run(program, **kw)
    assert r.ok, r.error
    return r.value


def failure(e: Environment, program: str) -> RunResult:
    r: RunResult = e.run(program)
    assert not r.ok
    assert r.error is not None
    return r


def compile_error(sources: Sequence[str], code: str, **kw: Any) -> PreludeError:
    with pytest.raises(PreludeError) as info:
        Environment(list(sources), cache_dir=False, **kw)
    assert info.value.code == code, info.value
    return info.value
