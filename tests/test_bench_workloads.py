"""The workload benchmark's quick mode: every workload's result, ours and hy's, equals the
hand-written Python one (correctness of the suite, never its timings)."""

from __future__ import annotations

import pytest

from benchmarks import bench_workloads
from benchmarks.workloads import QUICK_SIZES, WORKLOADS, make_data

DATA = make_data(QUICK_SIZES)


def test_the_suite_is_broad() -> None:
    assert len(WORKLOADS) >= 20
    assert len({w.name for w in WORKLOADS}) == len(WORKLOADS)
    assert set(DATA) == {w.name for w in WORKLOADS}


@pytest.mark.parametrize("name", [w.name for w in WORKLOADS])
def test_ours_agrees_with_python(name: str) -> None:
    workload = bench_workloads.BY_NAME[name]
    want = workload.python(DATA[name])
    bench_workloads.check(name, "ours", bench_workloads.our_job(name)(DATA[name]), want)


@pytest.mark.parametrize("name", [w.name for w in WORKLOADS])
def test_hy_agrees_with_python(name: str) -> None:
    want = bench_workloads.BY_NAME[name].python(DATA[name])
    bench_workloads.check(name, "hy", bench_workloads.hy_job(name)(DATA[name]), want)


def test_a_difference_is_caught() -> None:
    with pytest.raises(AssertionError, match="differs"):
        bench_workloads.check("fib", "ours", 1, 2)


def test_quick_mode_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    bench_workloads.main(["--quick", "--no-hy", "--only", "fib", "loop_numeric"])
    out = capsys.readouterr().out
    assert "geomean ours/Python" in out and "loop_numeric" in out
