"""What the isolated pool needs from the host boundary, handed to it by the runtime.

The pool builds run results and checks tool calls with the contract types and tool
boundary of `ptc_runtime.seam`, but it must not import the seam (the seam imports the
pool). The runtime passes a `HostApi` when it creates the pool: plain references to its
result types and tool checks. This module imports nothing of the runtime.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class HostApi:
    """The seam's result constructors and tool-boundary checks, by reference."""

    #: `RunResult(**fields)`
    result: Callable[..., Any]
    #: `RunFailure(kind, message, code, line, column, hint, details)`
    failure: Callable[..., Any]
    #: `RunFailure.of(PtcError)`
    failure_of: Callable[..., Any]
    #: `OutputText(text)`
    output_text: Callable[[str], Any]
    #: the "no value" marker of `RunResult.value`
    missing: Any
    #: host data / a checked tool result as plain JSON data (raises TypeError/ValueError)
    plain_json: Callable[[object], object]
    #: (namespace, member, function) for a called tool name
    binding_member: Callable[..., tuple[Any, str, Any]]
    #: raises for a tool result that is not JSON or over its cap
    check_tool_result: Callable[..., None]
