"""Tools as Python users write them: the decorator, docstrings, rich hints, provider exports,
and the errors a program gets (named as the program wrote them), in both execution modes."""

from __future__ import annotations

import asyncio
import datetime
import enum
import json
from pathlib import Path
from typing import Annotated, Any, Literal, TypedDict

import jsonschema  # type: ignore[import-untyped]
import pydantic
import pytest

import ptc_compiler
from ptc_compiler import Tool, arun, run, tool
from ptc_compiler.signatures import ContractViolation
from ptc_compiler.tools import anthropic_tools, mcp_tools, openai_tools

MODES = ["in-process", "isolated"]
FIXTURES = Path(__file__).parent / "fixtures"


def fixture_schema(name: str) -> dict[str, Any]:
    schema: dict[str, Any] = json.loads((FIXTURES / name).read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return schema


class Color(enum.Enum):
    RED = "red"
    GREEN = "green"


class Order(TypedDict):
    id: int
    status: Literal["open", "shipped"]


class Filter(pydantic.BaseModel):
    customer_id: int
    since: str | None = None


class Query(pydantic.BaseModel):
    text: Annotated[str, "What to look for."]
    page: int = pydantic.Field(1, description="Page number.")


class Row(TypedDict):
    id: int
    color: Color


# ------------------------------------------------------------------ the decorator


@tool
def list_orders(customer_id: int, status: Literal["open", "shipped"] | None = None) -> list[Order]:
    """Orders of one customer.

    Args:
        customer_id: The customer's id.
        status: Only orders in this state.
    """
    rows: list[Order] = [{"id": 1, "status": "open"}, {"id": 2, "status": "shipped"}]
    return [r for r in rows if status is None or r["status"] == status][:customer_id]


@tool(name="paint", effect="write")
def paint_it(color: Color, times: int = 1) -> str:
    """Paint the wall.

    Parameters
    ----------
    color : Color
        Which paint to use.
    times : int
        How many coats.
    """
    assert isinstance(color, Color)  # arrives as the member, not its value
    return f"{color.name.lower()} x{times}"


def test_tool_decorator_keeps_the_function() -> None:
    assert list_orders(2) == [{"id": 1, "status": "open"}, {"id": 2, "status": "shipped"}]
    assert list_orders.__name__ == "list_orders"
    assert paint_it(Color.RED, times=2) == "red x2"
    t = ptc_compiler.tools.tool_of(paint_it)
    assert isinstance(t, Tool) and t.tool_name == "paint" and t.effect == "write"


@pytest.mark.parametrize("mode", MODES)
def test_decorated_functions_run_as_tools(mode: str) -> None:
    tools = {"list-orders": list_orders, "paint": paint_it}
    r = run('(tool/list-orders {:customer-id 2 :status "open"})', tools=tools, mode=mode)
    assert r.ok, r.error
    assert r.value == [{"id": 1, "status": "open"}]
    r = run('(tool/paint {:color "green" :times 3})', tools=tools, mode=mode)
    assert r.ok and r.value == "green x3", r


def test_tool_class_as_decorator() -> None:
    @Tool
    def add(a: int, b: int) -> int:
        return a + b

    assert isinstance(add, Tool)
    assert add(1, 2) == 3 and add(a=1, b=2) == 3  # the function, called as one
    assert add({"a": 1, "b": 2}) == 3  # one dict: the validated tool call

    @Tool(effect="read", name="sub")
    def sub(a: int, b: int) -> int:
        return a - b

    assert isinstance(sub, Tool) and sub.effect == "read" and sub.ref == "tool/sub"
    assert sub(5, b=2) == 3
    assert run("(tool/sub {:a 5 :b 2})", tools={"sub": sub}).value == 3
    with pytest.raises(TypeError, match="keyword settings only"):
        Tool(None, "x")


# ------------------------------------------------------------------ docstrings


def google(query: str, limit: int = 10) -> list[str]:
    """Search the catalogue.

    Args:
        query: Text to find,
            in any language.
        limit (int): At most this many.

    Returns:
        Matching titles.
    """
    return []


def numpy_style(query: str, limit: int = 10) -> list[str]:
    """Search the catalogue.

    Parameters
    ----------
    query : str
        Text to find,
        in any language.
    limit : int, optional
        At most this many.
    """
    return []


def rest_style(query: str, limit: int = 10) -> list[str]:
    """Search the catalogue.

    :param query: Text to find,
        in any language.
    :param int limit: At most this many.
    :returns: Matching titles.
    """
    return []


@pytest.mark.parametrize("fn", [google, numpy_style, rest_style], ids=lambda f: f.__name__)
def test_argument_descriptions_from_docstrings(fn: Any) -> None:
    t = Tool(fn)
    assert t.description == "Search the catalogue."
    props = t.input_schema()["properties"]
    assert props["query"]["description"] == "Text to find, in any language."
    assert props["limit"]["description"] == "At most this many."
    assert t.to_anthropic()["description"] == "Search the catalogue."


def test_annotated_and_model_descriptions() -> None:
    def find(q: Query) -> list[str]:
        return [q.text] * q.page

    def find2(text: Annotated[str, "What to look for."], tag: Color | None = None) -> str:
        return text

    props = Tool(find).input_schema()["properties"]
    assert props["text"]["description"] == "What to look for."
    assert props["page"]["description"] == "Page number."
    props = Tool(find2).input_schema()["properties"]
    assert props["text"] == {"type": "string", "description": "What to look for."}
    assert props["tag"] == {"type": ["string", "null"], "enum": ["red", "green", None]}


# ------------------------------------------------------------------ Literal, Enum, models


@pytest.mark.parametrize("mode", MODES)
def test_literal_and_enum_values_are_checked(mode: str) -> None:
    tools = {"list-orders": list_orders, "paint": paint_it}
    r = run('(tool/list-orders {:customer-id 1 :status "lost"})', tools=tools, mode=mode)
    assert r.error is not None and r.error.code == "contract_violation"
    assert r.error.message == (
        'tool/list-orders input status: expected one of "open", "shipped", got another value'
    )
    r = run('(tool/paint {:color "blue"})', tools=tools, mode=mode)
    assert r.error is not None and r.error.code == "contract_violation"
    assert 'tool/paint input color: expected one of "red", "green"' in r.error.message


def test_enum_and_literal_in_results_and_schemas() -> None:
    def pick() -> Color:
        return Color.GREEN

    def bad() -> Literal[1, 2]:
        return 3  # type: ignore[return-value]

    assert Tool(pick)({}) == "green"
    assert Tool(pick).output_schema() == {"type": "string", "enum": ["red", "green"]}
    with pytest.raises(ContractViolation, match="output: expected one of 1, 2"):
        Tool(bad)({})
    with pytest.raises(ptc_compiler.tools.HintError, match="all be strings, all integers"):
        Tool(_mixed_literal)


def _mixed_literal(x: Literal["a", 1], y: int) -> int:
    return y


@pytest.mark.parametrize("mode", MODES)
def test_pydantic_and_typeddict_arguments_and_results(mode: str) -> None:
    @tool
    def orders_of(f: Filter) -> list[Row]:
        return [{"id": f.customer_id, "color": Color.RED}]

    r = run("(tool/orders-of {:customer-id 4})", tools={"orders-of": orders_of}, mode=mode)
    assert r.ok and r.value == [{"id": 4, "color": "red"}], r
    r = run('(tool/orders-of {:customer-id "4"})', tools={"orders-of": orders_of}, mode=mode)
    assert r.error is not None
    assert r.error.message == "tool/orders-of input customer_id: expected int, got string"


# ------------------------------------------------------------------ provider exports


def test_exports_match_the_providers_shapes() -> None:
    openai = fixture_schema("openai_tool.schema.json")
    anthropic = fixture_schema("anthropic_tool.schema.json")
    mcp = fixture_schema("mcp_tool.schema.json")
    tools = {"list-orders": list_orders, "paint": paint_it, "raw": lambda a: a}
    for d in openai_tools(tools) + openai_tools(tools, strict=True):
        jsonschema.validate(d, openai)
        jsonschema.Draft202012Validator.check_schema(d["function"]["parameters"])
    for d in anthropic_tools(tools):
        jsonschema.validate(d, anthropic)
    for d in mcp_tools(tools):
        jsonschema.validate(d, mcp)
    names = [d["function"]["name"] for d in openai_tools(tools)]
    assert names == ["list-orders", "paint", "raw"]  # as the program calls them
    listed = {d["name"]: d for d in mcp_tools(tools)}
    assert listed["paint"]["annotations"] == {"readOnlyHint": False}
    assert "annotations" not in listed["raw"]  # effect unknown: no claims
    assert mcp_tools([Tool(google, effect="read")])[0]["annotations"] == {"readOnlyHint": True}
    assert listed["list-orders"]["inputSchema"]["required"] == ["customer_id"]


def _objects(schema: Any) -> list[dict[str, Any]]:
    out = []
    if isinstance(schema, dict):
        if schema.get("type") in ("object", ["object", "null"]):
            out.append(schema)
        for v in schema.values():
            out += _objects(v)
    elif isinstance(schema, list):
        for v in schema:
            out += _objects(v)
    return out


def test_openai_strict_mode() -> None:
    d = Tool(list_orders).to_openai(strict=True)
    assert d["type"] == "function" and d["function"]["strict"] is True
    params = d["function"]["parameters"]
    for obj in _objects(params):  # every object closed, every property required
        assert obj["additionalProperties"] is False
        assert sorted(obj["required"]) == sorted(obj["properties"])
    assert params["properties"]["status"] == {
        "type": ["string", "null"],
        "enum": ["open", "shipped", None],
        "description": "Only orders in this state.",
    }
    loose = Tool(list_orders).to_openai()["function"]
    assert loose["strict"] is False and loose["parameters"]["required"] == ["customer_id"]
    # a strict schema accepts what the model may send for an omitted argument: null
    jsonschema.validate({"customer_id": 1, "status": None}, params)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"customer_id": 1}, params)


def test_export_names_must_suit_the_provider() -> None:
    t = Tool(lambda a: a, name="valid?")
    with pytest.raises(ValueError, match="OpenAI tool names"):
        t.to_openai()
    assert t.to_openai(name="valid")["function"]["name"] == "valid"
    assert t.to_mcp()["name"] == "valid?"


# ------------------------------------------------------------------ errors as the program wrote it


def fetch_orders(customer_id: int) -> list[int]:
    return [customer_id]


@pytest.mark.parametrize("mode", MODES)
def test_contract_errors_name_the_tool_as_called(mode: str) -> None:
    for tools in ({"list-orders": Tool(fetch_orders)}, {"list-orders": fetch_orders}):
        r = run('(tool/list-orders {:customer-id "x"})', tools=tools, mode=mode)
        assert r.error is not None and r.error.code == "contract_violation"
        assert r.error.message == "tool/list-orders input customer_id: expected int, got string"


@pytest.mark.parametrize("mode", MODES)
def test_misspelled_argument_on_a_closed_contract(mode: str) -> None:
    r = run("(tool/orders {:custmer-id 1})", tools={"orders": fetch_orders}, mode=mode)
    assert r.error is not None and r.error.code == "contract_violation"
    assert r.error.message.startswith(
        "tool/orders input custmer_id: unknown argument :custmer-id (the tool takes :customer-id)"
    )
    # an explicit signature keeps the open inputs of the signature language
    open_tool = Tool(lambda a: a["customer_id"], signature="(customer_id :int) -> :int")
    r = run("(tool/o {:customer-id 1 :extra 2})", tools={"o": open_tool}, mode=mode)
    assert r.ok and r.value == 1, r


@pytest.mark.parametrize("mode", MODES)
def test_untyped_function_gets_its_arguments_by_name(mode: str) -> None:
    def search(query, limit=10):  # type: ignore[no-untyped-def]
        return {"query": query, "limit": limit}

    r = run('(tool/search {:query "ada"})', tools={"search": search}, mode=mode)
    assert r.ok and r.value == {"query": "ada", "limit": 10}, r
    r = run("(tool/search {:limit 2})", tools={"search": search}, mode=mode)
    assert r.error is not None
    assert r.error.message == "tool/search input query: missing required argument"
    r = run('(tool/search {:qurey "ada"})', tools={"search": search}, mode=mode)
    assert r.error is not None and "unknown argument :qurey" in r.error.message

    def args_dict(args):  # type: ignore[no-untyped-def]
        return sorted(args)

    r = run("(tool/a {:x 1 :y 2})", tools={"a": args_dict}, mode=mode)
    assert r.ok and r.value == ["x", "y"]


@pytest.mark.parametrize("mode", MODES)
def test_datetimes_at_the_host_boundary(mode: str) -> None:
    when = datetime.datetime(2024, 5, 1, 12, 0, tzinfo=datetime.UTC)
    r = run("(:placed (first data/orders))", data={"orders": [{"placed": when}]}, mode=mode)
    assert r.error is not None and r.error.code == "tool_error"
    assert r.error.message == (
        'data: host data has no PTC form at ["orders" 0 "placed"]: a datetime.datetime '
        "(pass datetimes as ISO 8601 strings)"
    )
    r = run("(tool/now {})", tools={"now": lambda a: {"t": when}}, mode=mode)
    assert r.error is not None
    assert 'a host object (datetime.datetime) at ["t"]' in r.error.message

    def placed(order_id: int) -> datetime.datetime:  # a `:datetime` result
        return when

    r = run("(tool/placed {:order-id 1})", tools={"placed": placed}, mode=mode)
    assert r.ok and r.value == "2024-05-01T12:00:00+00:00", r


@pytest.mark.parametrize("mode", MODES)
def test_one_arity_code_for_builtins_and_user_functions(mode: str) -> None:
    cases = {
        "(defn f [a b] a) (f 1)": "f: wrong number of arguments (1), expected 2",
        "(defn g [a & r] a) (g)": "g: wrong number of arguments (0), expected 1 or more",
        "((fn [a] a) 1 2)": "fn: wrong number of arguments (2), expected 1",
        "(first [1] 2)": "first: wrong number of arguments (2), expected 1",
        "(loop [x 1] (recur 1 2))": "recur: wrong number of arguments (2), expected 1",
    }
    for src, message in cases.items():
        r = run(src, mode=mode)
        assert r.error is not None and r.error.code == "arity_error", (src, r.error)
        assert r.error.message == message


# ------------------------------------------------------------------ arun and the exports


@pytest.mark.parametrize("mode", MODES)
def test_arun_awaits_coroutine_tools(mode: str) -> None:
    async def lookup(user_id: int) -> dict[str, Any]:
        await asyncio.sleep(0)
        return {"id": user_id, "name": "Ada"}

    async def main() -> ptc_compiler.RunResult:
        return await arun("(:name (tool/lookup {:user-id 7}))", tools={"lookup": lookup}, mode=mode)

    r = asyncio.run(main())
    assert r.ok and r.value == "Ada", r
    bad = asyncio.run(arun("(tool/lookup {:user-id nil})", tools={"lookup": lookup}, mode=mode))
    assert bad.error is not None and bad.error.code == "contract_violation"


def test_arun_with_preludes() -> None:
    prelude = '(ns k "K.")\n(defn twice "Twice." [x] (* 2 x))'
    r = asyncio.run(arun("(k/twice 21)", preludes=[prelude]))
    assert r.ok and r.value == 42, r


def test_public_names_are_exported_and_documented() -> None:
    for name in ptc_compiler.__all__:
        obj = getattr(ptc_compiler, name)
        assert obj is not None
        assert f"`{name}`" in (ptc_compiler.__doc__ or ""), name
    assert {"arun", "tool", "Tool", "run", "compile"} <= set(ptc_compiler.__all__)
    assert ptc_compiler.arun.__doc__ and "async" in ptc_compiler.arun.__doc__


@pytest.mark.parametrize("mode", MODES)
def test_a_marked_function_in_a_binding_namespace(mode: str) -> None:
    from ptc_runtime.bindings import BindingNamespace

    @tool
    def find_user(user_id: int) -> dict[str, int]:
        return {"id": user_id}

    crm = [BindingNamespace("crm", {"find": find_user})]
    r = run("(crm/find {:user-id 3})", bindings=crm, mode=mode)
    assert r.ok and r.value == {"id": 3}, r
    r = run('(crm/find {:user-id "x"})', bindings=crm, mode=mode)
    assert r.error is not None
    assert r.error.message == "crm/find input user_id: expected int, got string"


def test_a_tool_copies_as_a_tool() -> None:
    import copy

    t = Tool(fetch_orders, effect="read")
    for c in (copy.copy(t), copy.deepcopy(t)):
        assert isinstance(c, Tool) and c.effect == "read"
        assert c({"customer_id": 2}) == [2]
