"""PRV-16 with cap provenance: a `length` response carries the effective `max_tokens` the
adapter sent (`output_limit` with its canonically ordered bindings), and the terminal
`model_output_truncated` diagnostic names that cap, its bindings and the remedy per binding;
unprovable cap metadata is left out. Adapters run against real loopback HTTP servers."""

from __future__ import annotations

from typing import Any

import pytest
from llm_fake_server import FakeLLMServer, Reply
from loop_helpers import call

from ptc_agent import AgentError, run_outcome
from ptc_agent.host import TRUNCATION_REMEDIES, AgentHost
from ptc_agent.providers import (
    AnthropicProvider,
    Message,
    OpenAIChatProvider,
    Request,
    RequestShapeError,
    ScriptedProvider,
    response_from_json,
    router_from_config,
)
from ptc_agent.providers.request import OutputLimit, effective_output_limit
from ptc_agent.workflow import run_workflow

HI = Request((Message("user", "hi"),))


def openai_length(content: str = "partial") -> dict[str, Any]:
    return {
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                     "finish_reason": "length"}],
    }


def anthropic_stop(stop: str) -> dict[str, Any]:
    return {"id": "m", "type": "message", "role": "assistant", "model": "c",
            "content": [{"type": "text", "text": "partial"}], "stop_reason": stop}


def limit_of(response: Any) -> Any:
    return None if response.output_limit is None else response.output_limit.to_json()


# ---------------------------------------------------------------- the cap and its bindings


@pytest.mark.parametrize(
    ("candidates", "value", "bindings"),
    [
        ({"configured": 300}, 300, ["configured"]),
        ({"configured": 300, "model_output_limit": 200}, 200, ["model_output_limit"]),
        ({"configured": 200, "model_output_limit": 200}, 200, ["configured", "model_output_limit"]),
        ({"remaining_context": 50, "adapter_default": 50, "model_output_limit": 80}, 50,
         ["adapter_default", "remaining_context"]),
        ({"configured": None, "adapter_default": 4096}, 4096, ["adapter_default"]),
    ],
)
def test_effective_cap_keeps_every_tied_binding_in_canonical_order(
    candidates: dict[str, int | None], value: int, bindings: list[str]
) -> None:
    cap = effective_output_limit(candidates)
    assert cap is not None and cap.to_json() == {"name": "max_tokens", "value": value,
                                                 "bindings": bindings}


def test_no_cap_in_force_is_no_output_limit() -> None:
    assert effective_output_limit({"configured": None}) is None


@pytest.mark.parametrize(
    "limit",
    [
        {"name": "max_tokens", "value": 10, "bindings": []},
        {"name": "max_tokens", "value": 10, "bindings": ["model_output_limit", "configured"]},
        {"name": "max_tokens", "value": 10, "bindings": ["configured", "configured"]},
        {"name": "max_tokens", "value": 10, "bindings": ["catalog"]},
        {"name": "max_output_tokens", "value": 10, "bindings": ["configured"]},
        {"name": "max_tokens", "value": 0, "bindings": ["configured"]},
        {"name": "max_tokens", "value": True, "bindings": ["configured"]},
        {"name": "max_tokens", "value": 10, "bindings": ["configured"], "extra": 1},
    ],
)
def test_malformed_output_limit_is_refused(limit: dict[str, Any]) -> None:
    with pytest.raises(RequestShapeError, match="output_limit"):
        response_from_json({"content": "", "finish_reason": "length", "output_limit": limit})


# ---------------------------------------------------------------- adapters (loopback HTTP)


def test_openai_length_response_states_the_configured_cap(server: FakeLLMServer) -> None:
    server.reply(Reply(200, openai_length()))
    p = OpenAIChatProvider("gpt-test", base_url=server.base_url)
    response = p.request(Request(HI.messages, max_tokens=300))
    assert server.requests[0].body["max_tokens"] == 300
    assert response.finish_reason == "length"
    assert limit_of(response) == {"name": "max_tokens", "value": 300, "bindings": ["configured"]}


def test_openai_catalog_limit_lowers_the_cap_it_sends(server: FakeLLMServer) -> None:
    server.reply(Reply(200, openai_length()), Reply(200, openai_length()))
    p = OpenAIChatProvider("gpt-test", base_url=server.base_url, model_output_limit=128)
    assert limit_of(p.request(Request(HI.messages, max_tokens=300))) == {
        "name": "max_tokens", "value": 128, "bindings": ["model_output_limit"]}
    assert limit_of(p.request(Request(HI.messages, max_tokens=128))) == {
        "name": "max_tokens", "value": 128, "bindings": ["configured", "model_output_limit"]}
    assert [r.body["max_tokens"] for r in server.requests] == [128, 128]


def test_openai_without_a_configured_cap_states_none(server: FakeLLMServer) -> None:
    server.reply(Reply(200, openai_length()))
    p = OpenAIChatProvider("gpt-test", base_url=server.base_url, model_output_limit=128)
    response = p.request(HI)
    assert "max_tokens" not in server.requests[0].body
    assert response.finish_reason == "length" and response.output_limit is None


def test_openai_cap_only_on_length_responses(server: FakeLLMServer) -> None:
    body = openai_length()
    body["choices"][0]["finish_reason"] = "stop"
    server.reply(Reply(200, body))
    p = OpenAIChatProvider("gpt-test", base_url=server.base_url)
    response = p.request(Request(HI.messages, max_tokens=300))
    assert response.output_limit is None and "output_limit" not in response.to_json()


@pytest.mark.parametrize(
    ("kw", "max_tokens", "value", "bindings"),
    [
        ({}, None, 4096, ["adapter_default"]),
        ({}, 700, 700, ["configured"]),
        ({"default_max_tokens": 900}, None, 900, ["adapter_default"]),
        ({"model_output_limit": 1000}, None, 1000, ["model_output_limit"]),
        ({"model_output_limit": 700}, 700, 700, ["configured", "model_output_limit"]),
    ],
)
def test_anthropic_length_response_states_the_cap_it_sent(
    server: FakeLLMServer, kw: dict[str, Any], max_tokens: int | None, value: int,
    bindings: list[str],
) -> None:
    server.reply(Reply(200, anthropic_stop("max_tokens")))
    p = AnthropicProvider("claude-test", base_url=server.base_url, **kw)
    response = p.request(Request(HI.messages, max_tokens=max_tokens))
    assert server.requests[0].body["max_tokens"] == value
    assert response.finish_reason == "length"
    assert limit_of(response) == {"name": "max_tokens", "value": value, "bindings": bindings}


def test_anthropic_cap_only_on_length_responses(server: FakeLLMServer) -> None:
    server.reply(Reply(200, anthropic_stop("end_turn")))
    response = AnthropicProvider("claude-test", base_url=server.base_url).request(HI)
    assert response.output_limit is None


# ---------------------------------------------------------------- the terminal diagnostic


def test_PRV_16_diagnostic_names_the_cap_bindings_and_remedy_over_http(
    server: FakeLLMServer,
) -> None:
    server.reply(Reply(200, openai_length()))
    router = router_from_config({"aliases": {"fast": {
        "adapter": "openai", "model": "gpt-test", "base_url": server.base_url,
        "max_tokens": 512, "model_output_limit": 512}}})
    try:
        with pytest.raises(AgentError) as info:
            run_outcome("t", router=router)
    finally:
        router.close()
    err = info.value
    assert err.code == "model_output_truncated"
    assert err.details == {
        "alias": "fast", "max_tokens": 512, "bindings": ["configured", "model_output_limit"],
        "remedy": [TRUNCATION_REMEDIES["configured"], TRUNCATION_REMEDIES["model_output_limit"]],
    }
    assert "max_tokens cap was 512" in err.message and "may enforce a lower" in err.message
    stopped = err.trace[-1]["data"]
    assert stopped["failure_kind"] == "model-output-truncated" and stopped["model"] == "fast"
    assert stopped["limit"] == "max_tokens" and stopped["limit_value"] == 512
    assert stopped["limit_bindings"] == "configured,model_output_limit"
    assert len(server.requests) == 1  # terminal: no second turn, no protocol error


def test_PRV_16_without_a_stated_cap_the_diagnostic_omits_it() -> None:
    sp = ScriptedProvider([{"content": "partial", "finish_reason": "length"}])
    with pytest.raises(AgentError) as info:
        run_outcome("t", model=sp)
    assert info.value.details == {"alias": "model"}
    assert "limit" not in info.value.trace[-1]["data"]


def test_PRV_15_a_complete_call_still_runs_with_a_stated_cap() -> None:
    limit = {"name": "max_tokens", "value": 64, "bindings": ["configured"]}
    out = run_outcome("t", model=ScriptedProvider(
        [call("(return 3)", finish_reason="length", output_limit=limit)]))
    assert out.value == 3


def test_an_unrecorded_cap_is_left_out_of_the_report() -> None:
    # The reporter is agent.core's alone; even so, the host states a cap only when an adapter
    # stated exactly that cap on a truncated response of that alias in this run.
    host = AgentHost(router_from_config({"aliases": {"a": {"adapter": "openai", "model": "m"}}}),
                     {})
    host.transport.output_caps.append(("a", 64, ("configured",)))
    assert host._truncation({"alias": "a", "max_tokens": 64, "bindings": ["configured"]}) == {
        "alias": "a", "max_tokens": 64, "bindings": ["configured"],
        "remedy": [TRUNCATION_REMEDIES["configured"]]}
    for forged in ({"alias": "a", "max_tokens": 65, "bindings": ["configured"]},
                   {"alias": "a", "max_tokens": 64, "bindings": ["adapter_default"]},
                   {"alias": "b", "max_tokens": 64, "bindings": ["configured"]}):
        assert host._truncation(forged) == {"alias": forged["alias"]}


@pytest.mark.parametrize(
    ("limit", "kept"),
    [
        ('{"name" "max_tokens" "value" 9 "bindings" ["configured" "remaining_context"]}', True),
        ('{"name" "max_tokens" "value" 9 "bindings" ["remaining_context" "configured"]}', False),
        ('{"name" "max_tokens" "value" 9 "bindings" []}', False),
        ('{"name" "max_tokens" "value" -1 "bindings" ["configured"]}', False),
        ('{"name" "max_tokens" "value" 9 "bindings" ["configured"] "x" 1}', False),
        ('{"name" "tokens" "value" 9 "bindings" ["configured"]}', False),
    ],
)
def test_agent_native_keeps_only_well_formed_cap_metadata(limit: str, kept: bool) -> None:
    value = run_workflow(f'(agent.native/output-limit {{"output_limit" {limit}}})',
                         model=ScriptedProvider([]))
    assert (value is not None) is kept


def test_output_limit_dataclass_refuses_bad_bindings() -> None:
    with pytest.raises(RequestShapeError):
        OutputLimit(5, ("adapter_default", "configured"))
