"""Host functions exposed to programs as namespaces (bindings).

A `BindingNamespace` is a name (`tool` by default: programs call `(tool/name {...})`)
and a mapping from *exact string* member names to host callables. Members are looked
up with a dict probe, never attribute access, so `__class__` or `__proto__` are just
names. A call crosses a JSON boundary both ways, each under a byte cap, and counts
against the run's call budget. A failing host function becomes a typed failure; with
an `error_class` it names the class and the member (`details`).
"""

from __future__ import annotations

import inspect
import json
import keyword
import logging
import re
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from ptc_runtime.contracts.errors import ContractViolation
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
#: JavaScript's reserved words (ECMAScript, strict mode included) and its fixed globals:
#: a namespace name must work against every backend of the run contract.
JS_RESERVED: Final = frozenset(
    {
        "break", "case", "catch", "class", "const", "continue", "debugger", "default",
        "delete", "do", "else", "enum", "export", "extends", "false", "finally", "for",
        "function", "if", "import", "in", "instanceof", "new", "null", "return", "super",
        "switch", "this", "throw", "true", "try", "typeof", "var", "void", "while",
        "with", "yield", "let", "static", "implements", "interface", "package",
        "private", "protected", "public", "await", "async", "arguments", "eval",
        "undefined", "NaN", "Infinity",
    }
)  # fmt: skip
#: Python's keywords, soft keywords (`match`, `case`, `type`, `_`) included, whatever
#: the running version lists (`type` is soft only from 3.12).
PYTHON_RESERVED: Final = (
    frozenset(keyword.kwlist) | frozenset(keyword.softkwlist) | {"match", "case", "type", "_"}
)
#: Globals a backend owns (the run contract's `RESERVED_BINDING_GLOBALS`): its image
#: class, console and inspection helpers, its entry point and the host globals of the
#: JavaScript and Python backends. Dunder-form names (`__x__`) are refused as well.
RESERVED_BINDING_GLOBALS: Final = frozenset(
    {
        "inspect", "console", "Image", "PtcImage", "__dsh_main__", "globalThis",
        "window", "self", "process", "require", "module", "exports", "Error", "Object",
        "Function", "Promise", "JSON", "print", "builtins", "__builtins__",
    }
)  # fmt: skip

if TYPE_CHECKING:  # imported where used: an isolated worker never needs asyncio
    import asyncio


def _is_dunder(name: str) -> bool:
    """`__x__` with a non-empty middle."""
    return len(name) > 4 and name.startswith("__") and name.endswith("__")


def check_global_name(name: object, what: str) -> str:
    """`name` if it is a portable global identifier, else ValueError naming the rule.

    The rule of the run contract for namespace and error-class names: the identifier
    subset `[A-Za-z_][A-Za-z0-9_]*`, no reserved word of Python or JavaScript, no
    reserved backend global and no dunder-form name."""
    if not isinstance(name, str) or not IDENT.match(name):
        raise ValueError(f"{what} must match {IDENT.pattern}")
    if name in PYTHON_RESERVED or name in JS_RESERVED:
        raise ValueError(f"{what} {name!r} is a reserved word")
    if name in RESERVED_BINDING_GLOBALS or _is_dunder(name):
        raise ValueError(f"{what} {name!r} is a reserved global")
    return name


#: Characters of a member name the reader can call as `ns/member` (the symbol rule:
#: ASCII letters, digits and `+ - * < > = ? ! _ % . & '`; a `/` would split the symbol).
MEMBER: Final = re.compile(r"^[A-Za-z0-9+\-*<>=?!_%.&']+$")

#: Error-class member-name properties a descriptor may not use: the members of the
#: error itself, and `error_class`, the key of the failure's `details` that holds the
#: class name (the member name must not overwrite it).
RESERVED_ERROR_MEMBERS: Final = frozenset(
    {"name", "message", "stack", "cause", "code", "kind", "error_class"}
)


#: Where the full text of a failing host function goes (the program never sees it).
LOG: Final = logging.getLogger("ptc_runtime.tools")


class BindingRejection(Exception):
    """Raise from a host function to reject a call with a message shown to the program.

    This is the one way a host function's own text reaches the program (bounded to 300
    characters). Any other exception is reported to the program by its type name only;
    its text, which may hold host paths or data, goes to the `ptc_runtime.tools` logger.
    """


@dataclass(frozen=True, slots=True)
class BindingErrorClass:
    """Program-visible typed rejection: `name` and the property naming the member."""

    name: str
    member_name_property: str

    def __post_init__(self) -> None:
        check_global_name(self.name, "error class name")
        p = self.member_name_property
        if not isinstance(p, str) or not p:
            raise ValueError("member_name_property must be a non-empty string")
        if p in RESERVED_ERROR_MEMBERS or _is_dunder(p):
            raise ValueError(f"member_name_property {p!r} is reserved")


@dataclass(frozen=True, slots=True)
class BindingNamespace:
    """One namespace of host functions; `functions` keys are the exact member names."""

    name: str = "tool"
    functions: Mapping[str, Callable[..., Any]] = field(default_factory=dict)
    error_class: BindingErrorClass | None = None

    def __post_init__(self) -> None:
        check_global_name(self.name, "binding namespace name")
        if self.name in RESERVED_NAMESPACES:
            raise ValueError(f"binding namespace name {self.name!r} is reserved")
        if not isinstance(self.functions, Mapping):
            raise ValueError("binding functions must be a mapping of names to callables")
        frozen: dict[str, Callable[..., Any]] = {}
        for k, v in self.functions.items():
            if type(k) is not str or not k:
                raise ValueError("binding member names must be non-empty strings")
            if not MEMBER.match(k):
                # Refused here, not at the first call: `(ns/name ...)` could never reach it.
                raise ValueError(
                    f"binding member name {k[:60]!r} cannot be called from PTC-Lisp: use ASCII"
                    " letters, digits and + - * < > = ? ! _ % . & '"
                )
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


def host_failure(ns: BindingNamespace | None, member: str, exc: BaseException) -> PtcError:
    """The typed failure for a host function that raised `exc` (not a `BindingRejection`).

    The program sees the exception's type name only, never its text (`[Errno 2] No
    such file or directory: '/tmp/...'`, `KeyError: 'zz'`): the text and traceback go
    to the host's `ptc_runtime.tools` logger. The message is the same in both modes and
    on every run (no incident id), so transcripts replay."""
    prefix = ns.name if ns is not None else "tool"
    LOG.warning(
        "host function %s/%s failed", prefix, member, exc_info=(type(exc), exc, exc.__traceback__)
    )
    kind = type(exc).__name__
    if not IDENT.match(kind):
        kind = "Exception"
    return rejection(ns, member, f"the host function raised {kind[:60]}")


def as_called(ns: BindingNamespace | None, member: str, fn: object, err: PtcError) -> PtcError:
    """`err` naming the tool as the program called it.

    A typed tool's contract error names the tool by its own name (`tool/list-orders`, or
    the function's); registered under another key the program called it by that key, so
    the error is re-labelled with `ns/member`, the name a corrected program must use."""
    if not isinstance(err, ContractViolation):
        return err
    own = getattr(getattr(fn, "__ptc_tool__", fn), "ref", None)
    label = f"{ns.name if ns is not None else 'tool'}/{member}"
    if err.ref != own or err.ref == label:
        return err
    return ContractViolation(err.errors, ref=label, side=err.side)


def call_host(
    fn: Callable[..., Any],
    args: object,
    loop: asyncio.AbstractEventLoop | None,
    timeout: float | None,
    cancelled: Callable[[], bool],
) -> object:
    """Call a host function; coroutine results are awaited on `loop` (or a private one).

    A host function with a `__ptc_invoke__` (a typed tool, or a function marked as one)
    is called through it: that validates the arguments and the result."""
    invoke = getattr(fn, "__ptc_invoke__", None)
    result = invoke(args) if callable(invoke) else fn(args)
    if not inspect.isawaitable(result):
        return result
    import asyncio

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
    import asyncio

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
