"""The run's event trace (agent-design §3.11; `ptc_agent.trace`): TLM-05 (the
run-stopped event of a turn-limit carries failure_kind and limit_reason), the events of a
normal and of a failed run, OBV-01's per-turn annotation and counters as trace events, and
PRV-10's "never in a trace" for provider text (with the task, source and values)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from loop_helpers import agent, call, text

from ptc_agent import AgentError, Mission, run_outcome, run_value
from ptc_agent.providers import ProviderFailure, ScriptedProvider
from ptc_agent.run_limits import HostLimits
from ptc_agent.trace import MAX_TEXT, Trace
from ptc_agent.workflow import run_workflow
from ptc_compiler.tools import Tool


def _types(trace: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in trace]


def _stopped(trace: list[dict[str, Any]]) -> dict[str, Any]:
    assert trace[-1]["type"] == "run-stopped"
    assert _types(trace).count("run-stopped") == 1
    return dict(trace[-1]["data"])


def test_TLM_05_run_stopped_of_a_turn_limit_outcome() -> None:
    out, _ = agent([call("1"), call("2")], config={"max_turns": 2})
    assert out.kind == "turn-limit"
    assert _stopped(out.trace) == {
        "status": "subject-failure", "failure_kind": "turn-limit", "limit": "agent_turns",
        "limit_value": 2, "limit_reason": "intermediate-result", "turns": 2, "evaluations": 2,
        "protocol_errors": 0, "events_dropped": 0}


@pytest.mark.parametrize(("script", "reason"), [
    ([call("(/ 1 0)"), call("(/ 2 0)")], "evaluation-error"),
    ([text("no call"), text("still none")], "protocol-error"),
])
def test_TLM_05_run_stopped_of_a_propagated_turn_limit(script: list[Any], reason: str) -> None:
    seen: list[dict[str, Any]] = []
    with pytest.raises(AgentError) as info:
        run_value("t", model=ScriptedProvider(script), config={"max_turns": 2},
                  on_event=seen.append)
    err = info.value
    assert err.code == "turn_limit_exceeded" and err.details["reason"] == reason
    stopped = _stopped(err.trace)
    assert {k: stopped[k] for k in ("status", "failure_kind", "code", "limit", "limit_value",
                                    "limit_reason")} == {
        "status": "failed", "failure_kind": "turn-limit", "code": "turn_limit_exceeded",
        "limit": "agent_turns", "limit_value": 2, "limit_reason": reason}
    assert stopped["protocol_errors"] == (2 if reason == "protocol-error" else 0)
    assert seen == err.trace  # the callback got every event, in order


def test_TLM_05_TLM_04_run_stopped_of_a_turn_limit_inside_pmap() -> None:
    sp = ScriptedProvider([call("1"), call("(/ 1 0)")])
    with pytest.raises(AgentError) as info:
        run_workflow('(pmap (fn [t] (agent.core/run-value t {"max_turns" 2})) ["a"])', model=sp)
    stopped = _stopped(info.value.trace)
    assert (stopped["failure_kind"], stopped["limit"], stopped["limit_value"],
            stopped["limit_reason"]) == ("turn-limit", "agent_turns", 2, "evaluation-error")
    assert info.value.trace[0]["data"] == {"entry": "workflow"}
    assert stopped["turns"] == 2 and stopped["evaluations"] == 2


def test_TLM_05_transcript_limit_is_its_own_failure_kind() -> None:
    with pytest.raises(AgentError) as info:
        run_outcome("t", model=ScriptedProvider([call("1")]),
                    config={"max_transcript_chars": 50})
    stopped = _stopped(info.value.trace)
    assert (stopped["failure_kind"], stopped["limit"], stopped["limit_value"]) == (
        "transcript-limit", "max_transcript_chars", 50)
    assert "limit_reason" not in stopped and stopped["turns"] == 0


def test_OBV_01_events_of_a_normal_run() -> None:
    reads = Tool(lambda a: [1, 2], name="r", effect="read")
    seen: list[dict[str, Any]] = []
    out = run_outcome("t", model=ScriptedProvider([call("(count (tool/r {}))"),
                                                    call("(return (+ *1 1))")]),
                      tools={"r": reads}, on_event=seen.append)
    assert out.value == 3
    assert _types(out.trace) == ["run-started", "agent-action", "evaluation", "agent-action",
                                 "evaluation", "run-stopped"]
    assert [e["seq"] for e in out.trace] == [1, 2, 3, 4, 5, 6]
    assert seen == out.trace
    assert out.trace[0]["data"] == {"entry": "agent.core/run-outcome"}  # no alias configured
    assert out.trace[1]["data"] == {"turn": 1, "kind": "tool-call"}
    first, second = out.trace[2]["data"], out.trace[4]["data"]
    assert (first["mission"], first["outcome"], first["retryable"], first["capability_calls"]) \
        == ("default", "continued", True, 1)
    assert (second["outcome"], second["capability_calls"]) == ("returned", 0)
    assert first["duration_ms"] >= 0 and "code" not in first
    assert _stopped(out.trace) == {"status": "returned", "turns": 2, "evaluations": 2,
                                   "protocol_errors": 0, "events_dropped": 0}
    # the agent-action events are the annotations Outcome.events has always held
    assert [e["data"] for e in out.trace if e["type"] == "agent-action"] == \
        [e["data"] for e in out.events]


def test_OBV_01_events_of_failed_runs() -> None:
    out, _ = agent([call("(/ 1 0)"), call('(fail "no")')])
    assert _types(out.trace)[1:-1] == ["agent-action", "evaluation"] * 2
    assert out.trace[2]["data"]["outcome"] == "evaluation_error"
    assert out.trace[2]["data"]["code"] == "arithmetic_error"
    assert out.trace[4]["data"]["outcome"] == "failed"
    assert _stopped(out.trace)["failure_kind"] == "model-program-failed"
    # a provider failure: the closed kind and reason, and the alias
    out, _ = agent([ProviderFailure("provider_error", "rate_limited", True, "slow down")])
    stopped = _stopped(out.trace)
    assert (stopped["status"], stopped["failure_kind"], stopped["provider_kind"],
            stopped["provider_reason"], stopped["model"]) == (
        "provider-failure", "provider-failure", "provider_error", "rate_limited", "model")
    # a run that fails before any turn: invalid configuration
    with pytest.raises(AgentError) as info:
        run_outcome("t", model=ScriptedProvider([]), config={"max_turns": 0})
    stopped = _stopped(info.value.trace)
    assert (stopped["status"], stopped["failure_kind"], stopped["code"], stopped["turns"]) == (
        "failed", "invalid-agent-config", "invalid_agent_config", 0)
    # a refused evaluation is traced with its reason and does not count as an evaluation
    with pytest.raises(AgentError) as info:
        run_outcome("t", model=ScriptedProvider([call("1"), call("2")]),
                    limits=HostLimits(subordinate_evaluations=1))
    refused = [e["data"] for e in info.value.trace if e["type"] == "evaluation"][-1]
    assert refused == {"mission": "default", "outcome": "limit_exceeded",
                       "reason": "subordinate_evaluations"}
    assert _stopped(info.value.trace)["evaluations"] == 1


def test_PRV_10_trace_holds_no_task_source_values_or_provider_text() -> None:
    def leaky(args):  # type: ignore[no-untyped-def]  # untyped: receives the map
        return {"secret": "TOOL-SECRET"}

    script = [call('(do (println "PRINT-SECRET") (tool/leak {:q "SOURCE-SECRET"}))'),
              call('(get (tool/leak {}) "FAIL-SECRET-KEY")'),
              call('(nth [] 5 "x" "ERROR-SECRET")'),
              ProviderFailure("provider_error", "denied", False, "PROVIDER-SECRET text")]
    seen: list[dict[str, Any]] = []
    out = run_outcome("TASK-SECRET: do it", model=ScriptedProvider(script),
                      tools={"leak": Tool(leaky, effect="read")}, on_event=seen.append)
    assert out.status == "provider-failure"
    dumped = json.dumps(out.trace) + json.dumps(seen)
    assert "SECRET" not in dumped
    out, _ = agent([call('(fail {:why "FAIL-SECRET"})')])
    assert "SECRET" not in json.dumps(out.trace)
    for event in out.trace:  # flat scalars only
        assert all(v is None or isinstance(v, str | int | float | bool)
                   for v in event["data"].values())


def test_trace_is_bounded_and_a_failing_callback_never_changes_the_run() -> None:
    seen: list[dict[str, Any]] = []
    trace = Trace(seen.append, max_events=3)
    for i in range(5):
        trace.emit("agent-action", {"turn": i + 1, "kind": "tool-call", "mission": "m" * 500})
    kept = trace.stop({"status": "returned"})
    assert _types(kept) == ["agent-action", "agent-action", "run-stopped"]
    assert kept[-1]["data"]["events_dropped"] == 3 and kept[-1]["data"]["turns"] == 5
    assert len(seen) == 6  # the callback still sees every event
    assert len(kept[0]["data"]["mission"]) == MAX_TEXT
    trace.emit("agent-action", {"turn": 9})  # nothing follows run-stopped
    assert len(trace.events) == 3

    def broken(event: dict[str, Any]) -> None:
        raise RuntimeError("sink down")

    missions = {"m" * 300: Mission()}
    out = run_outcome("t", model=ScriptedProvider([call("(return 1)")]), on_event=broken,
                      missions=missions, config={"mission": "m" * 300})
    assert out.value == 1
    stopped = _stopped(out.trace)
    assert stopped["sink_failed"] is True and stopped["status"] == "returned"
    assert len(out.trace[2]["data"]["mission"]) == MAX_TEXT
    with pytest.raises(TypeError):
        Trace("not callable")  # type: ignore[arg-type]


def test_trace_of_a_crashing_provider_names_only_the_exception_type() -> None:
    def crash(request):  # type: ignore[no-untyped-def]
        raise RuntimeError("CRASH-SECRET")

    seen: list[dict[str, Any]] = []
    with pytest.raises(RuntimeError):
        run_outcome("t", model=ScriptedProvider([crash]), on_event=seen.append)
    stopped = seen[-1]["data"]
    assert (seen[-1]["type"], stopped["failure_kind"], stopped["code"]) == (
        "run-stopped", "host-exception", "RuntimeError")
    assert "SECRET" not in json.dumps(seen)
