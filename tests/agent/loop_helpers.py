"""Helpers for the agent-loop tests: scripted responses and what the requests held.

The private prelude cache every agent test runs with is `conftest._agent_prelude_cache`.
"""

from __future__ import annotations

import json
from typing import Any

from ptc_agent import Outcome, run_outcome
from ptc_agent.providers import ScriptedProvider


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
