"""Error reports (spec §6.3): fields, path notation, order, cap of 16, size bounds, no leaks."""

from __future__ import annotations

import pytest

from ptc_compiler import signatures as sigs
from ptc_runtime.contracts.errors import (
    MAX_MESSAGE_BYTES,
    MAX_PATH_SEGMENTS,
    MAX_RENDERED_BYTES,
    MAX_SEGMENT_BYTES,
    ErrorPath,
    path_text,
)
from ptc_runtime.values import keyword as kw


def test_error_shape_matches_spec_example() -> None:
    (err,) = sigs.validate_output(
        "{items [{id :int}]}", {"items": [{"id": 1}, {"id": 2}, {"id": "3"}]}
    )
    assert err.path == ["items", 2, "id"]
    assert err.path == ("items", 2, "id")
    assert (err.kind, err.code, err.expected, err.got) == ("type", "type", "int", "string")
    assert err.message == "expected int, got string"
    assert err.path_text == "items[2].id"


NOTATION = [
    (["items", 2, "id"], "items[2].id"),
    ([0, "id"], "[0].id"),
    (["m", 0, 1], "m[0][1]"),
    ([], ""),
    (["a", "b"], "a.b"),
]


@pytest.mark.parametrize(("path", "text"), NOTATION)
def test_neutral_notation(path: list[str | int], text: str) -> None:
    assert path_text(path) == text


def test_paths_use_declared_spelling() -> None:
    (err,) = sigs.validate_output("{order-count :int}", {"order_count": "x"})
    assert err.path == ["order-count"]


ORDER = [
    pytest.param("{b :int, a :int}", {"a": "x", "b": "y"}, [["b"], ["a"]], id="declaration-order"),
    pytest.param(
        "[{a :int, b :int}]",
        [{"b": 1}, {"a": "x", "b": "y"}],
        [[0, "a"], [1, "a"], [1, "b"]],
        id="depth-first",
    ),
    pytest.param(
        "{a [:int], b :int}", {"a": "no", "b": "x"}, [["a"], ["b"]], id="wrong-container-one-error"
    ),
    pytest.param("(q :string, r {s :int}) -> :any", None, [[]], id="args-not-a-map"),
]


@pytest.mark.parametrize(("t", "v", "paths"), ORDER)
def test_order(t: str, v: object, paths: list[list[object]]) -> None:
    s = sigs.parse(t)
    errs = sigs.validate_input(s, v) if s.params else sigs.validate_output(s, v)
    assert [e.path for e in errs] == paths


def test_closed_map_extras_after_field_errors_sorted() -> None:
    c = sigs.from_json_schema(
        {
            "type": "object",
            "properties": {"a": {"type": "integer"}},
            "required": ["a"],
            "additionalProperties": False,
        }
    )
    errs = sigs.validate_output(c, {"zz": 1, "a": "x", kw("b"): 2, "A": 3})
    assert [(e.kind, list(e.path)) for e in errs] == [
        ("type", ["a"]),
        ("unexpected", ["A"]),
        ("unexpected", ["b"]),
        ("unexpected", ["zz"]),
    ]


def test_closed_map_alias_keys_are_consumed() -> None:
    c = sigs.from_json_schema(
        {
            "type": "object",
            "properties": {"a_b": {"type": "integer"}},
            "additionalProperties": False,
        }
    )
    assert sigs.validate_output(c, {kw("a-b"): 1}) == []


def test_at_most_16_errors() -> None:
    errs = sigs.validate_output("[:int]", ["x"] * 1000)
    assert len(errs) == 16
    assert [e.path for e in errs] == [[i] for i in range(16)]


def test_traversal_stops_at_16() -> None:
    class Exploding:
        def __eq__(self, other: object) -> bool:
            raise AssertionError("visited after the 16th error")

        __hash__ = object.__hash__

    seen = []

    def spy(i: int) -> object:
        seen.append(i)
        return "x"

    # items after the 16th error are never inspected by the error collector
    data = [spy(i) for i in range(16)] + [Exploding()]
    assert len(sigs.validate_output("[:int]", data)) == 16


def test_path_bounds() -> None:
    long_name = "n" * 1000
    t = "{" + long_name + " " + "[" * 40 + ":int" + "]" * 40 + "}"
    v: object = "x"
    for _ in range(40):
        v = [v]
    (err,) = sigs.validate_output(t, {long_name: v})
    assert len(err.path) == MAX_PATH_SEGMENTS
    assert isinstance(err.path[0], str) and len(err.path[0].encode()) == MAX_SEGMENT_BYTES


def test_segment_cut_at_character_boundary() -> None:
    c = sigs.from_json_schema({"type": "object", "additionalProperties": False})
    (err,) = sigs.validate_output(c, {"é" * 200: 1})
    seg = err.path[0]
    assert isinstance(seg, str) and len(seg.encode()) <= MAX_SEGMENT_BYTES and seg == "é" * 128


def test_message_and_render_bounds() -> None:
    (err,) = sigs.validate_output("{" + "a" * 300 + " :int}", {})
    assert len(err.message.encode()) <= MAX_MESSAGE_BYTES
    assert len(err.render("r" * 5000, "input").encode()) <= MAX_RENDERED_BYTES
    assert err.render("crm/f", "output") == f"crm/f output {'a' * 256}: missing required field"


SECRET = "s3cr3t-VALUE"


@pytest.mark.parametrize(
    ("t", "v"),
    [
        (":int", SECRET),
        ("{a :int}", {"a": SECRET}),
        ("[:bool]", [SECRET]),
        ("{a :keyword}", {"a": SECRET}),
        (":datetime", SECRET),
        (":float", float("nan")),
    ],
)
def test_values_never_echoed(t: str, v: object) -> None:
    for err in sigs.validate_output(t, v):
        text = repr(err) + err.message + err.render("x", "output") + str(err.as_dict())
        assert SECRET not in text and "nan" not in text.lower().replace("not finite", "")


def test_same_input_same_errors() -> None:
    v = {"a": [1, "x", None], "b": {"c": 1.5}}
    t = "{a [:int], b {c :int}, d :string}"
    assert sigs.validate_output(t, v) == sigs.validate_output(t, v)


def test_error_path_is_hashable_and_tuple_like() -> None:
    p = ErrorPath(["a", 1])
    assert hash(p) == hash(("a", 1)) and p == ("a", 1) and p == ["a", 1] and p != ["a", 2]
