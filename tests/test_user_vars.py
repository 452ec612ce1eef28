"""User vars (`def`/`defn`) read and called as plain names (`ptc_runtime.uservars`).

Generated code names a user var `v0_<mangled>` (its value) or `f0_<mangled>` (what calling
it calls); the run's namespace table is the module's `__builtins__`, so a reference is one
cached `LOAD_GLOBAL` instead of `NS['x']` / `NSC['x']`. Var semantics must not change: a
call reaches the definition current at the call, whether it was made later in the same
program, in a later run of the session, in a module that ran earlier, or is read from a
`pmap` worker; a `def` in a worker stays the worker's; a failed run's definitions are rolled
back; a name not (yet) defined fails with `unbound_var` at the reference's line:column; the
`(def x (or x init))` idiom and `defonce` see whether the name is defined.

Besides cases with their expected outcomes, random sessions run against the former
lowering (`NS['x']`, `NSC['x'](...)`, `rt_def`), put back for the reference runs: every
program's value, error (kind, code, line:column, message), output and steps must agree.
"""

from __future__ import annotations

import ast
import random
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from ptc_compiler import api
from ptc_compiler.lower import emit
from ptc_compiler.lower.ctx import NS, NSC
from ptc_runtime import context, executor, seam, uservars
from ptc_runtime import runtime as runtime_module
from ptc_runtime.seam import Runtime
from tests.outcomes import describe

# ------------------------------------------------------------------ names


@pytest.mark.parametrize(
    ("name", "mangled"),
    [
        ("fib", "fib"),
        ("my-fn?", "my_2d_fn_3f_"),
        ("a_b", "a_5f_b"),
        ("a-b", "a_2d_b"),
        ("a_2d_b", "a_5f_2d_5f_b"),
        ("__builtins__", "_5f__5f_builtins_5f__5f_"),
        ("*x*", "_2a_x_2a_"),
    ],
)
def test_mangling(name: str, mangled: str) -> None:
    assert uservars.mangle(name) == mangled
    for prefix in (uservars.VALUE_PREFIX, uservars.CALL_PREFIX):
        assert uservars.unmangle(prefix + mangled) == name


def test_mangling_is_injective_and_reversible() -> None:
    rnd = random.Random(7)
    alphabet = "ab_-?!*+<>=.'01xZ" + "éλ"
    seen: dict[str, str] = {}
    for _ in range(5000):
        name = "".join(rnd.choice(alphabet) for _ in range(rnd.randint(1, 6)))
        m = uservars.mangle(name)
        assert re.fullmatch(r"[A-Za-z0-9_]+", m)
        assert not m.endswith("__")  # RestrictedPython refuses names ending `__roles__`
        assert seen.setdefault(m, name) == name
        assert uservars.unmangle(uservars.VALUE_PREFIX + m) == name


@pytest.mark.parametrize("ident", ["v1_x", "f1_fib", "v0_a_zz", "v0_a_2d", "rt_data", "NS", "t0"])
def test_other_names_are_no_user_var(ident: str) -> None:
    assert uservars.unmangle(ident) is None


def test_references_are_plain_names() -> None:
    code = api.compile("(def r 2) (defn my-f? [x] (* x r)) (my-f? (my-f? r))").python_source
    assert "rt_define('r', 2)" in code and "rt_define('my-f?', f1_my_f)" in code
    assert "f0_my_2d_f_3f_(f0_my_2d_f_3f_(v0_r))" in code and "rt_mul2(v1_x, v0_r)" in code
    assert "NS[" not in code and "NSC" not in code
    # lenient references and defonce keep reading the user namespace itself
    code = api.compile("(def x (or x 1)) (defonce y 2) (or z 3) (def z 1)").python_source
    assert "rt_uget_lenient('x')" in code and "'y' in NS" in code and "rt_uget_lenient('z')" in code


# ------------------------------------------------------------------ semantics, one run


def outcome(src: str, **kw: Any) -> str:
    return describe(api.run(src, **kw))


ONE_RUN: list[tuple[str, str]] = [
    ("(defn f [] 1) (defn g [] (f)) (defn f [] 2) (g)", "steps 2 output '' ok 2"),
    # recursion through a name redefined meanwhile: the inner calls reach the new fn
    (
        "(defn f [n] (if (< n 1) 0 (+ 10 (f (dec n))))) (def old f)\n"
        "(defn f [n] (* n 100)) (old 3)",
        "steps 2 output '' ok 210",
    ),
    ("(def x 1) (defn g [] x) (def x 5) (g)", "steps 1 output '' ok 5"),
    ("(def x (or x 7)) (def x (or x 8)) x", "steps 0 output '' ok 7"),
    ("(defonce y 1) (defonce y 2) y", "steps 0 output '' ok 1"),
    ("(def x nil) (def x (or x 3)) x", "steps 0 output '' ok 3"),
    # defined later in the text, or not where later forms see it: an analysis error
    (
        "(do (f 1)\n (defn f [x] x))",
        "steps 0 output '' error exception unbound_var 1:6: undefined variable: f",
    ),
    (
        "(if false (def x 1))\n(+ 1\n   x)",
        "steps 0 output '' error exception unbound_var 3:4: undefined variable: x",
    ),
    (
        "(defn g [] (h? 2)) (g) (defn h? [n] n)",
        "steps 0 output '' error exception unbound_var 1:13: undefined variable: h?",
    ),
    # a var that is not a function
    (
        "(def f 1) (defn g [] (f 2)) (g)",
        "steps 1 output '' error exception not_callable 1:22: not callable: f is 1",
    ),
    ("(def f {:a 1}) (f :a)", "steps 0 output '' ok 1"),
    ("(def f :a) (f {:a 3})", "steps 0 output '' ok 3"),
    (
        "(defn f [a] a) (f 1 2)",
        "steps 0 output '' error exception arity_error 1:16: f: wrong number of arguments (2), expected 1",
    ),
    # names that are runtime names elsewhere are ordinary user names
    (
        "(def NSC 1) (def NS 2) (def __builtins__ 3) (def rt_data 4) (def v0_x 5) (def FUEL 6)\n"
        "(def __import__ 7) (def program 8) (def f1_x 9) (def f0_x 10)\n"
        "[NSC NS __builtins__ rt_data v0_x FUEL __import__ program f1_x f0_x data/a]",
        "steps 0 output '' ok [1 2 3 4 5 6 7 8 9 10 9]",
    ),
    ("(def a-b 1) (def a_2d_b 2) (def a_b 3) [a-b a_2d_b a_b]", "steps 0 output '' ok [1 2 3]"),
    # a worker sees the definitions of its run; its own def stays its own
    (
        "(defn f [n] 1) (defn g [n] (f n)) (defn f [n] (* n 2)) (pmap g [1 2 3])",
        "steps 6 output '' ok [2 4 6]",
    ),
    ("(def x 1) (pmap (fn [i] (def x i)) [5 6]) x", "steps 2 output '' ok 1"),
    ("(def x 1) (pmap (fn [i] (def x i) x) [5 6])", "steps 2 output '' ok [1 1]"),
]


@pytest.mark.parametrize(("src", "expected"), ONE_RUN)
def test_var_semantics_in_one_run(src: str, expected: str) -> None:
    assert outcome(src, data={"a": 9}) == expected


# ------------------------------------------------------------------ sessions


@pytest.fixture(scope="module")
def local() -> Iterator[Runtime]:
    runtime = api.runtime("in-process")
    yield runtime
    runtime.close()


@pytest.fixture(scope="module")
def isolated() -> Iterator[Runtime]:
    runtime = api.runtime("isolated")
    yield runtime
    runtime.close()


def session(rt: Runtime, programs: list[str], **kw: Any) -> list[str]:
    """Each program in a run of its own with one state owner, described."""
    owner = object()
    try:
        return [
            describe(api.run(p, runtime=rt, state_owner=owner, timeout_ms=None, **kw))
            for p in programs
        ]
    finally:  # an owner holds an isolated worker until released (the pool is bounded)
        rt.release(owner)


SESSIONS: list[tuple[list[str], list[str | None]]] = [
    # a later run's def is what an earlier run's fn calls and reads
    (
        [
            "(defn f [] 1) (def x 10) (defn g [] (+ (f) x)) 0",
            "(g)",
            "(defn f [] 2) (def x 20) 0",
            "(g)",
        ],
        ["ok 0", "ok 11", "ok 0", "ok 22"],
    ),
    # a failed run's definitions are rolled back, also for earlier modules' fns
    (
        ["(defn f [] 1) (defn g [] (f)) 0", "(defn f [] 3) (defn k [] 4) (/ 1 0)", "(g)", "(k)"],
        ["ok 0", "error exception arithmetic_error 1:29: /: divide by zero", "ok 1", None],
    ),
    # the first-turn idiom keeps the value of the first run
    (
        ["(def x (or x 1)) x", "(def x (or x 2)) x", "(defonce y 3) 0", "(defonce y 4) y"],
        ["ok 1", "ok 1", "ok 0", "ok 3"],
    ),
    # recursion of an earlier run through a name a later run redefines
    (
        [
            "(defn f [n] (if (< n 1) 0 (+ 10 (f (dec n))))) (def old f) 0",
            "(defn f [n] (* n 100)) 0",
            "(old 3)",
        ],
        ["ok 0", "ok 0", "ok 210"],
    ),
    # workers of a later run call an earlier run's fn that calls a redefined one
    (
        ["(defn f [n] n) (defn g [n] (f n)) 0", "(defn f [n] (- n)) 0", "(pmap g [1 2 3])"],
        ["ok 0", "ok 0", "ok [-1 -2 -3]"],
    ),
]


def _tail(line: str) -> str:
    return line.split(" ", 4)[4]  # past "steps N output '...'"


@pytest.mark.parametrize("case", range(len(SESSIONS)))
def test_var_semantics_across_a_session(local: Runtime, case: int) -> None:
    programs, expected = SESSIONS[case]
    got = [_tail(line) for line in session(local, programs)]
    for g, e in zip(got, expected, strict=True):
        if e is None:  # rolled back: unknown when analysed
            assert "unbound" in g or "analysis" in g or "undefined" in g, g
        else:
            assert g == e


@pytest.mark.parametrize("case", range(len(SESSIONS)))
def test_an_isolated_session_agrees(local: Runtime, isolated: Runtime, case: int) -> None:
    programs, _ = SESSIONS[case]
    assert session(isolated, programs) == session(local, programs)


def run_compiled(src: str, known: frozenset[str]) -> str:
    """`src` compiled with `known` as earlier definitions and run in a fresh context
    that has none of them: the one way a reference meets a name not defined at run time
    (the analyzer refuses names no earlier `def` makes known)."""
    program = api.compile(src, user_names=known)
    ctx = context.RunContext()
    out = executor.execute(program.code, ctx, program.fn_names)
    err = out.error
    assert err is not None
    return f"{ctx.steps_used} {err.code} {err.line}:{err.column}: {err.message}"


@pytest.mark.parametrize(
    ("src", "expected"),
    [
        ("(+ 1\n   my-x?)", "0 unbound_var 2:4: undefined variable: my-x?"),
        ("(defn g [n] (* n 2))\n(g (my-f 1))", "0 unbound_var 2:4: undefined variable: my-f"),
        ("(defn g [n] (my-f n)) (map g [1 2])", "1 unbound_var 1:13: undefined variable: my-f"),
        # in a worker, as any Python error there (a KeyError before): raised as it is, with
        # the item's prefix
        (
            "(pmap (fn [n] (+ n my-x?)) [1 2])",
            "1 unbound_var 1:20: pmap: item 0 failed: undefined variable: my-x?",
        ),
    ],
)
def test_a_name_not_defined_at_run_time(
    src: str, expected: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    known = frozenset({"my-x?", "my-f"})
    assert run_compiled(src, known) == expected
    with former_lowering(monkeypatch):
        assert run_compiled(src + " ", known) == expected


def test_a_name_error_outside_generated_code_is_ours() -> None:
    err = executor.translate(NameError("name 'f0_my_2d_f' is not defined", name="f0_my_2d_f"), {})
    assert err.code == "internal_error"


# ------------------------------------------------------------------ the former lowering


@contextmanager
def former_lowering(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Lower user-var references as before (`NS['x']`, `NSC['x'](...)`, `rt_def`), and run
    them as before: `NSC` is the run's table (here found as its own entry, the table
    being the module's builtins), which `rt_def` fills under the plain names."""

    def subscript_ref(prefix: str, name: str) -> ast.expr:
        table = NS if prefix == uservars.VALUE_PREFIX else NSC
        return ast.Subscript(ast.Name(table, ast.Load()), ast.Constant(name), ast.Load())

    helper = emit.helper

    def old_helper(name: str, *args: ast.expr) -> ast.Call:
        return helper("def" if name == "define" else name, *args)

    execute = seam.execute

    def old_execute(code: Any, ctx: Any, fn_names: Any) -> Any:
        ctx.nsc.setdefault(NSC, ctx.nsc)
        return execute(code, ctx, fn_names)

    with monkeypatch.context() as m:
        m.setattr(emit, "user_var", subscript_ref)
        m.setattr(emit, "helper", old_helper)
        m.setattr(runtime_module, "execute", old_execute)
        m.setattr(executor, "execute", old_execute)
        yield


FNS = ["f", "g-2", "h?"]
VARS = ["x", "y*", "a-b", "a_2d_b", "NS", "__builtins__"]


class Gen:
    """Random session programs over a few names: (re)definitions of fns and values,
    calls and reads (direct, through map/pmap, from other fns), the or-idiom, defonce,
    defs in workers, conditional defs, values that are not fns, runs that fail."""

    def __init__(self, rnd: random.Random) -> None:
        self.rnd = rnd

    def num(self) -> str:
        return str(self.rnd.randint(0, 4))

    def fn_name(self) -> str:
        return self.rnd.choice(FNS)

    def var_name(self) -> str:
        return self.rnd.choice(VARS)

    def value(self) -> str:
        r = self.rnd
        return r.choice(
            [
                self.num(),
                f"(+ {self.var_name()} {self.num()})",
                f"({self.fn_name()} {self.num()})",
                "nil",
                "false",
            ]
        )

    def body(self) -> str:
        r = self.rnd
        f = self.fn_name()
        return r.choice(
            [
                f"(+ n {self.num()})",
                f"(* n {self.var_name()})",
                f"({f} n)",
                f"(if (< n 1) {self.num()} ({f} (dec n)))",
                f"(if (< n 1) 0 (+ 1 ({f} (- n 1))))",
                f"(+ n ({f} 0) {self.var_name()})",
            ]
        )

    def form(self) -> str:
        r = self.rnd
        f, v = self.fn_name(), self.var_name()
        return r.choice(
            [
                f"(defn {f} [n] {self.body()})",
                f"(defn {f} [n] {self.body()})",
                f"(def {f} (fn [n] {self.body()}))",
                f"(def {f} {r.choice(['1', ':a', '{:a 1}', '#{1}', 'nil', v])})",
                f"(def {v} {self.value()})",
                f"(def {v} (or {v} {self.num()}))",
                f"(defonce {v} {self.value()})",
                f"(if (< {self.num()} 2) (def {v} {self.num()}))",
                f"(if (< {self.num()} 2) (defn {f} [n] {self.body()}))",
                f"({f} {self.num()})",
                f"({f} {self.num()})",
                f"(map {f} [1 2])",
                f"(pmap {f} [1 2 3])",
                f"(pmap (fn [i] (def {v} i) {v}) [1 2])",
                f"(+ {v} {self.num()})",
                f"[{v} ({f} {v})]",
                f"(do ({f} 1) (defn {f} [n] {self.body()}))",
                "(/ 1 0)",
                f"(println {v})",
            ]
        )

    def program(self) -> str:
        return "\n".join(self.form() for _ in range(self.rnd.randint(1, 5)))

    def session(self) -> list[str]:
        return [self.program() for _ in range(self.rnd.randint(1, 4))]


@pytest.mark.parametrize("seed", range(6))
def test_random_sessions_agree_with_the_former_lowering(
    local: Runtime, monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    rnd = random.Random(seed)
    gen = Gen(rnd)
    kinds: set[str] = set()
    for i in range(40):
        programs = gen.session()
        budget = rnd.choice([{}, {}, {}, {"max_steps": 3}, {"max_steps": 20}])
        new = session(local, programs, **budget)
        with former_lowering(monkeypatch):
            # other text: compiled programs are cached by their source
            old = session(local, [p + " " for p in programs], **budget)
        assert new == old, f"{seed}/{i}: {programs}"
        kinds.update("error" if " error " in line else "ok" for line in new)
    assert kinds == {"ok", "error"}
