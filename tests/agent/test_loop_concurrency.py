"""agent-design §3.12 Concurrency (CON-01, CON-02) and admission refusals (EVL-10, EVL-11):
loops under `pcalls` overlap their model calls while mission evaluations pass one at a time,
in arrival order, through the run's evaluation lease."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from loop_helpers import call

from ptc_agent import AgentError, run_outcome
from ptc_agent.providers import Alias, ModelRouter, Request, ScriptedProvider
from ptc_agent.run_limits import EvaluationLease, HostLimits
from ptc_agent.workflow import run_workflow
from ptc_compiler.tools import Tool

TWO_LOOPS = """(pcalls #(agent.core/run-value "task a" {"model" "a"})
                      #(agent.core/run-value "task b" {"model" "b"}))"""


class Probe:
    """A read tool that records how many calls are inside it at once."""

    def __init__(self, hold_s: float) -> None:
        self.hold_s = hold_s
        self.lock = threading.Lock()
        self.active = 0
        self.max_active = 0
        self.calls: list[str] = []

    def __call__(self, args: Any) -> str:
        with self.lock:
            self.active += 1
            self.max_active = max(self.max_active, self.active)
            self.calls.append(str(args.get("who")))
        time.sleep(self.hold_s)
        with self.lock:
            self.active -= 1
        return "ok"


def _meet(barrier: threading.Barrier, response: dict[str, Any]) -> Any:
    def answer(req: Request) -> dict[str, Any]:
        barrier.wait(timeout=5)  # both loops must be inside a model call at the same time
        return response

    return answer


def test_CON_01_model_calls_overlap_and_evaluations_are_serialized() -> None:
    probe = Probe(hold_s=0.05)
    barrier = threading.Barrier(2)
    a = ScriptedProvider([_meet(barrier, call('(tool/probe {:who "a1"})')),
                          call('(do (tool/probe {:who "a2"}) (return "A"))')])
    b = ScriptedProvider([_meet(barrier, call('(tool/probe {:who "b1"})')),
                          call('(do (tool/probe {:who "b2"}) (return "B"))')])
    router = ModelRouter([Alias("a", a), Alias("b", b)])
    value = run_workflow(TWO_LOOPS, router=router,
                         tools={"probe": Tool(lambda args: probe(args), effect="read")})
    router.close()
    assert list(value) == ["A", "B"]
    assert not barrier.broken  # the first model calls were in flight together
    assert probe.max_active == 1  # no two evaluations ever ran at once
    assert sorted(probe.calls) == ["a1", "a2", "b1", "b2"]
    assert len(a.requests) == 2 and len(b.requests) == 2


def test_CON_01_lease_admits_waiters_in_arrival_order() -> None:
    lease = EvaluationLease()
    assert lease.acquire(0)
    order: list[int] = []

    def waiter(i: int) -> None:
        assert lease.acquire(5)
        order.append(i)
        lease.release()

    threads = []
    for i in range(5):
        t = threading.Thread(target=waiter, args=(i,))
        t.start()
        threads.append(t)
        while lease.waiting < i + 1:  # queue them one after another
            time.sleep(0.001)
    lease.release()
    for t in threads:
        t.join(5)
    assert order == [0, 1, 2, 3, 4]
    assert lease.acquire(0)  # free again once the queue drained


def test_CON_01_lease_timeout_leaves_the_queue() -> None:
    lease = EvaluationLease()
    assert lease.acquire(None)
    assert lease.acquire(0.01) is False
    assert lease.waiting == 0
    lease.release()
    assert lease.acquire(0)


def _slow_and_fast(hold_s: float) -> tuple[ModelRouter, ScriptedProvider, dict[str, Tool]]:
    """Loop a evaluates a program holding the lease for `hold_s`; loop b then asks for it."""
    started = threading.Event()

    def slow(args):  # type: ignore[no-untyped-def]  # untyped: the tool takes the args map
        started.set()
        time.sleep(hold_s)
        return "done"

    def after_a_started(req: Request) -> dict[str, Any]:
        started.wait(5)
        return call("(return 2)")

    a = ScriptedProvider([call("(tool/slow {})"), call("(return 1)")])
    b = ScriptedProvider([after_a_started, call("(return 3)")])
    router = ModelRouter([Alias("a", a), Alias("b", b)])
    return router, b, {"slow": Tool(slow, effect="read")}


def test_CON_02_EVL_10_admission_timeout_fails_without_spending_a_turn() -> None:
    router, b, tools = _slow_and_fast(hold_s=0.6)
    with pytest.raises(AgentError) as info:
        run_workflow(TWO_LOOPS, router=router, tools=tools,
                     limits=HostLimits(evaluation_admission_timeout_ms=100))
    router.close()
    assert info.value.code == "evaluation_unavailable"
    assert info.value.details["reason"] == "admission_timeout"
    assert len(b.requests) == 1  # no further model call after the refusal


def test_CON_02_admission_is_bounded_by_the_run_deadline() -> None:
    router, b, tools = _slow_and_fast(hold_s=0.8)
    t0 = time.monotonic()
    with pytest.raises(AgentError) as info:
        run_workflow(TWO_LOOPS, router=router, tools=tools,
                     limits=HostLimits(evaluation_admission_timeout_ms=60_000,
                                       run_timeout_ms=300))
    router.close()
    assert info.value.code == "evaluation_unavailable"
    assert info.value.details["reason"] == "deadline"
    assert time.monotonic() - t0 < 30  # not the 60 s admission timeout
    assert len(b.requests) == 1


def test_CON_02_waiting_within_the_bound_is_admitted() -> None:
    router, _b, tools = _slow_and_fast(hold_s=0.2)
    value = run_workflow(TWO_LOOPS, router=router, tools=tools,
                         limits=HostLimits(evaluation_admission_timeout_ms=5000))
    router.close()
    assert list(value) == [1, 2]


def test_EVL_10_expired_run_deadline_refuses_evaluation() -> None:
    def late(req: Request) -> dict[str, Any]:
        time.sleep(0.15)
        return call("(return 1)")

    sp = ScriptedProvider([late, call("(return 2)")])
    with pytest.raises(AgentError) as info:
        run_outcome("t", model=sp, limits=HostLimits(run_timeout_ms=50))
    assert info.value.code == "evaluation_unavailable"
    assert info.value.details["reason"] == "deadline"
    assert len(sp.requests) == 1


def test_EVL_11_subordinate_evaluations_exhausted() -> None:
    sp = ScriptedProvider([call("1"), call("2"), call("(return 3)")])
    with pytest.raises(AgentError) as info:
        run_outcome("t", model=sp, limits=HostLimits(subordinate_evaluations=2))
    err = info.value
    assert err.code == "runtime_limit_exceeded"
    assert err.details == {"limit": "subordinate_evaluations", "value": 2}
    assert "subordinate_evaluations limit of 2" in err.message and "reduce" in err.message
    assert len(sp.requests) == 3  # the third program was refused; no fourth model call


def test_EVL_11_limit_is_shared_by_parallel_loops() -> None:
    a = ScriptedProvider([call("1"), call("(return 1)")])
    b = ScriptedProvider([call("1"), call("(return 2)")])
    router = ModelRouter([Alias("a", a), Alias("b", b)])
    with pytest.raises(AgentError) as info:
        run_workflow(TWO_LOOPS, router=router, limits=HostLimits(subordinate_evaluations=3))
    router.close()
    assert info.value.details == {"limit": "subordinate_evaluations", "value": 3}


@pytest.mark.parametrize("bad", [
    {"subordinate_evaluations": -1}, {"subordinate_evaluations": 1.5},
    {"evaluation_admission_timeout_ms": 0}, {"run_timeout_ms": float("inf")},
    {"workflow_capability_calls": True}])
def test_host_limits_reject_bad_values(bad: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="HostLimits." + next(iter(bad))):
        HostLimits(**bad)


def test_workflow_fail_and_errors_are_typed() -> None:
    with pytest.raises(AgentError) as info:
        run_workflow('(fail "nope")', model=ScriptedProvider())
    assert info.value.code == "workflow_failed" and info.value.details == {"value": "nope"}
    with pytest.raises(AgentError) as info:
        run_workflow("(/ 1 0)", model=ScriptedProvider())
    assert info.value.code == "workflow_error"
