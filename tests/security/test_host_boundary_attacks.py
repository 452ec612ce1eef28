"""Hostile values at the host boundary, both modes: tools and completions.

A host tool may hand back something with no lossless JSON form (a shared-structure
DAG, a set, an int-keyed dict, a lone surrogate) or raise SystemExit; a program may
complete with such a value. Each ends as a typed, bounded failure, quickly, and the
host can always encode and print what it got.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from ptc_compiler import pr_str, run

MODES = ["in-process", "isolated"]


def _dag(levels: int) -> Any:
    x: Any = []
    for _ in range(levels):
        x = [x, x]
    return x


HOSTILE_RESULTS: list[tuple[str, Any]] = [
    ("dag", _dag(64)),
    ("dag-in-dict", {"a": _dag(64)}),
    ("set", {"s": {1, 2}}),
    ("frozenset", [frozenset({1})]),
    ("int-keys", {1: "a", "1": "b"}),
    ("none-key", {None: 1}),
    ("surrogate", ["ok", "\udfff"]),
    ("surrogate-key", {"\ud800": 1}),
    ("inf", {"x": float("inf")}),
    ("bytes", {"b": b"raw"}),
    ("deep", json.loads("[" * 600 + "]" * 600)),
]


def _host_safe(r: Any) -> None:
    json.dumps(r.value)  # always plain data
    pr_str(r.value, limit=200)
    str(r.error)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(("label", "value"), HOSTILE_RESULTS, ids=[h[0] for h in HOSTILE_RESULTS])
def test_hostile_tool_results(mode: str, label: str, value: Any) -> None:
    t0 = time.monotonic()
    r = run("(tool/evil {})", mode=mode, timeout_ms=10_000, tools={"evil": lambda _a: value})
    assert time.monotonic() - t0 < 10
    assert r.error is not None, label
    assert r.error.code in ("tool_error", "tool_result_too_large"), r.error
    assert "tool/evil" in r.error.message
    _host_safe(r)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("exc", [SystemExit, KeyboardInterrupt, GeneratorExit])
def test_a_tool_cannot_end_the_host(mode: str, exc: type) -> None:
    def evil(_a: object) -> object:
        raise exc(0)

    r = run("(tool/evil {})", mode=mode, timeout_ms=5_000, tools={"evil": evil})
    assert r.error is not None and r.error.code == "tool_error"
    _host_safe(r)
    assert run("(+ 1 2)", mode=mode).value == 3  # the host and its pool keep serving


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    "src",
    [
        "(reduce (fn [a _] [a a]) [] (range 64))",
        "(reduce (fn [a _] {:l a :r a}) {} (range 64))",
        "(vec (range 3000000))",
        "(bit-shift-left 1 20000)",
        "{:f inc :s #{1}}",
    ],
)
def test_hostile_completions_are_bounded_and_typed(mode: str, src: str) -> None:
    t0 = time.monotonic()
    r = run(src, mode=mode, timeout_ms=10_000)
    assert time.monotonic() - t0 < 10
    assert r.error is not None and r.error.kind in ("output-limit", "invalid-output"), r.error
    _host_safe(r)
