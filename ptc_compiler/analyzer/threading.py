"""Threading macros: -> ->> as-> cond-> cond->> some-> some->>.

Threading rewrites forms, then analyzes the result, so the head of a list step is
re-analyzed after splicing and special forms work inside threads. Intermediate values
are bound to symbols no program can spell (see `Analyzer.gensym`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ptc_compiler import ir
from ptc_compiler.analyzer.scope import Ctx, error
from ptc_compiler.forms import Form, ListForm, Symbol

if TYPE_CHECKING:
    from ptc_compiler.analyzer.core import Analyzer, Handler


def splice(step: Form, value: Form, last: bool) -> ListForm:
    """Insert `value` into a list step (first or last argument) or call a non-list step."""
    if type(step) is ListForm and step.items:
        items = step.items
        if last:
            return ListForm((*items, value), step.span)
        return ListForm((items[0], value, *items[1:]), step.span)
    return ListForm((step, value), step.span)


def _name(form: ListForm) -> str:
    head = form.items[0]
    assert type(head) is Symbol
    return head.name


def _thread(an: Analyzer, form: ListForm, ctx: Ctx, tail: bool) -> ir.Node:
    """`->` and `->>`: a pure rewrite."""
    name = _name(form)
    args = form.items[1:]
    if not args:
        raise error(
            "invalid_thread_form",
            f"({name}) requires at least one expression",
            form.span,
            hint=f"write ({name} value step ...)",
        )
    last = name == "->>"
    acc = args[0]
    for step in args[1:]:
        acc = splice(step, acc, last)
    return an.expr(acc, ctx.sub, tail)


def _as_thread(an: Analyzer, form: ListForm, ctx: Ctx, tail: bool) -> ir.Node:
    args = form.items[1:]
    if len(args) < 2:
        raise error("invalid_thread_form", "expected (as-> value name step*)", form.span)
    name_form = args[1]
    if type(name_form) is not Symbol or name_form.ns is not None:
        raise error(
            "invalid_thread_form",
            "as-> requires a symbol name as its second argument",
            name_form.span,
            hint="write (as-> value v (f v) (g 1 v))",
        )
    sub = ctx.sub
    steps = args[2:]
    if not steps:
        return an.expr(args[0], sub, tail)
    locals_ = dict(ctx.locals)
    step_ctx = sub.with_locals(locals_)
    binds: list[tuple[str, ir.Node]] = []
    value = an.expr(args[0], sub)
    for step in steps[:-1]:
        binds.append((an.bind_name(name_form, locals_), value))
        value = an.expr(step, step_ctx)
    binds.append((an.bind_name(name_form, locals_), value))
    return ir.Let(tuple(binds), an.expr(steps[-1], step_ctx, tail), form.span)


def _cond_thread(an: Analyzer, form: ListForm, ctx: Ctx, tail: bool) -> ir.Node:
    name = _name(form)
    args = form.items[1:]
    if not args:
        raise error("invalid_thread_form", f"({name}) requires at least one expression", form.span)
    if len(args) % 2 == 0:
        raise error(
            "invalid_thread_form",
            f"{name} requires pairs of test and step forms after the value",
            form.span,
            hint=f"write ({name} value test1 step1 test2 step2)",
        )
    last = name == "cond->>"
    sub = ctx.sub
    locals_ = dict(ctx.locals)
    step_ctx = sub.with_locals(locals_)
    value = an.expr(args[0], sub)
    sym, ident = an.gensym(locals_, "cond")
    binds: list[tuple[str, ir.Node]] = [(ident, value)]
    rest = args[1:]
    for test, step in zip(rest[0::2], rest[1::2], strict=False):
        test_node = an.expr(test, step_ctx)
        stepped = an.expr(splice(step, sym, last), step_ctx)
        previous = ir.Local(ident, step.span)
        sym, ident = an.gensym(locals_, "cond")
        binds.append((ident, ir.If(test_node, stepped, previous, step.span)))
    return ir.Let(tuple(binds), ir.Local(ident, form.span), form.span)


def _some_thread(an: Analyzer, form: ListForm, ctx: Ctx, tail: bool) -> ir.Node:
    name = _name(form)
    args = form.items[1:]
    if not args:
        raise error("invalid_thread_form", f"({name}) requires at least one expression", form.span)
    last = name == "some->>"
    sub = ctx.sub
    steps = args[1:]
    if not steps:
        return an.expr(args[0], sub, tail)
    locals_ = dict(ctx.locals)
    step_ctx = sub.with_locals(locals_)
    nil_p = ir.BuiltinRef("nil?", form.span)
    # Analyze in source order, then nest from the end:
    # (let [g0 x] (if (nil? g0) nil (let [g1 (s1 g0)] (if (nil? g1) nil (s2 g1)))))
    value = an.expr(args[0], sub)
    levels: list[tuple[str, ir.Node, ir.Node]] = []
    for i, step in enumerate(steps):
        sym, ident = an.gensym(locals_, "some")
        levels.append((ident, value, ir.Call(nil_p, (ir.Local(ident, step.span),), step.span)))
        value = an.expr(splice(step, sym, last), step_ctx, tail and i == len(steps) - 1)
    result = value
    for ident, bound, test in reversed(levels):
        result = ir.Let(
            ((ident, bound),), ir.If(test, ir.Const(None), result, form.span), form.span
        )
    return result


HANDLERS: dict[str, Handler] = {
    "->": _thread,
    "->>": _thread,
    "as->": _as_thread,
    "cond->": _cond_thread,
    "cond->>": _cond_thread,
    "some->": _some_thread,
    "some->>": _some_thread,
}
