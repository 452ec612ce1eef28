"""The provider-neutral request and response, their JSON forms, and the request hash.

JSON shapes follow the `llm-request` capability of agent-design §2.2 and seed 001
("Provider-neutral requests"): a request is `{system?, messages, tools?, model?}`; a response
is `{content, tool_calls?, tokens?, finish_reason?, output_limit?, model?}` with tool calls
`{id, name, args, args_error?}`. Sampling (`max_tokens`, `temperature`) and `timeout` are
host-owned: they ride on the dataclass, filled from the alias, and are deliberately outside the
replay hash.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal, cast

Role = Literal["system", "user", "assistant", "tool"]
ROLES: Final = ("system", "user", "assistant", "tool")
ArgsError = Literal["invalid_json", "not_object"]

#: The one tool the agent loop offers (seed 001, "Turn and transcript protocol").
RUN_PTC_LISP_PARAMETERS: Final[Mapping[str, Any]] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["program"],
    "properties": {"program": {"type": "string"}},
}


class RequestShapeError(ValueError):
    """A request or response JSON value does not have the documented shape."""


@dataclass(frozen=True, slots=True)
class ToolCall:
    """A normalized tool call. `args_error` classifies arguments that were not a JSON object."""

    id: str
    name: str
    args: Mapping[str, Any]
    args_error: ArgsError | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "name": self.name, "args": dict(self.args)}
        if self.args_error is not None:
            out["args_error"] = self.args_error
        return out


@dataclass(frozen=True, slots=True)
class ToolSpec:
    name: str
    description: str
    parameters: Mapping[str, Any]  # a JSON Schema object

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "description": self.description, "parameters": self.parameters}


RUN_PTC_LISP_TOOL: Final = ToolSpec(
    "run_ptc_lisp",
    "Evaluate one PTC-Lisp program in the mission environment and observe its result.",
    RUN_PTC_LISP_PARAMETERS,
)


@dataclass(frozen=True, slots=True)
class Message:
    """One transcript turn. Assistant turns may carry `tool_calls`; tool turns `tool_call_id`."""

    role: Role
    content: str
    tool_calls: tuple[ToolCall, ...] = ()
    tool_call_id: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"role": self.role, "content": self.content}
        if self.tool_calls:
            out["tool_calls"] = [c.to_json() for c in self.tool_calls]
        if self.tool_call_id is not None:
            out["tool_call_id"] = self.tool_call_id
        return out


@dataclass(frozen=True, slots=True)
class Request:
    messages: tuple[Message, ...]
    tools: tuple[ToolSpec, ...] = (RUN_PTC_LISP_TOOL,)
    system: str | None = None
    model: str | None = None  # an installation alias, never a provider model id
    max_tokens: int | None = field(default=None, compare=False)
    temperature: float | None = field(default=None, compare=False)
    timeout: float | None = field(default=None, compare=False)  # seconds for the whole call

    def to_json(self) -> dict[str, Any]:
        """The neutral JSON the workflow built: what is hashed and what a fixture replays."""
        out: dict[str, Any] = {
            "messages": [m.to_json() for m in self.messages],
            "tools": [t.to_json() for t in self.tools],
        }
        if self.system is not None:
            out["system"] = self.system
        if self.model is not None:
            out["model"] = self.model
        return out


@dataclass(frozen=True, slots=True)
class Usage:
    input: int = 0
    output: int = 0
    cache_creation: int = 0
    cache_read: int = 0
    total_cost: float | None = None  # absent when pricing is unknown; 0.0 is a measured zero

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "input": self.input,
            "output": self.output,
            "cache_creation": self.cache_creation,
            "cache_read": self.cache_read,
        }
        if self.total_cost is not None:
            out["total_cost"] = self.total_cost
        return out


#: The closed, canonically ordered vocabulary of what bound an output cap (seed 001,
#: "Provider-reported output truncation"): the host installation's `max_tokens`, the
#: adapter's own default, the model's catalog output limit, the context left after the input.
OUTPUT_LIMIT_BINDINGS: Final = ("configured", "adapter_default", "model_output_limit",
                                "remaining_context")


@dataclass(frozen=True, slots=True)
class OutputLimit:
    """The effective `max_tokens` an adapter sent, and every constraint that set it.

    Request metadata only: it states the cap the adapter put in the wire request, never the
    provider's internal ceiling (a provider may silently enforce a lower one). `bindings` is
    a non-empty subset of `OUTPUT_LIMIT_BINDINGS` in that order; ties are all kept.
    """

    value: int
    bindings: tuple[str, ...]
    name: str = "max_tokens"

    def __post_init__(self) -> None:
        if self.name != "max_tokens":
            raise RequestShapeError("output_limit.name must be \"max_tokens\"")
        if isinstance(self.value, bool) or not isinstance(self.value, int) or self.value < 1:
            raise RequestShapeError("output_limit.value must be a positive integer")
        order = [OUTPUT_LIMIT_BINDINGS.index(b) if b in OUTPUT_LIMIT_BINDINGS else -1
                 for b in self.bindings]
        if not order or -1 in order or order != sorted(set(order)):
            raise RequestShapeError(
                "output_limit.bindings must be a non-empty, ordered subset of "
                + ", ".join(OUTPUT_LIMIT_BINDINGS)
            )

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "value": self.value, "bindings": list(self.bindings)}


def effective_output_limit(candidates: Mapping[str, int | None]) -> OutputLimit | None:
    """The effective cap of `candidates` (binding name -> its value, None = not in force):
    the smallest value, bound by every candidate that has it. None when none is in force."""
    present = {k: v for k, v in candidates.items() if v is not None}
    if not present:
        return None
    value = min(present.values())
    return OutputLimit(value, tuple(b for b in OUTPUT_LIMIT_BINDINGS if present.get(b) == value))


def output_limit_from_json(value: object) -> OutputLimit:
    """`{name, value, bindings}` exactly -> `OutputLimit`; anything else is refused."""
    obj = _obj(value, "output_limit")
    if set(obj) != {"name", "value", "bindings"}:
        raise RequestShapeError("output_limit must have exactly name, value and bindings")
    bindings = obj["bindings"]
    if not isinstance(bindings, list) or not all(isinstance(b, str) for b in bindings):
        raise RequestShapeError("output_limit.bindings must be an array of strings")
    return OutputLimit(obj["value"], tuple(bindings), obj["name"])


@dataclass(frozen=True, slots=True)
class Response:
    """A successful model turn. `finish_reason` is normalized: stop, length, tool_calls, ..."""

    content: str
    tool_calls: tuple[ToolCall, ...] = ()
    usage: Usage | None = None
    finish_reason: str | None = None
    model: str | None = None  # set by the router to the resolved alias
    #: on a `length` response: the cap the adapter sent, when it can state it exactly
    output_limit: OutputLimit | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"content": self.content}
        if self.tool_calls:
            out["tool_calls"] = [c.to_json() for c in self.tool_calls]
        if self.usage is not None:
            out["tokens"] = self.usage.to_json()
        if self.finish_reason is not None:
            out["finish_reason"] = self.finish_reason
        if self.output_limit is not None:
            out["output_limit"] = self.output_limit.to_json()
        if self.model is not None:
            out["model"] = self.model
        return out


def canonical_json(value: object) -> str:
    """Sorted keys (code-point order equals UTF-8 byte order), no whitespace, no NaN."""
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )


def request_hash(request: Request) -> str:
    """`sha256:` + 64 hex digits over `canonical_json(request.to_json())`."""
    digest = hashlib.sha256(canonical_json(request.to_json()).encode("utf-8")).hexdigest()
    return f"sha256:{digest}"


# ---------------------------------------------------------------- JSON -> dataclasses


def _obj(value: object, what: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping) or not all(isinstance(k, str) for k in value):
        raise RequestShapeError(f"{what} must be a JSON object")
    return cast(Mapping[str, Any], value)


def _opt_str(obj: Mapping[str, Any], key: str, what: str) -> str | None:
    value = obj.get(key)
    if value is not None and not isinstance(value, str):
        raise RequestShapeError(f"{what}.{key} must be a string")
    return value


def _only(obj: Mapping[str, Any], allowed: set[str], what: str) -> None:
    extra = sorted(set(obj) - allowed)
    if extra:
        raise RequestShapeError(f"{what} has unknown key {extra[0]!r}")


def parse_args(raw: object) -> tuple[Mapping[str, Any], ArgsError | None]:
    """Tool arguments given as a JSON string or an object -> (object, args_error)."""
    if isinstance(raw, str):
        try:
            raw = json.loads(raw) if raw.strip() else {}
        except ValueError:
            return {}, "invalid_json"
    if isinstance(raw, Mapping) and all(isinstance(k, str) for k in raw):
        return dict(raw), None
    return {}, "not_object"


def tool_call_from_json(value: object) -> ToolCall:
    """Accepts `{id, name, args}` as well as `arguments` and `function.{name, arguments}`."""
    obj = _obj(value, "tool call")
    fn = obj.get("function")
    fn_obj = _obj(fn, "tool call function") if fn is not None else {}
    name = obj.get("name", fn_obj.get("name"))
    call_id = obj.get("id")
    if not isinstance(name, str) or not isinstance(call_id, str):
        raise RequestShapeError("tool call needs string id and name")
    for key in ("args", "arguments"):
        if key in obj:
            raw = obj[key]
            break
    else:
        raw = fn_obj.get("arguments", {})
    args, error = parse_args(raw)
    given = obj.get("args_error")
    if error is None and given in ("invalid_json", "not_object"):
        error = given
    return ToolCall(call_id, name, args, error)


def message_from_json(value: object) -> Message:
    obj = _obj(value, "message")
    _only(obj, {"role", "content", "tool_calls", "tool_call_id"}, "message")
    role = obj.get("role")
    if role not in ROLES:
        raise RequestShapeError("message.role must be system, user, assistant or tool")
    content = _opt_str(obj, "content", "message") or ""
    calls = obj.get("tool_calls")
    calls = [] if calls is None else calls
    if not isinstance(calls, list):
        raise RequestShapeError("message.tool_calls must be an array")
    tool_call_id = _opt_str(obj, "tool_call_id", "message")
    if role == "tool" and tool_call_id is None:
        raise RequestShapeError("a tool message needs tool_call_id")
    return Message(
        cast(Role, role), content, tuple(tool_call_from_json(c) for c in calls), tool_call_id
    )


def tool_spec_from_json(value: object) -> ToolSpec:
    obj = _obj(value, "tool")
    fn = obj.get("function")
    if obj.get("type") == "function" and fn is not None:
        obj = _obj(fn, "tool function")
    name = obj.get("name")
    if not isinstance(name, str) or not name:
        raise RequestShapeError("tool.name must be a non-empty string")
    description = _opt_str(obj, "description", "tool") or ""
    params = _obj(obj.get("parameters", {"type": "object"}), "tool.parameters")
    return ToolSpec(name, description, params)


def request_from_json(value: object) -> Request:
    """The `llm-request` argument map -> `Request`; unknown keys are refused.

    `cache` is accepted and ignored: the host-fixed caching policy wins (seed 001).
    """
    obj = _obj(value, "request")
    _only(obj, {"system", "messages", "tools", "model", "cache"}, "request")
    messages = obj.get("messages")
    if not isinstance(messages, list):
        raise RequestShapeError("request.messages must be an array")
    tools = obj.get("tools", [])
    if not isinstance(tools, list):
        raise RequestShapeError("request.tools must be an array")
    return Request(
        messages=tuple(message_from_json(m) for m in messages),
        tools=tuple(tool_spec_from_json(t) for t in tools),
        system=_opt_str(obj, "system", "request"),
        model=_opt_str(obj, "model", "request"),
    )


def _count(obj: Mapping[str, Any], key: str) -> int:
    value = obj.get(key, 0)
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise RequestShapeError(f"tokens.{key} must be a non-negative integer")
    return value


def usage_from_json(value: object) -> Usage:
    obj = _obj(value, "tokens")
    _only(obj, {"input", "output", "cache_creation", "cache_read", "total_cost"}, "tokens")
    cost = obj.get("total_cost")
    if cost is not None and (
        isinstance(cost, bool)
        or not isinstance(cost, int | float)
        or not math.isfinite(cost)
        or cost < 0
    ):
        raise RequestShapeError("tokens.total_cost must be a non-negative number")
    return Usage(
        _count(obj, "input"),
        _count(obj, "output"),
        _count(obj, "cache_creation"),
        _count(obj, "cache_read"),
        None if cost is None else float(cost),
    )


def response_from_json(value: object) -> Response:
    """A response map (as `Response.to_json` writes it) -> `Response`; used by replay/scripts."""
    obj = _obj(value, "response")
    _only(
        obj,
        {"content", "tool_calls", "tokens", "finish_reason", "output_limit", "model"},
        "response",
    )
    calls = obj.get("tool_calls")
    calls = [] if calls is None else calls
    if not isinstance(calls, list):
        raise RequestShapeError("response.tool_calls must be an array")
    tokens = obj.get("tokens")
    limit = obj.get("output_limit")
    return Response(
        content=_opt_str(obj, "content", "response") or "",
        tool_calls=tuple(tool_call_from_json(c) for c in calls),
        usage=None if tokens is None else usage_from_json(tokens),
        finish_reason=_opt_str(obj, "finish_reason", "response"),
        model=_opt_str(obj, "model", "response"),
        output_limit=None if limit is None else output_limit_from_json(limit),
    )
