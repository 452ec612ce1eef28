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
from RestrictedPython.transformer import copy_locations as rp_copy_locations

from benchmarks.programs import THIRTY_LINES
from ptc_compiler import api
from ptc_compiler.lower import lower
from ptc_compiler.lower.check import (
    GeneratedCodeRejected,
    _is_pass_through,
    _policy_checker,
    _stamp_positions,
    check_restricted,
    policy_verdict,
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
    # numeric code: `:=` on compiler temporaries (rules_operators.same_type_arith)
    "(defn fib [n] (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2))))) (fib 10)",
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


# Repeated names, rejected and rewritten ones, and `print`/`printed` in several function
# scopes: the cases the once-per-module Name check (`clean_names`) must not change.
REPEATS = [
    "_y = 1\n_y = 2\nv1_a = _y + _y",
    "def f():\n    print(1)\n    return printed\ndef g():\n    print(2)\nprint(3)",
    "def f():\n    return printed\ndef g():\n    return printed\nv1_x = printed",
    "v1_a = 1\nv1_b = v1_a + v1_a\nfor t0 in v1_b:\n    v1_a = t0.__roles__\n    v1_a = eval(v1_a)",
    "x__roles__ = 1\nx__roles__ = x__roles__ + 1",
]


@pytest.mark.parametrize("source", REPEATS + REJECTED + [THIRTY_LINES])
def test_verdict_warnings_and_used_names_are_restrictedpythons(source: str) -> None:
    if source is THIRTY_LINES:
        module: ast.Module = lower(api.compile(source).ir).module
    else:
        module = ast.parse(source)
    before = _dump(module)
    used: dict[str, bool] = {}
    fast = policy_verdict(module, used)
    assert _dump(module) == before
    reference_used: dict[str, bool] = {}
    reference_tree = copy.deepcopy(module)
    reference_errors: list[str] = []
    reference_warnings: list[str] = []
    RestrictingNodeTransformer(reference_errors, reference_warnings, reference_used).visit(
        reference_tree
    )
    assert fast == (reference_errors, reference_warnings)
    assert used == reference_used


def test_repeated_rejected_name_is_reported_at_every_line() -> None:
    errors, _ = policy_verdict(ast.parse("_y = 1\nv1_a = 2\n_y = 3"))
    assert [e.split(":")[0] for e in errors] == ["Line 1", "Line 3"]


def test_a_name_is_checked_once_per_module() -> None:
    # The memo is not vacuous: the generated module repeats names, and the checker visits
    # each (id, context) pair once.
    module = lower(api.compile(THIRTY_LINES).ir).module
    names = [n for n in ast.walk(module) if isinstance(n, ast.Name)]
    checker = _policy_checker()([], [], {})
    checker.visit(module)
    assert checker.clean_names == {(n.id, type(n.ctx)) for n in names}
    assert len(checker.clean_names) < len(names) * 2 // 3


def test_rebound_methods_are_restrictedpythons_code() -> None:
    # Same bytecode, constants, defaults and globals as RestrictedPython's methods, except
    # `copy_locations`, which only stamps positions (no walk of the discarded rewrite).
    import RestrictedPython.transformer as rp

    checker = _policy_checker()
    rebound = [
        name
        for name, method in vars(RestrictingNodeTransformer).items()
        if getattr(method, "__code__", None) is not None
        and "copy_locations" in method.__code__.co_names
    ]
    assert {"guard_iter", "visit_Name", "visit_Subscript"} <= set(rebound)
    for name in rebound:
        ours = vars(checker)[name]
        theirs = vars(RestrictingNodeTransformer)[name]
        assert ours.__code__ is theirs.__code__
        assert ours.__defaults__ == theirs.__defaults__
        assert ours.__closure__ == theirs.__closure__
        changed = {k for k, v in ours.__globals__.items() if vars(rp).get(k) is not v}
        assert changed == {"copy_locations"}
        assert ours.__globals__["copy_locations"] is _stamp_positions


def test_stamped_positions_are_copy_locations_own_stamps() -> None:
    old = ast.parse("v1_a").body[0]
    ours = ast.Call(ast.Name("x", ast.Load()), [], [])
    theirs = ast.Call(ast.Name("x", ast.Load()), [], [])
    _stamp_positions(ours, old)
    rp_copy_locations(theirs, old)
    for attr in ("lineno", "col_offset", "end_lineno", "end_col_offset"):
        assert getattr(ours, attr) == getattr(theirs, attr) == getattr(old, attr)
    assert not hasattr(ours.func, "lineno")  # the part left out: the new subtree's fill
    assert hasattr(theirs.func, "lineno")
