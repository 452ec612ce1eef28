"""agent-design §3.12 EFF-03 (reserved runtime routes are reads), EFF-15 (a write with an
unknown outcome is indeterminate, never retryable) and EVL-12 (input validation unavailable)."""

from __future__ import annotations

from typing import Any

import pytest
from loop_helpers import agent, call, last_content

from ptc_agent import AgentError, run_value
from ptc_agent.failures import Terminal
from ptc_agent.host import AgentHost
from ptc_agent.mission_api import MISSION_ROUTES
from ptc_agent.missions import Mission
from ptc_agent.providers import ModelRouter, ScriptedProvider
from ptc_agent.providers.aliases import Alias
from ptc_agent.run_limits import HostLimits
from ptc_compiler.signatures import parse
from ptc_compiler.tools import InputValidationUnavailable, Tool

DONT_REPEAT = "Do not repeat that program"


def _user_tools(log: list[str]) -> dict[str, Any]:
    def get_user(args):  # type: ignore[no-untyped-def]  # untyped: receives the map
        log.append("get-user")
        return {"name": "Ada"}

    def save(args):  # type: ignore[no-untyped-def]  # untyped: receives the map
        log.append("save")
        return {"ok": True}

    return {"get-user": Tool(get_user, effect="read", doc="Look up a user."),
            "save": Tool(save, effect="write")}


def _observed(sp: ScriptedProvider, i: int = -1) -> str:
    return last_content(sp, i).split('">\n', 1)[1].split("\n</untrusted-output>")[0]


# ---------------------------------------------------------------- EFF-03 runtime routes


@pytest.mark.parametrize("route", MISSION_ROUTES)
def test_EFF_03_reserved_runtime_routes_count_as_reads(route: str) -> None:
    args = '{:name "get-user"}' if route == "cap-describe" else "{}"
    out, sp = agent([call(f"(tool/{route} {args}) (/ 1 0)"), call("(return 1)")],
                    tools=_user_tools([]))
    assert out.value == 1
    fb = last_content(sp)
    assert "divide by zero" in fb and DONT_REPEAT not in fb  # correctable, as after a read
    # The same failure after a write is not: the routes, not the failure, make the difference.
    out, sp = agent([call(f"(tool/{route} {args}) (tool/save {{}}) (/ 1 0)"),
                     call("(return 1)")], tools=_user_tools([]))
    assert DONT_REPEAT in last_content(sp)


def test_EFF_03_fail_of_a_route_result_is_corrected_like_a_read() -> None:
    # A malformed route request returns an error envelope; failing with exactly that
    # envelope after routes only is a read-only capability failure, so it is corrected.
    out, sp = agent([call("(fail (tool/cap-list {:page 2}))"), call("(return 1)")])
    assert out.value == 1 and len(sp.requests) == 2
    assert "kind: protocol_error, reason: invalid_capability_list_request" in last_content(sp)
    out, sp = agent([call("(tool/save {}) (fail (tool/cap-list {:page 2}))"), call("(return 1)")],
                    tools=_user_tools([]))
    assert out.kind == "model-program-failed" and len(sp.requests) == 1


def test_EFF_03_routes_report_usage_budgets_and_capabilities() -> None:
    program = ('[(tool/runtime-usage {}) (tool/runtime-remaining {}) (tool/cap-list {}) '
               '(tool/cap-describe {:name "save"}) (tool/cap-describe {:name "nope"})]')
    out, _ = agent([call("(+ 1 1)"), call(program), call("(return *1)")],
                    tools=_user_tools([]), timeout_ms=60_000,
                    limits=HostLimits(subordinate_evaluations=10, workflow_capability_calls=20,
                                      run_timeout_ms=120_000))
    usage, remaining, caps, save, missing = out.value
    assert usage["subordinate_evaluations"] == 2 and usage["llm_requests"] == 2
    assert usage["agent_protocol_errors"] == 0 and usage["capability_calls"] == 1
    assert usage["llm"]["model"]["calls"] == 2
    assert remaining["subordinate_evaluations"] == 8 and remaining["llm_requests"] == 18
    assert 0 < remaining["run_ms"] <= 120_000 and 0 < remaining["evaluation_ms"] <= 60_000
    assert [c["name"] for c in caps] == ["get-user", "save"]  # never the routes themselves
    assert caps[0] == {"name": "get-user", "effect": "read", "signature": None,
                       "doc": "Look up a user."}
    assert save["effect"] == "write" and missing is None


@pytest.mark.parametrize("program", ["(tool/runtime-usage {:x 1})",
                                     "(tool/runtime-remaining {:x 1})",
                                     "(tool/cap-describe {})", '(tool/cap-describe {:id "a"})'])
def test_EFF_03_malformed_route_requests_are_protocol_errors(program: str) -> None:
    out, _ = agent([call(program), call("(return *1)")])
    assert out.value["kind"] == "protocol_error" and out.value["retryable?"] is False


def test_EFF_03_routes_stay_out_of_the_prompt_and_names_are_reserved() -> None:
    _, sp = agent([call("(return 1)")], tools=_user_tools([]))
    system = sp.requests[0].system or ""
    assert "tool/get-user" in system
    assert not any(route in system for route in MISSION_ROUTES)
    for name in ("cap-list", "runtime-clock", "kernel-eval", "workflow-annotate"):
        with pytest.raises(ValueError, match="reserved capability name"):
            Mission(tools={name: lambda a: 1})


def test_EFF_03_a_mission_prelude_may_wrap_a_route() -> None:
    facade = '(ns budget "Run facts.") (defn left "What is left." [] (tool/runtime-remaining {}))'
    out, sp = agent([call("(return (budget/left))")], preludes=[facade])
    assert set(out.value) == {"run_ms", "evaluation_ms", "subordinate_evaluations",
                              "llm_requests"}
    assert "(budget/left)" in (sp.requests[0].system or "")


# ---------------------------------------------------------------- EFF-15 indeterminate writes


def _failing_write(log: list[str]) -> dict[str, Any]:
    def save(args):  # type: ignore[no-untyped-def]  # untyped: receives the map
        log.append("save")
        raise ConnectionError("connection reset after the request was sent")

    def rejected(args):  # type: ignore[no-untyped-def]  # untyped: receives the map
        log.append("rejected")
        return {"status": "error", "kind": "provider_error", "reason": "timeout",
                "retryable?": True}

    def checked(args):  # type: ignore[no-untyped-def]  # untyped: receives the map
        log.append("checked")
        return {"ok": True}

    def flaky(args):  # type: ignore[no-untyped-def]  # untyped: receives the map
        log.append("flaky")
        raise TimeoutError("read timed out")

    return {**_user_tools(log), "save": Tool(save, effect="write"),
            "rejected": Tool(rejected, effect="write"),
            "checked": Tool(checked, effect="write", signature="(id :int) -> :map"),
            "flaky": Tool(flaky, effect="read")}


def test_EFF_15_a_write_that_raised_is_indeterminate_and_not_retried() -> None:
    log: list[str] = []
    out, sp = agent([call("(tool/save {:id 1})"), call('(return "gave up")')],
                    tools=_failing_write(log))
    fb = last_content(sp)
    assert "mutation_state: indeterminate" in fb
    assert fb.rstrip().endswith("call (return value) or (fail value).")  # guidance last
    assert DONT_REPEAT in fb
    assert out.value == "gave up" and out.mutation_state == "indeterminate"
    assert log == ["save"]  # the loop never repeated the write


def test_EFF_15_an_error_envelope_from_a_write_is_never_corrected() -> None:
    # The envelope claims retryable?, but the write may have happened: fail is terminal.
    log: list[str] = []
    out, sp = agent([call("(fail (tool/rejected {}))"), call("(return 1)")],
                    tools=_failing_write(log))
    assert out.kind == "model-program-failed" and len(sp.requests) == 1
    assert out.mutation_state == "indeterminate"


def _with_save_ok(log: list[str]) -> dict[str, Any]:
    return {**_failing_write(log), "save-ok": _user_tools(log)["save"]}


def test_EFF_15_indeterminate_survives_to_the_final_failure() -> None:
    # The second unsafe failure's own write succeeded; the first write stays unknown.
    script = [call("(tool/save {})"), call("(tool/save-ok {}) (/ 1 0)")]
    log: list[str] = []
    out, _ = agent(list(script), tools=_with_save_ok(log), config={"max_turns": 3})
    assert out.kind == "non-retryable-evaluation" and out.mutation_state == "indeterminate"
    with pytest.raises(AgentError) as info:
        run_value("t", model=ScriptedProvider(list(script)), tools=_with_save_ok([]))
    assert info.value.code == "subject_failure"
    assert info.value.details["mutation_state"] == "indeterminate"
    with pytest.raises(AgentError) as info:  # also through a turn-limit failure
        run_value("t", model=ScriptedProvider([call("(tool/save {})"), call("1")]),
                  tools=_failing_write([]), config={"max_turns": 2})
    assert info.value.code == "turn_limit_exceeded"
    assert info.value.details["mutation_state"] == "indeterminate"


@pytest.mark.parametrize("program", [
    "(tool/get-user {}) (tool/save-ok {}) (/ 1 0)",  # the write succeeded: its state is known
    '(tool/checked {:id "x"})',                     # refused by its signature, never called
    "(tool/flaky {})",                               # a read failure
])
def test_EFF_15_known_outcomes_are_not_indeterminate(program: str) -> None:
    log: list[str] = []
    tools = _with_save_ok(log)
    out, sp = agent([call(program), call("(return 1)")], tools=tools)
    assert out.value == 1 and out.mutation_state is None
    assert "mutation_state" not in last_content(sp)
    assert "checked" not in log


# ---------------------------------------------------------------- EVL-12 input validation


def test_EVL_12_input_validation_unavailable_fails_the_workflow() -> None:
    log: list[str] = []

    def external(args):  # type: ignore[no-untyped-def]  # untyped: receives the map
        log.append("external")
        raise InputValidationUnavailable("tool/external")

    with pytest.raises(AgentError) as info:
        agent([call("(tool/get-user {}) (tool/external {:q 1})"), call("(return 1)")],
              tools={"external": Tool(external, effect="read"), **_user_tools(log)})
    err = info.value
    assert err.code == "capability_unavailable"
    assert err.details == {"kind": "capability-unavailable",
                           "reason": "input-validation-unavailable"}
    assert "capability-unavailable/input-validation-unavailable" in err.message


def test_EVL_12_a_tool_whose_validator_cannot_run_is_not_called() -> None:
    log: list[str] = []
    sig = parse("(id :int) -> :map")

    def broken(args: Any) -> list[Any]:
        raise RuntimeError("schema service down")

    object.__setattr__(sig, "check_input", broken)  # the compiled validator fails to run
    tool = Tool(lambda a: log.append("called") or {}, signature=sig, effect="write")
    sp = ScriptedProvider([call("(tool/lookup {:id 1})"), call("(return 1)")])
    with pytest.raises(AgentError) as info:
        run_value("t", model=sp, tools={"lookup": tool})
    assert info.value.code == "capability_unavailable" and log == []
    assert len(sp.requests) == 1  # no correction turn: no program can clear it


def test_EVL_12_only_a_recorded_host_failure_can_be_reported() -> None:
    host = AgentHost(ModelRouter([Alias("m", ScriptedProvider([]))]), {})
    with pytest.raises(Terminal):  # the trusted reporter ends the workflow...
        host.report_failure({"code": "capability_unavailable",
                             "reason": "input-validation-unavailable"})
    assert host.failure is not None and host.failure.code == "workflow_error"  # ...as forged
