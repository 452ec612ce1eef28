"""Lowering: IR trees built by hand -> checked Python modules, and what they compute."""

from __future__ import annotations

import ast
from typing import get_args

import pytest

from ptc_compiler import ir
from ptc_compiler.lower import lower
from ptc_compiler.lower.check import GeneratedCodeRejected, check_module
from ptc_runtime.context import RunContext
from ptc_runtime.executor import GENERATED_FILENAME, execute
from ptc_runtime.values import keyword

B = ir.BuiltinRef
L = ir.Local
C = ir.Const


def call(name: str, *args: ir.Node) -> ir.Call:
    return ir.Call(B(name), args)


def run_ir(body: ir.Node, **ctx_args: object) -> object:
    lowered = lower(ir.Program(body))
    check_module(lowered.module)
    code = compile(lowered.module, GENERATED_FILENAME, "exec")
    outcome = execute(code, RunContext(**ctx_args), lowered.fn_names)  # type: ignore[arg-type]
    if outcome.error is not None:
        raise outcome.error
    return outcome.value


SUM_LOOP = ir.Loop(
    (("v1_i", C(0)), ("v2_s", C(0))),
    ir.If(
        call("<", L("v1_i"), C(10)),
        ir.Recur((call("inc", L("v1_i")), call("+", L("v2_s"), L("v1_i")))),
        L("v2_s"),
    ),
)

CASES = [
    pytest.param(C(42), 42, id="const"),
    pytest.param(ir.Do(()), None, id="empty-do"),
    pytest.param(ir.If(C(0), C("yes"), C("no")), "yes", id="zero-is-truthy"),
    pytest.param(ir.If(C(False), C("yes"), C("no")), "no", id="false-is-falsy"),
    pytest.param(ir.If(C(None), C("yes"), C(None)), None, id="nil-is-falsy"),
    pytest.param(ir.Let((("v1_x", C(2)),), call("*", L("v1_x"), L("v1_x"))), 4, id="let"),
    pytest.param(SUM_LOOP, 45, id="loop-recur"),
    pytest.param(ir.And((C(1), C(None), C(3))), None, id="and-first-falsy"),
    pytest.param(ir.And((C(1), C(2))), 2, id="and-last"),
    pytest.param(ir.Or((C(None), C(False))), False, id="or-last-falsy"),
    pytest.param(ir.Or((C(None), C(7))), 7, id="or-first-truthy"),
    pytest.param(ir.VectorLit((C(1), C(2))), [1, 2], id="vector"),
    pytest.param(ir.MapLit(((C(keyword("a")), C(1)),)), {keyword("a"): 1}, id="map"),
    pytest.param(
        ir.For((ir.ForBind("v1_x", ir.VectorLit((C(1), C(2), C(3), C(4)))),
                ir.ForWhen(call("odd?", L("v1_x")))), call("*", L("v1_x"), C(10)), True),
        [10, 30],
        id="for-when",
    ),
    pytest.param(
        ir.For((ir.ForBind("v1_x", ir.VectorLit((C(1), C(2), C(3), C(1)))),
                ir.ForWhile(call("<", L("v1_x"), C(3)))), L("v1_x"), True),
        [1, 2],
        id="for-while",
    ),
    pytest.param(
        ir.Call(ir.Fn((ir.FnArity(("v1_a", "v2_b"), None, call("-", L("v1_a"), L("v2_b"))),)),
                (C(10), C(3))),
        7,
        id="fn-call",
    ),
    pytest.param(
        ir.Call(ir.Fn((ir.FnArity(("v1_a",), "v2_r", ir.VectorLit((L("v1_a"), L("v2_r")))),)),
                (C(1), C(2), C(3))),
        [1, [2, 3]],
        id="fn-rest",
    ),
    pytest.param(
        ir.Call(
            ir.Fn(
                (
                    ir.FnArity(("v1_a",), None, C("one")),
                    ir.FnArity(("v2_a", "v3_b"), None, C("two")),
                )
            ),
            (C(1), C(2)),
        ),
        "two",
        id="multi-arity",
    ),
    pytest.param(ir.Call(C(keyword("a")), (ir.MapLit(((C("a"), C(5)),)),)), 5, id="keyword-call"),
]


@pytest.mark.parametrize(("body", "want"), CASES)
def test_lowered_programs_compute(body: ir.Node, want: object) -> None:
    assert run_ir(body) == want


def test_closure_in_loop_captures_each_iterations_value() -> None:
    make = ir.Fn((ir.FnArity((), None, L("v1_i")),))
    fns = ir.For((ir.ForBind("v1_i", ir.VectorLit((C(1), C(2), C(3)))),), make, True)
    calls = ir.Fn((ir.FnArity(("v3_f",), None, ir.Call(L("v3_f"), ())),))
    assert run_ir(ir.Let((("v2_fs", fns),), call("map", calls, L("v2_fs")))) == [1, 2, 3]


def test_closure_in_recur_loop_captures_value() -> None:
    body = ir.Loop(
        (("v1_i", C(0)), ("v2_acc", ir.VectorLit(()))),
        ir.If(
            call("<", L("v1_i"), C(3)),
            ir.Recur((call("inc", L("v1_i")),
                      call("conj", L("v2_acc"), ir.Fn((ir.FnArity((), None, L("v1_i")),))))),
            L("v2_acc"),
        ),
    )
    calls = ir.Fn((ir.FnArity(("v3_f",), None, ir.Call(L("v3_f"), ())),))
    assert run_ir(ir.Let((("v4_fs", body),), call("map", calls, L("v4_fs")))) == [0, 1, 2]


def test_left_to_right_order_survives_statement_operands() -> None:
    # (vector (println-ish def a) (let [x ...] ...)): the def must run before the let body.
    first = ir.Def("seen", C(1))
    second = ir.Let((("v1_x", ir.UserRef("seen")),), L("v1_x"))
    assert run_ir(ir.VectorLit((first, second)))[1] == 1  # type: ignore[index]


def test_step_budget_fails_with_timeout_kind() -> None:
    forever = ir.Loop((("v1_i", C(0)),), ir.Recur((call("inc", L("v1_i")),)))
    with pytest.raises(Exception) as info:
        run_ir(forever, max_steps=5_000)
    assert getattr(info.value, "kind", None) == "timeout"


def _module(body: ir.Node) -> ast.Module:
    return lower(ir.Program(body)).module


ALL_FORMS = ir.Do(
    (
        ir.Def("f", ir.Fn((ir.FnArity(("v1_x",), None, call("+", L("v1_x"), C(1))),), name="f")),
        ir.Call(ir.UserRef("f"), (C(1),)),
        ir.Call(ir.DataRef("xs"), ()),
        ir.ToolCall("get", ir.MapLit(((C(keyword("__class__")), C("__import__")),))),
        SUM_LOOP,
        ir.SetLit((C(True), C(1))),
        ir.RegexLit("a+"),
        ir.Let((("v9___class__", C(1)),), L("v9___class__")),
    )
)


def test_generated_code_has_no_attributes_imports_or_private_names() -> None:
    module = _module(ALL_FORMS)
    check_module(module)
    for node in ast.walk(module):
        assert not isinstance(node, ast.Attribute | ast.Import | ast.ImportFrom)
        if isinstance(node, ast.Name):
            assert not node.id.startswith("_")


@pytest.mark.parametrize(
    "bad",
    [
        "x.__class__",
        "import os",
        "__import__('os')",
        "eval",
        "NS.get('x')",
        "f()[0]",
        "lambda: 1",
        "global NS",
    ],
)
def test_checker_rejects_code_outside_the_subset(bad: str) -> None:
    with pytest.raises(GeneratedCodeRejected):
        check_module(ast.parse(bad))


def test_every_ir_node_kind_is_lowered() -> None:
    from ptc_compiler.lower.emit import Emitter

    source = ast.unparse(ast.parse(open(Emitter.__module__.replace(".", "/") + ".py").read()))
    for kind in get_args(ir.Node):
        assert f"ir.{kind.__name__}" in source, kind.__name__


def test_runtime_error_points_at_lisp_position() -> None:
    from ptc_compiler.forms import Span

    bad = ir.Call(B("+"), (C(1), C("x")), span=Span(3, 7, 3, 14))
    with pytest.raises(Exception) as info:
        run_ir(ir.Do((C(1), bad)))
    assert (getattr(info.value, "line", None), getattr(info.value, "column", None)) == (3, 7)


@pytest.mark.parametrize(
    "bad",
    ["x.__class__", "_y = 1", "async def f():\n    await g()", "import os as _os"],
)
def test_restricted_python_policy_still_rejects(bad: str) -> None:
    from ptc_compiler.lower.check import check_restricted

    with pytest.raises(GeneratedCodeRejected):
        check_restricted(ast.parse(bad))


@pytest.mark.parametrize(
    ("src", "want"),
    [
        ("(= 0 :k)", False),
        ("(= :k 1.5)", False),
        ("(not= 99999999999999999999 :k)", True),
        ("(= :k :k)", True),
        ('(= :k "k")', False),
        ("(not= nil :k)", True),
    ],
)
def test_keyword_against_a_literal_compiles_without_a_warning(src: str, want: bool) -> None:
    """`(= 0 :k)` was lowered to `0 is k1`: CPython's "is with a literal" SyntaxWarning at
    every compile, an internal compiler error under warnings-as-errors (bad-args sweep)."""
    import uuid
    import warnings

    from ptc_compiler import run

    fresh = f"{src} ; {uuid.uuid4().hex}"  # a new source text, so no compile cache answers
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = run(fresh)
    assert res.ok, res.error
    assert res.value is want
