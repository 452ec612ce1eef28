"""Fitting a model response to the workflow's cap on one tool result.

A model response reaches the workflow as a tool result, so it must fit that cap. The cap is
sized (`response_bytes`) so that any response whose program is within the loop's program
limit fits; a larger one is cut (`fit_response`) in a way the loop reports as a protocol
correction (`program-too-large`, `invalid-json-arguments`), never a runtime error.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Final

from ptc_runtime.host_api import DEFAULT_LIMITS

#: Assistant text the host keeps of a response that does not fit the workflow's result cap
#: (more than agent.native's narration limit, so the loop's own cut is unchanged).
RESPONSE_CONTENT_CHARS: Final = 4096
#: Bytes of a response besides its content and program (ids, names, tokens, framing).
RESPONSE_SLACK_BYTES: Final = 16_384
#: JSON bytes one program character may take at most (a control character: `\u0001`).
JSON_CHAR_BYTES: Final = 6
DEFAULT_RESPONSE_BYTES: Final = DEFAULT_LIMITS.tool_result_bytes


def response_bytes(max_program_chars: int) -> int:
    """The workflow's cap on one tool result for loops whose programs may have
    `max_program_chars` characters: any response whose program is within that limit fits,
    so a too-large program is the loop's protocol correction, never a runtime error."""
    need = JSON_CHAR_BYTES * max_program_chars + 4 * RESPONSE_CONTENT_CHARS
    return max(DEFAULT_RESPONSE_BYTES, need + RESPONSE_SLACK_BYTES)


def _json_bytes(value: Any) -> int:
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


def fit_response(value: dict[str, Any], cap: int) -> dict[str, Any]:
    """A model response (`Response.to_json`) made to fit the workflow's result cap.

    A response within `cap` bytes is returned as is. Otherwise (seed 001: a too-large
    program is a protocol correction, not a failure of the workflow) the assistant text is
    cut to `RESPONSE_CONTENT_CHARS` (more than the loop keeps of it anyway), and each call's
    program to a prefix that fits, with its original length as `program_chars`, which
    agent.native reports as `program-too-large`. A call whose arguments still do not fit
    loses them (`args_error`), and is then reported as `invalid-json-arguments`.
    """
    if _json_bytes(value) <= cap:
        return value
    out = dict(value)
    content = out.get("content")
    if isinstance(content, str) and len(content) > RESPONSE_CONTENT_CHARS:
        out["content"] = content[:RESPONSE_CONTENT_CHARS]
    calls = out.get("tool_calls")
    if isinstance(calls, list) and calls:
        budget = max(0, cap - RESPONSE_SLACK_BYTES - _json_bytes(out.get("content")))
        share = budget // len(calls)
        fitted = []
        for call in calls:
            call = dict(call) if isinstance(call, Mapping) else call
            args = call.get("args") if isinstance(call, dict) else None
            if isinstance(args, Mapping) and _json_bytes(args) > share:
                program = args.get("program")
                if isinstance(program, str) and len(args) == 1:
                    keep = max(0, share - 64) // JSON_CHAR_BYTES
                    call["args"] = {"program": program[:keep]}
                    call["program_chars"] = len(program)
                else:
                    call["args"] = {}
                    call["args_error"] = "invalid_json"
            fitted.append(call)
        out["tool_calls"] = fitted
    return out
