"""Anthropic Messages adapter: neutral `Request` -> wire JSON -> `Response`.

POST `{base_url}/v1/messages` with `x-api-key` and `anthropic-version`. The wire format
differs from the neutral one in three ways handled here: `system` is a top-level field,
tool results travel as `tool_result` blocks inside a `user` turn, and consecutive turns of
one role must be merged into one message (e.g. a tool result followed by a user correction).
`max_tokens` is required by this API, so an adapter default fills it when the alias sets none.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, Final

from ptc_agent.providers.failure import provider_error
from ptc_agent.providers.http import DEFAULT_MAX_RESPONSE_BYTES, HTTPAdapter
from ptc_agent.providers.request import (
    Message,
    OutputLimit,
    Request,
    Response,
    ToolCall,
    Usage,
    effective_output_limit,
)

DEFAULT_BASE_URL: Final = "https://api.anthropic.com"
DEFAULT_VERSION: Final = "2023-06-01"
DEFAULT_MAX_TOKENS: Final = 4096
_STOP: Final[Mapping[str, str]] = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "max_tokens": "length",
    "tool_use": "tool_calls",
}


class AnthropicProvider(HTTPAdapter):
    def __init__(
        self,
        model: str,
        *,
        base_url: str = DEFAULT_BASE_URL,
        api_key: str | None = None,
        version: str = DEFAULT_VERSION,
        default_max_tokens: int = DEFAULT_MAX_TOKENS,
        max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES,
        extra_headers: Mapping[str, str] | None = None,
        model_output_limit: int | None = None,
    ) -> None:
        headers = {**(extra_headers or {}), "anthropic-version": version}
        if api_key:
            headers["x-api-key"] = api_key
        super().__init__(
            model,
            base_url=base_url,
            headers=headers,
            api_key=api_key,
            max_response_bytes=max_response_bytes,
            model_output_limit=model_output_limit,
        )
        self.default_max_tokens = default_max_tokens

    def request(self, request: Request) -> Response:
        body = self.post("/v1/messages", self.wire_body(request), request.timeout)
        response = parse_message(body)
        if response.finish_reason == "length":
            response = replace(response, output_limit=self.output_limit(request))
        return response

    def output_limit(self, request: Request) -> OutputLimit:
        """The `max_tokens` this adapter sends for `request`, and what bound it: the
        installation's value, else the adapter default (the API requires one), lowered by a
        catalog `model_output_limit` when the host supplies one."""
        configured = request.max_tokens or None  # 0 is "not configured", as before
        cap = effective_output_limit(
            {
                "configured": configured,
                "adapter_default": None if configured else self.default_max_tokens,
                "model_output_limit": self.model_output_limit,
            }
        )
        assert cap is not None  # the configured value or the adapter default is always there
        return cap

    def wire_body(self, request: Request) -> dict[str, Any]:
        system = [request.system] if request.system is not None else []
        system += [m.content for m in request.messages if m.role == "system"]
        body: dict[str, Any] = {
            "model": self.model,
            "max_tokens": self.output_limit(request).value,
            "messages": wire_messages(request.messages),
        }
        if system:
            body["system"] = "\n\n".join(system)
        if request.tools:
            body["tools"] = [
                {"name": t.name, "description": t.description, "input_schema": dict(t.parameters)}
                for t in request.tools
            ]
            body["tool_choice"] = {"type": "auto"}
        if request.temperature is not None:
            body["temperature"] = request.temperature
        return body


def wire_messages(messages: tuple[Message, ...]) -> list[dict[str, Any]]:
    """Neutral turns -> Messages-API turns, merging consecutive same-role blocks."""
    out: list[dict[str, Any]] = []
    for message in messages:
        if message.role == "system":
            continue  # hoisted into the top-level `system` field
        role = "assistant" if message.role == "assistant" else "user"
        blocks = _blocks(message)
        if out and out[-1]["role"] == role:
            out[-1]["content"].extend(blocks)
        else:
            out.append({"role": role, "content": blocks})
    return out


def _blocks(message: Message) -> list[dict[str, Any]]:
    if message.role == "tool":
        return [
            {"type": "tool_result", "tool_use_id": message.tool_call_id, "content": message.content}
        ]
    blocks: list[dict[str, Any]] = []
    if message.content:
        blocks.append({"type": "text", "text": message.content})
    blocks.extend(
        {"type": "tool_use", "id": c.id, "name": c.name, "input": dict(c.args)}
        for c in message.tool_calls
    )
    return blocks


def parse_message(body: Mapping[str, Any]) -> Response:
    """A Messages-API response -> `Response`; a body not shaped like one is `invalid_result`."""
    blocks = body.get("content")
    if not isinstance(blocks, list) or not all(isinstance(b, dict) for b in blocks):
        raise _malformed("content")
    texts: list[str] = []
    calls: list[ToolCall] = []
    for block in blocks:
        if block.get("type") == "text":
            text = block.get("text")
            if not isinstance(text, str):
                raise _malformed("text block")
            texts.append(text)
        elif block.get("type") == "tool_use":
            calls.append(_tool_call(block))
    stop = body.get("stop_reason")
    return Response(
        content="".join(texts),
        tool_calls=tuple(calls),
        usage=_usage(body.get("usage")),
        finish_reason=_STOP.get(stop, stop) if isinstance(stop, str) else None,
    )


def _tool_call(block: Mapping[str, Any]) -> ToolCall:
    call_id, name, args = block.get("id"), block.get("name"), block.get("input")
    ok = isinstance(args, dict) and all(isinstance(k, str) for k in args)
    return ToolCall(
        call_id if isinstance(call_id, str) else "",
        name if isinstance(name, str) else "",
        dict(args) if ok and isinstance(args, dict) else {},
        None if ok else "not_object",
    )


def _usage(raw: object) -> Usage | None:
    if not isinstance(raw, dict):
        return None
    return Usage(
        input=_int(raw.get("input_tokens")),
        output=_int(raw.get("output_tokens")),
        cache_creation=_int(raw.get("cache_creation_input_tokens")),
        cache_read=_int(raw.get("cache_read_input_tokens")),
    )


def _int(value: object) -> int:
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise _malformed("usage")
    return value


def _malformed(where: str) -> Exception:
    return provider_error("invalid_result", f"response body has no valid {where}", retryable=False)
