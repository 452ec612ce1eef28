"""Signature parsing: spec §2-5, one table per rule family."""

from __future__ import annotations

import time

import pytest

from ptc_compiler import signatures as sigs
from ptc_compiler.signatures import Field, ListOf, MapOf, Prim, Signature, SignatureError

INT, S = Prim("int"), Prim("string")

VALID = [
    pytest.param(
        "(query :string, limit :int?) -> {items [:string]}",
        Signature(
            (Field("query", S), Field("limit", Prim("int", True))),
            MapOf((Field("items", ListOf(S)),)),
        ),
        id="seed-example",
    ),
    pytest.param(
        "{name :string, price :float}",
        Signature((), MapOf((Field("name", S), Field("price", Prim("float"))))),
        id="output-only",
    ),
    pytest.param(
        "() -> {name :string, price :float}",
        Signature((), MapOf((Field("name", S), Field("price", Prim("float"))))),
        id="empty-params",
    ),
    pytest.param("(a:int)->:int", Signature((Field("a", INT),), INT), id="no-whitespace"),
    pytest.param(
        "{a:int,b[:string]}",
        Signature((), MapOf((Field("a", INT), Field("b", ListOf(S))))),
        id="dense-map",
    ),
    pytest.param(
        "{a{b :int}}",
        Signature((), MapOf((Field("a", MapOf((Field("b", INT),))),))),
        id="nested-dense",
    ),
    pytest.param("[:int]?", Signature((), ListOf(INT, True)), id="optional-list"),
    pytest.param("{a :int}?", Signature((), MapOf((Field("a", INT),), True)), id="optional-map"),
    pytest.param("{}", Signature((), MapOf(())), id="empty-map"),
    pytest.param("[{}]", Signature((), ListOf(MapOf(()))), id="list-of-empty-map"),
    pytest.param(":boolean", Signature((), Prim("bool")), id="boolean-alias"),
    pytest.param(":any?", Signature((), Prim("any", True)), id="any-optional"),
    pytest.param(" \t\r\n:int \n", Signature((), INT), id="surrounding-ws"),
    pytest.param(
        "(\n  path :string,\n  cursor :string?\n) -> {\n  items [:string],\n"
        "  next_cursor :string?\n}",
        Signature(
            (Field("path", S), Field("cursor", Prim("string", True))),
            MapOf((Field("items", ListOf(S)), Field("next_cursor", Prim("string", True)))),
        ),
        id="multiline-tool-contract",
    ),
    pytest.param(
        "(id :int) -> {id :int, child {id :int}}",
        Signature(
            (Field("id", INT),),
            MapOf((Field("id", INT), Field("child", MapOf((Field("id", INT),))))),
        ),
        id="same-name-different-scopes",
    ),
    pytest.param(
        "{Id :int, id :int}",
        Signature((), MapOf((Field("Id", INT), Field("id", INT)))),
        id="names-case-sensitive",
    ),
]

PRIMS = ["string", "int", "float", "bool", "keyword", "datetime", "map", "any"]
NAMES = [
    "a",
    "_",
    "_raw",
    "x1",
    "user_id",
    "user-id",
    "camelCase",
    "A",
    "x-",
    "a--b",
    "__",
    "nil",
    "true",
    "string",
    "n" * 5000,
]

INVALID = [
    pytest.param("{a :int b :int}", id="missing-comma"),
    pytest.param("{a :int,}", id="trailing-comma"),
    pytest.param("{,a :int}", id="leading-comma"),
    pytest.param("{a :int,, b :int}", id="double-comma"),
    pytest.param("(a :int,) -> :int", id="trailing-comma-params"),
    pytest.param("[]", id="empty-list-type"),
    pytest.param("[ ]", id="empty-list-type-ws"),
    pytest.param("[:int :string]", id="two-list-items"),
    pytest.param("[:int, :string]", id="two-list-items-comma"),
    pytest.param(":int ?", id="ws-before-q"),
    pytest.param("[:int] ?", id="ws-before-q-list"),
    pytest.param("{a :int} ?", id="ws-before-q-map"),
    pytest.param(":int??", id="double-q"),
    pytest.param(": int", id="ws-after-colon"),
    pytest.param("() - > :int", id="split-arrow"),
    pytest.param("-> :int", id="arrow-without-params"),
    pytest.param("(a :int)", id="params-without-output"),
    pytest.param("() -> (a :int)", id="output-params"),
    pytest.param("() -> x :int", id="output-named"),
    pytest.param("() -> :int -> :int", id="two-arrows"),
    pytest.param(":integer", id="unknown-integer"),
    pytest.param(":int2", id="type-runs-on"),
    pytest.param(":string_x", id="type-runs-on-underscore"),
    pytest.param(":Int", id="type-case"),
    pytest.param(":list", id="no-list-primitive"),
    pytest.param(":number", id="no-number"),
    pytest.param(":nil", id="no-nil"),
    pytest.param(":enum[a b]", id="no-enum"),
    pytest.param(":string|:int", id="no-union"),
    pytest.param("(:string :int)", id="no-tuple"),
    pytest.param(":int[>0]", id="no-refinement"),
    pytest.param("#{:int}", id="no-set"),
    pytest.param(":int!", id="bang"),
    pytest.param(":int*", id="star"),
    pytest.param("", id="empty"),
    pytest.param("   ", id="only-ws"),
    pytest.param("\u00a0:int", id="nbsp"),
    pytest.param(":int\f", id="form-feed"),
    pytest.param(":int\v", id="vertical-tab"),
    pytest.param("{a :int", id="unclosed"),
    pytest.param("{a :int}}", id="extra-close"),
    pytest.param("x :int", id="bare-field"),
    pytest.param("; comment\n:int", id="no-comments"),
]

BAD_NAMES = ["1st", "-a", ":id", "a?", "a!", "a.b", "a/b", "a+b", "a*", '"a"', "café", "ü"]

DUPLICATES = [
    "(a :int, a :string) -> :int",
    "{id :int, id :int}",
    "{user-id :int, user_id :int}",
    "(x-y :int, x_y :int) -> :int",
    "[{a :int, a :int}]",
    "{a {b :int, b :int}?}",
    "(p [{q :int, q-q :int, q_q :int}]) -> :any",
    "() -> {o [[{z :int, z :int}]]?}",
]


@pytest.mark.parametrize(("text", "want"), VALID)
def test_parses(text: str, want: Signature) -> None:
    assert sigs.parse(text) == want


@pytest.mark.parametrize("prim", PRIMS)
@pytest.mark.parametrize("q", ["", "?"])
def test_every_primitive(prim: str, q: str) -> None:
    assert sigs.parse(f":{prim}{q}").output == Prim(prim, q == "?")  # type: ignore[arg-type]
    assert sigs.parse(f"(x :{prim}{q}) -> :{prim}{q}").params[0].type.optional is (q == "?")


def test_output_only_equals_empty_params() -> None:
    assert sigs.parse("{a :int}") == sigs.parse("() -> {a :int}")


@pytest.mark.parametrize("name", NAMES, ids=lambda n: n[:12])
def test_legal_names(name: str) -> None:
    assert sigs.parse(f"({name} :int) -> {{{name} :int}}").params[0].name == name


@pytest.mark.parametrize("text", INVALID)
def test_rejects(text: str) -> None:
    with pytest.raises(SignatureError):
        sigs.parse(text)


@pytest.mark.parametrize("name", BAD_NAMES)
def test_malformed_names(name: str) -> None:
    with pytest.raises(SignatureError):
        sigs.parse(f"({name} :int) -> :int")
    with pytest.raises(SignatureError):
        sigs.parse(f"{{{name} :int}}")


@pytest.mark.parametrize("text", DUPLICATES)
def test_duplicates_after_normalisation(text: str) -> None:
    with pytest.raises(SignatureError, match="duplicate"):
        sigs.parse(text)


@pytest.mark.parametrize("bad", [None, 1, b":int", [":int"]])
def test_non_string_is_a_parse_error(bad: object) -> None:
    with pytest.raises(SignatureError):
        sigs.parse(bad)


ERROR_POSITIONS = [
    pytest.param("{a :int b :int}", 1, 9, ("','", "'}'", "'}?'"), id="missing-comma"),
    pytest.param("(a :int)", 1, 9, ("'->'",), id="missing-arrow"),
    pytest.param(":integer", 1, 1, None, id="unknown-type"),
    pytest.param("{a :int,\n b :int,\n c 1}", 3, 4, ("'['", "'{'", "a type"), id="third-line"),
    pytest.param("[]", 1, 2, ("'['", "'{'", "a type"), id="empty-list"),
]


@pytest.mark.parametrize(("text", "line", "col", "expected"), ERROR_POSITIONS)
def test_errors_name_position_and_expectation(
    text: str, line: int, col: int, expected: tuple[str, ...] | None
) -> None:
    with pytest.raises(SignatureError) as info:
        sigs.parse(text)
    err = info.value
    assert (err.line, err.column) == (line, col)
    assert f"column {col}" in str(err)
    if expected is not None:
        assert err.expected == expected
        assert "expected" in str(err)


def test_unknown_type_is_named() -> None:
    with pytest.raises(SignatureError, match="unknown type ':integer'"):
        sigs.parse("(a :integer) -> :int")


def _nested(depth: int, kind: str) -> str:
    if kind == "list":
        return "[" * depth + ":int" + "]" * depth
    return "{a " * depth + ":int" + "}" * depth


@pytest.mark.parametrize("kind", ["list", "map"])
def test_depth_64_parses_65_rejected(kind: str) -> None:
    assert sigs.parse(_nested(64, kind))
    assert sigs.parse(f"(p {_nested(64, kind)}) -> {_nested(64, kind)}")
    with pytest.raises(SignatureError, match="nested deeper than 64"):
        sigs.parse(_nested(65, kind))


def test_mixed_depth_counts_every_constructor() -> None:
    assert sigs.parse("{a [" * 32 + ":int" + "]}" * 32)
    with pytest.raises(SignatureError):
        sigs.parse("{a [" * 32 + "{b :int}" + "]}" * 32)


@pytest.mark.parametrize("text", ["[" * 100_000, "{a " * 100_000, "[" * 100_000 + "]" * 100_000])
def test_huge_nesting_rejected_promptly(text: str) -> None:
    cpu = time.process_time()  # CPU, not wall: load slows the parse, not its cost
    with pytest.raises(SignatureError):
        sigs.parse(text)
    assert time.process_time() - cpu < 1.0


def test_many_fields_and_long_names() -> None:
    fields = ", ".join(f"f{i} :int" for i in range(2000))
    assert len(sigs.parse("{" + fields + "}").output.fields) == 2000  # type: ignore[union-attr]


def test_parse_type_rejects_params() -> None:
    assert sigs.parse_type("[:int]") == ListOf(INT)
    with pytest.raises(SignatureError):
        sigs.parse_type("(a :int) -> :int")
    with pytest.raises(SignatureError):
        sigs.parse_type("() -> :int")
