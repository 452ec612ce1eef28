"""The analyzer driver: forms -> IR nodes, dispatching on form type and head symbol.

One `Analyzer` per `analyze` call holds the ident counter and the whole-program facts
(names a `def` made known, tools and data keys referenced). Special forms live in
`control`, `bindings`, `fn` and `threading`, each exporting a `HANDLERS` table; the
head symbol of a list picks its handler unless a local shadows it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

from ptc_compiler import ir
from ptc_compiler.analyzer import bindings, colls, control, fn, resolve, threading
from ptc_compiler.analyzer.env import AnalysisEnv
from ptc_compiler.analyzer.scope import Ctx, error
from ptc_compiler.budget import CompileBudget, unbounded
from ptc_compiler.forms import (
    Const,
    Form,
    KeywordForm,
    ListForm,
    MapForm,
    Quote,
    RegexForm,
    SetForm,
    ShortFn,
    Span,
    Symbol,
    VarQuote,
    VectorForm,
)
from ptc_runtime.builtins.registry import BuiltinSpec
from ptc_runtime.errors import PtcError
from ptc_runtime.regexp import compile_regex
from ptc_runtime.values import SymbolRef, keyword

Handler = Callable[["Analyzer", ListForm, Ctx, bool], ir.Node]

#: Special forms that keep their meaning in call position even when a local shadows them.
ALWAYS_SPECIAL = frozenset({"if", "do", "def", "defonce", "recur", "return", "fail", "program"})

_UNSAFE = re.compile(r"[^A-Za-z0-9]")

#: Builtins whose argument, when a bare or qualified symbol, is passed as its name.
_AUTO_QUOTE = frozenset({"doc", "dir", "export-meta", "source"})

#: Calls that would build an infinite sequence: name -> infinite arg count.
_INFINITE = {"range": 0, "repeat": 1, "cycle": 1, "iterate": 1}
_INFINITE_HINT = {
    "range": "give a bound: (range n) or (range start end)",
    "repeat": "give a count: (repeat n x)",
    "cycle": "sequences are finite: repeat a collection n times with "
    "(apply concat (repeat n coll))",
    "iterate": "give a bound: use loop/recur or reduce over (range n)",
}


HANDLERS: Mapping[str, Handler] = {
    **control.HANDLERS,
    **bindings.HANDLERS,
    **fn.HANDLERS,
    **threading.HANDLERS,
}


class Analyzer:
    """State of one `analyze` call."""

    def __init__(self, env: AnalysisEnv, budget: CompileBudget | None = None) -> None:
        self.env = env
        #: every form analyzed is charged (macro expansions too: `cond->` makes many)
        self.budget = budget if budget is not None else unbounded()
        self.builtins: Mapping[str, BuiltinSpec] = env.builtins
        self.handlers = HANDLERS
        self.counter = 0
        self.known: set[str] = set(env.user_names)
        self.defines: set[str] = set()
        self.tools: set[str] = set()
        self.data_keys: set[str] = set()
        self.sibling_refs: set[str] = set()  # component mode: own definitions referenced
        self.export_refs: set[str] = set()  # prelude exports referenced (ns/name)

    # -- names -------------------------------------------------------------------

    def fresh(self, name: str) -> str:
        """A unique local ident `v<n>_<sanitized name>`."""
        self.counter += 1
        return f"v{self.counter}_{_UNSAFE.sub('_', name)}"

    def bind_name(self, sym: Form, locals_: dict[str, str]) -> str:
        """Bind a simple symbol as a new local in `locals_`; returns its ident."""
        name = resolve.check_bindable(sym)
        ident = self.fresh(name)
        locals_[name] = ident
        return ident

    def gensym(self, locals_: dict[str, str], label: str) -> tuple[Symbol, str]:
        """A symbol no program can spell, bound in `locals_` to a fresh ident."""
        ident = self.fresh(label)
        name = "#" + ident
        locals_[name] = ident
        return Symbol(name), ident

    def use_tool(self, name: str, span: Span) -> None:
        """Record a tool reference; an ungranted tool is an error before anything runs."""
        if self.env.component is None and name in self.env.private_tools:
            raise error(
                "private_tool_unauthorized",
                f"tool/{name} is reserved for prelude code and cannot be called by a program",
                span,
            )
        self.tools.add(name)
        granted = self.env.tools
        if granted is not None and name not in granted:
            available = (
                "Available tools: " + ", ".join(sorted(granted))
                if granted
                else "No tools available."
            )
            raise error("unknown_tool", f"Unknown tool: {name}. {available}", span)

    # -- forms -------------------------------------------------------------------

    def expr(self, form: Form, ctx: Ctx, tail: bool = False) -> ir.Node:
        """Analyze one form; `tail` is True when `recur` may appear in it."""
        budget = self.budget  # `CompileBudget.charge`, inlined: this runs per form
        budget.nodes += 1
        if budget.nodes >= budget.next_check:
            budget.check()
        t = type(form)
        if t is Symbol:
            return resolve.symbol(self, form, ctx)  # type: ignore[arg-type]
        if t is ListForm:
            return self.list_form(form, ctx, tail)  # type: ignore[arg-type]
        if t is Const:
            return ir.Const(form.value, form.span)  # type: ignore[union-attr]
        if t is KeywordForm:
            return ir.Const(keyword(form.name), form.span)  # type: ignore[union-attr]
        if t is VectorForm:
            sub = ctx.sub
            return ir.VectorLit(tuple([self.expr(f, sub) for f in form.items]), form.span)  # type: ignore[union-attr]
        if t is MapForm:
            return colls.map_lit(self, form, ctx.sub)  # type: ignore[arg-type]
        if t is SetForm:
            return colls.set_lit(self, form, ctx.sub)  # type: ignore[arg-type]
        if t is ShortFn:
            return fn.analyze_short_fn(self, form, ctx)  # type: ignore[arg-type]
        if t is Quote:
            return ir.Const(SymbolRef(form.text), form.span)  # type: ignore[union-attr]
        if t is VarQuote:
            return resolve.symbol(self, form.symbol, ctx)  # type: ignore[union-attr]
        if t is RegexForm:
            return regex_lit(form)  # type: ignore[arg-type]
        raise AssertionError(f"unknown form type {t.__name__}")

    def body(self, forms: Sequence[Form], ctx: Ctx, tail: bool, span: Span) -> ir.Node:
        """An implicit `do`: the last form inherits `tail`; empty is nil."""
        n = len(forms)
        if n == 0:
            return ir.Const(None, span)
        if n == 1:
            return self.expr(forms[0], ctx, tail)
        items = [self.expr(f, ctx) for f in forms[:-1]]
        items.append(self.expr(forms[-1], ctx, tail))
        return ir.Do(tuple(items), span)

    def list_form(self, form: ListForm, ctx: Ctx, tail: bool) -> ir.Node:
        items = form.items
        if not items:
            raise error(
                "invalid_form",
                "Empty list is not a valid expression",
                form.span,
                hint="use [] for an empty vector or nil for nothing",
            )
        head = items[0]
        if type(head) is Symbol:
            ns = head.ns
            if ns is None:
                name = head.name
                handler = self.handlers.get(name)
                if handler is not None and (name in ALWAYS_SPECIAL or name not in ctx.locals):
                    return handler(self, form, ctx, tail)
                if name == ".":
                    raise error(
                        "invalid_form",
                        "(. obj method) syntax is not supported. Use (.method obj) instead.",
                        form.span,
                    )
            elif ns == "tool" or ns in self.env.binding_namespaces:
                return self.tool_call(form, ctx)
            elif ns == "data":
                self.data_keys.add(head.name)
                raise error(
                    "not_callable",
                    f"not callable: data/{head.name} is a value, not a function",
                    head.span,
                    hint=f"use data/{head.name} without parentheses",
                )
            fn = resolve.symbol(self, head, ctx)
            if type(fn) is ir.BuiltinRef:
                return self.builtin_call(fn, form, ctx)
            if type(fn) is ir.ExportRef or type(fn) is ir.SiblingRef:
                node = self.prelude_call(fn, form)
                if node is not None:
                    return node
            if type(fn) is ir.Const and ns is not None and len(items) == 1:
                return fn  # (Double/NaN): a static field read written as a call
        elif type(head) is Const and head.value is None:
            raise error("not_callable", "not callable: nil cannot be called", head.span)
        else:
            fn = self.expr(head, ctx.sub)
        sub = ctx.sub
        return ir.Call(fn, tuple([self.expr(a, sub) for a in items[1:]]), form.span)

    def prelude_call(self, fn: ir.ExportRef | ir.SiblingRef, form: ListForm) -> ir.Node | None:
        """`(ns/x args)` is arity-checked; calling a constant with no arguments reads it."""
        n = len(form.items) - 1
        if fn.const and n == 0:
            return fn
        if isinstance(fn, ir.ExportRef):
            info = self.env.exports[fn.ref]
            if not info.accepts(n):
                raise error(
                    "arity_error",
                    f"{fn.ref}: wrong number of arguments ({n}), expected {info.arity_text()}",
                    form.span,
                )
        elif fn.const:
            raise error(
                "not_callable",
                f"not callable: {fn.name} is a constant; call it with no arguments or use it bare",
                form.span,
            )
        return None

    def builtin_call(self, fn: ir.BuiltinRef, form: ListForm, ctx: Ctx) -> ir.Node:
        """A call of a builtin, with the checks the analyzer owns (apply, juxt, ...)."""
        name = fn.name
        args = form.items[1:]
        n = len(args)
        sub = ctx.sub
        if name in _AUTO_QUOTE and n == 1:
            arg = args[0]
            if type(arg) is Symbol and not (arg.ns is None and arg.name in ctx.locals):
                return ir.Call(fn, (ir.Const(arg.text, arg.span),), form.span)
        elif name == "apply" and n < 2:
            raise error(
                "invalid_arity",
                "apply expects a function and a collection, "
                f"got {n} argument{'s' if n != 1 else ''}",
                form.span,
                hint="write (apply f coll), e.g. (apply + [1 2 3])",
            )
        elif name == "juxt" and n == 0:
            raise error(
                "invalid_arity",
                "juxt expects at least one function",
                form.span,
                hint="write (juxt f g ...), e.g. (juxt :id :name)",
            )
        elif name in _INFINITE:
            spec = self.builtins.get(name)
            if n == _INFINITE[name] or (spec is not None and not spec.accepts(n)):
                raise error(
                    "invalid_arity",
                    f"({name}) with {n} argument"
                    f"{'s' if n != 1 else ''} would be infinite or is not "
                    "supported: sequences are finite",
                    form.span,
                    hint=_INFINITE_HINT[name],
                )
        return ir.Call(fn, tuple([self.expr(a, sub) for a in args]), form.span)

    def tool_call(self, form: ListForm, ctx: Ctx) -> ir.Node:
        """`(tool/x)`, `(tool/x {map})`, `(tool/x expr)`, `(tool/x :k v ...)`."""
        head = form.items[0]
        assert type(head) is Symbol
        # `tool/x` calls member "x"; another binding namespace `ns/x` calls "ns/x"
        name = head.name if head.ns == "tool" else f"{head.ns}/{head.name}"
        shown = f"{head.ns}/{head.name}"
        self.use_tool(name, head.span)
        args = form.items[1:]
        sub = ctx.sub
        if not args:
            return ir.ToolCall(name, None, form.span)
        first = args[0]
        if type(first) is KeywordForm:
            if len(args) % 2:
                raise error(
                    "invalid_tool_args",
                    f"{shown}: keyword arguments need a value for every key",
                    first.span,
                    hint=f"write ({shown} {{:key value}}) or ({shown} :key value)",
                )
            keys = args[0::2]
            for k in keys:
                if type(k) is not KeywordForm:
                    raise error(
                        "invalid_tool_args",
                        f"{shown}: expected a keyword argument name, got {colls.show(k)}",
                        k.span,
                        hint=f"write ({shown} :key value ...)",
                    )
            colls.check_duplicates(keys, "tool argument")
            pairs = tuple(
                (self.expr(k, sub), self.expr(v, sub))
                for k, v in zip(keys, args[1::2], strict=False)
            )
            return ir.ToolCall(name, ir.MapLit(pairs, form.span), form.span)
        if len(args) > 1:
            raise error(
                "invalid_tool_args",
                f"{shown} takes one map argument, got {len(args)} arguments",
                args[1].span,
                hint=f"Tool calls require named arguments. Use ({shown} "
                "{:key value}), not positional args.",
            )
        if type(first) in (Const, VectorForm, SetForm, RegexForm, Quote):
            raise error(
                "invalid_tool_args",
                "Tool calls require named arguments. Use "
                f"({shown} {{:key value}}), not positional args.",
                first.span,
                hint=f"Got {colls.describe(first)} - try ({shown} {{:key {colls.show(first)}}})",
            )
        return ir.ToolCall(name, self.expr(first, sub), form.span)


def regex_lit(form: RegexForm) -> ir.RegexLit:
    """A regex literal, validated now so a bad pattern fails before anything runs."""
    try:
        compile_regex(form.source)
    except PtcError as exc:
        raise error("invalid_form", f"invalid regex literal: {exc.message}", form.span) from None
    return ir.RegexLit(form.source, form.span)
