"""`reduce` with a literal fn whose accumulator cannot escape runs in place
(`ptc_runtime.transient`): same results and errors as the persistent operations.

Each random program is run twice: as written (the compiler lowers it to the in-place
loop) and with the fn bound by `let` first (the plain `reduce` builtin over persistent
operations). Values, errors and the untouched host data must agree.
"""

from __future__ import annotations

import copy
import random

import pytest

import ptc_compiler
from ptc_compiler import pr_str, run

KEYS = [":a", ":b", '"c"', "0", ":d-e", '"d_e"', ":d_e", "x"]
FNS = [
    "(fnil inc 0)",
    "identity",
    "(fn [o] {:w o :v o})",  # the old value ends up twice in the result
    "(fn [o] (assoc o :n 1))",
    "(fnil conj [])",
    "(constantly [1 2])",
]
VALUES = ["x", "{:v x}", "[x]", "nil", '"s"', "{:a {:b x}}"]
INITS = ["{}", "data/m", "{:a {:b 1} :z [0]}", "nil", "start", "[]"]


def _path(rnd: random.Random) -> str:
    return "[" + " ".join(rnd.choice(KEYS) for _ in range(rnd.randint(1, 3))) + "]"


def _op(rnd: random.Random) -> str:
    kind = rnd.randrange(4)
    if kind == 0:
        return f"(update-in {_path(rnd)} {rnd.choice(FNS)})"
    if kind == 1:
        return f"(assoc-in {_path(rnd)} {rnd.choice(VALUES)})"
    if kind == 2:
        return f"(assoc {rnd.choice(KEYS)} {rnd.choice(VALUES)})"
    return f"(update {rnd.choice(KEYS)} {rnd.choice(FNS)})"


def _body(rnd: random.Random) -> str:
    ops = " ".join(_op(rnd) for _ in range(rnd.randint(1, 3)))
    shape = rnd.randrange(4)
    if shape == 0:
        return f"(-> t {ops})"
    if shape == 1:  # a part read out first, stored after the in-place writes
        return f"(let [s (get-in t {_path(rnd)})] (-> t {ops} (assoc :snap s)))"
    if shape == 2:
        return f"(if (contains? t {rnd.choice(KEYS)}) (-> t {ops}) (-> t {_op(rnd)}))"
    return f"(assoc t :k ({rnd.choice(KEYS)} t) :g (get t {rnd.choice(KEYS)}))"


def _programs(seed: int, n: int) -> list[tuple[str, str]]:
    rnd = random.Random(seed)
    out = []
    for _ in range(n):
        body, init = _body(rnd), rnd.choice(INITS)
        coll = f"(range {rnd.randint(0, 4)})"
        setup = "(let [start {:a {:b {:c 1}} :x {:y [1]}}] "
        inline = f"{setup}[(reduce (fn [t x] {body}) {init} {coll}) start data/m])"
        plain = f"{setup}(let [f (fn [t x] {body})] [(reduce f {init} {coll}) start data/m]))"
        out.append((inline, plain))
    return out


def _data() -> dict[str, object]:
    return {"m": {"a": {"b": {"c": 0}}, "c": {"0": 1}, "d_e": {"a": 2}, "z": [1, {"a": 3}]}}


def _outcome(src: str, data: dict[str, object]) -> str:
    res = run(src, data=data)
    if res.ok:
        return "ok " + pr_str(res.value)
    assert res.error is not None
    return f"error {res.error.code}: {res.error.message}"


@pytest.mark.parametrize("seed", range(8))
def test_in_place_reduce_agrees_with_persistent_operations(seed: int) -> None:
    lowered = 0
    for inline, plain in _programs(seed, 60):
        data = _data()
        pristine = copy.deepcopy(data)
        got = _outcome(inline, data)
        assert data == pristine, inline  # host data is never written
        assert got == _outcome(plain, _data()), inline
        lowered += "rt_t_" in ptc_compiler.compile(inline).python_source
    assert lowered > 30  # most programs do take the in-place path


@pytest.mark.parametrize(
    ("src", "want"),
    [
        # a read of the whole accumulator (get-in with an empty path) is a snapshot
        ("(reduce (fn [m x] (assoc m x (get-in m []))) {} [1 2])", "{1 {}, 2 {1 {}}}"),
        ("(reduce (fn [v x] (conj v (get-in v []))) [] [1 2])", "[[] [[]]]"),
        # a part read out before the writes keeps its value
        (
            "(reduce (fn [t e] (let [s (get t :a)] (-> t (update-in [:a :b] (fnil inc 0))"
            " (assoc :snap s)))) {} [1 2 3])",
            "{:a {:b 3}, :snap {:b 2}}",
        ),
        # an update fn that stores the old value twice: later writes touch one copy
        (
            "(reduce (fn [t e] (update-in t [:a :x :q] inc))"
            " (reduce (fn [t e] (update t :a (fn [o] {:x o :y o}))) {:a {:q 1}} [1]) [1 2])",
            "{:a {:x {:q 3}, :y {:q 1}}}",
        ),
        # a shared start value is copied, never changed
        (
            "(let [t {:a {:b {:c 0}} :z 1}]"
            " [(reduce (fn [t e] (-> t (update-in [:a :b :c] + e) (assoc-in [:a :d] e))) t [1 2])"
            " t])",
            "[{:a {:b {:c 3}, :d 2}, :z 1} {:a {:b {:c 0}}, :z 1}]",
        ),
        # one logical key: a keyword path step finds the string key of tool data
        (
            "(reduce (fn [t e] (update-in t [:a :n] + e)) data/m [1 2])",
            '{"a" {"n" 3}}',
        ),
    ],
)
def test_in_place_reduce_results(src: str, want: str) -> None:
    res = run(src, data={"m": {"a": {"n": 0}}})
    assert res.ok, res.error
    assert pr_str(res.value) == want


SHARING = [
    # update-in hands an owned map to a fn that stores it twice; a later write into one
    # of the two places must not show through the other
    "(-> t (assoc-in [:a :q] x) (update-in [:a] (fn [o] {:x o :y o})) (update-in [:a :x :q] inc))",
    "(-> t (assoc-in [:a :q] x) (update :a (fn [o] {:x o :y o})) (assoc-in [:a :x :q] 0))",
    # an owned map overwritten, then the path written again
    "(-> t (assoc-in [:a :b :c] x) (assoc :a {:b {:c 9}}) (update-in [:a :b :c] + x))",
]


@pytest.mark.parametrize("body", SHARING)
def test_values_handed_out_stay_unchanged(body: str) -> None:
    inline = f"(reduce (fn [t x] {body}) {{}} (range 3))"
    plain = f"(let [f (fn [t x] {body})] (reduce f {{}} (range 3)))"
    assert "rt_t_update" in ptc_compiler.compile(inline).python_source
    assert _outcome(inline, {}) == _outcome(plain, {})


def test_errors_name_reduce() -> None:
    res = run("(reduce (fn [m x] (assoc m x 1)) {} 5)")
    assert res.error is not None and res.error.message.startswith("reduce:")


@pytest.mark.parametrize(
    "src",
    [
        "(reduce (fn [m x] (assoc m x m)) {} [1 2])",  # the accumulator as a value
        "(reduce (fn [m x] (assoc m x (fn [] m))) {} [1])",  # captured by a closure
        "(reduce (fn [m x] (assoc (assoc m :a x) :b (get m :a))) {} [1])",  # read after write
        "(reduce (fn [m x] (dissoc m x)) {:a 1} [:a])",  # not an accumulator op
    ],
)
def test_escaping_accumulators_use_the_plain_reduce(src: str) -> None:
    assert "rt_t_" not in ptc_compiler.compile(src).python_source
    assert run(src).ok


def test_one_pair_assoc_has_its_own_helper() -> None:
    # the random programs above run both helpers: one pair (`t_assoc1`) and several
    one = ptc_compiler.compile("(reduce (fn [m x] (assoc m x 1)) data/m [1])").python_source
    two = ptc_compiler.compile("(reduce (fn [m x] (assoc m x 1 :y 2)) {} [1])").python_source
    assert "rt_t_assoc1(" in one and "rt_t_assoc(" not in one
    assert "rt_t_assoc(" in two and "rt_t_assoc1(" not in two
    # nil, a vector and a bad start go to the persistent builtin, as with `t_assoc`
    for start, want in [("nil", "{1 1}"), ("[0]", "[0 1]")]:
        res = run(f"(reduce (fn [m x] (assoc m x 1)) {start} [1])")
        assert res.ok and pr_str(res.value) == want, res
    res = run('(reduce (fn [m x] (assoc m x 1)) "s" [1])')
    assert res.error is not None and res.error.message.startswith("assoc"), res.error
    # host data is copied once, never written; a `-` key finds the `_` spelling
    data = {"m": {"d_e": 1}}
    res = run("(reduce (fn [m x] (assoc m :d-e x)) data/m [5 6])", data=data)
    assert res.ok and pr_str(res.value) == '{"d_e" 6}' and data == {"m": {"d_e": 1}}, res
