"""agent-design §3.12 BUD-08 (facades suppress raw tools) and BUD-09 (data keys with their
structural types, never their values)."""

from __future__ import annotations

from loop_helpers import agent, call

from ptc_agent.mission_api import data_type
from ptc_compiler.tools import Tool
from ptc_runtime.values import Keyword

FACADE = ('(ns shop "Shop helpers.") '
          '(defn paid "Paid orders." {:signature "() -> [:map]"} [] (tool/orders {}))')
HIDDEN = '(ns shop {:visibility :discoverable}) (defn paid [] (tool/orders {}))'


def _system(**kw: object) -> str:
    _, sp = agent([call("(return 1)")], **kw)  # type: ignore[arg-type]
    return sp.requests[0].system or ""


def _orders() -> dict[str, Tool]:
    return {"orders": Tool(lambda a: [], name="orders", signature="() -> [:map]", effect="read",
                           doc="Every order.")}


def test_BUD_08_facade_suppresses_raw_tools() -> None:
    system = _system(tools=_orders(), preludes=[FACADE])
    assert "(shop/paid)" in system and "Paid orders." in system
    assert "tool/orders" not in system and "Every order." not in system


def test_BUD_08_without_a_visible_facade_tools_show_their_call_form() -> None:
    for preludes in ([], [HIDDEN]):  # a :discoverable export is not a prompt facade
        system = _system(tools=_orders(), preludes=preludes)
        assert "(tool/orders)  ; () -> [:map]" in system and "Every order." in system
        assert "shop/paid" not in system


def test_BUD_09_data_keys_with_structural_types_never_values() -> None:
    data = {"orders": [{"id": 7, "status": "SECRET-STATUS", "amount": 12.5}],
            "region": "SECRET-REGION", "limit": 40, "flags": {"beta": True}, "empty": []}
    system = _system(data=data)
    assert "data/orders  ; [{id :int, status :string, amount :float}]" in system
    assert "data/region  ; :string" in system and "data/limit  ; :int" in system
    assert "data/flags  ; {beta :bool}" in system and "data/empty  ; [:any]" in system
    for value in ("SECRET", "12.5", "40", "7"):
        assert value not in system.split("Available API", 1)[1]


def test_BUD_09_types_are_bounded() -> None:
    deep: object = 1
    for _ in range(10):
        deep = [deep]
    assert data_type(deep) == "[[[[:any]]]]"
    wide = {f"k{i}": i for i in range(20)}
    assert data_type(wide).endswith(", ...}") and data_type(wide).count(":int") == 8
    assert data_type({Keyword("a"): None}) == "{a :any}"
