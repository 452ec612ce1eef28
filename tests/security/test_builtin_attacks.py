"""The builtin attacks of `builtin_attack_cases` in both modes, with the security suite's checks
(time bound, failure kind and code, host unharmed, runtime still serving); plus cancel
and step budget inside a builtin's loop."""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from builtin_attack_cases import CASES
from security_cases import Attack
from test_security import _check, _run, assert_host_unharmed, canary, runtime

from ptc_runtime.context import CancelToken
from ptc_runtime.seam import RunRequest, Runtime

__all__ = ["canary", "runtime"]  # the fixtures, shared with test_security


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_builtin_attack(case: Attack, runtime: Runtime, canary: Path) -> None:
    start, start_cpu = time.monotonic(), time.process_time()
    result = _run(runtime, case.program, case.timeout_ms)
    elapsed, cpu = time.monotonic() - start, time.process_time() - start_cpu
    _check(case, result, elapsed, cpu if runtime.mode == "in-process" else None)
    assert_host_unharmed(result, canary)
    after = _run(runtime, "(+ 1 2)")
    assert after.error is None and after.value == 3


CANCELLED_LOOPS = [
    "(count (map str (range 10000000)))",
    "(count (update-vals (zipmap (range 2000000) (range 2000000)) inc))",
    "(count (update-keys (zipmap (range 2000000) (range 2000000)) inc))",
    "(reduce + (conj (vec (range 10000000)) nil))",
]


@pytest.mark.parametrize("program", CANCELLED_LOOPS)
def test_cancel_inside_builtin_loop(runtime: Runtime, program: str) -> None:
    """A cancel at 0.3 s ends a builtin's loop over builtin callbacks promptly (`map str`
    ignored it for 7 s; `update-vals`, `update-keys` and a `+` fold checked nothing)."""
    token = CancelToken()
    timer = threading.Timer(0.3, token.cancel)
    timer.start()
    try:
        start, start_cpu = time.monotonic(), time.process_time()
        request = RunRequest(program, timeout_ms=60_000, cancel=token)
        result = runtime.run(runtime.resolve(request))
        elapsed, cpu = time.monotonic() - start, time.process_time() - start_cpu
    finally:
        timer.cancel()
    # "abort", not "timeout": the cancel ended it before the 60 s deadline
    assert result.error is not None and result.error.kind == "abort", result.error
    assert elapsed < 60
    if runtime.mode == "in-process":  # ignoring the cancel burns CPU here (it took 7 s)
        assert cpu < 3.0, f"{cpu:.2f} s of CPU after a cancel at 0.3 s"


@pytest.mark.parametrize(
    "program",
    [
        "(count (map str (range 100000)))",
        "(count (filter str (range 100000)))",
        "(reduce max (range 100000))",
        "(count (sort-by str (range 100000)))",
        "(every? str (range 100000))",
        "(count (update-vals (zipmap (range 100000) (range 100000)) str))",
        "(count (update-keys (zipmap (range 100000) (range 100000)) str))",
        "(count (reductions + (vec (range 100000))))",
    ],
)
def test_builtin_callbacks_charge_steps(runtime: Runtime, program: str) -> None:
    """Each call of a builtin callback costs a step: 100,000 of them exceed 1,000."""
    result = runtime.run(runtime.resolve(RunRequest(program, timeout_ms=10_000, max_steps=1_000)))
    assert result.error is not None and result.error.code == "step_limit_exceeded", result.error
    ok = runtime.run(runtime.resolve(RunRequest(program, timeout_ms=10_000, max_steps=200_000)))
    assert ok.error is None, ok.error


def test_a_plus_fold_off_the_c_sum_charges_each_call(runtime: Runtime) -> None:
    """`+` over plain numbers is one C-level sum (no steps); with anything else among
    them it folds, a charged call at a time: the budget stops it before the bad item,
    and a budget that covers the calls reaches it (the type error)."""
    program = "(reduce + (conj (vec (range 100000)) 0.5 nil))"
    short = runtime.run(runtime.resolve(RunRequest(program, timeout_ms=10_000, max_steps=1_000)))
    assert short.error is not None and short.error.code == "step_limit_exceeded", short.error
    assert short.steps == 1_001
    full = runtime.run(runtime.resolve(RunRequest(program, timeout_ms=10_000, max_steps=200_000)))
    assert full.error is not None and full.error.code == "type_error", full.error
    summed = runtime.run(
        runtime.resolve(RunRequest("(reduce + (vec (range 100000)))", max_steps=10))
    )
    assert summed.error is None and summed.value == 4_999_950_000


def test_hash_collision_error_names_the_limit(runtime: Runtime) -> None:
    result = _run(runtime, "(count (set (map (partial * 2305843009213693951) (range 1000))))")
    assert result.error is not None and result.error.code == "hash_collision_limit"
    assert "64" in result.error.message and "hash collision limit" in result.error.message
    small = _run(runtime, "(count (set (map (partial * 2305843009213693951) (range 60))))")
    assert small.error is None and small.value == 60


def test_grouping_tool_records_by_colliding_ids_is_bounded(runtime: Runtime) -> None:
    """A tool's record list whose ids are multiples of 2^61-1 (one CPython hash) grouped by
    a keyword goes through the record-list fast path; it meets the same collision bound."""
    from ptc_runtime.bindings import BindingNamespace

    rows = [{"id": i * 2305843009213693951, "v": i} for i in range(20_000)]
    tools = (BindingNamespace("tool", {"rows": lambda _args: rows}),)
    for program in (
        "(count (group-by :id (tool/rows {})))",
        "(count (frequencies (map :id (tool/rows {}))))",
    ):
        start_cpu = time.process_time()
        spec = runtime.resolve(RunRequest(program, bindings=tools, timeout_ms=60_000))
        result = runtime.run(spec)
        if runtime.mode == "in-process":  # CPU: the collision bound, not the load
            assert time.process_time() - start_cpu < 5.0, program
        assert result.error is not None, program
        assert result.error.code == "hash_collision_limit", (program, result.error)
