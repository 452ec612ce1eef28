"""`(filter #(= (:k %) "lit") coll)` and its variants lower to one `rt_filter_field` call
(`ptc_runtime.fieldfilter`): the same elements, errors, positions and step counts as the
`for` loop they replace, an exhausted budget included."""

from __future__ import annotations

import random
import sys
from typing import Any

import pytest

import ptc_compiler
from ptc_compiler import optimize
from ptc_runtime import context, fieldfilter
from ptc_runtime.collections import PMap
from ptc_runtime.values import keyword
from tests.outcomes import outcome


def run(source: str, **options: Any) -> ptc_compiler.RunResult:
    """`ptc_compiler.run` asking for the PTC value: these tests check PTC semantics."""
    options.setdefault("native", True)
    return ptc_compiler.run(source, **options)


HOFS = ["filter", "filterv", "remove"]
LITERALS = ['"a"', '"b"', ":a", "nil", "true", "false"]
READS = ["(:s %)", "(get % :s)", "(:s x)", "(get x :s)"]
VALUES: list[Any] = ["a", "b", None, True, False, keyword("a"), 1, [1], "A"]


def _item(rnd: random.Random) -> Any:
    r = rnd.random()
    if r < 0.75:
        d: dict[Any, Any] = {}
        for key in rnd.sample(["s", keyword("s"), "t"], rnd.randint(0, 2)):
            d[key] = rnd.choice(VALUES)
        return d if rnd.random() < 0.95 else PMap.from_dict(d)
    return rnd.choice([None, 5, "s", [1, 2], {"x": {"s": "a"}}])


def _program(rnd: random.Random) -> str:
    hof = rnd.choice(HOFS)
    read = rnd.choice(READS)
    lit = rnd.choice(LITERALS)
    op = rnd.choice(["=", "not="])
    test = f"({op} {read} {lit})" if rnd.random() < 0.7 else f"({op} {lit} {read})"
    fn = f"#{test}" if "%" in read else f"(fn [x] {test})"
    coll = rnd.choice(["data/xs"] * 6 + ["data/m", "data/n", "data/str", "(:xs data/w)"])
    call = f"({hof} {fn}\n  {coll})"
    shape = rnd.choice(
        [
            "{}",
            "(count {})",
            "(let [r {}] [r (count r)])",
            "((fn [] {}))",
            # inside a fuel-driven loop, which holds the chunk the filter pulls from
            "(loop [i 0 a 0] (if (< i 3) (recur (inc i) (+ a (count {}))) a))",
            "(map (fn [j] (count {})) [1 2])",
        ]
    )
    return shape.format(call)


def _outcome(src: str, data: dict[str, Any], max_steps: int) -> str:
    return outcome(src, output=False, data=data, max_steps=max_steps, timeout_ms=None)


@pytest.mark.parametrize("seed", range(6))
def test_fused_filters_agree_with_the_loop(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    rnd = random.Random(seed)
    for i in range(60):
        xs = [_item(rnd) for _ in range(rnd.choice([0, 1, 7, 60, 300, 5000]))]
        data = {"xs": xs, "m": {"s": "a", "t": 1}, "n": None, "str": "sa", "w": {"xs": xs}}
        src = _program(rnd) + f"\n; {i}"  # a fresh compile per variant (the cache is by text)
        # budgets that run out before, inside (at and around chunk ends) and after the filter
        n = len(xs)
        steps = max(1, rnd.choice([1, 2, 50, 51, n // 3, n - 1, n, n + 1, n + 2, 10**7, 10**7]))
        assert "rt_filter_field" in ptc_compiler.compile(src).python_source, src
        got = _outcome(src, data, steps)
        with optimize.disabled("field-filter"):
            plain_src = src + " "
            assert "rt_filter_field" not in ptc_compiler.compile(plain_src).python_source
            want = _outcome(plain_src, data, steps)
        assert got == want, src


@pytest.mark.parametrize(
    "src",
    [
        '(filter #(= (:a-b %) "x") data/xs)',  # a `-` name has more spellings
        "(filter #(= (:a %) 1) data/xs)",  # a number: 1 = 1.0
        "(filter #(= (:a %) (:b %)) data/xs)",
        '(filter #(= (:a % "d") "x") data/xs)',  # a default
        '(filter #(= (get % :a "d") "x") data/xs)',
        '(filter #(= (:a (:b %)) "x") data/xs)',
        '(filter #(= (get % "a") "x") data/xs)',  # a string key
        '(filter #(= (:a %1) "x" %2) data/xs)',
        '(filter (fn f [x] (= (:a x) "x")) data/xs)',  # named: may recur
        '(filter (fn [x y] (= (:a x) "x")) data/xs)',
        '(filter #(== (:a %) "x") data/xs)',
        '(filter #(not (= (:a %) "x")) data/xs)',
        '(filter #(= (:a %) "x" "x") data/xs)',
        '(map #(= (:a %) "x") data/xs)',
        '(let [y {:a "x"}] (filter (fn [x] (= (:a y) "x")) data/xs))',
    ],
)
def test_other_filters_keep_the_loop(src: str) -> None:
    assert "rt_filter_field" not in ptc_compiler.compile(src).python_source


@pytest.mark.parametrize(
    ("src", "want"),
    [
        ('(filter #(= (:s %) "a") data/xs)', [{"s": "a"}, {keyword("s"): "a", "s": "b"}]),
        ('(remove #(= "a" (:s %)) data/xs)', [{"s": "b"}, None]),
        (
            "(filterv #(not= (get % :s) nil) data/xs)",
            [{"s": "a"}, {"s": "b"}, {keyword("s"): "a", "s": "b"}],
        ),
    ],
)
def test_field_filter_values(src: str, want: list[Any]) -> None:
    xs = [{"s": "a"}, {"s": "b"}, {keyword("s"): "a", "s": "b"}, None]
    assert "rt_filter_field" in ptc_compiler.compile(src).python_source
    res = run(src, data={"xs": xs})
    assert res.ok and res.value == want and res.steps == 4


def _pull_like_a_worker(module: dict[str, Any], steps: int) -> None:
    """What a pmap worker's element checks do to the module's `FUEL` (pull, refill)."""
    ctx = context.current()
    for _ in range(steps):
        for _t in module["FUEL"]:
            break
        else:
            module["FUEL"] = ctx.refill(module["FUEL"], module["CREDIT"])


@pytest.mark.parametrize("worker_steps", [1, 3000, 9000])
def test_a_chunk_refilled_by_another_worker_meanwhile(
    worker_steps: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # pmap workers pull from the module's one `FUEL`: while the filter tests elements, a
    # worker may use up and refill the chunk the filter was given. Then the filter goes on
    # with the module's new chunk, as the loop's next pull would (the old one is already
    # accounted): every step is counted once.
    xs = [{"s": "a" if i % 3 else "b"} for i in range(20_000)]
    src = '(count (filter (fn [x] (= (:s x) "a")) data/xs))'
    assert "rt_filter_field" in ptc_compiler.compile(src).python_source
    plain = run(src, data={"xs": xs}, timeout_ms=None)
    calls = 0

    def interleaved(matching: Any) -> Any:
        def test(*args: Any) -> list[object]:
            nonlocal calls
            calls += 1
            if calls == 1:  # the generated code's frame (filter_field's caller)
                frame = sys._getframe(1)
                while "CREDIT" not in frame.f_globals:
                    frame = frame.f_back  # type: ignore[assignment]
                _pull_like_a_worker(frame.f_globals, worker_steps)
            return matching(*args)  # type: ignore[no-any-return]

        return test

    # either test: `xs` is a record list (`ptc_runtime.records`)
    for name in ("_matching", "matching_records"):
        monkeypatch.setattr(fieldfilter, name, interleaved(getattr(fieldfilter, name)))
    got = run(src + " ", data={"xs": xs}, timeout_ms=None)
    assert calls > 1
    assert got.ok and got.value == plain.value
    assert got.steps == plain.steps + worker_steps
