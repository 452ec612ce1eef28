"""Where an in-place reduce (`rules_reduce.linear_reduce`) fails: where the plain reduce does.

The plain `(reduce (fn [acc x] ...) init coll)` calls the fn per element, whose entry step
runs the budget out at the fn; a collection that is not one fails at the `reduce`. The
in-place loop and the fused assoc-fields reduce (`rt_t_assoc_fields`) must report the
same line:column and step count (they placed the budget at the `reduce` before).
"""

from __future__ import annotations

from typing import Any

import pytest

import ptc_compiler
from ptc_compiler import optimize, run

BODIES = {
    "assoc": ("{}", "(assoc acc x 1)"),
    "conj": ("[]", "(conj acc x)"),
    "assoc-in": ("{}", "(assoc-in acc [:a (str x)] x)"),
    "fused-update-ins": (
        "{:t {:x 0 :y 0}}",
        "(-> acc (update-in [:t :x] + x) (update-in [:t :y] + 2))",
    ),
    "assoc-fields": ("{}", "(assoc acc (:k x) (:v x))"),
    "update-fields": (
        "{:t {:n 0} :u 0}",
        "(-> acc (update-in [:t :n] inc) (update-in [:u] + (:v x)))",
    ),
}
#: The bodies run by one runtime call over the elements (and its helper).
WHOLE = {"assoc-fields": "rt_t_assoc_fields", "update-fields": "rt_t_update_fields"}


def program(name: str) -> str:
    init, body = BODIES[name]
    # the fn on its own line and column, away from the reduce's
    return f"(count\n  (reduce\n     (fn [acc x]\n       {body})\n     {init} data/xs))"


def outcome(src: str, xs: object, budget: int) -> tuple[Any, ...]:
    r = run(src, data={"xs": xs}, max_steps=budget, timeout_ms=None)
    if r.error is None:
        return ("ok", r.value, r.steps)
    return (r.error.code, r.error.line, r.error.column, r.error.message, r.steps)


ITEMS = [{"k": str(i), "v": i} for i in range(300)]


@pytest.mark.parametrize("name", sorted(BODIES))
def test_the_budget_runs_out_at_the_fn(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    src = program(name)
    code = ptc_compiler.compile(src).python_source
    for body, helper in WHOLE.items():
        assert (helper in code) == (name == body)
    assert "rt_t_begin" in code or name in WHOLE
    xs = ITEMS if name in WHOLE else list(range(300))
    got = [outcome(src, xs, b) for b in (1, 49, 50, 51, 299)]
    for g in got:
        assert g[:3] == ("step_limit_exceeded", 3, 6), g  # the `(fn`
    with optimize.disabled("linear-reduce"):
        plain_src = src + " "
        assert "rt_t_begin" not in ptc_compiler.compile(plain_src).python_source
        want = [outcome(plain_src, xs, b) for b in (1, 49, 50, 51, 299)]
    assert got == want


@pytest.mark.parametrize("name", sorted(BODIES))
@pytest.mark.parametrize("xs", [5, True, "ab", None, {"a": 1}])
def test_a_collection_fails_at_the_reduce(
    name: str, xs: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    src = program(name)
    got = outcome(src, xs, 10**6)
    with optimize.disabled("linear-reduce"):
        want = outcome(src + " ", xs, 10**6)
    assert got == want
    if got[0] == "type_error" and "reduce" in got[3]:
        assert got[1:3] == (2, 3)  # the `(reduce`
