"""JSON Schema both ways.

`to_json_schema` projects a signature side to a Draft 2020-12 schema for model-visible tool
definitions: typed maps (and the parameter object) closed, optional types nullable and not
required, `:any` as `{}`, property names in public (underscore) spelling.

`from_json_schema` turns a schema of the supported subset into an output-only contract; an
object with ``additionalProperties: false`` becomes a *closed* map. Anything outside the subset
is rejected with a `SchemaConversionError` naming the property path.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from typing import Any, Final, Literal

from ptc_runtime.contracts.errors import SchemaConversionError
from ptc_runtime.contracts.types import (
    MAX_DEPTH,
    Field,
    ListOf,
    MapOf,
    Prim,
    Signature,
    SigType,
    norm_name,
)

JsonSchema = dict[str, Any]

_PRIM_SCHEMA: Final[dict[str, str | None]] = {
    "string": "string",
    "int": "integer",
    "float": "number",
    "bool": "boolean",
    "keyword": "string",
    "datetime": "string",
    "map": "object",
    "any": None,
}


def _schema(t: SigType) -> JsonSchema:
    out: JsonSchema
    if isinstance(t, Prim):
        word = _PRIM_SCHEMA[t.name]
        out = {} if word is None else {"type": word}
    elif isinstance(t, ListOf):
        out = {"type": "array", "items": _schema(t.item)}
    else:
        out = _object(t.fields, None)
    if t.optional and "type" in out:
        out["type"] = [out["type"], "null"]
    return out


def _object(fields: tuple[Field, ...], descriptions: Mapping[str, str] | None) -> JsonSchema:
    props: JsonSchema = {}
    for f in fields:
        prop = _schema(f.type)
        if descriptions is not None:
            text = descriptions.get(f.name, descriptions.get(norm_name(f.name)))
            if text is not None:
                prop["description"] = text
        props[norm_name(f.name)] = prop
    return {
        "type": "object",
        "properties": props,
        "required": [norm_name(f.name) for f in fields if not f.type.optional],
        "additionalProperties": False,
    }


def to_json_schema(
    sig: Signature,
    side: Literal["input", "output"] = "output",
    *,
    description: str | None = None,
    descriptions: Mapping[str, str] | None = None,
) -> JsonSchema:
    """The JSON Schema of one side of `sig`.

    `side="input"`: the closed object of named parameters; `side="output"`: the output type's
    own schema (never wrapped). `description` goes on the root, `descriptions` (parameter name,
    declared or public spelling -> text) on the input properties. Neither changes validity.
    """
    if side == "input":
        out = _object(sig.params, descriptions)
    elif side == "output":
        out = _schema(sig.output)
    else:
        raise ValueError("side must be 'input' or 'output'")
    if description is not None:
        out["description"] = description
    return out


# ---------------------------------------------------------------- JSON Schema -> contract

_NAME: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")
_SCALARS: Final[dict[str, Literal["string", "int", "float", "bool"]]] = {
    "string": "string",
    "integer": "int",
    "number": "float",
    "boolean": "bool",
}
_ALLOWED: Final[dict[str, frozenset[str]]] = {
    "scalar": frozenset({"type", "description"}),
    "array": frozenset({"type", "description", "items"}),
    "object": frozenset({"type", "description", "properties", "required", "additionalProperties"}),
}


def _fail(msg: str, path: list[str | int]) -> SchemaConversionError:
    return SchemaConversionError(msg, path)


def _check_keys(node: Mapping[str, object], family: str, path: list[str | int]) -> None:
    for key in sorted(map(str, node)):
        if key not in _ALLOWED[family]:
            raise _fail(f"unsupported keyword '{key[:64]}' for a {family} schema", path)
    if "description" in node and not isinstance(node["description"], str):
        raise _fail("description must be a string", path)


def _convert(node: object, path: list[str | int], depth: int) -> SigType:
    if not isinstance(node, Mapping):
        raise _fail("a schema must be an object", path)
    if "type" not in node:
        raise _fail("missing 'type'", path)
    kind = node["type"]
    if not isinstance(kind, str):
        raise _fail("'type' must be a single type name", path)
    if kind in _SCALARS:
        _check_keys(node, "scalar", path)
        return Prim(_SCALARS[kind])
    if depth >= MAX_DEPTH:
        raise _fail(f"nested deeper than {MAX_DEPTH} levels", path)
    if kind == "array":
        _check_keys(node, "array", path)
        if "items" not in node:
            raise _fail("an array needs 'items'", path)
        items = node["items"]
        if not isinstance(items, Mapping):
            raise _fail("'items' must be a schema object", path)
        return ListOf(_convert(items, [*path, "items"], depth + 1))
    if kind == "object":
        _check_keys(node, "object", path)
        return _convert_object(node, path, depth)
    raise _fail(f"unsupported type '{kind[:64]}'", path)


def _convert_object(node: Mapping[str, object], path: list[str | int], depth: int) -> SigType:
    closed_flag = node.get("additionalProperties", True)
    if not isinstance(closed_flag, bool):
        raise _fail("'additionalProperties' must be true or false", path)
    closed = closed_flag is False
    props = node.get("properties")
    required = node.get("required", [])
    if not isinstance(required, list) or not all(isinstance(r, str) for r in required):
        raise _fail("'required' must be a list of property names", path)
    if props is None:
        if required:
            raise _fail("'required' names an undeclared property", path)
        return MapOf((), closed=True) if closed else Prim("map")
    if not isinstance(props, Mapping):
        raise _fail("'properties' must be an object", path)
    for name in required:
        if name not in props:
            raise _fail(f"'required' names an undeclared property '{name[:64]}'", path)
    if not all(isinstance(name, str) and _NAME.fullmatch(name) for name in props):
        raise _fail("a property name is not a valid signature name", path)
    seen: dict[str, str] = {}
    fields: list[Field] = []
    for name in sorted(props):
        public = norm_name(name)
        if public in seen:
            raise _fail(f"properties '{seen[public]}' and '{name}' collide after - -> _", path)
        seen[public] = name
        t = _convert(props[name], [*path, name], depth + 1)
        if name not in required:
            t = dataclasses.replace(t, optional=True)
        fields.append(Field(name, t))
    return MapOf(tuple(fields), closed=closed)


def from_json_schema(schema: object) -> Signature:
    """An output-only contract from a schema of the supported subset.

    Non-required properties become optional (`T?`, so `null` is accepted too); objects with
    ``additionalProperties: false`` become closed maps. Raises `SchemaConversionError`.
    """
    return Signature((), _convert(schema, [], 0))
