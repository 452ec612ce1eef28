"""agent-design §3.12 lines PRO-11, TRN-02, TRN-04, RES-03, RES-04, EFF-05 and EFF-06."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest
from loop_helpers import (
    agent,
    call,
    encoded_len,
    last_content,
    messages,
    text,
)

from ptc_agent import AgentError, run_outcome
from ptc_agent.host import AgentHost
from ptc_agent.providers import Alias, ModelRouter, ScriptedProvider
from ptc_agent.providers.request import Message
from ptc_agent.workflow import run_workflow
from ptc_compiler.tools import Tool


class _OddFirst(ModelRouter):
    """Answers the first request with an ok envelope whose value is not a map."""

    def __init__(self, odd: object, provider: ScriptedProvider) -> None:
        super().__init__([Alias("m", provider)])
        self.odd = odd
        self.sent = 0

    def llm_request(self, arguments: object, history: Sequence[Message] = ()) -> dict[str, object]:
        self.sent += 1
        if self.sent == 1:
            return {"status": "ok", "value": self.odd}
        return super().llm_request(arguments, history)


@pytest.mark.parametrize("odd", ["just text", [1, 2], 7, None])
def test_PRO_11_non_map_response_gives_only_a_user_correction(odd: object) -> None:
    sp = ScriptedProvider([call("(return 1)")])
    out = run_outcome("t", router=_OddFirst(odd, sp))
    assert out.value == 1 and out.protocol_errors == 1
    msgs = messages(sp)
    assert [m["role"] for m in msgs] == ["user", "user"]  # no assistant message at all
    assert "invalid-response" in str(msgs[1]["content"])


def test_TRN_02_equal_limit_passes_one_less_fails_mid_run() -> None:
    # a protocol-error turn: the second request carries narration and a user correction
    script = [text("thinking aloud"), call("(return 2)")]
    _, sp = agent(list(script))
    second = encoded_len(sp, 1)  # the larger, second request decides
    out, _ = agent(list(script), config={"max_transcript_chars": second})
    assert out.value == 2
    sp = ScriptedProvider(list(script))
    with pytest.raises(AgentError) as info:
        run_outcome("Do the task.", model=sp, config={"max_transcript_chars": second - 1})
    err = info.value
    assert err.code == "runtime_limit_exceeded"
    assert err.details["limit"] == "max_transcript_chars" and err.details["value"] == second - 1
    assert len(sp.requests) == 1  # the second request was never dispatched


@pytest.mark.parametrize("model", ["(fn [] 1)", "##NaN"])
def test_TRN_04_unencodable_request_fails_before_dispatch(model: str) -> None:
    sp = ScriptedProvider([call("(return 1)")])
    with pytest.raises(AgentError) as info:
        run_workflow(f'(agent.core/run-outcome "t" {{"model" {model}}})', model=sp)
    assert info.value.code == "workflow_error"
    assert "json/generate-string" in info.value.message
    assert sp.requests == []


SIG = "{total :int, items [{sku :string, qty :int}]}"


def test_RES_03_correction_never_echoes_candidate_or_undeclared_keys() -> None:
    bad = ('(return {:total "CAND-VALUE-1" :items [{:sku 99 :qty "CAND-VALUE-2"}] '
           ':undeclared-SECRET-KEY "CAND-VALUE-3"})')
    out, sp = agent([call(bad), call('(return {:total 1 :items []})')], signature=SIG)
    assert out.ok
    fb = last_content(sp)
    assert "does not satisfy the result contract" in fb
    assert "total" in fb and "sku" in fb and "qty" in fb  # declared paths are named
    for secret in ("CAND-VALUE", "99", "undeclared-SECRET-KEY", "SECRET"):
        assert secret not in fb
    # the candidate stays out of every later request too, not only the feedback message
    assert "CAND-VALUE" not in json.dumps([m for m in messages(sp) if m["role"] != "assistant"])


def _huge_details(self: AgentHost, args: Any) -> dict[str, Any]:
    # The standard host bounds its own details (8 violations, 256-character paths) far below
    # the loop's cap; a host with richer diagnostics is what the 32,768 cap is there for.
    violations = [{"kind": "missing", "path": f"field{i}" + "x" * 500} for i in range(100)]
    return {"enforced?": True, "valid?": False, "details": {"violations": violations}}


def test_RES_04_contract_diagnostics_capped_with_marker(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(AgentHost, "validate_result", _huge_details)
    sp = ScriptedProvider([call("(return {})"), call("(return 1)")])
    with pytest.raises(AgentError) as info:
        run_outcome("t", model=sp, signature="{a :int}", config={"max_turns": 2})
    assert info.value.code == "result_contract_failed"
    fb = last_content(sp)
    diagnostics = fb.split("Return a corrected value.\n", 1)[1].split("\n\nTurns remaining")[0]
    assert len(diagnostics) == 32_768
    assert diagnostics.endswith("\n...[contract diagnostics truncated]")


def test_RES_04_small_diagnostics_have_no_marker() -> None:
    out, sp = agent([call("(return {})"), call("(return {:a 1})")], signature="{a :int}")
    assert out.ok and "truncated" not in last_content(sp)


def test_RES_04_capped_diagnostics_still_respect_the_transcript_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(AgentHost, "validate_result", _huge_details)
    sp = ScriptedProvider([call("(return {})"), call("(return 1)")])
    with pytest.raises(AgentError) as info:
        run_outcome("t", model=sp, signature="{a :int}",
                    config={"max_turns": 3, "max_transcript_chars": 30_000})
    assert info.value.code == "runtime_limit_exceeded"
    assert info.value.details["limit"] == "max_transcript_chars"
    assert len(sp.requests) == 1  # the correction request was measured and never sent


def _effect_tools(log: list[str]) -> dict[str, Any]:
    def undeclared(args):  # type: ignore[no-untyped-def]  # untyped: receives the map
        log.append("undeclared")
        return 1

    def writer(args):  # type: ignore[no-untyped-def]  # untyped: receives the map
        log.append("write")
        return {"ok": True}

    return {"undeclared": Tool(undeclared, effect=None), "plain": lambda a: 1,
            "write": Tool(writer, effect="write")}


@pytest.mark.parametrize("tool", ["undeclared", "plain"])
def test_EFF_05_missing_effect_metadata_is_not_retryable(tool: str) -> None:
    log: list[str] = []
    out, sp = agent([call(f"(tool/{tool} {{}}) (/ 1 0)"), call("(tool/write {}) (/ 1 0)")],
                    tools=_effect_tools(log), config={"max_turns": 3})
    fb = last_content(sp)
    assert "Do not repeat that program" in fb
    assert out.status == "subject-failure" and out.kind == "non-retryable-evaluation"


CONTRACTED = ('(ns calc "Checked arithmetic.") '
              '(defn double-it "Twice n." {:signature "(n :int) -> :int"} [n] (* 2 n))')


def test_EFF_06_pure_contract_failure_is_correctable() -> None:
    out, sp = agent([call('(calc/double-it "two")'), call("(return (calc/double-it 2))")],
                    preludes=[CONTRACTED])
    assert out.value == 4
    fb = last_content(sp)
    assert "calc/double-it" in fb and "Do not repeat" not in fb


def test_EFF_06_contract_failure_after_a_write_is_not_retryable() -> None:
    log: list[str] = []
    out, sp = agent([call('(tool/write {}) (calc/double-it "two")'),
                     call("(return (calc/double-it 2))")],
                    preludes=[CONTRACTED], tools=_effect_tools(log))
    assert out.value == 4  # the closing turn decided from the evidence
    assert "Do not repeat that program" in last_content(sp)
    assert log == ["write"]  # the loop never repeated the write
