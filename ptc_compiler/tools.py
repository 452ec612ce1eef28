"""Typed host tools: a Python callable plus the contract a program must honour to call it.

    from ptc_compiler import run, tool

    @tool(effect="read")
    def search(query: str, limit: int = 10) -> list[Hit]:   # Hit: a TypedDict
        \"\"\"Full-text search over the catalogue.

        Args:
            query: The text to look for.
            limit: At most this many hits.
        \"\"\"

    search("ada")                                  # still the plain Python function
    run('(tool/search {:query "ada"})', tools={"search": search})

`@tool` (bare or with `name=`, `effect=`, ... ) derives the signature from the type hints
and the argument descriptions from the docstring (Google, NumPy or reST style), and returns
the function itself, marked as a tool. `Tool(fn, ...)` builds the same tool as an object.

With a signature, the arguments are validated before the function is called (a bad
argument is a `contract_violation` naming the tool as the program called it and the
argument path, and the function is not called) and the result before it is handed to the
program. Arguments reach a one-parameter "args dict" function as one dict with public
keys (`:order-count` arrives as "order_count"); a function with several parameters is
called with keyword arguments (a pydantic-model or TypedDict parameter receives the whole
map). A one-parameter function without hints and without `signature=` is untyped.

`to_openai`, `to_anthropic` and `to_mcp` (methods of `Tool`, and `openai_tools`,
`anthropic_tools`, `mcp_tools` for a whole tool mapping) give the tool definitions in each
provider's shape; `tool_schemas(tools)` the project's own; `render_tools(tools)` the
"available tools" text for a prompt.
"""

from __future__ import annotations

import dataclasses
import datetime
import enum
import inspect
import re
import types
import typing
import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal, TypeVar, overload

from ptc_compiler.docstrings import parse_docstring
from ptc_compiler.signatures import Signature, parse, render, to_json_schema
from ptc_runtime.contracts.errors import ContractViolation, ValidationError, make_error
from ptc_runtime.contracts.types import Field, ListOf, MapOf, Prim, SigType, norm_name
from ptc_runtime.contracts.validate import kind_of
from ptc_runtime.values import Keyword

__all__ = [
    "Choices",
    "Effect",
    "HintError",
    "InputValidationUnavailable",
    "OutputValidationUnavailable",
    "Tool",
    "anthropic_tools",
    "as_tool",
    "derive_signature",
    "hint_type",
    "host_callable",
    "host_tools",
    "kebab",
    "mcp_tools",
    "openai_tools",
    "render_tools",
    "tool",
    "tool_of",
    "tool_schema",
    "tool_schemas",
]

Effect = Literal["read", "write", "unknown"]
CallStyle = Literal["dict", "kwargs", "model"]
F = TypeVar("F", bound=Callable[..., Any])

#: A contract path for the notes a hint leaves beyond the signature: field and parameter
#: names as declared, "*" for the items of a list.
NotePath = tuple[str, ...]


class HintError(TypeError):
    """A type hint with no signature equivalent (names the function, place and hint)."""


class InputValidationUnavailable(Exception):
    """A tool's input could not be validated, so the tool was not called.

    `Tool` raises it when its input validator fails to run (not when the input is invalid,
    which is a `contract_violation`); a host function that validates against an external
    schema service raises it itself when that service is down. The agent loop treats it as a
    host failure no corrected program can clear
    (`capability-unavailable/input-validation-unavailable`).
    """

    def __init__(self, ref: str) -> None:
        super().__init__(f"{ref}: input validation is unavailable")
        self.ref = ref


class OutputValidationUnavailable(Exception):
    """A tool ran, but its result could not be validated, so it was not handed on.

    `Tool` raises it when its output validator fails to run (an invalid result is a
    `contract_violation`); a host function that checks its results against an external
    schema service raises it itself when that service is down. The tool's effect may have
    happened; the agent loop treats this as a host failure no corrected program can clear
    (`capability-unavailable/output-validation-unavailable`).
    """

    def __init__(self, ref: str) -> None:
        super().__init__(f"{ref}: output validation is unavailable")
        self.ref = ref


@dataclass(frozen=True)
class Choices:
    """The values a `Literal[...]` or `Enum` hint admits at one place of a contract."""

    values: tuple[str | int | bool, ...]
    enum: type[enum.Enum] | None = None


@dataclass
class _Notes:
    """What type hints say beyond the signature: allowed values and descriptions."""

    choices: dict[NotePath, Choices] = field(default_factory=dict)
    descriptions: dict[NotePath, str] = field(default_factory=dict)


def kebab(name: str) -> str:
    """A Python name as a program calls it: `list_orders` -> `list-orders`."""
    return name.replace("_", "-")


@dataclass(frozen=True)
class Tool:
    """A host function exposed as `tool/<name>`, optionally with a signature.

    `signature`: text or `Signature`; None derives one from the type hints (a function
    with several parameters and no hints gets `:any` parameters, called by name).
    `effect`: "read", "write" or "unknown" (None). `doc`: defaults to the docstring.
    `private_to`: prelude namespaces that alone may call it (programs cannot name it; see
    docs/preludes.md). `closed`: an argument no parameter takes is an error (default: True
    for signatures derived from the function, whose parameters are all it accepts; False
    for an explicit `signature=`, whose inputs are open maps).

    Also a decorator: `@Tool` and `@Tool(effect="read")` give a `Tool` object; calling it
    with keyword arguments (or anything but one dict) calls the function itself, calling
    it with one dict is the validated tool call. `@tool` keeps the plain function instead.
    """

    fn: Callable[..., Any]
    name: str | None = None
    signature: str | Signature | None = None
    effect: Effect | None = "unknown"
    doc: str | None = None
    private_to: tuple[str, ...] = ()
    #: trusted host code that returns PTC values (keywords, sets, vector keys): its
    #: results are measured but not held to lossless JSON (docs/security.md)
    returns_ptc_data: bool = False
    closed: bool | None = None
    contract: Signature | None = field(init=False, repr=False, compare=False)
    style: CallStyle = field(init=False, repr=False, compare=False)
    _model: Any = field(init=False, repr=False, compare=False)
    _notes: _Notes = field(init=False, repr=False, compare=False)
    _summary: str = field(init=False, repr=False, compare=False)
    _closed: bool = field(init=False, repr=False, compare=False)

    def __new__(cls, fn: Any = None, *args: Any, **kwargs: Any) -> Tool:
        if fn is None:  # `@Tool(effect="read")`: the settings first, the function next
            if args:
                raise TypeError("Tool(...) as a decorator takes keyword settings only")
            return _ToolDecorator(kwargs)  # type: ignore[return-value]
        return super().__new__(cls)

    def __getnewargs__(self) -> tuple[Any, ...]:
        # copy and pickle rebuild through __new__: with the function, it is not a decorator
        return (self.fn,)

    def __post_init__(self) -> None:
        fn = getattr(self.fn, "__ptc_tool__", None)
        if isinstance(fn, Tool):  # Tool(f) of a function `@tool` marked: the function itself
            object.__setattr__(self, "fn", fn.fn)
        if not callable(self.fn):
            raise TypeError("Tool(fn): fn must be callable")
        if self.effect is None:
            object.__setattr__(self, "effect", "unknown")
        if self.effect not in ("read", "write", "unknown"):
            raise ValueError(
                f"Tool effect must be 'read', 'write' or 'unknown', not {self.effect!r}"
            )
        if self.name is not None and not isinstance(self.name, str):
            raise TypeError("Tool name must be a str")
        object.__setattr__(self, "private_to", tuple(self.private_to))
        sig = self.signature
        style: CallStyle = "dict"
        model: Any = None
        notes = _Notes()
        closed = False
        if sig is None:
            derived = derive_signature(self.fn, notes)
            if derived is not None:
                sig, style, model, closed = derived
        contract = parse(sig) if isinstance(sig, str) else sig
        if self.closed is not None:
            closed = bool(self.closed) and contract is not None
        object.__setattr__(self, "contract", contract)
        object.__setattr__(self, "style", style)
        object.__setattr__(self, "_model", model)
        object.__setattr__(self, "_closed", closed)
        if self.doc is None:
            text = inspect.getdoc(self.fn)
            if text:
                object.__setattr__(self, "doc", text.strip())
        parsed = parse_docstring(self.doc)
        for pname, text in parsed.params.items():
            notes.descriptions.setdefault((pname,), text)
        object.__setattr__(self, "_notes", notes)
        object.__setattr__(self, "_summary", parsed.summary)

    # ------------------------------------------------------------------ naming

    @property
    def tool_name(self) -> str:
        """The name a program calls: `name`, else the function's name in kebab-case."""
        if self.name:
            return self.name
        fname = getattr(self.fn, "__name__", None)
        return kebab(fname) if isinstance(fname, str) and fname.isidentifier() else "tool"

    @property
    def ref(self) -> str:
        """`tool/<name>` as the program calls it (the name errors give)."""
        return "tool/" + self.tool_name

    @property
    def signature_text(self) -> str | None:
        """The canonical signature text, or None for an untyped tool."""
        return None if self.contract is None else render(self.contract)

    @property
    def description(self) -> str:
        """The tool's description: its doc without the argument and result sections."""
        return self._summary

    @property
    def arg_descriptions(self) -> dict[str, str]:
        """Descriptions of the parameters (from the docstring and `Annotated` hints)."""
        return {p[0]: t for p, t in self._notes.descriptions.items() if len(p) == 1}

    # ------------------------------------------------------------------ calling

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """One dict: the validated tool call (`invoke`); anything else calls `fn` itself."""
        if not kwargs and len(args) == 1 and isinstance(args[0], dict):
            return self.invoke(args[0])
        return self.fn(*args, **kwargs)

    def __ptc_invoke__(self, args: dict[str, Any]) -> Any:
        """The runtime's entry: the validated tool call."""
        return self.invoke(args)

    def invoke(self, args: dict[str, Any]) -> Any:
        """Call the tool with the argument map a program sent: validate, call, check."""
        sig = self.contract
        if sig is None:
            return self.fn(args)
        try:
            errors = self._unknown_args(args) + sig.check_input(args)
            if not errors:
                errors = _check_choices(self._notes.choices, args, ())
        except Exception as exc:  # the validator itself failed: the input is unchecked
            raise InputValidationUnavailable(self.ref) from exc
        if errors:
            raise ContractViolation(errors[:16], ref=self.ref, side="input")
        raw = self._invoke(args)
        if inspect.isawaitable(raw):  # a coroutine function: checked once it is awaited
            return self._checked_later(raw)
        return self._checked(raw)

    async def _checked_later(self, pending: typing.Awaitable[Any]) -> Any:
        return self._checked(await pending)

    def _checked(self, raw: Any) -> Any:
        sig = self.contract
        assert sig is not None
        result = _plain(raw, 0)
        try:
            errors = sig.check_output(result)
            if not errors:
                errors = _check_choices(self._notes.choices, result, ("->",))
        except Exception as exc:  # the validator itself failed: the result is unchecked
            raise OutputValidationUnavailable(self.ref) from exc
        if errors:
            raise ContractViolation(errors, ref=self.ref, side="output")
        return _datetimes_as_text(result, 0)

    def _unknown_args(self, args: object) -> list[ValidationError]:
        if not self._closed or not isinstance(args, dict) or self.contract is None:
            return []
        known = {norm_name(p.name) for p in self.contract.params}
        extra = sorted(k for k in args if not isinstance(k, str) or norm_name(k) not in known)
        if not extra:
            return []
        takes = ", ".join(":" + kebab(n) for n in sorted(known)[:12]) or "no arguments"
        if len(known) > 12:
            takes += ", ..."
        out = []
        for key in extra[:8]:
            shown = ":" + kebab(key) if isinstance(key, str) else repr(type(key).__name__)
            out.append(
                make_error(
                    [str(key)],
                    "unexpected",
                    "nothing",
                    kind_of(args[key]),
                    f"unknown argument {shown} (the tool takes {takes})",
                )
            )
        return out

    def _invoke(self, args: dict[str, Any]) -> Any:
        if self.style == "kwargs":
            assert self.contract is not None
            names = self.contract.param_names
            given = {norm_name(k): v for k, v in args.items() if isinstance(k, str)}
            call = {n: given[norm_name(n)] for n in names if norm_name(n) in given}
            for n in list(call):
                call[n] = _to_enums(self._notes.choices, call[n], (n,))
            return self.fn(**call)
        if self.style == "model" and self._model is not None:
            return self.fn(self._model.model_validate(args))
        return self.fn(args)

    # ------------------------------------------------------------------ schemas

    def input_schema(self) -> dict[str, Any]:
        """The JSON Schema of the arguments (Draft 2020-12; an open object if untyped)."""
        if self.contract is None:
            return {"type": "object"}
        schema = to_json_schema(self.contract, "input")
        _annotate(schema, self._notes, ())
        return schema

    def output_schema(self) -> dict[str, Any] | None:
        """The JSON Schema of the result, or None for an untyped tool."""
        if self.contract is None:
            return None
        schema = to_json_schema(self.contract, "output")
        _annotate(schema, self._notes, ("->",))
        return schema

    def to_openai(self, strict: bool = False, *, name: str | None = None) -> dict[str, Any]:
        """The OpenAI Chat Completions tool definition:
        `{"type": "function", "function": {name, description, parameters, strict}}`.

        `strict=True` follows OpenAI's strict mode: every object lists all its properties
        as required and admits no others, and an optional property is nullable instead
        of omittable (a program-side `nil` for it means "not given")."""
        tname = _provider_name(name or self.tool_name, "OpenAI")
        params = self.input_schema()
        if strict:
            params = _strict(params)
        return {
            "type": "function",
            "function": {
                "name": tname,
                "description": self.description,
                "parameters": params,
                "strict": bool(strict),
            },
        }

    def to_anthropic(self, *, name: str | None = None) -> dict[str, Any]:
        """The Anthropic Messages API tool definition: `{name, description, input_schema}`."""
        return {
            "name": _provider_name(name or self.tool_name, "Anthropic"),
            "description": self.description,
            "input_schema": self.input_schema(),
        }

    def to_mcp(self, *, name: str | None = None) -> dict[str, Any]:
        """The Model Context Protocol tool definition: `{name, description, inputSchema}`,
        `outputSchema` when the result is an object, and `annotations` from the effect
        (`read`: `readOnlyHint` true; `write`: `readOnlyHint` false; `unknown`: no hints)."""
        tname = name or self.tool_name
        if not 1 <= len(tname) <= 128:
            raise ValueError(f"MCP tool names have 1 to 128 characters: {tname[:140]!r}")
        out: dict[str, Any] = {
            "name": tname,
            "description": self.description,
            "inputSchema": self.input_schema(),
        }
        output = self.output_schema()
        if output is not None and output.get("type") == "object":
            out["outputSchema"] = output
        if self.effect == "read":
            out["annotations"] = {"readOnlyHint": True}
        elif self.effect == "write":
            out["annotations"] = {"readOnlyHint": False}
        return out


class _ToolDecorator:
    """What `Tool(effect=...)` without a function returns: applied to one, a `Tool`."""

    def __init__(self, settings: dict[str, Any]) -> None:
        self.settings = settings

    def __call__(self, fn: Callable[..., Any]) -> Tool:
        return Tool(fn, **self.settings)

    def __repr__(self) -> str:
        return f"Tool decorator {self.settings!r}"


@overload
def tool(fn: F, /) -> F: ...
@overload
def tool(
    *,
    name: str | None = ...,
    signature: str | Signature | None = ...,
    effect: Effect | None = ...,
    doc: str | None = ...,
    private_to: tuple[str, ...] = ...,
    returns_ptc_data: bool = ...,
    closed: bool | None = ...,
) -> Callable[[F], F]: ...


def tool(fn: Any = None, /, **settings: Any) -> Any:
    """Mark a function as a tool, keeping it the same function: `@tool` or `@tool(...)`.

    The settings are those of `Tool` (`name`, `signature`, `effect`, `doc`, `private_to`,
    `returns_ptc_data`, `closed`); the signature and the argument descriptions come from
    the hints and the docstring, checked at decoration time (`HintError`). The function
    stays callable as before; `tools={"name": fn}` and `tool_of(fn)` use its `Tool`.
    """

    def mark(f: Any) -> Any:
        t = Tool(f, **settings)
        try:
            f.__ptc_tool__ = t
            f.__ptc_invoke__ = t.invoke
            if t.returns_ptc_data:
                f.returns_ptc_data = True
        except (AttributeError, TypeError):  # a callable that takes no attributes
            return t
        return f

    if fn is None:
        return mark
    if settings:
        raise TypeError("tool(fn, ...): give settings as @tool(name=...) instead")
    return mark(fn)


def tool_of(fn: Callable[..., Any]) -> Callable[..., Any]:
    """The `Tool` of a function marked with `@tool`, else `fn` as it is."""
    t = getattr(fn, "__ptc_tool__", None)
    return t if isinstance(t, Tool) else fn


_HOST_TOOLS: weakref.WeakKeyDictionary[Any, Callable[..., Any]] = weakref.WeakKeyDictionary()


def host_callable(fn: Callable[..., Any]) -> Callable[..., Any]:
    """What the runtime calls for a registered callable: a `Tool` (or a function marked
    `@tool`) as it is; a plain function whose parameters a program names (type hints, or
    several parameters) as its `Tool`, so it is called by name; any other callable (an
    "args dict" function, a lambda, a callable object) as it is.

    A plain function whose hints have no signature equivalent stays an "args dict"
    function, as before hints were read. Results are cached per function."""
    if isinstance(fn, Tool) or callable(getattr(fn, "__ptc_invoke__", None)):
        return fn
    if not inspect.isfunction(fn):
        return fn
    try:
        return _HOST_TOOLS[fn]
    except KeyError:
        pass
    out: Callable[..., Any] = fn
    try:
        t = Tool(fn)
        if t.contract is not None:
            out = t
    except HintError:
        out = fn
    _HOST_TOOLS[fn] = out
    return out


def host_tools(
    tools: Mapping[str, Callable[..., Any]] | None,
) -> dict[str, Callable[..., Any]] | None:
    """`host_callable` of every tool of a `tools=` mapping."""
    if not tools:
        return None if tools is None else {}
    return {name: host_callable(fn) for name, fn in tools.items()}


# ---------------------------------------------------------------- values at the call


def _plain(value: Any, depth: int) -> Any:
    """pydantic models, dataclasses and enum members a tool returns as plain data."""
    if depth > 512:  # past the boundary's depth limit: left for it to refuse
        return value
    t = type(value)
    if t in (str, int, float, bool) or value is None:
        return value
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, dict):
        return {k: _plain(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v, depth + 1) for v in value]
    dump = getattr(value, "model_dump", None)
    if callable(dump) and not isinstance(value, type):
        return _plain(dump(), depth + 1)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _plain(dataclasses.asdict(value), depth + 1)
    return value


def _datetimes_as_text(value: Any, depth: int) -> Any:
    """A checked result's datetimes as ISO 8601 text, the form they have in a program."""
    if depth > 512:
        return value
    if isinstance(value, datetime.datetime):
        return value.isoformat()
    if isinstance(value, dict):
        return {k: _datetimes_as_text(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list):
        return [_datetimes_as_text(v, depth + 1) for v in value]
    return value


def _show_choice(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return f'"{v}"' if isinstance(v, str) else str(v)


def _check_choices(
    choices: Mapping[NotePath, Choices], value: object, prefix: NotePath
) -> list[ValidationError]:
    out: list[ValidationError] = []
    for path, ch in choices.items():
        if path[: len(prefix)] != prefix or (not prefix and path[:1] == ("->",)):
            continue
        rest = path[len(prefix) :]
        for where, v in _at(value, rest, ()):
            if v is None:  # nil is the optional type's business, checked already
                continue
            ok = any(type(v) is type(c) and v == c for c in ch.values)
            if not ok:
                allowed = ", ".join(_show_choice(c) for c in ch.values[:12])
                got = "another value" if type(v) in (str, int, bool) else kind_of(v)
                msg = f"expected one of {allowed}, got {got}"
                out.append(make_error(list(where), "type", f"one of {allowed}", got, msg))
    return out


def _at(
    value: object, path: NotePath, where: tuple[str | int, ...]
) -> Iterable[tuple[tuple[str | int, ...], object]]:
    """The values at `path` inside `value` (field names in any public spelling, "*")."""
    if not path:
        yield where, value
        return
    head, rest = path[0], path[1:]
    if head == "*":
        if isinstance(value, list | tuple):
            for i, item in enumerate(value):
                yield from _at(item, rest, (*where, i))
        return
    if isinstance(value, dict):
        for k, v in value.items():
            if isinstance(k, str) and norm_name(k) == norm_name(head):
                yield from _at(v, rest, (*where, head))
                return


def _to_enums(choices: Mapping[NotePath, Choices], value: object, path: NotePath) -> object:
    """`value` (a parameter at `path`) with the values at `Enum` places as members."""
    for p, ch in choices.items():
        if ch.enum is None or p[: len(path)] != path:
            continue
        value = _convert(value, p[len(path) :], ch.enum)
    return value


def _convert(value: object, rest: NotePath, cls: type[enum.Enum]) -> object:
    if value is None:
        return None
    if not rest:
        return cls(value)
    head, tail = rest[0], rest[1:]
    if head == "*" and isinstance(value, list):
        return [_convert(v, tail, cls) for v in value]
    if isinstance(value, dict):
        hit = norm_name(head)
        return {
            k: (_convert(v, tail, cls) if isinstance(k, str) and norm_name(k) == hit else v)
            for k, v in value.items()
        }
    return value


# ---------------------------------------------------------------- schemas


def _annotate(schema: dict[str, Any], notes: _Notes, prefix: NotePath) -> None:
    """Add `enum` and `description` from the hints' notes to a projected schema."""
    for path, ch in notes.choices.items():
        node = _schema_at(schema, path, prefix)
        if node is not None:
            values: list[Any] = list(ch.values)
            if isinstance(node.get("type"), list) and "null" in node["type"]:
                values.append(None)
            node["enum"] = values
    for path, text in notes.descriptions.items():
        node = _schema_at(schema, path, prefix)
        if node is not None and node is not schema:
            node["description"] = text


def _schema_at(schema: dict[str, Any], path: NotePath, prefix: NotePath) -> dict[str, Any] | None:
    if path[: len(prefix)] != prefix:
        return None
    node: Any = schema
    for seg in path[len(prefix) :]:
        if not isinstance(node, dict):
            return None
        node = node.get("items") if seg == "*" else node.get("properties", {}).get(norm_name(seg))
    return node if isinstance(node, dict) else None


def _strict(schema: Any) -> Any:
    """`schema` as OpenAI's strict mode wants it: every object closed and fully required,
    optional properties nullable."""
    if isinstance(schema, list):
        return [_strict(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: _strict(v) for k, v in schema.items()}
    if out.get("type") == "object" or out.get("type") == ["object", "null"]:
        props = out.get("properties", {})
        required = set(out.get("required", []))
        for key, prop in props.items():
            if key not in required and isinstance(prop, dict):
                _nullable(prop)
        out["properties"] = props
        out["required"] = list(props)
        out["additionalProperties"] = False
    return out


def _nullable(prop: dict[str, Any]) -> None:
    t = prop.get("type")
    if t is None:
        return  # `{}` (any) admits null already
    if isinstance(t, list):
        if "null" not in t:
            prop["type"] = [*t, "null"]
    elif t != "null":
        prop["type"] = [t, "null"]
    if "enum" in prop and None not in prop["enum"]:
        prop["enum"] = [*prop["enum"], None]


_PROVIDER_NAME: Final = re.compile(r"[A-Za-z0-9_-]{1,64}")


def _provider_name(name: str, provider: str) -> str:
    if not _PROVIDER_NAME.fullmatch(name):
        raise ValueError(
            f"{provider} tool names are 1 to 64 of A-Z a-z 0-9 _ -: {name[:80]!r} is not; "
            "give the export a name= that is"
        )
    return name


# ---------------------------------------------------------------- type hints -> signature


def _is_typeddict(t: object) -> bool:
    return isinstance(t, type) and issubclass(t, dict) and hasattr(t, "__required_keys__")


def _is_model(t: object) -> bool:
    return isinstance(t, type) and hasattr(t, "model_fields") and hasattr(t, "model_validate")


def _is_plain_mapping(t: object) -> bool:
    origin = typing.get_origin(t) or t
    return origin in (dict, Mapping, typing.Mapping) or t in (dict, Mapping)


def hint_type(
    hint: object, where: str, notes: _Notes | None = None, path: NotePath = ()
) -> SigType:
    """The signature type of a Python type hint; `HintError` when there is none.

    `notes` collects what the signature cannot say (allowed values of `Literal`/`Enum`,
    `Annotated` descriptions), at `path`."""
    origin = typing.get_origin(hint)
    if origin is typing.Annotated:
        hint, *meta = typing.get_args(hint)
        text = next((m for m in meta if isinstance(m, str)), None)
        if text is None:
            text = next(
                (
                    getattr(m, "description", None)
                    for m in meta
                    if isinstance(getattr(m, "description", None), str)
                ),
                None,
            )
        if text is not None and notes is not None:
            notes.descriptions[path] = text
        origin = typing.get_origin(hint)
    if origin is typing.Union or origin is types.UnionType:
        members = [a for a in typing.get_args(hint) if a is not type(None)]
        if len(members) != 1:
            raise HintError(
                f"{where}: {_show(hint)} has no signature equivalent (unions other than "
                "X | None are not supported); pass signature= explicitly"
            )
        return dataclasses.replace(hint_type(members[0], where, notes, path), optional=True)
    return _base_type(hint, origin, where, notes, path)


_PRIMS: dict[object, str] = {
    bool: "bool",
    int: "int",
    float: "float",
    str: "string",
    datetime.datetime: "datetime",
    Keyword: "keyword",
    typing.Any: "any",
    object: "any",
}
_VALUE_PRIM: Final[dict[type, Literal["bool", "int", "string"]]] = {
    bool: "bool",
    int: "int",
    str: "string",
}


def _choices_type(values: Sequence[object], where: str, hint: object) -> Prim:
    kinds = {type(v) for v in values}
    if len(kinds) != 1 or next(iter(kinds)) not in _VALUE_PRIM:
        raise HintError(
            f"{where}: {_show(hint)} has no signature equivalent (its values must all be "
            "strings, all integers or all booleans); pass signature= explicitly"
        )
    return Prim(_VALUE_PRIM[next(iter(kinds))])


def _base_type(
    hint: object, origin: object, where: str, notes: _Notes | None, path: NotePath
) -> SigType:
    prim = _PRIMS.get(hint)
    if prim is not None:
        return Prim(prim)  # type: ignore[arg-type]
    if origin is Literal:
        values = typing.get_args(hint)
        t = _choices_type(values, where, hint)
        if notes is not None:
            notes.choices[path] = Choices(tuple(values))
        return t
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        members = tuple(m.value for m in hint)
        if not members:
            raise HintError(f"{where}: enum {hint.__name__} has no members")
        t = _choices_type(members, where, hint)
        if notes is not None:
            notes.choices[path] = Choices(members, hint)
        return t
    if hint is list or origin in (list, Sequence, typing.Sequence):
        args = typing.get_args(hint)
        return ListOf(hint_type(args[0], where, notes, (*path, "*")) if args else Prim("any"))
    if _is_plain_mapping(hint):
        args = typing.get_args(hint)
        if args and args[0] is not str:
            raise HintError(
                f"{where}: {_show(hint)} has no signature equivalent (map keys must be str); "
                "pass signature= explicitly"
            )
        return Prim("map")
    if _is_typeddict(hint):
        return MapOf(_typeddict_fields(hint, where, notes, path))
    if _is_model(hint):
        return MapOf(_model_fields(hint, where, notes, path))
    raise HintError(
        f"{where}: type hint {_show(hint)} has no signature equivalent (supported: int, "
        "float, str, bool, datetime, Literal, Enum, list[...], dict[str, ...], TypedDict, "
        "pydantic models, Optional, Annotated); pass signature= explicitly"
    )


def _typeddict_fields(
    td: Any, where: str, notes: _Notes | None = None, path: NotePath = ()
) -> tuple[Field, ...]:
    hints = typing.get_type_hints(td, include_extras=True)
    required = set(td.__required_keys__)
    out = []
    for name, h in hints.items():
        origin = typing.get_origin(h)
        if origin is typing.NotRequired:  # seen only here when annotations are strings
            required.discard(name)
            h = typing.get_args(h)[0]
        elif origin is typing.Required:
            required.add(name)
            h = typing.get_args(h)[0]
        t = hint_type(h, f"{where}.{name}", notes, (*path, name))
        if name not in required and not t.optional:
            t = dataclasses.replace(t, optional=True)
        out.append(Field(name, t))
    return tuple(out)


def _model_fields(
    model: Any, where: str, notes: _Notes | None = None, path: NotePath = ()
) -> tuple[Field, ...]:
    out = []
    for name, info in model.model_fields.items():
        hint = info.annotation
        if info.metadata:  # Annotated[...] metadata pydantic moved off the annotation
            hint = typing.Annotated[(hint, *info.metadata)]
        t = hint_type(hint, f"{where}.{name}", notes, (*path, name))
        if not info.is_required() and not t.optional:
            t = dataclasses.replace(t, optional=True)
        if notes is not None and isinstance(info.description, str):
            notes.descriptions.setdefault((*path, name), info.description)
        out.append(Field(name, t))
    return tuple(out)


def _strip_annotated(hint: object) -> object:
    return typing.get_args(hint)[0] if typing.get_origin(hint) is typing.Annotated else hint


def _show(hint: object) -> str:
    if isinstance(hint, type):
        return hint.__name__
    return str(hint).replace("typing.", "")


def derive_signature(
    fn: Callable[..., Any], notes: _Notes | None = None
) -> tuple[Signature, CallStyle, Any, bool] | None:
    """A signature from `fn`'s type hints, how to call it and whether its input is closed;
    None for an "args dict" function (one parameter, unannotated or annotated as a plain
    dict, `Any` or `object`). A function with several parameters and no hints at all gets
    `:any` ones."""
    name = getattr(fn, "__name__", "tool")
    try:
        hints = typing.get_type_hints(fn, include_extras=True)
    except Exception as exc:  # unresolvable forward references and the like
        raise HintError(f"{name}: cannot read its type hints ({exc})") from None
    try:
        all_params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):  # a builtin without a signature: an args-dict tool
        return None
    var_kw = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in all_params)
    params = [
        p
        for p in all_params
        if p.kind not in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
    ]
    positional_only = any(p.kind is inspect.Parameter.POSITIONAL_ONLY for p in params)
    untyped = not hints
    if untyped and (len(params) < 2 or positional_only):
        return None  # the classic "args dict" tool
    ret = hints.get("return", typing.Any)
    output = (
        Prim("any", True)
        if ret is type(None)
        else hint_type(ret, f"{name} -> result", notes, ("->",))
    )
    if len(params) == 1:
        only = params[0]
        h = hints.get(only.name)
        if h is None or _is_plain_mapping(h) or _strip_annotated(h) in (typing.Any, object):
            return None  # an "args dict" function: untyped unless signature= is given
        if _is_typeddict(h):
            return Signature(_typeddict_fields(h, name, notes), output), "dict", None, True
        if _is_model(h):
            extra = getattr(h, "model_config", {}).get("extra")
            return Signature(_model_fields(h, name, notes), output), "model", h, extra != "allow"
    if positional_only:
        raise HintError(f"{name}: positional-only parameters cannot be called by name")
    fields = []
    for p in params:
        h = hints.get(p.name)
        if h is None:
            if not untyped:
                raise HintError(
                    f"{name}: parameter {p.name} has no type hint; annotate it or pass signature="
                )
            h = typing.Any
        t = hint_type(h, f"{name}({p.name})", notes, (p.name,))
        if p.default is not inspect.Parameter.empty and not t.optional:
            t = dataclasses.replace(t, optional=True)
        fields.append(Field(p.name, t))
    return Signature(tuple(fields), output), "kwargs", None, not var_kw


# ---------------------------------------------------------------- schemas and prompt text


def as_tool(name: str, fn: Callable[..., Any]) -> Tool:
    """`fn` as a `Tool` named `name` (a Tool, or a function marked `@tool`, keeps its
    settings)."""
    fn = tool_of(fn)
    if isinstance(fn, Tool):
        return fn if fn.name == name else dataclasses.replace(fn, name=name)
    return Tool(fn, name=name)


def _named(tools: Mapping[str, Callable[..., Any]] | Iterable[Callable[..., Any]]) -> list[Tool]:
    if isinstance(tools, Mapping):
        return [as_tool(n, tools[n]) for n in sorted(tools)]
    out = []
    for fn in tools:
        t = tool_of(fn)
        out.append(t if isinstance(t, Tool) else Tool(t))
    return sorted(out, key=lambda t: t.tool_name)


def openai_tools(
    tools: Mapping[str, Callable[..., Any]] | Iterable[Callable[..., Any]], strict: bool = False
) -> list[dict[str, Any]]:
    """`Tool.to_openai` of every tool (a name -> callable mapping, or tools), by name."""
    return [t.to_openai(strict) for t in _named(tools)]


def anthropic_tools(
    tools: Mapping[str, Callable[..., Any]] | Iterable[Callable[..., Any]],
) -> list[dict[str, Any]]:
    """`Tool.to_anthropic` of every tool, by name."""
    return [t.to_anthropic() for t in _named(tools)]


def mcp_tools(
    tools: Mapping[str, Callable[..., Any]] | Iterable[Callable[..., Any]],
) -> list[dict[str, Any]]:
    """`Tool.to_mcp` of every tool, by name (the `tools` of an MCP `tools/list` result)."""
    return [t.to_mcp() for t in _named(tools)]


def tool_schema(name: str, tool: Callable[..., Any]) -> dict[str, Any]:
    """One model-visible tool definition: name, description, JSON Schema of the input."""
    t = as_tool(name, tool)
    out: dict[str, Any] = {"name": name, "description": t.description}
    out["input_schema"] = t.input_schema()
    if t.contract is not None:
        out["output_schema"] = t.output_schema()
        out["signature"] = render(t.contract)
    out["effect"] = t.effect
    return out


def tool_schemas(tools: Mapping[str, Callable[..., Any]]) -> list[dict[str, Any]]:
    """Tool definitions for every tool, sorted by name."""
    return [tool_schema(n, tools[n]) for n in sorted(tools)]


def render_tools(tools: Mapping[str, Callable[..., Any]]) -> str:
    """The "available tools" text for a prompt: call form, signature and doc per tool."""
    lines = [";; tools"]
    for name in sorted(tools):
        t = as_tool(name, tools[name])
        sig = render(t.contract) if t.contract is not None else None
        if t.contract is None:
            args = " {...}"
        elif t.contract.params:
            keys = (f":{p.name.replace('_', '-')} ..." for p in t.contract.params)
            args = " {" + ", ".join(keys) + "}"
        else:
            args = ""
        lines.append(f"(tool/{name}{args})" + (f"  ; {sig}" if sig else ""))
        if t.description:
            lines.append(f"  ;; {t.description.splitlines()[0]}")
    return "\n".join(lines)
