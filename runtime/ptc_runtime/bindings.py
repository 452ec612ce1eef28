"""Host functions exposed to programs as namespaces (seed 003 bindings).

A `BindingNamespace` is a name (`tool` by default: programs call `(tool/name {...})`)
and a mapping from *exact string* member names to host callables. Members are looked
up with a dict probe, never attribute access, so `__class__` or `__proto__` are just
names. A call crosses a JSON boundary both ways, each under a byte cap, and counts
against the run's call budget. A failing host function becomes a typed failure; with
an `error_class` it names the class and the member (`details`).
"""

from __future__ import annotations

import asyncio
import inspect
import json
import re
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from ptc_runtime.errors import PtcError, bound_message

IDENT: Final = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")

#: Namespace names a binding may not take: they are the language's own.
RESERVED_NAMESPACES: Final = frozenset(
    {
        "data",
        "core",
        "clojure",
        "json",
        "str",
        "string",
        "set",
        "walk",
        "regex",
        "java",
        "Math",
        "System",
        "String",
        "Integer",
        "Long",
        "Double",
        "LocalDate",
        "ptc",
        "user",
        "ctx",
        "def",
        "fn",
        "nil",
        "true",
        "false",
        "return",
        "fail",
        "recur",
        "None",
        "True",
        "False",
        "class",
        "import",
        "lambda",
        "async",
        "await",
    }
)
#: Error-class member-name properties a descriptor may not use.
RESERVED_ERROR_MEMBERS: Final = frozenset({"name", "message", "stack", "cause", "code", "kind"})


class BindingRejection(Exception):
    """Raise from a host function to reject a call with a message shown to the program."""


@dataclass(frozen=True, slots=True)
class BindingErrorClass:
    """Program-visible typed rejection: `name` and the property naming the member."""

    name: str
    member_name_property: str

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not IDENT.match(self.name):
            raise ValueError(f"error class name must match {IDENT.pattern}")
        p = self.member_name_property
        if not isinstance(p, str) or not p:
            raise ValueError("member_name_property must be a non-empty string")
        if p in RESERVED_ERROR_MEMBERS or (len(p) > 4 and p.startswith("__") and p.endswith("__")):
            raise ValueError(f"member_name_property {p!r} is reserved")


@dataclass(frozen=True, slots=True)
class BindingNamespace:
    """One namespace of host functions; `functions` keys are the exact member names."""

    name: str = "tool"
    functions: Mapping[str, Callable[..., Any]] = field(default_factory=dict)
    error_class: BindingErrorClass | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not IDENT.match(self.name):
            raise ValueError(f"binding namespace name must match {IDENT.pattern}")
        if self.name in RESERVED_NAMESPACES:
            raise ValueError(f"binding namespace name {self.name!r} is reserved")
        if not isinstance(self.functions, Mapping):
            raise ValueError("binding functions must be a mapping of names to callables")
        frozen: dict[str, Callable[..., Any]] = {}
        for k, v in self.functions.items():
            if type(k) is not str or not k:
                raise ValueError("binding member names must be non-empty strings")
            if not callable(v):
                raise ValueError(f"binding member {k!r} is not callable")
            frozen[k] = v
        object.__setattr__(self, "functions", frozen)
        if self.error_class is not None and not isinstance(self.error_class, BindingErrorClass):
            raise ValueError("error_class must be a BindingErrorClass")


def namespace_from_tools(
    tools: Mapping[str, Callable[..., Any]] | None,
) -> tuple[BindingNamespace, ...]:
    """The plain `tools=` mapping of the public API as one `tool` namespace."""
    if not tools:
        return ()
    return (BindingNamespace("tool", dict(tools)),)


# ---------------------------------------------------------------- calling


def rejection(
    ns: BindingNamespace | None, member: str, text: str, code: str = "tool_error"
) -> PtcError:
    """The typed failure for a rejected call of `member`."""
    text = bound_message(text, 300)
    if ns is not None and ns.error_class is not None:
        cls = ns.error_class
        err = PtcError(code, f"{cls.name}: {ns.name}/{member} rejected: {text}")
        err.details = {"error_class": cls.name, cls.member_name_property: member}  # type: ignore[attr-defined]
        return err
    prefix = ns.name if ns is not None else "tool"
    return PtcError(code, f"{prefix}/{member} failed: {text}")


def call_host(
    fn: Callable[..., Any],
    args: object,
    loop: asyncio.AbstractEventLoop | None,
    timeout: float | None,
    cancelled: Callable[[], bool],
) -> object:
    """Call a host function; coroutine results are awaited on `loop` (or a private one)."""
    result = fn(args)
    if not inspect.isawaitable(result):
        return result
    if loop is not None and loop.is_running():
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is not loop:
            fut = asyncio.run_coroutine_threadsafe(_await(result), loop)
            return _wait_future(fut, timeout, cancelled)
    return _run_private(result)


async def _await(aw: Any) -> object:
    return await aw


def _wait_future(fut: Any, timeout: float | None, cancelled: Callable[[], bool]) -> object:
    import time

    end = None if timeout is None else time.monotonic() + timeout
    while True:
        step = 0.05 if end is None else max(0.0, min(0.05, end - time.monotonic()))
        try:
            return fut.result(timeout=step)
        except TimeoutError:
            if cancelled() or (end is not None and time.monotonic() >= end):
                fut.cancel()
                raise
        except Exception:
            raise


def _run_private(aw: Any) -> object:
    """Await `aw` without a host loop: on a private loop (in a helper thread if this
    thread already runs a loop)."""
    try:
        asyncio.get_running_loop()
        in_loop = True
    except RuntimeError:
        in_loop = False
    if not in_loop:
        return asyncio.run(_await(aw))
    box: dict[str, Any] = {}

    def runner() -> None:
        try:
            box["v"] = asyncio.run(_await(aw))
        except BaseException as exc:
            box["e"] = exc

    t = threading.Thread(target=runner, daemon=True)
    t.start()
    t.join()
    if "e" in box:
        raise box["e"]
    return box.get("v")


def json_roundtrip_check(text: str) -> object:
    """Parse JSON we encoded ourselves (cheap sanity on the way to a host function)."""
    return json.loads(text)
