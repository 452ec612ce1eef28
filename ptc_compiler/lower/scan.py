"""Read-only walks over IR used by lowering: free locals, recur targets, numeric facts.

These are pure functions of the IR; lowering calls them before emitting a `fn`
(to decide what a closure captures) or a `loop` (to prove its bindings numeric,
which lets arithmetic on them compile to plain Python operators).
"""

from __future__ import annotations

from collections.abc import Iterator

from ptc_compiler import ir

#: Builtins whose result is always a number (or the call fails): safe to treat as numeric.
NUMERIC_RESULTS = frozenset({"+", "-", "*", "/", "inc", "dec", "quot", "rem", "mod", "abs", "count"})

#: Builtins that always return a boolean, beyond the `?`-suffixed predicates.
BOOLEAN_RESULTS = frozenset({"not", "=", "==", "not=", "<", ">", "<=", ">=", "boolean"})


def children(node: ir.Node) -> Iterator[ir.Node]:
    """Direct child nodes of `node`, in evaluation order."""
    match node:
        case ir.VectorLit(items=items) | ir.SetLit(items=items) | ir.And(items=items) | ir.Or(
            items=items
        ):
            yield from items
        case ir.MapLit(pairs=pairs):
            for k, v in pairs:
                yield k
                yield v
        case ir.Do(body=body):
            yield from body
        case ir.If(test=t, then=a, else_=b):
            yield t
            yield a
            yield b
        case ir.Let(bindings=bs, body=body) | ir.Loop(bindings=bs, body=body):
            for _, v in bs:
                yield v
            yield body
        case ir.Recur(args=args) | ir.RtCall(args=args):
            yield from args
        case ir.Fn(arities=arities):
            for a in arities:
                yield a.body
        case ir.Call(fn=fn, args=args):
            yield fn
            yield from args
        case ir.ToolCall(arg=arg):
            if arg is not None:
                yield arg
        case ir.Def(value=v) | ir.Return(value=v) | ir.Fail(value=v):
            yield v
        case ir.For(clauses=clauses, body=body):
            for c in clauses:
                match c:
                    case ir.ForBind(coll=coll):
                        yield coll
                    case ir.ForWhen(test=t) | ir.ForWhile(test=t):
                        yield t
                    case ir.ForLet(bindings=bs):
                        for _, v in bs:
                            yield v
            yield body
        case _:
            return


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


def free_locals(fn: ir.Fn) -> set[str]:
    """Local idents `fn` references that are bound outside it."""
    used: set[str] = set()
    bound: set[str] = set()
    stack: list[ir.Node] = [fn]
    while stack:
        node = stack.pop()
        if isinstance(node, ir.Local):
            used.add(node.ident)
            continue
        bound.update(bound_here(node))
        stack.extend(children(node))
    return used - bound


def tail_recurs(body: ir.Node) -> Iterator[ir.Recur]:
    """`Recur` nodes that target the loop or fn arity whose body is `body`."""
    stack = [body]
    while stack:
        node = stack.pop()
        if isinstance(node, ir.Recur):
            yield node
        if isinstance(node, ir.Fn | ir.Loop):
            continue  # a nested loop or fn owns the recurs inside it
        stack.extend(children(node))


def inner_lets(body: ir.Node) -> list[tuple[str, ir.Node]]:
    """`let` bindings inside `body` (not inside nested fns/loops), in source order."""
    out: list[tuple[str, ir.Node]] = []
    stack = [body]
    while stack:
        node = stack.pop()
        if isinstance(node, ir.Fn | ir.Loop):
            continue
        if isinstance(node, ir.Let):
            out.extend(node.bindings)
        stack.extend(reversed(list(children(node))))
    return out


def is_numeric(node: ir.Node, numeric: frozenset[str] | set[str]) -> bool:
    """True when `node` can only evaluate to a number (or fail)."""
    match node:
        case ir.Const(value=v):
            return type(v) is int or type(v) is float
        case ir.Local(ident=ident):
            return ident in numeric
        case ir.Call(fn=ir.BuiltinRef(name=name), args=args):
            if name in ("-", "inc", "dec", "quot", "rem", "mod", "abs", "count", "/"):
                return len(args) >= 1
            return name in NUMERIC_RESULTS
        case ir.If(then=a, else_=b):
            return is_numeric(a, numeric) and is_numeric(b, numeric)
        case ir.Let(body=body) | ir.Loop(body=body):
            return is_numeric(body, numeric)
        case _:
            return False


def is_boolean(node: ir.Node) -> bool:
    """True when `node` can only evaluate to true or false."""
    match node:
        case ir.Const(value=v):
            return type(v) is bool
        case ir.Call(fn=ir.BuiltinRef(name=name)):
            return name.endswith("?") or name in BOOLEAN_RESULTS
        case ir.And(items=items) | ir.Or(items=items):
            return bool(items) and all(is_boolean(i) for i in items)
        case ir.If(then=a, else_=b):
            return is_boolean(a) and is_boolean(b)
        case _:
            return False


def numeric_loop_bindings(loop: ir.Loop, numeric: frozenset[str]) -> frozenset[str]:
    """Loop idents provably numeric on every iteration (a small fixpoint).

    Start from the bindings with numeric initial values, assume them numeric, and drop
    any that some `recur` may rebind to a non-number; repeat until stable.
    """
    idents = [ident for ident, _ in loop.bindings]
    cands = {ident for ident, init in loop.bindings if is_numeric(init, numeric)}
    recurs = list(tail_recurs(loop.body))
    lets = inner_lets(loop.body)
    while True:
        assumed = set(numeric) | cands
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
