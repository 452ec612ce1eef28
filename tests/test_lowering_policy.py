"""The RestrictedPython policy check with its faster traversal gives RestrictedPython's verdict.

`check_restricted` resolves each node class once, leaves out calls of visitors that are
pure pass-throughs, and runs every other visitor on a detached copy of its node so that the
checked tree is not rewritten (it is compiled afterwards). These tests compare it with
RestrictedPython's unmodified transformer: same errors and warnings, on generated programs
and on code that must be rejected, and the checked tree left exactly as it was.
"""

from __future__ import annotations

import ast
import copy
from pathlib import Path

import pytest
from RestrictedPython.transformer import RestrictingNodeTransformer

from benchmarks.programs import THIRTY_LINES
from ptc_compiler import api
from ptc_compiler.lower import lower
from ptc_compiler.lower.check import (
    GeneratedCodeRejected,
    _is_pass_through,
    _policy_checker,
    check_restricted,
)

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

PROGRAMS = [
    THIRTY_LINES,
    (EXAMPLES / "orders.clj").read_text(),
    "(defn f ([x] (f x 1)) ([x y & more] (apply + x y more))) (f 2)",
    "(loop [i 0 acc []] (if (< i 3) (recur (inc i) (conj acc i)) acc))",
    "(let [{:keys [a b] :or {b 2}} {:a 1} [x & xs] [1 2 3]] (str a b x xs))",
    "(for [x [1 2 3] :let [y (* x x)] :when (odd? x) :while (< y 20)] [x y])",
    '(def once 1) (defonce twice 2) (or (and once nil) twice #"a+" *1)',
    "(reduce (fn [acc x] (assoc acc x (inc (get acc x 0)))) {} [:a :b :a])",
    "(map (fn [x] (fn [] x)) (range 3))",
]


def _verdicts(module: ast.Module, checker: type) -> tuple[list[str], list[str]]:
    errors: list[str] = []
    warnings: list[str] = []
    checker(errors, warnings, {}).visit(module)
    return errors, warnings


def _dump(module: ast.AST) -> str:
    return ast.dump(module, include_attributes=True)


@pytest.mark.parametrize("source", PROGRAMS)
def test_generated_programs_get_restrictedpythons_exact_verdict(source: str) -> None:
    module = lower(api.compile(source).ir).module
    before = _dump(module)
    fast = _verdicts(module, _policy_checker())
    assert _dump(module) == before  # checked, not rewritten
    reference_tree = copy.deepcopy(module)
    reference = _verdicts(reference_tree, RestrictingNodeTransformer)
    assert fast == reference
    assert fast[0] == []  # and the verdict is: accepted


def test_rewrites_land_in_the_copies() -> None:
    # RestrictedPython itself rewrites this tree (loops and subscripts get guard calls), so
    # "unchanged" in the tests above is not vacuous: the detached copies absorbed rewrites.
    module = lower(api.compile(PROGRAMS[3]).ir).module
    before = _dump(module)
    reference_tree = copy.deepcopy(module)
    _verdicts(reference_tree, RestrictingNodeTransformer)
    assert "_getiter_" in _dump(reference_tree) or "_getitem_" in _dump(reference_tree)
    check_restricted(module)
    assert _dump(module) == before


class Unknown(ast.expr):
    """A node kind RestrictedPython has never heard of, without fields (a would-be leaf)."""

    _fields = ()


REJECTED = [
    "x.__class__",
    "_y = 1",
    "import os as _os",
    "async def f():\n    await g()",
    "match x:\n    case 1:\n        pass",
    "def f():\n    nonlocal y",
    "try:\n    pass\nexcept* E:\n    pass",
    "f(*a, **k)\nexec('1')",
]


@pytest.mark.parametrize("source", REJECTED)
def test_rejections_are_restrictedpythons(source: str) -> None:
    module = ast.parse(source)
    before = _dump(module)
    fast = _verdicts(module, _policy_checker())
    assert _dump(module) == before
    reference = _verdicts(copy.deepcopy(module), RestrictingNodeTransformer)
    assert fast == reference
    assert fast[0], "RestrictedPython rejects this"
    with pytest.raises(GeneratedCodeRejected):
        check_restricted(module)


@pytest.mark.parametrize("where", ["statement", "list item", "field"])
def test_unknown_fieldless_node_kind_is_rejected_not_skipped(where: str) -> None:
    odd = Unknown()
    if where == "statement":
        module = ast.Module(body=[ast.Expr(value=odd)], type_ignores=[])
    elif where == "list item":
        module = ast.Module(
            body=[ast.Expr(value=ast.List(elts=[ast.Constant(1), odd], ctx=ast.Load()))],
            type_ignores=[],
        )
    else:
        module = ast.Module(
            body=[ast.Expr(value=ast.UnaryOp(op=ast.Not(), operand=odd))], type_ignores=[]
        )
    with pytest.raises(GeneratedCodeRejected, match="Unknown statements are not allowed"):
        check_restricted(module)


def test_pass_through_detection() -> None:
    r = RestrictingNodeTransformer
    assert _is_pass_through(r.visit_Load)
    assert _is_pass_through(r.visit_If)
    assert not _is_pass_through(r.visit_Name)  # checks and rewrites names
    assert not _is_pass_through(r.visit_Subscript)  # rewrites to _getitem_
    assert not _is_pass_through(r.visit_Nonlocal)  # rejects
    assert not _is_pass_through(r.generic_visit)  # rejects unknown kinds


def _expr_module(expr: ast.expr) -> ast.Module:
    return ast.Module(body=[ast.Expr(value=expr)], type_ignores=[])


@pytest.mark.parametrize(
    ("module", "message"),
    [
        (_expr_module(ast.Name(id="v1_x", ctx=ast.Del())), "load or store"),
        (_expr_module(ast.Constant(b"raw")), "constant of a disallowed type"),
        (
            _expr_module(ast.BinOp(left=ast.Constant(2), op=ast.Pow(), right=ast.Constant(3))),
            "Pow is not allowed",
        ),
        (
            _expr_module(ast.List(elts=[ast.Constant(1), Unknown()], ctx=ast.Load())),
            "Unknown is not allowed",
        ),
        (_expr_module(ast.Name(id="os", ctx=ast.Load())), "outside the generated namespaces"),
        (ast.Expression(body=ast.Constant(1)), "Expression is not allowed"),
    ],
)
def test_allow_list_checks_leaves_where_it_meets_them(module: ast.Module, message: str) -> None:
    from ptc_compiler.lower.check import finalize

    with pytest.raises(GeneratedCodeRejected, match=message):
        finalize(module)
