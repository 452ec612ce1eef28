"""The step budget (decision 1) as the fuel iterator implements it.

Every loop back-edge (each `recur`), every `for`/`doseq` element, every fn call costs one
step; entering a `loop` costs nothing (its first pass is pulled from the fuel like the
others, and credited back). A literal-fn `map`/`filter`/`reduce` compiled to a loop
costs one step per element, like the fn call it replaces. The counts below are derived
from that rule, and checked three ways: `RunResult.steps` is exact, a budget of
exactly that many steps suffices, one step less fails with kind `timeout`. The programs
are long enough to span several fuel chunks (they start at 50 steps and grow to 1 000),
so refills in the middle of loops, nested loops and calls are covered. Then the same
shapes, made endless, must still stop at the deadline and at a cancellation.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from itertools import repeat
from operator import length_hint
from typing import Any, Literal

import pytest
from timebounds import Clock, assert_prompt  # tests/timebounds.py

from ptc_compiler import api
from ptc_compiler.prelude import Environment
from ptc_runtime.context import CREDITS, FUEL_CHUNK, CancelToken, RunContext, fresh_credit
from ptc_runtime.errors import LimitExceeded
from ptc_runtime.executor import execute
from ptc_runtime.seam import RunRequest, RunResult, Runtime

N = 1_500


@cache
def fib_calls(n: int) -> int:
    return 1 if n < 2 else 1 + fib_calls(n - 1) + fib_calls(n - 2)


def fib(n: int) -> int:
    return n if n < 2 else fib(n - 1) + fib(n - 2)


@dataclass(frozen=True)
class Case:
    source: str
    steps: int  # what the rule says the program costs
    value: Any


CASES: dict[str, Case] = {
    "loop": Case(f"(loop [i 0] (if (< i {N}) (recur (inc i)) i))", N, N),
    # The first loop never recurs (free), the second recurs twice.
    "loop-no-recur": Case(
        "(+ (loop [i 7] (* i 6)) (loop [i 0] (if (< i 2) (recur (inc i)) 0)))", 2, 42
    ),
    "recursive-fn": Case(
        "(defn fib [n] (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2))))) (fib 13)",
        fib_calls(13),
        fib(13),
    ),
    "fn-recur": Case(
        f"(defn f [k acc] (if (zero? k) acc (recur (dec k) (+ acc k)))) (f {N} 0)",
        N + 1,  # the call is the first pass, then N recurs
        N * (N + 1) // 2,
    ),
    "nested-loops": Case(
        f"(loop [i 0 s 0] (if (< i {N}) "
        "(recur (inc i) (+ s (loop [j 0 t 0] (if (< j 3) (recur (inc j) (+ t j)) t)))) s))",
        N + N * 3,  # the inner loop is entered N times: 3 recurs each, its entry free
        3 * N,
    ),
    # An inner loop entered N times running 0-3 recurs (i mod 4): entries are free.
    "nested-loops-0-to-3": Case(
        f"(loop [i 0 s 0] (if (< i {N}) "
        "(recur (inc i) (+ s (loop [j 0] (if (< j (mod i 4)) (recur (inc j)) j)))) s))",
        N + sum(i % 4 for i in range(N)),
        sum(i % 4 for i in range(N)),
    ),
    # Loops with no recur at all, entered N times: the for elements are the only cost.
    "loops-without-recur-in-for": Case(
        f"(count (for [x (range {N})] (loop [a x] (inc a))))",
        N,
        N,
    ),
    "fn-with-loop-called-often": Case(
        "(defn upto [n] (loop [j 0] (if (< j n) (recur (inc j)) j))) "
        f"(reduce + (map (fn [i] (upto (mod i 3))) (range {N})))",
        N + N + sum(i % 3 for i in range(N)),  # the fn literal, upto, the recurs
        sum(i % 3 for i in range(N)),
    ),
    "loop-calling-fn": Case(
        f"(defn sq [x] (* x x)) (loop [i 0 s 0] (if (< i {N}) (recur (inc i) (+ s (sq i))) s))",
        N + N,
        sum(i * i for i in range(N)),
    ),
    "for": Case(f"(count (for [x (range {N}) :when (odd? x)] x))", N, N // 2),
    "nested-for": Case(f"(count (for [x (range {N}) y [1 2 3]] y))", N + 3 * N, 3 * N),
    "doseq": Case(f"(doseq [x (range {N})] x)", N, None),
    "literal-map": Case(f"(count (mapv (fn [x] (* 2 x)) (range {N})))", N, N),
    "literal-filter": Case(f"(count (filter (fn [x] (odd? x)) (range {N})))", N, N // 2),
    "literal-reduce": Case(f"(count (reduce (fn [acc x] (assoc acc x 1)) {{}} (range {N})))", N, N),
    "fn-value-map": Case(f"(let [g (fn [x] (inc x))] (count (map g (range {N}))))", N, N),
    "pmap-loops": Case(
        "(count (pmap (fn [x] (loop [i 0] (if (< i 300) (recur (inc i)) i))) (range 6)))",
        6 * (1 + 300),  # per item: the fn call and 300 recurs
        6,
    ),
}

# The same shapes with no end in sight (each would take minutes or more).
ENDLESS: dict[str, str] = {
    "loop": "(loop [i 0] (recur (inc i)))",
    "recursive-fn": "(defn fib [n] (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2))))) (fib 60)",
    "fn-recur": "(defn f [k] (recur (inc k))) (f 0)",
    "nested-loops": "(loop [i 0] (recur (+ i (loop [j 0] (if (< j 1000) (recur (inc j)) 1)))))",
    "for": "(count (for [x (range 100000) y (range 100000) :when (neg? y)] y))",
    "doseq": "(doseq [x (range 100000) y (range 100000)] y)",
    "literal-map": "(mapv (fn [x] (count (filter (fn [y] (neg? y)) (range 100000)))) "
    "(range 100000))",
    "literal-reduce": "(reduce (fn [acc x] (assoc acc :n (count (filter (fn [y] (neg? y)) "
    "(range 100000))))) {} (range 100000))",
}


@pytest.fixture(scope="module", params=["in-process", "isolated"])
def rt(request: pytest.FixtureRequest) -> Iterator[Runtime]:
    runtime = api.runtime(request.param, pool_size=2)
    yield runtime
    runtime.close()


@pytest.fixture(scope="module")
def local() -> Iterator[Runtime]:
    runtime = api.runtime("in-process")
    yield runtime
    runtime.close()


def go(rt: Runtime, program: str, **kw: Any) -> RunResult:
    return rt.run(rt.resolve(RunRequest(program, **kw)))


@pytest.mark.parametrize("name", sorted(CASES))
def test_steps_are_counted_exactly(local: Runtime, name: str) -> None:
    case = CASES[name]
    r = go(local, case.source, timeout_ms=None)
    assert r.error is None, r.error
    assert r.value == case.value
    assert r.steps == case.steps


def test_a_loop_that_never_recurs_costs_nothing(local: Runtime) -> None:
    r = go(local, "(loop [i 7] (* i 6))", timeout_ms=None, max_steps=1)
    assert r.error is None and r.value == 42, r.error
    assert r.steps == 0


# pmap workers each get the budget left when they start (their steps are summed after):
# the budget is exact only for the program's own thread.
@pytest.mark.parametrize("name", sorted(set(CASES) - {"pmap-loops"}))
def test_budget_of_exactly_the_cost_suffices_one_less_fails(rt: Runtime, name: str) -> None:
    case = CASES[name]
    enough = go(rt, case.source, timeout_ms=None, max_steps=case.steps)
    assert enough.error is None, enough.error
    assert enough.value == case.value
    short = go(rt, case.source, timeout_ms=None, max_steps=case.steps - 1)
    assert short.error is not None and short.error.kind == "timeout", short.error
    assert short.error.code == "step_limit_exceeded"
    assert "step budget" in short.error.message


@pytest.mark.parametrize("name", sorted(ENDLESS))
def test_budget_stops_the_endless_shapes(rt: Runtime, name: str) -> None:
    r = go(rt, ENDLESS[name], timeout_ms=None, max_steps=20_000)
    assert r.error is not None and r.error.kind == "timeout", r.error
    assert r.error.code == "step_limit_exceeded"


@pytest.mark.parametrize("name", sorted(ENDLESS))
def test_deadline_interrupts(local: Runtime, name: str) -> None:
    clock = Clock()
    r = go(local, ENDLESS[name], timeout_ms=100, max_steps=10**15)
    assert r.error is not None and r.error.kind == "timeout", r.error
    assert r.error.code == "timeout"  # the deadline, not the budget
    assert_prompt(clock, 2.0)


@pytest.mark.parametrize("name", sorted(ENDLESS))
def test_cancel_interrupts(local: Runtime, name: str) -> None:
    token = CancelToken()
    timer = threading.Timer(0.1, token.cancel)
    timer.start()
    clock = Clock()
    try:
        r = go(local, ENDLESS[name], timeout_ms=None, max_steps=10**15, cancel=token)
    finally:
        timer.cancel()
    assert r.error is not None and r.error.kind == "abort", r.error
    assert_prompt(clock, 2.0)


def test_deadline_interrupts_slow_passes(local: Runtime) -> None:
    """Each pass allocates: the chunk shrinks, so the deadline is still seen in time."""
    src = "(loop [i 0] (recur (+ i (count (str (range 20000))))))"
    clock = Clock()
    r = go(local, src, timeout_ms=100, max_steps=10**15)
    assert r.error is not None and r.error.code == "timeout", r.error
    assert_prompt(clock, 2.0)


# ---------------------------------------------------------------- RunContext.refill


def pull(fuel: Iterator[None], k: int) -> None:
    for _ in range(k):
        next(fuel)


def ctx_with(max_steps: int) -> tuple[RunContext, Iterator[None], Iterator[None]]:
    ctx = RunContext(max_steps=max_steps, deadline=None)
    return ctx, ctx.first_fuel(), fresh_credit()


def test_refill_charges_pulls_and_the_step_due() -> None:
    ctx, fuel, credit = ctx_with(10_000)
    pull(fuel, 50)  # the whole first chunk
    fresh = ctx.refill(fuel, credit)
    assert ctx.steps_used == 51
    pull(fresh, 7)
    rest = length_hint(fresh)
    pull(fresh, rest)
    ctx.refill(fresh, credit, 0)  # a loop: it takes its step from the next chunk
    assert ctx.steps_used == 51 + 7 + rest


def test_a_refill_of_a_chunk_with_steps_left_goes_on_with_it() -> None:
    """A loop held an older chunk, and a call in its body refilled (or a pmap worker did):
    the module's chunk has steps, so the loop's step (or the check's) comes from it, and
    it is charged once, when it runs out."""
    ctx, fuel, credit = ctx_with(10_000)
    pull(fuel, 50)
    fresh = ctx.refill(fuel, credit)
    pull(fresh, 7)
    assert ctx.refill(fresh, credit, 0) is fresh and ctx.steps_used == 51
    assert ctx.refill(fresh, credit) is fresh and ctx.steps_used == 51  # its step: pulled
    rest = length_hint(fresh)
    pull(fresh, rest)
    ctx.refill(fresh, credit)
    assert ctx.steps_used == 51 + 8 + rest + 1


def test_a_chunk_refilled_already_is_not_charged_again() -> None:
    """A pmap worker read the module's chunk just before another worker's refill of it
    (or stored it back late): its refill goes on with the chunk handed out in its place."""
    ctx, fuel, credit = ctx_with(10_000)
    ctx.shared.live_workers = 2  # refills remember the chunks they replace only then
    pull(fuel, 50)
    fresh = ctx.refill(fuel, credit)
    assert ctx.steps_used == 51
    assert ctx.refill(fuel, credit) is fresh  # the late one: its step comes from `fresh`
    assert ctx.refill(fuel, credit, 0) is fresh
    assert ctx.steps_used == 51
    pull(fresh, length_hint(fresh))
    newer = ctx.refill(fresh, credit)
    size = 100  # the chunk after the first doubles
    assert ctx.steps_used == 51 + size + 1
    pull(newer, length_hint(newer))
    ctx.refill(fuel, credit)  # two refills late: the chain leads to `newer`
    assert ctx.steps_used == 51 + size + 1 + 200 + 1
    ctx.settle(fuel, credit)  # the last chunk, reached from a late one, counts once
    ctx.settle(fuel, credit)
    assert ctx.steps_used == 51 + size + 1 + 200 + 1


def test_refilled_chunks_are_forgotten_when_nothing_refers_to_them() -> None:
    ctx, fuel, credit = ctx_with(10**9)
    ctx.shared.live_workers = 2
    held = fuel
    for _ in range(2000):
        pull(fuel, length_hint(fuel))
        fuel = ctx.refill(fuel, credit)
    assert held is not fuel and len(ctx.fuel_retired) <= 256
    assert ctx.refill(held, credit) is fuel  # the one still held is remembered


def test_refill_gives_back_the_loop_entries_credited_since_the_last_accounting() -> None:
    ctx, fuel, credit = ctx_with(10_000)
    pull(fuel, 50)
    pull(credit, 3)  # three loop entries: their first passes were among the 50 pulls
    fresh = ctx.refill(fuel, credit)
    assert ctx.steps_used == 50 - 3 + 1
    pull(fresh, 10)
    pull(credit, 2)  # the same iterator: only the two new credits count now
    ctx.settle(fresh, credit)
    assert ctx.steps_used == 48 + 10 - 2
    assert length_hint(credit) == CREDITS - 5


def test_credits_are_counted_once_across_runs() -> None:
    """A linked prelude's module keeps its CREDIT across runs: credits one run accounted
    are not given back again to the next run."""
    module_credit = fresh_credit()
    first, fuel1, _ = ctx_with(10_000)
    pull(fuel1, 50)
    pull(module_credit, 4)
    first.refill(fuel1, module_credit)
    assert first.steps_used == 50 - 4 + 1
    second, fuel2, _ = ctx_with(10_000)
    pull(fuel2, 50)
    pull(module_credit, 1)
    second.refill(fuel2, module_credit)
    assert second.steps_used == 50 - 1 + 1


def test_anything_but_a_credit_iterator_credits_nothing() -> None:
    ctx, fuel, _ = ctx_with(10_000)
    pull(fuel, 50)
    ctx.refill(fuel, iter([]))
    assert ctx.steps_used == 51


def test_refill_of_a_chunk_from_elsewhere_assumes_a_full_chunk() -> None:
    ctx, _, credit = ctx_with(10_000)
    other = repeat(None, FUEL_CHUNK)  # e.g. a linked prelude's, handed out between runs
    pull(other, 10)
    ctx.refill(other, credit)
    assert ctx.steps_used == 11


def test_a_loop_needing_a_step_past_the_budget_fails_at_the_refill() -> None:
    ctx, fuel, credit = ctx_with(50)
    pull(fuel, 50)
    with pytest.raises(LimitExceeded) as info:
        ctx.refill(fuel, credit, 0)
    assert info.value.code == "step_limit_exceeded" and info.value.kind == "timeout"


def test_a_loop_entered_at_the_budget_gets_its_free_first_pass() -> None:
    """The pull that found the chunk empty was a loop's first pass (credited): it gets a
    step to pull, and the next pass (a recur) is the one over the budget."""
    ctx, fuel, credit = ctx_with(50)
    pull(fuel, 50)
    pull(credit, 1)
    fresh = ctx.refill(fuel, credit, 0)
    assert ctx.steps_used == 49
    pull(fresh, 1)  # the first pass
    assert list(fresh) == []
    with pytest.raises(LimitExceeded):
        ctx.refill(fresh, credit, 0)  # the recur: step 51


def test_a_check_at_the_budget_gets_an_empty_chunk_then_fails() -> None:
    ctx, fuel, credit = ctx_with(51)
    pull(fuel, 50)
    empty = ctx.refill(fuel, credit)  # the 51st step: still inside the budget
    assert list(empty) == []
    with pytest.raises(LimitExceeded):
        ctx.refill(empty, credit)


def test_settle_counts_the_last_chunk_only_once() -> None:
    ctx, fuel, credit = ctx_with(10_000)
    pull(fuel, 20)
    pull(credit, 4)
    ctx.settle(fuel, credit)
    assert ctx.steps_used == 16
    ctx.settle(fuel, credit)
    ctx.settle(object(), credit)
    assert ctx.steps_used == 16


def test_unguarded_code_is_the_same_program() -> None:
    """`guards=False` (benchmarks) only drops the pulls: same values for every shape."""
    for case in CASES.values():
        bare = api.compile(case.source + " ", guards=False)
        ctx = RunContext(max_steps=10**12, deadline=None)
        out = execute(bare.code, ctx, bare.fn_names)
        assert out.status == "value" and out.value == case.value, out
        assert ctx.steps_used == 0


@pytest.mark.parametrize(
    ("source", "line"),
    [
        ("(def a 1)\n(let [x (loop [i 0]\n  (if (< i 10000) (recur (inc i)) i))] x)", 2),
        ("(def a 1)\n(defn f [n]\n  (if (< n 1) 0 (+ (f (dec n)) (f (dec n)))))\n(f 30)", 2),
        ("(def a 1)\n(count\n  (for [x (range 100000)\n        y (range 1000)] y))", 4),
    ],
)
def test_budget_failure_names_the_line_of_the_loop_or_fn(
    local: Runtime, source: str, line: int
) -> None:
    r = go(local, source, max_steps=5_000, timeout_ms=None)
    assert r.error is not None and r.error.code == "step_limit_exceeded", r.error
    assert r.error.line == line


LIB = """(ns lib "Loops in prelude code." {})
(defn upto {:doc "Counts to n by recur."} [n] (loop [j 0] (if (< j n) (recur (inc j)) j)))
"""


@pytest.mark.parametrize("mode", ["in-process", "isolated"])
def test_prelude_loops_are_charged_without_their_entries(
    mode: Literal["in-process", "isolated"],
) -> None:
    """A prelude module has its own FUEL and CREDIT, shared by the runs calling it: its
    steps are exact to one fuel chunk per run (docs/preludes.md). Run after run, the loop
    entries in it stay free (charging them would add 3,000 steps a run here)."""
    env = Environment([LIB], cache_dir=False, mode=mode, pool_size=1)
    try:
        src = "(reduce + (map (fn [i] (lib/upto 2)) (range 3000)))"
        exact = 3000 + 3000 + 3000 * 2  # the fn literal, each upto call, its two recurs
        for _ in range(3):
            r = env.run(src, timeout_ms=None)
            assert r.error is None and r.value == 6000, r.error
            assert abs(r.steps - exact) <= FUEL_CHUNK, r.steps
    finally:
        env.close()


@pytest.mark.parametrize(
    "shape",
    [
        "(count (for [x (range n)] (* x 2)))",
        "(loop [i 0] (if (< i n) (recur (inc i)) i))",
        "(reduce + (map g (range n)))",
    ],
)
def test_pmap_workers_refilling_one_chunk_count_every_step_once(shape: str) -> None:
    """Workers pull from the module's one `FUEL` and refill it in turns; with the GIL
    switching threads every 10 us, a worker often reads the chunk just before another
    refills it, or stores a chunk back after another worker's refill (steps were off by
    up to thousands in most runs)."""
    n = 20_000
    src = f"(defn g [x] (* x 2)) (reduce + (pmap (fn [n] {shape}) [{n} {n} {n} {n}]))"
    plain = api.run(src.replace("pmap", "map"), timeout_ms=None)
    assert plain.error is None, plain.error
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    try:
        for i in range(4):
            r = api.run(f"{src} ;{i}", timeout_ms=None)
            assert r.error is None and r.value == plain.value, r.error
            assert r.steps == plain.steps
    finally:
        sys.setswitchinterval(interval)
