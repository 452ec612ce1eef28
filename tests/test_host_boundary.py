"""The value shape at the host, in both modes: `RunResult.value` is lossless JSON.

Keywords become their names, anything with no JSON form is `invalid-output` naming the
path, over `max_value_bytes` is `output-limit`; tool results and tool arguments follow
the same rule with the tool's name in the error; `native=True` returns the PTC value.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

import ptc_compiler
from ptc_compiler import Keyword, api, pr_str, run

MODES = ["in-process", "isolated"]


@pytest.fixture(scope="module", params=MODES)
def mode(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def test_keywords_become_their_names_the_same_in_both_modes() -> None:
    src = '{:top-customers [{:name "a" :tier :gold :n 1.5 :ok? true :none nil}] "s" [1 [2]]}'
    want = {
        "top-customers": [{"name": "a", "tier": "gold", "n": 1.5, "ok?": True, "none": None}],
        "s": [1, [2]],
    }
    values = [run(src, mode=m).value for m in MODES]
    assert values == [want, want]
    assert json.loads(json.dumps(values[0])) == want  # plain data: json round-trips
    assert type(next(iter(values[0]))) is str


def test_fail_values_are_projected_too(mode: str) -> None:
    r = run("(fail {:why :bad-input})", mode=mode)
    assert r.outcome == "fail" and r.value == {"why": "bad-input"}


def test_number_keys_are_spelled_as_text(mode: str) -> None:
    assert run("{1 :a 2.5 :b}", mode=mode).value == {"1": "a", "2.5": "b"}


def test_a_definition_completes_with_no_value(mode: str) -> None:
    r = run("(def x 1)", mode=mode)
    assert r.ok and r.value is None


INVALID = [
    ("{:a [1 {:b (/ 0.0 0.0)}]}", "NaN or an infinity at [:a 1 :b]"),
    ("{:f inc}", "a function at [:f]"),
    ('{:r [#"a+"]}', "a regex at [:r 0]"),
    ("{:s #{1 2}}", "a set at [:s]"),
    ('{:a 1 "a" 2}', 'two map keys that are both the JSON key "a"'),
    ("{:n (bit-shift-left 1 20000)}", "more digits than can be printed at [:n]"),
    ("(reduce (fn [a _] [a]) 1 (range 600))", "nesting deeper than 512 levels"),
    ("{[1 2] :v}", "a map key that is a vector"),
]


@pytest.mark.parametrize(("src", "fragment"), INVALID, ids=[s for s, _ in INVALID])
def test_values_without_a_json_form_are_invalid_output(mode: str, src: str, fragment: str) -> None:
    r = run(src, mode=mode)
    assert not r.ok and r.error is not None
    assert r.error.kind == "invalid-output", r.error
    assert fragment in r.error.message, r.error.message


def test_a_lone_surrogate_is_invalid_output(mode: str) -> None:
    r = run("{:s (str data/s)}", mode=mode, data={"s": "x\ud800"})
    assert r.error is not None and r.error.kind == "invalid-output", r.error
    assert "lone surrogate at [:s]" in r.error.message


def test_a_big_integer_is_never_ok_with_an_unprintable_value(mode: str) -> None:
    # in-process this used to be ok with a value whose pr_str raised on the host
    r = run("(bit-shift-left 1 20000)", mode=mode)
    assert r.error is not None and r.error.kind == "invalid-output"


@pytest.mark.parametrize(
    "src", ["(reduce (fn [a _] [a a]) [] (range 64))", "(vec (range 3000000))"]
)
def test_huge_or_shared_values_are_output_limit_quickly(mode: str, src: str) -> None:
    t0 = time.monotonic()
    r = run(src, mode=mode, timeout_ms=20_000)
    assert time.monotonic() - t0 < 15  # generous: the walk stops at the byte cap
    assert r.error is not None and r.error.kind == "output-limit", r.error
    assert "max_value_bytes" in r.error.message and "1000000" in r.error.message


def test_the_cap_is_the_encoding_size(mode: str) -> None:
    from ptc_runtime.limits import DEFAULT_LIMITS

    rt = api.runtime(mode, limits=DEFAULT_LIMITS.with_(max_value_bytes=20))
    try:
        assert run('["abcdefghijklmn"]', runtime=rt).value == ["abcdefghijklmn"]  # 18 bytes
        r = run('["abcdefghijklmnopq"]', runtime=rt)  # 21 bytes
        assert r.error is not None and r.error.kind == "output-limit"
    finally:
        rt.close()


def test_native_values_on_request(mode: str) -> None:
    r = run("{:a #{:x}}", mode=mode, native=True)
    assert r.ok and pr_str(r.native) == "{:a #{:x}}" and r.value is r.native
    assert run("{:a 1}", mode=mode).native is None
    with pytest.raises(TypeError):
        run("1", mode=mode, native="yes")


def test_program_run_and_arun_project_too(mode: str) -> None:
    import asyncio

    assert ptc_compiler.compile("{:k :v}").run(mode=mode).value == {"k": "v"}
    assert asyncio.run(api.arun("{:k :v}", mode=mode)).value == {"k": "v"}


# ---------------------------------------------------------------- tool results


BAD_RESULTS: list[tuple[str, Any, str]] = [
    ("set", {"ids": [{"tags": {1, 2}}]}, 'a set at ["ids" 0 "tags"]'),
    ("int-key", {"by_id": {1: "a"}}, 'a map key that is not a string (a number) at ["by_id" 1]'),
    ("surrogate", {"name": "x\ud800"}, 'a string with a lone surrogate at ["name"]'),
    ("nan", [1.0, float("nan")], "NaN or an infinity at [1]"),
    ("object", {"o": object()}, 'a host object (object) at ["o"]'),
    ("keyword", {"k": Keyword("x")}, "a keyword"),
]


@pytest.mark.parametrize(
    ("label", "value", "fragment"), BAD_RESULTS, ids=[b[0] for b in BAD_RESULTS]
)
def test_tool_results_must_be_lossless_json(
    mode: str, label: str, value: Any, fragment: str
) -> None:
    r = run("(tool/fetch {})", mode=mode, tools={"fetch": lambda _a: value})
    assert r.error is not None and r.error.code == "tool_error", r.error
    assert "tool/fetch" in r.error.message and fragment in r.error.message, r.error.message


def test_a_shared_structure_tool_result_does_not_hang(mode: str) -> None:
    dag: Any = []
    for _ in range(64):
        dag = [dag, dag]
    t0 = time.monotonic()
    r = run(
        "(count (tool/fetch {}))", mode=mode, timeout_ms=10_000, tools={"fetch": lambda _a: dag}
    )
    assert time.monotonic() - t0 < 10
    assert r.error is not None and r.error.code == "tool_result_too_large", r.error
    assert "tool_result_bytes" in r.error.message


def test_plain_tool_results_still_reach_the_program(mode: str) -> None:
    r = run(
        "(:n (first (:rows (tool/fetch {}))))",
        mode=mode,
        tools={"fetch": lambda _a: {"rows": ({"n": 3},)}},  # a tuple reads as a list
    )
    assert r.ok and r.value == 3


@pytest.mark.parametrize("exc", [SystemExit, KeyboardInterrupt, GeneratorExit])
def test_a_tool_raising_a_base_exception_is_a_typed_failure(mode: str, exc: type) -> None:
    def boom(_a: object) -> object:
        raise exc("bye")

    r = run("(tool/boom {})", mode=mode, tools={"boom": boom})
    assert r.error is not None and r.error.code == "tool_error", r.error
    assert "tool/boom" in r.error.message


# ---------------------------------------------------------------- tool arguments


def test_tool_arguments_follow_the_same_rule(mode: str) -> None:
    seen: list[object] = []
    tools = {"t": lambda a: seen.append(a) or 1}
    r = run("(tool/t {:ids #{1 2}})", mode=mode, tools=tools)
    assert r.error is not None and r.error.code == "invalid_tool_args"
    assert "the arguments of tool/t" in r.error.message and "a set at [:ids]" in r.error.message
    r = run("(tool/t {:x {:f inc}})", mode=mode, tools=tools)
    assert r.error is not None and "a function at [:x :f]" in r.error.message
    assert seen == []
    assert run("(tool/t {:user-id 1 :tier :gold})", mode=mode, tools=tools).ok
    assert seen == [{"user_id": 1, "tier": "gold"}]


def test_trusted_ptc_data_tools_may_return_keywords_and_sets() -> None:
    from ptc_compiler.tools import Tool

    tool = Tool(lambda _a: {Keyword("s"): frozenset({1})}, returns_ptc_data=True)
    r = run("(contains? (:s (tool/t {})) 1)", tools={"t": tool})
    assert r.ok and r.value is True
