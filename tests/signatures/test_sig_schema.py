"""JSON Schema both ways (spec §9-10), checked against the Draft 2020-12 metaschema."""

from __future__ import annotations

from typing import Any

import jsonschema  # type: ignore[import-untyped]
import pytest

from ptc_compiler import signatures as sigs

PROJECTIONS: list[tuple[str, dict[str, Any]]] = [
    (":string", {"type": "string"}),
    (":int", {"type": "integer"}),
    (":float", {"type": "number"}),
    (":bool", {"type": "boolean"}),
    (":boolean", {"type": "boolean"}),
    (":keyword", {"type": "string"}),
    (":datetime", {"type": "string"}),
    (":map", {"type": "object"}),
    (":any", {}),
    (":any?", {}),
    (":int?", {"type": ["integer", "null"]}),
    ("[:int]", {"type": "array", "items": {"type": "integer"}}),
    ("[:int]?", {"type": ["array", "null"], "items": {"type": "integer"}}),
    ("{}", {"type": "object", "properties": {}, "required": [], "additionalProperties": False}),
    (
        "{user-id :int, email :string?}",
        {
            "type": "object",
            "properties": {"user_id": {"type": "integer"}, "email": {"type": ["string", "null"]}},
            "required": ["user_id"],
            "additionalProperties": False,
        },
    ),
    (
        "() -> [{id :int}]",
        {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"id": {"type": "integer"}},
                "required": ["id"],
                "additionalProperties": False,
            },
        },
    ),
]


@pytest.mark.parametrize(("t", "want"), PROJECTIONS)
def test_output_projection(t: str, want: dict[str, Any]) -> None:
    got = sigs.to_json_schema(sigs.parse(t), side="output")
    assert got == want
    jsonschema.Draft202012Validator.check_schema(got)


def test_input_projection() -> None:
    s = sigs.parse("(query :string, cursor :string?) -> :any")
    got = sigs.to_json_schema(s, side="input")
    assert got == {
        "type": "object",
        "properties": {"query": {"type": "string"}, "cursor": {"type": ["string", "null"]}},
        "required": ["query"],
        "additionalProperties": False,
    }
    jsonschema.Draft202012Validator.check_schema(got)


def test_empty_input_accepts_only_empty_object() -> None:
    got = sigs.to_json_schema(sigs.parse(":int"), side="input")
    v = jsonschema.Draft202012Validator(got)
    assert v.is_valid({}) and not v.is_valid({"a": 1}) and not v.is_valid([])


def test_descriptions() -> None:
    s = sigs.parse("(user-id :int, q :string) -> :any")
    got = sigs.to_json_schema(
        s,
        side="input",
        description="Find a user.",
        descriptions={"user-id": "the id", "q": "query text"},
    )
    assert got["description"] == "Find a user."
    assert got["properties"]["user_id"]["description"] == "the id"
    assert got["properties"]["q"]["description"] == "query text"


def test_bad_side() -> None:
    with pytest.raises(ValueError):
        sigs.to_json_schema(sigs.parse(":int"), side="both")  # type: ignore[arg-type]


FROM_SCHEMA = [
    ({"type": "string"}, ":string"),
    ({"type": "integer", "description": "n"}, ":int"),
    ({"type": "number"}, ":float"),
    ({"type": "boolean"}, ":bool"),
    ({"type": "array", "items": {"type": "string"}}, "[:string]"),
    ({"type": "object"}, ":map"),
    ({"type": "object", "additionalProperties": True}, ":map"),
    (
        {
            "type": "object",
            "properties": {"b": {"type": "integer"}, "a": {"type": "string"}},
            "required": ["b"],
        },
        "{a :string?, b :int}",
    ),
]


@pytest.mark.parametrize(("schema", "text"), FROM_SCHEMA)
def test_from_json_schema(schema: dict[str, Any], text: str) -> None:
    got = sigs.from_json_schema(schema)
    assert got == sigs.parse(text)
    assert not got.params


def test_closed_maps() -> None:
    got = sigs.from_json_schema(
        {
            "type": "object",
            "properties": {"a": {"type": "integer"}},
            "required": ["a"],
            "additionalProperties": False,
        }
    )
    assert isinstance(got.output, sigs.MapOf) and got.output.closed
    assert sigs.validate_output(got, {"a": 1}) == []
    assert [e.kind for e in sigs.validate_output(got, {"a": 1, "b": 2})] == ["unexpected"]
    empty = sigs.from_json_schema({"type": "object", "additionalProperties": False})
    assert empty.output == sigs.MapOf((), closed=True)
    assert sigs.validate_output(empty, {}) == [] and sigs.validate_output(empty, {"x": 1})
    open_ = sigs.from_json_schema({"type": "object", "properties": {"a": {"type": "integer"}}})
    assert sigs.validate_output(open_, {"b": 2}) == []


def test_non_required_accepts_null() -> None:
    got = sigs.from_json_schema({"type": "object", "properties": {"a": {"type": "integer"}}})
    assert sigs.validate_output(got, {"a": None}) == []


REJECTED = [
    ({}, "missing 'type'"),
    ({"type": ["string", "null"]}, "single type"),
    ({"type": "null"}, "unsupported type"),
    ({"type": "foo"}, "unsupported type"),
    ({"type": "string", "enum": ["a"]}, "'enum'"),
    ({"type": "string", "const": "a"}, "'const'"),
    ({"type": "string", "format": "date-time"}, "'format'"),
    ({"type": "string", "pattern": "x"}, "'pattern'"),
    ({"type": "integer", "minimum": 0}, "'minimum'"),
    ({"type": "string", "maxLength": 3}, "'maxLength'"),
    ({"type": "string", "title": "t"}, "'title'"),
    ({"type": "string", "default": "d"}, "'default'"),
    ({"$ref": "#/x", "type": "string"}, "'$ref'"),
    ({"type": "object", "$defs": {}}, "'$defs'"),
    ({"type": "string", "anyOf": []}, "'anyOf'"),
    ({"type": "object", "patternProperties": {}}, "'patternProperties'"),
    ({"type": "array", "prefixItems": [], "items": {"type": "string"}}, "'prefixItems'"),
    ({"type": "object", "additionalProperties": {"type": "string"}}, "true or false"),
    ({"type": "array"}, "needs 'items'"),
    ({"type": "array", "items": True}, "'items'"),
    ({"type": "object", "properties": []}, "'properties'"),
    ({"type": "object", "properties": {}, "required": "a"}, "'required'"),
    ({"type": "object", "properties": {}, "required": [1]}, "'required'"),
    ({"type": "object", "properties": {}, "required": ["a"]}, "undeclared"),
    ({"type": "object", "required": ["a"]}, "undeclared"),
    (
        {"type": "object", "properties": {"a-b": {"type": "string"}, "a_b": {"type": "string"}}},
        "collide",
    ),
    ({"type": "object", "properties": {"a b": {"type": "string"}}}, "valid signature name"),
    (
        {
            "type": "object",
            "properties": {
                "x": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {"y": {"type": "string", "minLength": 1}},
                    },
                }
            },
        },
        "x.items.y",
    ),
    (True, "must be an object"),
    ("string", "must be an object"),
]


@pytest.mark.parametrize(("schema", "fragment"), REJECTED)
def test_rejected_schemas(schema: object, fragment: str) -> None:
    with pytest.raises(sigs.SchemaConversionError) as info:
        sigs.from_json_schema(schema)
    assert fragment in str(info.value)
    assert info.value.code == "unsupported_schema"


def test_deep_schema_rejected_cleanly() -> None:
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(5000):
        schema = {"type": "array", "items": schema}
    with pytest.raises(sigs.SchemaConversionError, match="nested deeper"):
        sigs.from_json_schema(schema)


def test_round_trip_through_schema_without_optionals() -> None:
    s = sigs.parse("{c {d :bool}, a [:string]}")
    back = sigs.from_json_schema(sigs.to_json_schema(s))
    assert sigs.render(back) == "() -> {a [:string], c {d :bool}}"  # sorted, closed


def test_nullable_projection_is_not_a_supported_input() -> None:
    # the projection widens T? with a type array; from_json_schema accepts single types only
    with pytest.raises(sigs.SchemaConversionError):
        sigs.from_json_schema(sigs.to_json_schema(sigs.parse(":int?")))
