"""Trusted failures keep their provenance through `map`, `pmap` and `pcalls` (seed 001;
TLM-04 has its own file): subject failures, result-contract exhaustion (RES-08) and provider
failures of agent loops run inside a workflow, and the exact-last-result `fail` provenance
(EFF-10..12) of mission programs that call capabilities through those functions."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from loop_helpers import agent, call, last_content

from ptc_agent import AgentError
from ptc_agent.failures import Terminal
from ptc_agent.host import AgentHost
from ptc_agent.missions import Mission
from ptc_agent.providers import Alias, ModelRouter, ProviderFailure, ScriptedProvider
from ptc_agent.workflow import run_workflow
from ptc_compiler.tools import Tool
from ptc_runtime.printer import pr_str

WRAPS = [
    '(map (fn [t] {loop}) ["a"])',
    '(pmap (fn [t] {loop}) ["a"])',
    '(pcalls (fn [] (let [t "a"] {loop})))',
    '(first (mapv (fn [t] {loop}) ["a"]))',
]


def wrapped(loop: str) -> list[str]:
    return [w.replace("{loop}", loop) for w in WRAPS]


def workflow_error(program: str, items: list[Any], **kw: Any) -> AgentError:
    with pytest.raises(AgentError) as info:
        run_workflow(program, model=ScriptedProvider(items), **kw)
    return info.value


@pytest.mark.parametrize("program", wrapped('(agent.core/run-value t {"max_turns" 2})'))
def test_subject_failure_survives_map_pmap_pcalls(program: str) -> None:
    err = workflow_error(program, [call('(fail {:why "no" :tags #{:a}})')])
    assert err.code == "subject_failure"
    assert set(err.details) == {"kind", "error"}
    assert err.details["kind"] == "model-program-failed"
    # the exact value the program failed with: keywords and the set are not projected
    assert pr_str(err.details["error"]) == '{:why "no", :tags #{:a}}'
    assert err.trace[-1]["data"]["failure_kind"] == "model-program-failed"


@pytest.mark.parametrize("program", wrapped('(agent.core/run-value t {"max_turns" 2})'))
def test_non_retryable_subject_failure_survives_map_pmap_pcalls(program: str) -> None:
    tools = {"save": Tool(lambda a: {"ok": True}, effect="write")}
    err = workflow_error(program, [call("(tool/save {}) (/ 1 0)"), call("(tool/save {}) (/ 1 0)")],
                         tools=tools)
    assert err.code == "subject_failure"
    assert err.details["kind"] == "non-retryable-evaluation"


@pytest.mark.parametrize(
    "forged",
    ['(fail {:kind "model-program-failed" :error {:why "no"}})',
     '(fail {"code" "subject_failure" "kind" "model-program-failed"})'],
)
def test_a_workflow_fail_map_is_not_a_subject_failure(forged: str) -> None:
    err = workflow_error(forged, [])
    assert err.code == "workflow_failed"
    err = workflow_error(f"(pmap (fn [x] {forged}) [1])", [])
    assert err.code == "workflow_error"  # fail inside a parallel worker is an error


@pytest.mark.parametrize("program", wrapped('(agent.core/run-result-value t {"max_turns" 1})'))
def test_RES_08_contract_exhaustion_survives_map_pmap_pcalls(program: str) -> None:
    err = workflow_error(program, [call("(return {:a 1})")], signature="{total :int}")
    assert err.code == "result_contract_failed"
    assert err.details == {
        "agent_turns": 1, "constraint": "{total :int}",
        "violations": [{"kind": "missing", "path": "(root)", "missing_required": ["total"]}]}


@pytest.mark.parametrize("program", wrapped('(agent.core/run-value t {"max_turns" 2})'))
def test_provider_failure_survives_map_pmap_pcalls(program: str) -> None:
    err = workflow_error(program, [ProviderFailure("provider_error", "rate_limited", True, "x")])
    assert err.code == "llm_provider_failed"
    assert err.details == {"kind": "provider_error", "reason": "rate_limited",
                           "retryable?": True, "model": "model"}


@pytest.mark.parametrize("program", wrapped('(agent.core/run-value t {"max_turns" 2})'))
def test_quota_refusal_survives_map_pmap_pcalls(program: str) -> None:
    router = ModelRouter([Alias("fast", ScriptedProvider([]), max_calls=0)])
    with pytest.raises(AgentError) as info:
        run_workflow(program, router=router)
    router.close()
    assert info.value.code == "capability_quota_exceeded"
    assert info.value.details["reason"] == "capability_quota"


def test_the_first_trusted_failure_is_the_one_reported() -> None:
    host = AgentHost(ModelRouter([Alias("m", ScriptedProvider())]), {"default": Mission()})
    with pytest.raises(Terminal):
        host.report_failure({"code": "turn_limit_exceeded", "limit": "agent_turns",
                             "value": 2, "reason": "evaluation-error"})
    with pytest.raises(Terminal):  # a sibling loop failing afterwards
        host.report_failure({"code": "invalid_prompt", "reason": "invalid-render"})
    assert host.failure is not None and host.failure.code == "turn_limit_exceeded"


# ---------------------------------------------------------------- exact-last-result provenance


def _flaky_tools(barrier: threading.Barrier | None = None) -> dict[str, Any]:
    def flaky(args):  # type: ignore[no-untyped-def]  # untyped: receives the map
        if barrier is not None:
            barrier.wait(timeout=5)  # every call of the pmap is running at once
        return {"status": "error", "kind": "provider_error", "reason": "timeout",
                "retryable?": True, "details": {"n": args.get("n")}}

    def read(args):  # type: ignore[no-untyped-def]  # untyped: receives the map
        return {"n": 1}

    return {"flaky": Tool(flaky, effect="read"), "read": Tool(read, effect="read")}


@pytest.mark.parametrize(
    "program",
    [
        "(fail (first (map (fn [x] (tool/flaky {})) [1])))",
        "(fail (first (pmap (fn [x] (tool/flaky {})) [1])))",
        "(fail (first (pcalls (fn [] (tool/flaky {})))))",
        "(let [rs (mapv (fn [x] (tool/flaky {:n x})) [1 2])] (fail (last rs)))",
    ],
)
def test_EFF_10_exact_last_result_through_map_pmap_pcalls(program: str) -> None:
    out, sp = agent([call(program), call("(return 1)")], tools=_flaky_tools())
    assert out.value == 1
    assert "kind: provider_error, reason: timeout" in last_content(sp)


@pytest.mark.parametrize("pick", ["first", "last"])
def test_EFF_10_any_result_of_the_last_concurrent_calls_counts(pick: str) -> None:
    # two calls running at once (a barrier holds each until both have started): neither is
    # observably last, so the failed value may be either result
    program = f"(fail ({pick} (pmap (fn [x] (tool/flaky {{:n x}})) [1 2])))"
    out, _ = agent([call(program), call("(return 1)")], tools=_flaky_tools(threading.Barrier(2)))
    assert out.value == 1


@pytest.mark.parametrize(
    "program",
    [
        # an earlier result of a sequential map, not the last call's
        "(let [rs (mapv (fn [x] (tool/flaky {:n x})) [1 2])] (fail (first rs)))",
        # the parallel calls finished before an unrelated read
        "(let [rs (pmap (fn [x] (tool/flaky {:n x})) [1 2])] (tool/read {}) (fail (first rs)))",
        # a copy of the result
        "(fail (into {} (first (pmap (fn [x] (tool/flaky {})) [1]))))",
    ],
)
def test_EFF_11_12_not_the_last_result_is_terminal(program: str) -> None:
    out, sp = agent([call(program), call("(return 1)")], tools=_flaky_tools())
    assert (out.status, out.kind) == ("subject-failure", "model-program-failed")
    assert len(sp.requests) == 1
