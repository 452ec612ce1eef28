"""Functions and definitions: fn (multi-arity), #(), def, defonce, defn."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ptc_compiler import ir
from ptc_compiler.analyzer.bindings import Bindings, destructure
from ptc_compiler.analyzer.resolve import check_bindable
from ptc_compiler.analyzer.scope import Ctx, ShortFnState, error
from ptc_compiler.forms import (
    Const,
    Form,
    KeywordForm,
    ListForm,
    MapForm,
    ShortFn,
    Span,
    Symbol,
    VectorForm,
)
from ptc_runtime.builtins.registry import NAMESPACE_ALIASES

if TYPE_CHECKING:
    from ptc_compiler.analyzer.core import Analyzer, Handler


def _is_amp(form: Form) -> bool:
    return type(form) is Symbol and form.ns is None and form.name == "&"


def fn_arity(
    an: Analyzer,
    params: VectorForm,
    body: Sequence[Form],
    locals_: dict[str, str],
    ctx: Ctx,
    span: Span,
) -> ir.FnArity:
    """One arity: parameters (patterns allowed), `& rest`, body in tail position."""
    locals_ = dict(locals_)
    items = params.items
    idents: list[str] = []
    patterns: list[tuple[str, Form]] = []
    rest: str | None = None
    rest_pattern: Form | None = None
    n = len(items)
    for i, p in enumerate(items):
        if _is_amp(p):
            if i + 2 != n:
                raise error(
                    "invalid_form",
                    "& must be followed by exactly one parameter",
                    p.span,
                    hint="write [a b & more]",
                )
            rest_pattern = items[i + 1]
            if type(rest_pattern) is Symbol:
                rest = an.bind_name(rest_pattern, locals_)
                rest_pattern = None
            else:
                rest = an.fresh("rest")
            break
        if type(p) is Symbol:
            idents.append(an.bind_name(p, locals_))
        else:
            ident = an.fresh("arg")
            idents.append(ident)
            patterns.append((ident, p))
    body_ctx = ctx.for_fn(locals_, len(idents) + (rest is not None), ctx.short)
    pre: Bindings = []
    for ident, pattern in patterns:
        destructure(an, pattern, ir.Local(ident, pattern.span), locals_, body_ctx, pre)
    if rest_pattern is not None:
        assert rest is not None
        value: ir.Node = ir.Local(rest, rest_pattern.span)
        if type(rest_pattern) is MapForm:
            value = ir.RtCall("ds_rest_map", (value, ir.Const(0)), rest_pattern.span)
        destructure(an, rest_pattern, value, locals_, body_ctx, pre)
    node = an.body(body, body_ctx, True, span)
    if pre:
        node = ir.Let(tuple(pre), node, span)
    return ir.FnArity(tuple(idents), rest, node, span)


def fn_arities(
    an: Analyzer,
    specs: Sequence[Form],
    locals_: dict[str, str],
    ctx: Ctx,
    form: Form,
    what: str,
) -> tuple[ir.FnArity, ...]:
    """`[params] body*` or `([params] body*)+`, checked and sorted by fixed count."""
    first = specs[0]
    if type(first) is VectorForm:
        return (fn_arity(an, first, specs[1:], locals_, ctx, form.span),)
    arities: list[ir.FnArity] = []
    for spec in specs:
        if type(spec) is not ListForm or not spec.items or type(spec.items[0]) is not VectorForm:
            raise error(
                "invalid_form",
                f"{what} expects a parameter vector or arity lists ([params] body ...)",
                spec.span,
                hint=f"write ({what} [x] ...) or ({what} ([x] ...) ([x y] ...))",
            )
        params = spec.items[0]
        assert type(params) is VectorForm
        arities.append(fn_arity(an, params, spec.items[1:], locals_, ctx, spec.span))
    variadic = [a for a in arities if a.rest is not None]
    if len(variadic) > 1:
        raise error("invalid_form", f"{what} can have at most one variadic arity", form.span)
    seen: set[int] = set()
    for a in arities:
        if a.rest is None:
            if len(a.params) in seen:
                raise error(
                    "invalid_form",
                    f"{what} has two arities with {len(a.params)} parameters",
                    a.span,
                )
            seen.add(len(a.params))
    if variadic and seen and max(seen) > len(variadic[0].params):
        raise error(
            "invalid_form",
            f"{what}: a fixed arity cannot have more parameters than the variadic one",
            form.span,
        )
    return tuple(sorted(arities, key=lambda a: (len(a.params), a.rest is not None)))


def analyze_fn(an: Analyzer, form: ListForm, ctx: Ctx, tail: bool) -> ir.Node:
    args = form.items[1:]
    name: str | None = None
    self_ident: str | None = None
    locals_ = ctx.locals
    if args and type(args[0]) is Symbol:
        locals_ = dict(locals_)
        name = check_bindable(args[0])
        self_ident = an.bind_name(args[0], locals_)
        args = args[1:]
    if not args:
        raise error("invalid_arity", "expected (fn [params] body*)", form.span)
    arities = fn_arities(an, args, locals_, ctx, form, "fn")
    return ir.Fn(arities, self_ident, name, span=form.span)


def analyze_short_fn(an: Analyzer, form: ShortFn, ctx: Ctx) -> ir.Node:
    """`#(...)`: the body is always a call of its first form."""
    if ctx.short is not None:
        raise error(
            "invalid_form",
            "Nested #() anonymous functions are not allowed",
            form.span,
            hint="use (fn [x] ...) for the inner function",
        )
    state = ShortFnState()
    body_ctx = Ctx(ctx.locals, -1, False, state, ctx.def_self)
    if form.items:
        body = an.expr(ListForm(form.items, form.span), body_ctx, True)
    else:
        body = ir.Const(None, form.span)
    idents = state.idents
    count = max((i for i in idents if i > 0), default=0)
    params = []
    for i in range(1, count + 1):
        ident = idents.get(i)
        params.append(an.fresh(f"p{i}") if ident is None else ident)
    rest = idents.get(0)
    slots = count + (rest is not None)
    for got, span in state.recurs:
        if got != slots:
            raise error(
                "arity_error",
                f"recur: wrong number of arguments ({got}), expected {slots}",
                span,
            )
    return ir.Fn((ir.FnArity(tuple(params), rest, body, form.span),), span=form.span)


def check_definable(an: Analyzer, form: ListForm, what: str) -> None:
    """No definitions inside component bodies; never into a protected namespace."""
    if an.env.component is not None:
        raise error(
            "invalid_form",
            f"{what} is only allowed at the top level of component source",
            form.span,
            hint="use let for local values, or a top-level defn- for a helper",
        )
    args = form.items[1:]
    target = args[0] if args else None
    if type(target) is Symbol and target.ns is not None:
        ns = target.ns
        if ns in an.env.prelude_namespaces or ns in ("tool", "data") or ns in NAMESPACE_ALIASES:
            raise error(
                "protected_namespace",
                f"cannot define {target.text}: namespace {ns} is protected",
                target.span,
                hint=f"define a plain name instead: ({what} {target.name} ...)",
            )


def _def_name(form: ListForm, what: str) -> tuple[str, Span]:
    args = form.items[1:]
    if not args:
        raise error("invalid_arity", f"expected ({what} name value)", form.span)
    name_form = args[0]
    if type(name_form) is not Symbol:
        raise error(
            "invalid_form",
            f"{what} name must be a symbol",
            name_form.span,
            hint="destructuring is not allowed in def; use let",
        )
    if name_form.ns is not None:
        raise error(
            "invalid_form",
            f"cannot def a qualified name {name_form.text}",
            name_form.span,
            hint=f"use a plain name: ({what} {name_form.name} ...)",
        )
    return check_bindable(name_form), name_form.span


def _analyze_def(an: Analyzer, form: ListForm, ctx: Ctx, once: bool) -> ir.Node:
    what = "defonce" if once else "def"
    check_definable(an, form, what)
    name, _ = _def_name(form, what)
    args = form.items[2:]
    doc: str | None = None
    if len(args) == 2 and type(args[0]) is Const and isinstance(args[0].value, str):
        doc = args[0].value
        args = args[1:]
    if len(args) != 1:
        raise error(
            "invalid_arity",
            f"expected ({what} name doc? value)",
            form.span,
            hint=f"give a value: ({what} {name} value)",
        )
    spec = an.builtins.get(name)
    if name in an.known or name in ctx.locals or (spec is not None and spec.bare):
        value_ctx = ctx.sub  # the name is otherwise known: no lenient self reference
    else:
        value_ctx = ctx.with_def_self(name)
    value = an.expr(args[0], value_ctx)
    if ctx.defs_visible:
        an.known.add(name)
        an.defines.add(name)
    return ir.Def(name, value, once, doc, form.span)


def analyze_def(an: Analyzer, form: ListForm, ctx: Ctx, tail: bool) -> ir.Node:
    return _analyze_def(an, form, ctx, False)


def analyze_defonce(an: Analyzer, form: ListForm, ctx: Ctx, tail: bool) -> ir.Node:
    return _analyze_def(an, form, ctx, True)


def _attr_map(form: MapForm) -> tuple[str | None, str | None]:
    """`{:signature "..." :doc "..."}` -> (signature, doc)."""
    signature = doc = None
    for k, v in zip(form.items[0::2], form.items[1::2], strict=False):
        if type(k) is not KeywordForm:
            raise error("invalid_form", "defn attribute map keys must be keywords", k.span)
        if k.name in ("signature", "doc"):
            if type(v) is not Const or not isinstance(v.value, str):
                raise error("invalid_form", f"defn attribute :{k.name} must be a string", v.span)
            if k.name == "signature":
                signature = v.value
            else:
                doc = v.value
    return signature, doc


def analyze_defn(an: Analyzer, form: ListForm, ctx: Ctx, tail: bool) -> ir.Node:
    check_definable(an, form, "defn")
    name, _ = _def_name(form, "defn")
    rest = form.items[2:]
    doc: str | None = None
    signature: str | None = None
    if len(rest) > 1 and type(rest[0]) is Const and isinstance(rest[0].value, str):
        doc = rest[0].value
        rest = rest[1:]
    sig_span: Span | None = None
    if len(rest) > 1 and type(rest[0]) is MapForm:
        sig_span = rest[0].span
        signature, attr_doc = _attr_map(rest[0])
        doc = doc if attr_doc is None else attr_doc
        rest = rest[1:]
    if not rest or (len(rest) == 1 and type(rest[0]) is Const):
        raise error("invalid_arity", "expected (defn name [params] body)", form.span)
    known_before = name in an.known
    an.known.add(name)  # the body may call the function by name
    try:
        arities = fn_arities(an, rest, ctx.locals, ctx, form, "defn")
    finally:
        if not known_before:
            an.known.discard(name)
    if ctx.defs_visible:
        an.known.add(name)
        an.defines.add(name)
    contract = None
    if signature is not None:
        contract = _contract(signature, arities, sig_span or form.span, name)
    fn = ir.Fn(arities, None, name, signature, doc, form.span, contract)
    return ir.Def(name, fn, False, doc, form.span)


def _contract(text: str, arities: tuple[ir.FnArity, ...], span: Span, name: str) -> str:
    """Parse a `:signature`, check it fits the fn, return its contract data."""
    from ptc_compiler.signatures import SignatureError, parse
    from ptc_runtime.contracts.data import to_text

    try:
        sig = parse(text)
    except SignatureError as exc:
        where = f" (signature column {exc.column})" if exc.column is not None else ""
        raise error("invalid_signature", f"{name}: {exc.message}{where}", span) from None
    if len(arities) != 1 or arities[0].rest is not None:
        raise error(
            "invalid_signature",
            f"{name}: a signature needs exactly one fixed arity",
            span,
            hint="variadic and multi-arity functions cannot carry a signature",
        )
    if len(sig.params) != len(arities[0].params):
        raise error(
            "invalid_signature",
            f"{name}: the signature declares {len(sig.params)} parameters "
            f"but the function takes {len(arities[0].params)}",
            span,
        )
    return to_text(sig)


HANDLERS: dict[str, Handler] = {
    "fn": analyze_fn,
    "def": analyze_def,
    "defonce": analyze_defonce,
    "defn": analyze_defn,
}
