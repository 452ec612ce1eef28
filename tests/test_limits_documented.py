"""Every field of `Limits` has a row in the limits table of docs/security.md, with its
real default, and every row that says a run fails is checked here in both modes: the
failure has the documented kind and code and its message gives the limit's value
(no limit cuts silently)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

from ptc_compiler import api
from ptc_runtime.bindings import BindingNamespace
from ptc_runtime.limits import DEFAULT_LIMITS, Limits
from ptc_runtime.seam import RunRequest, RunResult

DOC = Path(__file__).resolve().parents[1] / "docs" / "security.md"


def _rows(heading: str) -> dict[str, list[str]]:
    text = DOC.read_text()
    start = text.index(heading)
    end = text.find("\n#", start + len(heading))
    rows: dict[str, list[str]] = {}
    for line in text[start : end if end > 0 else None].splitlines():
        if not line.startswith("| `"):
            continue
        cells = [c.strip() for c in line.strip("|").split(" | ")]
        name = re.match(r"`([a-z_]+)`", cells[0])
        assert name is not None, line
        rows[name.group(1)] = cells
    return rows


ROWS = _rows("### Run limits (`Limits`)")


def test_every_limit_has_a_documented_row() -> None:
    names = {f.name for f in fields(Limits)}
    assert names - set(ROWS) == set(), "a Limits field without a row in docs/security.md"
    assert set(ROWS) - names == set(), "a documented limit that Limits does not have"


def _shown(v: object) -> str:
    if type(v) is bool:
        return str(v)
    assert type(v) is int
    if v >= 1 << 20 and v % (1 << 20) == 0:
        return f"{v >> 20} MiB"
    return f"{v:,}"


@pytest.mark.parametrize("name", sorted(ROWS))
def test_documented_default_is_the_real_one(name: str) -> None:
    assert ROWS[name][1] == _shown(getattr(DEFAULT_LIMITS, name))


def _kind_code(name: str) -> tuple[str, str | None]:
    cell = ROWS[name][3]
    parts = re.findall(r"`([^`]+)`", cell)
    return parts[0], parts[1] if len(parts) > 1 else None


BIG = 10**12
SLOW = "(loop [i 0] (if (< i 100000000) (recur (inc i)) i))"

#: field -> (limit overrides, program, run options, text the message must hold)
PROBES: dict[str, tuple[dict[str, int], str, dict[str, Any], str | None]] = {
    "max_steps": ({"max_steps": 1000}, "(loop [i 0] (recur (inc i)))", {}, "1000"),
    "default_timeout_ms": (
        {"default_timeout_ms": 200, "max_steps": BIG},
        "(loop [i 0] (recur (inc i)))",
        {"timeout": "default"},
        None,
    ),
    "max_output_bytes": (
        {"max_output_bytes": 100},
        '(doseq [i (range 100)] (println "hello"))',
        {},
        "100",
    ),
    "max_value_bytes": ({"max_value_bytes": 100}, "(vec (range 100))", {}, "100"),
    "max_tool_calls": ({"max_tool_calls": 2}, "(doseq [i (range 5)] (tool/echo {}))", {}, "2"),
    "tool_arg_bytes": (
        {"tool_arg_bytes": 50},
        '(tool/echo {:a (apply str (repeat 100 "x"))})',
        {},
        "50",
    ),
    "tool_result_bytes": ({"tool_result_bytes": 50}, "(tool/big {})", {}, "50"),
    "memory_bytes": (
        {"memory_bytes": 1000},
        "(def x (vec (range 1000))) 1",
        {"owner": True},
        "1000",
    ),
    "history_bytes": ({"history_bytes": 1000}, "(vec (range 1000))", {"owner": True}, "1000"),
    "parallel_timeout_ms": (
        {"parallel_timeout_ms": 100, "max_steps": BIG},
        f"(pmap (fn [x] {SLOW}) [1 2])",
        {},
        "100",
    ),
    "parallel_workers": ({"parallel_workers": 1}, "(pmap (fn [x] (pmap inc [x])) [1 2])", {}, "1"),
    "program_bytes": ({"program_bytes": 1000}, "(+ " + "1 " * 600 + ")", {}, "1000"),
    "compile_nodes": ({"compile_nodes": 100}, "(+ " + "1 " * 300 + ")", {}, "100"),
}

#: rows whose failure is checked elsewhere (isolated worker death and kill): the test
#: that does so, for the reader
ELSEWHERE = {
    "worker_memory_bytes": "tests/security (memory attacks), tests/test_isolated.py",
    "worker_cpu_seconds": "tests/test_isolated.py",
    "protocol_bytes": "tests/test_isolated.py",
    "kill_grace_ms": "tests/test_isolated.py",
    "compile_timeout_ms": "tests/test_compile_budget.py",
    "max_workers": "tests/test_isolated_pool.py",
}


def test_every_failing_row_is_probed() -> None:
    failing = {n for n, cells in ROWS.items() if cells[3] != "—" and not cells[3].startswith("—")}
    assert failing - set(PROBES) - set(ELSEWHERE) == set()


TOOLS = (BindingNamespace("tool", {"echo": lambda a: a, "big": lambda a: "x" * 100}),)


@pytest.fixture(scope="module", params=["in-process", "isolated"])
def mode(request: pytest.FixtureRequest) -> Iterator[str]:
    yield request.param


def _probe(mode: str, name: str) -> RunResult:
    overrides, program, opts, _ = PROBES[name]
    rt = api.runtime(mode, limits=Limits(**overrides), pool_size=1)  # type: ignore[arg-type]
    owner = object() if opts.get("owner") else None
    try:
        timeout: Any = 10_000
        if opts.get("timeout") == "default":
            req = RunRequest(program, bindings=TOOLS, state_owner=owner)
        else:
            req = RunRequest(program, bindings=TOOLS, timeout_ms=timeout, state_owner=owner)
        return rt.run(rt.resolve(req))
    finally:
        if owner is not None:
            rt.release(owner)
        rt.close()


@pytest.mark.parametrize("name", sorted(PROBES))
def test_a_limit_fails_as_documented(mode: str, name: str) -> None:
    r = _probe(mode, name)
    assert r.error is not None, f"{name}: the run succeeded at its limit"
    kind, code = _kind_code(name)
    assert r.error.kind == kind, r.error
    if code is not None:
        assert r.error.code == code, r.error
    want = PROBES[name][3]
    if want is not None:
        assert re.search(rf"\b{want}\b", r.error.message), r.error.message


def test_a_long_println_line_is_cut_visibly(mode: str) -> None:
    rt = api.runtime(mode, limits=Limits(print_line_chars=20), pool_size=1)
    try:
        r = rt.run(rt.resolve(RunRequest('(println (apply str (repeat 50 "x")))')))
    finally:
        rt.close()
    assert r.error is None
    assert r.text == "x" * 20 + "... (20/50 chars)\n"


def _fixed_rows() -> dict[str, list[str]]:
    text = DOC.read_text()
    start = text.index("### Fixed bounds")
    end = text.find("\n#", start + 10)
    rows = {}
    for line in text[start:end].splitlines():
        if line.startswith("| ") and not line.startswith("| Bound") and "---" not in line:
            cells = [c.strip() for c in line.strip("|").split(" | ")]
            rows[cells[0]] = cells
    return rows


FIXED = _fixed_rows()

#: a fixed bound's row (its first words) -> a program that reaches it, the data, the value
#: its message must give
FIXED_PROBES: list[tuple[str, str, dict[str, Any], str]] = [
    ("regex pattern size", "(re-pattern data/p)", {"p": "a" * 300}, "256"),
    ("regex group nesting", "(re-pattern data/p)", {"p": "(" * 40 + ")" * 40}, "32"),
    ("regex expansion", "(re-pattern data/p)", {"p": "(?:a{1000}){1000}"}, "100,000"),
    ("`range`", "(count (range 20000000))", {}, "10000000"),
    ("bit index", "(bit-shift-left 1 2000000)", {}, "1000000"),
    ("number text", "(parse-double data/s)", {"s": "1" * 10_001}, "10000"),
]


@pytest.mark.parametrize(("row", "program", "data", "value"), FIXED_PROBES)
def test_a_fixed_bound_fails_as_documented(
    mode: str, row: str, program: str, data: dict[str, Any], value: str
) -> None:
    [cells] = [c for k, c in FIXED.items() if k.startswith(row)]
    parts = re.findall(r"`([^`]+)`", cells[3])
    rt = api.runtime(mode, pool_size=1)
    try:
        r = rt.run(rt.resolve(RunRequest(program, data=data, timeout_ms=10_000)))
    finally:
        rt.close()
    assert r.error is not None, f"{row}: the run succeeded at its bound"
    assert (r.error.kind, r.error.code) == (parts[0], parts[1]), r.error
    assert value in r.error.message, r.error.message
