"""Anthropic adapter against a real loopback HTTP server speaking the Messages API."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from llm_fake_server import FakeLLMServer, Reply, closed_port

from ptc_agent.providers import (
    RUN_PTC_LISP_TOOL,
    AnthropicProvider,
    Message,
    ProviderError,
    Request,
    ToolCall,
    Usage,
)

KEY = "sk-ant-test-SECRET-0123456789"


def message(*blocks: dict[str, Any], stop: str = "tool_use") -> dict[str, Any]:
    return {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-test",
        "content": list(blocks),
        "stop_reason": stop,
        "usage": {
            "input_tokens": 200,
            "output_tokens": 40,
            "cache_creation_input_tokens": 10,
            "cache_read_input_tokens": 150,
        },
    }


TOOL_REPLY = message(
    {"type": "text", "text": "Counting now."},
    {
        "type": "tool_use",
        "id": "toolu_1",
        "name": "run_ptc_lisp",
        "input": {"program": "(return 3)"},
    },
)

REQUEST = Request(
    system="You write PTC-Lisp.",
    messages=(
        Message("user", "Count the items. 2 turns remain."),
        Message(
            "assistant",
            "Trying.",
            (ToolCall("toolu_0", "run_ptc_lisp", {"program": "(count data/items)"}),),
        ),
        Message("tool", "3", tool_call_id="toolu_0"),
        Message("user", "1 turn remains: the next program must call return or fail."),
    ),
    max_tokens=512,
    temperature=0.2,
    timeout=5.0,
)


def provider(server: FakeLLMServer, **kw: Any) -> AnthropicProvider:
    return AnthropicProvider("claude-test", base_url=server.base_url, api_key=KEY, **kw)


def failure_of(server: FakeLLMServer, request: Request = REQUEST, **kw: Any) -> Any:
    with pytest.raises(ProviderError) as info:
        provider(server, **kw).request(request)
    return info.value.failure


def test_tool_use_success(server: FakeLLMServer) -> None:
    server.reply(Reply(200, TOOL_REPLY))
    response = provider(server).request(REQUEST)
    assert response.content == "Counting now."
    assert response.tool_calls == (ToolCall("toolu_1", "run_ptc_lisp", {"program": "(return 3)"}),)
    assert response.finish_reason == "tool_calls"
    assert response.usage == Usage(input=200, output=40, cache_creation=10, cache_read=150)


def test_request_shape_merges_tool_result_and_correction(server: FakeLLMServer) -> None:
    server.reply(Reply(200, TOOL_REPLY))
    provider(server).request(REQUEST)
    [seen] = server.requests
    assert seen.path == "/v1/messages"
    assert seen.headers["x-api-key"] == KEY
    assert seen.headers["anthropic-version"] == "2023-06-01"
    assert "authorization" not in seen.headers
    assert seen.body == {
        "model": "claude-test",
        "max_tokens": 512,
        "system": "You write PTC-Lisp.",
        "messages": [
            {
                "role": "user",
                "content": [{"type": "text", "text": "Count the items. 2 turns remain."}],
            },
            {
                "role": "assistant",
                "content": [
                    {"type": "text", "text": "Trying."},
                    {
                        "type": "tool_use",
                        "id": "toolu_0",
                        "name": "run_ptc_lisp",
                        "input": {"program": "(count data/items)"},
                    },
                ],
            },
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": "toolu_0", "content": "3"},
                    {
                        "type": "text",
                        "text": "1 turn remains: the next program must call return or fail.",
                    },
                ],
            },
        ],
        "tools": [
            {
                "name": "run_ptc_lisp",
                "description": RUN_PTC_LISP_TOOL.description,
                "input_schema": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["program"],
                    "properties": {"program": {"type": "string"}},
                },
            }
        ],
        "tool_choice": {"type": "auto"},
        "temperature": 0.2,
    }


def test_defaults_max_tokens_and_hoists_system_messages(server: FakeLLMServer) -> None:
    server.reply(Reply(200, message({"type": "text", "text": "ok"}, stop="end_turn")))
    request = Request((Message("system", "Be brief."), Message("user", "hi")), tools=())
    provider(server, version="2024-01-01").request(request)
    [seen] = server.requests
    assert seen.headers["anthropic-version"] == "2024-01-01"
    assert seen.body == {
        "model": "claude-test",
        "max_tokens": 4096,
        "system": "Be brief.",
        "messages": [{"role": "user", "content": [{"type": "text", "text": "hi"}]}],
    }


@pytest.mark.parametrize(
    ("stop", "finish"),
    [
        ("end_turn", "stop"),
        ("stop_sequence", "stop"),
        ("max_tokens", "length"),
        ("tool_use", "tool_calls"),
        ("refusal", "refusal"),
    ],
)
def test_stop_reason_is_normalized(server: FakeLLMServer, stop: str, finish: str) -> None:
    server.reply(Reply(200, message({"type": "text", "text": "t"}, stop=stop)))
    assert provider(server).request(REQUEST).finish_reason == finish


def test_tool_use_input_not_object(server: FakeLLMServer) -> None:
    server.reply(
        Reply(
            200,
            message({"type": "tool_use", "id": "t", "name": "run_ptc_lisp", "input": "(+ 1 2)"}),
        )
    )
    [call] = provider(server).request(REQUEST).tool_calls
    assert (dict(call.args), call.args_error) == ({}, "not_object")


STATUSES = [
    pytest.param(400, "invalid_request", False, id="400"),
    pytest.param(401, "authentication_failed", False, id="401"),
    pytest.param(402, "payment_required", False, id="402"),
    pytest.param(403, "denied", False, id="403"),
    pytest.param(404, "not_found", False, id="404"),
    pytest.param(408, "timeout", True, id="408"),
    pytest.param(409, "invalid_request", True, id="409"),
    pytest.param(413, "invalid_request", False, id="413"),
    pytest.param(422, "invalid_request", False, id="422"),
    pytest.param(429, "rate_limited", True, id="429"),
    pytest.param(500, "unavailable", True, id="500"),
    pytest.param(502, "unavailable", True, id="502"),
    pytest.param(503, "unavailable", True, id="503"),
    pytest.param(504, "unavailable", True, id="504"),
    pytest.param(529, "unavailable", True, id="529-overloaded"),
]


@pytest.mark.parametrize(("status", "reason", "retryable"), STATUSES)
def test_status_maps_to_reason(
    server: FakeLLMServer, status: int, reason: str, retryable: bool
) -> None:
    server.reply(
        Reply(status, {"type": "error", "error": {"type": "some_error", "message": "nope"}})
    )
    failure = failure_of(server)
    assert (failure.kind, failure.reason, failure.retryable) == (
        "provider_error",
        reason,
        retryable,
    )
    assert failure.details == f"HTTP {status}: nope"


def test_429_retry_after_http_date(server: FakeLLMServer) -> None:
    server.reply(
        Reply(
            429,
            {"type": "error", "error": {"type": "rate_limit_error", "message": "slow"}},
            headers={"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"},
        )
    )
    failure = failure_of(server)
    assert (failure.reason, failure.retryable, failure.retry_after) == ("rate_limited", True, 0.0)


def test_key_is_redacted_from_details(server: FakeLLMServer) -> None:
    server.reply(
        Reply(
            401,
            {
                "type": "error",
                "error": {"type": "authentication_error", "message": f"invalid x-api-key {KEY}"},
            },
        )
    )
    text = json.dumps(failure_of(server).to_envelope())
    assert KEY not in text and "SECRET" not in text


def test_slow_response_is_timeout(server: FakeLLMServer) -> None:
    server.reply(Reply(200, TOOL_REPLY, delay=5.0))
    started = time.monotonic()
    failure = failure_of(server, Request(REQUEST.messages, timeout=0.3))
    assert time.monotonic() - started < 2.0
    assert (failure.reason, failure.retryable) == ("timeout", True)


def test_connection_refused_is_transport_error() -> None:
    adapter = AnthropicProvider("m", base_url=f"http://127.0.0.1:{closed_port()}", api_key=KEY)
    with pytest.raises(ProviderError) as info:
        adapter.request(REQUEST)
    assert (info.value.failure.reason, info.value.failure.retryable) == ("transport_error", True)


def test_dropped_connection_is_transport_error(server: FakeLLMServer) -> None:
    server.reply(Reply(drop=True))
    assert failure_of(server).reason == "transport_error"


MALFORMED = [
    pytest.param(b"not json at all", id="invalid-json"),
    pytest.param(b'"a string"', id="string-body"),
    pytest.param(b'{"type": "message"}', id="no-content"),
    pytest.param(b'{"content": [1]}', id="block-not-object"),
    pytest.param(b'{"content": [{"type": "text", "text": null}]}', id="text-not-string"),
    pytest.param(b'{"content": [], "usage": {"input_tokens": "many"}}', id="usage-not-int"),
]


@pytest.mark.parametrize("raw", MALFORMED)
def test_malformed_success_body_is_invalid_result(server: FakeLLMServer, raw: bytes) -> None:
    server.reply(Reply(200, raw=raw))
    failure = failure_of(server)
    assert (failure.kind, failure.reason, failure.retryable) == (
        "provider_error",
        "invalid_result",
        False,
    )
