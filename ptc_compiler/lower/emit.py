"""IR -> Python AST, one function per node kind.

Expressions lower to `Lowered(stmts, expr)`. Nodes in tail position (the body of
a `fn`, a `loop` or the program) lower to statements that hand their value to a
`Sink`: `return v`, or `t = v; break` out of a loop. `recur` in tail position
becomes a tuple assignment of the loop names, one step of fuel and `continue`, so
loops are real `while` loops, never a trampoline.

Every `fn` is hoisted to module level: a plain `def` when it captures nothing,
otherwise a factory `mkN(captured...)` that returns the inner `def`, so a closure
captures the *values* its free locals had when it was made (a `fn` made in a loop
sees that iteration's values).

This module is the general lowering. The fast paths for particular shapes live beside
it, one module per family, each falling back here (returning None) when its shape does
not apply: `rules_paths` (keyword reads, literal `get`/`get-in` paths, read chains,
keyword getters, loop-invariant reads), `rules_sequences` (`map`/`filter` with a literal
fn as a loop, field filters, take-sorted, frequencies of mapcat), `rules_grouping`
(`group-by` columns and counts), `rules_reduce` (the in-place linear `reduce` and its
one-call shapes, fast update fns) and `rules_operators` (inline arithmetic, comparison
and equality, same-type `+`/`-`, `str` formats).
"""

from __future__ import annotations

import ast
import copy
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from ptc_compiler import ir
from ptc_compiler.budget import CompileBudget, unbounded
from ptc_compiler.lower import (
    rules_format,
    rules_grouping,
    rules_operators,
    rules_pathmap,
    rules_paths,
    rules_reduce,
    rules_sequences,
    scan,
)
from ptc_compiler.lower.ctx import (
    CREDIT,
    FUEL,
    LOAD,
    NONE,
    NS,
    PDEP,
    PNS,
    STORE,
    Ctx,
    LoopTarget,
    Lowered,
    assign,
    at,
    call,
    fuel_check,
    fuel_globals,
    fuel_loop,
    helper,
    is_trivial,
    load,
    store,
)
from ptc_runtime.builtins.registry import BuiltinSpec
from ptc_runtime.fastops import (
    FAST_CALLS,
)
from ptc_runtime.uservars import CALL_PREFIX, VALUE_PREFIX, mangle
from ptc_runtime.values import Keyword, SymbolRef

Sink = Callable[[ast.expr], list[ast.stmt]]


def return_sink(expr: ast.expr) -> list[ast.stmt]:
    return [ast.Return(expr)]


def assign_sink(name: str, then_break: bool) -> Sink:
    def sink(expr: ast.expr) -> list[ast.stmt]:
        out: list[ast.stmt] = [assign(name, expr)]
        if then_break:
            out.append(ast.Break())
        return out

    return sink


def collect_item(acc: str, item: ast.expr) -> ast.stmt:
    """`rt_append(acc, item)`: one element collected by a `for`/`map`/`mapv` loop into its
    list. `rt_append` is `list.append`, a C method descriptor (about 20 ns per element
    against 45 for `acc += [item]`, which builds a one-item list to extend by), in as many
    AST nodes; the accumulator is always the list the loop made, and appending cannot fail.
    """
    return ast.Expr(helper("append", ast.Name(acc, LOAD), item))


class Emitter:
    """Lowers the nodes of one program; `builtins` names each builtin's global."""

    def __init__(
        self, builtins: Mapping[str, BuiltinSpec], cx: Ctx, budget: CompileBudget | None = None
    ) -> None:
        self.builtins = builtins
        self.cx = cx
        #: charged per node lowered: a node lowered twice (a fn's numeric version and
        #: its general one) counts twice, so the budget bounds the generated code
        self.budget = budget if budget is not None else unbounded()
        self.module_fns: set[str] = set()  # python names of fns defined at module level
        self.free_memo: dict[int, frozenset[str]] = {}
        self.hoists: list[
            rules_paths.Hoist
        ] = []  # the enclosing `for` loops of this Python function
        self.recurring: dict[int, bool] = {}  # id(FnArity) -> its body recurs to it
        #: the expression of each fn hoisted, by what its lowering depends on (see `fn`)
        self.fn_memo: dict[tuple[Any, ...], tuple[ir.Fn, ast.expr]] = {}
        self.copies = 0  # enclosing fn bodies being lowered in two versions
        self.may_specialise = True  # the fn being lowered may get numeric versions

    # ------------------------------------------------------------------ expressions

    def expr(self, node: ir.Node) -> Lowered:
        """Lower `node` for its value."""
        budget = self.budget  # `CompileBudget.charge`, inlined: this runs per node
        budget.nodes += 1
        if budget.nodes >= budget.next_check:
            budget.check()
        # One dict lookup per node (a `match` would try its class patterns one by one).
        lower_kind = _EXPR_KINDS.get(type(node))
        if lower_kind is None:
            raise AssertionError(f"unknown IR node {type(node).__name__}")
        lowered = lower_kind(self, node)
        at(node.span, lowered.expr)
        return lowered

    def export_ref(self, ref: str) -> ast.expr:
        """A prelude export: `PDEP['ns/x']` in a component, else a hoisted `rt_export`."""
        if self.cx.component:
            return subscript(PDEP, ref)
        key = self.cx.prelude_key
        assert key is not None, "an ExportRef needs an attached prelude"
        return load(self.cx.const("export", f"{key}|{ref}"))

    def const(self, value: ir.ConstValue) -> ast.expr:
        if isinstance(value, Keyword):
            return load(self.cx.const("kw", value.name))
        if isinstance(value, SymbolRef):
            return load(self.cx.const("symref", value.name))
        if isinstance(value, float) and not math.isfinite(value):
            return load(self.cx.const("special_float", repr(value)))
        return ast.Constant(value)

    def many(self, nodes: Sequence[ir.Node]) -> tuple[tuple[ast.stmt, ...], list[ast.expr]]:
        """Lower several operands keeping left-to-right evaluation order.

        When a later operand needs statements, earlier non-trivial operands are first
        saved in temporaries so they still run before it.
        """
        parts = [self.expr(n) for n in nodes]
        last = -1
        for i, p in enumerate(parts):
            if p.stmts:
                last = i
        if last < 0:
            return (), [p.expr for p in parts]
        stmts: list[ast.stmt] = []
        exprs: list[ast.expr] = []
        for i, p in enumerate(parts):
            stmts.extend(p.stmts)
            if i < last and not is_trivial(p.expr):
                t = self.cx.fresh()
                stmts.append(assign(t, p.expr))
                exprs.append(load(t))
            else:
                exprs.append(p.expr)
        return tuple(stmts), exprs

    def do(self, body: Sequence[ir.Node]) -> Lowered:
        if not body:
            return Lowered((), NONE)
        stmts: list[ast.stmt] = []
        for node in body[:-1]:
            stmts.extend(self.effect(node))
        last = self.expr(body[-1])
        return Lowered((*stmts, *last.stmts), last.expr)

    def effect(self, node: ir.Node) -> list[ast.stmt]:
        """Statements evaluating `node` only for its effects."""
        low = self.expr(node)
        out = list(low.stmts)
        if not is_trivial(low.expr):
            out.append(at(node.span, ast.Expr(low.expr)))  # type: ignore[arg-type]
        return out

    def via_statements(self, node: ir.Node) -> Lowered:
        """Lower a statement-shaped node in expression position through a temporary."""
        if isinstance(node, ir.If):
            return self.if_expr(node)
        if isinstance(node, ir.Let):
            return self.let_expr(node)
        t = self.cx.fresh()
        saved = self.cx.recur
        self.cx.recur = None
        try:
            stmts = self.tail(node, assign_sink(t, then_break=False))
        finally:
            self.cx.recur = saved
        return Lowered(tuple(stmts), load(t))

    def bind(self, ident: str, value: ir.Node) -> list[ast.stmt]:
        """Statements binding local `ident` to `value`.

        A `loop` or `for` delivers its result straight into `ident` instead of through a
        temporary, and so does a `map`/`filter` that lowers to a `for` (`inline_hof`).
        """
        if type(value) is ir.Call:
            fn = value.fn
            if type(fn) is ir.BuiltinRef and fn.name in rules_sequences.INLINE_HOF:
                loop = (
                    None
                    if rules_sequences.field_test(fn.name, value)
                    else rules_sequences.inline_hof(self, fn.name, value)
                )
                if loop is not None:
                    value = loop
        if type(value) is ir.Loop or type(value) is ir.For:
            saved = self.cx.recur
            self.cx.recur = None
            try:
                return self.tail(value, assign_sink(ident, then_break=False))
            finally:
                self.cx.recur = saved
        low = self.expr(value)
        return [*low.stmts, at(value.span, assign(ident, low.expr))]  # type: ignore[list-item]

    def if_expr(self, node: ir.If) -> Lowered:
        """`if` for its value: a conditional expression when neither branch needs
        statements, else an `if` statement assigning a temporary.

        Each branch is lowered once, whichever form results: lowering it again in tail
        form (as this once did when a branch had statements) doubled the work per
        nesting level, exponential in the depth of `if`s around loops.
        """
        test = self.expr(node.test)
        then = self.expr(node.then)
        else_ = self.expr(node.else_)
        cond_stmts, cond = self.truthy(node.test, test)
        if not then.stmts and not else_.stmts:
            return Lowered(cond_stmts, ast.IfExp(cond, then.expr, else_.expr))
        t = self.cx.fresh()
        body = [*then.stmts, assign(t, then.expr)]
        orelse = [*else_.stmts, assign(t, else_.expr)]
        branch = at(node.span, ast.If(cond, body, orelse))
        return Lowered((*cond_stmts, branch), load(t))  # type: ignore[arg-type]

    def let_expr(self, node: ir.Let) -> Lowered:
        stmts: list[ast.stmt] = []
        added: list[str] = []
        try:
            for ident, value in node.bindings:
                stmts.extend(self.bind(ident, value))
                if scan.is_numeric(value, self.cx.numeric):
                    self.know_numeric((ident,), added)
            body = self.expr(node.body)
        finally:
            self.forget_numeric(added)
        return Lowered((*stmts, *body.stmts), body.expr)

    def know_numeric(self, idents: Iterable[str], added: list[str]) -> None:
        """Record `idents` as known numbers for the scope being lowered, noting in `added`
        those that were not known yet (`forget_numeric` removes exactly those).

        The set is changed in place, not rebuilt: a `let` of n numeric bindings (or
        n nested ones, as `cond->` and `as->` expand to) copied it n times, quadratic.
        Idents are unique per program, so removing on leaving a scope is exact.
        """
        numeric = self.cx.numeric
        for ident in idents:
            if ident not in numeric:
                numeric.add(ident)
                added.append(ident)

    def forget_numeric(self, added: list[str]) -> None:
        """Undo `know_numeric` on leaving its scope."""
        numeric = self.cx.numeric
        for ident in added:
            numeric.discard(ident)
        added.clear()

    def truthy(self, node: ir.Node, low: Lowered) -> tuple[tuple[ast.stmt, ...], ast.expr]:
        """Clojure truthiness of a lowered test: `x is not None and x is not False`."""
        if scan.is_boolean(node):
            return low.stmts, low.expr
        if isinstance(low.expr, ast.Name):
            return low.stmts, not_nil_or_false(low.expr.id)
        t = self.cx.fresh()
        return (*low.stmts, assign(t, low.expr)), not_nil_or_false(t)

    def map_lit(self, node: ir.MapLit) -> Lowered:
        keys = [k for k, _ in node.pairs]
        flat: list[ir.Node] = []
        for k, v in node.pairs:
            flat.append(k)
            flat.append(v)
        stmts, exprs = self.many(flat)
        if all(simple_key(k) for k in keys):
            return Lowered(stmts, ast.Dict(list(exprs[0::2]), exprs[1::2]))
        return Lowered(stmts, helper("map", *exprs))

    def and_or(self, node: ir.And | ir.Or) -> Lowered:
        items = node.items
        is_and = isinstance(node, ir.And)
        if not items:
            return Lowered((), ast.Constant(True if is_and else None))
        if len(items) == 1:
            return self.expr(items[0])
        parts = [self.expr(i) for i in items]
        if all(scan.is_boolean(i) for i in items) and not any(p.stmts for p in parts):
            op: ast.boolop = ast.And() if is_and else ast.Or()
            return Lowered((), ast.BoolOp(op=op, values=[p.expr for p in parts]))
        t = self.cx.fresh()
        rest: list[ast.stmt] = []
        for item, part in zip(reversed(items), reversed(parts), strict=True):
            step: list[ast.stmt] = [*part.stmts, assign(t, part.expr)]
            if rest:
                test: ast.expr = not_nil_or_false(t) if is_and else nil_or_false(t)
                if scan.is_boolean(item):
                    test = load(t) if is_and else ast.UnaryOp(op=ast.Not(), operand=load(t))
                step.append(ast.If(test=test, body=rest, orelse=[]))
            rest = step
        return Lowered(tuple(rest), load(t))

    def def_(self, node: ir.Def) -> Lowered:
        low = self.expr(node.value)
        # binds the name in `NS` and the table user-var references read (`user_var`)
        value = helper("define", ast.Constant(node.name), low.expr)
        if not node.once:
            return Lowered(low.stmts, value)
        t = self.cx.fresh()
        defined = ast.Compare(left=ast.Constant(node.name), ops=[ast.In()], comparators=[load(NS)])
        stmt = ast.If(
            test=defined,
            body=[assign(t, helper("var", ast.Constant(node.name)))],
            orelse=[*low.stmts, assign(t, value)],
        )
        return Lowered((stmt,), load(t))

    # ------------------------------------------------------------------ calls

    def call(self, node: ir.Call) -> Lowered:
        fn = node.fn
        chain = rules_paths.read_chain(node)
        if chain is not None:
            # `(:c (:b (:a m)))`, `(get (get m "a") 0)`, `(-> m :a :b)`: one path read
            base, path_keys = chain
            lowered = self.expr(base)
            key_exprs = [self.expr(k).expr for k in path_keys]
            read = rules_paths.literal_path(
                self, lowered.expr, path_keys, key_exprs, base, node.span
            )
            return Lowered(lowered.stmts, read)
        if isinstance(fn, ir.Const) and isinstance(fn.value, Keyword) and 1 <= len(node.args) <= 2:
            if len(node.args) == 1 or type(node.args[1]) is ir.Const:
                hoisted = rules_paths.hoist(self, node.args[0], (fn,), node.span, *node.args[1:])
                if hoisted is not None:
                    return Lowered((), hoisted)
            stmts, exprs = self.many(node.args)
            return Lowered(stmts, rules_paths.keyword_read(self, fn.value, exprs[0], exprs[1:]))
        if isinstance(fn, ir.BuiltinRef) and fn.name in rules_sequences.INLINE_HOF:
            fused = rules_sequences.field_filter(self, fn.name, node)
            if fused is not None:
                return fused
            loop = rules_sequences.inline_hof(self, fn.name, node)
            if loop is not None:
                return self.via_statements(loop)
        if isinstance(fn, ir.BuiltinRef) and fn.name == "reduce" and len(node.args) == 3:
            folded = rules_reduce.linear_reduce(self, node)
            if folded is not None:
                return folded
        if isinstance(fn, ir.BuiltinRef) and fn.name == "take" and len(node.args) == 2:
            top = rules_sequences.take_sorted(self, node.args[0], node.args[1])
            if top is not None:
                return top
        if isinstance(fn, ir.BuiltinRef) and fn.name == "update-vals" and len(node.args) == 2:
            counts = rules_grouping.group_counts(node.args[0], node.args[1])
            if counts is not None:  # a statement at the group-by: its errors' position
                by_key, t = self.expr(counts), self.cx.fresh()
                stmt = at(counts.span, assign(t, by_key.expr))
                # then the `count` calls it stands for, charged at the update-vals
                charged = at(node.span, assign(t, helper("counted_groups", load(t))))
                return Lowered((*by_key.stmts, stmt, charged), load(t))  # type: ignore[arg-type]
        if isinstance(fn, ir.BuiltinRef) and fn.name == "frequencies" and len(node.args) == 1:
            counted = rules_sequences.frequencies_of_mapcat(self, node.args[0])
            if counted is not None:
                return counted
        if isinstance(fn, ir.BuiltinRef):
            if (
                fn.name == "get"
                and 2 <= len(node.args) <= 3
                and rules_paths.const_args(node.args[1:])
            ):
                hoisted = rules_paths.hoist(
                    self, node.args[0], node.args[1:2], node.span, *node.args[2:]
                )
                if hoisted is not None:
                    return Lowered((), hoisted)
            if (
                fn.name == "get-in"
                and len(node.args) == 3
                and rules_paths.const_args(node.args[2:])
            ):
                keys = node.args[1]
                if (
                    isinstance(keys, ir.VectorLit)
                    and 2 <= len(keys.items) <= rules_paths.PATH_UNROLLED
                ):
                    if rules_paths.const_args(keys.items):
                        hoisted = rules_paths.hoist(
                            self, node.args[0], keys.items, node.span, node.args[2]
                        )
                        if hoisted is not None:
                            return Lowered((), hoisted)
            stmts, exprs = self.many(node.args)
            if fn.name == "get" and 2 <= len(exprs) <= 3:
                key = node.args[1]
                if isinstance(key, ir.Const) and isinstance(key.value, Keyword):
                    return Lowered(
                        stmts, rules_paths.keyword_read(self, key.value, exprs[0], exprs[2:])
                    )
                if len(exprs) == 2:  # any other key: one level of a path, one frame
                    return Lowered(stmts, rules_paths.path_read(exprs[0], node.args[1:], exprs[1:]))
            if fn.name == "get-in" and len(exprs) == 2:
                path = exprs[1]
                keys = node.args[1]
                if isinstance(keys, ir.VectorLit) and isinstance(path, ast.List):
                    low = rules_paths.literal_path(
                        self, exprs[0], keys.items, path.elts, node.args[0], node.span
                    )
                    return Lowered(stmts, low)
            if fn.name == "get-in" and len(exprs) == 3:
                path, keys = exprs[1], node.args[1]
                if (
                    isinstance(keys, ir.VectorLit)
                    and isinstance(path, ast.List)
                    and 2 <= len(keys.items) <= rules_paths.PATH_UNROLLED
                ):
                    # `lookup.get_path_or2` ..: levels that stop at a missing key with the
                    # default, passed last: evaluated after the keys, as the builtin's argument
                    read = rules_paths.path_read(exprs[0], keys.items, path.elts)
                    read.func = load(f"rt_get_path_or{len(keys.items)}")
                    read.args.append(exprs[2])
                    return Lowered(stmts, read)
            inline = rules_operators.inline(self, fn.name, node.args, exprs)
            if inline is not None:
                return Lowered(stmts, inline)
            if fn.name == "str":
                formatted = rules_operators.str_format(node.args, exprs)
                if formatted is not None:
                    return Lowered(stmts, formatted)
            fast = FAST_CALLS.get(fn.name)
            if fast is not None and fast[0] == len(exprs):
                if self.cx.numeric and fn.name in rules_operators.ARITH:
                    return Lowered(
                        stmts,
                        rules_operators.same_type_arith(
                            self, rules_operators.ARITH[fn.name], fast[1], exprs
                        ),
                    )
                return Lowered(stmts, call(load(fast[1]), exprs))
            return Lowered(stmts, call(load(self.builtins[fn.name].py_name), exprs))
        if isinstance(fn, ir.Local) and fn.ident in self.cx.fn_locals:
            stmts, exprs = self.many(node.args)
            return Lowered(stmts, call(load(self.cx.fn_locals[fn.ident]), exprs))
        if isinstance(fn, ir.SiblingRef | ir.ExportRef) and not fn.const:
            stmts, exprs = self.many(node.args)
            return Lowered(stmts, call(self.expr(fn).expr, exprs))
        if isinstance(fn, ir.UserRef) and not fn.lenient:
            stmts, exprs = self.many(node.args)
            return Lowered(stmts, call(user_var(CALL_PREFIX, fn.name), exprs))
        stmts, exprs = self.many((fn, *node.args))
        return Lowered(stmts, helper("call", *exprs))

    # ------------------------------------------------------------------ tail position

    def tail(self, node: ir.Node, sink: Sink) -> list[ast.stmt]:
        """Statements that evaluate `node` in tail position and hand its value to `sink`."""
        match node:
            case ir.If(test=test, then=then, else_=else_):
                low = self.expr(test)
                stmts, cond = self.truthy(test, low)
                body = self.tail(then, sink)
                orelse = self.tail(else_, sink)
                return [*stmts, at(node.span, ast.If(cond, body, orelse))]  # type: ignore[list-item]
            case ir.Do(body=body):
                if not body:
                    return sink(NONE)
                out: list[ast.stmt] = []
                for item in body[:-1]:
                    out.extend(self.effect(item))
                return out + self.tail(body[-1], sink)
            case ir.Let(bindings=bindings, body=body):
                out = []
                added: list[str] = []
                try:
                    for ident, value in bindings:
                        out.extend(self.bind(ident, value))
                        if scan.is_numeric(value, self.cx.numeric):
                            self.know_numeric((ident,), added)
                    return out + self.tail(body, sink)
                finally:
                    self.forget_numeric(added)
            case ir.Recur(args=args):
                return self.recur(node, args)
            case ir.Loop():
                return self.loop(node, sink)
            case ir.For():
                return self.for_(node, sink)
            case ir.And() | ir.Or() if self.cx.recur is not None and node.items:
                return self.and_or_tail(node, sink)
            case _:
                low = self.expr(node)
                return [*low.stmts, *sink(low.expr)]

    def and_or_tail(self, node: ir.And | ir.Or, sink: Sink) -> list[ast.stmt]:
        """`and`/`or` in tail position, so a `recur` in the last operand stays a jump."""
        *init, last = node.items
        if not init:
            return self.tail(last, sink)
        t = self.cx.fresh()
        is_and = isinstance(node, ir.And)
        rest = self.tail(last, sink)
        for item in reversed(init):
            low = self.expr(item)
            test = nil_or_false(t) if is_and else not_nil_or_false(t)
            rest = [
                *low.stmts,
                assign(t, low.expr),
                ast.If(test=test, body=sink(load(t)), orelse=rest),
            ]
        return rest

    def recur(self, node: ir.Recur, args: Sequence[ir.Node]) -> list[ast.stmt]:
        target = self.cx.recur
        if target is None:
            raise AssertionError("recur without a target reached lowering")
        stmts, exprs = self.many(args)
        out = list(stmts)
        if len(target.idents) == 1:
            out.append(assign(target.idents[0], exprs[0]))
        elif target.idents:
            out.append(
                ast.Assign(
                    targets=[ast.Tuple(elts=[store(i) for i in target.idents], ctx=ast.Store())],
                    value=ast.Tuple(elts=exprs, ctx=ast.Load()),
                )
            )
        at(node.span, out[-1]) if out else None
        # No check here: the loop's `for` over FUEL pulls the step (see `ctx.fuel_loop`).
        return [*out, ast.Continue()]

    def loop(self, node: ir.Loop, sink: Sink) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        saved_recur = self.cx.recur
        added: list[str] = []
        try:
            for ident, value in node.bindings:
                low = self.expr(value)
                out.extend(low.stmts)
                out.append(at(value.span, assign(ident, low.expr)))  # type: ignore[arg-type]
            self.know_numeric(scan.numeric_loop_bindings(node, self.cx.numeric), added)
            self.cx.recur = LoopTarget(tuple(i for i, _ in node.bindings))
            if sink is return_sink:
                body = self.tail(node.body, sink)
                out += self.positioned_loop(node, body, breaks=False)
                return out
            t = self.cx.fresh()
            body = self.tail(node.body, assign_sink(t, then_break=True))
            out += self.positioned_loop(node, body, breaks=True)
        finally:
            self.forget_numeric(added)
            self.cx.recur = saved_recur
        return out + sink(load(t))

    @staticmethod
    def positioned_loop(node: ir.Loop, body: list[ast.stmt], *, breaks: bool) -> list[ast.stmt]:
        """The fuel-driven `while` of a `loop` (its entry credited, see `ctx.fuel_loop`),
        positioned: a step-budget failure in the loop names the loop."""
        stmts = fuel_loop(body, breaks=breaks, entry_free=True)
        for stmt in stmts:
            at(node.span, stmt)
        return stmts

    def for_(self, node: ir.For, sink: Sink) -> list[ast.stmt]:
        read = rules_pathmap.map_path(self, node)
        if read is not None:
            return [*read.stmts, *sink(read.expr)]
        node = rules_grouping.for_group_columns(node)
        fused = rules_format.map_str_fields(self, node)  # `(map #(str (:k %) ...) coll)`
        if fused is not None:
            return [*fused.stmts, *sink(fused.expr)]
        acc = self.cx.fresh()
        saved = self.cx.recur
        self.cx.recur = None
        try:
            body = self.for_clauses(node, 0, acc)
        finally:
            self.cx.recur = saved
        init = [assign(acc, ast.List([], LOAD))] if node.collect else []
        return [*init, *body, *sink(load(acc) if node.collect else NONE)]

    def for_clauses(self, node: ir.For, i: int, acc: str) -> list[ast.stmt]:
        if i == len(node.clauses):
            if not node.collect:
                return self.effect(node.body)
            low = self.expr(node.body)
            return [*low.stmts, collect_item(acc, low.expr)]
        clause = node.clauses[i]
        hoist = None
        if type(clause) is ir.ForBind:
            hoist = rules_paths.Hoist(clause.ident, lambda: rules_paths.bound_inside(node, i))
            self.hoists.append(hoist)
            try:
                rest = rules_paths.keyword_getter(
                    self, clause.ident, lambda: self.for_clauses(node, i + 1, acc)
                )
            finally:
                self.hoists.pop()
        else:
            rest = self.for_clauses(node, i + 1, acc)
        match clause:
            case ir.ForBind(ident=ident, coll=coll):
                low = self.expr(coll)
                loop = ast.For(
                    target=store(ident),
                    iter=helper("iter", low.expr),
                    body=[*fuel_check(), *rest],
                    orelse=[],
                )
                hoisted = hoist.stmts if hoist is not None else []
                return [*low.stmts, *hoisted, at(clause.span, loop)]  # type: ignore[list-item]
            case ir.ForWhen(test=test) | ir.ForWhile(test=test):
                low = self.expr(test)
                stmts, cond = self.truthy(test, low)
                jump: ast.stmt = ast.Continue() if isinstance(clause, ir.ForWhen) else ast.Break()
                negated = ast.UnaryOp(ast.Not(), cond)
                return [*stmts, ast.If(negated, [jump], []), *rest]
            case ir.ForLet(bindings=bindings):
                out: list[ast.stmt] = []
                for ident, value in bindings:
                    v = self.expr(value)
                    out.extend(v.stmts)
                    out.append(assign(ident, v.expr))
                return out + rest
        raise AssertionError("unknown for clause")

    # ------------------------------------------------------------------ functions

    def fn(self, node: ir.Fn) -> Lowered:
        """Hoist `node` to module level; the expression makes (or names) the function.

        A fn met again in the same lowering context (the numeric and general versions of
        an enclosing fn's body both contain it) is hoisted once: its lowering depends only
        on what it captures, which the memo key holds. Inside such a version a fn that
        captures locals is not given numeric versions of its own, and one that captures
        nothing is hoisted once: so every node is lowered at most twice, where nested
        numeric fns once doubled the work per level.
        """
        cx = self.cx
        free_idents = scan.free_locals(node, self.free_memo) - {node.self_name}
        captured = sorted(cx.fn_locals.get(i, i) for i in free_idents if i is not None)
        captured = [c for c in captured if c not in self.module_fns]
        key = (
            id(node),  # the memo keeps `node` alive: its id is not reused while lowering
            frozenset(i for i in free_idents if i in cx.numeric),
            tuple(sorted((i, cx.fn_locals.get(i, "")) for i in free_idents if i is not None)),
            tuple(captured),
        )
        made_before = self.fn_memo.get(key)
        if made_before is not None:
            return Lowered((), copy.deepcopy(made_before[1]))
        lowered = self.fn_lowered(node, free_idents, captured)
        # rules may lower IR they made for the purpose: holding the node keeps its id
        self.fn_memo[key] = (node, lowered.expr)
        return lowered

    def fn_lowered(self, node: ir.Fn, free_idents: frozenset[str], captured: list[str]) -> Lowered:
        """`fn` for a fn not met before in this context."""
        cx = self.cx
        label = node.name or "fn"
        pyname = f"{cx.fresh('f')}_{sanitize(label)}"
        cx.fn_names[pyname] = label
        saved_may = self.may_specialise
        self.may_specialise = self.copies == 0 or not free_idents
        saved_fn_locals = dict(cx.fn_locals)
        saved_recur = cx.recur
        saved_kgetters, cx.kgetters = cx.kgetters, {}  # another Python function
        factory = rules_paths.FactoryHoist(
            frozenset(i for i in free_idents if cx.fn_locals.get(i, i) in captured)
        )
        saved_hoists, self.hoists = self.hoists, [factory]
        if node.self_name is not None:
            cx.fn_locals[node.self_name] = pyname
        try:
            defs = self.fn_defs(node, pyname)
        finally:
            cx.fn_locals = saved_fn_locals
            cx.recur = saved_recur
            cx.kgetters = saved_kgetters
            self.hoists = saved_hoists
            self.may_specialise = saved_may
        if node.contract is not None:
            made = self.fn_value(node, pyname, defs, captured, factory.stmts)
            contract = load(cx.const("contract", node.contract))
            return Lowered((), helper("signed", contract, made, ast.Constant(label)))
        return Lowered((), self.fn_value(node, pyname, defs, captured, factory.stmts))

    def fn_value(
        self,
        node: ir.Fn,
        pyname: str,
        defs: list[ast.stmt],
        captured: list[str],
        reads: list[ast.stmt],
    ) -> ast.expr:
        """Hoist the defs; the expression naming (or, via a factory, making) the fn. The
        factory first makes `reads`, the reads of captured locals moved out of the body
        (`FactoryHoist`)."""
        cx = self.cx
        if not captured:
            self.module_fns.add(pyname)
            cx.hoisted.extend(defs)
            return load(pyname)
        mk = cx.fresh("mk")
        factory = ast.FunctionDef(
            name=mk,
            args=arguments([ast.arg(arg=c) for c in captured]),
            body=[*reads, *defs, ast.Return(value=load(pyname))],
            decorator_list=[],
            returns=None,
        )
        cx.hoisted.append(at(node.span, factory))  # type: ignore[arg-type]
        return call(load(mk), [load(c) for c in captured])

    def fn_defs(self, node: ir.Fn, pyname: str) -> list[ast.stmt]:
        """The `def`s of all arities, then the multi-arity dispatcher if there are several."""
        if len(node.arities) == 1:
            return [self.arity_def(node.arities[0], pyname)]
        defs: list[ast.stmt] = []
        names: list[ast.expr] = []
        for arity in node.arities:
            suffix = f"{len(arity.params)}{'v' if arity.rest else ''}"
            name = f"{pyname}_a{suffix}"
            self.cx.fn_names[name] = self.cx.fn_names[pyname]
            defs.append(self.arity_def(arity, name))
            names.append(load(name))
        label = ast.Constant(self.cx.fn_names[pyname])
        defs.append(assign(pyname, helper("multi_arity", label, *names)))
        return defs

    def arity_def(self, arity: ir.FnArity, pyname: str) -> ast.stmt:
        params = [ast.arg(arg=p) for p in arity.params]
        vararg = ast.arg(arg=arity.rest) if arity.rest is not None else None
        body: list[ast.stmt] = [fuel_globals()]
        if not self.recurs(arity):
            # A recurring arity's body is a fuel-driven loop: its first pull is the entry step.
            body.extend(fuel_check())
        if arity.rest is not None:
            body.append(assign(arity.rest, helper("rest_args", load(arity.rest))))
        specialised = self.numeric_params(arity) if self.may_specialise else frozenset()
        if specialised:
            # Two versions of the body: one where the guarded parameters are known
            # numbers (arithmetic on them compiles to Python operators), one general.
            checks: list[ast.expr] = [number_test(p) for p in sorted(specialised)]
            guard = checks[0] if len(checks) == 1 else ast.BoolOp(op=ast.And(), values=checks)
            added: list[str] = []
            self.copies += 1  # inside either version (see `fn`)
            try:
                self.know_numeric(specialised, added)
                fast = self.arity_body(arity)
                self.forget_numeric(added)
                general = self.arity_body(arity)
            finally:
                self.forget_numeric(added)
                self.copies -= 1
            body.append(ast.If(test=guard, body=fast, orelse=general))
        else:
            body.extend(self.arity_body(arity))
        fdef = ast.FunctionDef(
            name=pyname,
            args=arguments(params, vararg),
            body=body,
            decorator_list=[],
            returns=None,
        )
        return at(arity.span, fdef)  # type: ignore[return-value]

    def arity_body(self, arity: ir.FnArity) -> list[ast.stmt]:
        """The statements of one arity's body (a `while` loop when it `recur`s)."""
        if self.recurs(arity):
            idents = (*arity.params, *((arity.rest,) if arity.rest else ()))
            self.cx.recur = LoopTarget(idents)
            loop_body = self.tail(arity.body, return_sink)
            # The call's entry step is the first pass: no credit.
            return fuel_loop(loop_body, breaks=False, entry_free=False)
        self.cx.recur = None
        params = arity.params

        def body(i: int) -> list[ast.stmt]:
            # each parameter (never rebound: no `recur` here) may get a keyword getter
            if i == len(params):
                return self.tail(arity.body, return_sink)
            return rules_paths.keyword_getter(self, params[i], lambda: body(i + 1))

        return body(0)

    def recurs(self, arity: ir.FnArity) -> bool:
        """Whether a `recur` jumps to `arity` (its body then lowers to a `while` loop)."""
        key = id(arity)  # arities live as long as the program being lowered
        hit = self.recurring.get(key)
        if hit is None:
            hit = self.recurring[key] = scan.owns_recur(arity.body)
        return hit

    def numeric_params(self, arity: ir.FnArity) -> frozenset[str]:
        """Parameters worth a numeric fast path: used in arithmetic, and still numbers
        after every `recur` once checked at entry."""
        cands = scan.numeric_operands(arity.body) & set(arity.params)
        if not cands or not self.recurs(arity):
            return frozenset(cands)
        idents = [*arity.params, *((arity.rest,) if arity.rest else ())]
        return scan.numeric_fixpoint(idents, cands, arity.body, self.cx.numeric)

    def program(self, body: ir.Node) -> ast.FunctionDef:
        self.cx.recur = None
        stmts = [fuel_globals(), *self.tail(body, return_sink)]
        return ast.FunctionDef(
            name="program",
            args=arguments([]),
            body=stmts,
            decorator_list=[],
            returns=None,
        )


# ---------------------------------------------------------------------- expression kinds
# `Emitter.expr` dispatches on the node's class through `_EXPR_KINDS`.


def _local(e: Emitter, n: ir.Local) -> Lowered:
    return Lowered((), load(e.cx.fn_locals.get(n.ident, n.ident)))


def _const(e: Emitter, n: ir.Const) -> Lowered:
    return Lowered((), e.const(n.value))


def _regex(e: Emitter, n: ir.RegexLit) -> Lowered:
    return Lowered((), load(e.cx.const("regex", n.source)))


def _user_ref(e: Emitter, n: ir.UserRef) -> Lowered:
    if n.lenient:
        return Lowered((), helper("uget_lenient", ast.Constant(n.name)))
    return Lowered((), user_var(VALUE_PREFIX, n.name))


def _builtin_ref(e: Emitter, n: ir.BuiltinRef) -> Lowered:
    return Lowered((), load(e.builtins[n.name].py_name))


def _data_ref(e: Emitter, n: ir.DataRef) -> Lowered:
    return Lowered((), helper("data", ast.Constant(n.key)))


def _tool_ref(e: Emitter, n: ir.ToolRef) -> Lowered:
    return Lowered((), helper("toolfn", ast.Constant(n.name)))


def _sibling_ref(e: Emitter, n: ir.SiblingRef) -> Lowered:
    return Lowered((), subscript(PNS, n.name))


def _export_ref(e: Emitter, n: ir.ExportRef) -> Lowered:
    return Lowered((), e.export_ref(n.ref))


def _history_ref(e: Emitter, n: ir.HistoryRef) -> Lowered:
    return Lowered((), helper("history", ast.Constant(n.n)))


def _vector(e: Emitter, n: ir.VectorLit) -> Lowered:
    stmts, exprs = e.many(n.items)
    return Lowered(stmts, ast.List(exprs, LOAD))


def _set(e: Emitter, n: ir.SetLit) -> Lowered:
    stmts, exprs = e.many(n.items)
    return Lowered(stmts, helper("set", *exprs))


def _do(e: Emitter, n: ir.Do) -> Lowered:
    return e.do(n.body)


def _recur(e: Emitter, n: ir.Recur) -> Lowered:
    raise AssertionError("recur outside tail position reached lowering")


def _rt_call(e: Emitter, n: ir.RtCall) -> Lowered:
    grouped = rules_sequences.filter_groups(e, n)  # a group-by of a field filter
    if grouped is not None:
        return grouped
    stmts, exprs = e.many(n.args)
    if n.helper == "charged_column":  # takes and hands back the fuel chunk: a statement
        t = e.cx.fresh()
        value = helper("charged_column", exprs[0], load(FUEL), load(CREDIT))
        stmt = ast.Assign([ast.Tuple([store(FUEL), store(t)], STORE)], value)
        return Lowered((*stmts, at(n.span, stmt)), load(t))  # type: ignore[arg-type]
    name = RT_FIXED_ARITY.get((n.helper, len(exprs)), n.helper)
    if name == "t_update_in2":
        exprs = rules_reduce.update_in2_args(n.args, exprs)
        rest1, rest2 = exprs[3], exprs[6]
        if (
            isinstance(rest1, ast.Tuple)
            and isinstance(rest2, ast.Tuple)
            and len(rest1.elts) == len(rest2.elts) == 1
        ):
            # one key left in each path: the keys themselves (`transient.t_update_in2k`)
            name = "t_update_in2k"
            exprs[3], exprs[6] = rest1.elts[0], rest2.elts[0]
    elif name in ("t_update", "t_update_in"):  # (owned, m, key or path, f, args...)
        exprs[3] = rules_reduce.fast_update_fn(n.args[3], len(exprs) - 4, exprs[3])
    return Lowered(stmts, helper(name, *exprs))


#: Runtime helpers with a variant for one argument count (no argument tuple to unpack).
RT_FIXED_ARITY: dict[tuple[str, int], str] = {("t_assoc", 4): "t_assoc1"}


def _tool_call(e: Emitter, n: ir.ToolCall) -> Lowered:
    if n.arg is None:
        return Lowered((), helper("tool", ast.Constant(n.name), NONE))
    low = e.expr(n.arg)
    return Lowered(low.stmts, helper("tool", ast.Constant(n.name), low.expr))


def _return(e: Emitter, n: ir.Return) -> Lowered:
    low = e.expr(n.value)
    return Lowered(low.stmts, helper("return_", low.expr))


def _fail(e: Emitter, n: ir.Fail) -> Lowered:
    low = e.expr(n.value)
    return Lowered(low.stmts, helper("fail", low.expr))


_EXPR_KINDS: dict[type, Callable[[Emitter, Any], Lowered]] = {
    ir.Local: _local,
    ir.Call: Emitter.call,
    ir.Const: _const,
    ir.RegexLit: _regex,
    ir.UserRef: _user_ref,
    ir.BuiltinRef: _builtin_ref,
    ir.DataRef: _data_ref,
    ir.ToolRef: _tool_ref,
    ir.SiblingRef: _sibling_ref,
    ir.ExportRef: _export_ref,
    ir.HistoryRef: _history_ref,
    ir.VectorLit: _vector,
    ir.MapLit: Emitter.map_lit,
    ir.SetLit: _set,
    ir.Do: _do,
    ir.If: Emitter.via_statements,
    ir.Loop: Emitter.via_statements,
    ir.For: Emitter.via_statements,
    ir.Let: Emitter.via_statements,
    ir.Recur: _recur,
    ir.Fn: Emitter.fn,
    ir.RtCall: _rt_call,
    ir.ToolCall: _tool_call,
    ir.Def: Emitter.def_,
    ir.And: Emitter.and_or,
    ir.Or: Emitter.and_or,
    ir.Return: _return,
    ir.Fail: _fail,
}


def simple_key(node: ir.Node) -> bool:
    """Literal keys a Python dict display stores exactly as PTC would."""
    if not isinstance(node, ir.Const):
        return False
    v = node.value
    if type(v) is float:
        return math.isfinite(v)
    return v is None or type(v) in (int, str) or isinstance(v, Keyword | SymbolRef)


def number_test(name: str) -> ast.expr:
    """`rt_type(x) is rt_int or rt_type(x) is rt_float`: `x` is a number (not a boolean).

    The guard of a fn's numeric version; ints, the common case, pass after one test
    (cheaper than a set membership test of the type).
    """
    return ast.BoolOp(
        ast.Or(),
        [
            ast.Compare(call(load("rt_type"), [load(name)]), [ast.Is()], [load("rt_int")]),
            ast.Compare(call(load("rt_type"), [load(name)]), [ast.Is()], [load("rt_float")]),
        ],
    )


def not_nil_or_false(name: str) -> ast.expr:
    return ast.BoolOp(
        ast.And(),
        [
            ast.Compare(load(name), [ast.IsNot()], [ast.Constant(None)]),
            ast.Compare(load(name), [ast.IsNot()], [ast.Constant(False)]),
        ],
    )


def nil_or_false(name: str) -> ast.expr:
    return ast.BoolOp(
        ast.Or(),
        [
            ast.Compare(load(name), [ast.Is()], [ast.Constant(None)]),
            ast.Compare(load(name), [ast.Is()], [ast.Constant(False)]),
        ],
    )


def user_var(prefix: str, name: str) -> ast.Name:
    """A user var's value (`VALUE_PREFIX`) or callable (`CALL_PREFIX`) as a plain name
    under its mangled identifier: not a module global, so CPython finds it in the run's
    table of user vars, the module's `__builtins__` (see `ptc_runtime.uservars`), which a
    `def` anywhere in the environment updates; one cached `LOAD_GLOBAL`, no subscript."""
    return ast.Name(prefix + mangle(name), LOAD)


def subscript(container: str, key: str) -> ast.expr:
    return ast.Subscript(load(container), ast.Constant(key), LOAD)


def arguments(params: list[ast.arg], vararg: ast.arg | None = None) -> ast.arguments:
    return ast.arguments(
        posonlyargs=[],
        args=params,
        vararg=vararg,
        kwonlyargs=[],
        kw_defaults=[],
        kwarg=None,
        defaults=[],
    )


_UNSAFE = re.compile(r"[^A-Za-z0-9]+")


def sanitize(name: str) -> str:
    """Identifier-safe rendering of a PTC name (uniqueness comes from the prefix)."""
    return _UNSAFE.sub("_", name).strip("_")[:40] or "fn"
