"""`(frequencies (mapcat f colls...))` counts each part as `f` returns it
(`aggregation.frequencies_mapcat`, lowered by `rules_sequences.frequencies_of_mapcat`): the same
values, errors (line:column), output and steps as the two builtins one after the other."""

from __future__ import annotations

import contextlib
import math
import random
from collections.abc import Iterator

import pytest

from ptc_compiler import api, optimize
from ptc_runtime.builtins.aggregation import frequencies, frequencies_mapcat
from ptc_runtime.builtins.higher_order import mapcat
from ptc_runtime.collections import PVec, from_key
from ptc_runtime.errors import PtcError
from ptc_runtime.printer import pr_str as print_value
from tests.outcomes import outcome


@contextlib.contextmanager
def unfused() -> Iterator[None]:
    with optimize.disabled("frequencies-of-mapcat"):
        yield


def _both(src: str) -> tuple[str, str, str]:
    fused_src = src + "\n; fused"
    fused = outcome(fused_src, max_steps=100_000)
    with unfused():
        plain_src = src + "\n; plain"
        api.compile(plain_src)  # compiled (and cached) without the rule
        plain = outcome(plain_src, max_steps=100_000)
    return fused, plain, api.compile(fused_src).python_source


ATOMS = [
    *('"a"', '"b"', '""', "0", "1", "2", "1.0", "0.0", "-0.0", "2.5", "true", "false"),
    *("nil", ":k", "##NaN", "[1]", "[1.0]", "{:a 1}", "#{1}"),
]


def _part(rnd: random.Random) -> str:
    """What the fn returns for one element: mostly a collection, sometimes not one."""
    pick = rnd.randrange(5)
    if pick == 0:
        return "[" + " ".join(rnd.choice(ATOMS) for _ in range(rnd.randint(0, 4))) + "]"
    if pick == 1:
        return '"' + rnd.choice(["ab", "", "aab"]) + '"'
    if pick == 2:
        return "{:a " + rnd.choice(ATOMS) + "}"
    if pick == 3:
        return "nil"
    return rnd.choice(["5", ":x", "true"])  # not a collection: mapcat's error


def _fn(rnd: random.Random) -> str:
    """A one-argument fn: per element a part, sometimes printing or failing."""
    branches = " ".join(f"{i} {_part(rnd)}" for i in range(4))
    body = f"(case (mod x 4) {branches})"
    if rnd.random() < 0.3:
        body = f'(do (println "f" x) {body})'
    if rnd.random() < 0.15:
        body = f"(if (= x {rnd.randint(0, 6)}) (fail :stop) {body})"
    return f"(fn [x]\n  {body})"


def _program(rnd: random.Random) -> str:
    coll = rnd.choice(["[0 1 2 3 4 5 6]", "(range 9)", "[]", "nil", "[3 2 1 0 0]"])
    shape = rnd.random()
    if shape < 0.75:
        return f"(frequencies\n (mapcat {_fn(rnd)}\n  {coll}))"
    if shape < 0.85:  # a keyword or several collections: the plain composition inside
        return "(frequencies (mapcat :t [{:t [1 true]} {:t nil} {:t [:a]}]))"
    if shape < 0.95:
        return f"(frequencies (mapcat (fn [a b] [a b (+ a b)]) {coll} [1 0 true]))"
    return f"(frequencies (mapcat {rnd.choice(['5', ':k', 'nil', 'identity'])} {coll}))"


@pytest.mark.parametrize("seed", range(8))
def test_random_programs_agree_with_the_two_builtins(seed: int) -> None:
    rnd = random.Random(seed)
    for _ in range(50):
        src = _program(rnd)
        fused, plain, code = _both(src)
        assert "rt_frequencies_mapcat" in code
        assert fused == plain, src


def test_f_runs_on_every_element_before_a_bad_part_fails() -> None:
    src = "(frequencies\n  (mapcat (fn [x] (println x) (if (= x 1) 5 [x])) [0 1 2 3]))"
    fused, plain, _ = _both(src)
    assert fused == plain
    assert "output '0\\n1\\n2\\n3\\n'" in fused and " 2:3: " in fused


def test_a_failing_f_wins_over_an_earlier_bad_part() -> None:
    src = "(frequencies (mapcat (fn [x] (if (= x 3) (fail :f) (if (= x 1) 5 [x]))) (range 5)))"
    fused, plain, _ = _both(src)
    assert fused == plain and "error exception fail" in fused


def test_step_budget_stops_at_the_same_element() -> None:
    src = "(frequencies (mapcat (fn [x] [x x]) (range 100)))"
    for budget in (3, 50, 101, 102):
        with unfused():
            api.compile(src + "\n; plain")
            plain = api.run(src + "\n; plain", max_steps=budget)
        fused = api.run(src, max_steps=budget)
        assert (fused.ok, fused.steps, fused.value) == (plain.ok, plain.steps, plain.value)
        assert (fused.error and fused.error.code) == (plain.error and plain.error.code)


@pytest.mark.parametrize(
    "src",
    [
        "(frequencies (map (fn [x] x) [1 2]))",
        "(frequencies (mapcat identity))",  # mapcat's arity error stays its own
        "(frequencies (concat [1] [2]))",
        "(let [v (mapcat identity [[1]])] (frequencies v))",
        "(defn mapcat [f c] c) (frequencies (mapcat identity [[1]]))",
    ],
)
def test_not_fused(src: str) -> None:
    assert "rt_frequencies_mapcat" not in api.compile(src).python_source


# ------------------------------------------------------------------ the runtime function

NAN = math.nan


def print_key(k: object) -> str:
    return print_value(from_key(k))


def _same(got: dict[object, object], want: dict[object, object]) -> bool:
    if len(got) != len(want):
        return False
    for (k1, v1), (k2, v2) in zip(got.items(), want.items(), strict=True):
        if type(k1) is not type(k2) or type(v1) is not type(v2) or v1 != v2:
            return False
        if not (k1 == k2 or print_key(k1) == print_key(k2)):  # NaN, also inside vectors
            return False
    return True


POOL: list[object] = ["a", "b", "", 0, 1, 2, 0.0, -0.0, 1.0, 2.5, True, False, None, NAN]


def _runtime_part(rnd: random.Random) -> object:
    pick = rnd.random()
    if pick < 0.7:
        return [rnd.choice(POOL) for _ in range(rnd.randint(0, 6))]
    if pick < 0.8:
        return PVec([rnd.choice(POOL), [1]], 2)
    if pick < 0.9:
        return "aba"
    return {"k": rnd.choice(POOL)}


def test_counts_as_frequencies_of_mapcat() -> None:
    rnd = random.Random(5)
    switched = 0
    for _ in range(3000):
        parts = [_runtime_part(rnd) for _ in range(rnd.randint(0, 6))]
        if rnd.random() < 0.5:  # mostly strings, as split parts are
            parts = [[rnd.choice("abc") for _ in range(3)] for _ in range(4)] + parts[:1]
        got = frequencies_mapcat(parts.__getitem__, list(range(len(parts))))
        want = frequencies(mapcat(parts.__getitem__, list(range(len(parts)))))
        assert _same(got, want), parts
        switched += any(k == 1 or k == 0 for k in got if type(k) in (int, float))
    assert switched > 300


@pytest.mark.parametrize(
    "parts",
    [
        [["a", "b"], [1, True], ["c", "a"]],  # a boolean hides in 1 until the part is undone
        [[True, "x"], ["a"], [1]],
        [["a"], ["b", [1], "a"], ["a"]],  # unhashable after a counted item
        [["a", 1.0], [True, 1]],
        [[0.0, False, "z"], ["z"]],
    ],
)
def test_the_part_that_ends_raw_counting_is_taken_back(parts: list[list[object]]) -> None:
    got = frequencies_mapcat(lambda i: parts[i], list(range(len(parts))))
    want = frequencies(mapcat(lambda i: parts[i], list(range(len(parts)))))
    assert _same(got, want)


def test_bad_part_error_comes_after_every_call() -> None:
    calls: list[int] = []

    def f(i: int) -> object:
        calls.append(i)
        return 5 if i == 1 else [i]

    with pytest.raises(PtcError, match="mapcat: expected a collection"):
        frequencies_mapcat(f, [0, 1, 2, 3])
    assert calls == [0, 1, 2, 3]
