"""Every core builtin: results, edge cases and error codes (table-driven)."""

from __future__ import annotations

import math
from collections.abc import Callable

import pytest

from ptc_runtime import context
from ptc_runtime.builtins import BUILTINS
from ptc_runtime.collections import PSet, PVec, to_key
from ptc_runtime.equality import eq
from ptc_runtime.errors import PtcError
from ptc_runtime.printer import pr_str
from ptc_runtime.values import keyword
from tests.complexity import assert_linear

A = keyword("a")
B = keyword("b")
INF = math.inf
NAN = math.nan


def call(name: str, *args: object) -> object:
    spec = BUILTINS[name]
    assert spec.accepts(len(args)), f"{name} does not accept {len(args)} arguments"
    return spec.fn(*args)


def S(*xs: object) -> PSet:
    return PSet.from_iterable(xs)


# (name, args, printed result)
RESULTS: list[tuple[str, tuple[object, ...], str]] = [
    # arithmetic
    ("+", (), "0"),
    ("+", (1, 2), "3"),
    ("+", (1, 2.5, 3), "6.5"),
    ("+", (INF, -INF), "##NaN"),
    ("+", (10**400, 1.0), "##Inf"),
    ("-", (5,), "-5"),
    ("-", (10, 1, 2), "7"),
    ("*", (), "1"),
    ("*", (2, 3, 4), "24"),
    ("*", (1e308, 10.0), "##Inf"),
    ("*", (0, INF), "##NaN"),
    ("/", (10, 2), "5.0"),
    ("/", (4,), "0.25"),
    ("/", (1, 0.0), "##Inf"),
    ("/", (-1, 0.0), "##-Inf"),
    ("/", (1, -0.0), "##-Inf"),
    ("/", (0.0, 0.0), "##NaN"),
    ("/", (10**400, 10**399), "10.0"),
    ("inc", (1,), "2"),
    ("inc", (1.5,), "2.5"),
    ("dec", (0,), "-1"),
    ("quot", (7, 2), "3"),
    ("quot", (-7, 2), "-3"),
    ("quot", (7.5, 2), "3.0"),
    ("quot", (1.0, 0.0), "##NaN"),
    ("rem", (-7, 2), "-1"),
    ("rem", (7, -2), "1"),
    ("rem", (7.5, 2), "1.5"),
    ("mod", (-10, 3), "2"),
    ("mod", (10, -3), "-2"),
    ("mod", (-10.5, 3), "1.5"),
    ("mod", (5, 0.0), "##NaN"),
    ("abs", (-3,), "3"),
    ("abs", (-INF,), "##Inf"),
    ("abs", (-(10**30),), "1" + "0" * 30),
    ("max", (1, 3, 2), "3"),
    ("max", (1, 2.0), "2.0"),
    ("max", (1, NAN, 2), "##NaN"),
    ("max", ("x",), '"x"'),
    ("min", (3, 1, 2), "1"),
    ("min", (NAN, 1), "##NaN"),
    # comparison
    ("=", (1,), "true"),
    ("=", (1, 1.0), "true"),
    ("=", (1, 1, 2), "false"),
    ("=", (True, 1), "false"),
    ("=", ([1, {A: [2]}], [1.0, {A: [2.0]}]), "true"),
    ("==", ("a", "a"), "true"),
    ("not=", (1, 2), "true"),
    ("not=", (1, 1.0), "false"),
    ("<", (1,), "true"),
    ("<", ("x",), "true"),
    ("<", (1, 2, 3), "true"),
    ("<", (1, 3, 2), "false"),
    ("<", (1, NAN), "false"),
    # pair by pair as Clojure: a false pair ends it before a later non-number is looked at
    ("<", (5, 3, None), "false"),
    (">", (1, 2, "a"), "false"),
    ("<=", (2, 1, "a"), "false"),
    (">", (3, 2.5, 1), "true"),
    ("<=", (1, 1, 2), "true"),
    (">=", (2, 2, 3), "false"),
    ("compare", (1, 2), "-1"),
    ("compare", (None, "a"), "-1"),
    ("compare", ([1, 2], [1, 2]), "0"),
    # logic
    ("not", (None,), "true"),
    ("not", (0,), "false"),
    ("identity", (A,), ":a"),
    ("boolean", ("",), "true"),
    ("boolean", (False,), "false"),
    # predicates
    ("nil?", (None,), "true"),
    ("some?", (False,), "true"),
    ("true?", (1,), "false"),
    ("false?", (False,), "true"),
    ("boolean?", (True,), "true"),
    ("boolean?", (0,), "false"),
    ("number?", (True,), "false"),
    ("number?", (NAN,), "true"),
    ("int?", (10**50,), "true"),
    ("int?", (1.0,), "false"),
    ("integer?", (False,), "false"),
    ("float?", (1.0,), "true"),
    ("double?", (1,), "false"),
    ("string?", ("",), "true"),
    ("keyword?", (A,), "true"),
    ("keyword?", ("a",), "false"),
    ("vector?", (PVec([1], 1),), "true"),
    ("vector?", (S(),), "false"),
    ("map?", ({},), "true"),
    ("set?", (S(),), "true"),
    ("fn?", (len,), "true"),
    ("fn?", (A,), "false"),
    ("fn?", (S(),), "false"),
    ("fn?", ({},), "false"),
    ("coll?", ([],), "true"),
    ("coll?", ("s",), "false"),
    ("coll?", (None,), "false"),
    ("zero?", (0.0,), "true"),
    ("zero?", (None,), "false"),
    ("pos?", (INF,), "true"),
    ("pos?", (NAN,), "false"),
    ("pos?", ("1",), "false"),
    ("neg?", (-1,), "true"),
    ("neg?", (True,), "false"),
    ("even?", (4,), "true"),
    ("even?", (4.0,), "true"),
    ("even?", (4.5,), "false"),
    ("even?", ("x",), "false"),
    ("odd?", (-3,), "true"),
    ("odd?", (INF,), "false"),
    ("empty?", (None,), "true"),
    ("empty?", ("",), "true"),
    ("empty?", ([0],), "false"),
    ("empty?", (S(),), "true"),
    # construction
    ("vector", (1, 2), "[1 2]"),
    ("vector", (), "[]"),
    ("list", (1, A), "[1 :a]"),
    ("vec", (None,), "[]"),
    ("vec", ({A: 1},), "[[:a 1]]"),
    ("vec", ("ab",), '["a" "b"]'),
    ("vec", (S(2, 1),), "[2 1]"),
    ("hash-map", (A, 1, "b", 2), '{:a 1, "b" 2}'),
    ("hash-map", (A, 1, A, 2), "{:a 2}"),
    ("hash-map", (True, 1, 1, 2), "{true 1, 1 2}"),
    ("hash-set", (1, 2, 1.0), "#{1 2}"),
    ("set", ([3, 1, 3],), "#{3 1}"),
    ("set", (None,), "#{}"),
    # access
    ("count", (None,), "0"),
    ("count", ("h\U0001f600",), "2"),
    ("count", ({A: 1},), "1"),
    ("count", (S(1, 2),), "2"),
    ("get", ({"a": 1}, A), "1"),
    ("get", ({A: 1}, B, 0), "0"),
    ("get", ({A: None}, A, 0), "nil"),
    ("get", ([1, 2], 1), "2"),
    ("get", (None, A), "nil"),
    ("get", ({A: {B: 1}}, [A, B]), "1"),
    ("get-in", ({"a": [{"b": 7}]}, [A, 0, B]), "7"),
    ("get-in", ({A: 1}, [B], "d"), '"d"'),
    ("get-in", ({A: 1}, []), "{:a 1}"),
    ("get-in", (None, [A]), "nil"),
    ("first", ([1, 2],), "1"),
    ("first", (None,), "nil"),
    ("first", ("ab",), '"a"'),
    ("first", ({A: 1},), "[:a 1]"),
    ("first", ([],), "nil"),
    ("second", ([1, 2],), "2"),
    ("second", ([1],), "nil"),
    ("last", ([1, 2, 3],), "3"),
    ("last", (None,), "nil"),
    ("rest", ([1, 2, 3],), "[2 3]"),
    ("rest", ([],), "[]"),
    ("rest", (None,), "[]"),
    ("next", ([1],), "nil"),
    ("next", ([1, 2],), "[2]"),
    ("nth", ([1, 2], 1), "2"),
    ("nth", ([1, 2], 5), "nil"),
    ("nth", ([1, 2], -1, A), ":a"),
    ("nth", ("abc", 2), '"c"'),
    ("nth", (None, 0), "nil"),
    # growth
    ("conj", (), "[]"),
    ("conj", ([1],), "[1]"),
    ("conj", ([1], 2, 3), "[1 2 3]"),
    ("conj", (None, 1, 2), "[1 2]"),
    ("conj", (S(1), 2, 1), "#{1 2}"),
    ("conj", ({A: 1}, [B, 2]), "{:a 1, :b 2}"),
    ("conj", ({"a": 1}, [A, 2]), '{"a" 2}'),
    ("conj", ({A: 1}, {B: 2}), "{:a 1, :b 2}"),
    # nil onto a map adds no entry, as in Clojure (found by the Clojure campaign)
    ("conj", ({A: 1}, None), "{:a 1}"),
    ("conj", ({}, None, [A, 1], None), "{:a 1}"),
    ("assoc", ({"n": 1}, keyword("n"), 2), '{"n" 2}'),
    ("assoc", (None, A, 1), "{:a 1}"),
    ("assoc", ({A: 1}, B, 2, A, 3), "{:a 3, :b 2}"),
    ("assoc", ([1, 2], 1, 9), "[1 9]"),
    ("assoc", ([1, 2], 2, 3), "[1 2 3]"),
    ("dissoc", ({A: 1, B: 2}, A), "{:b 2}"),
    ("dissoc", ({"a": 1, B: 2}, A), "{:b 2}"),
    ("dissoc", ({A: 1}, B), "{:a 1}"),
    ("dissoc", (None, A), "nil"),
    ("dissoc", ({A: 1},), "{:a 1}"),
    ("keys", ({B: 1, A: 2},), "[:b :a]"),
    ("keys", ({},), "nil"),
    ("keys", (None,), "nil"),
    ("keys", ({to_key(True): 1},), "[true]"),
    ("vals", ({B: 1, A: 2},), "[1 2]"),
    ("vals", (None,), "nil"),
    # a vector of entries, as (sort-by val m) returns (found by the Clojure campaign)
    ("keys", ([[B, 2], [A, 1]],), "[:b :a]"),
    ("vals", ([[B, 2], [A, 1]],), "[2 1]"),
    ("keys", ([],), "nil"),
    ("vals", ([],), "nil"),
    ("contains?", ({"a": None}, A), "true"),
    ("contains?", ({A: 1}, B), "false"),
    ("contains?", (S(1), 1.0), "true"),
    ("contains?", (["a", "b"], "b"), "true"),
    ("contains?", (None, A), "false"),
    # sequences
    ("cons", (0, [1, 2]), "[0 1 2]"),
    ("cons", (0, None), "[0]"),
    ("cons", (0, {A: 1}), "[0 [:a 1]]"),
    ("concat", (), "[]"),
    ("concat", ([1], None, [2, 3], S(4)), "[1 2 3 4]"),
    ("concat", ({A: 1}, "ab"), '[[:a 1] "a" "b"]'),
    ("range", (5,), "[0 1 2 3 4]"),
    ("range", (0,), "[]"),
    ("range", (2, 5), "[2 3 4]"),
    ("range", (10, 0, -3), "[10 7 4 1]"),
    ("range", (0, 1, 0.25), "[0 0.25 0.5 0.75]"),
    ("range", (2.5,), "[0 1 2]"),
    ("range", (5, 2), "[]"),
    ("into", ([], [1, 2]), "[1 2]"),
    ("into", ([0], S(1)), "[0 1]"),
    ("into", ({}, [[A, 1], [B, 2]]), "{:a 1, :b 2}"),
    ("into", ({}, [None, [A, 1], None]), "{:a 1}"),  # (into {} (map #(when ..) xs))
    ("into", ({"a": 0}, {A: 1}), '{"a" 1}'),
    ("into", ([], {A: 1}), "[[:a 1]]"),
    ("into", (S(1), [2, 1]), "#{1 2}"),
    ("into", (None, [1]), "[1]"),
    ("into", ([1], None), "[1]"),
    ("map", (BUILTINS["inc"].fn, [1, 2]), "[2 3]"),
    ("map", (BUILTINS["+"].fn, [1, 2, 3], [10, 20]), "[11 22]"),
    ("map", (A, [{A: 1}, {"a": 2}, {}]), "[1 2 nil]"),
    ("map", ({1: "one"}, [1, 2]), '["one" nil]'),
    ("map", (S(1), [1, 2]), "[1 nil]"),
    ("map", (BUILTINS["first"].fn, {A: 1}), "[:a]"),
    ("map", (BUILTINS["identity"].fn, None), "[]"),
    ("filter", (BUILTINS["even?"].fn, [1, 2, 3, 4]), "[2 4]"),
    ("filter", (A, [{A: True}, {A: False}, {A: 0}]), "[{:a true} {:a 0}]"),
    ("filter", (S(2, 3), [1, 2, 3]), "[2 3]"),
    ("reduce", (BUILTINS["+"].fn, [1, 2, 3]), "6"),
    ("reduce", (BUILTINS["+"].fn, []), "0"),
    ("reduce", (BUILTINS["+"].fn, [5]), "5"),
    ("reduce", (BUILTINS["+"].fn, 10, [1, 2]), "13"),
    ("reduce", (BUILTINS["+"].fn, 10, None), "10"),
    ("reduce", (BUILTINS["conj"].fn, [], [1, 2, 3]), "[1 2 3]"),
    # strings
    ("str", (), '""'),
    ("str", (None,), '""'),
    ("str", ("a", 1, 1.0, None, A, True), '"a11.0:atrue"'),
    ("str", (keyword("user-id"),), '":user-id"'),
    ("str", ([1, "a", None],), '"[1 \\"a\\" nil]"'),
    ("str", (INF, NAN, -INF), '"InfinityNaN-Infinity"'),
    ("str", ({A: "x"},), '"{:a \\"x\\"}"'),
    ("str", (1e7,), '"1.0E7"'),
    ("pr-str", (), '""'),
    ("pr-str", ("a", None, INF), '"\\"a\\" nil ##Inf"'),
    ("subs", ("hello", 1), '"ello"'),
    ("subs", ("hello", 1, 3), '"el"'),
    ("subs", ("hello", 1, 99), '"ello"'),
    ("subs", ("hello", -1), '""'),
    ("subs", ("hello", 9), '""'),
    ("subs", ("hello", 3, 1), '""'),
    ("subs", ("a\U0001f600b", 1, 2), '"\U0001f600"'),
]


@pytest.mark.parametrize(
    ("name", "args", "want"),
    RESULTS,
    ids=[f"{n}-{i}" for i, (n, _, _) in enumerate(RESULTS)],
)
def test_result(name: str, args: tuple[object, ...], want: str) -> None:
    assert pr_str(call(name, *args)) == want


# (name, args, code, message fragment)
ERRORS: list[tuple[str, tuple[object, ...], str, str]] = [
    ("+", (1, True), "type_error", "+: expected numbers, got boolean"),
    ("+", (None,), "type_error", "got nil"),
    ("+", (1, "2"), "type_error", "got string"),
    ("-", (A,), "type_error", "got keyword"),
    ("*", ([],), "type_error", "got vector"),
    ("/", (1, 0), "arithmetic_error", "divide by zero"),
    ("/", (1, 0), "arithmetic_error", "divide by zero"),
    ("/", (0,), "arithmetic_error", "divide by zero"),
    ("/", (1, None), "type_error", "got nil"),
    ("inc", (None,), "type_error", "inc: expected numbers, got nil"),
    ("dec", ("1",), "type_error", "got string"),
    ("quot", (1, 0), "arithmetic_error", "quot"),
    ("rem", (1, 0), "arithmetic_error", "rem"),
    ("mod", (1, 0), "arithmetic_error", "mod"),
    ("mod", (True, 1), "type_error", "boolean"),
    ("abs", (None,), "type_error", "nil"),
    ("max", (1, "a"), "type_error", "string"),
    ("min", (None, 1), "type_error", "nil"),
    ("<", (1, None), "type_error", "<: expected numbers"),
    ("<", (1, 2, None), "type_error", "<: expected numbers, got number, number, nil"),
    ("<", ("a", "b"), "type_error", "string"),
    (">=", (True, 1), "type_error", "boolean"),
    ("compare", (1, "a"), "type_error", "not comparable"),
    ("compare", ({}, {}), "type_error", "map"),
    ("empty?", (1,), "type_error", "empty?"),
    ("vec", (1,), "type_error", "vec: expected a collection, got number"),
    ("hash-map", (A,), "arity_error", "even"),
    ("set", (1,), "type_error", "number"),
    ("count", (1,), "type_error", "count"),
    ("first", (A,), "type_error", "keyword"),
    ("rest", (1,), "type_error", "number"),
    ("nth", ({}, 0), "type_error", "map"),
    ("nth", ([1], "0"), "type_error", "string"),
    ("nth", ([1], NAN), "type_error", "number"),
    ("conj", (1, 2), "type_error", "number"),
    ("conj", ({}, [1, 2, 3]), "type_error", "entries"),
    ("assoc", (1, A, 2), "type_error", "number"),
    ("assoc", ({}, A, 1, B), "arity_error", "pairs"),
    ("assoc", ([1], 5, 2), "runtime_error", "out of range"),
    ("assoc", ([1], A, 2), "type_error", "integer"),
    ("dissoc", ([1], 0), "type_error", "vector"),
    ("keys", ([1],), "type_error", "vector"),
    ("vals", ([[A, 1, 2]],), "type_error", "vector"),
    ("vals", (1,), "type_error", "number"),
    ("contains?", (1, 1), "type_error", "number"),
    ("cons", (1, 2), "type_error", "number"),
    ("concat", ([1], 2), "type_error", "number"),
    ("range", (None,), "type_error", "nil"),
    ("range", (0, 10, 0), "type_error", "zero"),
    ("range", (10**8,), "memory_exceeded", "limit"),
    ("range", (0, 1, 1e-9), "memory_exceeded", "limit"),
    ("range", (0, INF, 1.0), "memory_exceeded", "limit"),
    ("into", (1, [1]), "type_error", "number"),
    ("into", ({}, [1]), "type_error", "entries"),
    ("map", (None, [1]), "not_callable", "not callable: nil"),
    ("map", ("s", [1]), "not_callable", "not callable: string"),
    ("map", (BUILTINS["inc"].fn, 5), "type_error", "map: expected a collection"),
    ("filter", ("s", [1]), "not_callable", "string"),
    ("reduce", (5, [1]), "not_callable", "number"),
    ("subs", (1, 0), "type_error", "subs: expected a string"),
    ("subs", ("abc", 1.0), "type_error", "integer"),
]


@pytest.mark.parametrize(
    ("name", "args", "code", "fragment"),
    ERRORS,
    ids=[f"{n}-{i}" for i, (n, _, _, _) in enumerate(ERRORS)],
)
def test_error(name: str, args: tuple[object, ...], code: str, fragment: str) -> None:
    with pytest.raises(PtcError) as info:
        call(name, *args)
    assert info.value.code == code
    assert fragment in info.value.message
    assert "<" not in info.value.message.replace("<:", "").replace("<=", "")
    assert "NoneType" not in info.value.message and "int" not in info.value.message.split()


def test_range_without_bound_has_a_hint() -> None:
    # Arity 0 is not declared (the analyzer rejects it); a direct call still explains.
    with pytest.raises(PtcError) as info:
        BUILTINS["range"].fn()
    assert info.value.code == "arity_error"
    assert info.value.hint is not None and "bound" in info.value.hint


def _called_in_program_tables() -> set[str]:
    """Builtins called by name in a program of some `test_builtins_*.py` table."""
    from pathlib import Path

    here = Path(__file__).parent
    files = [*here.glob("test_builtins_*.py"), here / "test_temporal.py"]
    text = "".join(p.read_text() for p in files)
    found = set()
    for name in BUILTINS:
        short = name.rsplit("/", 1)[-1] if len(name) > 1 else name
        for head in (f"({name} ", f"({name})", f"/{short} ", f"/{short})"):
            if head in text:
                found.add(name)
                break
    return found


def test_every_builtin_is_tested_and_documented() -> None:
    tested = {n for n, _, _ in RESULTS} | {n for n, _, _, _ in ERRORS} | {"println"}
    tested |= _called_in_program_tables()
    assert sorted(set(BUILTINS) - tested) == []
    for spec in BUILTINS.values():
        assert spec.doc and "\n" not in spec.doc
        assert spec.arities or spec.variadic_min is not None


def test_reduce_conj_is_linear() -> None:
    conj = BUILTINS["conj"].fn
    out = call("reduce", conj, [], list(range(50_000)))
    assert eq(out, list(range(50_000)))

    def job(n: int) -> Callable[[], object]:
        xs = list(range(n))
        return lambda: call("reduce", conj, [], xs)

    assert_linear(job, 20_000)


def test_map_on_results_is_a_vector() -> None:
    out = call("map", BUILTINS["inc"].fn, PVec([1, 2, 3], 2))
    assert out == [2, 3]


def _with_context(fn: Callable[[], object]) -> context.RunContext:
    ctx = context.RunContext(print_line_chars=50)
    token = context.install(ctx)
    try:
        fn()
    finally:
        context.uninstall(token)
    return ctx


def test_println() -> None:
    assert not BUILTINS["println"].pure
    ctx = _with_context(
        lambda: (
            call("println", "a", 1, None, A, "b c", [1, "x"], {A: 1.0}),
            call("println"),
        )
    )
    assert ctx.output == ['a 1 nil :a b c [1 "x"] {:a 1.0}\n', "\n"]


def test_println_is_bounded_on_shared_values() -> None:
    v: list[object] = [1]
    for _ in range(60):
        v = [v, v]
    ctx = _with_context(lambda: call("println", v))
    assert len(ctx.output) == 1
    assert ctx.output[0].startswith("[[[[")
    assert "chars)" in ctx.output[0]


def test_range_through_apply_checks_its_count() -> None:
    # the analyzer refuses (range 1 2 3 4); (apply range [1 2 3 4]) reached range's
    # `*args` and was an internal error (ValueError unpacking; bad-args sweep)
    with pytest.raises(PtcError) as info:
        BUILTINS["range"].fn(1, 2, 3, 4)
    assert info.value.code == "arity_error"
    assert info.value.message == "range: wrong number of arguments (4), expected 1 or 2 or 3"
