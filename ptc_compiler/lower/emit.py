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
"""

from __future__ import annotations

import ast
import math
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

from ptc_compiler import ir
from ptc_compiler.forms import Span
from ptc_compiler.lower import scan
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
    KGetter,
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
    STR_FORMAT_LITERAL,
    STR_FORMAT_PARTS,
    STR_FORMAT_UNROLLED,
)
from ptc_runtime.uservars import CALL_PREFIX, VALUE_PREFIX, mangle
from ptc_runtime.values import Keyword, SymbolRef, keyword

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


#: Constant keyword reads of a loop element that make a per-element getter worth its nodes
#: (see `Emitter.keyword_getter`).
KGETTER_READS = 3


#: The longest literal `get-in` path read by an unrolled helper (`lookup.get_path5`).
PATH_UNROLLED = 5


def path_read(m: ast.expr, keys: Sequence[ir.Node], exprs: Sequence[ast.expr]) -> ast.Call:
    """`rt_get_pathN(m, k1, n1, ..)` for one to `PATH_UNROLLED` keys (`lookup.get_path1`
    .., unrolled): each key followed by the name of a constant keyword without `-` (read
    on a dict with two probes), else None."""
    args = [m]
    for k, expr in zip(keys, exprs, strict=True):
        name = None
        if isinstance(k, ir.Const) and isinstance(k.value, Keyword) and "-" not in k.value.name:
            name = k.value.name
        args += (expr, ast.Constant(name))
    return helper(f"get_path{len(keys)}", *args)


def read_chain(node: ir.Call) -> tuple[ir.Node, list[ir.Node]] | None:
    """`(:c (:b (:a m)))` (also `(get x k)` for a constant `k`; no default anywhere) as
    `m` and its path `[:a :b :c]`, when there are two keys or more: reading them one by
    one is `(get-in m [:a :b :c])` (a missing key reads nil from there on, as get-in
    does), and the keys being constants, nothing runs between the reads. None otherwise."""
    keys: list[ir.Node] = []
    cur: ir.Node = node
    while type(cur) is ir.Call:
        fn, args = cur.fn, cur.args
        if type(fn) is ir.Const and isinstance(fn.value, Keyword) and len(args) == 1:
            keys.append(fn)
        elif (
            type(fn) is ir.BuiltinRef
            and fn.name == "get"
            and len(args) == 2
            and type(args[1]) is ir.Const
        ):
            keys.append(args[1])
        else:
            break
        cur = args[0]
    if len(keys) < 2:
        return None
    keys.reverse()
    return cur, keys


def dash_keyword(node: ir.Node) -> bool:
    """`node` is a constant keyword whose name has `-` (read by `rt_kdash`)."""
    return type(node) is ir.Const and isinstance(node.value, Keyword) and "-" in node.value.name


def const_args(nodes: Sequence[ir.Node]) -> bool:
    """True when every node is a constant (a key or default a read may be made with early)."""
    return all(type(n) is ir.Const for n in nodes)


class Hoist:
    """A loop whose body's reads of loop-invariant locals may be computed before it
    (`Emitter.hoist`): the statements to place before it, the loop's own element `own`,
    and the idents bound inside it, found by `inner` when first asked (most reads in loops
    are of the loop's own element, answered without a walk)."""

    __slots__ = ("_inner", "inner", "made", "own", "stmts")

    def __init__(self, own: str, inner: Callable[[], frozenset[str]]) -> None:
        self.own = own
        self.inner = inner
        self.stmts: list[ast.stmt] = []
        # the temporary of each read made here, by local and keys (a body lowered twice,
        # as a fn's numeric and general versions are, reads once)
        self.made: dict[tuple[object, ...], str] = {}
        self._inner: frozenset[str] | None = None

    def invariant(self, ident: str) -> bool:
        """True when no part of the loop binds `ident` (its value is the same throughout)."""
        if ident == self.own:
            return False
        if self._inner is None:
            self._inner = self.inner()
        return ident not in self._inner


class FactoryHoist(Hoist):
    """The factory `mkN(captured...)` making a closure: reads of the locals it captures
    (by value, when the closure is made) may be computed there, once per closure instead
    of once per call."""

    __slots__ = ("captured",)

    def __init__(self, captured: frozenset[str]) -> None:
        super().__init__("", lambda: frozenset())
        self.captured = captured

    def invariant(self, ident: str) -> bool:
        return ident in self.captured


def bound_inside(node: ir.For, start: int) -> frozenset[str]:
    """The idents bound by the `for` clause `start` of `node`, the clauses after it and
    the body, at any depth (nested lets, loops, fns, fors)."""
    first = node.clauses[start]
    bound: set[str] = {first.ident}  # type: ignore[union-attr]
    stack: list[ir.Node] = [node.body]
    for c in node.clauses[start + 1 :]:
        if isinstance(c, ir.ForBind):
            bound.add(c.ident)
            stack.append(c.coll)
        elif isinstance(c, ir.ForLet):
            bound.update(i for i, _ in c.bindings)
            stack.extend(v for _, v in c.bindings)
        else:
            stack.append(c.test)
    return bound_below(bound, stack)


def bound_below(bound: set[str], stack: list[ir.Node]) -> frozenset[str]:
    """`bound` and the idents bound anywhere in the nodes of `stack` (which it empties)."""
    while stack:
        n = stack.pop()
        bound.update(scan.bound_here(n))
        stack.extend(scan.children(n))
    return frozenset(bound)


def collect_item(acc: str, item: ast.expr) -> ast.stmt:
    """`rt_append(acc, item)`: one element collected by a `for`/`map`/`mapv` loop into its
    list. `rt_append` is `list.append`, a C method descriptor (about 20 ns per element
    against 45 for `acc += [item]`, which builds a one-item list to extend by), in as many
    AST nodes; the accumulator is always the list the loop made, and appending cannot fail.
    """
    return ast.Expr(helper("append", ast.Name(acc, LOAD), item))


class Emitter:
    """Lowers the nodes of one program; `builtins` names each builtin's global."""

    def __init__(self, builtins: Mapping[str, BuiltinSpec], cx: Ctx) -> None:
        self.builtins = builtins
        self.cx = cx
        self.module_fns: set[str] = set()  # python names of fns defined at module level
        self.free_memo: dict[int, frozenset[str]] = {}
        self.hoists: list[Hoist] = []  # the enclosing `for` loops of this Python function
        self.recurring: dict[int, bool] = {}  # id(FnArity) -> its body recurs to it

    # ------------------------------------------------------------------ expressions

    def expr(self, node: ir.Node) -> Lowered:
        """Lower `node` for its value."""
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
            fast = self.if_expr(node)
            if fast is not None:
                return fast
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
            if type(fn) is ir.BuiltinRef and fn.name in INLINE_HOF:
                loop = None if field_test(fn.name, value) else self.inline_hof(fn.name, value)
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

    def if_expr(self, node: ir.If) -> Lowered | None:
        test = self.expr(node.test)
        then = self.expr(node.then)
        else_ = self.expr(node.else_)
        if then.stmts or else_.stmts:
            return None
        cond_stmts, cond = self.truthy(node.test, test)
        return Lowered(cond_stmts, ast.IfExp(cond, then.expr, else_.expr))

    def let_expr(self, node: ir.Let) -> Lowered:
        stmts: list[ast.stmt] = []
        saved = self.cx.numeric
        try:
            for ident, value in node.bindings:
                stmts.extend(self.bind(ident, value))
                if scan.is_numeric(value, self.cx.numeric):
                    self.cx.numeric = self.cx.numeric | {ident}
            body = self.expr(node.body)
        finally:
            self.cx.numeric = saved
        return Lowered((*stmts, *body.stmts), body.expr)

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
        chain = read_chain(node)
        if chain is not None:
            # `(:c (:b (:a m)))`, `(get (get m "a") 0)`, `(-> m :a :b)`: one path read
            base, path_keys = chain
            lowered = self.expr(base)
            key_exprs = [self.expr(k).expr for k in path_keys]
            read = self.literal_path(lowered.expr, path_keys, key_exprs, base, node.span)
            return Lowered(lowered.stmts, read)
        if isinstance(fn, ir.Const) and isinstance(fn.value, Keyword) and 1 <= len(node.args) <= 2:
            if len(node.args) == 1 or type(node.args[1]) is ir.Const:
                hoisted = self.hoist(node.args[0], (fn,), node.span, *node.args[1:])
                if hoisted is not None:
                    return Lowered((), hoisted)
            stmts, exprs = self.many(node.args)
            return Lowered(stmts, self.keyword_read(fn.value, exprs[0], exprs[1:]))
        if isinstance(fn, ir.BuiltinRef) and fn.name in INLINE_HOF:
            fused = self.field_filter(fn.name, node)
            if fused is not None:
                return fused
            loop = self.inline_hof(fn.name, node)
            if loop is not None:
                return self.via_statements(loop)
        if isinstance(fn, ir.BuiltinRef) and fn.name == "reduce" and len(node.args) == 3:
            folded = self.linear_reduce(node)
            if folded is not None:
                return folded
        if isinstance(fn, ir.BuiltinRef) and fn.name == "take" and len(node.args) == 2:
            top = self.take_sorted(node.args[0], node.args[1])
            if top is not None:
                return top
        if isinstance(fn, ir.BuiltinRef) and fn.name == "update-vals" and len(node.args) == 2:
            counts = group_counts(node.args[0], node.args[1])
            if counts is not None:  # a statement at the group-by: its errors' position
                by_key, t = self.expr(counts), self.cx.fresh()
                stmt = at(counts.span, assign(t, by_key.expr))
                return Lowered((*by_key.stmts, stmt), load(t))  # type: ignore[arg-type]
        if isinstance(fn, ir.BuiltinRef) and fn.name == "frequencies" and len(node.args) == 1:
            counted = self.frequencies_of_mapcat(node.args[0])
            if counted is not None:
                return counted
        if isinstance(fn, ir.BuiltinRef):
            if fn.name == "get" and 2 <= len(node.args) <= 3 and const_args(node.args[1:]):
                hoisted = self.hoist(node.args[0], node.args[1:2], node.span, *node.args[2:])
                if hoisted is not None:
                    return Lowered((), hoisted)
            if fn.name == "get-in" and len(node.args) == 3 and const_args(node.args[2:]):
                keys = node.args[1]
                if isinstance(keys, ir.VectorLit) and 2 <= len(keys.items) <= PATH_UNROLLED:
                    if const_args(keys.items):
                        hoisted = self.hoist(node.args[0], keys.items, node.span, node.args[2])
                        if hoisted is not None:
                            return Lowered((), hoisted)
            stmts, exprs = self.many(node.args)
            if fn.name == "get" and 2 <= len(exprs) <= 3:
                key = node.args[1]
                if isinstance(key, ir.Const) and isinstance(key.value, Keyword):
                    return Lowered(stmts, self.keyword_read(key.value, exprs[0], exprs[2:]))
                if len(exprs) == 2:  # any other key: one level of a path, one frame
                    return Lowered(stmts, path_read(exprs[0], node.args[1:], exprs[1:]))
            if fn.name == "get-in" and len(exprs) == 2:
                path = exprs[1]
                keys = node.args[1]
                if isinstance(keys, ir.VectorLit) and isinstance(path, ast.List):
                    low = self.literal_path(
                        exprs[0], keys.items, path.elts, node.args[0], node.span
                    )
                    return Lowered(stmts, low)
            if fn.name == "get-in" and len(exprs) == 3:
                path, keys = exprs[1], node.args[1]
                if (
                    isinstance(keys, ir.VectorLit)
                    and isinstance(path, ast.List)
                    and 2 <= len(keys.items) <= PATH_UNROLLED
                ):
                    # `lookup.get_path_or2` ..: levels that stop at a missing key with the
                    # default, passed last: evaluated after the keys, as the builtin's argument
                    read = path_read(exprs[0], keys.items, path.elts)
                    read.func = load(f"rt_get_path_or{len(keys.items)}")
                    read.args.append(exprs[2])
                    return Lowered(stmts, read)
            inline = self.inline(fn.name, node.args, exprs)
            if inline is not None:
                return Lowered(stmts, inline)
            if fn.name == "str":
                formatted = str_format(node.args, exprs)
                if formatted is not None:
                    return Lowered(stmts, formatted)
            fast = FAST_CALLS.get(fn.name)
            if fast is not None and fast[0] == len(exprs):
                if self.cx.numeric and fn.name in ARITH:
                    return Lowered(stmts, self.same_type_arith(ARITH[fn.name], fast[1], exprs))
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

    def keyword_read(self, k: Keyword, m: ast.expr, default: list[ast.expr]) -> ast.expr:
        """`(:k m default?)` / `(get m :k default?)`: the flexible read of a constant keyword.

        A name without `-` has only two spellings a dict can hold (decision 5), so
        `rt_kfield` gets the name as a constant and reads a dict with two C-level probes;
        other names take `rt_kdash`, given the `_` spellings too (up to four probes).
        """
        kw = self.const(k)
        if "-" in k.name:
            # the four spellings a flexible read tries, probed in its order (`rt.kfield_dash`)
            alt = k.name.replace("-", "_")
            spellings = (ast.Constant(k.name), self.const(keyword(alt)), ast.Constant(alt))
            return helper("kdash", m, kw, *spellings, *default)
        getter = self.cx.kgetters.get(m.id) if type(m) is ast.Name else None
        if getter is not None:
            # `t(x, k, t(x, 'name', default))`: `rt_dget` makes this `kfield`'s two probes
            # in C, `rt_kother` skips the inner read and reads flexibly (`rt.kfield_other`)
            # the getter's name is given when it is made (`keyword_getter`)
            inner = call(load(""), [load(m.id), ast.Constant(k.name), *default])  # type: ignore[attr-defined]
            read = call(load(""), [m, kw, inner])
            getter.reads.append((read, m, kw, k.name, default))
            return read
        return helper("kfield", m, kw, ast.Constant(k.name), *default)

    def literal_path(
        self,
        m: ast.expr,
        keys: Sequence[ir.Node],
        exprs: list[ast.expr],
        base: ir.Node,
        span: Span,
    ) -> ast.expr:
        """`(get-in base [k ...])` (`m` is `base` lowered) with a literal path: its keys as
        arguments, no vector. In a loop where `base` is invariant, the constant keys it
        starts with (up to `PATH_UNROLLED`) are read once before the loop (`hoist`), the
        rest from there. Then one constant keyword is the keyword read `(:k m)`; up to
        `PATH_UNROLLED` keys call `path_read`; more take `rt_get_path` (a loop).
        """
        lead = 0
        while lead < min(len(keys), PATH_UNROLLED) and type(keys[lead]) is ir.Const:
            lead += 1
        if lead:
            hoisted = self.hoist(base, keys[:lead], span)
            if hoisted is not None:
                if lead == len(keys):
                    return hoisted
                m, keys, exprs = hoisted, keys[lead:], exprs[lead:]
        if len(keys) > 1 and any(map(dash_keyword, keys)):
            # a keyword with `-` has four spellings: read by itself (`rt_kdash`), the keys
            # between such keywords as paths (level by level, a path read is these reads)
            start = 0
            for i, k in enumerate(keys):
                if isinstance(k, ir.Const) and isinstance(k.value, Keyword) and dash_keyword(k):
                    if i > start:
                        m = self.plain_path(m, keys[start:i], exprs[start:i])
                    m = self.keyword_read(k.value, m, [])
                    start = i + 1
            keys, exprs = keys[start:], exprs[start:]
            if not keys:
                return m
        return self.plain_path(m, keys, exprs)

    def plain_path(self, m: ast.expr, keys: Sequence[ir.Node], exprs: list[ast.expr]) -> ast.expr:
        """The read of path `keys` out of `m`: one constant keyword is the keyword read
        `(:k m)`; up to `PATH_UNROLLED` keys call `path_read`; more (or none) take
        `rt_get_path` (`lookup.get_path`, a loop)."""
        if len(keys) == 1:
            k = keys[0]
            if isinstance(k, ir.Const) and isinstance(k.value, Keyword):
                return self.keyword_read(k.value, m, [])
        if not keys or len(keys) > PATH_UNROLLED:
            return helper("get_path", m, *exprs)
        return path_read(m, keys, exprs)

    def hoist(
        self, base: ir.Node, keys: Sequence[ir.Node], span: Span, default: ir.Node | None = None
    ) -> ast.expr | None:
        """In the body of a loop (a `for`, the loops `map`/`filter`/... with a literal fn
        and a linear `reduce` become), the read of the constant `keys` (a path, at most
        `PATH_UNROLLED`) out of a local `base` bound outside the loop, computed once before
        it (with a constant `default`: `(get base k d)`, `(:k base d)`, `rt_get_path_orN`):
        `tN = rt_get_pathN(base, k, name, ...)` placed before the outermost enclosing
        loop of this Python function that does not bind `base` or, when `base` is captured
        by the closure this function is, in the closure's factory (`FactoryHoist`); the
        temporary it names. None elsewhere.

        Exact: such a read has no effects and cannot fail (constant keys are hashable), the
        value of a local bound outside the loop does not change while the loop runs (the
        in-place accumulator of a linear `reduce` is written only between reads of it, on
        its update spine, never inside a loop nested in its fn), a closure captures values,
        and the read gives the same value at any time; making it when the loop runs no
        iteration (or the closure is never called) changes nothing.
        """
        hoists = self.hoists
        if not hoists or type(base) is not ir.Local:
            return None
        ident = base.ident
        if not hoists[-1].invariant(ident):
            return None
        scope = next(h for h in hoists if h.invariant(ident))
        # constants by type and value: 1, 1.0 and true are different keys
        consts = (*keys, *((default,) if default is not None else ()))
        made = (ident, len(keys), *((type(k.value), k.value) for k in consts))
        t = scope.made.get(made)
        if t is None:
            t = scope.made[made] = self.cx.fresh()
            m = self.expr(base).expr
            exprs = [self.expr(k).expr for k in keys]
            if default is None:
                value = path_read(m, keys, exprs)
            elif len(keys) == 1:  # `get`'s flexible read with a default, once
                d = self.expr(default).expr
                value = call(load(self.builtins["get"].py_name), [m, *exprs, d])
            else:
                value = path_read(m, keys, exprs)
                value.func = load(f"rt_get_path_or{len(keys)}")
                value.args.append(self.expr(default).expr)
            scope.stmts.append(at(span, assign(t, value)))  # type: ignore[arg-type]
        return load(t)

    def keyword_getter(self, ident: str, rest: Callable[[], list[ast.stmt]]) -> list[ast.stmt]:
        """The statements `rest()` lowers, in the body of a loop binding the element
        `ident` (or of a fn that does not `recur`, `ident` one of its parameters), with
        the element's constant keyword reads (names without `-`) going
        through a getter chosen once per element:
        `t = rt_dget if rt_type(ident) is rt_dict else rt_kother`. On a plain dict each
        read is then two C-level `dict.get` calls instead of an `rt_kfield` frame (~40 ns
        less). The selection costs ~10 ns and 17 AST nodes, each read 5 more nodes, so it
        is made only for `KGETTER_READS` reads or more in the loop's own Python function
        (reads in a nested `fn` do not count: that is another function); fewer are put
        back as `rt_kfield` calls. The element is never rebound in the loop body (loop
        elements are unique idents and no `recur` targets them).
        """
        cx = self.cx
        getter = KGetter()
        saved = cx.kgetters.get(ident)
        cx.kgetters[ident] = getter
        try:
            stmts = rest()
        finally:
            if saved is None:
                del cx.kgetters[ident]
            else:
                cx.kgetters[ident] = saved
        if len(getter.reads) < KGETTER_READS:
            for read, m, kw, name, default in getter.reads:
                read.func = load("rt_kfield")
                read.args = [m, kw, ast.Constant(name), *default]
            return stmts
        name = cx.fresh()
        for read, *_ in getter.reads:
            read.func.id = read.args[2].func.id = name  # type: ignore[attr-defined]
        test = ast.Compare(helper("type", load(ident)), [ast.Is()], [load("rt_dict")])
        select = ast.IfExp(test, load("rt_dget"), load("rt_kother"))
        return [assign(name, select), *stmts]

    def inline_hof(self, name: str, node: ir.Call) -> ir.For | None:
        """`(map (fn [x] body) coll)` and friends as a `for` loop: no call per element.

        Same semantics: `for` visits exactly the elements `map`/`filter` would (maps give
        entries, strings characters, nil nothing), charges one step per element like the
        fn entry did, and returns a vector. Only a plain one-parameter literal fn
        qualifies (no name, rest, contract, multi-arity or `recur` to it).
        """
        if len(node.args) != 2:
            return None
        fn, coll = node.args
        if not isinstance(fn, ir.Fn):
            return None
        if len(fn.arities) != 1 or fn.self_name is not None or fn.contract is not None:
            return None
        arity = fn.arities[0]
        if len(arity.params) != 1 or arity.rest is not None or self.recurs(arity):
            return None
        x = arity.params[0]
        if name in ("map", "mapv"):
            body, span = arity.body, coll.span  # the element's step fails at the coll
            columns = group_columns(coll, x, body)
            if columns is not None:
                coll, body = columns
            else:
                coll = group_by_field(coll, x, body)
            return ir.For((ir.ForBind(x, coll, span),), body, True, node.span)
        bind = ir.ForBind(x, coll, coll.span)
        test = arity.body
        if name == "remove":
            test = ir.Call(ir.BuiltinRef("not", test.span), (test,), test.span)
        return ir.For((bind, ir.ForWhen(test, test.span)), ir.Local(x, node.span), True, node.span)

    def field_filter(self, name: str, node: ir.Call) -> Lowered | None:
        """`(filter #(= (:k %) "lit") coll)` and its variants (see `field_test`) as one
        `rt_filter_field` call (`ptc_runtime.fieldfilter`): the same elements and steps.

        The call takes the fuel chunk and hands back the one to go on with, so it is a
        statement `FUEL, t = ...`, positioned where the loop's element step would fail
        (at the collection); the collection is evaluated before `FUEL` is read.
        """
        parts = field_test(name, node)
        if parts is None:
            return None
        k, lit, keep_equal, coll = parts
        low = self.expr(coll)
        t = self.cx.fresh()
        value = helper(
            "filter_field",
            low.expr,
            self.const(k),
            ast.Constant(k.name),
            self.const(lit),
            ast.Constant(keep_equal),
            load(FUEL),
            load(CREDIT),
        )
        stmt = ast.Assign([ast.Tuple([store(FUEL), store(t)], STORE)], value)
        return Lowered((*low.stmts, at(coll.span, stmt)), load(t))  # type: ignore[arg-type]

    def take_sorted(self, n: ir.Node, coll: ir.Node) -> Lowered | None:
        """`(take n (sort ...))`/`(take n (sort-by ...))` with a literal count n >= 1 as
        one call that finds only the first n of the order (`ordering.take_sort_by`).

        `take` cannot fail then, so errors are the sort's: the call is a statement
        stamped with the sort's position (an expression would get `take`'s).
        """
        if not (isinstance(n, ir.Const) and type(n.value) is int and n.value > 0):
            return None
        if not (isinstance(coll, ir.Call) and isinstance(coll.fn, ir.BuiltinRef)):
            return None
        fused = TAKE_SORTED.get((coll.fn.name, len(coll.args)))
        if fused is None:  # another builtin, or a wrong arity (its own error)
            return None
        stmts, exprs = self.many(coll.args)
        t = self.cx.fresh()
        value = at(coll.span, helper(fused, ast.Constant(n.value), *exprs))
        return Lowered((*stmts, at(coll.span, assign(t, value))), load(t))  # type: ignore[arg-type]

    def frequencies_of_mapcat(self, coll: ir.Node) -> Lowered | None:
        """`(frequencies (mapcat f colls...))` as one call that counts each part as `f`
        returns it (`aggregation.frequencies_mapcat`), without the concatenated vector.

        `frequencies` of a vector cannot fail, so errors are `mapcat`'s: the call is a
        statement stamped with its position (an expression would get `frequencies`').
        """
        if not (
            isinstance(coll, ir.Call)
            and isinstance(coll.fn, ir.BuiltinRef)
            and coll.fn.name == "mapcat"
            and len(coll.args) >= 2
        ):
            return None
        stmts, exprs = self.many(coll.args)
        t = self.cx.fresh()
        value = at(coll.span, helper("frequencies_mapcat", *exprs))
        return Lowered((*stmts, at(coll.span, assign(t, value))), load(t))  # type: ignore[arg-type]

    def linear_reduce(self, node: ir.Call) -> Lowered | None:
        """`(reduce (fn [acc x] ...) init coll)` as a loop updating the accumulator in place.

        Only when the accumulator provably never escapes (see `scan.linear_accumulation`):
        then every intermediate value is dropped at once, so mutating the containers the
        loop owns (`ptc_runtime.transient`) is indistinguishable from persistent updates.
        A literal `{}`/`[]` start is owned from the start; any other start value (host
        data, a map built earlier) is copied on the first write, level by level.
        """
        fn, init, coll = node.args
        if not isinstance(fn, ir.Fn) or len(fn.arities) != 1 or fn.self_name is not None:
            return None
        arity = fn.arities[0]
        if (
            len(arity.params) != 2
            or arity.rest is not None
            or fn.contract is not None
            or self.recurs(arity)
        ):
            return None
        acc, x = arity.params
        if isinstance(init, ir.MapLit) and not init.pairs:
            fields = assoc_fields(arity.body, acc, x)
            if fields is not None:
                return self.assoc_fields(node, acc, coll, *fields)
        updates = update_fields(arity.body, acc, x)
        if updates is not None:
            return self.update_fields(node, init, coll, acc, updates)
        fresh = True  # the start value is a new literal nothing else references
        if isinstance(init, ir.MapLit) and not init.pairs:
            ops = scan.MAP_ACCUMULATORS
        elif isinstance(init, ir.VectorLit) and not init.items:
            ops = scan.VECTOR_ACCUMULATORS
        else:
            ops, fresh = scan.MAP_ACCUMULATORS, False
        owned = self.cx.fresh()
        reads: list[ir.Call] = []
        body = scan.linear_accumulation(
            arity.body, acc, ops, self.free_memo, ir.Local(owned, node.span), reads
        )
        if body is None:
            return None
        if reads:  # a part read out of the accumulator may be shared from then on
            body = scan.substitute(
                body,
                {id(r): ir.RtCall("t_seen", (ir.Local(owned, r.span), r), r.span) for r in reads},
            )
        low_init = self.expr(init)
        low_coll = self.expr(coll)

        def step() -> list[ast.stmt]:
            low = self.expr(body)
            return [*low.stmts, assign(acc, low.expr)]

        entry = fuel_check()
        for s in entry:  # the fn's entry step: the budget runs out at the fn, as unfused
            at(fn.span, s)
        hoist = Hoist(x, lambda: bound_below({acc, x}, [body]))
        self.hoists.append(hoist)
        try:
            loop_body = [*entry, *self.keyword_getter(x, step)]
        finally:
            self.hoists.pop()
        loop = ast.For(
            target=store(x), iter=helper("t_items", low_coll.expr), body=loop_body, orelse=[]
        )
        stmts = (
            *low_init.stmts,
            assign(acc, low_init.expr),
            *low_coll.stmts,
            assign(owned, helper("t_begin", load(acc)) if fresh else helper("t_begin")),
            *hoist.stmts,
            at(node.span, loop),
        )
        return Lowered(stmts, load(acc))  # type: ignore[arg-type]

    def assoc_fields(
        self, node: ir.Call, acc: str, coll: ir.Node, k: Keyword, v: Keyword | None
    ) -> Lowered:
        """`(reduce (fn [m x] (assoc m (:k x) (:v x))) {} coll)` (see `assoc_fields`) as
        `FUEL, m = rt_t_assoc_fields(m, coll, :k, 'k', :v, 'v', FUEL, CREDIT)`: the loop
        in one call, the same steps (`transient.t_assoc_fields`). As unfused, a bad
        collection fails at the `reduce` (`rt_t_items`), the budget at the fn."""
        low = self.expr(coll)
        items = helper("t_items", low.expr)
        at(node.span, items)
        value = helper(
            "t_assoc_fields",
            load(acc),
            items,
            self.const(k),
            ast.Constant(k.name),
            NONE if v is None else self.const(v),
            NONE if v is None else ast.Constant(v.name),
            load(FUEL),
            load(CREDIT),
        )
        stmt = ast.Assign([ast.Tuple([store(FUEL), store(acc)], STORE)], value)
        start = assign(acc, ast.Dict([], []))
        fn = node.args[0]
        return Lowered((start, *low.stmts, at(fn.span, stmt)), load(acc))  # type: ignore[arg-type]

    def update_fields(
        self, node: ir.Call, init: ir.Node, coll: ir.Node, acc: str, updates: list[ir.Call]
    ) -> Lowered:
        """`(reduce (fn [acc x] (-> acc (update-in [:a (:k x) :n] + (:v x)) ...)) init
        coll)` (see `update_fields`) as `FUEL, acc = rt_t_update_fields(acc, coll, fields,
        names, groups, fresh, FUEL, CREDIT)`: the loop in one call, the same steps
        (`transient.t_update_fields`). As the loop, a bad collection fails at the
        `reduce` (`rt_t_items`), the budget at the fn; each update's errors are placed
        at its `update-in` by the helper (the call is stamped at the fn)."""
        fields: list[Keyword] = []

        def field(k: Keyword) -> int:
            if k not in fields:
                fields.append(k)
            return fields.index(k)

        x = cast(ir.Fn, node.args[0]).arities[0].params[1]
        groups: list[tuple[list[ast.expr], list[int], list[ast.expr]]] = []
        last_prefix: tuple[object, ...] | None = None
        for update in updates:
            path = cast(ir.VectorLit, update.args[1]).items
            keys = [_path_key(k, x) for k in path]
            prefix = tuple(keys[:-1])
            leaf = ast.Tuple(
                [
                    self.const(cast(ir.Const, path[-1]).value),
                    load(FAST_CALLS[cast(ir.BuiltinRef, update.args[2]).name][1]),
                    ast.Constant(len(update.args) - 3),
                    *self.update_fields_arg(update.args[3:], x, field),
                    ast.Constant(update.span.line),
                    ast.Constant(update.span.col),
                ],
                LOAD,
            )
            if prefix == last_prefix:
                groups[-1][2].append(leaf)
                continue
            last_prefix = prefix
            template: list[ast.expr] = []
            fidx: list[int] = []
            for k in prefix:
                if type(k) is tuple:  # a field of the element (`_path_key`)
                    template.append(NONE)
                    fidx.append(field(k[0]))
                else:
                    template.append(self.const(cast(ir.ConstValue, k)))
            groups.append((template, fidx, [leaf]))
        low_init = self.expr(init)
        low = self.expr(coll)
        items = helper("t_items", low.expr)
        at(node.span, items)
        value = helper(
            "t_update_fields",
            load(acc),
            items,
            ast.Tuple([self.const(k) for k in fields], LOAD),
            ast.Tuple([ast.Constant(k.name) for k in fields], LOAD),
            ast.Tuple(
                [
                    ast.Tuple(
                        [
                            ast.Tuple(t, LOAD),
                            ast.Tuple([ast.Constant(i) for i in f], LOAD),
                            ast.Tuple(leaves, LOAD),
                        ],
                        LOAD,
                    )
                    for t, f, leaves in groups
                ],
                LOAD,
            ),
            ast.Constant(isinstance(init, ir.MapLit) and not init.pairs),
            load(FUEL),
            load(CREDIT),
        )
        stmt = ast.Assign([ast.Tuple([store(FUEL), store(acc)], STORE)], value)
        fn = node.args[0]
        stmts = (*low_init.stmts, assign(acc, low_init.expr), *low.stmts, at(fn.span, stmt))
        return Lowered(stmts, load(acc))  # type: ignore[arg-type]

    def update_fields_arg(
        self, args: Sequence[ir.Node], x: str, field: Callable[[Keyword], int]
    ) -> list[ast.expr]:
        """An update's (field index, constant) in `rt_t_update_fields`: (-1, nil) for
        none, (-1, c) for a constant, (i, nil) for the element's field i."""
        if not args:
            return [ast.Constant(-1), NONE]
        k = _field_read(args[0], x)
        if k is not None:
            return [ast.Constant(field(k)), NONE]
        return [ast.Constant(-1), self.const(cast(ir.Const, args[0]).value)]

    def inline(self, name: str, args: Sequence[ir.Node], exprs: list[ast.expr]) -> ast.expr | None:
        """A Python operator with exactly the builtin's semantics, or None."""
        n = len(exprs)
        if name in ("=", "==", "not=") and n == 2:
            return inline_equality(name, args, exprs)
        numeric = self.cx.numeric
        if not all(scan.is_numeric(a, numeric) for a in args):
            return None
        if name in ARITH and n >= 2:
            return chain_binop(ARITH[name], exprs)
        if (name == "+" and n == 1) or (name == "*" and n == 1):
            return exprs[0]
        if name == "-" and n == 1:
            return ast.UnaryOp(ast.USub(), exprs[0])
        if name in ("inc", "dec") and n == 1:
            op: ast.operator = ast.Add() if name == "inc" else ast.Sub()
            return ast.BinOp(exprs[0], op, ast.Constant(1))
        if name in COMPARE and n >= 2:
            return ast.Compare(exprs[0], [COMPARE[name]() for _ in exprs[1:]], exprs[1:])
        if name in ("=", "==") and n >= 2:
            return ast.Compare(exprs[0], [ast.Eq() for _ in exprs[1:]], exprs[1:])
        if name in SIGN and n == 1:
            return ast.Compare(exprs[0], [SIGN[name]()], [ast.Constant(0)])
        return None

    def same_type_arith(self, op: type[ast.operator], fast: str, exprs: list[ast.expr]) -> ast.expr:
        """`(+ a b)`/`(- a b)` with operands not proven numeric, in code that does arithmetic
        on known numbers (some local is numeric): the operator inline for two ints or two
        floats.

        `t1 + t2 if rt_type(t1 := a) is rt_type(t2 := b) is rt_int or rt_type(t1) is
        rt_type(t2) is rt_float else rt_add2(t1, t2)`: the operands run once each, left to
        right, inside the test; two ints or two floats add or subtract exactly as
        `rt_add2`/`rt_sub2` would (neither overflows nor fails), and every other pair
        (mixed, huge int and float, non-numbers) goes to the helper with its semantics and
        errors. The temporaries are compiler names (`check.finalize` admits `:=` only for
        those); a trivial operand (a name, a constant) is read again instead, and beside a
        number literal only the other operand's type is tested.
        """
        literal: type | None = None  # the type of a number literal operand
        tested: list[ast.expr] = []  # the other operands, as first evaluated
        used: list[ast.expr] = []
        again: list[ast.expr] = []
        for e in exprs:
            if isinstance(e, ast.Constant):
                literal = type(e.value)
                if literal is not int and literal is not float:  # never numbers: the helper
                    return call(load(fast), exprs)
                used.append(ast.Constant(e.value))
                again.append(ast.Constant(e.value))
                continue
            name = e.id if isinstance(e, ast.Name) else self.cx.fresh()
            tested.append(e if isinstance(e, ast.Name) else ast.NamedExpr(store(name), e))
            used.append(load(name))
            again.append(load(name))
        if literal is not None:  # `rt_type(a) is rt_int` beside an int literal
            kind = load("rt_int" if literal is int else "rt_float")
            test: ast.expr = ast.Compare(call(load("rt_type"), tested), [ast.Is()], [kind])
        else:
            first, second = (call(load("rt_type"), [t]) for t in tested)
            ints = ast.Compare(first, [ast.Is(), ast.Is()], [second, load("rt_int")])
            types = [call(load("rt_type"), [load(u.id)]) for u in used]  # type: ignore[attr-defined]
            floats = ast.Compare(types[0], [ast.Is(), ast.Is()], [types[1], load("rt_float")])
            test = ast.BoolOp(ast.Or(), [ints, floats])
        return ast.IfExp(test, ast.BinOp(used[0], op(), used[1]), call(load(fast), again))

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
                saved = self.cx.numeric
                try:
                    for ident, value in bindings:
                        out.extend(self.bind(ident, value))
                        if scan.is_numeric(value, self.cx.numeric):
                            self.cx.numeric = self.cx.numeric | {ident}
                    return out + self.tail(body, sink)
                finally:
                    self.cx.numeric = saved
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
        saved_numeric, saved_recur = self.cx.numeric, self.cx.recur
        try:
            for ident, value in node.bindings:
                low = self.expr(value)
                out.extend(low.stmts)
                out.append(at(value.span, assign(ident, low.expr)))  # type: ignore[arg-type]
            self.cx.numeric = saved_numeric | scan.numeric_loop_bindings(node, saved_numeric)
            self.cx.recur = LoopTarget(tuple(i for i, _ in node.bindings))
            if sink is return_sink:
                body = self.tail(node.body, sink)
                out += self.positioned_loop(node, body, breaks=False)
                return out
            t = self.cx.fresh()
            body = self.tail(node.body, assign_sink(t, then_break=True))
            out += self.positioned_loop(node, body, breaks=True)
        finally:
            self.cx.numeric, self.cx.recur = saved_numeric, saved_recur
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
        node = for_group_columns(node)
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
            hoist = Hoist(clause.ident, lambda: bound_inside(node, i))
            self.hoists.append(hoist)
            try:
                rest = self.keyword_getter(clause.ident, lambda: self.for_clauses(node, i + 1, acc))
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
        """Hoist `node` to module level; the expression makes (or names) the function."""
        cx = self.cx
        label = node.name or "fn"
        pyname = f"{cx.fresh('f')}_{sanitize(label)}"
        cx.fn_names[pyname] = label
        free_idents = scan.free_locals(node, self.free_memo) - {node.self_name}
        captured = sorted(cx.fn_locals.get(i, i) for i in free_idents if i is not None)
        captured = [c for c in captured if c not in self.module_fns]
        saved_fn_locals = dict(cx.fn_locals)
        saved_recur = cx.recur
        saved_kgetters, cx.kgetters = cx.kgetters, {}  # another Python function
        factory = FactoryHoist(
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
        cx = self.cx
        params = [ast.arg(arg=p) for p in arity.params]
        vararg = ast.arg(arg=arity.rest) if arity.rest is not None else None
        body: list[ast.stmt] = [fuel_globals()]
        if not self.recurs(arity):
            # A recurring arity's body is a fuel-driven loop: its first pull is the entry step.
            body.extend(fuel_check())
        if arity.rest is not None:
            body.append(assign(arity.rest, helper("rest_args", load(arity.rest))))
        saved_numeric = cx.numeric
        try:
            specialised = self.numeric_params(arity)
            if specialised:
                # Two versions of the body: one where the guarded parameters are known
                # numbers (arithmetic on them compiles to Python operators), one general.
                checks: list[ast.expr] = [number_test(p) for p in sorted(specialised)]
                guard = checks[0] if len(checks) == 1 else ast.BoolOp(op=ast.And(), values=checks)
                cx.numeric = saved_numeric | specialised
                fast = self.arity_body(arity)
                cx.numeric = saved_numeric
                body.append(ast.If(test=guard, body=fast, orelse=self.arity_body(arity)))
            else:
                body.extend(self.arity_body(arity))
        finally:
            cx.numeric = saved_numeric
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
            return self.keyword_getter(params[i], lambda: body(i + 1))

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
    stmts, exprs = e.many(n.args)
    if n.helper == "charged_column":  # takes and hands back the fuel chunk: a statement
        t = e.cx.fresh()
        value = helper("charged_column", exprs[0], load(FUEL), load(CREDIT))
        stmt = ast.Assign([ast.Tuple([store(FUEL), store(t)], STORE)], value)
        return Lowered((*stmts, at(n.span, stmt)), load(t))  # type: ignore[arg-type]
    name = RT_FIXED_ARITY.get((n.helper, len(exprs)), n.helper)
    if name == "t_update_in2":
        exprs = update_in2_args(n.args, exprs)
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
        exprs[3] = fast_update_fn(n.args[3], len(exprs) - 4, exprs[3])
    return Lowered(stmts, helper(name, *exprs))


def update_in2_args(args: Sequence[ir.Node], exprs: list[ast.expr]) -> list[ast.expr]:
    """The arguments of `t_update_in2(owned, m, prefix, rest1, f1, args1, rest2, f2,
    args2)` (see `scan.fuse_update_ins`), cheaper to pass per call: the key and argument
    vectors as tuples (the helper only reads them: `()` is a constant, and the prefix
    is its memo key as it is), and the update fns as in `fast_update_fn`."""
    out = list(exprs)
    for i in (2, 3, 5, 6, 8):
        low = out[i]
        if isinstance(low, ast.List):
            out[i] = ast.Tuple(low.elts, LOAD)
    for f, extra in ((4, 5), (7, 8)):
        more = args[extra]
        if isinstance(more, ir.VectorLit):
            out[f] = fast_update_fn(args[f], len(more.items), out[f])
    return out


def assoc_fields(body: ir.Node, acc: str, x: str) -> tuple[Keyword, Keyword | None] | None:
    """(:k, :v) when `body` is `(assoc acc (:k x) (:v x))` (or `(get x :k)`), (:k, None)
    for `(assoc acc (:k x) x)`, else None; only keywords without `-`, whose flexible
    read of a dict is two probes (`rt.kfield`)."""
    if not (
        type(body) is ir.Call
        and type(body.fn) is ir.BuiltinRef
        and body.fn.name == "assoc"
        and len(body.args) == 3
    ):
        return None
    m, key, value = body.args
    if not (type(m) is ir.Local and m.ident == acc):
        return None
    k = _field_read(key, x)
    if k is None:
        return None
    if type(value) is ir.Local and value.ident == x:
        return k, None
    v = _field_read(value, x)
    return None if v is None else (k, v)


def update_fields(body: ir.Node, acc: str, x: str) -> list[ir.Call] | None:
    """The `update-in`s of `body` in the order they run when it is `(-> acc (update-in
    path f a) ...)` with every path a vector of constant string/keyword keys and field
    reads `(:k x)` (keywords without `-`: `_field_read`), its last key a constant; every
    fn a builtin with a fast helper of its arity (`fastops.FAST_CALLS`: pure, never
    calling back into the program) and its argument, if any, a constant or such a
    field read; else None. Such a body reads nothing but `x`'s fields and cannot fail
    but in its updates (`transient.t_update_fields`)."""
    out: list[ir.Call] = []
    while type(body) is ir.Call and type(body.fn) is ir.BuiltinRef and body.fn.name == "update-in":
        if len(body.args) not in (3, 4):
            return None
        m, path, f, *extra = body.args
        if type(path) is not ir.VectorLit or not path.items or type(f) is not ir.BuiltinRef:
            return None
        fast = FAST_CALLS.get(f.name)
        if fast is None or fast[0] != 1 + len(extra):
            return None
        if any(_path_key(k, x) is None for k in path.items) or type(path.items[-1]) is not ir.Const:
            return None
        if extra and type(extra[0]) is not ir.Const and _field_read(extra[0], x) is None:
            return None
        out.append(body)
        body = m
    if not out or not (type(body) is ir.Local and body.ident == acc):
        return None
    out.reverse()
    return out


def _path_key(node: ir.Node, x: str) -> object:
    """A key of an `update_fields` path: a constant string or keyword as it is, `(:k x)`
    as the tuple `(:k,)`, anything else None."""
    if type(node) is ir.Const:
        return node.value if type(node.value) in (str, Keyword) else None
    k = _field_read(node, x)
    return None if k is None else (k,)


def fast_update_fn(fn: ir.Node, extra: int, low: ast.expr) -> ast.expr:
    """The update fn of an in-place `update`/`update-in` called with `extra` arguments
    after the old value: `+`/`inc`/... as its fixed-arity fast helper when that takes
    exactly 1 + `extra` arguments (`rt_add2(old, x)` is `(+ old x)`, errors included;
    the helpers only ever call the fn), else `low` as it is."""
    if isinstance(fn, ir.BuiltinRef):
        fast = FAST_CALLS.get(fn.name)
        if fast is not None and fast[0] == 1 + extra:
            return load(fast[1])
    return low


#: `(take n (<sort> args...))` by the sort's name and argument count: the helper that
#: finds only the first n (see `Emitter.take_sorted`).
TAKE_SORTED: dict[tuple[str, int], str] = {
    ("sort", 1): "take_sort",
    ("sort", 2): "take_sort",
    ("sort-by", 2): "take_sort_by",
    ("sort-by", 3): "take_sort_by",
}

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


#: Higher-order builtins whose literal one-parameter fn argument compiles to a loop.
INLINE_HOF = frozenset({"map", "mapv", "filter", "filterv", "remove"})
# `*` is not inlined even on numbers: an integer product is size-checked first
# (squaring in a loop would otherwise reach gigabyte integers); it goes to `rt_mul2`.
ARITH: dict[str, type[ast.operator]] = {"+": ast.Add, "-": ast.Sub}
COMPARE: dict[str, type[ast.cmpop]] = {"<": ast.Lt, ">": ast.Gt, "<=": ast.LtE, ">=": ast.GtE}
SIGN: dict[str, type[ast.cmpop]] = {"zero?": ast.Eq, "pos?": ast.Gt, "neg?": ast.Lt}


def chain_binop(op: type[ast.operator], exprs: list[ast.expr]) -> ast.expr:
    out = exprs[0]
    for e in exprs[1:]:
        out = ast.BinOp(out, op(), e)
    return out


def group_by_field(coll: ir.Node, param: str, body: ir.Node) -> ir.Node:
    """`(group-by kf xs)` as `rt_group_by_field(kf, xs, :f)` when it is the collection of
    `(map (fn [[k vs]] ... (map :f vs) ...) ...)`: the groups and their columns of `:f` in
    one pass (`builtins.grouped.group_by_field`, the same result and errors); else `coll`.
    """
    if not (
        type(coll) is ir.Call
        and type(coll.fn) is ir.BuiltinRef
        and coll.fn.name == "group-by"
        and len(coll.args) == 2
        and type(body) is ir.Let
    ):
        return coll
    vec = group = None
    for ident, value in body.bindings:  # the destructuring of [k vs]
        if type(value) is not ir.RtCall or not value.args or type(value.args[0]) is not ir.Local:
            continue
        of = value.args[0].ident
        if value.helper == "ds_check_vec" and of == param:
            vec = ident
        elif value.helper == "ds_nth" and of == vec and value.args[1:] == (ir.Const(1),):
            group = ident
    if group is None:
        return coll
    stack: list[ir.Node] = [body]
    while stack:  # the first (map :f vs) / (mapv :f vs) of the group
        node = stack.pop()
        if (
            type(node) is ir.Call
            and type(node.fn) is ir.BuiltinRef
            and node.fn.name in ("map", "mapv")
            and len(node.args) == 2
            and type(node.args[0]) is ir.Const
            and type(node.args[0].value) is Keyword
            and type(node.args[1]) is ir.Local
            and node.args[1].ident == group
        ):
            return ir.RtCall("group_by_field", (*coll.args, node.args[0]), coll.span)
        stack.extend(reversed(scan.children(node)))
    return coll


def group_columns(coll: ir.Node, param: str, body: ir.Node) -> tuple[ir.Node, ir.Node] | None:
    """The collection and body of `(map (fn [[k vs]] body) (group-by kf xs))` (or of
    `(map (fn [vs] body) (vals (group-by kf xs)))`) when `group_uses` finds the rule for
    them; else None."""
    bindings = body.bindings if type(body) is ir.Let else ()
    found = group_uses(coll, param, bindings, body)
    if found is None:
        return None
    return found[0], scan.substitute(body, found[1])


def for_group_columns(node: ir.For) -> ir.For:
    """`(for [[k vs] (group-by kf xs) ...] body)` or `(for [vs (vals (group-by kf xs))
    ...] body)` (also `doseq`, later clauses but no other binding) with `group_uses`'s
    rule when it finds it; else `node`."""
    clauses = node.clauses
    if not (
        clauses
        and type(clauses[0]) is ir.ForBind
        and (_is_group_by(clauses[0].coll) or _is_vals(clauses[0].coll))
        and not any(type(c) is ir.ForBind for c in clauses[1:])
    ):
        return node
    bind = clauses[0]
    destructure = clauses[1] if len(clauses) > 1 else None
    bindings = destructure.bindings if type(destructure) is ir.ForLet else ()
    read: list[ir.Node] = []  # what is evaluated once per group
    for c in clauses[1:]:
        if type(c) is ir.ForLet:
            read.extend(value for _, value in c.bindings)
        elif type(c) is ir.ForWhen or type(c) is ir.ForWhile:
            read.append(c.test)
    read.append(node.body)
    found = group_uses(bind.coll, bind.ident, bindings, ir.Do(tuple(read), node.span))
    if found is None:
        return node
    columns, subs = found
    subs[id(bind.coll)] = columns
    return scan.substitute(node, subs)  # type: ignore[no-any-return]


def group_uses(
    coll: ir.Node, param: str, bindings: tuple[tuple[str, ir.Node], ...], body: ir.Node
) -> tuple[ir.Node, dict[int, ir.Node]] | None:
    """`(map (fn [[k vs]] body) (group-by kf xs))` whose `body` reads the group `vs` only
    as `(count vs)` and as plucks `(map :f vs)` (or `mapv`), each field plucked once and at
    most once per group (not inside a nested `fn`, `loop` or `for`): the groups are never
    built. The collection becomes `rt_group_columns(kf, xs, :f ...)` (`builtins.grouped`),
    whose entries hold in place of each group its column of the one field, a tuple of
    its columns of several fields, or, with no field, its count. Each pluck becomes its
    column (a fresh vector, handed out once), `(count vs)` the count or the length of a
    column (as long as the group), and `(reduce + (map :f vs))` `rt_sum_column` of the
    column (the same fold, errors and position), `(sum-by :f vs)`/`(avg-by :f vs)`
    `rt_sum_by_column`/`rt_avg_by_column` of it, `(:f (first vs))` its first value. A
    pluck by a literal fn (`_field_fn`) takes the loop's steps with the column
    (`rt_charged_column`). The entry and the destructured vector
    are read only by the destructuring of `k` and `vs`, so nothing else sees what stands
    in for a group. None when any of it fails.

    `bindings` are the destructuring's (`[k vs]` of the entry `param`), `body` everything
    evaluated once per entry (the bindings included). Over `(vals (group-by kf xs))`
    `param` is the group itself (`(map (fn [vs] ...) (vals ...))`): `rt_group_vals` gives
    the stand-ins alone (a vector where `vals` gives nil for no group: only iterated). The
    answer is the new collection and the replacements (by node id) to make in `body`.
    """
    entries = not _is_vals(coll)
    if not entries:
        assert type(coll) is ir.Call
        coll = coll.args[0]
    if not _is_group_by(coll):
        return None
    assert type(coll) is ir.Call
    vec_read = group_read = None  # the destructuring's `(check-vec entry)`, `(nth vec 1)`
    vec = group = None
    for ident, value in bindings if entries else ():
        if type(value) is not ir.RtCall or not value.args or type(value.args[0]) is not ir.Local:
            continue
        of = value.args[0].ident
        if value.helper == "ds_check_vec" and of == param and vec is None:
            vec, vec_read = ident, value
        elif value.helper == "ds_nth" and of == vec and value.args[1:] == (ir.Const(1),):
            group, group_read = ident, value
            break
    if not entries:
        group = param
    elif group is None or vec is None:
        return None
    # :f -> the node its column replaces, the key, the helper applied to the column, the read
    fields: dict[ir.ConstValue, tuple[ir.Node, ir.Const, str | None, ir.Call]] = {}
    counted: list[ir.Call] = []  # each `(count vs)`
    stack: list[tuple[ir.Node, bool]] = [(body, False)]  # (node, evaluated repeatedly)
    while stack:
        node, repeated = stack.pop()
        if type(node) is ir.Local:
            if node.ident in (param, vec, group):
                return None  # any other read of the entry, the vector or the group
            continue
        if type(node) is ir.RtCall:
            if node is vec_read or node is group_read:
                continue
            if vec is not None and _reads_entry(node, vec):
                continue
        elif type(node) is ir.Call and type(node.fn) is ir.BuiltinRef:
            name, args = node.fn.name, node.args
            if name == "count" and len(args) == 1 and _is_local(args[0], group):
                counted.append(node)
                continue
            use: tuple[ir.Const, str | None, ir.Call] | None = None  # key, fold, the read
            if name == "reduce" and len(args) == 2 and args[0] == ir.BuiltinRef("+"):
                inner = args[1]
                if type(inner) is ir.Call and type(inner.fn) is ir.BuiltinRef:
                    if inner.fn.name in ("map", "mapv"):
                        key = _group_field(inner, group)
                        use = None if key is None else (key, "sum_column", inner)
            elif name in GROUP_FIELD_READS:
                key = _group_field(node, group)
                use = None if key is None else (key, GROUP_FIELD_READS[name], node)
            elif name == "get":
                key = _first_field(node, group)
                use = None if key is None else (key, "first_of", node)
            if use is not None:
                if use[0].value in fields or repeated:
                    return None
                fields[use[0].value] = (node, *use)
                continue
        elif type(node) is ir.Call:
            key = _first_field(node, group)
            if key is not None:
                if key.value in fields or repeated:
                    return None
                fields[key.value] = (node, key, "first_of", node)
                continue
        repeated = repeated or type(node) in (ir.Fn, ir.Loop, ir.For)
        stack.extend((child, repeated) for child in scan.children(node))
    subs: dict[int, ir.Node] = {}
    for i, (node, _, fold, read) in enumerate(fields.values()):
        column = _column(ir.Local(group, node.span), i, len(fields))
        if type(read.args[0]) is ir.Fn:  # the loop's steps, where it would take them
            column = ir.RtCall("charged_column", (column,), read.args[1].span)
        subs[id(node)] = column if fold is None else ir.RtCall(fold, (column,), node.span)
    for count in counted:
        if len(fields) > 1:  # the length of the first column
            subs[id(count.args[0])] = _column(ir.Local(group, count.args[0].span), 0, 2)
        elif not fields:  # the count itself
            subs[id(count)] = ir.Local(group, count.span)
    plucked = tuple(key for _, key, _, _ in fields.values())
    stand_ins = "group_columns" if entries else "group_vals"
    return ir.RtCall(stand_ins, (*coll.args, *plucked), coll.span), subs


#: Builtins `(f :k group)` that read only the group's values of `:k`: the column itself for
#: a pluck, else the runtime helper doing `f`'s work on the column (`builtins.grouped`).
GROUP_FIELD_READS: dict[str, str | None] = {
    "map": None,
    "mapv": None,
    "sum-by": "sum_by_column",
    "avg-by": "avg_by_column",
}


def _group_field(node: ir.Call, group: str) -> ir.Const | None:
    """The literal keyword `:k` of `(f :k group)`, or the key of `(map (fn [x] (:k x))
    group)` (`_field_fn`; also `mapv`), else None."""
    args = node.args
    if len(args) != 2 or not _is_local(args[1], group):
        return None
    f = args[0]
    if type(f) is ir.Const and type(f.value) is Keyword:
        return f
    if type(f) is ir.Fn and node.fn in (ir.BuiltinRef("map"), ir.BuiltinRef("mapv")):
        return _field_fn(f)
    return None


def _first_field(node: ir.Call, group: str) -> ir.Const | None:
    """The literal key `k` (a keyword or string) of `(:k (first group))` or
    `(get (first group) k)` (a group is never empty: its first item's field is the first
    of its column), else None."""
    args = node.args
    if type(node.fn) is ir.Const and type(node.fn.value) is Keyword and len(args) == 1:
        key, of = node.fn, args[0]
    elif node.fn == ir.BuiltinRef("get") and len(args) == 2 and type(args[1]) is ir.Const:
        key, of = args[1], args[0]
        if type(key.value) is not Keyword and type(key.value) is not str:
            return None
    else:
        return None
    if type(of) is ir.Call and of.fn == ir.BuiltinRef("first") and len(of.args) == 1:
        return key if _is_local(of.args[0], group) else None
    return None


def _field_fn(fn: ir.Fn) -> ir.Const | None:
    """The literal key `k` (a keyword or string) of `(fn [x] (:k x))` or
    `(fn [x] (get x k))`, a plain literal fn that `map` runs as a loop (`inline_hof`: a
    step per element, then a flexible read of the element, which a pluck gives);
    else None."""
    if len(fn.arities) != 1 or fn.self_name is not None or fn.contract is not None:
        return None
    arity = fn.arities[0]
    body = arity.body
    if len(arity.params) != 1 or arity.rest is not None or type(body) is not ir.Call:
        return None
    x, args = arity.params[0], body.args
    if type(body.fn) is ir.Const and type(body.fn.value) is Keyword:
        return body.fn if len(args) == 1 and _is_local(args[0], x) else None
    if body.fn == ir.BuiltinRef("get") and len(args) == 2 and _is_local(args[0], x):
        key = args[1]
        if type(key) is ir.Const and type(key.value) in (Keyword, str):
            return key
    return None


def group_counts(coll: ir.Node, f: ir.Node) -> ir.Node | None:
    """`(update-vals (group-by kf xs) count)` as `rt_group_counts(kf, xs)`: the same map,
    its groups counted, never built (`builtins.grouped`). `update-vals` and `count` cannot
    fail on it, so errors are the group-by's, at its position (the call's); else None."""
    if type(coll) is ir.Call and _is_group_by(coll) and f == ir.BuiltinRef("count"):
        return ir.RtCall("group_counts", coll.args, coll.span)
    return None


def _is_vals(coll: ir.Node) -> bool:
    """`coll` is `(vals (group-by kf xs))`."""
    return (
        type(coll) is ir.Call
        and coll.fn == ir.BuiltinRef("vals")
        and len(coll.args) == 1
        and _is_group_by(coll.args[0])
    )


def _is_group_by(coll: ir.Node) -> bool:
    return (
        type(coll) is ir.Call
        and type(coll.fn) is ir.BuiltinRef
        and coll.fn.name == "group-by"
        and len(coll.args) == 2
    )


def _column(group: ir.Local, i: int, n: int) -> ir.Node:
    """The column of field `i` of the `n` plucked, from the stand-in `group` of a
    `group_columns` entry: the column itself for one field, else `rt_column(group, i)`."""
    if n == 1:
        return group
    return ir.RtCall("column", (group, ir.Const(i, group.span)), group.span)


def _reads_entry(node: ir.RtCall, vec: str) -> bool:
    """`node` is the destructuring's read of position 0 (the key) or 2 and on (nil, past
    the entry's two) of `vec`."""
    args = node.args
    return (
        node.helper == "ds_nth"
        and len(args) == 2
        and _is_local(args[0], vec)
        and type(args[1]) is ir.Const
        and args[1].value != 1
    )


def _is_local(node: ir.Node, ident: str) -> bool:
    return type(node) is ir.Local and node.ident == ident


def field_test(name: str, node: ir.Call) -> tuple[Keyword, ir.ConstValue, bool, ir.Node] | None:
    """`(filter (fn [x] (= (:k x) lit)) coll)` (also `filterv`, `remove`, `not=`, the
    literal first, `(get x :k)`): the keyword, the literal, whether elements equal to it
    are kept, and the collection; None for any other call.

    The literal is a string, keyword, nil or boolean (`=` is then `==` or identity, see
    `inline_equality`) and the keyword's name has no `-` (a dict then holds at most two
    spellings, see `rt.kfield`): the test cannot fail and has no effects, which lets
    `rt_filter_field` run it apart from the element's step.
    """
    if len(node.args) != 2 or name not in ("filter", "filterv", "remove"):
        return None
    fn, coll = node.args
    if type(fn) is not ir.Fn or len(fn.arities) != 1 or fn.self_name is not None:
        return None
    arity = fn.arities[0]
    if fn.contract is not None or len(arity.params) != 1 or arity.rest is not None:
        return None
    test = arity.body
    if not (
        type(test) is ir.Call
        and type(test.fn) is ir.BuiltinRef
        and test.fn.name in ("=", "not=")
        and len(test.args) == 2
    ):
        return None
    for read, lit in (test.args, test.args[::-1]):
        if type(lit) is not ir.Const:
            continue
        v = lit.value
        if not (v is None or type(v) is bool or type(v) is str or type(v) is Keyword):
            continue
        k = _field_read(read, arity.params[0])
        if k is not None:
            keep_equal = (test.fn.name == "=") is (name != "remove")
            return k, v, keep_equal, coll
    return None


def _field_read(node: ir.Node, param: str) -> Keyword | None:
    """The keyword `k` when `node` is `(:k param)` or `(get param :k)`, `k` without `-`."""
    if type(node) is not ir.Call or len(node.args) not in (1, 2):
        return None
    fn, args = node.fn, node.args
    if type(fn) is ir.Const and len(args) == 1:
        k, m = fn.value, args[0]
    elif type(fn) is ir.BuiltinRef and fn.name == "get" and len(args) == 2:
        m, key = args
        k = key.value if type(key) is ir.Const else None
    else:
        return None
    if type(k) is Keyword and "-" not in k.name and type(m) is ir.Local and m.ident == param:
        return k
    return None


def inline_equality(name: str, args: Sequence[ir.Node], exprs: list[ast.expr]) -> ast.expr | None:
    """`(= x :k)` and friends: identity or string equality when one side is such a literal.

    Safe because a keyword, nil or boolean equals only itself, and a string equals only
    an equal string (a keyword's `__eq__` is identity, so it never equals a `str`).
    """
    if isinstance(exprs[0], ast.Constant) and isinstance(exprs[1], ast.Constant):
        return None  # two literals: leave it to the builtin (and spare CPython's `is` warning)
    for i in (0, 1):
        a = args[i]
        if isinstance(a, ir.Const) and (
            a.value is None or type(a.value) is bool or isinstance(a.value, Keyword)
        ):
            op: ast.cmpop = ast.IsNot() if name == "not=" else ast.Is()
            return ast.Compare(exprs[1 - i], [op], [exprs[i]])
        if isinstance(a, ir.Const) and type(a.value) is str:
            op = ast.NotEq() if name == "not=" else ast.Eq()
            return ast.Compare(exprs[1 - i], [op], [exprs[i]])
    return None


def simple_key(node: ir.Node) -> bool:
    """Literal keys a Python dict display stores exactly as PTC would."""
    if not isinstance(node, ir.Const):
        return False
    v = node.value
    if type(v) is float:
        return math.isfinite(v)
    return v is None or type(v) in (int, str) or isinstance(v, Keyword | SymbolRef)


def str_format(args: Sequence[ir.Node], exprs: list[ast.expr]) -> ast.expr | None:
    """`(str "id-" x ", " y)` as `rt_str_format2('id-%s, %s', x, y)`: the string literals go
    into a `%` format, so only the other parts are looked at per call (`strings_core.
    str_format`, the same text and errors as `str` of all the parts). Without literals,
    `(str x y)` to `(str w x y z)` as `rt_str_format2('%s%s', x, y)` ... and `(str x)` as
    `rt_str1(x)` (positional calls, cheaper than `b_str`'s); else None."""
    if len(args) == 1:
        a = args[0]
        return None if type(a) is ir.Const and type(a.value) is str else helper("str1", *exprs)
    if not 2 <= len(args) <= STR_FORMAT_PARTS:
        return None
    fmt: list[str] = []
    others: list[ast.expr] = []
    for a, e in zip(args, exprs, strict=True):
        if type(a) is ir.Const and type(a.value) is str and len(a.value) <= STR_FORMAT_LITERAL:
            fmt.append(a.value.replace("%", "%%"))
        else:
            fmt.append("%s")
            others.append(e)
    if not others:  # nothing but literals
        return None
    if len(others) == len(exprs) and (
        len(others) > STR_FORMAT_UNROLLED  # no literal: `b_str` is as fast with more parts
        or any(type(a) is ir.Const and type(a.value) is str for a in args)  # a long literal
    ):
        return None
    # up to `STR_FORMAT_UNROLLED` parts: a helper taking that many positional arguments
    name = f"str_format{len(others)}" if len(others) <= STR_FORMAT_UNROLLED else "str_format"
    return helper(name, ast.Constant("".join(fmt)), *others)


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
