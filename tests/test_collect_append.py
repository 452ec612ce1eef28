"""Collecting loops (`for`, and `map`/`mapv`/`filter`/`filterv`/`remove` with a literal fn)
add each element with `rt_append(acc, x)` (`emit.collect_item`, `list.append`) instead of
`acc += [x]`: the same values, output, errors (line:column) and steps, an exhausted
budget included."""

from __future__ import annotations

import ast
import contextlib
import random
from collections.abc import Iterator

import pytest

from ptc_compiler import api
from ptc_compiler.lower import emit
from ptc_compiler.lower.ctx import LOAD, store
from tests.outcomes import outcome


def _augmented(acc: str, item: ast.expr) -> ast.stmt:
    """The former collecting statement, `acc += [item]`, as the reference."""
    return ast.AugAssign(store(acc), ast.Add(), ast.List([item], LOAD))


@contextlib.contextmanager
def augmented_collect() -> Iterator[None]:
    saved = emit.collect_item
    emit.collect_item = _augmented
    try:
        yield
    finally:
        emit.collect_item = saved


def _outcome(src: str, max_steps: int) -> str:
    return outcome(src, max_steps=max_steps)


def _both(src: str, max_steps: int) -> tuple[str, str, str]:
    new = _outcome(src + "\n; append", max_steps)
    with augmented_collect():
        old = _outcome(src + "\n; augmented", max_steps)
        old_code = api.compile(src + "\n; augmented").python_source
    assert "rt_append(" not in old_code
    return new, old, api.compile(src + "\n; append").python_source


COLLS = [
    "[1 2 3]",
    "[]",
    "nil",
    "(range 7)",
    '"abc"',
    "{:a 1 :b 2}",
    "#{4 5}",
    "(list 1 nil 3)",
    "[[1 2] [3 4]]",
    '[1 "x" :k nil 2.5]',
    "data/xs",
    "(map inc [1 2])",
    "(inc 4)",
]
BODIES = [
    "x",
    "(inc x)",
    "[x x]",
    "{:v x}",
    "(str x)",
    "(do (println x) x)",
    "nil",
    "(if (number? x) (* x 2) :other)",
    "(count x)",
    "(:a x)",
    "(get x 0)",
]
TESTS = ["(number? x)", "(odd? x)", "(nil? x)", "x", "(= x 2)"]


def _loop(rnd: random.Random, depth: int = 0) -> str:
    coll = rnd.choice(COLLS)
    body = rnd.choice(BODIES)
    if depth < 1 and rnd.random() < 0.25:
        body = _loop(rnd, depth + 1).replace("(fn [x]", "(fn [y]")
    kind = rnd.randrange(7)
    if kind == 0:
        return f"(map (fn [x] {body}) {coll})"
    if kind == 1:
        return f"(mapv (fn [x] {body}) {coll})"
    if kind == 2:
        return f"(filter (fn [x] {rnd.choice(TESTS)}) {coll})"
    if kind == 3:
        return f"(filterv (fn [x] {rnd.choice(TESTS)}) {coll})"
    if kind == 4:
        return f"(remove (fn [x] {rnd.choice(TESTS)}) {coll})"
    clauses = [f"x {coll}"]
    for _ in range(rnd.randrange(3)):
        clause = rnd.choice(
            [
                f":when {rnd.choice(TESTS)}",
                f":while {rnd.choice(TESTS)}",
                ":let [w [x]]",
                f"z {rnd.choice(['[1 2]', '[]', '(range 3)', '[x]'])}",
            ]
        )
        clauses.append(clause)
    return f"(for [{' '.join(clauses)}] {body})"


def _program(rnd: random.Random) -> str:
    loop = _loop(rnd)
    shape = rnd.randrange(4)
    if shape == 0:
        return loop
    if shape == 1:
        return f"(let [r {loop}]\n  (count r))"
    if shape == 2:
        return f"(defn f [a] {loop.replace('data/xs', 'a')})\n(f data/xs)"
    return f"(vec (concat {loop} [:end]))"


@pytest.mark.parametrize("seed", range(6))
def test_random_collecting_loops_agree_with_augmented_assignment(seed: int) -> None:
    rnd = random.Random(seed)
    appended = 0
    for _ in range(60):
        src = _program(rnd)
        src = f"(def xs-unused 0)\n{src}" if rnd.random() < 0.2 else src
        budget = rnd.choice([10_000_000, 3, 5, 8, 13, 21])
        new, old, code = _both(src.replace("data/xs", "[3 nil 4]"), budget)
        assert new == old, src
        appended += "rt_append(" in code
    assert appended > 40


@pytest.mark.parametrize(
    "src",
    [
        "(mapv (fn [x] (* x 2)) [1 2 3])",
        '(map #(str % "!") [1 2])',
        "(filterv (fn [x] (odd? x)) [1 2 3])",
        "(for [x [1 2] y [3 4] :when (odd? y)] [x y])",
        "(let [xs (map (fn [x] (inc x)) [1 2])] xs)",
    ],
)
def test_collecting_loops_append(src: str) -> None:
    code = api.compile(src).python_source
    assert "rt_append(" in code
    assert "+=" not in code


@pytest.mark.parametrize(
    "src",
    [
        "(doseq [x [1 2]] (println x))",
        "(map inc [1 2])",
        "(reduce (fn [acc x] (conj acc x)) [] [1 2])",
    ],
)
def test_loops_that_collect_nothing_or_call_a_builtin_do_not_append(src: str) -> None:
    assert "rt_append(" not in api.compile(src).python_source


def test_error_in_collected_item_keeps_its_position() -> None:
    src = "(mapv (fn [x]\n  (+ x 1)) [1 :a 2])"
    new, old, _ = _both(src, 10_000_000)
    assert new == old
    assert "error" in new and " 2:3:" in new


def test_append_is_list_append() -> None:
    from ptc_runtime.rt import HELPERS

    assert HELPERS["rt_append"] is list.append
