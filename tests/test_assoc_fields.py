"""`(reduce (fn [m x] (assoc m (:k x) (:v x))) {} coll)` (also `(get x :k)`, and `x`
itself as the value) lowers to one `rt_t_assoc_fields` call (`ptc_runtime.fast.transient`):
the same map, errors, positions and step counts as the in-place loop it replaces, an
exhausted budget included."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

import ptc_compiler
from ptc_compiler import optimize, pr_str, run
from ptc_runtime.collections import PMap
from ptc_runtime.values import keyword
from tests.outcomes import outcome

KEYS: list[Any] = [
    "a",
    "b",
    "a-b",
    "a_b",
    "c-d-e",
    keyword("a"),
    keyword("a_b"),
    1,
    1.0,
    True,
    False,
    None,
    0,
    [1],
    {"x": 1},
    math.nan,
    "",
    "_",
]
VALUES: list[Any] = [1, 2.5, None, "s", [1], {"n": 1}, True]
READS = [("(:k x)", "(:v x)"), ("(get x :k)", "(get x :v)"), ("(:k x)", "x"), ("(get x :k)", "x")]


def _item(rnd: random.Random, strings: bool) -> Any:
    r = rnd.random()
    if r < 0.9:
        d: dict[Any, Any] = {}
        if strings:  # tool-shaped: string keys, string values without `_` mostly
            d["k"] = rnd.choice(["a", "b", "c-d", f"s{rnd.randrange(500)}", "x_y", "x-y"])
            d["v"] = rnd.choice(VALUES)
        else:
            for key in rnd.sample(["k", keyword("k"), "v", keyword("v")], rnd.randint(0, 4)):
                d[key] = rnd.choice(KEYS) if key in ("k", keyword("k")) else rnd.choice(VALUES)
        return d if rnd.random() < 0.97 else PMap.from_dict(d)
    return rnd.choice([None, 5, "s", [1, 2], {"x": {"k": "a"}}])


def _program(rnd: random.Random) -> str:
    key, value = rnd.choice(READS)
    coll = rnd.choice(["data/xs"] * 6 + ["data/m", "data/n", "data/str", "7"])
    call = f"(reduce (fn [m x] (assoc m {key} {value}))\n  {{}} {coll})"
    shape = rnd.choice(
        [
            "{}",
            "(count {})",
            "(let [r {}] [r (count r)])",
            "((fn [] {}))",
            "(loop [i 0 a 0] (if (< i 2) (recur (inc i) (+ a (count {}))) a))",
            "(map (fn [j] (count {})) [1 2])",
        ]
    )
    return shape.format(call)


def _outcome(src: str, data: dict[str, Any], max_steps: int) -> str:
    return outcome(src, output=False, data=data, max_steps=max_steps, timeout_ms=None)


@pytest.mark.parametrize("seed", range(6))
def test_fused_assoc_loops_agree_with_the_loop(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    rnd = random.Random(seed)
    for i in range(50):
        strings = rnd.random() < 0.6
        xs = [_item(rnd, strings) for _ in range(rnd.choice([0, 1, 7, 60, 300, 5000, 9000]))]
        data = {"xs": xs, "m": {"k": "a", "v": 1}, "n": None, "str": "sa"}
        src = _program(rnd) + f"\n; {i}"  # a fresh compile per variant (the cache is by text)
        # budgets that run out before, inside (at and around chunk ends) and after the loop
        n = len(xs)
        steps = max(1, rnd.choice([1, 2, 50, n // 3, 4000, 4001, n - 1, n, n + 1, 10**7, 10**7]))
        assert "rt_t_assoc_fields" in ptc_compiler.compile(src).python_source, src
        got = _outcome(src, data, steps)
        with optimize.disabled("assoc-fields"):
            plain_src = src + " "
            code = ptc_compiler.compile(plain_src).python_source
            assert "rt_t_assoc_fields" not in code and "rt_t_assoc1" in code
            want = _outcome(plain_src, data, steps)
        assert got == want, src


@pytest.mark.parametrize(
    "src",
    [
        "(reduce (fn [m x] (assoc m (:a-b x) (:v x))) {} data/xs)",  # `-`: more spellings
        "(reduce (fn [m x] (assoc m (:k x) (:a-b x))) {} data/xs)",
        "(reduce (fn [m x] (assoc m (:k x) (:v x))) {:z 1} data/xs)",  # another start
        "(reduce (fn [m x] (assoc m (:k x) (:v x))) [] data/xs)",
        "(reduce (fn [m x] (assoc m (:k x) (:v x))) data/m data/xs)",
        "(reduce (fn [m x] (assoc m (:k x) (inc (:v x)))) {} data/xs)",
        "(reduce (fn [m x] (assoc m (:k x 1) (:v x))) {} data/xs)",  # a default
        "(reduce (fn [m x] (assoc m (get x :k 1) (:v x))) {} data/xs)",
        '(reduce (fn [m x] (assoc m (get x "k") (:v x))) {} data/xs)',  # a string key
        "(reduce (fn [m x] (assoc m (:k x) (:v x) :z 1)) {} data/xs)",
        "(reduce (fn [m x] (assoc m (:k m) (:v x))) {} data/xs)",
        "(reduce (fn [m x] (assoc m x (:v x))) {} data/xs)",
        "(reduce (fn [m x] (assoc m (:k x) m)) {} data/xs)",
        "(let [y {:k 1}] (reduce (fn [m x] (assoc m (:k y) (:v x))) {} data/xs))",
        "(reduce (fn [m x] (assoc-in m [(:k x)] (:v x))) {} data/xs)",
        "(reduce (fn f [m x] (assoc m (:k x) (:v x))) {} data/xs)",  # named: may recur
        "(reduce (fn [m x] (conj m (:v x))) [] data/xs)",
    ],
)
def test_other_reduces_are_not_fused(src: str) -> None:
    assert "rt_t_assoc_fields" not in ptc_compiler.compile(src).python_source


def test_fused_assoc_values_and_steps() -> None:
    xs = [
        {"k": "a", "v": 1},
        {"k": "b", "v": 2},
        {keyword("k"): "c", "k": "a", "v": 3},
        {"k": "a", "v": 4},
        None,
        {"k": "x_y", "v": 5},
        {"k": "a-b"},
        {"k": "a_b", "v": 6},
    ]
    src = "(reduce (fn [m x] (assoc m (:k x) (:v x))) {} data/xs)"
    assert "rt_t_assoc_fields" in ptc_compiler.compile(src).python_source
    res = run(src, data={"xs": xs}, native=True)
    # the exact keyword wins; a later value keeps the key's place; a `_` name is its own
    # key (only a `-` name has other spellings)
    assert res.ok and res.steps == len(xs), res
    assert pr_str(res.value) == '{"a" 4, "b" 2, "c" 3, nil nil, "x_y" 5, "a-b" nil, "a_b" 6}'
    res = run(src, data={"xs": [{"k": "a_b", "v": 1}, {"k": "a-b", "v": 2}]})
    assert res.ok and pr_str(res.value) == '{"a_b" 2}', res  # `"a-b"` finds `"a_b"`
    data = {"xs": [{"k": "s", "v": {"n": 1}}]}
    res = run("(reduce (fn [m x] (assoc m (:k x) x)) {} data/xs)", data=data)
    assert res.ok and res.value == {"s": {"k": "s", "v": {"n": 1}}}
    assert data == {"xs": [{"k": "s", "v": {"n": 1}}]}  # host data never written


def test_fused_assoc_inside_pmap() -> None:
    src = (
        "(pmap (fn [c] (count (reduce (fn [m x] (assoc m (:k x) (:v x))) {} c)))"
        " [data/xs data/xs data/xs data/xs])"
    )
    xs = [{"k": f"s{i % 3000}", "v": i} for i in range(9000)]
    assert "rt_t_assoc_fields" in ptc_compiler.compile(src).python_source
    res = run(src, data={"xs": xs}, timeout_ms=None)
    assert res.ok and res.value == [3000] * 4, res
