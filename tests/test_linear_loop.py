"""`linear-loop`: a map threaded through a `loop`'s recurs by `update-in`/`assoc-in`/...
is updated in place, with exactly the results, errors, output and steps of the general
lowering (`optimize=False`), and only when the value cannot be seen after an update."""

from __future__ import annotations

import random

import pytest

import ptc_compiler
from benchmarks.workloads import BY_NAME, QUICK_SIZES, make_data
from fuzz.strategies.fastpaths import Gen, host_items
from ptc_compiler import optimize
from tests.outcomes import outcome

NESTED = BY_NAME["loop_nested_update"].ptc


def _in_place(src: str) -> bool:
    return "rt_t_begin()" in ptc_compiler.compile(src).python_source


def test_the_benchmark_loop_updates_in_place() -> None:
    assert _in_place(NESTED)
    data = make_data(QUICK_SIZES)["loop_nested_update"]
    fast = ptc_compiler.run(NESTED, data=data, timeout_ms=None)
    plain = ptc_compiler.run(NESTED, data=data, timeout_ms=None, optimize=False)
    assert fast.ok and (fast.value, fast.steps) == (plain.value, plain.steps)
    assert fast.value == BY_NAME["loop_nested_update"].python(data)


@pytest.mark.parametrize(
    "src",
    [
        # kept beside its update: both must be seen as they were
        "(loop [i 0 st {}] (if (< i 3) (recur (inc i) [st (assoc st :a i)]) st))",
        # read by another recur argument, after the update would have run
        "(loop [i 0 st {} n 0] (if (< i 3) (recur (inc i) (assoc st :a i) (count st)) [st n]))",
        # captured by a fn
        "(loop [i 0 st {} f nil] (if (< i 3) (recur (inc i) (assoc st :a i) (fn [] st)) (f)))",
        # shadowed in the body
        "(loop [i 0 st {}] (if (< i 3) (let [st {:b 1}] (recur (inc i) (assoc st :a i))) st))",
        # escaping in the loop's value
        "(loop [i 0 st {}] (if (< i 3) (recur (inc i) (assoc st :a i)) [st st]))",
    ],
)
def test_a_value_that_may_be_seen_again_is_left_persistent(src: str) -> None:
    assert not _in_place(src)


def test_a_shared_start_value_is_copied_not_changed() -> None:
    src = "(let [m {:a {:n 1}} r (loop [i 0 st m] (if (< i 3) (recur (inc i) (update-in st [:a :n] inc)) st))] [m r])"
    assert _in_place(src)
    res = ptc_compiler.run(src)
    assert res.ok and res.value == [{"a": {"n": 1}}, {"a": {"n": 4}}]
    data = {"m": {"a": {"n": 1}}}
    res = ptc_compiler.run("(loop [i 0 st data/m] (if (< i 2) (recur (inc i) (assoc-in st [:a :n] i)) st))", data=data)
    assert res.ok and res.value == {"a": {"n": 1}} and data == {"m": {"a": {"n": 1}}}


def test_parts_read_out_stay_as_they_were() -> None:
    src = "(loop [i 0 st {:a {:n 0}} seen []] (if (< i 3) (recur (inc i) (update-in st [:a :n] inc) (conj seen (get st :a))) [st seen]))"
    # `seen` reads `st` in another recur argument: left persistent
    assert not _in_place(src)
    src = "(loop [i 0 st {:a {:n 0}}] (if (< i 3) (let [a (get st :a)] (println (:n a)) (recur (inc i) (update-in st [:a :n] inc))) st))"
    assert _in_place(src)
    res = ptc_compiler.run(src)
    assert res.ok and res.value == {"a": {"n": 3}} and res.output == "0\n1\n2\n"


@pytest.mark.parametrize("seed", range(4))
def test_random_loops_agree_with_the_general_lowering(seed: int) -> None:
    rnd = random.Random(seed)
    before = optimize.fired().get("linear-loop", 0)
    for i in range(30):
        src = Gen(rnd).loop_updates() + f"\n; {seed}/{i}"
        data = {"xs": host_items(rnd, rnd.choice([0, 3, 20])), "m": {"t": {"a": {}}, "a": 1}}
        budget = rnd.choice([10**6, rnd.randint(1, 60)])
        got = outcome(src, data=data, max_steps=budget, timeout_ms=None)
        with optimize.disabled("linear-loop"):
            want = outcome(src + " ", data=data, max_steps=budget, timeout_ms=None)
        assert got == want, src
    assert optimize.fired().get("linear-loop", 0) > before
