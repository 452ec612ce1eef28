"""A field filter read only by a group-by without groups groups as it filters
(`rt_filter_groups`, `fast.filtered_groups`; the lowering rule
`rules_sequences.filter_groups`): where the rule applies, where it must not, where the
runtime groups in the filter's pass and where it hands on the vector, and a randomized
differential against the rule switched off and against every group-by rule switched off:
values, errors with line:column, output and steps (exhausted budgets included)."""

from __future__ import annotations

import random
import sys
from typing import Any

import pytest

import ptc_compiler
from ptc_compiler import optimize
from ptc_runtime import context
from ptc_runtime.builtins import grouped, keyed, sequences
from ptc_runtime.errors import PtcError
from ptc_runtime.fast import filtered_groups
from ptc_runtime.values import keyword
from tests.outcomes import outcome
from tests.test_field_filter import _pull_like_a_worker as pull_like_a_worker

SUMS = """(->> data/xs (filter #(= (:s %) "a")) (group-by :g)
  (map (fn [[g vs]] [g (reduce + (map :v vs))])))"""
#: the group counted too: [sum, count] pairs (`rt_filter_sum_counts`)
SUM_COUNTS = SUMS.replace("[g (reduce", "[g (count vs) (reduce")
#: the column itself: columns (`rt_filter_groups`)
COLUMNS = SUMS.replace("(reduce + (map :v vs))", "(count vs) (mapv :v vs)")


def _source(src: str) -> str:
    return ptc_compiler.compile(src).python_source


@pytest.mark.parametrize(
    "src",
    [
        SUMS,
        '(->> data/xs (filterv #(= "a" (get % :s))) (group-by :g) (mapv (fn [[g vs]] (count vs))))',
        '(->> data/xs (remove (fn [x] (not= (:s x) "a"))) (group-by :g) (map (fn [[_ vs]] (map :v vs))))',
        '(update-vals (group-by :g (filter #(= (:s %) "a") data/xs)) count)',
        '(map (fn [vs] (sum-by :v vs)) (vals (group-by :g (filter #(= (:s %) "a") data/xs))))',
        '(for [[g vs] (group-by :g (filter #(not= (:s %) "") data/xs))] [g (count vs)])',
        '(map (fn [[g vs]] (:v (first vs))) (group-by :g-h (filter #(= (:s %) "a") data/xs)))',
    ],
)
def test_the_rule_applies(src: str) -> None:
    code = _source(src)
    assert any(f"rt_filter_{h}(" in code for h in ("groups", "sums", "sum_counts"))
    assert "rt_filter_field" not in code


@pytest.mark.parametrize(
    "src",
    [
        # a key fn that is no keyword, several fields, the groups themselves read
        '(->> data/xs (filter #(= (:s %) "a")) (group-by #(:g %)) (map (fn [[g vs]] (count vs))))',
        '(->> data/xs (filter #(= (:s %) "a")) (group-by "g") (map (fn [[g vs]] (count vs))))',
        '(->> data/xs (filter #(= (:s %) "a")) (group-by :g) (map (fn [[g vs]] [(map :v vs) (map :w vs)])))',
        '(->> data/xs (filter #(= (:s %) "a")) (group-by :g) (map (fn [[g vs]] [vs (map :v vs)])))',
        '(->> data/xs (filter #(= (:s %) "a")) (group-by :g))',
        '(->> data/xs (filter #(= (:s %) "a")) (group-by :g) (map (fn [[g vs]] (map "v" vs))))',
        # a literal that is no string, a test that is no field test
        "(->> data/xs (filter #(= (:s %) nil)) (group-by :g) (map (fn [[g vs]] (count vs))))",
        "(->> data/xs (filter #(= (:s %) :a)) (group-by :g) (map (fn [[g vs]] (count vs))))",
        "(->> data/xs (filter #(= (:s %) true)) (group-by :g) (map (fn [[g vs]] (count vs))))",
        '(->> data/xs (filter #(= (:a-b %) "a")) (group-by :g) (map (fn [[g vs]] (count vs))))',
        "(->> data/xs (filter :s) (group-by :g) (map (fn [[g vs]] (count vs))))",
        # the filter's vector read by anything else
        '(let [xs (filter #(= (:s %) "a") data/xs)] [xs (map (fn [[g vs]] (count vs)) (group-by :g xs))])',
    ],
)
def test_the_rule_does_not_apply(src: str) -> None:
    code = _source(src)
    assert not any(f"rt_filter_{h}(" in code for h in ("groups", "sums", "sum_counts"))


def _records(n: int, **extra: Any) -> list[dict[str, Any]]:
    xs: list[dict[str, Any]] = []
    for i in range(n):
        x: dict[str, Any] = {"g": f"g{i % 7}", "s": "ab"[i % 3 % 2], "v": i * 0.5}
        x.update(extra)
        xs.append(x)
    return xs


@pytest.mark.parametrize("src", [SUMS, SUM_COUNTS, COLUMNS])
@pytest.mark.parametrize(
    ("change", "in_one_pass"),
    [
        (None, True),
        ("no key", False),  # a kept map without "g": the general grouping (nil's group)
        ("no field", False),  # without "v": nil in its column
        ("unhashable", False),  # a vector key: group-by's own way
        ("one", False),  # 1 next to a boolean key would join it in a dict
        ("skipped", True),  # a map the filter drops may lack them
        ("boolean", "columns"),  # a boolean value: a column holds it, a sum may not
        ("not records", False),  # an item that is no map: no record list
    ],
)
def test_groups_in_the_filters_pass(
    src: str, change: str | None, in_one_pass: bool | str, monkeypatch: pytest.MonkeyPatch
) -> None:
    xs: list[Any] = _records(3000)
    if change == "no key":
        del xs[1233]["g"]
    elif change == "no field":
        del xs[2000]["v"]
    elif change == "unhashable":
        xs[1500]["g"] = [1]
    elif change == "one":
        xs[30]["g"], xs[33]["g"] = 1, True
    elif change == "skipped":
        xs[31] = {"s": "b"}
    elif change == "boolean":
        xs[33]["v"] = True
    elif change == "not records":
        xs[2999] = None
    made = _made(monkeypatch)
    got = outcome(src, data={"xs": xs}, timeout_ms=None)
    # +'s error for nil or a boolean in a sum
    assert ("ok" in got) is (src is COLUMNS or change not in ("no field", "boolean"))
    if in_one_pass == "columns":
        in_one_pass = src is COLUMNS
    assert bool(made) is in_one_pass
    assert all(p.summed == {SUMS: 1, SUM_COUNTS: 2, COLUMNS: 0}[src] for p in made)
    with optimize.disabled("filter-groups"):
        assert got == outcome(src + " ", data={"xs": xs}, timeout_ms=None)


def _made(monkeypatch: pytest.MonkeyPatch) -> list[grouped.Prefiltered]:
    """The `Prefiltered` stand-ins the filters make from now on (in the list returned)."""
    made: list[grouped.Prefiltered] = []

    def prefiltered(*args: Any) -> grouped.Prefiltered:
        made.append(grouped.Prefiltered(*args))
        return made[-1]

    monkeypatch.setattr(filtered_groups, "Prefiltered", prefiltered)
    return made


@pytest.mark.parametrize("program", [SUMS, SUM_COUNTS, COLUMNS])
@pytest.mark.parametrize("budget", [1, 2, 999, 1000, 1001, 2999, 3000, 3001, 3004, 3007, 3008])
def test_a_step_fails_where_it_would(
    program: str, budget: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One step per element, from the same chunks: an exhausted budget fails at the same
    element (at the filter's collection), or at the same group of the `map` after it."""
    data = {"xs": _records(3000)}
    src = program.replace("(->>", "(->>\n")
    assert any(f"rt_filter_{h}(" in _source(src) for h in ("groups", "sums", "sum_counts"))
    got = outcome(src, data=data, max_steps=budget, timeout_ms=None)
    with optimize.disabled("filter-groups"):
        assert got == outcome(src + " ", data=data, max_steps=budget, timeout_ms=None)


@pytest.mark.parametrize(
    ("src", "splits"), [(SUMS, "_SUMS"), (SUM_COUNTS, "_SUM_COUNTS"), (COLUMNS, "_COLUMNS")]
)
@pytest.mark.parametrize("worker_steps", [1, 3000, 9000])
def test_a_chunk_refilled_by_another_worker_meanwhile(
    src: str, splits: str, worker_steps: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As `filter_field` (`tests/test_field_filter.py`): a pmap worker using up and
    refilling the module's chunk while the filter groups a part; every step counted once."""
    xs = _records(20_000)
    plain = ptc_compiler.run(src, data={"xs": xs}, timeout_ms=None)
    calls = 0
    split = getattr(filtered_groups, splits)[True]

    def interleaved(*args: Any) -> None:
        nonlocal calls
        calls += 1
        if calls == 1:  # the generated code's frame (filter_groups' caller)
            frame = sys._getframe(1)
            while "CREDIT" not in frame.f_globals:
                frame = frame.f_back  # type: ignore[assignment]
            pull_like_a_worker(frame.f_globals, worker_steps)
        split(*args)

    monkeypatch.setitem(getattr(filtered_groups, splits), True, interleaved)
    got = ptc_compiler.run(src + "\n; a worker", data={"xs": xs}, timeout_ms=None)
    assert calls > 1
    assert got.ok and got.value == plain.value
    assert got.steps == plain.steps + worker_steps


def test_another_key_or_field_gets_the_vector() -> None:
    """A `Prefiltered` read for another key fn or fields (the lowering never does so)
    hands its vector to the general grouping."""
    g, h, v = keyword("g"), keyword("h"), keyword("v")
    xs: list[object] = [{"g": 1, "h": "x", "s": "a", "v": 2}, {"g": 2, "h": "y", "s": "b", "v": 3}]
    pre = grouped.Prefiltered({1: [2]}, g, (v,), lambda: xs)
    assert grouped.group_columns(g, pre, v) == [[1, [2]]]
    assert grouped.group_columns(h, pre, v) == [["x", [2]], ["y", [3]]]
    assert grouped.group_columns(g, pre) == [[1, 1], [2, 1]]
    assert grouped.group_counts(g, pre) == {1: 1, 2: 1}
    assert grouped.group_vals(g, pre, v) == [[2]]


def test_outside_a_run() -> None:
    with pytest.raises(PtcError):
        context.current()
    xs = [{"g": 1, "s": "a", "v": 2}, {"g": 2, "s": "b", "v": 3}]
    fuel = iter([None] * 5)
    left, got = filtered_groups.filter_groups(
        xs, keyword("s"), "s", "a", True, fuel, iter(()), keyword("g"), keyword("v")
    )
    assert got == [xs[0]] and len(list(left)) == 3


# ---------------------------------------------------------------- differential

BODIES = [
    "[k (reduce + (map :v vs))]",
    "{:k k :n (count vs)}",
    "(count vs)",
    "[k (sum-by :v vs)]",
    "(do (println k) (mapv :v vs))",
    "[k (:v (first vs))]",
    "[k (reduce + (map #(:v %) vs))]",
]
TESTS = ['(= (:s %) "a")', '(not= (:s %) "a")', '(= "" (get % :s))', '(= (:s %) "b")']


def _program(rnd: random.Random) -> str:
    kf = rnd.choice([":g", ":g", ":h", ":v"])
    hof = rnd.choice(["filter", "filterv", "remove"])
    xs = f"({hof} #{rnd.choice(TESTS)}\n  {rnd.choice(['data/xs', 'data/xs', 'data/n'])})"
    body = rnd.choice(BODIES)
    shape = rnd.choice(["map", "map", "for", "vals", "counts", "pmap"])
    if shape == "counts":
        return f"(update-vals (group-by {kf} {xs}) count)"
    if shape == "vals":
        body = rnd.choice(["(count vs)", "(sum-by :v vs)", "(reduce + (map :v vs))"])
        return f"(map (fn [vs]\n {body})\n (vals (group-by {kf} {xs})))"
    if shape == "for":
        return f"(for [[k vs] (group-by {kf} {xs})]\n {body})"
    form = f"(map (fn [[k vs]]\n {body})\n (group-by {kf} {xs}))"
    if shape == "pmap":
        return f"(pmap (fn [i] (count {form})) [1 2 3])"
    return form


def _data(rnd: random.Random) -> dict[str, Any]:
    n = rnd.choice([0, 5, 40, 700, 4500])
    values: list[Any] = rnd.choice([[1, 2.5, -0.0], [0.1, 1e16, 1e308], [1, None, "s", True]])
    keys: list[Any] = rnd.choice([["a", "b", None, 2.5], [1, True, "a"], [0.0, "x"], [[1], "a"]])
    missing = rnd.choice([0.0, 0.0, 0.0, 0.001, 0.05])
    xs: list[Any] = []
    for _ in range(n):
        x: dict[str, Any] = {"g": f"g{rnd.randrange(rnd.choice([1, 9, 300]))}"}
        for name, pool in (("s", ["a", "b", "", None, 1, ["a"]]), ("h", keys), ("v", values)):
            if rnd.random() >= missing:
                x[name] = rnd.choice(pool)
        xs.append(x)
    if xs and rnd.random() < 0.3:  # one odd value among plain ones
        x = xs[rnd.randrange(len(xs))]
        x["v"] = rnd.choice([True, False, None, "s", [1], 10**400, {}])
    if xs and rnd.random() < 0.05:
        xs[rnd.randrange(len(xs))] = rnd.choice([None, "s", {"g": keyword("g")}])
    return {"xs": xs, "n": rnd.choice([None, 5, "ab", [1]])}


@pytest.mark.parametrize("seed", range(8))
def test_agrees_with_the_rule_off(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    rnd = random.Random(seed)
    applied = 0
    made = _made(monkeypatch)
    for i in range(30):
        src = _program(rnd) + f"\n; {seed}/{i}"
        data = _data(rnd)
        n = len(data["xs"])
        budget = rnd.choice([10**7, 10**7, rnd.randint(1, n + 9), n + rnd.randint(1, 40)])
        code = _source(src)
        applied += any(f"rt_filter_{h}(" in code for h in ("groups", "sums", "sum_counts"))
        got = outcome(src, data=data, max_steps=budget, timeout_ms=None)
        steps = "pmap" not in src  # a failing pmap's other workers stop anywhere
        with optimize.disabled("filter-groups"):
            plain = src + " "
            assert "rt_filter_field(" in _source(plain) or "rt_filter_" not in _source(plain)
            want = outcome(plain, data=data, max_steps=budget, timeout_ms=None, steps=steps)
        if not steps:
            got = outcome(src, data=data, max_steps=budget, timeout_ms=None, steps=False)
        assert got == want, src
        with monkeypatch.context() as m, optimize.disabled("group-columns", "group-counts", "group-by-field"):  # every group-by rule off: groups built
            m.setattr(sequences, "pluck", keyed.pluck)
            plain = src + "  "
            want = outcome(plain, data=data, max_steps=budget, timeout_ms=None, steps=steps)
        assert got == want, src
    assert applied >= 20
    assert len(made) >= 3
