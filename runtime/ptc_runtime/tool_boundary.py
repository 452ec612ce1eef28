"""The tool boundary: how a program's call reaches a host tool, in both modes.

Name lookup (exact strings only), the argument and result checks and the call budget.
The in-process invoker (`make_invoker`) and the isolated pool's tool path
(`ptc_runtime.worker.pool`) both go through these functions, so a tool sees the same
rules whichever mode runs the program.
"""

from __future__ import annotations

import contextvars
import json
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from ptc_runtime import context
from ptc_runtime.bindings import (
    BindingNamespace,
    BindingRejection,
    as_called,
    call_host,
    host_failure,
    rejection,
)
from ptc_runtime.context import RunContext
from ptc_runtime.errors import LimitExceeded, PtcError, bound_message
from ptc_runtime.host_value import TOOL_RESULT, to_host
from ptc_runtime.images import PtcImage
from ptc_runtime.limits import Limits, encode_json, measure

if TYPE_CHECKING:  # asyncio costs ~20 ms to import: an isolated worker never needs it
    import asyncio


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
    """The in-process tool path: exact-name lookup, byte caps both ways, call budget.

    The host function runs on a helper thread (`call_on_helper`) while the program's
    thread waits for it, checking the run's cancel token and deadline: a run cancelled
    or out of time during a tool call ends (`abort` / `timeout`) without waiting for the
    tool, whose late result is discarded."""

    def invoke(name: str, args: object) -> object:
        ns, member, fn = binding_member(bindings, name) if type(name) is str else (None, "", None)
        if fn is None:
            raise PtcError("unknown_tool", f"Unknown tool: {bound_message(str(name), 80)}")
        check_tool_args(name, args, limits)
        cur = context.current()
        count_tool_call(cur, limits)
        cur.check_time()
        try:
            result = call_on_helper(fn, args, loop, cur)
        except BindingRejection as exc:
            raise rejection(ns, member, str(exc) or "rejected") from None
        except PtcError as err:
            named = as_called(ns, member, fn, err)
            if named is err:
                raise
            raise named from None
        except TimeoutError:
            cur.check_time()
            raise LimitExceeded(
                "timeout", f"tool/{name} did not finish before the deadline", kind="timeout"
            ) from None
        except BaseException as exc:
            # the host's tool failed, including SystemExit / KeyboardInterrupt /
            # GeneratorExit raised inside it: typed, bounded, no traceback, never past
            # run(); the program sees its type only, the text goes to the host's log
            raise host_failure(ns, member, exc) from None
        if type(result) is PtcImage:  # an image descriptor is the whole result
            return result
        return check_tool_result(ns, name, result, limits)

    return invoke


#: How often a program's thread waiting for a tool looks at its cancel token and deadline.
_TOOL_POLL_S: Final = 0.02


def call_on_helper(
    fn: Callable[..., Any],
    args: object,
    loop: asyncio.AbstractEventLoop | None,
    ctx: RunContext,
) -> object:
    """Call host function `fn` on a helper thread; the caller's run can stop waiting.

    Returns the tool's result or raises what it raised. If the run is cancelled or its
    deadline passes first, raises the run's `abort` / `timeout` (`ctx.check_time`) at
    once; the helper thread is left to finish and its result is dropped (a thread cannot
    be stopped from outside: the host's function decides when it returns).
    """
    done = threading.Event()
    box: list[Any] = []

    def cancelled() -> bool:
        return _cancelled(ctx) or (ctx.deadline is not None and time.monotonic() > ctx.deadline)

    def work() -> None:
        remaining = None if ctx.deadline is None else max(0.0, ctx.deadline - time.monotonic())
        try:
            box.append((True, call_host(fn, args, loop, remaining, cancelled)))
        except BaseException as exc:  # handed to the program's thread, never lost
            box.append((False, exc))
        finally:
            done.set()

    # the tool sees the run's context, as it would on the program's own thread
    helper = threading.Thread(
        target=contextvars.copy_context().run, args=(work,), name="ptc-tool-call", daemon=True
    )
    helper.start()
    while not done.wait(_TOOL_POLL_S):
        ctx.check_time()  # raises abort / timeout: the late result is discarded
    ok, value = box[0]
    if ok:
        return value
    if isinstance(value, TimeoutError) and _cancelled(ctx):
        ctx.check_time()  # a cancel that stopped an awaited tool is an abort
    raise value


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
) -> object:
    """Check a tool's result is plain JSON data under `tool_result_bytes` and return it,
    or raise a typed error.

    Host data must be lossless JSON (`ptc_runtime.host_value.TOOL_RESULT`): dicts with
    `str` keys, lists (tuples read as lists), strings, finite numbers, booleans, None.
    A set, a non-string key, NaN, a lone surrogate or any other object is refused with
    the tool's name and the path to the part; shared structure costs what its encoding
    would, so a heavily shared result fails at the cap instead of hanging the host.

    A host function with a true `returns_ptc_data` attribute (trusted host code that
    hands PTC values back, e.g. keywords, sets and vector keys) is only measured.
    """
    member = name.split("/", 1)[1] if "/" in name else name
    fn = ns.functions.get(member) if ns is not None else None
    label = f"{ns.name if ns is not None else 'tool'}/{member}"
    if getattr(fn, "returns_ptc_data", False) is True:
        _measure_ptc_result(ns, member, label, result, limits)
        return result
    try:
        # validated, then handed on as it is: `from_host` reads it in place (a host that
        # tracks its results by identity, as the agent kernel does, still sees them)
        to_host(result, limits.tool_result_bytes, "its result", TOOL_RESULT)
        return result
    except LimitExceeded as err:
        raise PtcError(
            "tool_result_too_large",
            f"{label} returned more than {limits.tool_result_bytes} bytes "
            f"(limit tool_result_bytes)",
        ) from err
    except PtcError as err:
        raise rejection(ns, member, err.message) from None
    except Exception:  # a host object's own method raised while read: the host's value
        raise rejection(ns, member, "returned a value that could not be read") from None


def _measure_ptc_result(
    ns: BindingNamespace | None, member: str, label: str, result: object, limits: Limits
) -> None:
    """The size check of a trusted PTC-data result: bounded first (`measure` stops at its
    cap, shared structure included), then the JSON spelling of its keys and values."""
    cap = limits.tool_result_bytes
    if measure(result, 8 * cap) > 8 * cap:
        raise PtcError("tool_result_too_large", f"{label} returned more than {cap} bytes")
    try:
        text = _encode_result(result)
    except TypeError:
        try:
            text = _encode_result(_keys_as_text(result))
        except Exception:  # any failure of the host's value: as below
            raise rejection(ns, member, "returned a value that is not JSON") from None
    except Exception:
        raise rejection(ns, member, "returned a value that is not JSON") from None
    if len(text) > cap or (not text.isascii() and len(text.encode("utf-8", "surrogatepass")) > cap):
        raise PtcError("tool_result_too_large", f"{label} returned more than {cap} bytes")


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
