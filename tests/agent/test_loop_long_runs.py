"""Long agent loops: the trusted workflow's host-call budget follows the configured turns.

Every turn calls several host capabilities (model request, annotation, evaluation, ...), so
the runtime's default budget of 256 tool calls per run would stop a loop near `max_turns`
128. These tests drive loops to the ceiling with a scripted provider that never returns
before the last turn.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from loop_helpers import call, encoded_len, last_content

from ptc_agent import run_outcome, run_phased
from ptc_agent.failures import AgentError
from ptc_agent.loop import (
    HOST_CALLS_PER_TURN,
    MAX_TOTAL_TURNS,
    config_transcript_chars,
    config_turns,
    host_call_budget,
    request_arg_bytes,
)
from ptc_agent.providers import ScriptedProvider
from ptc_agent.run_limits import HostLimits
from ptc_agent.workflow import run_workflow
from ptc_compiler.tools import Tool
from ptc_runtime.limits import DEFAULT_LIMITS


def _never_returns_until(turns: int, final: str = "(return *1)") -> list[dict[str, Any]]:
    """Ordinary values on every turn but the last, which returns."""
    return [call(f"(+ {i} 1)", call_id=f"c{i}") for i in range(turns - 1)] + [call(final)]


def test_a_128_turn_loop_completes() -> None:
    sp = ScriptedProvider(_never_returns_until(128))
    out = run_outcome("Count.", model=sp, config={"max_turns": 128})
    assert out.status == "returned" and out.value == 127  # *1 of turn 127: (+ 126 1)
    assert out.evaluations == 128 and len(sp.requests) == 128
    assert "Turns remaining: 1 turn" in last_content(sp)
    # Well past the runtime's default budget of 256 calls: at least 3 host calls per turn.
    assert 3 * 128 > DEFAULT_LIMITS.max_tool_calls


def test_a_128_turn_loop_exhausts_as_a_turn_limit_not_a_call_budget() -> None:
    sp = ScriptedProvider([call(f"(+ {i} 1)", call_id=f"c{i}") for i in range(128)])
    out = run_outcome("Count.", model=sp, config={"max_turns": 128})
    assert out.kind == "turn-limit" and out.error["reason"] == "intermediate-result"
    assert out.error["value"] == 128 and out.evaluations == 128


def test_phased_128_turns_with_a_contract_and_terminal_phase() -> None:
    # Contract checks and terminal-source checks add host calls to every turn.
    items = _never_returns_until(100, final="(return 1)")
    items += [call("7")] * 27 + [call("(return 42)")]
    phases = [{"mission": "default", "max_turns": 100},
              {"mission": "default", "max_turns": 28, "terminal_only": True}]
    assert run_phased("t", phases, model=ScriptedProvider(items), signature=":int") == 42


def test_the_budget_follows_the_configuration() -> None:
    assert config_turns(None) == 4 and config_turns({"max_turns": 128}) == 128
    assert config_turns({"phases": [{"max_turns": 3}, {"max_turns": 5}]}) == 8
    for bad in ({"max_turns": 0}, {"max_turns": "9"}, {"phases": "x"},
                {"phases": [{"max_turns": True}]}):
        assert config_turns(bad) == MAX_TOTAL_TURNS  # agent.core reports the bad value
    assert host_call_budget(4) == DEFAULT_LIMITS.max_tool_calls  # never below the default
    assert host_call_budget(128) >= HOST_CALLS_PER_TURN * 128


def test_mission_programs_keep_their_own_call_budget() -> None:
    calls: list[int] = []
    tools = {"ping": Tool(lambda a: calls.append(1) or 1, effect="read")}
    n = DEFAULT_LIMITS.max_tool_calls + 1
    sp = ScriptedProvider([call(f"(doseq [i (range {n})] (tool/ping {{}}))"), call("(return 1)")])
    out = run_outcome("t", model=sp, tools=tools, config={"max_turns": 128})
    assert out.value == 1
    assert len(calls) == DEFAULT_LIMITS.max_tool_calls  # the 257th call was refused
    assert "tool_call_limit" in last_content(sp)


def _field(outcome: Any, key: str) -> Any:
    value = {getattr(k, "name", k): v for k, v in outcome.items()}.get(key)
    return getattr(value, "name", value)


def test_workflow_budget_from_capability_calls() -> None:
    # Two loops of 70 turns each: 140 model requests, about 420 host calls in one workflow.
    program = ('(pcalls #(agent.core/run-outcome "a" {"max_turns" 70}) '
               '#(agent.core/run-outcome "b" {"max_turns" 70}))')
    outcomes = run_workflow(program, model=ScriptedProvider([call("1")] * 140),
                            limits=HostLimits(workflow_capability_calls=140))
    assert [_field(o, "kind") for o in outcomes] == ["turn-limit", "turn-limit"]
    # A lower quota ends the loops with the named model-call quota, not a call-budget error.
    outcomes = run_workflow(program, model=ScriptedProvider([call("1")] * 140),
                            limits=HostLimits(workflow_capability_calls=100))
    assert "provider-failure" in [_field(o, "status") for o in outcomes]


# ---------------------------------------------------------------- request size


def test_large_model_requests_are_bounded_by_max_transcript_chars() -> None:
    # Seven 50,000-character programs: a ~350 kB request, above the runtime's default cap on
    # one tool call's JSON arguments (262,144 bytes) but within max_transcript_chars.
    big = '(count "' + "x" * 50_000 + '")'
    items = [call(big, call_id=f"c{i}") for i in range(7)] + [call("(return *1)")]
    sp = ScriptedProvider(items)
    out = run_outcome("t", model=sp, config={"max_turns": 8, "max_transcript_chars": 1_000_000})
    assert out.value == 50_000 and len(sp.requests) == 8
    assert 7 * 50_000 < encoded_len(sp, 7) <= 1_000_000


def test_a_multibyte_transcript_within_the_default_limit_completes() -> None:
    # About 180,000 code points (< 262,144) but about 360,000 UTF-8 bytes.
    wide = '(count "' + "é" * 30_000 + '")'
    items = [call(wide, call_id=f"c{i}") for i in range(6)] + [call("(return *1)")]
    sp = ScriptedProvider(items)
    out = run_outcome("t", model=sp, config={"max_turns": 7})
    assert out.value == 30_000
    last = json.dumps(sp.requests[6].to_json(), ensure_ascii=False, separators=(",", ":"))
    assert len(last.encode("utf-8")) > DEFAULT_LIMITS.tool_arg_bytes


def test_the_transcript_limit_still_decides() -> None:
    big = '(count "' + "x" * 50_000 + '")'
    sp = ScriptedProvider([call(big, call_id=f"c{i}") for i in range(8)])
    with pytest.raises(AgentError) as info:
        run_outcome("t", model=sp, config={"max_turns": 8, "max_transcript_chars": 200_000})
    assert info.value.code == "runtime_limit_exceeded"
    assert info.value.details["limit"] == "max_transcript_chars"


def test_the_argument_cap_follows_the_configuration() -> None:
    assert config_transcript_chars(None) == 262_144
    assert config_transcript_chars({"max_transcript_chars": 1000}) == 1000
    assert config_transcript_chars({"max_transcript_chars": 0}) == 1_000_000
    assert request_arg_bytes(1000) == DEFAULT_LIMITS.tool_arg_bytes
    assert request_arg_bytes(1_000_000) >= 4 * 1_000_000


def test_TLM_03_run_outcome_returns_the_turn_limit_as_data() -> None:
    for turns, script, reason in [(2, [call("1"), call("2")], "intermediate-result"),
                                  (1, [call("(/ 1 0)")], "evaluation-error")]:
        sp = ScriptedProvider(script)
        out = run_outcome("t", model=sp, config={"max_turns": turns})  # data, no exception
        assert out.status == "subject-failure" and out.kind == "turn-limit"
        assert out.error == {"limit": "agent_turns", "value": turns, "reason": reason}
        assert len(sp.requests) == turns
