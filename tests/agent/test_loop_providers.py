"""agent-design §3.12 Provider (PRV-*), Transcript (TRN-*), Turn-limit (TLM-*), Result-contract
(RES-*) and Observability (OBV-*) lines."""

from __future__ import annotations

from typing import Any

import pytest
from loop_helpers import (
    agent,
    call,
    encoded_len,
    last_content,
    text,
)

from ptc_agent import AgentError, run_outcome, run_value
from ptc_agent.providers import (
    Alias,
    ModelRouter,
    ProviderFailure,
    ScriptedProvider,
    ScriptExhausted,
)

RATE = ProviderFailure("provider_error", "rate_limited", True, "HTTP 429: slow down")
DENIED = ProviderFailure("provider_error", "denied", False, "HTTP 403")


def test_PRV_01_02_05_provider_failure_is_data_with_alias() -> None:
    out, sp = agent([call("1"), RATE])
    assert out.status == "provider-failure"
    assert out.error == {"status": "error", "kind": "provider_error", "reason": "rate_limited",
                         "retryable?": True, "details": "HTTP 429: slow down", "model": "model"}
    assert out.model == "model"
    assert len(sp.requests) == 2


def test_PRV_05_explicit_alias_and_fresh_transcript_on_restart() -> None:
    a = ScriptedProvider([DENIED])
    b = ScriptedProvider([call("(return 1)")])
    router = ModelRouter([Alias("a", a), Alias("b", b)])
    out = run_outcome("t", router=router, config={"model": "a"})
    assert out.status == "provider-failure" and out.model == "a"
    out = run_outcome("t", router=router, config={"model": "b"})
    assert out.value == 1 and len(b.requests[0].messages) == 1


def test_PRV_06_per_alias_max_calls() -> None:
    p = ScriptedProvider([call("1"), call("2"), call("(return 1)")])
    out = run_outcome("t", router=ModelRouter([Alias("fast", p, max_calls=2)]))
    assert out.status == "provider-failure" and out.model == "fast"
    assert out.error["kind"] == "limit_exceeded" and out.error["reason"] == "capability_quota"
    assert out.error["details"] == {"limit": "max_calls", "alias": "fast", "limit_value": 2}
    assert len(p.requests) == 2


def test_PRV_08_unknown_alias() -> None:
    p = ScriptedProvider()
    out = run_outcome("t", router=ModelRouter([Alias("fast", p)]), config={"model": "slow"})
    assert out.error["reason"] == "unknown_model_alias" and out.model == "slow"
    assert p.requests == []


def test_PRV_09_value_entries_fail_fast() -> None:
    with pytest.raises(AgentError) as info:
        run_value("t", model=ScriptedProvider([RATE]))
    assert info.value.code == "llm_provider_failed"
    assert info.value.details == {"kind": "provider_error", "reason": "rate_limited",
                                  "retryable?": True, "model": "model"}
    p = ScriptedProvider([call("1"), call("(return 1)")])
    with pytest.raises(AgentError) as info:
        run_value("t", router=ModelRouter([Alias("fast", p, max_calls=1)]))
    assert info.value.code == "capability_quota_exceeded"


def test_PRV_10_raw_provider_text_never_reaches_model_or_error() -> None:
    with pytest.raises(AgentError) as info:
        run_value("t", model=ScriptedProvider([RATE]))
    assert "slow down" not in str(info.value) and "slow down" not in repr(info.value.details)


def test_PRV_12_callback_crash_fails_even_run_outcome() -> None:
    with pytest.raises(ScriptExhausted):
        agent([call("1")])
    with pytest.raises(ZeroDivisionError):
        agent([lambda req: 1 / 0])


def test_PRV_15_length_with_valid_call_executes() -> None:
    out, _ = agent([call("(return 3)", finish_reason="length")])
    assert out.value == 3


def test_PRV_16_length_without_call_is_truncation_not_protocol_error() -> None:
    sp = ScriptedProvider([{"content": "partial", "finish_reason": "length"}, call("(return 1)")])
    with pytest.raises(AgentError) as info:
        run_outcome("t", model=sp)
    assert info.value.code == "model_output_truncated"
    assert info.value.details["alias"] == "model"
    assert len(sp.requests) == 1


# ---------------------------------------------------------------- transcript limit


def test_TRN_01_02_encoded_request_measured_before_dispatch() -> None:
    task = 'quote " backslash \\ newline \n sep \u2028 astral \U0001f600'
    _, sp = agent([call("(return 1)")], task=task)
    size = encoded_len(sp)
    out, _ = agent([call("(return 1)")], task=task, config={"max_transcript_chars": size})
    assert out.value == 1
    sp = ScriptedProvider([call("(return 1)")])
    with pytest.raises(AgentError) as info:
        run_outcome(task, model=sp, config={"max_transcript_chars": size - 1})
    assert info.value.code == "runtime_limit_exceeded"
    assert info.value.details["limit"] == "max_transcript_chars"
    assert info.value.details["value"] == size - 1
    assert sp.requests == []


def test_TRN_03_limit_can_trigger_mid_run_without_dropping_pairs() -> None:
    _, sp = agent([call("(return 1)")])
    size = encoded_len(sp)
    sp = ScriptedProvider([text("no call here"), call("(return 1)")])
    with pytest.raises(AgentError) as info:
        run_outcome("t", model=sp, config={"max_transcript_chars": size + 50})
    assert info.value.code == "runtime_limit_exceeded"
    assert len(sp.requests) == 1


# ---------------------------------------------------------------- turn limit


def test_TLM_01_value_entries_report_runtime_limit() -> None:
    with pytest.raises(AgentError) as info:
        run_value("t", model=ScriptedProvider([call("1"), call("2")]), config={"max_turns": 2})
    err = info.value
    assert err.code == "turn_limit_exceeded"
    assert err.details == {"limit": "agent_turns", "value": 2, "reason": "intermediate-result",
                           "remedy": "raise max_turns, or reduce the work per turn"}


@pytest.mark.parametrize(("last", "reason"), [
    (call("1"), "intermediate-result"), (call("(/ 1 0)"), "evaluation-error"),
    (text("hm"), "protocol-error")])
def test_TLM_02_03_reasons_and_outcome(last: Any, reason: str) -> None:
    out, _ = agent([call("1"), last], config={"max_turns": 2})
    assert out.status == "subject-failure" and out.kind == "turn-limit"
    assert out.error == {"limit": "agent_turns", "value": 2, "reason": reason}


# ---------------------------------------------------------------- result contract

SIG = "{total :int, items [:string]}"


def test_RES_01_validates_and_no_contract_accepts_everything() -> None:
    out, _ = agent([call('(return {:total 1 :items ["a"]})')], signature=SIG)
    assert out.ok
    out, _ = agent([call('(return "anything")')])
    assert out.value == "anything"


def test_RES_02_03_invalid_candidate_gets_safe_correction() -> None:
    out, sp = agent([call('(return {:total "SECRET-CANDIDATE" :items ["x"]})'),
                     call('(return {:total 2 :items ["x"]})')], signature=SIG)
    assert out.ok and {k.name: v for k, v in out.value.items()}["total"] == 2
    fb = last_content(sp)
    assert "does not satisfy the result contract" in fb and "total" in fb
    assert "SECRET-CANDIDATE" not in fb
    assert "Turns remaining: 3 turns" in fb


def test_RES_05_valid_candidate_returns_raw_value() -> None:
    value = run_value("t", model=ScriptedProvider([call('(return {:total 1 :items []})')]),
                      signature=SIG)
    assert {k.name: v for k, v in value.items()} == {"total": 1, "items": []}


def test_RES_06_exhaustion_fails_result_contract() -> None:
    sp = ScriptedProvider([call('(return {:total "x"})'), call("(return 5)")])
    with pytest.raises(AgentError) as info:
        run_outcome("t", model=sp, signature=SIG, config={"max_turns": 2})
    err = info.value
    assert err.code == "result_contract_failed" and err.details["agent_turns"] == 2
    assert err.details["violations"] and "x" not in repr(err.details)


def test_RES_07_keyword_keyed_candidates_validate() -> None:
    out, _ = agent([call('(return {"total" 3 "items" []})')], signature=SIG)
    assert out.ok


# ---------------------------------------------------------------- observability


def test_OBV_01_one_annotation_per_model_turn() -> None:
    out, _ = agent([call("1"), text("x"), call("(return 1)")])
    assert [e["data"]["turn"] for e in out.events] == [1, 2, 3]
    assert [e["data"]["kind"] for e in out.events] == ["tool-call", "protocol-error", "tool-call"]
    assert out.evaluations == 2 and out.protocol_errors == 1


def test_OBV_02_provider_closed_exactly_once_on_every_path() -> None:
    for items, config in (([call("(return 1)")], {}), ([RATE], {}), ([], {"max_turns": 0})):
        sp = ScriptedProvider(items)
        try:
            run_outcome("t", model=sp, config=config)
        except AgentError:
            pass
        assert sp.close_count == 1


def test_PRV_13_OBV_01_usage_report_per_alias() -> None:
    tokens = {"input": 10, "output": 3, "cache_creation": 0, "cache_read": 0}
    out, _ = agent([call("1", tokens=tokens), call("(return 1)", tokens=tokens)])
    assert out.usage == {"model": {"calls": 2, "successes": 2, "input_tokens": 20,
                                   "output_tokens": 6}}
