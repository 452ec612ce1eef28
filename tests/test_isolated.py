"""Isolated mode: what the worker boundary guarantees even when the guards are gone.

Most tests use a *raw* compiler that turns trusted test Python into the code object
sent to the worker, to act as a compromised or runaway worker: code with no fuel
checks, code that reaches `os` through runtime internals, code that writes garbage
on the protocol pipe. The host must still end each run with the right kind, on time,
and keep serving.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import CodeType
from typing import Any

import pytest
from timebounds import HANG_GUARD_S, Clock, assert_prompt  # tests/timebounds.py

from ptc_compiler import api
from ptc_runtime.limits import Limits
from ptc_runtime.seam import RunRequest, RunResult, Runtime

SECRET_NAME = "PTC_ISOLATED_SECRET"
os.environ[SECRET_NAME] = "isolated-secret-value"

# How generated code could reach `os` / `sys` if an escape existed (it does not in
# compiled PTC-Lisp; here it stands for a compromised worker).
OS = "rt_refill.__globals__['context'].threading._os"
SYS = "rt_refill.__globals__['context'].threading._sys"


@dataclass
class Raw:
    code: CodeType
    fn_names: dict[str, str]
    defines: frozenset[str] = frozenset()


def raw_compiler(source: str, tools: Any, names: Any) -> Raw:
    if source.startswith("#py\n"):
        return Raw(compile(source[4:], "<ptc>", "exec"), {})
    return api.compile(source, tools=tools, user_names=names)  # type: ignore[return-value]


@contextmanager
def workers(pool_size: int = 1, **limits: Any) -> Iterator[Runtime]:
    """A private isolated runtime (`pool_size` workers, these `Limits`), closed after use."""
    runtime = Runtime(
        raw_compiler,
        mode="isolated",
        pool_size=pool_size,  # type: ignore[arg-type]
        limits=Limits(**limits),
    )
    try:
        yield runtime
    finally:
        runtime.close()


@pytest.fixture(scope="module")
def rt() -> Iterator[Runtime]:
    with workers(2, kill_grace_ms=200) as runtime:
        yield runtime


def go(rt: Runtime, program: str, **kw: Any) -> RunResult:
    return rt.run(rt.resolve(RunRequest(program, **kw)))


def py(body: str) -> str:
    lines = "\n".join("    " + line for line in body.strip().splitlines())
    return "#py\ndef program():\n" + lines + "\n"


def test_trivial_run(rt: Runtime) -> None:
    r = go(rt, "(+ 1 2)")
    assert r.ok and r.value == 3 and r.mode == "isolated"


def test_unguarded_loop_is_killed_at_the_deadline(rt: Runtime) -> None:
    clock = Clock()
    r = go(rt, py("while True:\n    pass"), timeout_ms=300)
    assert r.error is not None and r.error.kind == "timeout", r.error
    assert "killed" in r.error.message  # the deadline's kill ended a loop that never ends
    assert_prompt(clock, 0, in_process=False)
    assert go(rt, "(+ 1 2)").value == 3  # replaced, still serving


def test_cancel_kills_an_unresponsive_worker(rt: Runtime) -> None:
    import threading

    from ptc_runtime.context import CancelToken

    token = CancelToken()
    threading.Timer(0.1, token.cancel).start()
    start = time.monotonic()
    r = go(rt, py("while True:\n    pass"), cancel=token, timeout_ms=20_000)
    # "abort", not "timeout": the cancel ended the run before its 20 s deadline
    assert r.error is not None and r.error.kind == "abort"
    assert time.monotonic() - start < HANG_GUARD_S
    assert go(rt, "(+ 1 2)").value == 3


def test_dead_worker_is_worker_exit(rt: Runtime) -> None:
    r = go(rt, py(f"{OS}._exit(9)"))
    assert r.error is not None and r.error.kind == "worker-exit"
    assert go(rt, "(+ 1 2)").value == 3


def test_out_of_memory_is_worker_exit() -> None:
    with workers(worker_memory_bytes=512 * 1024 * 1024) as runtime:
        r = go(runtime, py("x = [0] * (10 ** 9)\nreturn 1"), timeout_ms=5000)
        assert r.error is not None and r.error.kind == "worker-exit", r.error
        assert go(runtime, "(+ 1 2)").value == 3


def test_cpu_rlimit_is_a_timeout_not_a_worker_exit() -> None:
    # The CPU budget is ours (RLIMIT_CPU per run): when it, not the wall-clock deadline,
    # stops an unguarded loop, the run timed out; the substrate did not fail.
    with workers(worker_cpu_seconds=1) as runtime:
        start = time.monotonic()
        r = go(runtime, py("while True:\n    pass"), timeout_ms=None)
        assert r.error is not None and r.error.kind == "timeout", r.error
        assert "CPU budget" in r.error.message
        assert time.monotonic() - start < 30
        assert go(runtime, "(+ 1 2)").value == 3  # replaced


def test_garbage_on_the_protocol_pipe_is_protocol(rt: Runtime) -> None:
    body = f"""
os = {OS}
for fd in (3, 4, 5, 6, 7, 8, 9, 10, 11):
    try:
        os.write(fd, b'this is not json\\n')
    except os.error:
        pass
while True:
    pass
"""
    r = go(rt, py(body), timeout_ms=3000)
    assert r.error is not None and r.error.kind == "protocol", r.error
    assert go(rt, "(+ 1 2)").value == 3


def test_oversized_message_is_protocol() -> None:
    with workers(protocol_bytes=100_000) as runtime:
        body = f"""
os = {OS}
for fd in (3, 4, 5, 6, 7, 8, 9, 10, 11):
    try:
        os.write(fd, b'x' * 300000)
    except os.error:
        pass
while True:
    pass
"""
        r = go(runtime, py(body), timeout_ms=3000)
        assert r.error is not None and r.error.kind == "protocol", r.error


def test_worker_environment_is_scrubbed(rt: Runtime) -> None:
    r = go(rt, py(f"return {OS}.environ.copy()"))
    assert r.ok and SECRET_NAME not in r.value
    assert set(r.value) <= {
        "PATH",
        "LANG",
        "MALLOC_ARENA_MAX",
        "PYTHONHASHSEED",
        "PYTHONDONTWRITEBYTECODE",
        "LC_CTYPE",
    }


def test_worker_rlimits_are_set(rt: Runtime) -> None:
    body = f"""
res = {SYS}.modules['resource']
return [res.getrlimit(res.RLIMIT_AS)[0], res.getrlimit(res.RLIMIT_FSIZE)[0],
        res.getrlimit(res.RLIMIT_CPU)[0], res.getrlimit(res.RLIMIT_NOFILE)[0]]
"""
    r = go(rt, py(body))
    assert r.ok, r.error
    mem, fsize, cpu, nofile = r.value
    assert mem == Limits().worker_memory_bytes and fsize == 0 and 0 < cpu < 100 and nofile <= 32


def test_worker_cannot_write_files(rt: Runtime, tmp_path: Any) -> None:
    target = tmp_path / "owned.txt"
    body = f"""
os = {OS}
fd = os.open({str(target)!r}, os.O_WRONLY | os.O_CREAT)
os.write(fd, b'owned')
return 1
"""
    r = go(rt, py(body))
    assert not target.exists() or target.read_bytes() == b""
    assert r.error is not None or r.value == 1


def test_worker_stdout_is_not_the_protocol(rt: Runtime) -> None:
    body = f"""
os = {OS}
os.write(1, b'{{"op":"done"}}\\n')
return 5
"""
    r = go(rt, py(body))
    assert r.ok and r.value == 5


def test_isolation_unavailable() -> None:
    with workers(0, worker_memory_bytes=1024 * 1024) as runtime:
        r = go(runtime, "(+ 1 2)")
        assert r.error is not None and r.error.kind == "sandbox-unavailable", r.error


def test_owner_state_lives_in_a_dedicated_worker(rt: Runtime) -> None:
    owner = object()
    try:
        assert go(rt, "(def n 41) (inc n)", state_owner=owner).value == 42
        assert go(rt, "(inc n)", state_owner=owner).value == 42
        r = go(rt, py(f"{OS}._exit(3)"), state_owner=owner)
        assert r.error is not None and r.error.kind == "worker-exit"
        r = go(rt, "n", state_owner=owner)  # the environment died with its worker
        assert r.error is not None and r.error.code == "unbound_var"
        assert go(rt, "(def n 1) n", state_owner=owner).value == 1
    finally:
        rt.release(owner)


def test_tool_calls_are_proxied_to_the_host(rt: Runtime) -> None:
    from ptc_runtime.bindings import BindingNamespace

    calls: list[Any] = []

    def lookup(args: Any) -> Any:
        calls.append((os.getpid(), args))
        return {"pid": os.getpid()}

    r = go(rt, "(tool/lookup {:id 7})", bindings=(BindingNamespace("tool", {"lookup": lookup}),))
    assert r.ok and r.value == {"pid": os.getpid()}
    assert calls == [(os.getpid(), {"id": 7})]


def test_forged_tool_call_for_an_ungranted_tool_is_refused(rt: Runtime) -> None:
    body = f"""
os = {OS}
for fd in (3, 4, 5, 6, 7, 8, 9, 10, 11):
    try:
        os.write(fd, b'{{"op":"tool_call","call":1,"name":"rm","args":{{}}}}\\n')
    except os.error:
        pass
while True:
    pass
"""
    from ptc_runtime.bindings import BindingNamespace

    hits: list[Any] = []
    ns = BindingNamespace("tool", {"echo": lambda a: hits.append(a)})
    r = go(rt, py(body), bindings=(ns,), timeout_ms=500)
    assert r.error is not None and r.error.kind == "timeout"
    assert hits == []


def test_no_pickle_or_marshal_from_the_worker() -> None:
    import inspect

    from ptc_runtime.worker import pool

    src = inspect.getsource(pool)
    assert "pickle" not in src
    assert "marshal.loads" not in src


def test_keyword_keys_in_tool_results_and_data_reach_the_worker_as_strings() -> None:
    # A tool marked `returns_ptc_data` (trusted host code) may return what `from_host`
    # accepts in-process (keyword and vector map keys); across the JSON protocol they
    # arrive spelled as strings, never as a failure. Unmarked tools must return plain
    # JSON (tests/test_host_boundary.py).
    from ptc_runtime.seam import BindingNamespace
    from ptc_runtime.values import keyword

    def lookup(_args: object) -> object:
        return {keyword("status"): keyword("paid"), (1, 2): "pair", "n": {3, 4}}

    lookup.returns_ptc_data = True  # type: ignore[attr-defined]

    with workers() as runtime:
        r = go(
            runtime,
            '(let [r (tool/lookup {})] [(get r "status") (get r "[1,2]") (count (get r "n"))'
            " (:flag data/opts)])",
            bindings=[BindingNamespace("tool", {"lookup": lookup})],
            data={"opts": {keyword("flag"): True}},
        )
        assert r.error is None, r.error
        assert r.value == ["paid", "pair", 2, True]
