"""OpenAI-compatible adapter against a real loopback HTTP server speaking Chat Completions."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from llm_fake_server import FakeLLMServer, Reply, closed_port

from ptc_agent.providers import (
    RUN_PTC_LISP_TOOL,
    Message,
    OpenAIChatProvider,
    ProviderError,
    Request,
    ToolCall,
    Usage,
)

KEY = "sk-test-SECRET-0123456789abcdef"


def completion(**message: Any) -> dict[str, Any]:
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", **message},
                "finish_reason": "tool_calls" if "tool_calls" in message else "stop",
            }
        ],
        "usage": {
            "prompt_tokens": 120,
            "completion_tokens": 30,
            "prompt_tokens_details": {"cached_tokens": 64},
        },
    }


TOOL_REPLY = completion(
    content="Let me count.",
    tool_calls=[
        {
            "id": "call_1",
            "type": "function",
            "function": {"name": "run_ptc_lisp", "arguments": '{"program": "(return 1)"}'},
        }
    ],
)

REQUEST = Request(
    system="You write PTC-Lisp.",
    messages=(
        Message("user", "Count the items. 2 turns remain."),
        Message(
            "assistant",
            "Trying.",
            (ToolCall("call_0", "run_ptc_lisp", {"program": "(count data/items)"}),),
        ),
        Message("tool", "3", tool_call_id="call_0"),
    ),
    max_tokens=256,
    temperature=0.0,
    timeout=5.0,
)


def provider(server: FakeLLMServer, **kw: Any) -> OpenAIChatProvider:
    return OpenAIChatProvider("gpt-test", base_url=server.base_url + "/v1", api_key=KEY, **kw)


def test_tool_call_success(server: FakeLLMServer) -> None:
    server.reply(Reply(200, TOOL_REPLY))
    response = provider(server).request(REQUEST)
    assert response.content == "Let me count."
    assert response.tool_calls == (ToolCall("call_1", "run_ptc_lisp", {"program": "(return 1)"}),)
    assert response.finish_reason == "tool_calls"
    assert response.usage == Usage(input=120, output=30, cache_read=64)


def test_request_shape(server: FakeLLMServer) -> None:
    server.reply(Reply(200, TOOL_REPLY))
    provider(server).request(REQUEST)
    [seen] = server.requests
    assert seen.path == "/v1/chat/completions"
    assert seen.headers["authorization"] == f"Bearer {KEY}"
    assert seen.headers["content-type"] == "application/json"
    assert seen.body == {
        "model": "gpt-test",
        "messages": [
            {"role": "system", "content": "You write PTC-Lisp."},
            {"role": "user", "content": "Count the items. 2 turns remain."},
            {
                "role": "assistant",
                "content": "Trying.",
                "tool_calls": [
                    {
                        "id": "call_0",
                        "type": "function",
                        "function": {
                            "name": "run_ptc_lisp",
                            "arguments": '{"program": "(count data/items)"}',
                        },
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "call_0", "content": "3"},
        ],
        "tools": [
            {
                "type": "function",
                "function": {
                    "name": "run_ptc_lisp",
                    "description": RUN_PTC_LISP_TOOL.description,
                    "parameters": {
                        "type": "object",
                        "additionalProperties": False,
                        "required": ["program"],
                        "properties": {"program": {"type": "string"}},
                    },
                },
            }
        ],
        "tool_choice": "auto",
        "max_tokens": 256,
        "temperature": 0.0,
    }


def test_no_key_sends_no_authorization(server: FakeLLMServer) -> None:
    server.reply(Reply(200, completion(content="hi")))
    OpenAIChatProvider("m", base_url=server.base_url).request(
        Request((Message("user", "x"),), tools=())
    )
    [seen] = server.requests
    assert "authorization" not in seen.headers
    assert "tools" not in seen.body and "tool_choice" not in seen.body
    assert "max_tokens" not in seen.body and "temperature" not in seen.body


def test_tool_choice_required(server: FakeLLMServer) -> None:
    server.reply(Reply(200, TOOL_REPLY))
    provider(server, tool_choice="required").request(REQUEST)
    assert server.requests[0].body["tool_choice"] == "required"


@pytest.mark.parametrize(
    ("arguments", "args", "error"),
    [
        pytest.param('{"program": "(+ 1 2)"}', {"program": "(+ 1 2)"}, None, id="json-string"),
        pytest.param({"program": "(+ 1 2)"}, {"program": "(+ 1 2)"}, None, id="object"),
        pytest.param('{"program": ', {}, "invalid_json", id="truncated-json"),
        pytest.param('["(+ 1 2)"]', {}, "not_object", id="array"),
        pytest.param("", {}, None, id="empty-string"),
    ],
)
def test_arguments(
    server: FakeLLMServer, arguments: Any, args: dict[str, Any], error: str | None
) -> None:
    server.reply(
        Reply(
            200,
            completion(
                content=None,
                tool_calls=[
                    {
                        "id": "c",
                        "type": "function",
                        "function": {"name": "run_ptc_lisp", "arguments": arguments},
                    }
                ],
            ),
        )
    )
    [call] = provider(server).request(REQUEST).tool_calls
    assert (dict(call.args), call.args_error) == (args, error)


def test_text_without_tool_calls(server: FakeLLMServer) -> None:
    server.reply(Reply(200, completion(content="I cannot.")))
    response = provider(server).request(REQUEST)
    assert (response.content, response.tool_calls, response.finish_reason) == (
        "I cannot.",
        (),
        "stop",
    )


def test_length_finish_reason_passes_through(server: FakeLLMServer) -> None:
    body = completion(content="partial")
    body["choices"][0]["finish_reason"] = "length"
    server.reply(Reply(200, body))
    assert provider(server).request(REQUEST).finish_reason == "length"


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
    pytest.param(425, "invalid_request", True, id="425"),
    pytest.param(429, "rate_limited", True, id="429"),
    pytest.param(500, "unavailable", True, id="500"),
    pytest.param(502, "unavailable", True, id="502"),
    pytest.param(503, "unavailable", True, id="503"),
    pytest.param(504, "unavailable", True, id="504"),
    pytest.param(529, "unavailable", True, id="529"),
]


@pytest.mark.parametrize(("status", "reason", "retryable"), STATUSES)
def test_status_maps_to_reason(
    server: FakeLLMServer, status: int, reason: str, retryable: bool
) -> None:
    server.reply(Reply(status, {"error": {"message": "upstream said no", "type": "x"}}))
    with pytest.raises(ProviderError) as info:
        provider(server).request(REQUEST)
    failure = info.value.failure
    assert (failure.kind, failure.reason, failure.retryable) == (
        "provider_error",
        reason,
        retryable,
    )
    assert failure.status == status
    assert failure.details == f"HTTP {status}: upstream said no"


def test_429_retry_after(server: FakeLLMServer) -> None:
    server.reply(Reply(429, {"error": {"message": "slow down"}}, headers={"retry-after": "7"}))
    with pytest.raises(ProviderError) as info:
        provider(server).request(REQUEST)
    failure = info.value.failure
    assert (failure.reason, failure.retryable, failure.retry_after) == ("rate_limited", True, 7.0)
    assert failure.details == "HTTP 429; retry after 7s: slow down"


def test_404_without_tool_support(server: FakeLLMServer) -> None:
    server.reply(Reply(404, {"error": {"message": "No endpoints found that support tool use."}}))
    with pytest.raises(ProviderError) as info:
        provider(server).request(REQUEST)
    assert (info.value.failure.reason, info.value.failure.retryable) == (
        "tool_calling_unsupported",
        False,
    )


def test_error_details_never_leak_key_or_raw_body(server: FakeLLMServer) -> None:
    server.reply(Reply(401, {"error": {"message": f"Incorrect API key provided: {KEY}"}}))
    with pytest.raises(ProviderError) as info:
        provider(server).request(REQUEST)
    envelope = json.dumps(info.value.failure.to_envelope())
    assert KEY not in envelope and "[redacted]" in envelope


def test_non_json_error_body_is_not_echoed(server: FakeLLMServer) -> None:
    server.reply(Reply(502, raw=b"<html>Bad gateway from proxy 10.0.0.7</html>"))
    with pytest.raises(ProviderError) as info:
        provider(server).request(REQUEST)
    assert info.value.failure.details == "HTTP 502"


def test_long_error_message_is_bounded(server: FakeLLMServer) -> None:
    server.reply(Reply(400, {"error": {"message": "x" * 50_000}}))
    with pytest.raises(ProviderError) as info:
        provider(server).request(REQUEST)
    details = info.value.failure.details
    assert isinstance(details, str) and len(details) <= 1024


def test_slow_response_is_timeout(server: FakeLLMServer) -> None:
    server.reply(Reply(200, TOOL_REPLY, delay=5.0))
    started = time.monotonic()
    with pytest.raises(ProviderError) as info:
        provider(server).request(Request(REQUEST.messages, timeout=0.3))
    assert time.monotonic() - started < 2.0
    failure = info.value.failure
    assert (failure.kind, failure.reason, failure.retryable) == ("provider_error", "timeout", True)


def test_connection_refused_is_transport_error() -> None:
    adapter = OpenAIChatProvider("m", base_url=f"http://127.0.0.1:{closed_port()}/v1")
    with pytest.raises(ProviderError) as info:
        adapter.request(REQUEST)
    failure = info.value.failure
    assert (failure.reason, failure.retryable) == ("transport_error", True)
    assert "127.0.0.1" not in str(failure.details)


def test_dropped_connection_is_transport_error(server: FakeLLMServer) -> None:
    server.reply(Reply(drop=True))
    with pytest.raises(ProviderError) as info:
        provider(server).request(REQUEST)
    assert (info.value.failure.reason, info.value.failure.retryable) == ("transport_error", True)


MALFORMED = [
    pytest.param(b"{not json", id="invalid-json"),
    pytest.param(b"[1, 2]", id="array-body"),
    pytest.param(b'{"choices": []}', id="no-choices"),
    pytest.param(b'{"choices": [{"message": "hi"}]}', id="message-not-object"),
    pytest.param(b'{"choices": [{"message": {"content": 7}}]}', id="content-not-string"),
    pytest.param(
        b'{"choices": [{"message": {"content": "", "tool_calls": {}}}]}', id="tool-calls-not-array"
    ),
    pytest.param(
        b'{"choices": [{"message": {"content": "a"}}], "usage": {"prompt_tokens": -1}}',
        id="negative-usage",
    ),
    pytest.param(b"\xff\xfe", id="not-utf8"),
]


@pytest.mark.parametrize("raw", MALFORMED)
def test_malformed_success_body_is_invalid_result(server: FakeLLMServer, raw: bytes) -> None:
    server.reply(Reply(200, raw=raw))
    with pytest.raises(ProviderError) as info:
        provider(server).request(REQUEST)
    failure = info.value.failure
    assert (failure.kind, failure.reason, failure.retryable) == (
        "provider_error",
        "invalid_result",
        False,
    )


def test_oversized_body_is_invalid_result(server: FakeLLMServer) -> None:
    server.reply(Reply(200, completion(content="x" * 10_000)))
    with pytest.raises(ProviderError) as info:
        provider(server, max_response_bytes=1000).request(REQUEST)
    assert info.value.failure.reason == "invalid_result"
