"""agent-design §3.12 Provider lines PRV-02, PRV-03, PRV-04 and PRV-07, driven through the
whole loop: scripted providers, and the HTTP adapters against a loopback server."""

from __future__ import annotations

from typing import Any

import pytest
from llm_fake_server import FakeLLMServer, Reply, closed_port
from loop_helpers import agent, call

from ptc_agent import AgentError, run_outcome, run_value
from ptc_agent.providers import (
    Alias,
    AnthropicProvider,
    ModelRouter,
    OpenAIChatProvider,
    ProviderError,
    ProviderFailure,
    Request,
    ScriptedProvider,
)
from ptc_agent.providers.failure import DETAILS_LIMIT
from ptc_agent.run_limits import HostLimits

ENVELOPE_KEYS = {"status", "kind", "reason", "retryable?", "details", "model"}


def test_PRV_02_envelope_fields_bounded_details_and_resolved_alias() -> None:
    long = ProviderFailure("provider_error", "unavailable", True, "upstream: " + "x" * 5000)
    p = ScriptedProvider([long])
    out = run_outcome("t", router=ModelRouter([Alias("fast", p), Alias("deep", ScriptedProvider(),
                                                                        default=True)]),
                      config={"model": "fast"})
    env = out.error
    assert set(env) == ENVELOPE_KEYS
    assert (env["status"], env["kind"], env["reason"], env["retryable?"]) == (
        "error", "provider_error", "unavailable", True)
    assert isinstance(env["details"], str) and len(env["details"]) == DETAILS_LIMIT
    assert env["model"] == "fast" and out.model == "fast"


def test_PRV_02_defaulted_alias_is_named_too() -> None:
    p = ScriptedProvider([ProviderFailure("provider_error", "denied", False)])
    out = run_outcome("t", router=ModelRouter([Alias("a", ScriptedProvider()),
                                               Alias("b", p, default=True)]))
    assert out.error["model"] == "b" and out.model == "b"
    assert "details" not in out.error  # absent, not an empty placeholder


OPENAI_ERROR = {"error": {"message": "upstream said no", "type": "x"}}
ANTHROPIC_ERROR = {"type": "error", "error": {"type": "x", "message": "upstream said no"}}


@pytest.mark.parametrize(("status", "reason", "retryable"), [
    (400, "invalid_request", False), (401, "authentication_failed", False),
    (402, "payment_required", False), (403, "denied", False), (404, "not_found", False),
    (408, "timeout", True), (409, "invalid_request", True), (425, "invalid_request", True),
    (429, "rate_limited", True), (500, "unavailable", True), (503, "unavailable", True)])
@pytest.mark.parametrize("adapter", ["openai", "anthropic"])
def test_PRV_03_http_status_to_closed_reason_through_the_loop(
    server: FakeLLMServer, adapter: str, status: int, reason: str, retryable: bool
) -> None:
    body = OPENAI_ERROR if adapter == "openai" else ANTHROPIC_ERROR
    server.reply(Reply(status, body))
    provider: Any = (
        OpenAIChatProvider("m", base_url=server.base_url + "/v1", api_key="k")
        if adapter == "openai"
        else AnthropicProvider("m", base_url=server.base_url, api_key="k")
    )
    router = ModelRouter([Alias("live", provider, timeout=5)])
    out = run_outcome("t", router=router)
    router.close()
    assert out.status == "provider-failure" and out.model == "live"
    assert (out.error["kind"], out.error["reason"], out.error["retryable?"]) == (
        "provider_error", reason, retryable)
    assert out.error["details"] == f"HTTP {status}: upstream said no"
    assert len(server.requests) == 1  # provider failures are never retried inside the loop


def test_PRV_03_transport_failures_through_the_loop(server: FakeLLMServer) -> None:
    refused = OpenAIChatProvider("m", base_url=f"http://127.0.0.1:{closed_port()}/v1")
    server.reply(Reply(200, {}, delay=3.0))
    slow = OpenAIChatProvider("m", base_url=server.base_url + "/v1")
    router = ModelRouter([Alias("refused", refused), Alias("slow", slow, timeout=0.2)])
    out = run_outcome("t", router=router, config={"model": "refused"})
    assert (out.error["reason"], out.error["retryable?"]) == ("transport_error", True)
    out = run_outcome("t", router=router, config={"model": "slow"})
    assert (out.error["reason"], out.error["retryable?"]) == ("timeout", True)
    router.close()


def test_PRV_04_unclassified_requester_error_is_retryable_unavailable() -> None:
    out, _ = agent([call("1"), ProviderError("socket_closed")])
    assert out.error == {"status": "error", "kind": "provider_error", "reason": "unavailable",
                         "retryable?": True, "details": "socket_closed", "model": "model"}
    out, _ = agent([ProviderError()])
    assert out.error["reason"] == "unavailable" and "details" not in out.error


def test_PRV_04_unclassified_text_is_sanitized() -> None:
    out, _ = agent([ProviderError("bad key sk-live-0123456789abcdef\nsecond line")])
    assert out.error["details"] == "bad key [redacted] second line"


class _Odd:
    """A provider that breaks its contract: neither a response nor a failure."""

    def __init__(self) -> None:
        self.closed = 0

    def request(self, request: Request) -> Any:
        return {"content": "a plain dict, not a Response"}

    def close(self) -> None:
        self.closed += 1


def test_PRV_04_neither_response_nor_failure_is_internal() -> None:
    odd = _Odd()
    out = run_outcome("t", model=odd)
    assert (out.error["kind"], out.error["reason"], out.error["retryable?"]) == (
        "provider_error", "internal", False)
    assert odd.closed == 1


def test_PRV_07_global_model_call_quota_names_the_limit() -> None:
    sp = ScriptedProvider([call("1"), call("2"), call("(return 3)")])
    out = run_outcome("t", model=sp, limits=HostLimits(workflow_capability_calls=2))
    assert out.status == "provider-failure" and out.model == "model"
    assert out.error == {"status": "error", "kind": "limit_exceeded", "reason": "capability_quota",
                         "retryable?": False, "model": "model",
                         "details": {"limit": "workflow_capability_calls", "name": "llm-request",
                                     "limit_value": 2}}
    assert len(sp.requests) == 2  # the refused request never reached the provider
    assert out.usage["model"]["calls"] == 2


def test_PRV_07_value_entries_fail_with_capability_quota() -> None:
    sp = ScriptedProvider([call("1"), call("(return 3)")])
    with pytest.raises(AgentError) as info:
        run_value("t", model=sp, limits=HostLimits(workflow_capability_calls=1))
    assert info.value.code == "capability_quota_exceeded"
    assert info.value.details["reason"] == "capability_quota"


def test_PRV_07_quota_refusal_is_not_a_subject_failure() -> None:
    out, _ = agent([], limits=HostLimits(workflow_capability_calls=0))
    assert out.status == "provider-failure" and out.kind is None
