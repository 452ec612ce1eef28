"""agent-design §3.12 EVL-13 (a provider `denied` inside a mission program), EVL-15 (commit
rejections of retained definitions and of `*1` history), and PHS-08's compile check of a
terminal-only phase against its mission."""

from __future__ import annotations

import dataclasses

import pytest
from loop_helpers import agent, call, last_content, messages

from ptc_agent import AgentError, Mission, run_outcome, run_value
from ptc_agent.providers import ScriptedProvider
from ptc_agent.providers.failure import provider_error
from ptc_compiler.prelude import Environment
from ptc_compiler.tools import Tool
from ptc_runtime.limits import Limits

MEMORY_TEXT = "definitions are too large to retain"
HISTORY_TEXT = "too large to keep as *1"


def _small_state() -> dict[str, Mission]:
    limits = dataclasses.replace(Limits(), memory_bytes=400, history_bytes=400)
    return {"default": Mission(limits=limits)}


def test_EVL_15_commit_rejections_have_their_own_messages_and_roll_back() -> None:
    out, sp = agent(
        [
            call("(do (def keep 1) 7)"),
            call("(do (def small 2) (def big (vec (range 1000))) :done)"),  # definitions
            call("(do (def x 5) (vec (range 1000)))"),  # *1 history
            call("[small big x]"),
            call("(return [keep *1])"),
        ],
        config={"max_turns": 5},
        missions=_small_state(),
    )
    assert out.status == "returned"
    assert list(out.value) == [1, 7]  # neither rejected turn advanced *1 or kept a definition
    memory_fb = str(messages(sp, 2)[-1]["content"])
    history_fb = str(messages(sp, 3)[-1]["content"])
    assert "outcome: memory_exceeded, error: memory_exceeded" in memory_fb
    assert MEMORY_TEXT in memory_fb and HISTORY_TEXT not in memory_fb
    assert "outcome: history_exceeded, error: history_exceeded" in history_fb
    assert HISTORY_TEXT in history_fb and MEMORY_TEXT not in history_fb
    for fb in (memory_fb, history_fb):
        assert "whole turn was rolled back" in fb and "earlier definitions remain" in fb
    # `small` and `x` came with the rejected turns: both were rolled back with them
    unbound = str(messages(sp, 4)[-1]["content"])
    assert "undefined variable: small" in unbound
    assert out.evaluations == 5


def test_EVL_15_ordinary_errors_keep_the_generic_rollback_text() -> None:
    _, sp = agent([call("(/ 1 0)"), call("(return 1)")], missions=_small_state())
    fb = last_content(sp)
    assert "Definitions made by the failed program were rolled back" in fb
    assert MEMORY_TEXT not in fb and HISTORY_TEXT not in fb


def _envelope(reason: str, retryable: bool = True) -> dict[str, object]:
    return {"status": "error", "kind": "provider_error", "reason": reason, "retryable?": retryable}


def test_EVL_13_provider_denied_inside_a_program_is_a_subject_failure() -> None:
    denied = Tool(lambda a: _envelope("denied"), effect="read")
    # ignored by the program: still terminal, although the program itself went on
    out, sp = agent([call("(do (tool/d {}) 1)"), call("(return 2)")], tools={"d": denied},
                    config={"max_turns": 3})
    assert (out.status, out.kind) == ("subject-failure", "model-program-failed")
    assert getattr(out.error, "name", None) == "terminal-provider-failure"
    assert len(sp.requests) == 1 and out.evaluations == 1
    # failed with exactly the (read, retryable) envelope: not corrected, the fail value kept
    out, sp = agent([call("(fail (tool/d {}))"), call("(return 2)")], tools={"d": denied})
    assert (out.status, out.kind) == ("subject-failure", "model-program-failed")
    assert {getattr(k, "name", k): v for k, v in out.error.items()}["reason"] == "denied"
    assert len(sp.requests) == 1


def test_EVL_13_a_raised_denied_provider_error_is_terminal_too() -> None:
    def refuse(args):  # type: ignore[no-untyped-def]  # untyped: gets the argument map
        raise provider_error("denied", "not for this caller")

    out, sp = agent([call("(tool/d {})"), call("(return 2)")],
                    tools={"d": Tool(refuse, effect="read")})
    assert (out.status, out.kind) == ("subject-failure", "model-program-failed")
    assert len(sp.requests) == 1
    with pytest.raises(AgentError) as info:
        run_value("t", model=ScriptedProvider([call("(tool/d {})"), call("(return 2)")]),
                  tools={"d": Tool(refuse, effect="read")})
    assert info.value.code == "subject_failure"
    assert info.value.details["kind"] == "model-program-failed"


def test_EVL_13_other_capability_refusals_stay_correctable() -> None:
    missing = Tool(lambda a: _envelope("not_found"), effect="read")
    out, sp = agent([call("(do (tool/d {}) 1)"), call("(fail (tool/d {}))"), call("(return 2)")],
                    tools={"d": missing})
    assert out.value == 2 and len(sp.requests) == 3
    assert "kind: provider_error, reason: not_found" in last_content(sp)


def test_EVL_15_commit_rejections_are_marked_in_the_run_failure() -> None:
    limits = dataclasses.replace(Limits(), memory_bytes=400, history_bytes=400)
    with Environment([], limits=limits) as env:
        owner = object()
        memory = env.run("(def big (vec (range 1000)))", state_owner=owner).error
        history = env.run("(vec (range 1000))", state_owner=owner).error
        plain = env.run("(/ 1 0)", state_owner=owner).error
    assert memory is not None and memory.code == "memory_exceeded"
    assert history is not None and history.code == "history_exceeded"
    assert memory.details == history.details == {"phase": "commit"}
    assert plain is not None and plain.details is None


def test_PHS_08_terminal_only_compiles_the_program_against_the_mission() -> None:
    log: list[str] = []

    def list_items(args):  # type: ignore[no-untyped-def]  # untyped: receives the map
        log.append("list-items")
        return [1, 2, 3]

    missions = {"explore": Mission(tools={"list-items": Tool(list_items, effect="read")})}
    phases = [{"mission": "explore", "max_turns": 1},
              {"mission": "explore", "max_turns": 3, "terminal_only": True}]
    sp = ScriptedProvider([
        call("(def n 5)"),
        call("(return (tool/nope {}))"),  # unknown tool: caught before anything runs
        call("(return (+ n m))"),  # unknown symbol
        call("(return (+ n (count (tool/list-items {}))))"),  # n: retained by phase 1
    ])
    out = run_outcome("t", model=sp, missions=missions, config={"phases": phases})
    assert out.value == 8
    assert out.evaluations == 2 and log == ["list-items"]  # the rejected programs never ran
    unknown_tool = str(messages(sp, 2)[-1]["content"])
    assert "only accepts a final decision" in unknown_tool and "not evaluated" in unknown_tool
    assert "does not compile in this mission: unknown_tool: Unknown tool: nope" in unknown_tool
    unbound = str(messages(sp, 3)[-1]["content"])
    assert "does not compile in this mission: unbound_var: undefined variable: m" in unbound
    # exhausted by programs that do not compile: terminal-source-required
    out = run_outcome("t", model=ScriptedProvider([call("(return (tool/nope {}))")]),
                      missions=missions,
                      config={"phases": [{"mission": "explore", "max_turns": 1,
                                          "terminal_only": True}]})
    assert out.kind == "turn-limit" and out.error["reason"] == "terminal-source-required"
    assert log == ["list-items"]
