"""Regenerate replay.jsonl: run the loop against a scripted model in record mode.

    .venv/bin/python examples/agent/record_fixture.py

The scripted turns stand in for a model; a live recording works the same way with a live
provider as the recorder's `inner`.
"""

from __future__ import annotations

import json
from pathlib import Path

from ptc_agent.providers import Alias, ModelRouter, ReplayProvider, ScriptedProvider

HERE = Path(__file__).parent


def turn(call_id: str, program: str, narration: str) -> dict[str, object]:
    return {
        "content": narration,
        "tool_calls": [{"id": call_id, "name": "run_ptc_lisp", "args": {"program": program}}],
        "finish_reason": "tool_calls",
        "tokens": {"input": 0, "output": 0, "cache_creation": 0, "cache_read": 0},
    }


SCRIPT = [
    turn("call_1", "(tool/order-statuses)", "First I check which statuses exist."),
    turn(
        "call_2",
        '(def paid (tool/list-orders {:status "paid"}))\n(count paid)',
        "Now I fetch the paid orders and keep them.",
    ),
    turn(
        "call_3",
        "(return {:revenue (reduce + (map :amount paid)) :count (count paid)})",
        "I have everything I need.",
    ),
]


def main() -> None:
    from ptc_agent.cli import main_agent

    fixture = HERE / "replay.jsonl"
    fixture.unlink(missing_ok=True)
    scripted = ScriptedProvider(SCRIPT)
    recorder = ReplayProvider(fixture, mode="record", inner=scripted)
    spec = json.loads((HERE / "agent.json").read_text(encoding="utf-8"))
    # Same alias name as the replay run ("replay"): the alias is part of the request hash.
    router = ModelRouter([Alias("replay", recorder)])
    from ptc_agent import run_outcome
    from ptc_agent.cli import _load_tools

    outcome = run_outcome(
        (HERE / spec["task_file"]).read_text(encoding="utf-8").strip(),
        tools=_load_tools(HERE / spec["tools"]),
        router=router,
        config=spec["config"],
        signature=spec["signature"],
    )
    router.close()
    print(outcome.status, outcome.value)
    raise SystemExit(main_agent(["run", str(HERE / "agent.json")]))


if __name__ == "__main__":
    main()
