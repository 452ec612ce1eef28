"""Helpers for the agent-loop tests: scripted responses and a shared prelude cache."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ptc_compiler.agent import Outcome, run_outcome
from ptc_compiler.agent.providers import ScriptedProvider


@pytest.fixture(autouse=True, scope="session")
def _agent_prelude_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Compile agent.core once per session into a private cache (never the user's)."""
    cache = tmp_path_factory.mktemp("agent-prelude-cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PTC_PRELUDE_CACHE", str(cache))
        yield cache


def call(program: Any, call_id: str = "c1", text: str = "", **extra: Any) -> dict[str, Any]:
    """A model response with one run_ptc_lisp call."""
    return {"content": text,
            "tool_calls": [{"id": call_id, "name": "run_ptc_lisp", "args": {"program": program}}],
            **extra}


def text(content: str) -> dict[str, Any]:
    return {"content": content}


def agent(items: list[Any], task: str = "Do the task.", **kw: Any) -> tuple[Outcome, ScriptedProvider]:
    sp = ScriptedProvider(items)
    return run_outcome(task, model=sp, **kw), sp


def messages(sp: ScriptedProvider, i: int = -1) -> list[dict[str, Any]]:
    return [m.to_json() for m in sp.requests[i].messages]


def last_content(sp: ScriptedProvider, i: int = -1) -> str:
    return str(messages(sp, i)[-1]["content"])


def encoded_len(sp: ScriptedProvider, i: int = 0) -> int:
    return len(json.dumps(sp.requests[i].to_json(), ensure_ascii=False, separators=(",", ":")))
