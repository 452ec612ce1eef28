"""Control forms: do, if, if-not, when, when-not, cond, case, condp, and, or,
return, fail, quote, comment."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ptc_compiler import ir
from ptc_compiler.analyzer.scope import Ctx, error
from ptc_compiler.forms import (
    Const,
    Form,
    KeywordForm,
    ListForm,
    MapForm,
    SetForm,
    Symbol,
    VectorForm,
)
from ptc_runtime.values import SymbolRef, keyword

if TYPE_CHECKING:
    from ptc_compiler.analyzer.core import Analyzer, Handler

_NIL = ir.Const(None)


def analyze_do(an: Analyzer, form: ListForm, ctx: Ctx, tail: bool) -> ir.Node:
    # Defs directly in a `do` stay statically visible: pass ctx unchanged.
    return an.body(form.items[1:], ctx, tail, form.span)


def _if_parts(form: ListForm, name: str) -> tuple[Form, Form, Form | None]:
    args = form.items[1:]
    if len(args) not in (2, 3):
        raise error(
            "invalid_arity",
            f"expected ({name} cond then else?), got {len(args)} "
            f"argument{'s' if len(args) != 1 else ''}",
            form.span,
            hint="use cond for several tests, or (do ...) to group forms",
        )
    return args[0], args[1], args[2] if len(args) == 3 else None


def analyze_if(an: Analyzer, form: ListForm, ctx: Ctx, tail: bool) -> ir.Node:
    test, then, else_ = _if_parts(form, "if")
    sub = ctx.sub
    return ir.If(
        an.expr(test, sub),
        an.expr(then, sub, tail),
        _NIL if else_ is None else an.expr(else_, sub, tail),
        form.span,
    )


def analyze_if_not(an: Analyzer, form: ListForm, ctx: Ctx, tail: bool) -> ir.Node:
    test, then, else_ = _if_parts(form, "if-not")
    sub = ctx.sub
    test_node = an.expr(test, sub)
    then_node = an.expr(then, sub, tail)
    else_node = _NIL if else_ is None else an.expr(else_, sub, tail)
    return ir.If(test_node, else_node, then_node, form.span)


def _when_parts(form: ListForm, name: str) -> tuple[Form, tuple[Form, ...]]:
    args = form.items[1:]
    if not args:
        raise error("invalid_arity", f"expected ({name} cond body*)", form.span)
    return args[0], args[1:]


def analyze_when(an: Analyzer, form: ListForm, ctx: Ctx, tail: bool) -> ir.Node:
    test, body = _when_parts(form, "when")
    sub = ctx.sub
    test_node = an.expr(test, sub)
    return ir.If(test_node, an.body(body, sub, tail, form.span), _NIL, form.span)


def analyze_when_not(an: Analyzer, form: ListForm, ctx: Ctx, tail: bool) -> ir.Node:
    test, body = _when_parts(form, "when-not")
    sub = ctx.sub
    test_node = an.expr(test, sub)
    return ir.If(test_node, _NIL, an.body(body, sub, tail, form.span), form.span)


def _truthy_literal(form: Form) -> bool:
    if isinstance(form, Const):
        return form.value is not None and form.value is not False
    return type(form) is KeywordForm


def analyze_cond(an: Analyzer, form: ListForm, ctx: Ctx, tail: bool) -> ir.Node:
    args = form.items[1:]
    if len(args) % 2:
        raise error(
            "invalid_cond_form",
            "cond requires even number of test/result forms",
            form.span,
            hint="end with :else result for a default",
        )
    sub = ctx.sub
    clauses = [
        (a, an.expr(a, sub), an.expr(r, sub, tail))
        for a, r in zip(args[0::2], args[1::2], strict=False)
    ]
    result: ir.Node = _NIL
    for i, (test_form, test, then) in enumerate(reversed(clauses)):
        if i == 0 and _truthy_literal(test_form):
            result = then  # the conventional `:else` default
        else:
            result = ir.If(test, then, result, test_form.span)
    return result


def _is_constant(form: Form) -> bool:
    """A literal made of constants only: a scalar, or a vector, map or set of them."""
    t = type(form)
    if t is KeywordForm or t is Const:
        return True
    if t is VectorForm or t is MapForm or t is SetForm:
        return all(map(_is_constant, form.items))  # type: ignore[union-attr]
    return False


def _case_constant(an: Analyzer, form: Form, ctx: Ctx) -> ir.Node:
    t = type(form)
    if t is KeywordForm:
        return ir.Const(keyword(form.name), form.span)  # type: ignore[union-attr]
    if t is Const:
        return ir.Const(form.value, form.span)  # type: ignore[union-attr]
    if t is not ListForm and _is_constant(form):  # `[1 2]`, `{:a 1}`: equal values match
        return an.expr(form, ctx)
    raise error(
        "invalid_form",
        "case test values must be compile-time constants (keywords, strings, numbers, "
        "booleans, nil, vectors, maps or sets of them, or a list of them)",
        form.span,
        hint="use cond or condp to compare against computed values",
    )


def analyze_case(an: Analyzer, form: ListForm, ctx: Ctx, tail: bool) -> ir.Node:
    args = form.items[1:]
    if not args:
        raise error("invalid_form", "expected (case expr test result ... default?)", form.span)
    sub = ctx.sub
    value = an.expr(args[0], sub)
    clauses = args[1:]
    default_form = clauses[-1] if len(clauses) % 2 else None
    temp = an.fresh("case")
    subject = ir.Local(temp, form.span)
    eq = ir.BuiltinRef("=", form.span)
    tests: list[tuple[ir.Node, ir.Node, Form]] = []
    for test_form, then_form in zip(clauses[0::2], clauses[1::2], strict=False):
        if type(test_form) is ListForm:
            if not test_form.items:
                raise error("invalid_form", "case test group must not be empty", test_form.span)
            consts = [_case_constant(an, c, sub) for c in test_form.items]
        else:
            consts = [_case_constant(an, test_form, sub)]
        calls = tuple(ir.Call(eq, (subject, c), c.span) for c in consts)
        test: ir.Node = calls[0] if len(calls) == 1 else ir.Or(calls, test_form.span)
        tests.append((test, an.expr(then_form, sub, tail), test_form))
    result = _NIL if default_form is None else an.expr(default_form, sub, tail)
    for test, then, test_form in reversed(tests):
        result = ir.If(test, then, result, test_form.span)
    return ir.Let(((temp, value),), result, form.span)


def analyze_condp(an: Analyzer, form: ListForm, ctx: Ctx, tail: bool) -> ir.Node:
    args = form.items[1:]
    if len(args) < 3:
        raise error(
            "invalid_arity", "expected (condp pred expr test result ... default?)", form.span
        )
    sub = ctx.sub
    pred = an.expr(args[0], sub)
    value = an.expr(args[1], sub)
    clauses = args[2:]
    p_temp, v_temp = an.fresh("pred"), an.fresh("condp")
    p_local, v_local = ir.Local(p_temp, form.span), ir.Local(v_temp, form.span)
    # Clauses are `test result`, `test :>> result-fn` (the fn gets the predicate's truthy
    # value, Clojure's behaviour) or a lone trailing default.
    parsed: list[tuple[Form, Form, bool]] = []
    default_form: Form | None = None
    i = 0
    while i < len(clauses):
        rest = len(clauses) - i
        arrow = rest >= 2 and _is_arrow(clauses[i + 1])
        if arrow and rest < 3:
            raise error(
                "invalid_form", "condp :>> must be followed by a result function",
                clauses[i + 1].span,
            )
        if arrow:
            parsed.append((clauses[i], clauses[i + 2], True))
            i += 3
        elif rest >= 2:
            parsed.append((clauses[i], clauses[i + 1], False))
            i += 2
        else:
            default_form = clauses[i]
            i += 1
    result = _NIL if default_form is None else an.expr(default_form, sub, tail)
    for test_form, then_form, arrow in reversed(parsed):
        test = ir.Call(p_local, (an.expr(test_form, sub), v_local), test_form.span)
        if arrow:
            hit = an.fresh("hit")
            hit_local = ir.Local(hit, test_form.span)
            call = ir.Call(an.expr(then_form, sub), (hit_local,), then_form.span)
            result = ir.Let(((hit, test),), ir.If(hit_local, call, result, test.span), test.span)
        else:
            result = ir.If(test, an.expr(then_form, sub, tail), result, test.span)
    return ir.Let(((p_temp, pred), (v_temp, value)), result, form.span)


def _is_arrow(form: Form) -> bool:
    return type(form) is KeywordForm and form.name == ">>"


def analyze_and(an: Analyzer, form: ListForm, ctx: Ctx, tail: bool) -> ir.Node:
    sub = ctx.sub
    operands = form.items[1:]
    # The last operand is in tail position (Clojure's `and` expands to nested `if`s).
    items = tuple(an.expr(f, sub, tail and i == len(operands) - 1) for i, f in enumerate(operands))
    if not items:
        return ir.Const(True, form.span)
    if len(items) == 1:
        return items[0]
    return ir.And(items, form.span)


def analyze_or(an: Analyzer, form: ListForm, ctx: Ctx, tail: bool) -> ir.Node:
    from ptc_compiler.analyzer.resolve import try_resolve

    sub = ctx.sub
    items: list[ir.Node] = []
    operands = form.items[1:]
    for i, f in enumerate(operands):
        if type(f) is Symbol and f.ns is None:
            # Bare operands of `or` may be undefined: the (def x (or x init)) idiom.
            node = try_resolve(an, f, sub)
            if node is None and an.env.component is not None:
                node = an.expr(f, sub)  # component source: unbound is an error (PRE-10)
            items.append(ir.UserRef(f.name, True, f.span) if node is None else node)
        else:
            items.append(an.expr(f, sub, tail and i == len(operands) - 1))
    if not items:
        return ir.Const(None, form.span)
    if len(items) == 1:
        return items[0]
    return ir.Or(tuple(items), form.span)


def _one_arg(form: ListForm, shape: str) -> Form:
    args = form.items[1:]
    if len(args) != 1:
        raise error(
            "invalid_arity",
            f"expected {shape}, got {len(args)} arguments",
            form.span,
            hint="wrap several values in a map or vector",
        )
    return args[0]


def analyze_return(an: Analyzer, form: ListForm, ctx: Ctx, tail: bool) -> ir.Node:
    return ir.Return(an.expr(_one_arg(form, "(return value)"), ctx.sub), form.span)


def analyze_fail(an: Analyzer, form: ListForm, ctx: Ctx, tail: bool) -> ir.Node:
    return ir.Fail(an.expr(_one_arg(form, "(fail error)"), ctx.sub), form.span)


def analyze_quote(an: Analyzer, form: ListForm, ctx: Ctx, tail: bool) -> ir.Node:
    args = form.items[1:]
    if len(args) != 1:
        raise error("invalid_arity", "expected (quote symbol)", form.span)
    arg = args[0]
    if type(arg) is not Symbol:
        raise error(
            "invalid_form",
            "quote only supports symbols in this phase (e.g. (quote github) or 'github)",
            arg.span,
        )
    return ir.Const(SymbolRef(arg.text), form.span)


def analyze_comment(an: Analyzer, form: ListForm, ctx: Ctx, tail: bool) -> ir.Node:
    return ir.Const(None, form.span)


HANDLERS: dict[str, Handler] = {
    "do": analyze_do,
    "if": analyze_if,
    "if-not": analyze_if_not,
    "when": analyze_when,
    "when-not": analyze_when_not,
    "cond": analyze_cond,
    "case": analyze_case,
    "condp": analyze_condp,
    "and": analyze_and,
    "or": analyze_or,
    "return": analyze_return,
    "fail": analyze_fail,
    "quote": analyze_quote,
    "comment": analyze_comment,
}
