"""Typed host tools: a Python callable plus the contract a program must honour to call it.

    from ptc_compiler import Tool, run

    def get_user(args): return {"name": USERS[args["id"]]}
    run("(tool/get-user {:id 7})",
        tools={"get-user": Tool(get_user, signature="(id :int) -> {name :string}")})

    def search(query: str, limit: int | None = None) -> list[Hit]:   # Hit: a TypedDict
        ...
    Tool(search)        # signature derived: (query :string, limit :int?) -> [{...}]

With a signature, the arguments are validated before the function is called (a bad
argument is a `contract_violation` naming the contract path, and the function is not
called) and the result before it is handed to the program (spec §8). Arguments reach
a one-parameter "args dict" function as one dict with public keys (`:order-count`
arrives as "order_count"); a function whose signature was derived from its type hints is
called with keyword arguments instead (a pydantic-model or TypedDict parameter receives the
whole map). Without hints and without `signature=`, the tool is untyped, as before.

`tool_schemas(tools)` gives the model-visible tool definitions (JSON Schema from each
signature, with docs); `render_tools(tools)` the "available tools" text for a prompt.
"""

from __future__ import annotations

import dataclasses
import datetime
import inspect
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from ptc_compiler.signatures import Signature, parse, render, to_json_schema
from ptc_runtime.contracts.errors import ContractViolation
from ptc_runtime.contracts.types import Field, ListOf, MapOf, Prim, SigType
from ptc_runtime.values import Keyword

Effect = Literal["read", "write", "unknown"]
CallStyle = Literal["dict", "kwargs", "model"]


class HintError(TypeError):
    """A type hint with no signature equivalent (names the function, place and hint)."""


class InputValidationUnavailable(Exception):
    """A tool's input could not be validated, so the tool was not called.

    `Tool` raises it when its input validator fails to run (not when the input is invalid,
    which is a `contract_violation`); a host function that validates against an external
    schema service raises it itself when that service is down. The agent loop treats it as a
    host failure no corrected program can clear (seed 001:
    `capability-unavailable/input-validation-unavailable`).
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
class Tool:
    """A host function exposed as `tool/<name>`, optionally with a signature.

    `signature`: text or `Signature`; None derives one from the type hints when the function
    has them. `effect`: "read", "write" or "unknown" (None). `private_to`: prelude namespaces
    that alone may call it (programs cannot name it; see docs/preludes.md).
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
    contract: Signature | None = field(init=False, repr=False, compare=False)
    style: CallStyle = field(init=False, repr=False, compare=False)
    _model: Any = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not callable(self.fn):
            raise TypeError("Tool(fn): fn must be callable")
        if self.effect is None:
            object.__setattr__(self, "effect", "unknown")
        if self.effect not in ("read", "write", "unknown"):
            raise ValueError(
                f"Tool effect must be 'read', 'write' or 'unknown', not {self.effect!r}"
            )
        object.__setattr__(self, "private_to", tuple(self.private_to))
        sig = self.signature
        style: CallStyle = "dict"
        model: Any = None
        if sig is None:
            derived = derive_signature(self.fn)
            if derived is not None:
                sig, style, model = derived
        contract = parse(sig) if isinstance(sig, str) else sig
        object.__setattr__(self, "contract", contract)
        object.__setattr__(self, "style", style)
        object.__setattr__(self, "_model", model)
        if self.doc is None:
            text = inspect.getdoc(self.fn)
            if text:
                object.__setattr__(self, "doc", text.strip())

    @property
    def ref(self) -> str:
        name = self.name or getattr(self.fn, "__name__", None)
        return "tool/" + (name if isinstance(name, str) else "tool")

    @property
    def signature_text(self) -> str | None:
        """The canonical signature text, or None for an untyped tool."""
        return None if self.contract is None else render(self.contract)

    def __call__(self, args: dict[str, Any]) -> Any:
        sig = self.contract
        if sig is None:
            return self.fn(args)
        try:
            errors = sig.check_input(args)
        except Exception as exc:  # the validator itself failed: the input is unchecked
            raise InputValidationUnavailable(self.ref) from exc
        if errors:
            raise ContractViolation(errors, ref=self.ref, side="input")
        result = _plain(self._invoke(args))
        try:
            errors = sig.check_output(result)
        except Exception as exc:  # the validator itself failed: the result is unchecked
            raise OutputValidationUnavailable(self.ref) from exc
        if errors:
            raise ContractViolation(errors, ref=self.ref, side="output")
        return result

    def _invoke(self, args: dict[str, Any]) -> Any:
        if self.style == "kwargs":
            assert self.contract is not None
            names = self.contract.param_names
            return self.fn(**{n: args[n] for n in names if n in args})
        if self.style == "model" and self._model is not None:
            return self.fn(self._model.model_validate(args))
        return self.fn(args)


def _plain(value: Any) -> Any:
    """pydantic models (and dataclasses) returned by a tool become plain maps."""
    dump = getattr(value, "model_dump", None)
    if callable(dump) and not isinstance(value, type):
        return dump()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    return value


# ---------------------------------------------------------------- type hints -> signature


def _is_typeddict(t: object) -> bool:
    return isinstance(t, type) and issubclass(t, dict) and hasattr(t, "__required_keys__")


def _is_model(t: object) -> bool:
    return isinstance(t, type) and hasattr(t, "model_fields") and hasattr(t, "model_validate")


def _is_plain_mapping(t: object) -> bool:
    origin = typing.get_origin(t) or t
    return origin in (dict, Mapping, typing.Mapping) or t in (dict, Mapping)


def hint_type(hint: object, where: str) -> SigType:
    """The signature type of a Python type hint; `HintError` when there is none."""
    optional = False
    origin = typing.get_origin(hint)
    if origin is typing.Annotated:
        hint = typing.get_args(hint)[0]
        origin = typing.get_origin(hint)
    if origin is typing.Union or origin is types.UnionType:
        members = [a for a in typing.get_args(hint) if a is not type(None)]
        if len(members) != 1:
            raise HintError(
                f"{where}: {_show(hint)} has no signature equivalent (unions other than "
                "X | None are not supported); pass signature= explicitly"
            )
        optional = True
        hint = members[0]
        origin = typing.get_origin(hint)
    t = _base_type(hint, origin, where)
    return dataclasses.replace(t, optional=True) if optional else t


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


def _base_type(hint: object, origin: object, where: str) -> SigType:
    prim = _PRIMS.get(hint)
    if prim is not None:
        return Prim(prim)  # type: ignore[arg-type]
    if hint is list or origin in (list, Sequence, typing.Sequence):
        args = typing.get_args(hint)
        return ListOf(hint_type(args[0], where) if args else Prim("any"))
    if _is_plain_mapping(hint):
        args = typing.get_args(hint)
        if args and args[0] is not str:
            raise HintError(
                f"{where}: {_show(hint)} has no signature equivalent (map keys must be str); "
                "pass signature= explicitly"
            )
        return Prim("map")
    if _is_typeddict(hint):
        return MapOf(_typeddict_fields(hint, where))
    if _is_model(hint):
        return MapOf(_model_fields(hint, where))
    raise HintError(
        f"{where}: type hint {_show(hint)} has no signature equivalent (supported: int, "
        "float, str, bool, datetime, list[...], dict[str, ...], TypedDict, pydantic models, "
        "Optional); pass signature= explicitly"
    )


def _typeddict_fields(td: Any, where: str) -> tuple[Field, ...]:
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
        t = hint_type(h, f"{where}.{name}")
        if name not in required and not t.optional:
            t = dataclasses.replace(t, optional=True)
        out.append(Field(name, t))
    return tuple(out)


def _model_fields(model: Any, where: str) -> tuple[Field, ...]:
    out = []
    for name, info in model.model_fields.items():
        t = hint_type(info.annotation, f"{where}.{name}")
        if not info.is_required() and not t.optional:
            t = dataclasses.replace(t, optional=True)
        out.append(Field(name, t))
    return tuple(out)


def _show(hint: object) -> str:
    if isinstance(hint, type):
        return hint.__name__
    return str(hint).replace("typing.", "")


def derive_signature(fn: Callable[..., Any]) -> tuple[Signature, CallStyle, Any] | None:
    """A signature from `fn`'s type hints, with how to call it; None when it has no hints
    (or is an "args dict" function: one parameter annotated as a plain dict)."""
    name = getattr(fn, "__name__", "tool")
    try:
        hints = typing.get_type_hints(fn)
    except Exception as exc:  # unresolvable forward references and the like
        raise HintError(f"{name}: cannot read its type hints ({exc})") from None
    if not hints:
        return None
    params = [
        p
        for p in inspect.signature(fn).parameters.values()
        if p.kind not in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
    ]
    ret = hints.get("return", typing.Any)
    output = Prim("any", True) if ret is type(None) else hint_type(ret, f"{name} -> result")
    if len(params) == 1:
        only = params[0]
        h = hints.get(only.name)
        if h is None or _is_plain_mapping(h):
            return None  # an "args dict" function: untyped unless signature= is given
        if _is_typeddict(h):
            return Signature(_typeddict_fields(h, name), output), "dict", None
        if _is_model(h):
            return Signature(_model_fields(h, name), output), "model", h
    fields = []
    for p in params:
        h = hints.get(p.name)
        if h is None:
            raise HintError(
                f"{name}: parameter {p.name} has no type hint; annotate it or pass signature="
            )
        t = hint_type(h, f"{name}({p.name})")
        if p.default is not inspect.Parameter.empty and not t.optional:
            t = dataclasses.replace(t, optional=True)
        fields.append(Field(p.name, t))
    return Signature(tuple(fields), output), "kwargs", None


# ---------------------------------------------------------------- schemas and prompt text


def as_tool(name: str, fn: Callable[..., Any]) -> Tool:
    """`fn` as a `Tool` named `name` (a Tool keeps its settings)."""
    if isinstance(fn, Tool):
        return fn if fn.name == name else dataclasses.replace(fn, name=name)
    return Tool(fn, name=name)


def tool_schema(name: str, tool: Callable[..., Any]) -> dict[str, Any]:
    """One model-visible tool definition: name, description, JSON Schema of the input."""
    t = as_tool(name, tool)
    out: dict[str, Any] = {"name": name, "description": t.doc or ""}
    if t.contract is not None:
        out["input_schema"] = to_json_schema(t.contract, "input")
        out["output_schema"] = to_json_schema(t.contract, "output")
        out["signature"] = render(t.contract)
    else:
        out["input_schema"] = {"type": "object"}
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
        if t.doc:
            lines.append(f"  ;; {t.doc.splitlines()[0]}")
    return "\n".join(lines)
