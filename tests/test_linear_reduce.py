"""`reduce` with a literal fn whose accumulator cannot escape runs in place
(`ptc_runtime.fast.transient`): same results and errors as the persistent operations.

Each random program is run twice: as written (the compiler lowers it to the in-place
loop) and with the fn bound by `let` first (the plain `reduce` builtin over persistent
operations). Values, errors and the untouched host data must agree.
"""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

import ptc_compiler
from ptc_compiler import optimize, pr_str


def run(source: str, **options: Any) -> ptc_compiler.RunResult:
    """`ptc_compiler.run` asking for the PTC value: these tests check PTC semantics."""
    options.setdefault("native", True)
    return ptc_compiler.run(source, **options)


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


@pytest.fixture
def no_update_fields() -> Iterator[None]:
    """Switch off the whole-loop `rt_t_update_fields` (tests/test_update_fields.py), whose
    shapes the fused walk's tests use: they test the loop's helpers."""
    with optimize.disabled("update-fields"):
        yield


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
    # the same through the fused walk of a shared prefix ([:a], then [:x :x :q] and [:x])
    "(-> t (update-in [:a :x :x :q] (fnil inc 0)) (update-in [:a :x] (fn [o] {:x o :y o})))",
]


@pytest.mark.parametrize("body", SHARING)
def test_values_handed_out_stay_unchanged(body: str) -> None:
    inline = f"(reduce (fn [t x] {body}) {{}} (range 4))"
    plain = f"(let [f (fn [t x] {body})] (reduce f {{}} (range 4)))"
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


# Two `update-in`s in a row whose paths share a prefix of the same pure keys are fused
# into one walk of the prefix (`t_update_in2`). Random pairs over trees with missing
# levels, nil, vectors, numbers and both key spellings; values and errors must agree
# with the plain `reduce`.
PREFIX_KEYS = [":a", '"c"', "0", "(:r e)", "(:s e)", "nil", ":d-e"]
LEAF_KEYS = [":n", ":m", '"n"', "(:r e)", "1"]
FUSE_FNS = [
    ("(fnil inc 0)", ""),
    ("(fnil + 0)", " (:v e)"),
    ("identity", ""),
    ("inc", ""),  # nil leaf: an error, raised by the first or the second update
    ("(fn [o] {:w o})", ""),
    ("assoc", " :k (:v e)"),
    ("(:r e)", ""),  # a keyword (or nil: not callable) as the update fn
]
EVENTS = '[{:r :a :s "c" :v 1} {:r "c" :s 0 :v 2} {:s :a :v 3} {:r :a :s "c" :v 4}]'
FUSE_INITS = [
    "{}",
    "data/m",
    '{:a {"c" {:n 1} :a {:n [0]}} "c" {0 {:m 2}}}',
    "{:a {:a 5}}",  # a number where a level should be
    "{:a [{:n 1}]}",  # a vector level
    "nil",
    "{:d_e {nil {:n 1}}}",
]


def _fused_programs(seed: int, n: int) -> list[tuple[str, str]]:
    rnd = random.Random(seed)
    out = []
    for _ in range(n):
        prefix = " ".join(rnd.choice(PREFIX_KEYS) for _ in range(rnd.randint(1, 3)))
        ops = []
        for _ in range(2):
            rest = " ".join(rnd.choice(LEAF_KEYS) for _ in range(rnd.randint(1, 2)))
            fn, args = rnd.choice(FUSE_FNS)
            ops.append(f"(update-in [{prefix} {rest}] {fn}{args})")
        body = f"(-> t {' '.join(ops)})"
        init = rnd.choice(FUSE_INITS)
        inline = f"[(reduce (fn [t e] {body}) {init} {EVENTS}) data/m]"
        plain = f"(let [f (fn [t e] {body})] [(reduce f {init} {EVENTS}) data/m])"
        out.append((inline, plain))
    return out


def _fuse_data() -> dict[str, object]:
    return {"m": {"a": {"c": {"n": 0}, "a": None}, "c": {"0": {"n": 1}}, "d_e": {"a": 2}}}


@pytest.mark.parametrize("seed", range(6))
def test_update_ins_with_a_shared_prefix_agree_with_persistent_operations(seed: int) -> None:
    fused = 0
    for inline, plain in _fused_programs(seed, 50):
        data = _fuse_data()
        got = _outcome(inline, data)
        assert data == _fuse_data(), inline  # host data is never written
        assert got == _outcome(plain, _fuse_data()), inline
        fused += "rt_t_update_in2" in ptc_compiler.compile(inline).python_source
    # all pairs share a prefix; those whose second fn is a call like `(fnil inc 0)` are
    # not fused (see below)
    assert fused > 25


@pytest.mark.usefixtures("no_update_fields")
def test_the_fused_walk_takes_the_prefix_once() -> None:
    body = "(-> t (update-in [:a (:r e) :n] + (:v e)) (update-in [:a (:r e) :m] inc))"
    src = f"(reduce (fn [t e] {body}) START [{{:r :x :v 2}} {{:r :x :v 3}}])"
    code = ptc_compiler.compile(src.replace("START", "{}")).python_source
    assert code.count("rt_t_update_in2") == 1 and "rt_t_update_in(" not in code
    assert code.count("rt_kfield(v2_e, k2, 'r')") == 1  # the second path's copy is not built
    res = run(src.replace("START", "{:a {:x {:n 0 :m 0} :y 1}}"))
    assert res.ok and pr_str(res.value) == "{:a {:x {:n 5, :m 2}, :y 1}}", res
    # the first update fails first, as unfused
    res = run(src.replace("START", "{}"))
    assert res.error is not None and res.error.message.startswith("+:"), res.error
    res = run(src.replace("START", "{:a {:x {:n 0}}}"))
    assert res.error is not None and res.error.message.startswith("inc:"), res.error


@pytest.mark.parametrize(
    "body",
    [
        # different prefixes: constants of other types are other keys (1 = 1.0 = true)
        "(-> t (update-in [1 :n] inc) (update-in [1.0 :n] inc))",
        "(-> t (update-in [true :n] inc) (update-in [1 :n] inc))",
        "(-> t (update-in [:a :n] inc) (update-in [:b :n] inc))",
        "(-> t (update-in [(:r e) :n] inc) (update-in [(:s e) :n] inc))",
        # nothing left after the prefix in one of them
        "(-> t (update-in [:a] identity) (update-in [:a :n] inc))",
        # the second's arguments might fail or have effects: they must run after the first
        "(-> t (update-in [:a :n] inc) (update-in [:a :m] + (inc (:v e))))",
        "(-> t (update-in [:a :n] inc) (update-in [:a (str e)] inc))",
        "(-> t (update-in [:a :n] inc) (update-in [:a :m] + (do (println e) 1)))",
        # a prefix key that is not a pure expression
        "(-> t (update-in [(inc e) :n] inc) (update-in [(inc e) :m] inc))",
        # not two update-ins
        "(-> t (update-in [:a :n] inc) (assoc-in [:a :m] 1))",
    ],
)
def test_update_ins_that_must_not_be_fused(body: str) -> None:
    src = f"(reduce (fn [t e] {body}) {{}} [1 2])"
    code = ptc_compiler.compile(src).python_source
    assert "rt_t_update_in2" not in code and "rt_t_" in code


def test_fused_update_fns_run_in_program_order() -> None:
    body = (
        '(-> t (update-in [:a :n] (fn [o] (println "first" o) 1))'
        ' (update-in [:a :m] (fn [o] (println "second" o) 2)))'
    )
    inline = f"(reduce (fn [t e] {body}) {{:a {{:n 0}}}} [1 2])"
    plain = f"(let [f (fn [t e] {body})] (reduce f {{:a {{:n 0}}}} [1 2]))"
    assert "rt_t_update_in2" in ptc_compiler.compile(inline).python_source
    got, want = run(inline), run(plain)
    assert got.ok and want.ok and got.value == want.value
    assert got.output == want.output == "first 0\nsecond nil\nfirst 1\nsecond 2\n"


# A map the loop built from `{}` with only string keys without `_` takes new string keys
# without the one-logical-key search (`Owned.plain`). Random mixes of string keys with
# `-` and `_`, keywords, and keys added by the other helpers; values must agree with
# the plain `reduce`.
PLAIN_KEYS = ['"a-b"', '"a_b"', ":a-b", ":a_b", '"c"', ":c", '"d-e-f"', ":d_e-f", "1"]
PLAIN_OPS = [
    "(assoc t k x)",
    "(update t k (fnil inc 0))",
    "(assoc-in t [k :n] x)",
    "(assoc t k x :z x)",
    "(if (contains? t k) t (assoc t k x))",
]


def _plain_key_programs(seed: int, n: int) -> list[tuple[str, str]]:
    rnd = random.Random(seed)
    out = []
    for _ in range(n):
        keys = " ".join(rnd.choice(PLAIN_KEYS) for _ in range(rnd.randint(1, 8)))
        ops = [rnd.choice(PLAIN_OPS[:1] * 3 + PLAIN_OPS) for _ in range(rnd.randint(1, 2))]
        body = ops[0] if len(ops) == 1 else f"(if (string? k) {ops[0]} {ops[1]})"
        init = rnd.choice(["{}", "{}", "{}", "data/m", '{"q_r" 0}'])
        coll = f"(map-indexed vector [{keys}])"
        inline = f"[(reduce (fn [t [x k]] {body}) {init} {coll}) data/m]"
        plain = f"(let [f (fn [t [x k]] {body})] [(reduce f {init} {coll}) data/m])"
        out.append((inline, plain))
    return out


@pytest.mark.parametrize("seed", range(4))
def test_string_keys_into_a_built_map_agree_with_persistent_operations(seed: int) -> None:
    lowered = 0
    for inline, plain in _plain_key_programs(seed, 80):
        data: dict[str, object] = {"m": {"a_b": 0, "c": 1}}
        got = _outcome(inline, data)
        assert data == {"m": {"a_b": 0, "c": 1}}, inline
        assert got == _outcome(plain, {"m": {"a_b": 0, "c": 1}}), inline
        lowered += "rt_t_assoc1(" in ptc_compiler.compile(inline).python_source
    assert lowered > 40


@pytest.mark.parametrize(
    ("keys", "want"),
    [
        # where the shortcut applies: new plain string keys stay as they are
        ('["a-b" "c" "d-e"]', '{"a-b" 0, "c" 1, "d-e" 2}'),
        # where it must not: a `_` string, then its `-` spelling is the same logical key
        ('["a_b" "a-b"]', '{"a_b" 1}'),
        ('["c" "a_b" "x" "a-b"]', '{"c" 0, "a_b" 3, "x" 2}'),
        # a keyword key, then its string spelling
        ('[:a-b "a-b"]', "{:a-b 1}"),
        ('["c" :a_b "a-b" "c"]', '{"c" 3, :a_b 2}'),
    ],
)
def test_string_keys_into_a_built_map(keys: str, want: str) -> None:
    res = run(f"(reduce (fn [t [x k]] (assoc t k x)) {{}} (map-indexed vector {keys}))")
    assert res.ok and pr_str(res.value) == want, res


def test_a_released_map_ends_the_shortcut() -> None:
    # the whole map read out before the writes: the snapshot keeps its size
    src = (
        '(reduce (fn [m k] (let [s (get-in m [])] (assoc (assoc m k 1) (str k "#") (count s))))'
        ' {} ["a" "b" "c"])'
    )
    assert "rt_t_assoc1(" in ptc_compiler.compile(src).python_source
    res = run(src)
    assert res.ok and pr_str(res.value) == '{"a" 1, "a#" 0, "b" 1, "b#" 2, "c" 1, "c#" 4}', res


def test_a_key_added_by_another_helper_ends_the_shortcut() -> None:
    # `update` adds the keyword :q-r after two plain string keys; the next "q-r" must
    # find it (the map's size no longer matches the one recorded with it)
    src = (
        "(reduce (fn [t k] (if (keyword? k) (update t k (fnil inc 0)) (assoc t k 7)))"
        ' {} ["p" "s" :q-r "q-r"])'
    )
    assert "rt_t_update(" in ptc_compiler.compile(src).python_source
    res = run(src)
    assert res.ok and pr_str(res.value) == '{"p" 7, "s" 7, :q-r 7}', res


@pytest.mark.parametrize(
    "op",
    [
        "(assoc t k x)",
        "(update t k (fn [_] x))",
        "(assoc-in t [k] x)",
        "(update-in t [k] (fn [_] x))",
        "(assoc-in t [k :n] x)",
        "(update-in t [k :n] (fn [_] x))",
    ],
)
def test_keys_added_by_other_helpers_end_the_shortcut(op: str) -> None:
    # each helper that adds a key other than a plain string to the map being built ends
    # the shortcut: the later "a-b" must find the :a-b it added
    body = f"(if (keyword? k) {op} (assoc t k x))"
    coll = '(map-indexed vector ["c" :a-b "d" "a-b"])'
    src = f"(reduce (fn [t [x k]] {body}) {{}} {coll})"
    assert "rt_t_assoc1(" in ptc_compiler.compile(src).python_source
    res = run(src)
    assert res.ok and pr_str(res.value) == '{"c" 0, :a-b 3, "d" 2}', res


def test_owned_table_records_the_plain_map() -> None:
    from ptc_runtime.fast import transient

    m: dict[object, object] = {}
    owned = transient.t_begin(m)
    m = transient.t_assoc1(owned, m, "a-b", 1)
    assert owned.plain is m
    m = transient.t_assoc1(owned, m, "e-f", 2)
    assert owned.plain is m
    m = transient.t_assoc1(owned, m, "c_d", 2)  # a `_` key: no longer plain
    assert owned.plain is not m
    assert transient.t_assoc1(owned, m, "c-d", 3) == {"a-b": 1, "e-f": 2, "c_d": 3}
    # a released map is forgotten, and copied on its next write; the copy is not plain
    p: dict[object, object] = {}
    owned = transient.t_begin(p)
    p = transient.t_assoc1(owned, p, "x", 1)
    assert owned.plain is p
    transient.t_seen(owned, p)
    assert owned.plain is not p
    q = transient.t_assoc1(owned, p, "y", 2)
    assert q is not p and owned.plain is not q and p == {"x": 1}
    # nil is never taken for the plain map
    owned = transient.t_begin()
    assert transient.t_assoc1(owned, None, "x", 1) == {"x": 1}


# The fused walk memoizes each prefix of string and keyword keys that led to owned maps
# (`Owned.paths`), dropped when any owned map is released. Random event streams that
# come back to the same prefixes, mixed with writes that add keys of every spelling,
# overwrite levels, read levels out, hand them to update fns, or use keys that are never
# memoized (1, 1.0 and true are different keys; vectors are unhashable); values, errors
# and the host data must agree with the plain `reduce`.
MEMO_KEYS = [":a", '"a"', ":d-e", '"d-e"', ":d_e", '"d_e"', "1", "1.0", "true", "[1]", "nil"]
MEMO_EXTRA = [
    "(assoc-in [(:p e) (:q e)] {:n 5})",  # overwrites a level, or adds one
    "(assoc-in [(:p e) :x] 1)",  # a new key of any spelling next to a path level
    "(assoc (:p e) {:b {:n 0}})",
    "(update (:p e) (fn [o] {:b o}))",  # a level handed to a fn and stored under another
    "(update-in [(:p e)] identity)",
    "(assoc :snap (get-in t [(:p e) (:q e)]))",  # read out: must not change later
    "(assoc :snap2 (get t (:p e)))",
]


def _memo_programs(seed: int, n: int) -> list[tuple[str, str]]:
    rnd = random.Random(seed)
    out = []
    for _ in range(n):
        keys = [rnd.choice(MEMO_KEYS) for _ in range(3)]
        events = " ".join(
            f"{{:p {rnd.choice(keys)} :q {rnd.choice(keys)} :v {i} :x {rnd.randrange(4)}}}"
            for i in range(rnd.randint(2, 9))
        )
        fused = (
            "(update-in [(:p e) (:q e) :n] (fnil + 0) (:v e))"
            " (update-in [(:p e) (:q e) :m] (fn [o] (if o (inc o) 1)))"
        )
        extra = rnd.choice(MEMO_EXTRA)
        body = f"(if (= 0 (:x e)) (-> t {extra} {fused}) (-> t {fused}))"
        init = rnd.choice(["{}", "data/m", '{:a {:a {:n 1}} "d-e" {1 {:n 2}}}'])
        inline = f"[(reduce (fn [t e] {body}) {init} [{events}]) data/m]"
        plain = f"(let [f (fn [t e] {body})] [(reduce f {init} [{events}]) data/m])"
        out.append((inline, plain))
    return out


def _memo_data() -> dict[str, object]:
    return {"m": {"a": {"a": {"n": 0}, "d_e": {"m": 1}}, "d_e": {"a": {}}, "1": {"1": {}}}}


@pytest.mark.parametrize("seed", range(6))
def test_memoized_prefix_walks_agree_with_persistent_operations(seed: int) -> None:
    fused = 0
    for inline, plain in _memo_programs(seed, 60):
        data = _memo_data()
        got = _outcome(inline, data)
        assert data == _memo_data(), inline  # host data is never written
        assert got == _outcome(plain, _memo_data()), inline
        fused += "rt_t_update_in2" in ptc_compiler.compile(inline).python_source
    assert fused == 60


FUSED = (
    "(-> t (update-in [(:p e) :b :n] (fnil + 0) (:v e))"
    " (update-in [(:p e) :b :m] (fn [o] (if o (inc o) 1))))"
)


@pytest.mark.parametrize(
    ("body", "events", "want"),
    [
        # a level overwritten (released) between two walks of the same prefix: the next
        # walk must reach the new map, not the memoized one
        (
            f"(if (:new e) (assoc t :a {{:b {{:n 100}}}}) {FUSED})",
            "[{:p :a :v 1} {:new true} {:p :a :v 2}]",
            "{:a {:b {:n 102, :m 1}}}",
        ),
        (
            f"(if (:new e) (assoc-in t [:a :b] {{:n 100}}) {FUSED})",
            "[{:p :a :v 1} {:new true} {:p :a :v 2}]",
            "{:a {:b {:n 102, :m 1}}}",
        ),
        # a level read out and kept: later walks copy it again, the snapshot stays
        (
            f"(if (:new e) (assoc t :s (get t :a)) {FUSED})",
            "[{:p :a :v 1} {:new true} {:p :a :v 2}]",
            "{:a {:b {:n 3, :m 2}}, :s {:b {:n 1, :m 1}}}",
        ),
        (
            f"(if (:new e) (assoc t :s (get-in t [:a :b])) {FUSED})",
            "[{:p :a :v 1} {:new true} {:p :a :v 2}]",
            "{:a {:b {:n 3, :m 2}}, :s {:n 1, :m 1}}",
        ),
        # a level handed to an update fn that stores it twice
        (
            f"(if (:new e) (update t :a (fn [o] {{:b (:b o) :c o}})) {FUSED})",
            "[{:p :a :v 1} {:new true} {:p :a :v 2}]",
            "{:a {:b {:n 3, :m 2}, :c {:b {:n 1, :m 1}}}}",
        ),
        # keys added next to path levels, in every spelling: the walk finds the same key
        (
            f'(if (:new e) (-> t (assoc "x" 1 :d-e 2) (assoc-in [:a "c"] 3)) {FUSED})',
            "[{:p :a :v 1} {:new true} {:p :a :v 2}]",
            '{:a {:b {:n 3, :m 2}, "c" 3}, "x" 1, :d-e 2}',
        ),
        # 1, 1.0 and true at the same call site: 1 and 1.0 are one key, true another
        (
            FUSED,
            "[{:p 1 :v 1} {:p true :v 2} {:p 1.0 :v 4} {:p true :v 8}]",
            "{:a {:b {:n 0, :m 0}}, 1 {:b {:n 5, :m 2}}, true {:b {:n 10, :m 2}}}",
        ),
        # a vector key (unhashable, never memoized)
        (
            FUSED,
            "[{:p [1] :v 1} {:p [1] :v 2}]",
            "{:a {:b {:n 0, :m 0}}, [1] {:b {:n 3, :m 2}}}",
        ),
        # keyword and string spellings of one key: the first written is the one kept
        (
            FUSED,
            '[{:p "a" :v 1} {:p :a :v 2} {:p "a" :v 4}]',
            "{:a {:b {:n 7, :m 3}}}",
        ),
    ],
)
def test_memoized_prefix_walks(body: str, events: str, want: str) -> None:
    # the start value has the path, so the first event's walk is memoized
    init = "{:a {:b {:n 0 :m 0}}}"
    inline = f"(reduce (fn [t e] {body}) {init} {events})"
    plain = f"(let [f (fn [t e] {body})] (reduce f {init} {events}))"
    assert "rt_t_update_in2" in ptc_compiler.compile(inline).python_source
    got = _outcome(inline, {})
    assert got == _outcome(plain, {}) == f"ok {want}"


@pytest.mark.parametrize(
    "events",
    [
        # the key left after the prefix changes between events at one call site: each
        # update remembers the key it found for the key it was given, never another's
        '[{:r :n :q :m :v 1} {:r "n" :q "m" :v 2} {:r :x :q :n :v 4} {:r :n :q :m :v 8}'
        ' {:r "x" :q :x :v 16}]',
        "[{:r 1 :q 1 :v 1} {:r true :q 1.0 :v 2} {:r 1.0 :q true :v 4} {:r true :q 1 :v 8}"
        " {:r nil :q nil :v 16}]",
        '[{:r :d-e :q :m :v 1} {:r "d_e" :q :m :v 2} {:r :d_e :q "d-e" :v 4}'
        ' {:r "d-e" :q :m :v 8} {:r [1] :q [1] :v 16}]',
    ],
)
def test_memoized_walks_remember_the_key_each_update_found(events: str) -> None:
    body = (
        "(-> t (update-in [:a :b (:r e)] (fnil + 0) (:v e))"
        " (update-in [:a :b (:q e)] (fn [o] (if o (inc o) 1))))"
    )
    init = '{:a {"b" {:n 0 "m" 0}}}'
    inline = f"(reduce (fn [t e] {body}) {init} {events})"
    plain = f"(let [f (fn [t e] {body})] (reduce f {init} {events}))"
    assert "rt_t_update_in2" in ptc_compiler.compile(inline).python_source
    got = _outcome(inline, {})
    assert got.startswith("ok ") and got == _outcome(plain, {}), got


def test_owned_table_memoizes_prefix_walks() -> None:
    from ptc_runtime.builtins.arithmetic import add
    from ptc_runtime.fast import transient
    from ptc_runtime.values import keyword

    a, n = keyword("a"), keyword("n")
    host: dict[object, object] = {"a": {"x": {"n": 0}, 1: {"n": 0}}}
    owned = transient.t_begin()
    t = transient.t_update_in2(owned, host, [a, "x"], [n], add, [1], [n], add, [2])
    assert t is not host and host == {"a": {"x": {"n": 0}, 1: {"n": 0}}}  # copied, not written
    leaf = t["a"]["x"]
    # the end map, and for each update its key and the key found there
    assert owned.paths == {(a, "x"): [t, leaf, n, "n", n, "n"]}
    t2 = transient.t_update_in2(owned, t, [a, "x"], [n], add, [1], [n], add, [2])
    assert t2 is t and t["a"]["x"] is leaf and leaf == {"n": 6}
    # other keys than strings and keywords are not memoized
    transient.t_update_in2(owned, t, [a, 1], [n], add, [1], [n], add, [2])
    assert owned.paths is not None and list(owned.paths) == [(a, "x")]
    # a release drops every memoized walk
    transient.t_seen(owned, leaf)
    assert owned.paths is None
    t3 = transient.t_update_in2(owned, t, [a, "x"], [n], add, [1], [n], add, [2])
    assert t3["a"]["x"] is not leaf and leaf == {"n": 6} and t3["a"]["x"] == {"n": 9}


# An update fn that is `+`/`inc`/... called with exactly the arguments of its
# fixed-arity fast helper is passed as that helper (`rt_add2`, `rt_inc1`); the fused
# walk's key and argument vectors are tuples. Values and errors must be the builtin's.
UPDATE_FNS = ["+", "-", "*", "inc", "dec", "<", "=", "max"]
OLD_VALUES = ["nil", "1", "1.5", '"s"', "1180591620717411303424", "true", "[1]", "-7"]


@pytest.mark.parametrize("fn", UPDATE_FNS)
def test_fast_update_fns_agree_with_the_builtins(fn: str) -> None:
    for old in OLD_VALUES:
        for extra in ("", " x", " x 2"):
            for op in (
                f"(update t :a {fn}{extra})",
                f"(update-in t [:b :a] {fn}{extra})",
                f"(-> t (update-in [:b :a] {fn}{extra}) (update-in [:b :c] {fn}{extra}))",
            ):
                init = f"{{:a {old} :b {{:a {old} :c {old}}}}}"
                inline = f"(reduce (fn [t x] {op}) {init} [3 4.5])"
                plain = f"(let [f (fn [t x] {op})] (reduce f {init} [3 4.5]))"
                assert "rt_t_update" in ptc_compiler.compile(inline).python_source
                assert _outcome(inline, {}) == _outcome(plain, {}), inline


@pytest.mark.parametrize(
    ("op", "fast", "slow"),
    [
        ("(update t :a + x)", "rt_add2", "b_plus"),
        ("(update t :a inc)", "rt_inc1", "b_inc"),
        ("(update-in t [:a :b] - x)", "rt_sub2", "b_minus"),
        ("(update-in t [:a :b] dec)", "rt_dec1", "b_dec"),
        ("(-> t (update-in [:a :n] + x) (update-in [:a :m] inc))", "rt_add2", "b_plus"),
        ("(-> t (update-in [:a :n] * x) (update-in [:a :m] inc))", "rt_inc1", "b_inc"),
    ],
)
def test_fast_update_fns_where_the_arity_fits(op: str, fast: str, slow: str) -> None:
    code = ptc_compiler.compile(f"(reduce (fn [t x] {op}) {{}} [1])").python_source
    assert fast in code and slow not in code, code


@pytest.mark.parametrize(
    "op",
    [
        "(update t :a + x 1)",  # three arguments: the variadic builtin
        "(update t :a +)",
        "(update t :a inc x)",  # a wrong arity keeps the builtin's error
        "(update-in t [:a] inc 1)",
        "(-> t (update-in [:a :n] + x 1) (update-in [:a :m] + 1 2))",
        "(update t :a str x)",  # no fast helper
    ],
)
def test_fast_update_fns_not_where_the_arity_differs(op: str) -> None:
    code = ptc_compiler.compile(f"(reduce (fn [t x] {op}) {{}} [1])").python_source
    assert "rt_t_update" in code
    assert not any(f in code for f in ("rt_add2", "rt_inc1", "rt_sub2")), code


@pytest.mark.usefixtures("no_update_fields")
def test_fused_walk_arguments_are_tuples() -> None:
    # one key left in each path: the keys as they are (`t_update_in2k`); the element's
    # keyword reads may take any form, so only the shape around them is matched
    body = "(-> t (update-in [:a (:r e) :n] + (:v e)) (update-in [:a (:r e) :m] inc))"
    code = ptc_compiler.compile(f"(reduce (fn [t e] {body}) {{}} [])").python_source
    assert re.search(r"rt_t_update_in2k\(t1, v1_t, \(k2, [^\n]*\), k\d, rt_add2, \(", code), code
    assert re.search(r",\), k\d, rt_inc1, \(\), 1, 25\)", code), code  # the first's position
    # more than one key left in a path: the key vectors as tuples
    body = "(-> t (update-in [:a (:r e) :n :o] + (:v e)) (update-in [:a (:r e) :m] inc))"
    code = ptc_compiler.compile(f"(reduce (fn [t e] {body}) {{}} [])").python_source
    assert re.search(r"rt_t_update_in2\(t1, v1_t, \(k2, [^\n]*\), \(k\d, k\d\), rt_add2, \(", code)
    assert re.search(r",\), \(k\d,\), rt_inc1, \(\), 1, 25\)", code), code


def test_memoized_walks_start_over_when_full(monkeypatch: pytest.MonkeyPatch) -> None:
    from ptc_runtime.fast import transient
    from ptc_runtime.fast.transient import update_in

    monkeypatch.setattr(update_in, "_MAX_PATHS", 2)
    body = "(-> t (update-in [:a (:p e) :n] + (:v e)) (update-in [:a (:p e) :m] inc))"
    events = " ".join(f'{{:p "{p}" :v {i}}}' for i, p in enumerate("xyzxyzzyx"))
    init = '{:a {"x" {:n 0 :m 0} "y" {:n 0 :m 0} "z" {:n 0 :m 0}}}'
    inline = f"(reduce (fn [t e] {body}) {init} [{events}])"
    plain = f"(let [f (fn [t e] {body})] (reduce f {init} [{events}]))"
    got = _outcome(inline, {})
    assert (
        got
        == _outcome(plain, {})
        == ('ok {:a {"x" {:n 11, :m 3}, "y" {:n 12, :m 3}, "z" {:n 13, :m 3}}}')
    ), got
    from ptc_runtime.values import keyword

    a, n = keyword("a"), keyword("n")
    owned = transient.t_begin()
    m: object = {"a": {p: {"n": 0} for p in "xyz"}}
    for p in "xyzx":
        m = transient.t_update_in2(owned, m, (a, p), (n,), abs, (), (n,), abs, ())
        assert owned.paths is not None and len(owned.paths) <= 2


# The fused walk with one key left in each path (`t_update_in2k`) applies the fast
# helpers of `+`, `-`, `inc` and `dec` inline on a memoized walk when the operands are
# two ints, two floats (`+`/`-`) or an int (`inc`/`dec`). Random event streams that come
# back to the same prefixes with old values and arguments of every kind (ints, floats,
# huge ints next to floats, booleans, nil, strings), other fns in between, leaves set to
# any value between walks, and leaf keys that change between events; values, errors with
# their positions and step counts must agree with the plain `reduce`.
INLINE_FNS = [("+", " (:v e)"), ("-", " (:v e)"), ("inc", ""), ("dec", ""), ("+", " 1.5")]
INLINE_OTHER = [("(fnil + 0)", " (:v e)"), ("max", " (:v e)"), ("(fn [o] (if o (inc o) 1))", "")]
INLINE_VALUES = [
    "1",
    "-2",
    "2.5",
    "0.0",
    "1e308",
    "(* 4 1e307)",
    "1180591620717411303424",
    "(apply * (repeat 40 1180591620717411303424))",
    "true",
    "nil",
    '"s"',
    "[1]",
]
INLINE_LEAVES = [":n", ":m", '"n"', "(:k e)"]
INLINE_PREFIXES = ["1", ":x", '"y"']


def _inline_programs(seed: int, n: int) -> list[tuple[str, str]]:
    rnd = random.Random(seed)
    out = []
    for _ in range(n):
        ops = []
        for _ in range(2):
            fn, args = rnd.choice(INLINE_FNS if rnd.random() < 0.8 else INLINE_OTHER)
            ops.append(f"(update-in [:a (:p e) {rnd.choice(INLINE_LEAVES)}] {fn}{args})")
        # mostly numbers, so that the walks come back to their prefixes without an error
        nums = INLINE_VALUES[:6] if rnd.random() < 0.7 else INLINE_VALUES
        events = " ".join(
            f"{{:p {rnd.choice(INLINE_PREFIXES)} :k {rnd.choice(INLINE_LEAVES[:3])}"
            f" :v {rnd.choice(nums)} :w {rnd.choice(['true', 'nil', 'false', 'false'])}}}"
            for _ in range(rnd.randint(2, 12))
        )
        v = [rnd.choice(nums) for _ in range(6)]
        init = f'{{:a {{1 {{:n {v[0]} :m {v[1]}}} :x {{:n {v[2]} "m" {v[3]}}} "y" {{:n {v[4]} :m {v[5]}}}}}}}'
        body = f"(-> t {' '.join(ops)})"
        if rnd.random() < 0.4:  # a leaf set to any value between memoized walks
            leaf = rnd.choice(INLINE_LEAVES)
            body = f"(if (:w e) (assoc-in t [:a (:p e) {leaf}] (:v e)) {body})"
        inline = f"(reduce (fn [t e] {body}) {init} [{events}])"
        plain = f"(let [f (fn [t e] {body})] (reduce f {init} [{events}]))"
        out.append((inline, plain))
    return out


def _exact_outcome(src: str) -> tuple[object, ...]:
    res = run(src)
    if res.ok:
        return ("ok", pr_str(res.value), res.steps)
    assert res.error is not None
    e = res.error
    return ("error", e.code, e.message, e.line, e.column, res.steps)


@pytest.mark.usefixtures("no_update_fields")
@pytest.mark.parametrize("seed", range(6))
def test_inline_update_fns_of_the_fused_walk_agree_with_the_builtins(seed: int) -> None:
    fast = 0
    for inline, plain in _inline_programs(seed, 50):
        code = ptc_compiler.compile(inline).python_source
        fast += "rt_t_update_in2k(" in code
        got, want = _exact_outcome(inline), _exact_outcome(plain)
        # the plain reduce calls `f` once per element where the loop pulls a step per
        # element: the same count
        assert got == want, inline
    assert fast > 40  # a second fn like `(fnil + 0)` is a call: not fused (see above)


@pytest.mark.parametrize("fn", ["+ (:v e)", "- (:v e)", "inc", "dec"])
def test_inline_update_fns_see_any_value_a_memoized_leaf_holds(fn: str) -> None:
    # walks memoized by the first events, then the leaves set to a value of each kind,
    # then the fused updates again from the memo (inline only for numbers of one type)
    for value in [
        "1",
        "2.5",
        "true",
        "false",
        "nil",
        '"s"',
        "[1]",
        "1180591620717411303424",
        "(apply * (repeat 40 1180591620717411303424))",
        "1e308",
    ]:
        for arg in [
            "3",
            "1.5",
            "true",
            "1180591620717411303424",
            "(apply * (repeat 40 1180591620717411303424))",
            "1e308",
        ]:
            body = (
                "(if (:w e) (assoc-in t [:a (:p e) (:w e)] (:s e))"
                f" (-> t (update-in [:a (:p e) :n] {fn}) (update-in [:a (:p e) :m] {fn})))"
            )
            for leaf in (":n", ":m"):  # the first update's leaf set, or the second's
                events = (
                    f"[{{:p :x :v 1}} {{:p :x :v 2}} {{:p :x :w {leaf} :s {value}}}"
                    f" {{:p :x :v {arg}}} {{:p :x :v {arg}}}]"
                )
                init = "{:a {:x {:n 0 :m 0}}}"
                inline = f"(reduce (fn [t e] {body}) {init} {events})"
                plain = f"(let [f (fn [t e] {body})] (reduce f {init} {events}))"
                assert "rt_t_update_in2k(" in ptc_compiler.compile(inline).python_source
                assert _exact_outcome(inline) == _exact_outcome(plain), inline


@pytest.mark.parametrize("seed", range(4))
def test_fused_update_ins_place_errors_where_unfused(seed: int) -> None:
    # an error of the first update (its fn, a missing fn, a bad level of its walk) is
    # placed at the first `update-in`, one of the second at the second, one raised in a
    # fn literal's body there, as when each `update-in` is a call of its own
    fused = 0
    for inline, plain in _fused_programs(100 + seed, 50):
        inline, plain = inline.replace("(-> t ", "(-> t\n "), plain.replace("(-> t ", "(-> t\n ")
        fused += "rt_t_update_in2" in ptc_compiler.compile(inline).python_source
        assert _exact_outcome(inline) == _exact_outcome(plain), inline
    assert fused > 25
