"""agent-design §3.12 Request/protocol (PRO-*) and Budget/prompt (BUD-*) lines."""

from __future__ import annotations

import json
from typing import Any

import pytest
from loop_helpers import agent, call, last_content, messages

from ptc_agent import run_outcome
from ptc_agent.providers import (
    RUN_PTC_LISP_TOOL,
    Alias,
    ModelRouter,
    Response,
    ScriptedProvider,
    ToolCall,
)
from ptc_compiler.tools import Tool


def test_PRO_01_exactly_one_strict_tool() -> None:
    _, sp = agent([call("(return 1)")])
    tools = sp.requests[0].tools
    assert [t.name for t in tools] == ["run_ptc_lisp"]
    assert dict(tools[0].parameters) == {
        "type": "object", "additionalProperties": False, "required": ["program"],
        "properties": {"program": {"type": "string"}}}
    assert tools[0] == RUN_PTC_LISP_TOOL


def test_PRO_02_request_shape_and_model_alias_on_every_turn() -> None:
    _, sp = agent([call("1"), call("(return 1)")])
    wire = sp.requests[0].to_json()
    assert set(wire) == {"system", "messages", "tools"}
    p = ScriptedProvider([call("1"), call("(return 1)")])
    out = run_outcome("t", router=ModelRouter([Alias("fast", p)]), config={"model": "fast"})
    assert out.value == 1
    assert [r.model for r in p.requests] == ["fast", "fast"]


def test_PRO_03_valid_call_executes() -> None:
    out, sp = agent([call("(return (+ 1 2))", call_id="call-7")])
    assert out.status == "returned" and out.value == 3 and len(sp.requests) == 1
    assert out.evaluations == 1


@pytest.mark.parametrize("shape", [
    {"id": "c1", "name": "run_ptc_lisp", "args": {"program": "(return 5)"}},
    {"id": "c1", "name": "run_ptc_lisp", "args": json.dumps({"program": "(return 5)"})},
    {"id": "c1", "name": "run_ptc_lisp", "arguments": json.dumps({"program": "(return 5)"})},
    {"id": "c1", "function": {"name": "run_ptc_lisp", "arguments": '{"program": "(return 5)"}'}},
    {"id": "c1", "function": {"name": "run_ptc_lisp", "arguments": {"program": "(return 5)"}}},
])
def test_PRO_04_argument_shapes_accepted(shape: dict[str, Any]) -> None:
    out, _ = agent([{"content": "", "tool_calls": [shape]}])
    assert out.value == 5


def test_PRO_05_narration_kept_in_correlated_pair() -> None:
    _, sp = agent([call("(+ 1 1)", call_id="k9", text="I will add."), call("(return 1)")])
    msgs = messages(sp)
    assistant, tool = msgs[1], msgs[2]
    assert assistant["role"] == "assistant" and assistant["content"] == "I will add."
    assert assistant["tool_calls"][0]["id"] == "k9"
    assert tool["role"] == "tool" and tool["tool_call_id"] == "k9"


def _bad(call_: dict[str, Any] | None = None, content: str = "", calls: list[Any] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"content": content}
    if calls is not None:
        out["tool_calls"] = calls
    elif call_ is not None:
        out["tool_calls"] = [call_]
    return out


PROTOCOL_CASES = {
    "missing-tool-call": _bad(),
    "assistant-text-without-tool-call": _bad(content="Here is my plan."),
    "multiple-or-missing-tool-calls": _bad(calls=[
        {"id": "a", "name": "run_ptc_lisp", "args": {"program": "1"}},
        {"id": "b", "name": "run_ptc_lisp", "args": {"program": "2"}}]),
    "wrong-tool-name": _bad({"id": "a", "name": "python", "args": {"program": "1"}}),
    "invalid-tool-call-id": Response("", (ToolCall(" ", "run_ptc_lisp", {"program": "1"}),)),
    "invalid-json-arguments": _bad({"id": "a", "name": "run_ptc_lisp", "arguments": "{not json"}),
    "extra-or-missing-arguments": _bad({"id": "a", "name": "run_ptc_lisp",
                                        "args": {"program": "1", "x": 2}}),
    "program-not-string": _bad({"id": "a", "name": "run_ptc_lisp", "args": {"program": 12}}),
    "program-empty": _bad({"id": "a", "name": "run_ptc_lisp", "args": {"program": "  "}}),
    "program-too-large": _bad({"id": "a", "name": "run_ptc_lisp", "args": {"program": "x" * 50}}),
}


@pytest.mark.parametrize("reason", sorted(PROTOCOL_CASES))
def test_PRO_06_protocol_reasons_classified(reason: str) -> None:
    out, sp = agent([PROTOCOL_CASES[reason], call("(return 1)")],
                    config={"max_program_chars": 40})
    assert out.value == 1
    assert f"Protocol error: {reason}." in last_content(sp)
    assert out.protocol_errors == 1


def test_PRO_07_protocol_error_spends_turn_with_user_correction() -> None:
    _, sp = agent([_bad(), call("(return 1)")])
    msgs = messages(sp)
    assert [m["role"] for m in msgs] == ["user", "user"]
    assert "missing-tool-call" in msgs[-1]["content"]
    assert "Turns remaining: 3 turns" in msgs[-1]["content"]


def test_PRO_08_narration_kept_bounded_without_tool_calls() -> None:
    _, sp = agent([_bad(content="n" * 5000), call("(return 1)")])
    msgs = messages(sp)
    assert msgs[1]["role"] == "assistant" and "tool_calls" not in msgs[1]
    assert len(msgs[1]["content"]) == 2000 and msgs[1]["content"].endswith("[narration truncated]")
    assert msgs[2]["role"] == "user"


def test_PRO_09_malformed_calls_never_replayed() -> None:
    for reason in ("wrong-tool-name", "multiple-or-missing-tool-calls", "invalid-json-arguments"):
        _, sp = agent([PROTOCOL_CASES[reason], call("(return 1)")])
        assert all("tool_calls" not in m for m in messages(sp))


def test_PRO_10_program_too_large_keeps_pair_with_size_and_limit() -> None:
    _, sp = agent([PROTOCOL_CASES["program-too-large"], call("(return 1)")],
                  config={"max_program_chars": 40})
    msgs = messages(sp)
    assert msgs[1]["role"] == "assistant" and msgs[1]["tool_calls"][0]["id"] == "a"
    assert msgs[2]["role"] == "tool" and msgs[2]["tool_call_id"] == "a"
    assert "50 characters" in msgs[2]["content"] and "limit is 40" in msgs[2]["content"]


def test_PRO_12_no_kernel_guidance_in_assistant_messages() -> None:
    _, sp = agent([_bad(content="thinking"), call("(/ 1 0)", text="try"), call("(return 1)")])
    for m in messages(sp):
        if m["role"] == "assistant":
            assert m["content"] in ("thinking", "try")


def test_PRO_13_protocol_error_counter() -> None:
    out, _ = agent([_bad(), _bad(content="x"), call("1"), call("(return 1)")])
    assert out.protocol_errors == 2
    out, _ = agent([call("(return 1)")])
    assert out.protocol_errors == 0


def test_PRO_14_protocol_error_on_last_turn_is_turn_limit() -> None:
    out, _ = agent([call("1"), _bad()], config={"max_turns": 2})
    assert out.status == "subject-failure" and out.kind == "turn-limit"
    assert out.error["reason"] == "protocol-error" and out.error["value"] == 2


# ---------------------------------------------------------------- budget and prompt


def test_BUD_01_initial_message_is_task_plus_budget() -> None:
    _, sp = agent([call("(return 1)")], task="Count things.", config={"max_turns": 3})
    assert messages(sp, 0)[0]["content"] == (
        "Count things.\n\nTurns remaining: 3 turns (including your next program).")


def test_BUD_02_every_feedback_ends_with_budget() -> None:
    _, sp = agent([call("1"), call("(/ 1 0)"), _bad(), call("(return 1)")], config={"max_turns": 5})
    contents = [m["content"] for m in messages(sp) if m["role"] in ("tool", "user")]
    assert [c.rsplit("\n", 1)[-1] for c in contents[1:]] == [
        "Turns remaining: 4 turns (including your next program).",
        "Turns remaining: 3 turns (including your next program).",
        "Turns remaining: 2 turns (including your next program)."]


def test_BUD_03_final_turn_requires_return_or_fail() -> None:
    _, sp = agent([call("1"), call("(return 1)")], config={"max_turns": 2})
    last = last_content(sp)
    assert "Turns remaining: 1 turn (including" in last
    assert "must call (return value) or (fail value)" in last


def test_BUD_04_consolidation_guidance_when_at_or_below_threshold() -> None:
    _, sp = agent([call("1"), call("2"), call("3"), call("(return 1)")],
                  config={"max_turns": 4, "consolidate_at_turns_remaining": 2})
    first = messages(sp, 0)[0]["content"]
    assert "consolidate" not in first
    assert "consolidate" not in messages(sp, 1)[-1]["content"]  # 3 remaining
    assert "consolidate" in messages(sp, 2)[-1]["content"]  # 2 remaining
    assert "consolidate" not in messages(sp, 3)[-1]["content"]  # final-turn line instead
    assert all("consolidate" not in (r.system or "") for r in sp.requests)


def test_BUD_05_system_prompt_identical_across_turns() -> None:
    _, sp = agent([call("1"), _bad(), call("(/ 1 0)"), call("(return 1)")])
    assert len({r.system for r in sp.requests}) == 1


def test_BUD_07_prompt_lists_tools_and_exports() -> None:
    prelude = '(ns shop "Shop helpers.") (defn total "Sum of prices." {:signature "(xs [:int]) -> :int"} [xs] (reduce + xs))'
    tool = Tool(lambda a: [1], name="prices", signature="() -> [:int]", effect="read",
                doc="All prices.")
    _, sp = agent([call("(return 1)")], tools={"prices": tool}, preludes=[prelude])
    system = sp.requests[0].system or ""
    assert "Available API" in system
    assert "(shop/total xs)" in system and "Sum of prices." in system
    _, sp = agent([call("(return 1)")], tools={"prices": tool})  # no facade: the tool itself
    system = sp.requests[0].system or ""
    assert "tool/prices" in system and "All prices." in system


def test_BUD_09_data_keys_without_values() -> None:
    _, sp = agent([call("(return 1)")], data={"orders": [{"secret": "VALUE-42"}]})
    system = sp.requests[0].system or ""
    assert "data/orders" in system and "VALUE-42" not in system


def test_BUD_10_empty_inventory_is_explicit_and_domain_blind() -> None:
    _, sp = agent([call("(return 1)")])
    system = sp.requests[0].system or ""
    assert "nothing is available" in system
    assert "data/input" not in system
    assert "262144" not in system and "64000" not in system
