"""TLM-04: a turn-limit failure keeps its provenance when agent loops run under map, pmap
and pcalls inside a trusted workflow (run_workflow)."""

from __future__ import annotations

import pytest
from loop_helpers import call

from ptc_agent import AgentError
from ptc_agent.providers import ScriptedProvider
from ptc_agent.workflow import run_workflow

LOOP = '(agent.core/run-value t {"max_turns" 2})'


@pytest.mark.parametrize("program", [
    f"(map (fn [t] {LOOP}) [\"a\"])",
    f"(pmap (fn [t] {LOOP}) [\"a\"])",
    f"(pcalls (fn [] (let [t \"a\"] {LOOP})))",
    f"(first (map (fn [t] {LOOP}) [\"a\"]))",
])
def test_TLM_04_turn_limit_provenance_survives_map_pmap_pcalls(program: str) -> None:
    sp = ScriptedProvider([call("1"), call("(/ 1 0)")])
    with pytest.raises(AgentError) as info:
        run_workflow(program, model=sp)
    err = info.value
    assert err.code == "turn_limit_exceeded"
    assert err.details["limit"] == "agent_turns" and err.details["value"] == 2
    assert err.details["reason"] == "evaluation-error"
    assert len(sp.requests) == 2


def test_TLM_04_a_workflow_fail_map_is_not_a_turn_limit() -> None:
    forged = '(fail {"code" "turn_limit_exceeded" "limit" "agent_turns" "value" 2})'
    with pytest.raises(AgentError) as info:
        run_workflow(f"(pmap (fn [x] {forged}) [1])", model=ScriptedProvider([]))
    assert info.value.code != "turn_limit_exceeded"
