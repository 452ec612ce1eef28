"""A loop element (or a parameter of a fn that does not `recur`) read by `KGETTER_READS` or
more constant keywords (names without `-`) in its own Python function gets a getter chosen
once per element
(`rules_paths.keyword_getter`): `t = rt_dget if rt_type(x) is rt_dict else rt_kother`, each
read `t(x, k, t(x, 'name', default))`. The same values, output, errors (line:column) and
steps as `rt_kfield` per read."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator

import pytest

from ptc_compiler import api, optimize
from ptc_runtime import executor, rt
from ptc_runtime.values import keyword
from tests.outcomes import outcome

SELECT = "rt_dget if rt_type("


@contextlib.contextmanager
def field_reads() -> Iterator[None]:
    """The reference: every constant keyword read as `rt_kfield`."""
    with optimize.disabled("keyword-getter"):
        yield


def _outcome(src: str, data: dict[str, object], max_steps: int) -> str:
    return outcome(src, data=data, max_steps=max_steps)


def _both(src: str, data: dict[str, object], max_steps: int) -> tuple[str, str, str]:
    new = _outcome(src + "\n; getter", data, max_steps)
    with field_reads():
        old = _outcome(src + "\n; kfield", data, max_steps)
        assert SELECT not in api.compile(src + "\n; kfield").python_source
    return new, old, api.compile(src + "\n; getter").python_source


# Items of every kind a loop can meet: host dicts with string keys, maps with keyword
# keys, both spellings (the keyword wins), nil values, persistent maps, non-maps.
ITEMS = [
    "{:a 1 :b 2 :c 3}",
    '{"a" 1 "b" 2 "c" 3}',
    '{"a" 1 :a 9 "b" nil}',
    "{:a nil :b false}",
    "{}",
    "nil",
    "[1 2 3]",
    '"abc"',
    "7",
    "#{:a :b}",
    '(assoc {"a" 4} :b 5)',
    '(into {} [[:a 1] ["b" 2]])',
    "(zipmap [:a :b :c] (range 3))",
    '{"c" [1 2] :d 1}',
    "data/host",
]
HOST = [
    {"a": 1, "b": 2.5, "c": "x"},
    {"b": None},
    {},
    {"a": [1, 2], "c": {"a": 3}},
    {"a-b": 1, "a_b": 2},
]


def _read(rnd: random.Random, x: str) -> str:
    k = rnd.choice([":a", ":b", ":c", ":d", ":a-b"])
    form = rnd.randrange(4)
    if form == 0:
        return f"({k} {x})"
    if form == 1:
        return f"({k} {x} :dflt)"
    if form == 2:
        return f"(get {x} {k})"
    return f'(get {x} {k} (do (println "d") 0))'


def _body(rnd: random.Random, x: str) -> str:
    reads = [_read(rnd, x) for _ in range(rnd.randint(1, 5))]
    if rnd.random() < 0.2:  # a read inside a nested fn (another Python function)
        reads.append(f"((fn [y] (:a {x})) 0)")
    if rnd.random() < 0.2:  # a read on a branch
        reads.append(f"(if (map? {x}) (:b {x}) (:c {x}))")
    return f"[{' '.join(reads)}]"


def _program(rnd: random.Random) -> str:
    coll = f"[{' '.join(rnd.choice(ITEMS) for _ in range(rnd.randint(0, 6)))}]"
    kind = rnd.randrange(9)
    if kind == 0:
        return f"(map (fn [x] {_body(rnd, 'x')}) {coll})"
    if kind == 1:
        return f"(mapv #(do {_body(rnd, '%')}) {coll})"
    if kind == 2:
        return f"(filter (fn [x] (first {_body(rnd, 'x')})) {coll})"
    if kind == 3:
        return f"(for [x {coll} :let [r {_body(rnd, 'x')}] :when (some? r)] r)"
    if kind == 4:  # a linear reduce: the fn's element is the loop element
        return f"(reduce (fn [m x] (assoc m (count m) {_body(rnd, 'x')})) {{}} {coll})"
    if kind == 5:
        inner = f"(for [y [1 2]] {_body(rnd, 'x')})"
        return f"(defn f [xs] (for [x xs] {inner}))\n(f {coll})"
    if kind == 6:  # a fn's parameters
        return f"(defn f [x z] [{_body(rnd, 'x')} {_body(rnd, 'z')}])\n(map f {coll} {coll})"
    if kind == 7:  # a recurring fn: its parameter is rebound
        body = _body(rnd, "x")
        return f"(defn f [x n] (if (pos? n) (recur (first {coll}) (dec n)) {body}))\n(f 0 2)"
    return f"(sort-by (fn [x] (str {_body(rnd, 'x')})) {coll})"


@pytest.mark.parametrize("seed", range(6))
def test_random_reads_agree_with_field_reads(seed: int) -> None:
    rnd = random.Random(seed)
    selected = 0
    for _ in range(60):
        src = _program(rnd)
        data = {"host": rnd.choice(HOST)}
        budget = rnd.choice([10_000_000, 10_000_000, 4, 9])
        new, old, code = _both(src, data, budget)
        assert new == old, src
        selected += SELECT in code
    assert selected > 20


@pytest.mark.parametrize(
    "src",
    [
        # (a number part: not the one call `rt_map_str_fields`, see test_map_str_fields.py)
        "(map (fn [p] (str (:a p) (:b p) (:c p) 0)) data/xs)",
        "(mapv #(vector (get % :a) (:b % 0) (:a %)) data/xs)",
        "(for [p data/xs :when (:a p)] [(:b p) (:c p)])",
        # in the outer loop's body (read in the inner loop, `p` is invariant there: the
        # reads are made once before it, see `test_loop_invariant_reads.py`)
        "(for [p data/xs :let [v [(:b p) (:c p) (:a p)]] q [1 2]] [v q])",
        "(reduce (fn [m e] (assoc m (:a e) [(:b e) (:c e)])) {} data/xs)",
        "(defn f [p] [(:a p) (:b p 0) (get p :c)])\n(map f data/xs)",
        "(sort-by (fn [p] [(:a p) (:b p) (:c p)]) data/xs)",
    ],
)
def test_elements_read_three_times_get_a_getter(src: str) -> None:
    code = api.compile(src).python_source
    assert code.count(SELECT) == 1
    assert "rt_kfield(" not in code


@pytest.mark.parametrize(
    "src",
    [
        "(map (fn [p] (str (:a p) (:b p))) data/xs)",  # two reads
        "(map (fn [p] [(:a p) (:b-c p) (:d-e p)]) data/xs)",  # names with - read by rt_kdash
        "(map (fn [p] [(:a p) (sort-by (fn [q] [(:b p) (:c p)]) [1])]) data/xs)",  # nested fn
        '(map (fn [p] [(:a p) (get p "b") (get p :c)]) data/xs)',  # a string key
        "(let [p (first data/xs)] [(:a p) (:b p) (:c p)])",  # not a loop element
        # a recurring fn rebinds its parameters
        "(defn f [p n] (if (pos? n) (recur p (dec n)) [(:a p) (:b p) (:c p)]))\n(f {} 2)",
        "(defn f [p q] [(:a p) (:b q) (:c p)])\n(f {} {})",  # two reads of each
    ],
)
def test_where_no_getter_is_made(src: str) -> None:
    assert SELECT not in api.compile(src).python_source


def test_a_getter_read_keeps_its_position() -> None:
    src = "(mapv (fn [p]\n  [(:a p) (:b p)\n   (+ (:c p) 1)]) data/xs)"
    data: dict[str, object] = {"xs": [{"a": 1, "b": 2, "c": 3}, {"a": 1, "c": "x"}]}
    new, old, code = _both(src, data, 10_000_000)
    assert SELECT in code
    assert new == old
    assert " 3:4:" in new


def test_other_getter_is_kfield() -> None:
    """`t(x, k, t(x, name, d))` with `rt_kother` is `kfield(x, k, name, d)` off dicts."""
    rnd = random.Random(7)
    values: list[object] = [
        None,
        1,
        "ab",
        [1, 2],
        rt.HELPERS["rt_map"](keyword("a"), 1),
        (1,),
        2.5,
        True,
    ]
    for m in values:
        for name in ("a", "b", "0"):
            k = keyword(name)
            default = rnd.choice([None, 0, "d"])
            other = rt.kfield_other
            assert other(m, k, other(m, name, default)) == rt.kfield(m, k, name, default)
    assert rt.HELPERS["rt_dget"] is dict.get
    assert rt.HELPERS["rt_kother"] is rt.kfield_other


# ------------------------------------------------------------------ names with `-`


def _kget_reads(m: object, k: object, name: str, alt_kw: object, alt: str, *d: object) -> object:
    """`rt_kdash` as the general keyword read it replaced (`rt_kget`) makes it."""
    return rt.kget(m, k, *d)


DASH_ITEMS = [
    '{"user_id" 1 "a_b_c" 2}',
    '{"user-id" 3 :user_id 4}',
    "{:user-id 5 :user_id 6}",
    '{:user_id nil "user_id" 7}',
    '{"user_id-x" 8 "a_b-c" 9}',
    "nil",
    "(hash-map :user-id 1)",
    "[1 2]",
    "data/host",
]


@pytest.mark.parametrize("seed", range(4))
def test_reads_of_names_with_dash_agree_with_the_general_read(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    rnd = random.Random(50 + seed)
    for i in range(50):
        reads = []
        for _ in range(rnd.randint(1, 4)):
            k = rnd.choice([":user-id", ":a-b-c", ":user_id", ":x-"])
            reads.append(
                rnd.choice(
                    [f"({k} x)", f"({k} x :d)", f"(get x {k})", f'(get x {k} (do (println "d") 0))']
                )
            )
        coll = f"[{' '.join(rnd.choice(DASH_ITEMS) for _ in range(rnd.randint(0, 5)))}]"
        src = f"(mapv (fn [x] [{' '.join(reads)}]) {coll})\n; {seed}/{i}"
        data: dict[str, object] = {"host": {"user_id": 10, "a-b-c": 11}}
        budget = rnd.choice([10_000_000, rnd.randint(1, 5)])
        got = _outcome(src, data, budget)
        with monkeypatch.context() as mp:
            mp.setitem(executor.base_globals(), "rt_kdash", _kget_reads)
            want = _outcome(src + " ", data, budget)
        assert got == want, src
