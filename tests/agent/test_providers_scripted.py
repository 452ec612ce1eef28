"""ScriptedProvider and the neutral request/response JSON forms it and the loop use."""

from __future__ import annotations

from typing import Any

import pytest

from ptc_agent.providers import (
    RUN_PTC_LISP_TOOL,
    Message,
    ProviderError,
    ProviderFailure,
    Request,
    RequestShapeError,
    Response,
    ScriptedProvider,
    ScriptExhausted,
    ToolCall,
    Usage,
    request_from_json,
    response_from_json,
)

REQ = Request((Message("user", "go"),))


def test_items_in_order_and_requests_recorded() -> None:
    script = ScriptedProvider(
        [
            Response("first"),
            {"content": "second", "finish_reason": "stop"},
            lambda request: Response(f"saw {len(request.messages)} messages"),
        ]
    )
    assert [script.request(REQ).content for _ in range(3)] == ["first", "second", "saw 1 messages"]
    assert script.requests == [REQ, REQ, REQ]
    assert script.remaining == 0


def test_failure_items_raise_provider_error() -> None:
    script = ScriptedProvider([ProviderFailure("provider_error", "timeout", True)])
    with pytest.raises(ProviderError) as info:
        script.request(REQ)
    assert info.value.failure.reason == "timeout"


def test_exception_items_are_raised_as_is() -> None:
    script = ScriptedProvider([KeyError("bug")])
    with pytest.raises(KeyError):
        script.request(REQ)


def test_exhaustion_is_distinct_and_push_extends() -> None:
    script = ScriptedProvider()
    with pytest.raises(ScriptExhausted):
        script.request(REQ)
    script.push({"content": "late"})
    assert script.request(REQ).content == "late"
    assert len(script.requests) == 2


def test_run_ptc_lisp_tool_is_strict() -> None:
    assert RUN_PTC_LISP_TOOL.name == "run_ptc_lisp"
    assert RUN_PTC_LISP_TOOL.parameters == {
        "type": "object",
        "additionalProperties": False,
        "required": ["program"],
        "properties": {"program": {"type": "string"}},
    }
    assert Request(()).tools == (RUN_PTC_LISP_TOOL,)


CALL_SHAPES = [
    pytest.param({"id": "c", "name": "run_ptc_lisp", "args": {"program": "p"}}, id="args-object"),
    pytest.param({"id": "c", "name": "run_ptc_lisp", "args": '{"program": "p"}'}, id="args-string"),
    pytest.param(
        {"id": "c", "name": "run_ptc_lisp", "arguments": '{"program": "p"}'}, id="arguments"
    ),
    pytest.param(
        {
            "id": "c",
            "type": "function",
            "function": {"name": "run_ptc_lisp", "arguments": '{"program": "p"}'},
        },
        id="function",
    ),
]


@pytest.mark.parametrize("call", CALL_SHAPES)
def test_tool_call_shapes_normalize(call: dict[str, Any]) -> None:
    message = {"role": "assistant", "content": None, "tool_calls": [call]}
    request = request_from_json({"messages": [message]})
    assert request.messages[0] == Message(
        "assistant", "", (ToolCall("c", "run_ptc_lisp", {"program": "p"}),)
    )


def test_request_json_round_trip() -> None:
    obj = {
        "system": "s",
        "model": "fast",
        "messages": [
            {"role": "user", "content": "u"},
            {
                "role": "assistant",
                "content": "a",
                "tool_calls": [{"id": "c", "name": "run_ptc_lisp", "args": {"program": "p"}}],
            },
            {"role": "tool", "content": "r", "tool_call_id": "c"},
        ],
        "tools": [RUN_PTC_LISP_TOOL.to_json()],
    }
    assert request_from_json(obj).to_json() == obj


@pytest.mark.parametrize(
    "obj",
    [
        pytest.param([], id="not-object"),
        pytest.param({"messages": {}}, id="messages-not-array"),
        pytest.param({"messages": [{"role": "robot", "content": ""}]}, id="bad-role"),
        pytest.param({"messages": [{"role": "tool", "content": "r"}]}, id="tool-without-id"),
        pytest.param({"messages": [], "max_tokens": 5}, id="host-owned-key"),
        pytest.param({"messages": [], "tools": [{"name": ""}]}, id="blank-tool-name"),
        pytest.param(
            {
                "messages": [
                    {"role": "assistant", "content": "", "tool_calls": [{"id": 1, "name": "x"}]}
                ]
            },
            id="call-id-not-string",
        ),
    ],
)
def test_bad_request_maps(obj: object) -> None:
    with pytest.raises(RequestShapeError):
        request_from_json(obj)


def test_response_json_round_trip_and_cost() -> None:
    response = Response(
        "t", (ToolCall("c", "n", {}, "invalid_json"),), Usage(1, 2, 3, 4, 0.0), "length", "fast"
    )
    assert response_from_json(response.to_json()) == response
    assert response.to_json()["tokens"]["total_cost"] == 0.0  # a measured zero is kept
    assert "total_cost" not in Usage().to_json()  # unknown pricing stays absent


@pytest.mark.parametrize(
    "obj",
    [
        pytest.param({"content": "", "tokens": {"input": -1}}, id="negative-tokens"),
        pytest.param({"content": "", "tokens": {"input": True}}, id="bool-tokens"),
        pytest.param({"content": "", "tokens": {"total_cost": "free"}}, id="cost-type"),
        pytest.param({"content": "", "extra": 1}, id="unknown-key"),
    ],
)
def test_bad_response_maps(obj: object) -> None:
    with pytest.raises(RequestShapeError):
        response_from_json(obj)
