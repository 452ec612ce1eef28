"""The tool boundary: how a program's call reaches a host tool, in both modes.

Name lookup (exact strings only), the argument and result checks and the call budget.
The in-process invoker (`make_invoker`) and the isolated pool's tool path
(`ptc_runtime.worker.pool`) both go through these functions, so a tool sees the same
rules whichever mode runs the program.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from typing import Any

from ptc_runtime import context
from ptc_runtime.bindings import (
    BindingNamespace,
    BindingRejection,
    call_host,
    host_failure,
    rejection,
)
from ptc_runtime.context import RunContext
from ptc_runtime.errors import LimitExceeded, PtcError, bound_message
from ptc_runtime.images import PtcImage
from ptc_runtime.limits import Limits, encode_json


def tool_names(bindings: tuple[BindingNamespace, ...]) -> frozenset[str]:
    """Callable members for the compiler: `tool/` members bare, others as "ns/member"."""
    names: set[str] = set()
    for b in bindings:
        if b.name == "tool":
            names.update(b.functions)
        else:
            names.update(f"{b.name}/{m}" for m in b.functions)
    return frozenset(names)


def binding_member(
    bindings: tuple[BindingNamespace, ...], name: str
) -> tuple[BindingNamespace | None, str, Callable[..., Any] | None]:
    """(namespace, member, function) for a called name: "x" is tool/x, "ns/x" is ns/x.

    Exact string lookups only: a name never reaches an attribute or a prototype."""
    ns_name, member = name.split("/", 1) if "/" in name else ("tool", name)
    ns = next((b for b in bindings if b.name == ns_name), None)
    return ns, member, (ns.functions.get(member) if ns is not None else None)


def make_invoker(
    ctx: RunContext,
    bindings: tuple[BindingNamespace, ...],
    limits: Limits,
    loop: asyncio.AbstractEventLoop | None,
) -> Callable[[str, object], object]:
    """The in-process tool path: exact-name lookup, byte caps both ways, call budget."""

    def invoke(name: str, args: object) -> object:
        ns, member, fn = binding_member(bindings, name) if type(name) is str else (None, "", None)
        if fn is None:
            raise PtcError("unknown_tool", f"Unknown tool: {bound_message(str(name), 80)}")
        check_tool_args(name, args, limits)
        cur = context.current()
        count_tool_call(cur, limits)
        cur.check_time()
        remaining = None if cur.deadline is None else max(0.0, cur.deadline - time.monotonic())
        try:
            result = call_host(fn, args, loop, remaining, lambda: _cancelled(cur))
        except BindingRejection as exc:
            raise rejection(ns, member, str(exc) or "rejected") from None
        except PtcError:
            raise
        except TimeoutError:
            cur.check_time()
            raise LimitExceeded(
                "timeout", f"tool/{name} did not finish before the deadline", kind="timeout"
            ) from None
        except Exception as exc:  # the host's tool failed: typed, bounded, no traceback
            raise host_failure(ns, member, exc) from None
        if type(result) is PtcImage:  # an image descriptor is the whole result
            return result
        check_tool_result(ns, name, result, limits)
        return result

    return invoke


def _cancelled(ctx: RunContext) -> bool:
    return ctx.cancel is not None and ctx.cancel.cancelled


def check_tool_args(name: str, args: object, limits: Limits) -> str:
    """Encode tool arguments as JSON under the argument cap (kind `protocol` otherwise)."""
    try:
        return encode_json(args, limits.tool_arg_bytes, f"arguments of tool/{name}")
    except PtcError as err:
        raise PtcError("invalid_tool_args", err.message, kind="protocol") from None


def count_tool_call(ctx: RunContext, limits: Limits) -> None:
    shared = ctx.shared
    with shared.lock:
        shared.tool_calls += 1
        n = shared.tool_calls
    ctx.tool_calls += 1
    if n > limits.max_tool_calls:
        raise PtcError(
            "tool_call_limit",
            f"tool-call budget of {limits.max_tool_calls} calls per run exhausted",
        )


def check_tool_result(
    ns: BindingNamespace | None, name: str, result: object, limits: Limits
) -> None:
    """Tool results must be JSON-like and under the result cap (host data: C encoder).

    Map keys may be what `from_host` accepts besides strings: keywords and tuples (vector
    keys) are measured by their JSON spelling, as keyword values already are.
    """
    try:
        text = _encode_result(result)
    except TypeError:
        try:
            text = _encode_result(_keys_as_text(result))
        except Exception:  # any failure of the host's value: as below
            raise rejection(ns, name, "returned a value that is not JSON") from None
    except Exception:
        # ValueError (NaN, a cycle), RecursionError, or a host object's own method (a dict
        # subclass's items, a list subclass's __iter__) raising: the host's value, not ours
        raise rejection(ns, name, "returned a value that is not JSON") from None
    if len(text) > limits.tool_result_bytes or (
        not text.isascii() and len(text.encode("utf-8", "surrogatepass")) > limits.tool_result_bytes
    ):
        raise PtcError(
            "tool_result_too_large",
            f"tool/{name} returned more than {limits.tool_result_bytes} bytes",
        )


def _encode_result(result: object) -> str:
    return json.dumps(
        result, ensure_ascii=False, allow_nan=False, default=_host_default, separators=(",", ":")
    )


def _keys_as_text(x: object) -> object:
    """`x` with keyword and tuple map keys spelled as JSON text (for measuring only); any
    other key is left for the encoder to refuse."""
    if isinstance(x, dict):
        out = {}
        for k, v in x.items():
            if isinstance(k, tuple):
                k = _encode_result(_keys_as_text(list(k)))
            elif type(k).__name__ == "Keyword":
                k = getattr(k, "name", k)
            out[k] = _keys_as_text(v)
        return out
    if isinstance(x, list | tuple | set | frozenset):
        return [_keys_as_text(v) for v in x]
    return x


def plain_json(result: object) -> object:
    """Host data or a checked tool result (`check_tool_result`) as plain JSON data, for a
    worker: keyword map keys by their name, vector keys by their JSON text, sets and
    tuples as lists, keywords and symbols by their name. Raises `TypeError`/`ValueError`
    for anything else."""
    try:
        return json.loads(json.dumps(result, default=_host_default))
    except TypeError:  # keyword or vector map keys
        return json.loads(json.dumps(_keys_as_text(result), default=_host_default))


def _host_default(x: object) -> object:
    if isinstance(x, set | frozenset | tuple):
        return list(x)
    name = getattr(x, "name", None)
    if type(x).__name__ in ("Keyword", "SymbolRef") and isinstance(name, str):
        return name
    raise TypeError("not JSON")
