"""Signatures wired into programs (spec §8): signed defns and typed tools, both sides."""

from __future__ import annotations

from typing import Any

import pytest

from ptc_compiler import Tool, run

ADD = '(defn add {:signature "(a :int, b :int) -> :int"} [a b] (+ a b)) '


@pytest.mark.parametrize(
    ("src", "value"),
    [
        pytest.param(ADD + "(add 1 2)", 3, id="valid-call"),
        pytest.param(ADD + "(map #(add % 1) [1 2])", [2, 3], id="higher-order-call"),
        pytest.param(
            '(defn f {:signature "(m {user-id :int}) -> :int"} [m] (:user-id m)) (f {"user_id" 5})',
            5,
            id="json-shaped-key-matches-declared-field",
        ),
        pytest.param(
            '(defn f {:signature "(x :float) -> :float"} [x] x) (f 2)', 2, id="int-satisfies-float"
        ),
        pytest.param(
            '(defn f {:signature "(x :int?) -> :int?"} [x] x) (f nil)', None, id="optional-nil"
        ),
        pytest.param(
            '(defn f {:doc "d" :signature "() -> [:string]"} [] ["a"]) (f)', ["a"], id="output-only"
        ),
    ],
)
def test_signed_defn_accepts(src: str, value: object) -> None:
    result = run(src)
    assert result.error is None, result.error
    assert result.value == value


@pytest.mark.parametrize(
    ("src", "fragment", "line", "col"),
    [
        pytest.param(
            ADD + '(add 1 "x")', "add input b: expected int, got string", 1, 66, id="bad-input"
        ),
        pytest.param(
            ADD + "(add true 1)", "add input a: expected int, got bool", 1, 66, id="bool-is-not-int"
        ),
        pytest.param(
            '(defn f {:signature "(x :int) -> :string"} [x] x) (f 1)',
            "f output: expected string, got int",
            1,
            51,
            id="bad-output",
        ),
        pytest.param(
            '(defn f {:signature "(x :int) -> {a :int}"} [x] {:a "s"}) (f 1)',
            "f output a: expected int",
            1,
            59,
            id="nested-output-path",
        ),
    ],
)
def test_signed_defn_rejects_with_contract_path(
    src: str, fragment: str, line: int, col: int
) -> None:
    result = run(src)
    assert result.error is not None and result.error.code == "contract_violation"
    assert fragment in result.error.message
    assert (result.error.line, result.error.column) == (line, col)
    assert '"x"' not in result.error.message  # never echoes the submitted value


def test_body_does_not_run_on_bad_input() -> None:
    result = run('(defn f {:signature "(x :int) -> :int"} [x] (println "ran") x) (f "no")')
    assert result.error is not None and result.output == ""


def test_fail_payload_is_not_validated() -> None:
    result = run('(defn f {:signature "(x :int) -> :int"} [x] (fail "boom")) (f 1)')
    assert result.outcome == "fail" and result.value == "boom"


@pytest.mark.parametrize(
    ("src", "fragment"),
    [
        pytest.param(
            '(defn f {:signature "(a :int) -> :int"} [a b] a)', "declares 1 parameters", id="arity"
        ),
        pytest.param('(defn f {:signature "(a :int -> :int"} [a] a)', "expected", id="grammar"),
        pytest.param(
            '(defn f {:signature "(a :int) -> :int"} [& a] a)', "one fixed arity", id="variadic"
        ),
        pytest.param(
            '(defn f {:signature "(a :int, a :int) -> :int"} [a b] a)',
            "duplicate",
            id="duplicate-names",
        ),
    ],
)
def test_bad_signatures_are_compile_errors(src: str, fragment: str) -> None:
    calls: list[int] = []
    result = run("(tool/t {}) " + src, tools={"t": lambda a: calls.append(1)})
    assert result.error is not None and result.error.code == "invalid_signature"
    assert fragment in result.error.message
    assert calls == []  # nothing ran


def _user(args: dict[str, Any]) -> dict[str, Any]:
    return {"name": "Ada", "order_count": args["id"] * 2}


USER = Tool(_user, name="get-user", signature="(id :int) -> {name :string, order-count :int}")


def test_typed_tool_validates_both_sides() -> None:
    result = run("(:order-count (tool/get-user {:id 4}))", tools={"get-user": USER})
    assert result.value == 8


def test_typed_tool_is_not_called_with_a_bad_argument() -> None:
    calls: list[object] = []

    def spy(args: dict[str, Any]) -> dict[str, Any]:
        calls.append(args)
        return {"name": "x", "order_count": 1}

    tool = Tool(spy, name="get-user", signature="(id :int) -> {name :string, order-count :int}")
    result = run('(tool/get-user {:id "4"})', tools={"get-user": tool})
    assert result.error is not None and result.error.code == "contract_violation"
    assert "tool/get-user input id" in result.error.message
    assert calls == []


def test_typed_tool_result_is_validated() -> None:
    tool = Tool(lambda a: {"name": 5}, name="t", signature="(id :int) -> {name :string}")
    result = run("(tool/t {:id 1})", tools={"t": tool})
    assert result.error is not None and "tool/t output name" in result.error.message


def test_keys_cross_the_tool_boundary_in_public_form() -> None:
    seen: list[object] = []
    tool = Tool(
        lambda a: seen.append(a) or 1, signature="(order-count :int, tags [:string]) -> :int"
    )
    assert run('(tool/t {:order-count 2 :tags ["a"]})', tools={"t": tool}).value == 1
    assert seen == [{"order_count": 2, "tags": ["a"]}]


def test_colliding_keys_are_refused() -> None:
    result = run('(tool/t {:a-b 1 "a_b" 2})', tools={"t": lambda a: a})
    assert result.error is not None and result.error.code == "invalid_tool_args"


def test_tool_options_are_checked() -> None:
    with pytest.raises(ValueError):
        Tool(lambda a: a, effect="delete")  # type: ignore[arg-type]
    with pytest.raises(Exception) as info:
        Tool(lambda a: a, signature="(x :nope) -> :int")
    assert getattr(info.value, "code", None) == "invalid_signature"
