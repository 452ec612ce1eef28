"""Tool signatures derived from type hints, tool schemas and the prompt text."""

from __future__ import annotations

import datetime
from typing import Any, NotRequired, Optional, TypedDict

import pydantic
import pytest

import ptc_compiler
from ptc_compiler import Tool
from ptc_compiler.tools import HintError, render_tools, tool_schemas


class Hit(TypedDict):
    id: int
    title: str
    score: NotRequired[float]


class Query(pydantic.BaseModel):
    text: str
    limit: int = 10


class User(pydantic.BaseModel):
    name: str
    tags: list[str]


def search(query: str, limit: int | None = None, since: Optional[datetime.datetime] = None  # noqa: UP045
           ) -> list[Hit]:
    """Full-text search over the catalogue."""
    hits: list[Hit] = [{"id": 1, "title": query}]
    return hits[: limit or 10]


def test_signature_from_plain_hints_and_keyword_call() -> None:
    t = Tool(search, name="search")
    assert t.signature_text == (
        "(query :string, limit :int?, since :datetime?) -> [{id :int, title :string, "
        "score :float?}]"
    )
    assert t.doc == "Full-text search over the catalogue."
    r = ptc_compiler.run('(tool/search {:query "abc" :limit 1})', tools={"search": t})
    assert r.ok, r.error
    assert ptc_compiler.pr_str(r.value) == '[{"id" 1, "title" "abc"}]'
    r = ptc_compiler.run("(tool/search {:query 5})", tools={"search": t})
    assert r.error is not None and r.error.code == "contract_violation"


def test_pydantic_parameter_and_result() -> None:
    def lookup(q: Query) -> User:
        return User(name=q.text.upper(), tags=["x"] * q.limit)

    t = Tool(lookup)
    assert t.signature_text == "(text :string, limit :int?) -> {name :string, tags [:string]}"
    assert t.style == "model"
    out = t({"text": "ada", "limit": 2})
    assert out == {"name": "ADA", "tags": ["x", "x"]}


def test_typeddict_parameter_receives_the_map() -> None:
    def first(hit: Hit) -> str:
        return hit["title"]

    t = Tool(first)
    assert t.signature_text == "(id :int, title :string, score :float?) -> :string"
    assert t({"id": 1, "title": "t"}) == "t"


def test_untyped_and_args_dict_tools_stay_untyped() -> None:
    def untyped(args):  # type: ignore[no-untyped-def]
        return args

    def args_dict(args: dict[str, Any]) -> Any:
        return args

    assert Tool(untyped).contract is None
    assert Tool(args_dict).contract is None
    assert Tool(args_dict)({"a": 1}) == {"a": 1}


@pytest.mark.parametrize(
    "hint",
    [int | str, tuple[int, int], set[int], bytes, dict[int, str], datetime.date],
)
def test_hints_without_an_equivalent_are_named(hint: object) -> None:
    def f(x, y):  # type: ignore[no-untyped-def]
        return x

    f.__annotations__ = {"x": hint, "y": int, "return": int}
    with pytest.raises(HintError) as info:
        Tool(f)
    assert "f(x)" in str(info.value) and "signature=" in str(info.value)


def test_missing_parameter_hint_is_an_error() -> None:
    def f(a: int, b):  # type: ignore[no-untyped-def]
        return a

    with pytest.raises(HintError, match="parameter b has no type hint"):
        Tool(f)


def test_explicit_signature_wins_and_effect_none_is_unknown() -> None:
    t = Tool(search, signature="(query :string) -> :any", effect=None)
    assert t.signature_text == "(query :string) -> :any" and t.effect == "unknown"
    with pytest.raises(ValueError):
        Tool(search, effect="delete")  # type: ignore[arg-type]


def test_tool_schemas_and_prompt_text() -> None:
    tools = {"search": Tool(search, effect="read"), "raw": lambda a: a}
    schemas = tool_schemas(tools)
    assert [s["name"] for s in schemas] == ["raw", "search"]
    s = schemas[1]
    assert s["description"] == "Full-text search over the catalogue."
    assert s["effect"] == "read"
    assert s["input_schema"]["required"] == ["query"]
    assert s["input_schema"]["properties"]["limit"]["type"] == ["integer", "null"]
    assert s["output_schema"]["type"] == "array"
    assert schemas[0]["input_schema"] == {"type": "object"}
    text = render_tools(tools)
    assert "(tool/search {:query ..., :limit ..., :since ...})  ; (query :string" in text
    assert ";; Full-text search over the catalogue." in text
    assert "(tool/raw {...})" in text


def test_environment_inventory_lists_tools_and_exports() -> None:
    from ptc_compiler.prelude import Environment

    e = Environment(['(ns k "K.")\n(defn f "Eff." {:signature "(x :int) -> :int"} [x] x)'],
                    tools={"search": Tool(search, effect="read")}, data={"region": "EU"},
                    cache_dir=False)
    inv = e.inventory().to_json()
    assert inv["namespaces"] == {"k": "K."}
    assert inv["exports"][0]["signature"] == "(x :int) -> :int"
    assert inv["tools"][0]["effect"] == "read" and inv["data"] == ["region"]
    api = e.render_api()
    assert "(k/f x)  ; (x :int) -> :int" in api and "data/region" in api
    assert e.run("data/region").value == "EU"
