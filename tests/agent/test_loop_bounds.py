"""More §3.12 lines: observation ceilings (OBS-08), resource kills (EVL-14), capability-error
disclosure (EFF-14), invalid arguments (PRV-14) and forgery resistance (PRV-11, RES-08)."""

from __future__ import annotations

import pytest
from loop_helpers import agent, call, last_content

from ptc_agent.failures import Terminal
from ptc_agent.host import AgentHost
from ptc_agent.missions import Mission
from ptc_agent.providers import Alias, ModelRouter, ScriptedProvider
from ptc_compiler.tools import Tool


def _body(feedback: str) -> str:
    return feedback.split('">\n', 1)[1].split("\n</untrusted-output>")[0]


def test_OBS_08_ceiling_exact_and_smaller_than_marker() -> None:
    _, sp = agent([call("(vec (range 30000))"), call("(return 1)")],
                  config={"max_observation_chars": 65_536})
    assert len(_body(last_content(sp))) == 65_536
    _, sp = agent([call("(vec (range 100))"), call("(return 1)")],
                  config={"max_observation_chars": 5})
    assert len(_body(last_content(sp))) == 5


def test_EVL_14_timeout_after_reads_is_correctable() -> None:
    reads = Tool(lambda a: 1, name="r", effect="read")
    out, sp = agent([call("(tool/r {}) (loop [i 0] (recur (inc i)))"), call("(return 2)")],
                    tools={"r": reads}, timeout_ms=200)
    assert out.value == 2
    fb = last_content(sp)
    assert "rolled back" in fb and "Do not repeat" not in fb


def test_EFF_14_capability_error_feedback_is_kind_and_reason_only() -> None:
    def failing(args):  # type: ignore[no-untyped-def]
        return {"status": "error", "kind": "protocol_error", "reason": "invalid_arguments",
                "retryable?": True, "details": {"submitted": "USER-SECRET"}}

    out, sp = agent([call("(fail (tool/f {:q \"USER-SECRET\"}))"), call("(return 1)")],
                    tools={"f": Tool(failing, effect="read")})
    assert out.value == 1
    fb = last_content(sp)
    assert "kind: protocol_error, reason: invalid_arguments" in fb
    assert "USER-SECRET" not in fb


def test_PRV_14_invalid_json_arguments_get_protocol_correction() -> None:
    bad = {"content": "", "tool_calls": [{"id": "x", "name": "run_ptc_lisp",
                                          "arguments": "{\"program\": "}]}
    out, sp = agent([bad, call("(return 1)")])
    assert out.value == 1 and out.protocol_errors == 1
    assert "invalid-json-arguments" in last_content(sp)


def test_PRV_11_programs_cannot_forge_trusted_failures() -> None:
    out, _ = agent([call('(tool/kernel-failure {"code" "llm_provider_failed"})'),
                     call("(return 1)")])
    assert out.value == 1  # the mission has no such tool: an ordinary evaluation error
    host = AgentHost(ModelRouter([Alias("m", ScriptedProvider())]), {"default": Mission()})
    with pytest.raises(Terminal):
        host.report_failure({"code": "llm_provider_failed",
                             "envelope": {"status": "error", "kind": "provider_error"}})
    assert host.failure is not None and host.failure.code == "workflow_error"


def test_RES_08_fail_maps_cannot_forge_contract_exhaustion() -> None:
    out, _ = agent([call('(fail {:code "result_contract_failed" :agent_turns 4})')],
                   signature="{a :int}")
    assert out.status == "subject-failure" and out.kind == "model-program-failed"
