"""The security suite: every attack of `security_cases` in both execution modes.

Each case asserts the failure kind (or, for benign look-alikes, the value), a wall-clock
bound, and that the host is unharmed: a canary file keeps its content, a secret
environment variable keeps its value and never appears in anything the run returns,
module sentinels (runtime helper table, `json.dumps`, `builtins.open`, `os.system`)
are untouched, and nothing returned carries a Python repr, a traceback or a host path.
"""

from __future__ import annotations

import builtins
import json
import math
import os
import re
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from security_cases import CASES, Attack

from ptc_compiler import api
from ptc_runtime import rt as rt_module
from ptc_runtime.bindings import BindingNamespace
from ptc_runtime.seam import MISSING, RunRequest, RunResult, Runtime

SECRET_NAME = "PTC_SECURITY_SECRET"
SECRET = "s3cr3t-" + os.urandom(6).hex()
os.environ[SECRET_NAME] = SECRET

_ORIGINAL = {
    "helpers": dict(rt_module.HELPERS),
    "dumps": json.dumps,
    "open": builtins.open,
    "system": os.system,
    "recursionlimit": sys.getrecursionlimit(),
}
_LEAKY = re.compile(r"at 0x[0-9a-fA-F]+|<function |<built-in |<module |Traceback|File \"|/work/")


class _Opaque:
    pass


def _tools() -> dict[str, Any]:
    return {
        "echo": lambda args: args,
        "__class__": lambda args: "ok",
        "boom": _boom,
        "nan": lambda args: math.nan,
        "obj": lambda args: _Opaque(),
        "big": lambda args: "x" * 2_000_000,
    }


def _boom(args: Any) -> Any:
    raise RuntimeError("database unavailable")


BINDINGS = (BindingNamespace("tool", _tools()),)
DATA = {"row": {"n": 1, "name": "a"}}


@pytest.fixture(scope="module")
def canary(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("canary") / "canary.txt"
    path.write_text("canary-intact")
    return path


@pytest.fixture(scope="module", params=["in-process", "isolated"])
def runtime(request: pytest.FixtureRequest) -> Iterator[Runtime]:
    rt = api.runtime(request.param, pool_size=2)
    yield rt
    rt.close()


def _run(rt: Runtime, program: str, timeout_ms: int = 1000) -> RunResult:
    return rt.run(
        rt.resolve(RunRequest(program, bindings=BINDINGS, data=DATA, timeout_ms=timeout_ms))
    )


def assert_host_unharmed(result: RunResult, canary: Path) -> None:
    assert canary.read_text() == "canary-intact"
    assert os.environ.get(SECRET_NAME) == SECRET
    assert dict(rt_module.HELPERS) == _ORIGINAL["helpers"]
    assert json.dumps is _ORIGINAL["dumps"]
    assert builtins.open is _ORIGINAL["open"]
    assert os.system is _ORIGINAL["system"]
    assert sys.getrecursionlimit() == _ORIGINAL["recursionlimit"]
    assert not Path("/tmp/ptc-owned").exists()
    texts = [result.text[:200_000]]
    if result.error is not None:
        texts += [result.error.message, result.error.hint or "", result.error.code]
        assert len(result.error.message) <= 1024
    if result.value is not MISSING:
        texts.append(json.dumps(result.value)[:200_000])
    for text in texts:
        assert SECRET not in text
        assert not _LEAKY.search(text), text[:300]


# Only a run that never ends fails on wall time: a loaded machine stretches wall time by any
# factor, so the cost bound (`case.seconds`) is checked on CPU time where it can be measured.
HANG_GUARD_S = 120.0


def _check(case: Attack, result: RunResult, elapsed: float, cpu: float | None = None) -> None:
    """`elapsed`: wall seconds of the run; `cpu`: this process's CPU seconds (in-process)."""
    assert elapsed < max(HANG_GUARD_S, 10 * case.seconds), f"took {elapsed:.2f}s"
    if cpu is not None:
        assert cpu < case.seconds, f"took {cpu:.2f}s of CPU"
    if not case.kinds:
        assert result.error is None, result.error
        assert result.value == case.value
        return
    if case.may_succeed and result.error is None:
        return
    assert result.error is not None, f"attack succeeded with {str(result.value)[:200]}"
    assert result.error.kind in case.kinds, result.error
    if case.code is not None:
        assert result.error.code == case.code, result.error


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_attack(case: Attack, runtime: Runtime, canary: Path) -> None:
    if case.skip_in_process and runtime.mode == "in-process":
        pytest.skip(case.skip_in_process)
    if case.category == "leaks":
        _run(runtime, '(def leak 42) (println "from an earlier run") 42')
    start, start_cpu = time.monotonic(), time.process_time()
    result = _run(runtime, case.program, case.timeout_ms)
    elapsed, cpu = time.monotonic() - start, time.process_time() - start_cpu
    # in-process the run's work is this process's CPU; isolated it is a worker's
    _check(case, result, elapsed, cpu if runtime.mode == "in-process" else None)
    assert_host_unharmed(result, canary)
    after = _run(runtime, "(+ 1 2)")  # the runtime keeps serving
    assert after.error is None and after.value == 3


def test_suite_size() -> None:
    attacks = [c for c in CASES if c.kinds]
    assert len(attacks) >= 150
    assert len({c.id for c in CASES}) == len(CASES)


def test_owner_state_is_private(runtime: Runtime, canary: Path) -> None:
    a, b = object(), object()
    try:
        r = runtime.run(runtime.resolve(RunRequest("(def secret-def 42) 1", state_owner=a)))
        assert r.error is None
        r = runtime.run(runtime.resolve(RunRequest("secret-def", state_owner=b)))
        assert r.error is not None and r.error.code == "unbound_var"
        r = runtime.run(runtime.resolve(RunRequest("(or *1 :none)", state_owner=b)))
        assert r.value == "none"
        r = runtime.run(runtime.resolve(RunRequest("secret-def", state_owner=a)))
        assert r.value == 42
        assert_host_unharmed(r, canary)
    finally:
        runtime.release(a)
        runtime.release(b)


def test_failed_run_leaves_owner_unchanged(runtime: Runtime) -> None:
    owner = object()
    try:
        runtime.run(runtime.resolve(RunRequest("(def x 1) (defn f [] x) 1", state_owner=owner)))
        for attack in [
            "(def x 2) (loop [] (recur))",
            "(def x 3) (fail :no)",
            "(def x 4) (fn [] 1)",
            "(def x 5) (/ 1 0)",
        ]:
            r = runtime.run(runtime.resolve(RunRequest(attack, state_owner=owner, timeout_ms=300)))
            assert r.error is not None
        r = runtime.run(runtime.resolve(RunRequest("[x (f)]", state_owner=owner)))
        assert r.value == [1, 1]
    finally:
        runtime.release(owner)
