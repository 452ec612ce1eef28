"""Fast paths for reads: keyword reads, `get`/`get-in` with literal paths, chains of reads
as one path read, per-element keyword getters and loop-invariant reads hoisted before
their loop (`Hoist`, `FactoryHoist`).

Functions taking the `Emitter` are called by it for the forms they name; each returns
the general lowering's equivalent or None (the caller then takes the general path).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ptc_compiler import ir
from ptc_compiler.forms import Span
from ptc_compiler.lower import scan
from ptc_compiler.lower.ctx import (
    KGetter,
    assign,
    at,
    call,
    helper,
    load,
)
from ptc_compiler.optimize import registry
from ptc_runtime.values import Keyword, keyword

if TYPE_CHECKING:
    from ptc_compiler.lower.emit import Emitter


#: Constant keyword reads of a loop element that make a per-element getter worth its nodes
#: (see `keyword_getter`).
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
    (`hoist`): the statements to place before it, the loop's own element `own`,
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


def keyword_read(e: Emitter, k: Keyword, m: ast.expr, default: list[ast.expr]) -> ast.expr:
    """`(:k m default?)` / `(get m :k default?)`: the flexible read of a constant keyword.

    A name without `-` has only two spellings a dict can hold, so
    `rt_kfield` gets the name as a constant and reads a dict with two C-level probes;
    other names take `rt_kdash`, given the `_` spellings too (up to four probes).
    """
    kw = e.const(k)
    if "-" in k.name:
        # the four spellings a flexible read tries, probed in its order (`rt.kfield_dash`)
        alt = k.name.replace("-", "_")
        spellings = (ast.Constant(k.name), e.const(keyword(alt)), ast.Constant(alt))
        return helper("kdash", m, kw, *spellings, *default)
    getter = e.cx.kgetters.get(m.id) if type(m) is ast.Name else None
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
    e: Emitter,
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
        hoisted = hoist(e, base, keys[:lead], span)
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
                    m = plain_path(e, m, keys[start:i], exprs[start:i])
                m = keyword_read(e, k.value, m, [])
                start = i + 1
        keys, exprs = keys[start:], exprs[start:]
        if not keys:
            return m
    return plain_path(e, m, keys, exprs)


def plain_path(e: Emitter, m: ast.expr, keys: Sequence[ir.Node], exprs: list[ast.expr]) -> ast.expr:
    """The read of path `keys` out of `m`: one constant keyword is the keyword read
    `(:k m)`; up to `PATH_UNROLLED` keys call `path_read`; more (or none) take
    `rt_get_path` (`lookup.get_path`, a loop)."""
    if len(keys) == 1:
        k = keys[0]
        if isinstance(k, ir.Const) and isinstance(k.value, Keyword):
            return keyword_read(e, k.value, m, [])
    if not keys or len(keys) > PATH_UNROLLED:
        return helper("get_path", m, *exprs)
    return path_read(m, keys, exprs)


@registry.gated("loop-invariant-read", lambda *args: None, lambda result, *args: False)
def hoist(
    e: Emitter, base: ir.Node, keys: Sequence[ir.Node], span: Span, default: ir.Node | None = None
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
    hoists = e.hoists
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
        t = scope.made[made] = e.cx.fresh()
        m = e.expr(base).expr
        exprs = [e.expr(k).expr for k in keys]
        if default is None:
            value = path_read(m, keys, exprs)
        elif len(keys) == 1:  # `get`'s flexible read with a default, once
            d = e.expr(default).expr
            value = call(load(e.builtins["get"].py_name), [m, *exprs, d])
        else:
            value = path_read(m, keys, exprs)
            value.func = load(f"rt_get_path_or{len(keys)}")
            value.args.append(e.expr(default).expr)
        scope.stmts.append(at(span, assign(t, value)))  # type: ignore[arg-type]
    return load(t)


def keyword_getter(e: Emitter, ident: str, rest: Callable[[], list[ast.stmt]]) -> list[ast.stmt]:
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
    if not registry.on("keyword-getter"):
        return rest()
    cx = e.cx
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
    registry.fire("keyword-getter")
    name = cx.fresh()
    for read, *_ in getter.reads:
        read.func.id = read.args[2].func.id = name  # type: ignore[attr-defined]
    test = ast.Compare(helper("type", load(ident)), [ast.Is()], [load("rt_dict")])
    select = ast.IfExp(test, load("rt_dget"), load("rt_kother"))
    return [assign(name, select), *stmts]
