"""Step counts of fns defined by an earlier module of the same environment (decision 1).

A state owner's `defn` in run 1 lives in run 1's module (its globals hold that module's
`FUEL` and `CREDIT`); calling it in run 2 must cost exactly what the same program costs in
one run, and a budget must stop it at the same step. Each earlier module pulls from the
run's own chunk and credit iterator (`RunContext.link`): before, it kept the stale chunk of
its own run, whose steps no one counted (a loop of 9,000 steps cost 10,299), and loop
credits taken there were charged again. An environment initializer's module is an
earlier module too, in one-shot environments as well.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from ptc_compiler import api
from ptc_runtime.bindings import BindingNamespace
from ptc_runtime.context import CancelToken
from ptc_runtime.seam import RunRequest, RunResult, Runtime
from ptc_runtime.state import Environment

# (runs that define, the run that calls): each defining run costs nothing.
SHAPES: dict[str, tuple[tuple[str, ...], str]] = {
    "loop": (("(defn f [n] (loop [i 0 a 0] (if (< i n) (recur (inc i) (+ a i)) a)))",), "(f 9000)"),
    "recursion": (("(defn f [n] (if (= n 0) 0 (+ 1 (f (dec n)))))",), "(f 900)"),
    "fn-recur": (("(defn f [k acc] (if (zero? k) acc (recur (dec k) (+ acc k))))",), "(f 7000 0)"),
    "for": (("(defn f [n] (count (for [i (range n) j [1 2] :when (odd? i)] j)))",), "(f 5000)"),
    "fused-filter": (
        ('(defn f [xs] (count (filter #(= (:k %) "a") xs)))',),
        '(f (vec (for [i (range 9000)] {:k (if (odd? i) "a" "b")})))',
    ),
    "assoc-fields-reduce": (
        ("(defn f [xs] (count (reduce (fn [m x] (assoc m (:k x) (:v x))) {} xs)))",),
        "(f (vec (for [i (range 8000)] {:k (str i) :v i})))",
    ),
    "linear-reduce": (
        (
            "(defn f [n] (reduce (fn [acc x] (-> acc (update-in [:t :x] + x) "
            "(update-in [:t :y] + 1))) {:t {:x 0 :y 0}} (range n)))",
        ),
        "(f 7000)",
    ),
    # a loop of this run holds the chunk while the earlier fn refills it
    "loop-calling-earlier-loop": (
        ("(defn upto [n] (loop [j 0] (if (< j n) (recur (inc j)) j)))",),
        "(loop [i 0 s 0] (if (< i 3000) (recur (inc i) (+ s (upto (mod i 4)))) s))",
    ),
    # three modules: run 2's fn calls run 1's, run 3 calls run 2's
    "two-earlier-modules": (
        (
            "(defn upto [n] (loop [j 0] (if (< j n) (recur (inc j)) j)))",
            "(defn g [n] (reduce + (map (fn [i] (upto (mod i 5))) (range n))))",
        ),
        "(+ (g 2000) (upto 3000))",
    ),
    "closure-in-a-map": (
        ("(def fs {:f (let [d 2] (fn [n] (loop [i 0] (if (< i n) (recur (+ i d)) i))))})",),
        "((:f fs) 12000)",
    ),
    "pmap": (
        ("(defn f [n] (loop [i 0] (if (< i n) (recur (inc i)) i)))",),
        "(reduce + (pmap f [300 400 500]))",
    ),
}


@pytest.fixture(scope="module")
def local() -> Iterator[Runtime]:
    runtime = api.runtime("in-process")
    yield runtime
    runtime.close()


def go(rt: Runtime, program: str, **kw: Any) -> RunResult:
    return rt.run(rt.resolve(RunRequest(program, timeout_ms=None, **kw)))


def in_session(rt: Runtime, defs: tuple[str, ...], call: str, **kw: Any) -> RunResult:
    """Each text in a run of its own, on the line it has in `in_one_run`."""
    owner = object()
    for line, d in enumerate(defs):
        r = go(rt, "\n" * line + d, state_owner=owner, discard_completion=True)
        assert r.error is None and r.steps == 0, r.error
    return go(rt, "\n" * len(defs) + call, state_owner=owner, **kw)


def in_one_run(rt: Runtime, defs: tuple[str, ...], call: str, **kw: Any) -> RunResult:
    return go(rt, "\n".join((*defs, call)), **kw)


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_an_earlier_runs_fn_costs_what_it_costs_in_one_run(local: Runtime, name: str) -> None:
    defs, call = SHAPES[name]
    one = in_one_run(local, defs, call)
    assert one.error is None, one.error
    later = in_session(local, defs, call)
    assert later.error is None, later.error
    assert (later.value, later.steps) == (one.value, one.steps)


@pytest.mark.parametrize("name", sorted(set(SHAPES) - {"pmap"}))
def test_a_budget_stops_an_earlier_runs_fn_at_the_same_step(local: Runtime, name: str) -> None:
    defs, call = SHAPES[name]
    cost = in_one_run(local, defs, call).steps
    enough = in_session(local, defs, call, max_steps=cost)
    assert enough.error is None and enough.steps == cost, enough.error
    for budget in (cost - 1, cost // 2, 49, 50, 51):
        one = in_one_run(local, defs, call, max_steps=budget)
        later = in_session(local, defs, call, max_steps=budget)
        assert one.error is not None and later.error is not None
        assert later.error.code == one.error.code == "step_limit_exceeded"
        assert later.steps == one.steps
        assert (later.error.line, later.error.column) == (one.error.line, one.error.column)


def test_every_run_of_a_session_is_exact(local: Runtime) -> None:
    """Run after run, also after a run stopped by its budget inside the earlier fn."""
    defs, call = SHAPES["loop"]
    cost = in_one_run(local, defs, call).steps
    owner = object()
    go(local, defs[0], state_owner=owner, discard_completion=True)
    for budget in (None, 100, None, cost, 4321, None):
        r = go(local, call, state_owner=owner, max_steps=budget)
        if budget is None or budget >= cost:
            assert r.error is None and r.steps == cost, r.error
        else:
            assert r.error is not None and r.steps == budget + 1, r.error


def ticking(stop_at: int, then: Any) -> tuple[BindingNamespace, ...]:
    """A tool counting its calls that runs `then` at the `stop_at`-th."""
    calls = [0]

    def tick(args: object) -> int:
        calls[0] += 1
        if calls[0] == stop_at:
            then()
        return calls[0]

    return (BindingNamespace("tool", {"tick": tick}),)


TICKS = "(defn f [n] (loop [i 0] (if (< i n) (do (tool/tick {}) (recur (inc i))) i)))"


@pytest.mark.parametrize("stop", ["cancel", "deadline"])
def test_steps_are_exact_when_a_cancel_or_deadline_stops_an_earlier_fn(
    local: Runtime, stop: str
) -> None:
    """The tool stops the run at its 200th call (the next call sees it): the steps
    pulled from the earlier module's chunks up to there are all counted."""

    def attempt(session: bool) -> RunResult:
        token = CancelToken()
        clock = threading.Event()
        kw: dict[str, Any] = {"cancel": token} if stop == "cancel" else {"timeout_ms": 500}
        bindings = ticking(200, token.cancel if stop == "cancel" else lambda: clock.wait(0.6))
        owner = object() if session else None
        run = RunRequest(TICKS, bindings=bindings, state_owner=owner, **kw)
        if session:
            assert local.run(local.resolve(replace(run, discard_completion=True))).error is None
            run = RunRequest("(f 100000)", bindings=bindings, state_owner=owner, **kw)
        else:
            run = RunRequest(TICKS + " (f 100000)", bindings=bindings, **kw)
        return local.run(local.resolve(run))

    one, later = attempt(False), attempt(True)
    assert one.error is not None and later.error is not None
    assert later.error.code == one.error.code == ("abort" if stop == "cancel" else "timeout")
    # cancel: the call, then a recur after each of the 200 calls. deadline: the run stops
    # while the 200th call still waits (a tool call cannot outlast the deadline), so the
    # recur after it never runs
    assert later.steps == one.steps == (201 if stop == "cancel" else 200)


def test_an_initializers_fns_are_exact_in_one_shot_and_session_runs() -> None:
    runtime = api.runtime("in-process")
    runtime.register_environment_initializer(SHAPES["loop"][0][0])
    try:
        one = in_one_run(runtime, (), "(f 9000)")
        assert one.error is None and one.steps == 9001, one.error
        owner = object()
        for _ in range(3):
            r = go(runtime, "(f 9000)", state_owner=owner)
            assert r.error is None and r.steps == 9001, r.error
    finally:
        runtime.close()


def test_isolated_sessions_are_exact() -> None:
    runtime = api.runtime("isolated", pool_size=1)
    try:
        for name in ("loop", "linear-reduce"):
            defs, call = SHAPES[name]
            one = in_one_run(runtime, defs, call)
            later = in_session(runtime, defs, call)
            assert later.error is None and later.steps == one.steps, later.error
    finally:
        runtime.close()


def test_modules_are_held_weakly() -> None:
    """An environment remembers its modules only while their fns live."""
    runtime = api.runtime("in-process")
    try:
        owner = object()
        for program in ("(defn f [] 1)", "(defn f [] 2)", "(+ 1 2)"):  # run 1's f is gone
            assert go(runtime, program, state_owner=owner, discard_completion=True).ok
        gc.collect()
        env: Environment = runtime._owners[id(owner)][1]
        assert go(runtime, "(f)", state_owner=owner).value == 2  # a run drops the dead ones
        live = [ref() for ref in env.modules]
        assert len(live) == 2 and all(p is not None for p in live)  # run 2's and its own
    finally:
        runtime.close()
