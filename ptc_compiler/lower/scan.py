"""Read-only walks over IR used by lowering: free locals, recur targets, numeric facts.

These are pure functions of the IR; lowering calls them before emitting a `fn`
(to decide what a closure captures) or a `loop` (to prove its bindings numeric,
which lets arithmetic on them compile to plain Python operators).
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterator
from dataclasses import fields, is_dataclass, replace
from typing import Any

from ptc_compiler import ir
from ptc_compiler.forms import Span
from ptc_runtime.values import Keyword

#: Builtins whose result is always a number (or the call fails): safe to treat as numeric.
NUMERIC_RESULTS = frozenset(
    {"+", "-", "*", "/", "inc", "dec", "quot", "rem", "mod", "abs", "count"}
)

#: Builtins that always return a boolean, beyond the `?`-suffixed predicates.
BOOLEAN_RESULTS = frozenset({"not", "=", "==", "not=", "<", ">", "<=", ">=", "boolean"})


def _for_children(node: ir.For) -> tuple[ir.Node, ...]:
    out: list[ir.Node] = []
    for c in node.clauses:
        if isinstance(c, ir.ForBind):
            out.append(c.coll)
        elif isinstance(c, ir.ForLet):
            out.extend(v for _, v in c.bindings)
        else:
            out.append(c.test)
    out.append(node.body)
    return tuple(out)


def _pairs(pairs: tuple[tuple[ir.Node, ir.Node], ...]) -> tuple[ir.Node, ...]:
    return tuple(x for pair in pairs for x in pair)


_NONE: tuple[ir.Node, ...] = ()
# Type-keyed dispatch: this runs hundreds of times per compile, a `match` would cost 3x.
_CHILDREN: dict[type, Callable[[Any], tuple[ir.Node, ...]]] = {
    ir.VectorLit: lambda n: n.items,
    ir.SetLit: lambda n: n.items,
    ir.And: lambda n: n.items,
    ir.Or: lambda n: n.items,
    ir.Do: lambda n: n.body,
    ir.MapLit: lambda n: _pairs(n.pairs),
    ir.If: lambda n: (n.test, n.then, n.else_),
    ir.Let: lambda n: (*(v for _, v in n.bindings), n.body),
    ir.Loop: lambda n: (*(v for _, v in n.bindings), n.body),
    ir.Recur: lambda n: n.args,
    ir.RtCall: lambda n: n.args,
    ir.Fn: lambda n: tuple(a.body for a in n.arities),
    ir.Call: lambda n: (n.fn, *n.args),
    ir.ToolCall: lambda n: _NONE if n.arg is None else (n.arg,),
    ir.Def: lambda n: (n.value,),
    ir.Return: lambda n: (n.value,),
    ir.Fail: lambda n: (n.value,),
    ir.For: _for_children,
}


def children(node: ir.Node) -> tuple[ir.Node, ...]:
    """Direct child nodes of `node`, in evaluation order."""
    get = _CHILDREN.get(type(node))
    return _NONE if get is None else get(node)


#: The node kinds `bound_here` yields idents for.
_BINDERS: frozenset[type] = frozenset({ir.Let, ir.Loop, ir.Fn, ir.For})


def bound_here(node: ir.Node) -> Iterator[str]:
    """Local idents that `node` itself binds."""
    match node:
        case ir.Let(bindings=bs) | ir.Loop(bindings=bs):
            for ident, _ in bs:
                yield ident
        case ir.Fn(arities=arities, self_name=self_name):
            if self_name is not None:
                yield self_name
            for a in arities:
                yield from a.params
                if a.rest is not None:
                    yield a.rest
        case ir.For(clauses=clauses):
            for c in clauses:
                if isinstance(c, ir.ForBind):
                    yield c.ident
                elif isinstance(c, ir.ForLet):
                    for ident, _ in c.bindings:
                        yield ident
        case _:
            return


def free_locals(fn: ir.Fn, memo: dict[int, frozenset[str]] | None = None) -> frozenset[str]:
    """Local idents `fn` references that are bound outside it.

    `memo` (keyed by node id) lets nested fns be walked once, not once per enclosing fn.
    """
    if memo is not None and id(fn) in memo:
        return memo[id(fn)]
    used: set[str] = set()
    bound: set[str] = set(bound_here(fn))
    stack: list[ir.Node] = list(children(fn))
    pop = stack.pop
    push = stack.extend
    get = _CHILDREN.get
    while stack:
        node = pop()
        kind = type(node)
        if kind is ir.Local:
            used.add(node.ident)  # type: ignore[union-attr]
            continue
        if kind is ir.Fn:
            used.update(free_locals(node, memo))  # type: ignore[arg-type]
            continue
        if kind in _BINDERS:  # only these bind (see `bound_here`)
            bound.update(bound_here(node))
        kids = get(kind)
        if kids is not None:
            push(kids(node))
    result = frozenset(used - bound)
    if memo is not None:
        memo[id(fn)] = result
    return result


def owns_recur(body: ir.Node) -> bool:
    """True when some `Recur` in `body` jumps to the loop or fn arity whose body it is.

    Nested fns and nested loop bodies own the recurs inside them; a loop's initial
    values belong to the enclosing target.
    """
    stack = [body]
    pop = stack.pop
    push = stack.extend
    while stack:
        node = pop()
        kind = type(node)
        if kind is ir.Recur:
            return True
        if kind is ir.Fn:
            continue
        if kind is ir.Loop:
            push(init for _, init in node.bindings)  # type: ignore[union-attr]
            continue
        get = _CHILDREN.get(kind)
        if get is not None:
            push(get(node))
    return False


def tail_recurs(body: ir.Node) -> Iterator[ir.Recur]:
    """`Recur` nodes that target the loop or fn arity whose body is `body`."""
    stack = [body]
    pop = stack.pop
    push = stack.extend
    get = _CHILDREN.get
    while stack:
        node = pop()
        kind = type(node)
        if kind is ir.Recur:
            yield node  # type: ignore[misc]
        if kind is ir.Fn or kind is ir.Loop:
            continue  # a nested loop or fn owns the recurs inside it
        kids = get(kind)
        if kids is not None:
            push(kids(node))


def inner_lets(body: ir.Node) -> list[tuple[str, ir.Node]]:
    """`let` bindings inside `body` (not inside nested fns/loops), in source order."""
    out: list[tuple[str, ir.Node]] = []
    stack = [body]
    pop = stack.pop
    push = stack.extend
    get = _CHILDREN.get
    while stack:
        node = pop()
        kind = type(node)
        if kind is ir.Fn or kind is ir.Loop:
            continue
        if kind is ir.Let:
            out.extend(node.bindings)  # type: ignore[union-attr]
        kids = get(kind)
        if kids is not None:
            push(reversed(kids(node)))
    return out


#: Builtins whose result is a number when they get at least one argument.
_NUMERIC_WITH_ARGS = frozenset({"-", "inc", "dec", "quot", "rem", "mod", "abs", "count", "/"})


class _Assumed:
    """The known numbers of a scope plus idents assumed numeric, without a copy."""

    __slots__ = ("extra", "known")

    def __init__(self, known: Container[str], extra: set[str]) -> None:
        self.known = known
        self.extra = extra

    def __contains__(self, ident: object) -> bool:
        return ident in self.extra or ident in self.known

    def add(self, ident: str) -> None:
        self.extra.add(ident)


def is_numeric(node: ir.Node, numeric: Container[str]) -> bool:
    """True when `node` can only evaluate to a number (or fail)."""
    # Exact-class tests (IR classes have no subclasses): this runs for every operand of
    # arithmetic and every loop binding, where a `match` tried its patterns one by one.
    kind = type(node)
    if kind is ir.Const:
        v = type(node.value)  # type: ignore[union-attr]
        return v is int or v is float
    if kind is ir.Local:
        return node.ident in numeric  # type: ignore[union-attr]
    if kind is ir.Call:
        fn = node.fn  # type: ignore[union-attr]
        if type(fn) is not ir.BuiltinRef:
            return False
        if fn.name in _NUMERIC_WITH_ARGS:
            return len(node.args) >= 1  # type: ignore[union-attr]
        return fn.name in NUMERIC_RESULTS
    if kind is ir.If:
        return is_numeric(node.then, numeric) and is_numeric(node.else_, numeric)  # type: ignore[union-attr]
    if kind is ir.Let or kind is ir.Loop:
        return is_numeric(node.body, numeric)  # type: ignore[union-attr, arg-type]
    return False


def is_boolean(node: ir.Node) -> bool:
    """True when `node` can only evaluate to true or false."""
    kind = type(node)
    if kind is ir.Const:
        return type(node.value) is bool  # type: ignore[union-attr]
    if kind is ir.Call:
        fn = node.fn  # type: ignore[union-attr]
        if type(fn) is not ir.BuiltinRef:
            return False
        name = fn.name
        return name.endswith("?") or name in BOOLEAN_RESULTS
    if kind is ir.And or kind is ir.Or:
        items = node.items  # type: ignore[union-attr]
        return bool(items) and all(is_boolean(i) for i in items)
    if kind is ir.If:
        return is_boolean(node.then) and is_boolean(node.else_)  # type: ignore[union-attr]
    return False


def numeric_loop_bindings(loop: ir.Loop, numeric: Container[str]) -> frozenset[str]:
    """Loop idents provably numeric on every iteration."""
    idents = [ident for ident, _ in loop.bindings]
    cands = {ident for ident, init in loop.bindings if is_numeric(init, numeric)}
    return numeric_fixpoint(idents, cands, loop.body, numeric)


def numeric_fixpoint(
    idents: list[str], cands: set[str], body: ir.Node, numeric: Container[str]
) -> frozenset[str]:
    """The subset of `cands` (among the `recur` slots `idents`) that stays numeric.

    Assume the candidates numeric, and drop any that some `recur` may rebind to a
    non-number; repeat until stable (a small fixpoint).
    """
    recurs = list(tail_recurs(body))
    lets = inner_lets(body)
    while True:
        # the known numbers of the scope are not copied: that cost the size of the
        # scope per loop (quadratic in a long `let` of loops)
        assumed = _Assumed(numeric, set(cands))
        for ident, value in lets:
            if is_numeric(value, assumed):
                assumed.add(ident)
        ok = set(cands)
        for r in recurs:
            for ident, arg in zip(idents, r.args, strict=False):
                if ident in ok and not is_numeric(arg, assumed):
                    ok.discard(ident)
        if ok == cands:
            return frozenset(cands)
        cands = ok


#: Builtins whose operands benefit from being known numbers (they then compile inline).
NUMERIC_OPERATORS = frozenset(
    {"+", "-", "*", "<", ">", "<=", ">=", "=", "==", "inc", "dec", "zero?", "pos?", "neg?"}
)


def numeric_operands(body: ir.Node) -> set[str]:
    """Locals used directly as operands of arithmetic or comparison (not inside nested fns)."""
    out: set[str] = set()
    stack = [body]
    pop = stack.pop
    push = stack.extend
    get = _CHILDREN.get
    while stack:
        node = pop()
        kind = type(node)
        if kind is ir.Fn:
            continue
        if kind is ir.Call:
            fn = node.fn  # type: ignore[union-attr]
            if type(fn) is ir.BuiltinRef and fn.name in NUMERIC_OPERATORS:
                out.update(a.ident for a in node.args if type(a) is ir.Local)  # type: ignore[union-attr]
        kids = get(kind)
        if kids is not None:
            push(kids(node))
    return out


#: Accumulator operations `linear_accumulation` turns into in-place ones, per start value.
MAP_ACCUMULATORS = {
    "assoc": "t_assoc",
    "update": "t_update",
    "assoc-in": "t_assoc_in",
    "update-in": "t_update_in",
}
VECTOR_ACCUMULATORS = {"conj": "t_conj"}
#: Reads of the accumulator that return a part of it (or a count).
ACC_READS = frozenset({"get", "contains?", "count", "get-in"})
#: Those of `ACC_READS` that may return a container of the accumulator (even the whole
#: of it: `(get-in acc [])`); lowering wraps them in `t_seen` (see `ptc_runtime.fast.transient`).
ACC_VALUE_READS = frozenset({"get", "get-in"})


def linear_accumulation(
    body: ir.Node,
    acc: str,
    ops: dict[str, str],
    memo: dict[int, frozenset[str]],
    owned: ir.Local,
    reads: list[ir.Call],
) -> ir.Node | None:
    """`body` rewritten to update `acc` in place, or None when `acc` might escape.

    Accepted shapes: `acc` itself; `(op acc args...)` for an accumulator op, and
    `(op <accepted shape> args...)` when `args` do not mention `acc` at all (they run
    after the inner op changed it in place: `(-> acc (update-in p f) (assoc k v))`);
    `if`/`let`/`do` around those. Everywhere else `acc` may only be read through
    `get`/`count`/... or a keyword call, and no fn may capture it. The ops become
    `RtCall`s taking the ownership table `owned` first; reads that can return a part of
    `acc` are appended to `reads` (lowering marks their values as seen).
    """
    match body:
        case ir.Local(ident=ident) if ident == acc:
            return body
        case ir.Call(fn=ir.BuiltinRef(name=name), args=args) if name in ops and args:
            first = args[0]
            if isinstance(first, ir.Local) and first.ident == acc:
                if not all(acc_safe(a, acc, memo, reads) for a in args[1:]):
                    return None
                return ir.RtCall(ops[name], (owned, *args), body.span)
            inner = linear_accumulation(first, acc, ops, memo, owned, reads)
            if inner is None or not all(acc_safe(a, acc, memo, None) for a in args[1:]):
                return None
            if name == "update-in":
                fused = fuse_update_ins(inner, args, body.span)
                if fused is not None:
                    return fused
            return ir.RtCall(ops[name], (owned, inner, *args[1:]), body.span)
        case ir.If(test=test, then=then, else_=else_):
            a = linear_accumulation(then, acc, ops, memo, owned, reads)
            b = linear_accumulation(else_, acc, ops, memo, owned, reads)
            if a is None or b is None or not acc_safe(test, acc, memo, reads):
                return None
            return ir.If(test, a, b, body.span)
        case ir.Let(bindings=bindings, body=inner):
            rest = linear_accumulation(inner, acc, ops, memo, owned, reads)
            if rest is None or not all(acc_safe(v, acc, memo, reads) for _, v in bindings):
                return None
            return ir.Let(bindings, rest, body.span)
        case ir.Do(body=items) if items:
            last = linear_accumulation(items[-1], acc, ops, memo, owned, reads)
            if last is None or not all(acc_safe(i, acc, memo, reads) for i in items[:-1]):
                return None
            return ir.Do((*items[:-1], last), body.span)
        case _:
            return None


def fuse_update_ins(inner: ir.Node, args: tuple[ir.Node, ...], span: Span) -> ir.Node | None:
    """`(update-in <inner> path2 f2 a2...)` over `inner`, an in-place `update-in` whose
    path starts with the same keys, as one `t_update_in2` that walks the shared prefix
    once (`(-> t (update-in [:r (:r e) :sales] + n) (update-in [:r (:r e) :orders] inc))`),
    or None.

    The prefix must be the same pure expressions in both paths (constants, locals,
    keyword reads of those), so the second path's copy, which is not evaluated, has the
    value of the first's. The second update's other arguments are evaluated before the
    first update runs instead of after: they must be values that cannot fail or have
    effects (`simple`). Both remaining paths must be non-empty.
    """
    if type(inner) is not ir.RtCall or inner.helper != "t_update_in" or len(args) < 3:
        return None
    owned, m, path1, f1, *args1 = inner.args
    path2, f2, args2 = args[1], args[2], args[3:]
    if type(path1) is not ir.VectorLit or type(path2) is not ir.VectorLit:
        return None
    p1, p2 = path1.items, path2.items
    n = 0
    while n < len(p1) - 1 and n < len(p2) - 1 and same_simple(p1[n], p2[n]):
        n += 1
    if n == 0 or not all(simple(a) for a in (*p2[n:], f2, *args2)):
        return None
    return ir.RtCall(
        "t_update_in2",
        (
            owned,
            m,
            ir.VectorLit(p1[:n], path1.span),
            ir.VectorLit(p1[n:], path1.span),
            f1,
            ir.VectorLit(tuple(args1), span),
            ir.VectorLit(p2[n:], path2.span),
            f2,
            ir.VectorLit(args2, span),
            # the first update-in's position, where its errors are placed
            ir.Const(inner.span.line, span),
            ir.Const(inner.span.col, span),
        ),
        span,
    )


#: Constant types whose equal values are interchangeable as keys (1 = 1.0 = true in
#: Python, but not as map keys here, hence the exact type test).
_KEY_CONSTS = (str, int, Keyword, type(None))


def simple(node: ir.Node) -> bool:
    """A value that evaluates without effects and cannot fail: a constant, a local, a
    builtin, a fn literal (making the closure runs nothing), or a keyword read of a
    constant or local (`(:k x)` never raises)."""
    if isinstance(node, ir.Const | ir.Local | ir.BuiltinRef | ir.Fn):
        return True
    return _keyword_read(node) is not None


def _keyword_read(node: ir.Node) -> tuple[object, ir.Const | ir.Local] | None:
    """(keyword, subject) of `(:k x)` with `x` a constant or local, else None."""
    if isinstance(node, ir.Call) and isinstance(node.fn, ir.Const) and len(node.args) == 1:
        subject = node.args[0]
        if type(node.fn.value) is Keyword and isinstance(subject, ir.Const | ir.Local):
            return node.fn.value, subject
    return None


def same_simple(a: ir.Node, b: ir.Node) -> bool:
    """`a` and `b` are the same pure key expression (so they have the same value when
    evaluated in the same scope): equal constants of the same type, the same local, or
    the same keyword read of those."""
    if isinstance(a, ir.Const) and isinstance(b, ir.Const):
        va, vb = a.value, b.value
        return type(va) is type(vb) and type(va) in _KEY_CONSTS and va == vb
    if isinstance(a, ir.Local) and isinstance(b, ir.Local):
        return a.ident == b.ident
    ra, rb = _keyword_read(a), _keyword_read(b)
    return ra is not None and rb is not None and ra[0] is rb[0] and same_simple(ra[1], rb[1])


def acc_safe(
    node: ir.Node, acc: str, memo: dict[int, frozenset[str]], reads: list[ir.Call] | None
) -> bool:
    """True when `node` can use `acc` only through reads that cannot leak it.

    With `reads` None, `acc` may not appear at all; otherwise the value reads found are
    appended to it.
    """
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, ir.Local):
            if n.ident == acc:
                return False
            continue
        if isinstance(n, ir.Fn):
            if acc in free_locals(n, memo):
                return False
            continue
        if (
            reads is not None
            and isinstance(n, ir.Call)
            and n.args
            and isinstance(n.args[0], ir.Local)
            and n.args[0].ident == acc
        ):
            keyword = isinstance(n.fn, ir.Const) and isinstance(n.fn.value, Keyword)
            builtin = n.fn.name if isinstance(n.fn, ir.BuiltinRef) else None
            if keyword or builtin in ACC_READS:
                if keyword or builtin in ACC_VALUE_READS:
                    reads.append(n)
                stack.extend(n.args[1:])
                continue
        stack.extend(children(n))
    return True


def substitute(node: Any, subs: dict[int, ir.Node]) -> Any:
    """`node` with every node whose id is a key of `subs` replaced by its value.

    Rebuilds only the nodes above a replacement (`dataclasses.replace`); everything else,
    spans included, is shared with the original tree.
    """
    hit = subs.get(id(node))
    if hit is not None:
        return hit
    kind = type(node)
    if kind is tuple:
        items = tuple(substitute(x, subs) for x in node)
        return node if all(a is b for a, b in zip(items, node, strict=True)) else items
    names = data_fields(kind)
    if not names:
        return node
    changes: dict[str, Any] = {}
    for name in names:
        value = getattr(node, name)
        new = substitute(value, subs)
        if new is not value:
            changes[name] = new
    return replace(node, **changes) if changes else node


#: Per class: the dataclass fields `substitute` descends into (all but `span`), or ()
#: for anything that is not a dataclass instance.
_DATA_FIELDS: dict[type, tuple[str, ...]] = {}


def data_fields(kind: type) -> tuple[str, ...]:
    """The dataclass fields of `kind` a rewrite descends into (all but `span`), or ()."""
    cached = _DATA_FIELDS.get(kind)
    if cached is not None:
        return cached
    names: tuple[str, ...] = ()
    if is_dataclass(kind):
        names = tuple(f.name for f in fields(kind) if f.name != "span")
    _DATA_FIELDS[kind] = names
    return names
