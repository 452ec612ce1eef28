"""Mission values reach the trusted workflow natively (seed 001: `run-outcome` returns the
application value): keywords, sets and non-string map keys survive, while nothing
executable or host-owned crosses (`ptc_agent.crossing`)."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from loop_helpers import agent, call, last_content

from ptc_agent.crossing import to_workflow
from ptc_agent.providers import ScriptedProvider
from ptc_agent.run_limits import HostLimits
from ptc_agent.workflow import run_workflow
from ptc_compiler.tools import Tool
from ptc_runtime.collections import PSet
from ptc_runtime.convert import from_host
from ptc_runtime.values import Keyword

#: Every mission value crosses the same way from an in-process and an isolated mission.
MODES = pytest.mark.parametrize("mode", ["in-process", "isolated"])


def in_workflow(program: str, returned: str, mode: str = "in-process") -> Any:
    return run_workflow(program, model=ScriptedProvider([call(returned)]),
                        limits=HostLimits(mission_mode=mode))  # type: ignore[arg-type]


@MODES
def test_returned_value_crosses_natively_into_the_workflow(mode: str) -> None:
    program = ('(let [v (agent.core/run-value "t" {})] '
               '[(keyword? (get v :k)) (set? (get v :s)) (contains? (get v :s) :b) '
               '(get v [1 2]) (get v true) (vector? (get v :xs)) v])')
    value = in_workflow(program, '(return {:k :v :s #{:a :b} [1 2] "vk" true "bk" :xs [1 :x]})',
                        mode)
    assert list(value[:6]) == [True, True, True, "vk", "bk", True]
    assert value[6] == from_host(
        {Keyword("k"): Keyword("v"), Keyword("s"): frozenset({Keyword("a"), Keyword("b")}),
         (1, 2): "vk", True: "bk", Keyword("xs"): [1, Keyword("x")]})


@MODES
def test_run_outcome_value_is_native_in_the_workflow(mode: str) -> None:
    value = in_workflow('(get (agent.core/run-outcome "t" {}) :value)', "(return #{:a})", mode)
    assert isinstance(value, PSet) and Keyword("a") in value


@MODES
def test_fail_value_crosses_natively_into_run_outcome(mode: str) -> None:
    value = in_workflow('(get (agent.core/run-outcome "t" {}) :error)', "(fail {:why :no})",
                        mode)
    assert value == {Keyword("why"): Keyword("no")}


@pytest.mark.parametrize(
    ("returned", "label"),
    [
        ("(return inc)", "#function[inc]"),
        ("(return (fn [x] x))", "#function[fn]"),
        ('(return {:f (fn [] 1)})', None),
    ],
)
@MODES
def test_nothing_executable_crosses(returned: str, label: str | None, mode: str) -> None:
    value = in_workflow('(agent.core/run-value "t" {})', returned, mode)
    if label is not None:
        assert value == label
    else:
        [(key, inner)] = value.items()
        assert key == Keyword("f") and isinstance(inner, str) and inner.startswith("#function")


def test_to_workflow_labels_host_objects_and_keeps_data() -> None:
    class Secret:
        def __repr__(self) -> str:
            return "Secret(TOKEN)"

    crossed = to_workflow({Keyword("a"): [Secret(), print, 1.5, None]})
    assert crossed == {Keyword("a"): ["#<unknown>", "#function[fn]", 1.5, None]}
    assert "TOKEN" not in repr(crossed)
    date = to_workflow(from_host({"d": [1]}) | {"t": _local_date()})
    assert date == {"d": [1], "t": "2024-01-31"}


def _local_date() -> Any:
    from ptc_runtime.temporal import LocalDate

    return LocalDate((datetime.date(2024, 1, 31) - datetime.date(1970, 1, 1)).days)


def test_composite_keys_and_set_members_cross() -> None:
    value = from_host({Keyword("s"): frozenset({(1, 2), Keyword("k")})})
    crossed = to_workflow(value)
    assert from_host(crossed) == value  # PTC equality: set order is not part of it
    nested = to_workflow(PSet.from_iterable([{"a": 1}]))  # a map inside a set: its text
    assert nested == frozenset({'{"a" 1}'})


def test_deep_values_fall_back_to_the_projection() -> None:
    deep: Any = 1
    for _ in range(5000):
        deep = [deep]
    crossed = to_workflow(deep)
    depth = 0
    while isinstance(crossed, list):
        crossed, depth = crossed[0], depth + 1
    assert depth == 5000 and crossed == 1


@MODES
def test_EFF_10_keyword_envelopes_from_a_tool_are_corrected(mode: str) -> None:
    def flaky(args):  # type: ignore[no-untyped-def]  # untyped: receives the map
        return {"status": Keyword("error"), "kind": Keyword("provider_error"),
                "reason": Keyword("timeout"), "retryable?": True}

    out, sp = agent([call("(fail (tool/flaky {}))"), call("(return 1)")],
                    # a trusted host tool may hand PTC values (keywords) back
                    tools={"flaky": Tool(flaky, effect="read", returns_ptc_data=True)},
                    limits=HostLimits(mission_mode=mode))
    assert out.value == 1
    assert "kind: provider_error, reason: timeout" in last_content(sp)


def test_tool_results_may_have_keyword_and_vector_keys() -> None:
    # a tool marked `returns_ptc_data` (kernel-eval hands mission values to the workflow)
    # is measured by its JSON text, keyword and tuple keys included; other non-JSON
    # results stay refused, and an unmarked tool must return plain JSON
    from ptc_runtime.bindings import BindingNamespace
    from ptc_runtime.errors import PtcError
    from ptc_runtime.limits import DEFAULT_LIMITS
    from ptc_runtime.seam import check_tool_result

    ns = BindingNamespace("tool", {"t": Tool(lambda a: a, returns_ptc_data=True),
                                   "plain": Tool(lambda a: a)})
    check_tool_result(ns, "t", {Keyword("a"): {(1, Keyword("b")): [frozenset({1})]}},
                      DEFAULT_LIMITS)
    with pytest.raises(PtcError, match="not JSON"):
        check_tool_result(ns, "t", {object(): 1}, DEFAULT_LIMITS)
    with pytest.raises(PtcError, match="not JSON"):
        check_tool_result(ns, "t", {Keyword("a"): object()}, DEFAULT_LIMITS)
    with pytest.raises(PtcError, match="more than 10 bytes"):
        check_tool_result(ns, "t", {Keyword("abcdef"): "ghijk"},
                          DEFAULT_LIMITS.with_(tool_result_bytes=10))
    with pytest.raises(PtcError, match=r"a map key that is not a string \(a keyword\) at \[:a\]"):
        check_tool_result(ns, "plain", {Keyword("a"): 1}, DEFAULT_LIMITS)
