"""Compile time: linear in the source, held to a budget, and nesting that fails typed.

Compiling runs on the host in both modes, so a hostile program must not make it slow,
crash it or end in an internal error. Covered here: the budget (`compile_timeout_ms`,
`compile_nodes` of `Limits`, failing with `compile_limit`), CPython's nested-block
limit reported as a program error at line:column, deep nesting from macros as a typed
error, and the one timing assertion allowed: compile cost grows linearly (n against 4n,
`tests/complexity.py`) for the shapes that once grew quadratically or exponentially.
The attack cases with wall-clock bounds are in `tests/security/security_cases.py`.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from complexity import assert_linear

from ptc_compiler import api
from ptc_compiler.budget import CompileBudget
from ptc_compiler.lower.blocks import MAX_BLOCKS
from ptc_runtime.errors import PtcError
from ptc_runtime.limits import DEFAULT_LIMITS, Limits
from ptc_runtime.seam import RunRequest, RunResult, Runtime

#: a budget no test program reaches: the scaling tests measure the passes, not the limit
UNLIMITED = Limits(compile_timeout_ms=600_000, compile_nodes=10**9)


def _nested(n: int, shape: Callable[[str, int], str]) -> str:
    body = "x"
    for i in range(n):
        body = shape(body, i)
    return f"(let [x 1] {body})"


def when_map(body: str, i: int) -> str:
    return f"(when (> x {i}) (map (fn [x] {body}) [1 2]))"


def if_doseq(body: str, i: int) -> str:
    return f"(if (> x {i}) (doseq [y [1 2]] {body}) 0)"


def if_for(body: str, i: int) -> str:
    return f"(if (> x {i}) (for [x [1 2]] {body}) 0)"


def numeric_fn(body: str, i: int) -> str:
    return f"((fn [p{i}] (+ p{i} {body})) {i})"


def _compile(source: str, limits: Limits = UNLIMITED) -> None:
    # uncached: a cache hit would measure nothing
    api._compile_uncached(source, None, frozenset(), True, limits)


@pytest.fixture(scope="module", params=["in-process", "isolated"])
def small_budget(request: pytest.FixtureRequest) -> Iterator[Runtime]:
    rt = api.runtime(request.param, limits=Limits(compile_nodes=2_000), pool_size=1)
    yield rt
    rt.close()


@pytest.fixture(scope="module", params=["in-process", "isolated"])
def rt(request: pytest.FixtureRequest) -> Iterator[Runtime]:
    runtime = api.runtime(request.param, pool_size=1)
    yield runtime
    runtime.close()


def go(rt: Runtime, program: str, **kw: Any) -> RunResult:
    return rt.run(rt.resolve(RunRequest(program, **kw)))


# ---------------------------------------------------------------- the budget


def test_the_budget_is_in_limits() -> None:
    assert DEFAULT_LIMITS.compile_timeout_ms == 3_000
    assert DEFAULT_LIMITS.compile_nodes == 1_000_000
    for bad in (0, -1):
        with pytest.raises(ValueError):
            Limits(compile_nodes=bad)
        with pytest.raises(ValueError):
            Limits(compile_timeout_ms=bad)


def test_too_many_nodes_is_compile_limit() -> None:
    source = "[" + "1 " * 5_000 + "]"
    with pytest.raises(PtcError) as info:
        api.compile(source, limits=Limits(compile_nodes=1_000))
    err = info.value
    assert (err.kind, err.code) == ("exception", "compile_limit")
    assert "compile_nodes = 1000" in err.message
    assert api.compile(source).code is not None  # the default budget is ample


def test_too_long_is_compile_limit() -> None:
    source = "(cond-> 1 " + "true inc " * 20_000 + ")"
    with pytest.raises(PtcError) as info:
        _compile(source, Limits(compile_timeout_ms=1))
    err = info.value
    assert (err.kind, err.code) == ("exception", "compile_limit")
    assert "compile_timeout_ms = 1" in err.message


def test_the_clock_is_read_during_a_pass() -> None:
    budget = CompileBudget(timeout_ms=1, max_nodes=10**9)
    budget.deadline = 0.0  # already past: the next look at the clock fails
    with pytest.raises(PtcError, match="compile_timeout_ms"):
        for _ in range(10_000):
            budget.charge()
    assert budget.nodes <= 1_024  # found within a few hundred nodes


def test_the_checks_of_the_generated_tree_read_the_clock() -> None:
    from ptc_compiler.analyzer import analyze
    from ptc_compiler.lower import lower
    from ptc_compiler.lower.check import check_restricted
    from ptc_compiler.reader import read

    module = lower(analyze(read("[" + "(inc 1) " * 2_000 + "]"))).module
    budget = CompileBudget(timeout_ms=1, max_nodes=10**9)
    budget.deadline = 0.0
    with pytest.raises(PtcError, match="compile_timeout_ms"):
        check_restricted(module, budget)
    assert budget.ticks <= 1_024  # stopped within a few hundred nodes of the walk
    check_restricted(module)  # without a budget the same tree passes


def test_a_runtime_holds_its_compiler_to_its_limits(small_budget: Runtime) -> None:
    r = go(small_budget, "[" + "(inc 1) " * 2_000 + "]")
    assert r.error is not None
    assert (r.error.kind, r.error.code) == ("exception", "compile_limit")
    assert "compile_nodes = 2000" in r.error.message
    ok = go(small_budget, "(+ 1 2)")
    assert ok.error is None and ok.value == 3


# ---------------------------------------------------------------- nested blocks


def _for(bindings: int) -> str:
    return "(for [" + "\n".join(f"a{k} [{k}]" for k in range(bindings)) + "] (+ a0 a1))"


def _loops(depth: int) -> str:
    opens = "".join(f"(loop [i{k} {k}] " for k in range(depth))
    return opens + "(+ i0 i1)" + ")" * depth


def test_nested_blocks_within_the_limit_compile_and_run(rt: Runtime) -> None:
    assert go(rt, _for(MAX_BLOCKS - 1)).value == [1]
    assert go(rt, _loops(MAX_BLOCKS // 2)).value == 1


@pytest.mark.parametrize("program", [_for(25), _loops(25), _for(MAX_BLOCKS)])
def test_nested_blocks_past_the_limit_are_a_program_error(rt: Runtime, program: str) -> None:
    r = go(rt, program)
    assert r.error is not None
    assert (r.error.kind, r.error.code) == ("exception", "program_too_complex")
    assert "nested blocks" in r.error.message
    assert r.error.line is not None and r.error.column is not None
    assert "defn" in (r.error.hint or "")


def test_the_error_points_at_the_binding_past_the_limit() -> None:
    with pytest.raises(PtcError) as info:
        api.compile(_for(25))
    # one block per binding, and the step check each binding's loop starts with: the
    # check in the 20th binding's loop is the 21st block (binding k is on line k)
    assert (info.value.line, info.value.column) == (MAX_BLOCKS, 1)


def test_a_fn_starts_the_count_again(rt: Runtime) -> None:
    inner = "(defn inner [a] " + _loops(8).replace("(+ i0 i1)", "(+ a i1)") + ")"
    program = inner + " " + _loops(8).replace("(+ i0 i1)", "(inner i0)")
    assert go(rt, program).value == 1


# ---------------------------------------------------------------- deep nesting


@pytest.mark.parametrize(
    "program",
    [
        "(-> 1 " + "inc " * 5_000 + ")",
        "(->> 1 " + "(+ 1) " * 5_000 + ")",
        "(some-> 1 " + "inc " * 5_000 + ")",
        "(cond " + "false 1 " * 5_000 + ":else 2)",
    ],
    ids=["->", "->>", "some->", "cond"],
)
def test_deep_expansions_are_a_typed_error(rt: Runtime, program: str) -> None:
    with pytest.raises(PtcError) as info:
        _compile(program)
    assert info.value.code == "program_too_complex"
    r = go(rt, program)
    assert r.error is not None
    assert (r.error.kind, r.error.code) == ("exception", "program_too_complex")


@pytest.mark.parametrize("opener", ["(inc ", "[", "{:a ", "(fn [] ", "(let [a 1] "])
def test_deep_source_nesting_is_a_read_error(opener: str) -> None:
    closer = "}" if opener.startswith("{") else ("]" if opener == "[" else ")")
    with pytest.raises(PtcError) as info:
        api.compile(opener * 3_000 + "1" + closer * 3_000)
    assert info.value.code == "parse_error"


def test_nesting_just_under_the_reader_limit_compiles() -> None:
    for opener in ["(inc ", "(if true ", "(let [a 1] ", "(fn [] ", "(do "]:
        closer = " 2)" if opener == "(if true " else ")"
        api.compile(opener * 60 + "1" + closer * 60)


# ---------------------------------------------------------------- linear compile time


def test_nested_ifs_around_loops_lower_once_each(rt: Runtime) -> None:
    # at 2.5x per level 18 levels once took minutes; now they compile in milliseconds.
    # 20 levels are one loop each: past CPython's block limit, a program error.
    for shape in (when_map, if_doseq, if_for):
        r = go(rt, _nested(18, shape))
        assert r.error is None, r.error
        r = go(rt, _nested(20, shape))
        assert r.error is not None and r.error.code == "program_too_complex"
    assert go(rt, _nested(3, if_doseq)).value == 0
    nested = "(let [x 2] (when (> x 1) (map (fn [x] (when (> x 0) (map (fn [y] (+ x y)) [1 2]))) [1 2])))"
    assert go(rt, nested).value == [[2, 3], [3, 4]]
    nested = "(let [x 5] (if (> x 1) (for [y [1 2]] (if (> y 1) (for [z [3]] (+ y z)) 0)) 0))"
    assert go(rt, nested).value == [0, [5]]


def test_nested_numeric_fns_are_lowered_at_most_twice() -> None:
    budget = CompileBudget(timeout_ms=600_000, max_nodes=10**9)
    from ptc_compiler.analyzer import analyze
    from ptc_compiler.lower import lower
    from ptc_compiler.reader import read

    source = _nested(15, numeric_fn)
    program = analyze(read(source))
    lower(program, budget=budget)
    assert budget.nodes <= 2 * 6 * 15 + 10  # six IR nodes a level, each lowered <= 2x
    assert api.run(_nested(4, numeric_fn)).value == 7


LINEAR_SHAPES: dict[str, tuple[Callable[[int], str], int]] = {
    "cond->": (lambda n: "(cond-> 1 " + "true inc " * n + ")", 1_000),
    "let": (lambda n: "(let [" + "a 1 " * n + "] a)", 1_000),
    "as->": (lambda n: "(as-> 1 x " + "(inc x) " * n + ")", 1_000),
    "let-of-loops": (
        lambda n: (
            "(let ["
            + " ".join(f"a{i} (loop [i 0] (if (< i 3) (recur (inc i)) i))" for i in range(n))
            + "] a0)"
        ),
        300,
    ),
    "nested when/map": (lambda n: _nested(n, when_map), 4),
    "nested if/doseq": (lambda n: _nested(n, if_doseq), 4),
    "nested numeric fns": (lambda n: _nested(n, numeric_fn), 4),
}


@pytest.mark.parametrize("shape", sorted(LINEAR_SHAPES))
def test_compile_time_is_linear(shape: str) -> None:
    make, n = LINEAR_SHAPES[shape]

    def job(size: int) -> Callable[[], None]:
        source = make(size)
        return lambda: _compile(source)

    assert_linear(job, n)
