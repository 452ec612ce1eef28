"""The rest of the shipped library's surface: `workflow.event`, `runtime`, `cap` and
`kernel/mission-inventory`; output-validation-unavailable (EVL-12's twin); the transcript
kept by the host and measured incrementally (TRN-*); an oversized model response (PRO-*).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from loop_helpers import agent, call, encoded_len, last_content

from ptc_agent import AgentError, Mission, run_value
from ptc_agent.providers import ScriptedProvider
from ptc_agent.response_fit import response_bytes
from ptc_agent.transport import ModelTransport
from ptc_agent.workflow import run_workflow
from ptc_compiler.signatures import parse
from ptc_compiler.tools import OutputValidationUnavailable, Tool

# ---------------------------------------------------------------- workflow.event


def test_workflow_event_annotations_enter_the_trace() -> None:
    events: list[dict[str, Any]] = []
    value = run_workflow(
        '[(workflow.event/annotate "phase-done" {"phase" 1 "ok" true :note "x"})'
        ' (workflow.event/annotate "phase-done" nil)]',
        model=ScriptedProvider([]), on_event=events.append)
    assert list(value) == [True, True]
    done = [e for e in events if e["type"] == "phase-done"]
    assert [e["data"] for e in done] == [{"phase": 1, "ok": True, "note": "x"}, {}]


@pytest.mark.parametrize(("args", "why"), [
    ('"run-stopped" {}', "host's own"),
    ('"evaluation" {}', "host's own"),
    ('"Bad Type" {}', "lower-case name"),
    ('"step" {"nested" {"a" 1}}', "scalars"),
    ('"step" [1 2]', "map of at most 16"),
    ('"step" (zipmap (map str (range 17)) (range 17))', "map of at most 16"),
])
def test_workflow_event_refusals_are_values(args: str, why: str) -> None:
    events: list[dict[str, Any]] = []
    value = run_workflow(f"(workflow.event/annotate {args})", model=ScriptedProvider([]),
                         on_event=events.append)
    assert value["status"] == "error" and value["reason"] == "invalid_annotation"
    assert why in value["details"]["message"]
    assert [e["type"] for e in events] == ["run-started", "run-stopped"]  # nothing recorded


def test_agent_actions_go_through_workflow_event() -> None:
    out, _ = agent([call("(+ 1 2)"), call("(return *1)")])
    actions = [e for e in out.trace if e["type"] == "agent-action"]
    assert [e["data"]["kind"] for e in actions] == ["tool-call", "tool-call"]
    assert [e["data"] for e in out.events] == [e["data"] for e in actions]


# ---------------------------------------------------------------- runtime and cap


def _orders(args: dict[str, Any]) -> dict[str, Any]:
    """One page of orders: 3 items per page, cursors "p1", "p2"; page 3 ends."""
    page = {None: 0, "p1": 1, "p2": 2}[args.get("cursor")]
    items = [page * 3 + i for i in range(3)]
    return {"items": items, "next_cursor": f"p{page + 1}" if page < 2 else None}


def _mission_tools() -> dict[str, Any]:
    return {"orders": Tool(_orders, effect="read", doc="Pages of order ids.")}


LIBS = [{"library": "cap"}, {"library": "runtime"}]


def test_cap_and_runtime_wrappers_in_a_mission() -> None:
    program = """(return {:caps (map :name (cap/list))
                          :one (:effect (cap/describe "orders"))
                          :none (cap/describe "nope")
                          :usage (select-keys (runtime/usage) [:capability_calls])
                          :left (contains? (runtime/remaining) :evaluation_ms)})"""
    out, sp = agent([call(program)], tools=_mission_tools(), preludes=LIBS)
    assert out.ok, out
    value = {k.name: v for k, v in out.value.items()}
    assert list(value["caps"]) == ["orders"]  # the mission's own, not the routes
    assert value["one"] == "read" and value["none"] is None
    # cap-list, cap-describe x2 and this runtime-usage call
    assert {k.name: v for k, v in value["usage"].items()} == {"capability_calls": 4}
    assert value["left"] is True
    # discoverable: the Available API still lists the raw tool, not the helpers
    system = sp.requests[0].system or ""
    assert "tool/orders" in system and "cap/list" not in system


def test_cap_fold_pages_folds_every_page() -> None:
    program = """(return [(cap/fold-pages (fn [c] (tool/orders {:cursor c})) + 0 10)
                          (cap/fold-pages (fn [c] (tool/orders {:cursor c})) conj [] 2)])"""
    out, _ = agent([call(program)], tools=_mission_tools(), preludes=LIBS)
    assert out.ok, out
    whole, cut = ({k.name: v for k, v in m.items()} for m in out.value)
    assert whole == {"value": sum(range(9)), "pages": 3, "complete?": True, "cursor": None}
    assert list(cut["value"]) == list(range(6))
    assert (cut["pages"], cut["complete?"], cut["cursor"]) == (2, False, "p2")


def test_cap_fold_pages_fails_with_the_exact_error_envelope() -> None:
    def flaky(args: dict[str, Any]) -> dict[str, Any]:
        return {"status": "error", "kind": "provider_error", "reason": "timeout",
                "retryable?": True}

    program = "(cap/fold-pages (fn [c] (tool/flaky {})) + 0 5)"
    out, sp = agent([call(program), call("(return 1)")],
                    tools={"flaky": Tool(flaky, effect="read")}, preludes=LIBS)
    assert out.value == 1  # a retryable read failure, corrected on the next turn
    assert "kind: provider_error, reason: timeout" in last_content(sp)


def test_runtime_wrappers_in_the_workflow() -> None:
    sp = ScriptedProvider([call("(return 1)")])
    value = run_workflow(
        '(do (agent.core/run-value "t" {"max_turns" 2}) [(runtime/usage) (runtime/remaining)])',
        model=sp)
    usage, left = value
    assert usage["llm_requests"] == 1 and usage["subordinate_evaluations"] == 1
    assert left == {"run_ms": None, "subordinate_evaluations": None, "llm_requests": None}


def test_mission_library_selection_is_checked() -> None:
    with pytest.raises(ValueError, match=r"Mission.preludes: \[0\]: a mission selects"):
        Mission(preludes=[{"library": "agent.core"}])


# ---------------------------------------------------------------- kernel/mission-inventory


def test_kernel_mission_inventory_is_frozen_and_structured() -> None:
    missions = {"lookup": Mission(tools=_mission_tools(), data={"region": "EU", "ids": [1, 2]},
                                  preludes=[{"library": "cap"}], timeout_ms=1500)}
    value = run_workflow(
        '[(kernel/mission-inventory "lookup") (kernel/mission-inventory "lookup")'
        ' (kernel/mission-inventory "nope")]',
        model=ScriptedProvider([]), missions=missions)
    first, second, missing = value
    assert first == second  # frozen: the same inventory on every call
    assert first["mission"] == "lookup" and first["schema_version"] == 1
    assert [c["name"] for c in first["capabilities"]] == ["orders"]
    assert first["capabilities"][0]["effect"] == "read"
    assert "cap-list" in first["routes"]
    assert {e["ref"] for e in first["exports"]} >= {"cap/unwrap!", "cap/fold-pages"}
    assert first["data"] == [{"name": "ids", "type": "[:int]"}, {"name": "region",
                                                                 "type": ":string"}]
    assert "EU" not in json.dumps(first)  # data types, never values
    assert first["limits"]["timeout_ms"] == 1500 and first["limits"]["max_tool_calls"] > 0
    assert missing["reason"] == "unknown_mission"


def test_mission_programs_cannot_read_the_inventory() -> None:
    out, sp = agent([call('(kernel/mission-inventory "default")'), call("(return 1)")])
    assert out.value == 1 and "unknown namespace kernel/" in last_content(sp)


# ---------------------------------------------------------------- output validation


def test_EVL_12_output_validation_unavailable_fails_the_workflow() -> None:
    log: list[str] = []
    # its own text: parse() caches signatures, and EVL-12's input test patches another
    sig = parse("(order_id :int) -> :map")

    def broken(value: Any) -> list[Any]:
        raise RuntimeError("schema service down")

    object.__setattr__(sig, "check_output", broken)  # the result's validator fails to run
    tool = Tool(lambda a: log.append("called") or {"id": 1}, signature=sig, effect="read")
    sp = ScriptedProvider([call("(tool/lookup {:order_id 1})"), call("(return 1)")])
    with pytest.raises(AgentError) as info:
        run_value("t", model=sp, tools={"lookup": tool})
    err = info.value
    assert err.code == "capability_unavailable" and log == ["called"]
    assert err.details == {"kind": "capability-unavailable",
                           "reason": "output-validation-unavailable"}
    assert "result could not be validated" in err.message
    assert len(sp.requests) == 1  # no correction turn: no program can clear it


def test_EVL_12_host_raised_output_validation_unavailable() -> None:
    def external(args: dict[str, Any]) -> Any:
        raise OutputValidationUnavailable("tool/external")

    with pytest.raises(AgentError) as info:
        agent([call("(tool/external {})"), call("(return 1)")],
              tools={"external": Tool(external, effect="write")})
    assert info.value.details["reason"] == "output-validation-unavailable"
    assert info.value.trace[-1]["data"]["failure_kind"] == "capability-unavailable"


# ---------------------------------------------------------------- incremental transcript


def test_TRN_incremental_length_is_exact_with_non_bmp_text() -> None:
    # feedback, narration and phases with astral and escaped characters: the limit holds at
    # exactly the encoded length of the largest request, and one less fails
    script = [call('(str "\U0001f600\\"\\n" 1)', text="ok \U0001f600 \"q\""),
              {"content": "no call \u2028 \U0001d11e"},
              call("(return 7)", call_id="c3")]
    cfg: dict[str, Any] = {"max_turns": 3}
    out, sp = agent(list(script), task="T\U0001f600sk\t", config=cfg)
    assert out.value == 7
    biggest = max(encoded_len(sp, i) for i in range(len(sp.requests)))
    out, _ = agent(list(script), task="T\U0001f600sk\t",
                   config={**cfg, "max_transcript_chars": biggest})
    assert out.value == 7
    with pytest.raises(AgentError) as info:
        agent(list(script), task="T\U0001f600sk\t", config={**cfg, "max_transcript_chars":
                                                             biggest - 1})
    assert info.value.details["limit"] == "max_transcript_chars"


def test_each_message_crosses_to_the_host_once(monkeypatch: pytest.MonkeyPatch) -> None:
    sizes: list[int] = []
    original = ModelTransport.request

    def spy(self: ModelTransport, args: Any) -> Any:
        assert "messages" not in args  # the loop sends only what is new
        sizes.append(len(args["append"]))
        return original(self, args)

    monkeypatch.setattr(ModelTransport, "request", spy)
    out, sp = agent([call(f"(+ {i} 1)", call_id=f"c{i}") for i in range(5)]
                    + [call("(return 0)", call_id="c9")], config={"max_turns": 6})
    assert out.value == 0
    assert sizes == [1, 2, 2, 2, 2, 2]  # the task, then each turn's assistant/tool pair
    assert len(sp.requests[-1].messages) == 11  # the provider still sees everything


# ---------------------------------------------------------------- oversized responses


def test_PRO_oversized_program_is_a_correctable_protocol_error() -> None:
    # larger than the workflow's tool-result cap (1,000,000 bytes): not a workflow error
    huge = "(+ 1 " + "1 " * 600_000 + ")"
    out, sp = agent([call(huge, text="x" * 50_000), call("(return 3)", call_id="c2")])
    assert out.value == 3 and out.protocol_errors == 1
    feedback = last_content(sp)
    assert "program-too-large" in feedback and str(len(huge)) in feedback
    pair = [m.to_json() for m in sp.requests[1].messages][1]
    assert pair["role"] == "assistant" and len(pair["content"]) <= 4096
    assert len(pair["tool_calls"][0]["args"]["program"]) < len(huge)


def test_response_cap_fits_every_admissible_program() -> None:
    # a program within max_program_chars always fits, even at 6 JSON bytes per character
    for chars in (1, 64_000, 1_000_000):
        assert response_bytes(chars) >= 6 * chars
    # 0.8 MB of UTF-8 in 200,000 code points and 0.3 MB of narration: over the default
    # cap (1 MB), within the one max_program_chars sets; the program runs
    program = '(count "' + "\U0001f600" * 200_000 + '")'
    out, _ = agent([call(program, text="n" * 300_000), call("(return *1)")],
                   config={"max_program_chars": 400_000, "max_transcript_chars": 1_000_000})
    assert out.value == 200_000
