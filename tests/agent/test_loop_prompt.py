"""BUD-06: the replaceable prompt policy `agent.prompt` (initial-state, render, transition)."""

from __future__ import annotations

from pathlib import Path

import pytest
from loop_helpers import agent, call

from ptc_agent import AgentError, run_outcome
from ptc_agent.providers import ScriptedProvider
from ptc_compiler.prelude.component import PreludeError

COUNTING = """(ns agent.prompt {:deps [kernel]})
(defn initial-state [phase]
  {:mission (get phase "mission") :api (kernel/render-api (get phase "mission")) :turn 0})
(defn render [state]
  (str "HOUSE RULES turn " (get state :turn) " of mission " (get state :mission) "\\n"
       (get state :api)))
(defn transition [state event]
  (assoc state :turn (get event "turn")))
"""


def _policy(initial: str = "{:ok 1}", render: str = '"SYSTEM"', transition: str = "state") -> str:
    return (f"(ns agent.prompt)\n(defn initial-state [phase] {initial})\n"
            f"(defn render [state] {render})\n(defn transition [state event] {transition})\n")


def test_BUD_06_replaced_prompt_policy_is_used() -> None:
    out, sp = agent([call("1"), call("(return 2)")], prompt=COUNTING, data={"k": 1})
    assert out.value == 2
    first, second = (str(r.system) for r in sp.requests)
    assert first.startswith("HOUSE RULES turn 0 of mission default\n")
    assert second.startswith("HOUSE RULES turn 1 of mission default\n")  # transition ran
    assert "data/k" in first  # it could still use the mission API through kernel/render-api


def test_BUD_06_replacement_from_a_path(tmp_path: Path) -> None:
    path = tmp_path / "my_prompt.clj"
    path.write_text(_policy(render='"FROM A FILE"'), encoding="utf-8")
    _, sp = agent([call("(return 1)")], prompt=path)
    assert sp.requests[0].system == "FROM A FILE"


@pytest.mark.parametrize(("policy", "reason", "requests"), [
    (_policy(initial='"not a map"'), "invalid-initial-state", 0),
    (_policy(initial="nil"), "invalid-initial-state", 0),
    (_policy(render="42"), "invalid-render", 0),
    (_policy(render='"   "'), "invalid-render", 0),
    (_policy(transition="[state]"), "invalid-transition", 1),
])
def test_BUD_06_invalid_returns_fail_as_prompt_errors(policy: str, reason: str,
                                                      requests: int) -> None:
    sp = ScriptedProvider([call("1"), call("(return 2)")])
    with pytest.raises(AgentError) as info:
        run_outcome("t", model=sp, prompt=policy)
    assert info.value.code == "invalid_prompt"
    assert info.value.details == {"reason": reason}
    assert reason in info.value.message
    assert len(sp.requests) == requests


def test_BUD_06_render_error_envelope_is_mission_unavailable() -> None:
    policy = _policy(render='{"status" "error" "kind" "mission_unavailable" "reason" "gone"}')
    sp = ScriptedProvider([call("(return 1)")])
    with pytest.raises(AgentError) as info:
        run_outcome("t", model=sp, prompt=policy)
    assert info.value.code == "mission_unavailable" and info.value.details["cause"] == "gone"
    assert sp.requests == []


def test_BUD_06_replacement_must_be_agent_prompt_and_gets_no_host_tools() -> None:
    sp = ScriptedProvider([call("(return 1)")])
    impostor = _policy().replace("(ns agent.prompt)", "(ns agent.core)")
    with pytest.raises(AgentError) as info:
        run_outcome("t", model=sp, prompt=impostor)
    assert info.value.code == "invalid_prompt"
    assert info.value.details == {"reason": "invalid-namespace"}
    for tool in ("kernel-failure", "llm-request", "kernel-eval"):
        sneaky = _policy(render=f'(do (tool/{tool} {{"code" "x"}}) "S")')
        with pytest.raises(PreludeError) as err:
            run_outcome("t", model=sp, prompt=sneaky)
        assert err.value.code == "private_tool_unauthorized"
    assert sp.requests == []
    with pytest.raises(TypeError):
        run_outcome("t", model=sp, prompt=3)  # type: ignore[arg-type]


def test_reused_workflow_bundle_follows_an_edited_prompt_file(tmp_path: Path) -> None:
    # The linked workflow bundle is reused across runs; editing a source must not be missed.
    path = tmp_path / "my_prompt.clj"
    path.write_text(_policy(render='"FIRST"'), encoding="utf-8")
    _, sp = agent([call("(return 1)")], prompt=path)
    _, again = agent([call("(return 1)")], prompt=path)
    path.write_text(_policy(render='"SECOND, LONGER"'), encoding="utf-8")
    _, edited = agent([call("(return 1)")], prompt=path)
    assert [s.requests[0].system for s in (sp, again, edited)] == ["FIRST", "FIRST",
                                                                   "SECOND, LONGER"]
