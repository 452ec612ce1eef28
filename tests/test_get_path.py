"""`(get-in m [k ...])` with a literal vector path passes its keys as arguments, no vector
built per call: one to five keys call `rt_get_path1` .. `rt_get_path5` (unrolled, each key
followed by the name of a constant keyword without `-`, else None), one constant keyword
is the keyword read `(:k m)`, other lengths call `rt_get_path` (`ptc_runtime.lookup`).
Reads out of loop-invariant locals, moved before the loop: `test_loop_invariant_reads.py`.
The runtime side is compared with `get_in` in `tests/runtime/test_lookup.py`; here: which
helper each path takes, where the lowering must not apply, and that programs see the same
values, output, errors (line:column) and steps as through the generic `get_in`."""

from __future__ import annotations

import ast
import contextlib
import random
import re
from collections.abc import Iterator

import pytest

import ptc_compiler
from ptc_compiler import optimize, pr_str, run
from ptc_compiler.lower.ctx import helper
from ptc_compiler.optimize import rules_paths
from ptc_runtime import executor
from ptc_runtime.builtins.collections_ import get as builtin_get
from ptc_runtime.lookup import get_in
from tests.outcomes import outcome


def _calls(src: str) -> list[ast.Call]:
    """The calls of a `rt_get_path*` helper in the code `src` compiles to."""
    code = ptc_compiler.compile(f"(fn [m x] {src})").python_source
    return [
        c
        for c in ast.walk(ast.parse(code))
        if isinstance(c, ast.Call)
        and isinstance(c.func, ast.Name)
        and c.func.id.startswith("rt_get_path")
    ]


@pytest.mark.parametrize(
    ("src", "helper_name"),
    [
        ('(get-in m [:a (:k x) "c" 0])', "rt_get_path4"),
        ("(get-in m [:a :b])", "rt_get_path2"),
        ("(get-in (:m x) [(inc 1) :a])", "rt_get_path2"),
        ("(get-in m [x x x])", "rt_get_path3"),
        ("(get-in m [1 2 3 4 5])", "rt_get_path5"),
        ("(get-in m [1 2 3 4 5 6])", "rt_get_path"),  # longer: the loop
        ("(get-in m [x])", "rt_get_path1"),  # one key that is not a keyword
        ('(get-in m ["a"])', "rt_get_path1"),
        ("(get-in m [])", "rt_get_path"),
    ],
)
def test_literal_paths_pass_their_keys(src: str, helper_name: str) -> None:
    calls = _calls(src)
    assert [c.func.id for c in calls] == [helper_name]  # type: ignore[attr-defined]
    code = ptc_compiler.compile(f"(fn [m x] {src})").python_source
    assert "b_get_in" not in code


def test_keyword_names_follow_their_keys() -> None:
    (c,) = _calls('(get-in m [:a "b-c" "d" :e x])')
    names = [a.value if isinstance(a, ast.Constant) else a for a in c.args[2::2]]
    assert names == ["a", None, None, "e", None]


@pytest.mark.parametrize(
    ("src", "read"),
    [
        ("(get-in m [:a-b :c])", "rt_kfield(rt_kdash(v1_m, k"),
        ("(get-in m [:a :b :a-b])", "rt_kdash(rt_get_path2(v1_m, k"),
        ("(get-in m [x :a-b :c-d])", "rt_kdash(rt_kdash(rt_get_path1(v1_m, v2_x, None), k"),
        ("(-> m :a :a-b :b :c)", "rt_get_path2(rt_kdash(rt_kfield(v1_m, k"),
    ],
)
def test_keywords_with_dash_are_read_by_themselves(src: str, read: str) -> None:
    # their four spellings: `rt_kdash` probes them; the keys around them as paths
    code = ptc_compiler.compile(f"(fn [m x] {src})").python_source
    assert read in code, code


@pytest.mark.parametrize(
    ("src", "helper_name"),
    [
        ("(get-in m [:a x] 0)", "rt_get_path_or2("),
        ('(get-in m [:a x "c"] nil)', "rt_get_path_or3("),
        ("(get-in m [1 2 3 4 5] x)", "rt_get_path_or5("),
    ],
)
def test_paths_with_a_default(src: str, helper_name: str) -> None:
    code = ptc_compiler.compile(f"(fn [m x] {src})").python_source
    assert helper_name in code and "b_get_in" not in code, code


@pytest.mark.parametrize(
    ("src", "read"), [("(get-in m [:a])", "rt_kfield("), ("(get-in m [:a-b])", "rt_kdash(")]
)
def test_one_keyword_is_a_keyword_read(src: str, read: str) -> None:
    code = ptc_compiler.compile(f"(fn [m x] {src})").python_source
    assert read in code and "rt_get_path" not in code and "b_get_in" not in code, code


def test_one_keyword_of_a_loop_element_joins_its_getter() -> None:
    code = ptc_compiler.compile(
        "(map #(vector (get-in % [:a]) (:b %) (:c %)) data/xs)"
    ).python_source
    assert "rt_dget if rt_type(" in code and "rt_kfield" not in code, code


@pytest.mark.parametrize(
    "src",
    [
        "(get-in m [:a] 0)",  # with a default: one key or more than five, the builtin
        "(get-in m [:a :b :c :d :e :f] 0)",
        '(get-in m [:a :b] (do (println "d") 0))',  # a default that needs statements
        "(get-in m x)",  # a path that is a value
        "(get-in m (vector :a :b))",
        "(get-in m)",  # a wrong arity keeps the builtin's error
    ],
)
def test_other_get_ins_keep_the_builtin(src: str) -> None:
    code = ptc_compiler.compile(f"(fn [m x] {src})").python_source
    assert "rt_get_path" not in code and "b_get_in" in code, code


DATA = {"m": {"a": {"b-c": [1, {"d_e": None, "f": 2}]}, "1": {"x": 1}}}


@pytest.mark.parametrize(
    "path",
    [
        "[:a :b-c 1 :d-e]",  # a nil value is found, not defaulted
        "[:a :b-c 1 :f]",
        '["a" "b-c" 0]',
        "[:a :b-c 5]",
        "[:a :b-c 1 :f :g]",  # through a number
        "[:a :b-c 1 :f :g :h]",  # six keys: the loop
        "[1 :x]",  # 1 is not "1"
        "[:a [1]]",  # a vector key
        "[(do (println 1) :a) (do (println 2) :b-c) 0]",  # keys run in order, once
        "[]",
        "[nil]",
        "[:a]",
        "[true 1]",
        "[:a :b-c 1 :d-e] 0",  # with a default: not for a nil value found
        "[:a :b-c 1 :x] 0",  # for a missing key
        "[:a :b-c 1 :f] :d",
        "[:a :zz :q] [:dflt]",
    ],
)
def test_same_values_and_output_as_the_builtin(path: str) -> None:
    fast = run(f"(get-in data/m {path})", data=DATA)
    slow = run(f"(let [g get-in] (g data/m {path}))", data=DATA)
    assert "b_get_in" not in ptc_compiler.compile(f"(get-in data/m {path})").python_source
    assert fast.ok and slow.ok, (fast, slow)
    assert pr_str(fast.value) == pr_str(slow.value) and fast.output == slow.output


def test_errors_keep_their_position() -> None:
    res = run("(get-in {:a 1}\n  [(inc nil)])")
    assert res.error is not None and (res.error.line, res.error.column) == (2, 4), res.error
    res = run("(get-in {:a 1} [:a :b\n (inc nil) :c])")
    assert res.error is not None and (res.error.line, res.error.column) == (2, 2), res.error


# ------------------------------------------------------------------ randomized differential


@contextlib.contextmanager
def generic(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The reference: every literal path is `get_in(m, [k ...])`, level by level."""
    with monkeypatch.context() as mp, optimize.disabled("read-chain", "loop-invariant-read"):
        mp.setattr(
            rules_paths,
            "literal_path",
            lambda e, m, keys, exprs, base, span: helper("get_path", m, *exprs),
        )
        mp.setitem(executor.base_globals(), "rt_get_path", lambda m, *p: get_in(m, list(p)))
        for n in range(2, rules_paths.PATH_UNROLLED + 1):
            mp.setitem(executor.base_globals(), f"rt_get_path_or{n}", _get_in_or)
        yield


def _get_in_or(m: object, *keys_names_default: object) -> object:
    """`rt_get_path_orN(m, k1, n1, .., d)` as `get_in(m, [k1 ..], d)`."""
    return get_in(m, list(keys_names_default[0:-1:2]), keys_names_default[-1])


# Keys of every kind: keywords with and without `-` (their `_` spellings stored), strings,
# numbers Python conflates (1, 1.0, true), nil, vectors (unhashable: a path), computed keys,
# keys read off the loop element, keys that print or fail.
KEYS = [":a", ":b", ":c", ":a-b", '"a"', '"b"', '"a-b"', '"a_b"', "0", "1", "1.0", "true"]
KEYS += ["false", "nil", "[1]", "[:a]", "(inc 0)", "(:k e)", "(get e :j)", "e"]
KEYS += ['(do (println "k") :b)', "(inc (:n e))"]
NEAR = [":a", ":b", '"b"', ":c", '"a"', "(:k e)", "1", ":a-b", '"a_b"', "0"]  # mostly found
DASH = [":a-b", '"a-b"', ":a_b", '"a_b"', ":a", ":c", ":b"]  # `-` read as `_`
MAPS = [
    '{:a {:b {:c 1 "a" 2} "b" [10 {:a 3}]} "a" 9 :a-b {:c nil} "a_b" 4}',
    '{"a" {"b" {"c" 5 :a {:b 6}}} 1 {1.0 2} "k" {:a 1}}',
    '{:a {"b" {:a-b {:c 7}}} "b" {:a_b {:a 8}} true {1 {:a 9}} nil {:a 0}}',
    "(hash-map :a (hash-map :b {:c 3}) 1 [5 6 {:a 7}])",
    '{:a_b {"a_b" {:c 1 :a_b 2 :a {:a-b 3}}} "a" {:a_b {"b" 4}} :b {"a_b" [5]}}',  # `_` for `-`
    "{[1] {:a 1} :a [{:b 2} {:c {:a 3}}]}",
    "data/tree",
    "nil",
    "[{:a 1} [2 {:b 3}]]",
]
ELEMS = [
    '{"k" "a" "j" "b" "n" 0}',
    "{:k :a :j 1 :n 1}",
    '{:k "a-b" :j :a-b :n 0}',
    "{:k nil}",
    "{:k [1]}",
    '{"k" 1.0 "n" "x"}',
    "nil",
]
TREE = {
    "a": {"b": {"c": 1, "a": {"b": 2}}, "a": [1, 2]},
    "a-b": {"a_b": 3},
    "b": [{"a": 1}],
    "1": {"a": 2},
}


def _program(rnd: random.Random) -> str:
    keys = rnd.choice([KEYS, NEAR, DASH])
    path = " ".join(rnd.choice(keys) for _ in range(rnd.choice([0, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6])))
    m = rnd.choice(MAPS)
    elems = " ".join(rnd.choice(ELEMS) for _ in range(rnd.choice([0, 1, 2, 3, 4, 5, 2, 3])))
    get = f"(get-in m [{path}])"
    if rnd.random() < 0.4:  # with a default: read when a key is missing, not for nil
        default = rnd.choice(["0", "nil", ":d", "e", '(do (println "d") 1)', "(inc nil)"])
        get = f"(get-in m [{path}] {default})"
    shape = rnd.randrange(4)
    if shape == 0:
        return f"(let [m {m}] (mapv #(let [e %] {get}) [{elems}]))"
    if shape == 1:
        return f"(let [m {m}] (for [e [{elems}] :let [v {get}] :when (some? v)] [v (:k e)]))"
    if shape == 2:
        return f"(let [m {m}] (reduce (fn [acc e] (conj acc {get})) [] [{elems}]))"
    return f"(defn f [m e] {get})\n(map (fn [e] (f {m} e)) [{elems}])"


@pytest.mark.parametrize("seed", range(6))
def test_random_paths_agree_with_get_in(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    rnd = random.Random(seed)
    unrolled = 0
    for i in range(60):
        src = _program(rnd)
        budget = rnd.choice([10**6, 10**6, rnd.randint(1, 12)])
        data = {"tree": TREE}
        tag = f"\n; {seed}/{i}"
        got = outcome(src + tag, data=data, max_steps=budget)
        code = ptc_compiler.compile(src + tag).python_source
        unrolled += re.search(r"rt_get_path(_or)?[2-5]\(", code) is not None
        with generic(monkeypatch):
            want = outcome(src + tag + " ", data=data, max_steps=budget)
        assert got == want, src
    assert unrolled > 25


# ------------------------------------------------------------------ (get m k) without a default


@pytest.mark.parametrize(
    ("src", "read"),
    [
        ("(get m x)", "rt_get_path1("),  # any key but a constant keyword: one level
        ('(get m "a")', "rt_get_path1("),
        ("(get m 1)", "rt_get_path1("),
        ("(get m [1 :a])", "rt_get_path1("),  # a vector key is a path: get_flexible's rule
        ("(get m :a)", "rt_kfield("),
        ("(get m x 0)", "b_get("),  # a default: the builtin
        ("(get m)", "b_get("),
    ],
)
def test_get_without_default_reads_one_level(src: str, read: str) -> None:
    code = ptc_compiler.compile(f"(fn [m x] {src})").python_source
    assert read in code, code


def _builtin_get(m: object, k: object, name: str | None) -> object:
    """`rt_get_path1` as the `get` builtin (`b_get`) reads."""
    return builtin_get(m, k)


GET_KEYS = [*KEYS, "[:a :b]", '["a" 1]', "[]", "{:a 1}", "#{1}", "-0.0", "##NaN", "'s"]


@pytest.mark.parametrize("seed", range(4))
def test_random_gets_agree_with_the_builtin(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    rnd = random.Random(100 + seed)
    for i in range(50):
        m = rnd.choice(MAPS)
        gets = " ".join(f"(get m {rnd.choice(GET_KEYS)})" for _ in range(rnd.randint(1, 3)))
        elems = " ".join(rnd.choice(ELEMS) for _ in range(rnd.randint(0, 4)))
        src = f"(let [m {m}] (mapv (fn [e] [{gets}]) [{elems}]))\n; {seed}/{i}"
        budget = rnd.choice([10**6, rnd.randint(1, 8)])
        got = outcome(src, data={"tree": TREE}, max_steps=budget)
        with monkeypatch.context() as mp:
            mp.setitem(executor.base_globals(), "rt_get_path1", _builtin_get)
            want = outcome(src + " ", data={"tree": TREE}, max_steps=budget)
        assert got == want, src


# ------------------------------------------------------------------ chains of reads


@pytest.mark.parametrize(
    ("src", "read"),
    [
        ("(:c (:b (:a m)))", "rt_get_path3(v1_m, k"),
        ("(-> m :a :b)", "rt_get_path2(v1_m, k"),
        ('(get (get m "a") 0)', "rt_get_path2(v1_m, 'a', None, 0, None)"),
        ('(:b (get m "a"))', "rt_get_path2(v1_m, 'a', None, k"),
        ("(-> m :a :b :c :d :e :f)", "rt_get_path(v1_m, k"),  # six: the loop
    ],
)
def test_chains_of_reads_are_one_path_read(src: str, read: str) -> None:
    code = ptc_compiler.compile(f"(fn [m x] {src})").python_source
    assert read in code and "rt_kfield" not in code, code


@pytest.mark.parametrize(
    "src",
    [
        "(:b (:a m) 3)",  # a default: read by itself
        "(:b (:a m 1))",
        "(:b (get m x))",  # a key made between the reads
        "(get (:a m) x)",
    ],
)
def test_chains_with_defaults_or_computed_keys_are_not_fused(src: str) -> None:
    code = ptc_compiler.compile(f"(fn [m x] {src})").python_source
    assert "rt_get_path2" not in code and "rt_get_path3" not in code, code


CHAIN_KEYS = [":a", ":b", ":c", ":a-b", '"a"', '"b"', '"a_b"', "0", "1", "1.0", "true", "nil"]


def _chain(rnd: random.Random, base: str) -> str:
    form = base
    for _ in range(rnd.randint(1, 7)):
        k = rnd.choice(CHAIN_KEYS)
        form = f"({k} {form})" if k.startswith(":") and rnd.random() < 0.6 else f"(get {form} {k})"
    return form


@pytest.mark.parametrize("seed", range(4))
def test_random_chains_agree_with_reads_one_by_one(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    rnd = random.Random(200 + seed)
    for i in range(50):
        m = rnd.choice(MAPS)
        elems = " ".join(rnd.choice([*ELEMS, m]) for _ in range(rnd.randint(0, 4)))
        reads = " ".join(_chain(rnd, rnd.choice(["m", "e"])) for _ in range(rnd.randint(1, 4)))
        src = f"(let [m {m}] [[{reads}] (mapv (fn [e] [{reads}]) [{elems}])])\n; {seed}/{i}"
        budget = rnd.choice([10**6, rnd.randint(1, 6)])
        got = outcome(src, data={"tree": TREE}, max_steps=budget)
        with optimize.disabled("read-chain"):
            want = outcome(src + " ", data={"tree": TREE}, max_steps=budget)
        assert got == want, src
