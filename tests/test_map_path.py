"""`(map (fn [x] (get-in m [k (:f x) ...])) coll)` (also `mapv`, `#(...)`, a one-binding
`for`, `(get m (:f x))`) runs in one runtime call (`pathmap.map_path`, lowered by
`rules_pathmap.map_path`).

Random programs of that shape run as compiled and with the rule switched off (the loop
the general lowering makes): the value, the error (code, message, line:column), the step
count, also under small budgets, and the host data must agree. Field values and maps mix
the keys that are equal in Python but not as keys here (`1`, `1.0`, `true`), nil,
keywords and strings of both spellings, collections (unhashable), missing fields,
elements that are not maps, record lists and keyword maps.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from typing import Any

import pytest

import ptc_compiler
from ptc_compiler import optimize, pr_str
from ptc_runtime.fast import pathmap
from tests.outcomes import lisp_literal

CONST_KEYS = [":a", '"a"', ":x", "1", "0", "true", "nil", ":d-e", "1.0", '"x"']
FIELD_KEYS = ["(:p e)", "(:q e)", "(get e :p)", '(get e "q")', "(:d-e e)", "e"]
FIELD_VALUES: list[Any] = ["x", "y", "a", "x", "y", "d_e", 1, 0, 1.0, True, False, None]
ODD_VALUES: list[Any] = [[1], {"z": 1}, 2.5, "zz", -1]
EXACT_VALUES: list[Any] = ["x", "y", "a", "d_e", None]

BASES = [
    "data/m",
    "data/m",
    "data/v",
    # keys equal in Python but not here: 1 / 1.0 / true; both spellings of :x
    '{:a {:x {:a 1} "y" [7 8 9]} "a" 0 1 "one" true "true" nil "nil" :x {:a "kx"}'
    ' "x" {:a "sx" 0 "s0" 1 "s1"} [1] "vec" :d-e {:x "dash"} :d_e 3}',
    '[[10 11] {:x "m"} "str"]',
    "nil",
]


def _host_tree(rnd: random.Random, depth: int) -> Any:
    if depth == 0:
        return rnd.choice([1, 2.5, "leaf", None, [4, 5], True])
    keys = ["a", "x", "y", "d_e", "d-e", "1", "0"]
    return {k: _host_tree(rnd, depth - 1) for k in keys if rnd.random() < 0.7}


def _event(rnd: random.Random, odd: float, values: list[Any]) -> Any:
    if rnd.random() < odd / 3:
        return rnd.choice([None, 5, "s", [1, 2]])  # not a map
    e: dict[str, Any] = {}
    for f in ("p", "q", "d-e", "d_e"):
        if rnd.random() >= odd:
            e[f] = rnd.choice(values if rnd.random() >= odd else ODD_VALUES)
    return e


def _program(rnd: random.Random) -> tuple[str, dict[str, Any]]:
    odd = rnd.choice([0.0] * 4 + [0.02, 0.1, 0.4])
    keys = [
        rnd.choice(FIELD_KEYS) if rnd.random() < 0.5 else rnd.choice(CONST_KEYS)
        for _ in range(rnd.randint(1, 6))
    ]
    if not any(k in FIELD_KEYS for k in keys):
        keys[rnd.randrange(len(keys))] = rnd.choice(FIELD_KEYS)
    n = rnd.choice([0, 3, 16, 40, 300, 400])
    # memo keys only (strings, nil) at first half the time, so there is a memo, then
    # any values for the lookups against it
    exact = rnd.random() < 0.5
    events = [
        _event(
            rnd,
            0 if exact and i < 256 else odd,
            EXACT_VALUES if exact and i < 256 else FIELD_VALUES,
        )
        for i in range(n)
    ]
    data = {
        "events": events,
        # scalars (and a few collections) as the elements: keys themselves
        "ks": [rnd.choice([*FIELD_VALUES, *ODD_VALUES, "zz"]) for _ in range(rnd.choice([3, 40]))],
        "m": {"a": _host_tree(rnd, 3), "x": _host_tree(rnd, 3), "1": _host_tree(rnd, 2)},
        "v": [_host_tree(rnd, 2) for _ in range(3)],
    }
    base = rnd.choice(BASES)
    path = " ".join(keys)
    read = f"(get-in m [{path}])"
    if len(keys) == 1 and rnd.random() < 0.5:
        read = f"(get m {keys[0]})"
    elif rnd.random() < 0.3:  # a chain of reads: the path of their keys
        read = "m"
        for k in keys:
            if k.startswith(":") and rnd.random() < 0.5:
                read = f"({k} {read})"
            elif rnd.random() < 0.7:
                read = f"(get {read} {k})"
            else:
                read = f"(get-in {read} [{k}])"
        if rnd.random() < 0.3:
            read = f"(-> m {' '.join(f'(get {k})' for k in keys)})"
    coll = rnd.choice(["data/events"] * 6 + ["lit", "nil", "{:p 1}", '"ab"', "(inc 4)", "data/m"])
    if "e" in keys and rnd.random() < 0.6:
        coll = "data/ks"
    if coll == "lit":  # keyword maps the program built: not a record list
        coll = "[" + " ".join(map(lisp_literal, events[:40])) + "]"
    form = rnd.choice(["map-fn", "map-hash", "mapv", "for"])
    if form == "map-hash" and "e" in keys:
        form = "map-fn"  # `%` in place of a bare `e`: not made here
    if form == "map-fn":
        loop = f"(map (fn [e] {read}) {coll})"
    elif form == "mapv":
        loop = f"(mapv (fn [e] {read}) {coll})"
    elif form == "for":
        loop = f"(for [e {coll}] {read})"
    else:
        loop = f"(map #{read.replace(' e)', ' %)').replace('(get e ', '(get % ')} {coll})"
    # the loop on a line of its own: positions tell it apart from the let
    src = f"(let [m {base}]\n  (count (str {loop})))"
    if rnd.random() < 0.5:
        src = f"(let [m {base}]\n  {loop})"
    return src, data


def _outcome(src: str, data: dict[str, Any], budget: int) -> tuple[Any, ...]:
    res = ptc_compiler.compile(src).run(data=data, max_steps=budget, timeout_ms=None)
    if res.ok:
        return ("ok", pr_str(res.value), res.steps)
    assert res.error is not None
    e = res.error
    return ("error", e.code, e.message, e.line, e.column, res.steps)


@pytest.fixture
def rule_off(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Within it, programs compile without the rule (give them other source text: the
    compile cache keeps programs by text)."""
    with optimize.disabled("map-path"):
        yield


def _generic(src: str, data: dict[str, Any], budget: int) -> tuple[Any, ...]:
    with optimize.disabled("map-path"):
        return _outcome(src + "\n;; generic", data, budget)


@pytest.mark.parametrize("seed", range(8))
def test_path_maps_agree_with_the_loop(seed: int) -> None:
    rnd = random.Random(seed)
    taken = 0
    for i in range(60):
        src, data = _program(rnd)
        taken += "rt_map_path" in ptc_compiler.compile(src).python_source
        before = copy.deepcopy(data)
        for budget in (10**6, rnd.randint(1, 60), rnd.randint(1, 400)):
            got = _outcome(src, data, budget)
            assert data == before, src  # host data is never written
            assert got == _generic(src, data, budget), (i, src, budget)
    assert taken >= 45  # not over a coll the analyzer rejects


def test_keys_equal_in_python_are_not_one_memo_key() -> None:
    # 1, 1.0 and true read different things; so do "x" and :x in a vector; all repeated
    # often, so a memo hit would be taken if they shared an entry. The first 300 keys are
    # memo keys, so there is a memo (see `pathmap.worth_a_memo`) for the rest to miss.
    base = '{:a {1 "int" true "bool" "x" "str" :x "kw" nil "nil"} :v [[10 11] [20 21]]}'
    first = ['"x"', ":x", "nil"]
    values = ["1", "1.0", "true", '"x"', ":x", "nil", "false", "[1]", "0"]
    order = [first[i % 3] for i in range(300)] + [values[i % 9] for i in range(600)]
    events = " ".join(f"{{:p {v}}}" for v in order)
    keys = " ".join(order)  # the elements as keys
    for path, coll in (
        ("[:a (:p e)]", events),
        ("[:v (:p e) 1]", events),
        ("[:v 0 (:p e)]", events),
        ("[:a (:p e) :z]", events),
        ("[:a e]", keys),
        ("[:v e 0]", keys),
    ):
        src = f"(let [m {base}] (mapv (fn [e] (get-in m {path})) [{coll}]))"
        assert "rt_map_path" in ptc_compiler.compile(src).python_source
        got = _outcome(src, {}, 10**6)
        assert got == _generic(src, {}, 10**6), path
        assert got[0] == "ok"


@pytest.mark.parametrize(
    ("path", "n", "memo"),
    [
        ("[(:id e) :name]", 5000, False),  # distinct keys: a memo would rarely hit
        ("[(:id e)]", 5000, False),  # one level: a probe either way
        ("[(:c e) :name]", 5000, True),  # 40 keys
        ("[(:c e) :name]", 100, False),  # all sampled: 40 keys among 100, 2.5 reads each
        ("[(:c e) :name]", 130, True),  # 3.25 reads each
        ("[(:id e) :name]", 100, False),
        ("[(:j e) :a]", 5000, False),  # ints are never memo keys (1 = 1.0 = true)
        ("[(:s e) :a]", 5000, True),  # about 1000 keys of 5000 (the sample's estimate)
        ("[(:h e) :a]", 5000, False),  # about 2500 of 5000
    ],
)
def test_a_memo_only_where_keys_repeat(path: str, n: int, memo: bool) -> None:
    rnd = random.Random(n)
    items = [
        {
            "id": f"k{i}",
            "c": f"k{i % 40}",
            "j": i % 7,
            "s": f"k{rnd.randrange(1000)}",
            "h": f"k{rnd.randrange(2500)}",
        }
        for i in range(n)
    ]
    m: dict[object, object] = {f"k{i}": {"name": i, "a": i} for i in range(n)}
    m.update({i: {"a": i} for i in range(7)})
    data: dict[str, Any] = {"items": items, "m": m}
    memos: list[object] = []
    real = pathmap._Paths.read_part

    def spy(self: pathmap._Paths, part: Any, fields: Any) -> list[object]:
        memos.append(self.memo)
        return real(self, part, fields)

    pathmap._Paths.read_part = spy  # type: ignore[method-assign]
    try:
        src = f"(let [m data/m] (mapv (fn [e] (get-in m {path})) data/items))"
        got = _outcome(src, data, 10**6)
    finally:
        pathmap._Paths.read_part = real  # type: ignore[method-assign]
    assert got == _generic(src, data, 10**6)
    assert memos and (memos[-1] is not None) == memo, memos[-1]


@pytest.mark.parametrize("budget", [1, 2, 50, 51, 149, 150, 151, 4000])
def test_budgets_fail_at_the_same_element(budget: int) -> None:
    src = "(let [m data/m]\n  (mapv #(get-in m [:a (:p %) :n]) data/events))"
    data = {
        "events": [{"p": f"k{i % 9}"} for i in range(150)],
        "m": {"a": {f"k{i}": {"n": i} for i in range(9)}},
    }
    assert "rt_map_path" in ptc_compiler.compile(src).python_source
    assert _outcome(src, data, budget) == _generic(src, data, budget)


@pytest.mark.parametrize(
    "loop",
    [
        "(map (fn [x] (get-in m [:a (:p x) :n])) xs)",
        "(mapv #(get-in m [(:p %) 1 :c]) xs)",
        "(map #(get m (:p %)) xs)",
        "(for [x xs] (get m (get x :p)))",
        '(map (fn [x] (get-in m [(get x "p") (:q x)])) xs)',
        "(map (fn [x] (get-in m [(:p-q x) nil true 1.5])) xs)",
        "(reduce + (map #(get-in m [:r (:r %) :s (:s %) :n]) xs))",
        "(map #(:name (get m (:id %))) xs)",
        "(map #(get m %) xs)",  # the element itself as a key
        "(mapv (fn [k] (get-in m [k :name])) xs)",
        "(for [k xs] (:n (get-in m [:a k])))",
        "(map (fn [x] (-> m (get (:r x)) :stores (get (:s x)) :n)) xs)",
        "(map (fn [x] (get (get-in m [:a (:p x)]) :b)) xs)",
    ],
)
def test_shapes_that_run_in_one_call(loop: str) -> None:
    code = ptc_compiler.compile(f"(let [m {{}} xs []] {loop})").python_source
    assert "rt_map_path" in code and "rt_iter" not in code, code


@pytest.mark.parametrize(
    "loop",
    [
        "(map (fn [x] (get-in m [:a :n])) xs)",  # no field of the element
        "(map (fn [x] (get-in m [:a (:p x)] 0)) xs)",  # a default
        "(map (fn [x] (get-in x [:a (:p x)])) xs)",  # the element is the map
        "(map (fn [x] (get-in m [:a (inc (:p x))])) xs)",  # a computed key
        "(map (fn [x] (get-in m [:a (:p m)])) xs)",  # another local's field
        '(map (fn [x] (get-in m [("p" x)])) xs)',  # a string called: an error
        "(map (fn [x] (get-in m [[1] (:p x)])) xs)",  # a vector key
        "(map (fn [x] (get-in data/m [(:p x)])) xs)",  # not a local
        "(map (fn [x] (get-in m p)) xs)",  # not a literal path
        "(map (fn [x] (get m (:p x) 0)) xs)",  # a default
        "(map (fn [x] (:name (get m (:p x)) 0)) xs)",  # a default in the chain
        "(map (fn [x] (:name (:p x))) xs)",  # the element's own fields
        "(map (fn [x] (get (:p x) :name)) xs)",
        "(map (fn [x] (:name (get m (:p x) {}))) xs)",
        "(filter (fn [x] (get m (:p x))) xs)",
        "(for [x xs :when x] (get m (:p x)))",
        "(for [x xs y xs] (get m (:p x)))",
        "(doseq [x xs] (get m (:p x)))",
        "(map (fn [x y] (get m (:p x))) xs xs)",
    ],
)
def test_shapes_that_do_not(loop: str) -> None:
    code = ptc_compiler.compile(f"(let [m {{}} xs [] p []] {loop})").python_source
    assert "rt_map_path" not in code, code


def test_the_accumulator_of_an_in_place_reduce_is_never_the_map() -> None:
    # its reads are marked seen (`t_seen`): not this shape, so no part of it is handed out
    # unmarked and changed in place afterwards
    src = "(reduce (fn [acc x] (assoc acc x (vec (for [y [1 2]] (get acc (:k y)))))) {} [:a :b :c])"
    code = ptc_compiler.compile(src).python_source
    assert "rt_map_path" not in code
    assert _outcome(src, {}, 10**6) == _generic(src, {}, 10**6)
