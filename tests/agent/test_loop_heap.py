"""EVL-14 / EVL-15: a heap kill while a program runs gets its own feedback (rolled back,
earlier definitions remain, filter/page/project/reduce before collecting), distinct from a
rejected commit; and the isolated worker reports a commit rejection's `phase` and a real
out-of-memory kill exactly as the in-process runtime does."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from loop_helpers import agent, call, last_content

from ptc_agent.run_limits import HostLimits
from ptc_compiler.prelude import Environment
from ptc_compiler.tools import Tool
from ptc_runtime.limits import DEFAULT_LIMITS
from ptc_runtime.state import COMMIT_PHASE

HEAP_TEXT = "ran out of memory and was stopped"
BIG = "(count (vec (range 100000000)))"  # the runtime refuses to build it: memory_exceeded


def _read_tools(log: list[str]) -> dict[str, Any]:
    def read(args):  # type: ignore[no-untyped-def]  # untyped: receives the map
        log.append("read")
        return {"n": 1}

    return {"read": Tool(read, effect="read")}


MODES = pytest.mark.parametrize("mode", ["in-process", "isolated"])


@MODES
def test_EVL_14_heap_kill_after_reads_is_correctable_with_its_own_feedback(mode: str) -> None:
    log: list[str] = []
    out, sp = agent([call("(def keep 1)"), call(f"(do (tool/read {{}}) (def lost 2) {BIG})"),
                     call("(return [keep (tool/read {})])")], tools=_read_tools(log),
                    limits=HostLimits(mission_mode=mode))
    assert out.status == "returned" and out.value[0] == 1
    fb = last_content(sp)
    assert "error: memory_exceeded" in fb and HEAP_TEXT in fb
    assert "earlier definitions remain" in fb and "none of its definitions were kept" in fb
    assert "filter, page, project or reduce" in fb.lower()
    assert "Do not repeat" not in fb  # only reads happened: correctable
    assert "too large to retain" not in fb and "too large to keep as *1" not in fb
    assert log == ["read", "read"]


@MODES
def test_EVL_14_heap_kill_after_a_write_takes_the_closing_turn(mode: str) -> None:
    tools = {"save": Tool(lambda a: {"ok": True}, effect="write")}
    out, sp = agent([call(f"(do (tool/save {{}}) {BIG})"), call("(return 1)")], tools=tools,
                    limits=HostLimits(mission_mode=mode))
    assert out.value == 1
    fb = last_content(sp)
    assert HEAP_TEXT in fb and "Do not repeat" in fb


def test_ordinary_errors_do_not_get_the_heap_text() -> None:
    _, sp = agent([call("(/ 1 0)"), call("(return 1)")])
    assert HEAP_TEXT not in last_content(sp)


# ---------------------------------------------------------------- the isolated worker


@pytest.fixture(scope="module")
def isolated(tmp_path_factory: pytest.TempPathFactory) -> Any:
    prelude = Path(tmp_path_factory.mktemp("heap")) / "tiny.clj"
    prelude.write_text('(ns tiny "A prelude for the isolated worker." {})\n(defn one [] 1)\n',
                       encoding="utf-8")
    limits = DEFAULT_LIMITS.with_(memory_bytes=400, history_bytes=400,
                                  worker_memory_bytes=256 * 1024 * 1024)
    envs = {mode: Environment([str(prelude)], mode=mode, limits=limits)
            for mode in ("in-process", "isolated")}
    yield envs
    for env in envs.values():
        env.close()


@pytest.mark.parametrize(
    ("program", "code"),
    [("(def big (vec (range 1000))) 1", "memory_exceeded"),
     ("(vec (range 1000))", "history_exceeded")],
)
def test_EVL_15_isolated_commit_rejections_carry_their_phase(
    isolated: dict[str, Environment], program: str, code: str
) -> None:
    for mode, env in isolated.items():
        result = env.run(program, state_owner=object())
        assert result.error is not None, mode
        assert result.error.code == code, mode
        assert dict(result.error.details or {}) == {"phase": COMMIT_PHASE}, mode


def test_EVL_14_a_real_out_of_memory_kill_in_the_worker(isolated: dict[str, Environment]) -> None:
    # 9,000,000 distinct integers (about 330 MB) pass the runtime's own caps but not the
    # worker's 256 MB address-space limit: a real MemoryError, reported as memory_exceeded
    # without a commit phase, after which the worker is replaced and runs again
    env = isolated["isolated"]
    result = env.run("(count (vec (map (fn [i] (* i 1000)) (range 9000000))))")
    assert result.error is not None and result.error.code == "memory_exceeded"
    assert (result.error.details or {}).get("phase") != COMMIT_PHASE
    assert env.run("(tiny/one)").value == 1
