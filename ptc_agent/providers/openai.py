"""OpenAI-compatible Chat Completions adapter: neutral `Request` -> wire JSON -> `Response`.

POST `{base_url}/chat/completions`. Covers OpenAI and the many servers speaking its dialect
(vLLM, llama.cpp, Ollama's `/v1`, OpenRouter, ...). The credential, if any, goes in an
`Authorization: Bearer` header; servers that need none get no header.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, Final, Literal

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
    parse_args,
)

DEFAULT_BASE_URL: Final = "https://api.openai.com/v1"
_FINISH: Final[Mapping[str, str]] = {"function_call": "tool_calls"}


class OpenAIChatProvider(HTTPAdapter):
    def __init__(
        self,
        model: str,
        *,
        base_url: str = DEFAULT_BASE_URL,
        api_key: str | None = None,
        tool_choice: Literal["auto", "required"] = "auto",
        max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES,
        extra_headers: Mapping[str, str] | None = None,
        model_output_limit: int | None = None,
    ) -> None:
        headers = dict(extra_headers or {})
        if api_key:
            headers["authorization"] = f"Bearer {api_key}"
        super().__init__(
            model,
            base_url=base_url,
            headers=headers,
            api_key=api_key,
            max_response_bytes=max_response_bytes,
            model_output_limit=model_output_limit,
        )
        self.tool_choice = tool_choice

    def request(self, request: Request) -> Response:
        body = self.post("/chat/completions", self.wire_body(request), request.timeout)
        response = parse_completion(body)
        cap = self.output_limit(request)
        if response.finish_reason == "length" and cap is not None:
            response = replace(response, output_limit=cap)
        return response

    def output_limit(self, request: Request) -> OutputLimit | None:
        """The `max_tokens` this adapter sends for `request`, and what bound it.

        The API needs no cap, so none is sent (and none can be stated) unless the host
        installation configured one; a catalog `model_output_limit` below it lowers it.
        """
        if request.max_tokens is None:
            return None
        return effective_output_limit(
            {"configured": request.max_tokens, "model_output_limit": self.model_output_limit}
        )

    def wire_body(self, request: Request) -> dict[str, Any]:
        messages: list[dict[str, Any]] = []
        if request.system is not None:
            messages.append({"role": "system", "content": request.system})
        messages.extend(_wire_message(m) for m in request.messages)
        body: dict[str, Any] = {"model": self.model, "messages": messages}
        if request.tools:
            body["tools"] = [
                {
                    "type": "function",
                    "function": {
                        "name": t.name,
                        "description": t.description,
                        "parameters": dict(t.parameters),
                    },
                }
                for t in request.tools
            ]
            body["tool_choice"] = self.tool_choice
        cap = self.output_limit(request)
        if cap is not None:
            body["max_tokens"] = cap.value
        if request.temperature is not None:
            body["temperature"] = request.temperature
        return body


def _wire_message(message: Message) -> dict[str, Any]:
    if message.role == "tool":
        return {"role": "tool", "tool_call_id": message.tool_call_id, "content": message.content}
    out: dict[str, Any] = {"role": message.role, "content": message.content}
    if message.tool_calls:
        out["tool_calls"] = [
            {
                "id": c.id,
                "type": "function",
                "function": {
                    "name": c.name,
                    "arguments": json.dumps(dict(c.args), ensure_ascii=False),
                },
            }
            for c in message.tool_calls
        ]
    return out


def parse_completion(body: Mapping[str, Any]) -> Response:
    """A chat-completion object -> `Response`; a body not shaped like one is `invalid_result`.

    Tool-call fields are model output: a missing id or name becomes "" and bad arguments an
    `args_error`, so the agent loop (not the adapter) decides how to correct the model.
    """
    choices = body.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise _malformed("choices")
    message = choices[0].get("message")
    if not isinstance(message, dict):
        raise _malformed("choices[0].message")
    content = message.get("content")
    if content is not None and not isinstance(content, str):
        raise _malformed("message.content")
    raw_calls = message.get("tool_calls")
    raw_calls = [] if raw_calls is None else raw_calls
    if not isinstance(raw_calls, list) or not all(isinstance(c, dict) for c in raw_calls):
        raise _malformed("message.tool_calls")
    finish = choices[0].get("finish_reason")
    return Response(
        content=content or "",
        tool_calls=tuple(_tool_call(c) for c in raw_calls),
        usage=_usage(body.get("usage")),
        finish_reason=_FINISH.get(finish, finish) if isinstance(finish, str) else None,
    )


def _tool_call(raw: Mapping[str, Any]) -> ToolCall:
    fn = raw.get("function")
    fn = fn if isinstance(fn, dict) else {}
    call_id, name = raw.get("id"), fn.get("name")
    args, error = parse_args(fn.get("arguments", {}))
    return ToolCall(
        call_id if isinstance(call_id, str) else "",
        name if isinstance(name, str) else "",
        args,
        error,
    )


def _usage(raw: object) -> Usage | None:
    if not isinstance(raw, dict):
        return None
    details = raw.get("prompt_tokens_details")
    cached = details.get("cached_tokens") if isinstance(details, dict) else 0
    return Usage(
        input=_int(raw.get("prompt_tokens")),
        output=_int(raw.get("completion_tokens")),
        cache_read=_int(cached),
    )


def _int(value: object) -> int:
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise _malformed("usage")
    return value


def _malformed(where: str) -> Exception:
    return provider_error("invalid_result", f"response body has no valid {where}", retryable=False)
