"""Binding forms: destructuring, let, loop/recur, if-let & co., for/doseq.

Every pattern becomes flat simple bindings whose values call the `ds_*` helpers of
`ptc_runtime.destructure` through `ir.RtCall`; only plain idents reach the IR.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ptc_compiler import ir
from ptc_compiler.analyzer.scope import Ctx, error
from ptc_compiler.forms import Const, Form, KeywordForm, ListForm, MapForm, Symbol, VectorForm
from ptc_runtime.values import keyword

if TYPE_CHECKING:
    from ptc_compiler.analyzer.core import Analyzer, Handler

Bindings = list[tuple[str, ir.Node]]

_NIL = ir.Const(None)


def is_simple(pattern: Form) -> bool:
    return type(pattern) is Symbol


def destructure(
    an: Analyzer,
    pattern: Form,
    value: ir.Node,
    locals_: dict[str, str],
    ctx: Ctx,
    out: Bindings,
) -> None:
    """Append to `out` bindings that bind `pattern`'s names from `value`.

    Names are added to `locals_` as they are bound, so later parts of the pattern (and
    `:or` defaults) see earlier ones. `ctx` must use `locals_` as its locals table.
    """
    t = type(pattern)
    if t is Symbol:
        out.append((an.bind_name(pattern, locals_), value))
    elif t is VectorForm:
        _vector(an, pattern, value, locals_, ctx, out)  # type: ignore[arg-type]
    elif t is MapForm:
        _map(an, pattern, value, locals_, ctx, out)  # type: ignore[arg-type]
    else:
        from ptc_compiler.analyzer.colls import show

        raise error(
            "invalid_form",
            f"invalid binding pattern {show(pattern)}: expected a symbol, a vector or a map",
            pattern.span,
        )


def _is_amp(form: Form) -> bool:
    return type(form) is Symbol and form.ns is None and form.name == "&"


def _vector(
    an: Analyzer,
    pattern: VectorForm,
    value: ir.Node,
    locals_: dict[str, str],
    ctx: Ctx,
    out: Bindings,
) -> None:
    span = pattern.span
    temp = an.fresh("vec")
    out.append((temp, ir.RtCall("ds_check_vec", (value,), span)))
    src = ir.Local(temp, span)
    items = pattern.items
    n = len(items)
    i = 0
    pos = 0
    while i < n:
        item = items[i]
        if _is_amp(item):
            if i + 1 >= n or _is_amp(items[i + 1]) or type(items[i + 1]) is KeywordForm:
                raise error(
                    "invalid_form", "& must be followed by exactly one binding pattern", item.span
                )
            rest_pattern = items[i + 1]
            helper = "ds_rest_map" if type(rest_pattern) is MapForm else "ds_rest"
            rest_value = ir.RtCall(helper, (src, ir.Const(pos)), item.span)
            destructure(an, rest_pattern, rest_value, locals_, ctx, out)
            i += 2
            if i < n and not (type(items[i]) is KeywordForm and items[i].name == "as"):  # type: ignore[union-attr]
                raise error(
                    "invalid_form",
                    "& must be followed by exactly one binding pattern",
                    items[i].span,
                )
            continue
        if type(item) is KeywordForm:
            if item.name != "as":
                raise error(
                    "unsupported_pattern",
                    f"unsupported :{item.name} in a vector pattern",
                    item.span,
                    hint="only & rest and :as name are allowed",
                )
            if i + 2 != n:
                raise error(
                    "invalid_form",
                    ":as must be followed by one symbol and end the vector pattern",
                    item.span,
                )
            out.append((an.bind_name(items[i + 1], locals_), src))
            return
        destructure(
            an, item, ir.RtCall("ds_nth", (src, ir.Const(pos)), item.span), locals_, ctx, out
        )
        pos += 1
        i += 1


def _map(
    an: Analyzer,
    pattern: MapForm,
    value: ir.Node,
    locals_: dict[str, str],
    ctx: Ctx,
    out: Bindings,
) -> None:
    span = pattern.span
    temp = an.fresh("map")
    out.append((temp, ir.RtCall("ds_check_map", (value,), span)))
    src = ir.Local(temp, span)
    items = pattern.items
    keys, vals = items[0::2], items[1::2]
    defaults: dict[str, Form] = {}
    entries: list[tuple[Form, Form]] = []
    for k, v in zip(keys, vals, strict=False):
        if type(k) is KeywordForm and k.name in ("or", "as"):
            if k.name == "as":
                # Bound first, as Clojure does, so :or defaults may use it.
                out.append((an.bind_name(v, locals_), src))
                continue
            if type(v) is not MapForm:
                raise error("invalid_form", ":or expects a map of defaults {name value}", v.span)
            for dk, dv in zip(v.items[0::2], v.items[1::2], strict=False):
                if type(dk) is not Symbol or dk.ns is not None:
                    raise error("invalid_form", ":or keys must be plain symbols", dk.span)
                defaults[dk.name] = dv
            continue
        entries.append((k, v))
    for k, v in entries:
        if type(k) is KeywordForm:
            if k.name not in ("keys", "strs"):
                raise error(
                    "unsupported_pattern",
                    f"unsupported map pattern entry :{k.name}",
                    k.span,
                    hint="use :keys, :strs, :or, :as or {local :key}",
                )
            if type(v) is not VectorForm:
                raise error("invalid_form", f":{k.name} expects a vector of names", v.span)
            as_string = k.name == "strs"
            for name_form in v.items:
                if type(name_form) is KeywordForm:
                    name = name_form.name
                elif type(name_form) is Symbol and name_form.ns is None:
                    name = name_form.name
                else:
                    raise error(
                        "unsupported_pattern",
                        f":{k.name} entries must be plain symbols or keywords",
                        name_form.span,
                    )
                key = ir.Const(name if as_string else keyword(name), name_form.span)
                node = _lookup(an, src, key, defaults.get(name), ctx)
                local_form = Symbol(name, None, name_form.span)
                out.append((an.bind_name(local_form, locals_), node))
        else:
            key_node = an.expr(v, ctx)
            default = defaults.get(k.name) if type(k) is Symbol else None
            destructure(an, k, _lookup(an, src, key_node, default, ctx), locals_, ctx, out)


def _lookup(an: Analyzer, src: ir.Local, key: ir.Node, default: Form | None, ctx: Ctx) -> ir.Node:
    """A flexible key read; an `:or` default applies only when the key is absent."""
    span = key.span
    if default is None:
        return ir.RtCall("ds_get", (src, key), span)
    if type(default) in (Const, KeywordForm):
        return ir.RtCall("ds_get_or", (src, key, an.expr(default, ctx)), span)
    return ir.If(
        ir.RtCall("ds_has", (src, key), span),
        ir.RtCall("ds_get", (src, key), span),
        an.expr(default, ctx),
        span,
    )


def _binding_pairs(form: ListForm, name: str) -> list[tuple[Form, Form]]:
    args = form.items[1:]
    if not args:
        raise error("invalid_arity", f"expected ({name} [bindings] body*)", form.span)
    vec = args[0]
    if type(vec) is not VectorForm:
        raise error(
            "invalid_form",
            f"{name} requires a vector for its bindings",
            vec.span,
            hint=f"write ({name} [x 1 y 2] ...)",
        )
    if len(vec.items) % 2:
        raise error(
            "invalid_form",
            f"{name} bindings require even number of forms",
            vec.span,
            hint="each name needs a value: [x 1 y 2]",
        )
    return list(zip(vec.items[0::2], vec.items[1::2], strict=False))


def analyze_let(an: Analyzer, form: ListForm, ctx: Ctx, tail: bool) -> ir.Node:
    pairs = _binding_pairs(form, "let")
    locals_ = dict(ctx.locals)
    init_ctx = ctx.sub.with_locals(locals_)
    out: Bindings = []
    for pattern, init in pairs:
        value = an.expr(init, init_ctx)
        if type(pattern) is Symbol:
            out.append((an.bind_name(pattern, locals_), value))
        else:
            destructure(an, pattern, value, locals_, init_ctx, out)
    body = an.body(form.items[2:], ctx.with_locals(locals_), tail, form.span)
    if not out:
        return body
    return ir.Let(tuple(out), body, form.span)


def analyze_loop(an: Analyzer, form: ListForm, ctx: Ctx, tail: bool) -> ir.Node:
    pairs = _binding_pairs(form, "loop")
    body_forms = form.items[2:]
    if all(type(p) is Symbol for p, _ in pairs):
        locals_ = dict(ctx.locals)
        init_ctx = ctx.sub.with_locals(locals_)
        binds: Bindings = []
        for pattern, init in pairs:
            value = an.expr(init, init_ctx)
            binds.append((an.bind_name(pattern, locals_), value))
        body = an.body(body_forms, ctx.with_recur(len(binds), locals_), True, form.span)
        return ir.Loop(tuple(binds), body, form.span)
    # With destructuring: evaluate and destructure the inits once (later inits see
    # earlier names), loop over the whole values, destructure again in the body.
    outer_locals = dict(ctx.locals)
    outer_ctx = ctx.sub.with_locals(outer_locals)
    outer: Bindings = []
    body_locals = dict(ctx.locals)
    body_ctx = ctx.with_recur(len(pairs), body_locals)
    loop_binds: Bindings = []
    inner: Bindings = []
    for pattern, init in pairs:
        value = an.expr(init, outer_ctx)
        if type(pattern) is Symbol:
            temp = an.bind_name(pattern, outer_locals)
            outer.append((temp, value))
            loop_binds.append((an.bind_name(pattern, body_locals), ir.Local(temp)))
        else:
            temp = an.fresh("init")
            outer.append((temp, value))
            destructure(an, pattern, ir.Local(temp), outer_locals, outer_ctx, outer)
            slot = an.fresh("loop")
            loop_binds.append((slot, ir.Local(temp)))
            destructure(an, pattern, ir.Local(slot), body_locals, body_ctx, inner)
    body = an.body(body_forms, body_ctx, True, form.span)
    if inner:
        body = ir.Let(tuple(inner), body, form.span)
    return ir.Let(tuple(outer), ir.Loop(tuple(loop_binds), body, form.span), form.span)


def analyze_recur(an: Analyzer, form: ListForm, ctx: Ctx, tail: bool) -> ir.Node:
    if ctx.recur is None:
        raise error(
            "invalid_form",
            "recur must be in tail position of a loop or fn",
            form.span,
            hint="recur only works inside loop or fn (not in for/doseq)",
        )
    if not tail:
        raise error(
            "invalid_form",
            "recur must be in tail position",
            form.span,
            hint="recur must be the last thing evaluated in its loop or fn",
        )
    args = form.items[1:]
    expected = ctx.recur
    if ctx.short is not None and expected < 0:
        ctx.short.recurs.append((len(args), form.span))
    elif len(args) != expected:
        raise error(
            "arity_error",
            f"recur: wrong number of arguments ({len(args)}), expected {expected}",
            form.span,
        )
    sub = ctx.sub
    return ir.Recur(tuple([an.expr(a, sub) for a in args]), form.span)


def _bind1(an: Analyzer, form: ListForm, ctx: Ctx, tail: bool) -> ir.Node:
    """if-let, when-let, if-some, when-some, when-first."""
    head = form.items[0]
    assert type(head) is Symbol
    name = head.name
    args = form.items[1:]
    if not args or type(args[0]) is not VectorForm:
        raise error(
            "invalid_form", f"{name} requires a binding vector: ({name} [x expr] ...)", form.span
        )
    vec = args[0]
    if len(vec.items) != 2:
        raise error(
            "invalid_form",
            f"{name} requires exactly one binding pair: ({name} [x expr] ...)",
            vec.span,
        )
    pattern, init = vec.items
    rest = args[1:]
    is_if = name.startswith("if-")
    if is_if and len(rest) not in (1, 2):
        raise error("invalid_arity", f"expected ({name} [x expr] then else?)", form.span)
    sub = ctx.sub
    value = an.expr(init, sub)
    span = form.span
    locals_ = dict(ctx.locals)
    then_ctx = sub.with_locals(locals_)
    inner: Bindings = []
    if name == "when-first":
        temp = an.fresh("seq")
        value = ir.RtCall("ds_seq", (value,), span)
        test: ir.Node = ir.Local(temp, span)
        first = ir.RtCall("ds_nth", (test, ir.Const(0)), span)
        destructure(an, pattern, first, locals_, then_ctx, inner)
    else:
        if type(pattern) is Symbol:
            temp = an.bind_name(pattern, locals_)
        else:
            temp = an.fresh("test")
            destructure(an, pattern, ir.Local(temp, span), locals_, then_ctx, inner)
        test = ir.Local(temp, span)
        if name.endswith("-some"):
            test = ir.Call(ir.BuiltinRef("some?", span), (test,), span)
    if is_if:
        then = an.expr(rest[0], then_ctx, tail)
        else_ = an.expr(rest[1], sub, tail) if len(rest) == 2 else _NIL
    else:
        then = an.body(rest, then_ctx, tail, span)
        else_ = _NIL
    if inner:
        then = ir.Let(tuple(inner), then, span)
    return ir.Let(((temp, value),), ir.If(test, then, else_, span), span)


_MODIFIERS = ("when", "while", "let")


def _for(an: Analyzer, form: ListForm, ctx: Ctx, collect: bool) -> ir.Node:
    head = form.items[0]
    assert type(head) is Symbol
    name = head.name
    args = form.items[1:]
    if not args or type(args[0]) is not VectorForm:
        raise error(
            "invalid_form",
            f"{name} requires a vector of bindings: ({name} [x coll] body)",
            form.span,
        )
    if len(args) < 2:
        raise error("invalid_arity", f"{name} requires a body: ({name} [x coll] body)", form.span)
    items = args[0].items
    if not items:
        raise error("invalid_form", f"{name} requires at least one binding", args[0].span)
    locals_ = dict(ctx.locals)
    bctx = Ctx(locals_, None, ctx.defs_visible, ctx.short, ctx.def_self)
    clauses: list[ir.ForClause] = []
    n = len(items)
    i = 0
    while i < n:
        item = items[i]
        if type(item) is KeywordForm:
            mod = item.name
            if not clauses:
                raise error("invalid_form", f"expected a binding in {name}, got :{mod}", item.span)
            if mod not in _MODIFIERS:
                raise error(
                    "invalid_form",
                    f"unknown modifier :{mod} in for/doseq. Known: :when, :let, :while",
                    item.span,
                )
            if i + 1 >= n:
                raise error("invalid_form", f"modifier :{mod} requires a value", item.span)
            val = items[i + 1]
            if mod == "when":
                clauses.append(ir.ForWhen(an.expr(val, bctx), item.span))
            elif mod == "while":
                clauses.append(ir.ForWhile(an.expr(val, bctx), item.span))
            else:
                if type(val) is not VectorForm or len(val.items) % 2:
                    raise error(
                        "invalid_form",
                        ":let in for/doseq requires a vector of binding pairs",
                        val.span,
                    )
                out: Bindings = []
                for pat, init in zip(val.items[0::2], val.items[1::2], strict=False):
                    destructure(an, pat, an.expr(init, bctx), locals_, bctx, out)
                clauses.append(ir.ForLet(tuple(out), item.span))
            i += 2
            continue
        if i + 1 >= n:
            raise error(
                "invalid_form",
                f"{name} bindings require an even number of forms",
                item.span,
                hint=f"write ({name} [x coll] ...)",
            )
        coll_form = items[i + 1]
        if type(coll_form) is KeywordForm or (
            type(coll_form) is Const and isinstance(coll_form.value, int | float)
        ):
            from ptc_compiler.analyzer.colls import describe, show

            raise error(
                "invalid_arity",
                f"{name} binding {show(item)} expected a collection, got: {describe(coll_form)}",
                coll_form.span,
            )
        coll = an.expr(coll_form, bctx)
        if type(item) is Symbol:
            clauses.append(ir.ForBind(an.bind_name(item, locals_), coll, item.span))
        else:
            temp = an.fresh("item")
            clauses.append(ir.ForBind(temp, coll, item.span))
            out = []
            destructure(an, item, ir.Local(temp, item.span), locals_, bctx, out)
            clauses.append(ir.ForLet(tuple(out), item.span))
        i += 2
    body = an.body(args[1:], bctx, False, form.span)
    return ir.For(tuple(clauses), body, collect, form.span)


def analyze_for(an: Analyzer, form: ListForm, ctx: Ctx, tail: bool) -> ir.Node:
    return _for(an, form, ctx, True)


def analyze_doseq(an: Analyzer, form: ListForm, ctx: Ctx, tail: bool) -> ir.Node:
    return _for(an, form, ctx, False)


HANDLERS: dict[str, Handler] = {
    "let": analyze_let,
    "loop": analyze_loop,
    "recur": analyze_recur,
    "if-let": _bind1,
    "when-let": _bind1,
    "if-some": _bind1,
    "when-some": _bind1,
    "when-first": _bind1,
    "for": analyze_for,
    "doseq": analyze_doseq,
}
