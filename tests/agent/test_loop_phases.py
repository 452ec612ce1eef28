"""agent-design §3.12 Phases (PHS-*): `run-phased-result-value`, driven by ScriptedProvider."""

from __future__ import annotations

from typing import Any

import pytest
from loop_helpers import call, messages

from ptc_agent import AgentError, Mission, Outcome, run_outcome, run_phased
from ptc_agent.loop import _run
from ptc_agent.providers import ScriptedProvider
from ptc_compiler.tools import Tool


def _missions(log: list[str]) -> dict[str, Mission]:
    def list_items(args):  # type: ignore[no-untyped-def]  # untyped: receives the map
        log.append("list-items")
        return [1, 2, 3]

    return {"explore": Mission(tools={"list-items": Tool(list_items, effect="read",
                                                         doc="All items.")}),
            "decide": Mission(data={"threshold": 2})}


def _phased(items: list[Any], phases: list[dict[str, Any]], log: list[str] | None = None,
            **kw: Any) -> tuple[Outcome, ScriptedProvider]:
    sp = ScriptedProvider(items)
    out = run_outcome("Find the large items.", model=sp, missions=_missions(log if log is not None else []),
                      config={"phases": phases, **kw.pop("config", {})}, **kw)
    return out, sp


TWO = [{"mission": "explore", "max_turns": 2, "instruction": "Collect the items."},
       {"mission": "decide", "max_turns": 2, "instruction": "Decide which are large."}]


def _content(sp: ScriptedProvider, request: int, message: int) -> str:
    return str(messages(sp, request)[message]["content"])


@pytest.mark.parametrize("phases", [
    [], "explore", None, [3], [{"mission": "explore"}], [{"max_turns": 2}],
    [{"mission": " ", "max_turns": 2}], [{"mission": "explore", "max_turns": 0}],
    [{"mission": "explore", "max_turns": 129}], [{"mission": "explore", "max_turns": "2"}],
    [{"mission": "explore", "max_turns": 2, "instruction": ""}],
    [{"mission": "explore", "max_turns": 2, "terminal_only": "yes"}],
    [{"mission": "explore", "max_turns": 2, "temperature": 1}],
    [{"mission": "explore", "max_turns": 1}] * 9,
    [{"mission": "explore", "max_turns": 100}, {"mission": "decide", "max_turns": 29}],
])
def test_PHS_01_invalid_phases_fail_before_any_request(phases: Any) -> None:
    sp = ScriptedProvider([call("(return 1)")])
    with pytest.raises(AgentError) as info:
        run_outcome("t", model=sp, missions=_missions([]), config={"phases": phases})
    assert info.value.code == "invalid_agent_config"
    assert info.value.details["reason"] == "invalid-phases"
    assert info.value.message.startswith("invalid_agent_config") or "phases" in info.value.message
    assert sp.requests == []


def test_PHS_01_limits_are_inclusive_and_phases_replace_mission_and_max_turns() -> None:
    eight = [{"mission": "decide", "max_turns": 16}] * 8  # 8 phases, 128 turns: accepted
    out, _ = _phased([call("(return 1)")] * 8, eight)
    assert out.value == 1
    for extra in ({"mission": "explore"}, {"max_turns": 3}):
        with pytest.raises(AgentError) as info:
            _phased([call("(return 1)")], TWO, config=extra)
        assert info.value.details["reason"] == "unknown-option"
    # and the single-phase entries do not accept phases
    sp = ScriptedProvider([call("(return 1)")])
    with pytest.raises(AgentError) as info:
        _run("agent.core/run-outcome", "t", tools=None, model=sp, router=None,
             config={"phases": TWO}, signature=None, data=None, preludes=(), missions=None,
             timeout_ms=5000, cache_dir=None)
    assert info.value.details == {"reason": "unknown-option", "option": "phases"}


def test_PHS_02_terminal_only_on_a_non_final_phase_is_refused() -> None:
    phases = [{**TWO[0], "terminal_only": True}, TWO[1]]
    sp = ScriptedProvider([call("(return 1)")])
    with pytest.raises(AgentError) as info:
        run_outcome("t", model=sp, missions=_missions([]), config={"phases": phases})
    assert info.value.details["reason"] == "invalid-phases"
    assert "only the final phase" in info.value.message
    assert sp.requests == []
    # on the final phase it is accepted
    out, _ = _phased([call("(return 1)"), call("(return 2)")],
                     [TWO[0], {**TWO[1], "terminal_only": True}])
    assert out.value == 2


def test_PHS_03_instructions_ride_with_the_task_then_the_transition() -> None:
    out, sp = _phased([call("(def items (tool/list-items {}))"), call("(return :done)"),
                       call("(return data/threshold)")], TWO)
    assert out.value == 2
    first = _content(sp, 0, 0)
    assert first.startswith("Find the large items.\n\nCollect the items.\n\n")
    assert "Decide which are large." not in first
    transition = messages(sp, 2)[-1]
    assert transition["role"] == "user"
    assert "Phase 2 of 2 begins" in transition["content"]
    assert "Decide which are large." in transition["content"]
    # a phase without an instruction gets a generic continuation
    _, sp = _phased([call("(return 1)"), call("(return 2)")],
                    [TWO[0], {"mission": "decide", "max_turns": 1}])
    assert "Continue with the task." in str(messages(sp, 1)[-1]["content"])


def test_PHS_04_system_prompt_switches_and_transcript_is_kept() -> None:
    log: list[str] = []
    out, sp = _phased([call("(def items (tool/list-items {}))", call_id="a1"),
                       call("(return (count items))", call_id="a2"),
                       call("(return (filter #(> % data/threshold) [1 2 3]))", call_id="b1")],
                      TWO, log)
    assert list(out.value) == [3]
    # definitions stay with their mission: phase 2 runs in another environment
    assert "Definitions persist within one mission only" in _content(sp, 2, -1)
    assert log == ["list-items"]
    assert "list-items" in str(sp.requests[0].system)
    assert sp.requests[0].system == sp.requests[1].system  # identical within a phase
    assert "list-items" not in str(sp.requests[2].system)
    assert "data/threshold" in str(sp.requests[2].system)
    later = messages(sp, 2)
    ids = [m.get("tool_call_id") for m in later if m["role"] == "tool"]
    assert ids == ["a1", "a2"]  # both correlated pairs of phase 1 retained
    calls = [m["tool_calls"][0]["id"] for m in later if m.get("tool_calls")]
    assert calls == ["a1", "a2"]


def test_PHS_05_phase_local_budget_and_counter_reset() -> None:
    _, sp = _phased([call("1"), call("2"), call("3"), call("(return 4)")],
                    [{"mission": "explore", "max_turns": 2}, {"mission": "decide", "max_turns": 3}])
    first = _content(sp, 0, 0)
    assert first.endswith("Turns remaining in this phase: 2 turns (including your next program).")
    fb = _content(sp, 1, -1)
    assert "Turns remaining in this phase: 1 turn" in fb
    assert "last turn of this phase" in fb and "(return value) or (fail value)" not in fb
    transition = _content(sp, 2, -1)
    # the final phase has the ordinary notice, with its own budget of 3
    assert transition.endswith("Turns remaining: 3 turns (including your next program).")
    assert "Turns remaining: 2 turns" in _content(sp, 3, -1)


def test_PHS_06_return_in_a_non_final_phase_is_evidence_not_completion() -> None:
    out, sp = _phased([call("(return {:found 3})", call_id="r1"), call("(return 9)")], TWO)
    assert out.status == "returned" and out.value == 9
    assert len(sp.requests) == 2
    tool_msg = next(m for m in messages(sp, 1) if m["role"] == "tool")
    assert tool_msg["tool_call_id"] == "r1"
    assert "closes this phase" in tool_msg["content"] and ":found 3" in tool_msg["content"]
    assert "not stored in *1" in tool_msg["content"]
    # an explicit return does not advance the history
    same = [{"mission": "decide", "max_turns": 2}, {"mission": "decide", "max_turns": 1}]
    out, _ = _phased([call("41"), call("(return 1)"), call("(return *1)")], same)
    assert out.value == 41


def test_PHS_07_exhausting_a_non_final_phase_hands_over() -> None:
    for first in ("(+ 1 2)", "(/ 1 0)", None):
        item = call(first) if first else {"content": "thinking"}
        out, sp = _phased([item, call("(return 5)")],
                          [{"mission": "explore", "max_turns": 1}, TWO[1]])
        assert out.value == 5, first
        assert "Phase 2 of 2 begins" in _content(sp, 1, -1)
        assert "data/threshold" in str(sp.requests[1].system)


def test_PHS_08_terminal_only_phase_rejects_non_terminal_programs() -> None:
    log: list[str] = []
    final = {"mission": "explore", "max_turns": 2, "terminal_only": True}
    out, sp = _phased([call("(tool/list-items {}) 1"), call("(return 2)")],
                      [TWO[1], final][1:], log)
    assert out.value == 2
    assert log == []  # the rejected program was not evaluated
    assert out.evaluations == 1
    fb = _content(sp, 1, -1)
    assert "only accepts a final decision" in fb and "2 top-level forms" in fb
    assert fb.endswith("Turns remaining: 1 turn (including your next program).\n"
                       "This is your final turn: the next program must call (return value) "
                       "or (fail value).")
    # a fail form is a terminal decision too
    out, _ = _phased([call('(fail "cannot")')], [final])
    assert out.kind == "model-program-failed"
    # exhausting it this way reports terminal-source-required
    out, _ = _phased([call("(+ 1 2)"), call("(do (return 1))")], [final])
    assert out.kind == "turn-limit" and out.error["reason"] == "terminal-source-required"
    with pytest.raises(AgentError) as info:
        run_phased("t", [final], model=ScriptedProvider([call("1"), call("2")]),
                   missions=_missions([]))
    assert info.value.code == "turn_limit_exceeded"
    assert info.value.details["reason"] == "terminal-source-required"


def test_PHS_09_only_the_final_phase_satisfies_the_contract() -> None:
    out, sp = _phased([call('(return "not an int")'), call('(return "still not")'),
                       call("(return 7)")], TWO, signature=":int")
    assert out.value == 7
    assert "result contract" not in _content(sp, 1, -1)  # phase 1's return is not validated
    assert "does not satisfy the result contract" in _content(sp, 2, -1)
    data = [e["data"] for e in out.events]
    assert [(d["turn"], d["phase"], d["phase_turn"], d["mission"]) for d in data] == [
        (1, 1, 1, "explore"), (2, 2, 1, "decide"), (3, 2, 2, "decide")]
    assert all(d["kind"] == "tool-call" for d in data)


def test_run_phased_python_entry() -> None:
    value = run_phased("Find the large items.", TWO,
                       model=ScriptedProvider([call("(return 1)"), call("(return [3])")]),
                       missions=_missions([]), signature="[:int]")
    assert list(value) == [3]
    with pytest.raises(TypeError):
        run_phased("t", TWO, config={"phases": TWO}, model=ScriptedProvider([]))
