"""Canonical rendering (spec §11) and parse∘render."""

from __future__ import annotations

import pytest

from ptc_compiler import signatures as sigs

RENDER = [
    (
        "(query :string, limit :int?) -> {items [:string]}",
        "(query :string, limit :int?) -> {items [:string]}",
    ),
    ("(a:int)->:int", "(a :int) -> :int"),
    ("{name :string, price :float}", "() -> {name :string, price :float}"),
    ("()->:any", "() -> :any"),
    (":boolean", "() -> :bool"),
    ("[:int]?", "() -> [:int]?"),
    ("{a :int}?", "() -> {a :int}?"),
    ("{}", "() -> {}"),
    ("[{}]", "() -> [{}]"),
    (
        "(\n  path :string,\n\tcursor :string?\r\n) -> {\n items [:string]\n}",
        "(path :string, cursor :string?) -> {items [:string]}",
    ),
    ("{user-id :int}", "() -> {user-id :int}"),
]


@pytest.mark.parametrize(("text", "want"), RENDER)
def test_render(text: str, want: str) -> None:
    s = sigs.parse(text)
    assert sigs.render(s) == want
    assert sigs.parse(sigs.render(s)) == s


def test_render_type_and_output() -> None:
    s = sigs.parse("{a [:int?]}")
    assert sigs.render_type(s.output) == "{a [:int?]}"
    assert sigs.render_output(s) == "{a [:int?]}"
    assert sigs.render_output(sigs.parse("(x :int) -> :int")) == "(x :int) -> :int"


def test_render_deepest() -> None:
    text = "[" * 64 + ":int" + "]" * 64
    assert sigs.parse(sigs.render(sigs.parse(text))) == sigs.parse(text)
