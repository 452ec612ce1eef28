"""Two-argument `+`/`-` in numeric code (`rules_operators.same_type_arith`) and the numeric guard of fns.

Where some local is known to be a number (a fn's numeric version, a numeric `let` or
`loop` binding), `(+ a b)` / `(- a b)` with operands not proven numeric get the operator
inline for two ints or two floats, the operands held in compiler temporaries (`:=`), and the helper
(`rt_add2`/`rt_sub2`) for everything else. The same values, errors (code, message,
line:column), output and step counts as the plain helper call; `:=` only ever assigns a
compiler temporary.
"""

from __future__ import annotations

import ast
import contextlib
import random
from collections.abc import Iterator

import pytest

from ptc_compiler import api, optimize
from ptc_compiler.lower import lower
from ptc_compiler.lower.check import GeneratedCodeRejected, check_restricted, finalize
from tests.outcomes import outcome

FIB = "(defn fib [n] (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))"


@contextlib.contextmanager
def plain_helper_calls() -> Iterator[None]:
    """The lowering before the rule: every such `+`/`-` a plain `rt_add2`/`rt_sub2` call."""
    with optimize.disabled("same-type-arith"):
        yield


def _both(src: str) -> tuple[str, str, str]:
    """(new outcome, plain outcome, new Python source); the sources differ in a trailing
    comment so that each is compiled (and cached) under its own lowering."""
    new_src = src + "\n; new"
    new = outcome(new_src, max_steps=100_000)
    with plain_helper_calls():
        old_src = src + "\n; plain"
        api.compile(old_src)  # compiled (and cached) under the plain lowering
        old = outcome(old_src, max_steps=100_000)
    return new, old, api.compile(new_src).python_source


# ------------------------------------------------------------------ where it applies


def test_fib_adds_inline_in_its_numeric_version_only() -> None:
    code = api.compile(FIB + " (fib 10)").python_source
    fast, general = code.split("elif", 1)
    assert ":= f0_fib(v1_n - 1)" in fast and "is rt_int or rt_type(t2) is " in fast
    assert "rt_type(t3) is rt_float else rt_add2(t2, t3)" in fast
    assert ":=" not in general and "rt_add2(f0_fib(rt_sub2(v1_n, 1))" in general
    assert "rt_type(v1_n) is rt_int or rt_type(v1_n) is rt_float" in code
    assert api.run(FIB + " (fib 20)").value == 6765


@pytest.mark.parametrize(
    ("src", "shape"),
    [
        # a numeric let binding makes the context numeric; trivial operands are read twice
        ("(let [z 1 m {:a 2}] (+ (:a m) z))", ":= rt_kfield("),
        (
            "(fn [x y] (let [z 0] (- x y)))",
            "v1_x - v2_y if rt_type(v1_x) is rt_type(v2_y) is rt_int or rt_type(v1_x) is"
            " rt_type(v2_y) is rt_float else rt_sub2(v1_x, v2_y)",
        ),
        (
            "(loop [i 0 acc []] (if (< i 3) (recur (inc i) (+ (count acc) (first [i]))) acc))",
            "is rt_float else rt_add2(",
        ),
        # beside a number literal only the other operand is tested, for the literal's type
        (
            "(defn f [n] (if (< n 0) n (- (f n) 1)))",
            "if rt_type((t2 := f0_f(v1_n))) is rt_int else rt_sub2(t2, 1)",
        ),
        (
            "(defn f [n] (if (< n 0) n (+ 1.5 (f n))))",
            "1.5 + t2 if rt_type((t2 := f0_f(v1_n))) is rt_float else rt_add2(1.5, t2)",
        ),
    ],
)
def test_rule_applies_in_numeric_code(src: str, shape: str) -> None:
    assert shape in api.compile(src).python_source


@pytest.mark.parametrize(
    "src",
    [
        "(fn [m] (+ (:a m) (:b m)))",  # no local known numeric
        '(let [s "x"] (+ (count s) (count s)))',
        "(defn f [n] (* (f n) (f n)))",  # `*` is size-checked first: always the helper
        "(defn f [n] (+ (f n) (f n) 1))",  # three operands: the variadic builtin
        "(defn f [n] (< (f n) (f n)))",  # comparisons keep their helpers
        "(defn f [n] (+ n 1))",  # proven numeric: the plain operator, no test
        '(defn f [n] (if (< n 0) n (+ (f n) "s")))',  # a literal that is no number
        "(defn f [n] (if (< n 0) n (+ (f n) nil)))",
    ],
)
def test_rule_does_not_apply(src: str) -> None:
    code = api.compile(src).python_source
    assert ":=" not in code and "rt_int else" not in code and "rt_float else" not in code


# ------------------------------------------------------------------ same behaviour


ATOMS = [
    *("0", "1", "-7", "2", "4611686018427387904", "100000000000000000000000000000"),
    "(* " + " ".join(["1" + "0" * 90] * 4) + ")",  # 10^360: int + float overflows in Python
    *("1.5", "-0.0", "1e308", "##Inf", "##NaN", "true", "false", "nil", '"s"', ":k", "[1]"),
]


def _operand(rnd: random.Random, depth: int, locals_: list[str]) -> str:
    pick = rnd.random()
    if pick < 0.3:
        return rnd.choice(ATOMS)
    if pick < 0.45 and locals_:
        return rnd.choice(locals_)
    if pick < 0.6:
        return f"(g {rnd.choice(ATOMS)})"  # prints, then gives its argument
    if pick < 0.68:
        return f"(:a {{:a {rnd.choice(ATOMS)}}})"
    if pick < 0.74:
        return rnd.choice(["(fail :boom)", "(/ 1 0)", "(nth [] 3)"])
    if depth < 2:
        return _arith(rnd, depth + 1, locals_)
    return rnd.choice(ATOMS)


def _arith(rnd: random.Random, depth: int, locals_: list[str]) -> str:
    op = rnd.choice(["+", "-"])
    a = _operand(rnd, depth, locals_)
    b = _operand(rnd, depth, locals_)
    return f"({op} {a}\n   {b})"


def _program(rnd: random.Random) -> str:
    head = '(defn g [x] (println "g" x) x)\n'
    shape = rnd.randrange(3)
    if shape == 0:  # a fn's numeric version (and, for a non-number, its general version)
        body = _arith(rnd, 0, ["n"])
        arg = rnd.choice(["3", "2.5", "-1", "nil", '"x"', "100000000000000000000"])
        return head + f"(defn f [n] (if (< n 0) n\n  {body}))\n(f {arg})"
    if shape == 1:  # a numeric let binding
        body = _arith(rnd, 0, ["z", "w"])
        return head + f"(let [z {rnd.choice(['1', '2.5'])} w {rnd.choice(ATOMS)}]\n  {body})"
    body = _arith(rnd, 0, ["i", "acc"])  # a loop accumulating through the rule
    start = rnd.choice(["0", "1.5", "nil"])
    return head + f"(loop [i 0 acc {start}]\n  (if (< i 3) (recur (inc i)\n  {body}) acc))"


@pytest.mark.parametrize("seed", range(8))
def test_random_programs_agree_with_the_plain_helper_calls(seed: int) -> None:
    rnd = random.Random(seed)
    applied = 0
    for _ in range(60):
        src = _program(rnd)
        new, old, code = _both(src)
        assert new == old, src
        applied += ":=" in code or "rt_int else" in code or "rt_float else" in code
    assert applied >= 30  # the rule was exercised, not just compiled around


def test_operands_run_once_and_in_order() -> None:
    src = (
        '(defn g [x] (println "g" x) x)\n'
        "(defn f [n] (+ (g (- n 1))\n   (g (+ n 10))))\n"
        "[(f 1) (f 2.5)]"
    )
    new, old, _ = _both(src)
    assert new == old
    assert "output 'g 0\\ng 11\\ng 1.5\\ng 12.5\\n'" in new


@pytest.mark.parametrize(
    "expr", ["(+ 1.5 (big n))", "(- (big n) 1.5)", "(+ (big n) 2)", "(+ (big n) (half n))"]
)
def test_a_huge_int_and_a_float_overflow_to_infinity(expr: str) -> None:
    # int and float mixed go to the helper: Python's int + float would raise OverflowError
    src = (
        "(defn big [n] (* 10000000000000000000000000000000000000000 n n n n n n n n n n))\n"
        "(defn half [n] (/ n 2))\n"
        f"(defn f [n] (if (< n 0) n {expr}))\n"
        "(f 100000000000000000000000000000000)"
    )
    new, old, code = _both(src)
    assert new == old and ":=" in code
    assert "error" not in new


def test_errors_keep_their_positions() -> None:
    src = "(defn f [n] (if (< n 0) 0\n  (+ (f -1)\n     :k)))\n(f 1)"
    new, old, _ = _both(src)
    assert new == old
    assert " 2:3: " in new  # the `+` form, as the helper call reported it


def test_step_counts_of_fib_are_unchanged() -> None:
    new, old, code = _both(FIB + "\n(fib 15)")
    assert ":=" in code
    assert new == old and new.startswith("steps 1973 ")


# ------------------------------------------------------------------ `:=` stays a temporary


def _walrus(target: ast.expr) -> ast.Module:
    named = ast.NamedExpr(target, ast.Constant(1))  # type: ignore[arg-type]
    return ast.Module([ast.Expr(named)], [])


@pytest.mark.parametrize(
    "target",
    [
        ast.Name("v1_x", ast.Store()),  # a program's local
        ast.Name("rt_add2", ast.Store()),  # a helper
        ast.Name("b_str", ast.Store()),
        ast.Name("FUEL", ast.Store()),
        ast.Name("NSC", ast.Store()),
        ast.Name("k1", ast.Store()),
        ast.Name("f1_fib", ast.Store()),
        ast.Name("t1x", ast.Store()),
        ast.Name("t", ast.Store()),
        ast.Name("t1", ast.Load()),
        ast.Subscript(ast.Name("NS", ast.Load()), ast.Constant("x"), ast.Store()),
        ast.Tuple([ast.Name("t1", ast.Store())], ast.Store()),
    ],
)
def test_walrus_may_only_assign_a_compiler_temporary(target: ast.expr) -> None:
    with pytest.raises(GeneratedCodeRejected):
        finalize(_walrus(target))


def test_walrus_on_a_temporary_passes_both_checks() -> None:
    module = _walrus(ast.Name("t12", ast.Store()))
    finalize(module)
    check_restricted(module)


def test_program_names_never_become_walrus_targets() -> None:
    # Locals the program names like temporaries, helpers or tables are mangled; every `:=`
    # target in the generated module is a temporary the compiler made.
    src = (
        "(defn t1 [t2] (let [t3 (count [t2]) rt_int 1 FUEL 2]\n"
        "  (+ (t1 (- t2 t3)) (t1 (- t2 rt_int FUEL)))))"
    )
    program = api.compile(src)
    module = lower(program.ir).module
    targets = [n.target for n in ast.walk(module) if isinstance(n, ast.NamedExpr)]
    assert targets
    for t in targets:
        assert isinstance(t, ast.Name) and t.id[0] == "t" and t.id[1:].isdigit()
    names = {n.id for n in ast.walk(module) if isinstance(n, ast.Name)}
    assert {"v2_t2", "v3_t3"} <= names or any(n.endswith("_t2") for n in names)
