"""Fast paths for `reduce` with a literal fn: the in-place linear reduce
(`ptc_runtime.fast.transient`), its one-call shapes (`rt_t_assoc_fields`,
`rt_t_update_fields`), and the update fns and fused update-ins of in-place updates.

The functions taking the `Emitter` return the lowering of their shape, or None when it
does not apply (the `Emitter` then takes the general path); the others recognize shapes.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, cast

from ptc_compiler import ir
from ptc_compiler.lower import scan
from ptc_compiler.lower.ctx import (
    CREDIT,
    FUEL,
    LOAD,
    NONE,
    STORE,
    Lowered,
    assign,
    at,
    fuel_check,
    helper,
    load,
    store,
)
from ptc_compiler.optimize import rules_paths, rules_sequences
from ptc_compiler.optimize.registry import gated
from ptc_runtime.fastops import (
    FAST_CALLS,
)
from ptc_runtime.values import Keyword

if TYPE_CHECKING:
    from ptc_compiler.lower.emit import Emitter


def linear_reduce(e: Emitter, node: ir.Call) -> Lowered | None:
    """`(reduce (fn [acc x] ...) init coll)` as a loop updating the accumulator in place.

    Only when the accumulator provably never escapes (see `scan.linear_accumulation`):
    then every intermediate value is dropped at once, so mutating the containers the
    loop owns (`ptc_runtime.fast.transient`) is indistinguishable from persistent updates.
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
        or e.recurs(arity)
    ):
        return None
    acc, x = arity.params
    if isinstance(init, ir.MapLit) and not init.pairs:
        fields = assoc_fields(arity.body, acc, x)
        if fields is not None:
            return lower_assoc_fields(e, node, acc, coll, *fields)
    updates = update_fields(arity.body, acc, x)
    if updates is not None:
        return lower_update_fields(e, node, init, coll, acc, updates)
    fresh = True  # the start value is a new literal nothing else references
    if isinstance(init, ir.MapLit) and not init.pairs:
        ops = scan.MAP_ACCUMULATORS
    elif isinstance(init, ir.VectorLit) and not init.items:
        ops = scan.VECTOR_ACCUMULATORS
    else:
        ops, fresh = scan.MAP_ACCUMULATORS, False
    owned = e.cx.fresh()
    reads: list[ir.Call] = []
    body = scan.linear_accumulation(
        arity.body, acc, ops, e.free_memo, ir.Local(owned, node.span), reads
    )
    if body is None:
        return None
    if reads:  # a part read out of the accumulator may be shared from then on
        body = scan.substitute(
            body,
            {id(r): ir.RtCall("t_seen", (ir.Local(owned, r.span), r), r.span) for r in reads},
        )
    low_init = e.expr(init)
    low_coll = e.expr(coll)

    def step() -> list[ast.stmt]:
        low = e.expr(body)
        return [*low.stmts, assign(acc, low.expr)]

    entry = fuel_check()
    for s in entry:  # the fn's entry step: the budget runs out at the fn, as unfused
        at(fn.span, s)
    hoist = rules_paths.Hoist(x, lambda: rules_paths.bound_below({acc, x}, [body]))
    e.hoists.append(hoist)
    try:
        loop_body = [*entry, *rules_paths.keyword_getter(e, x, step)]
    finally:
        e.hoists.pop()
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


def lower_assoc_fields(
    e: Emitter, node: ir.Call, acc: str, coll: ir.Node, k: Keyword, v: Keyword | None
) -> Lowered:
    """`(reduce (fn [m x] (assoc m (:k x) (:v x))) {} coll)` (see `assoc_fields`) as
    `FUEL, m = rt_t_assoc_fields(m, coll, :k, 'k', :v, 'v', FUEL, CREDIT)`: the loop
    in one call, the same steps (`transient.t_assoc_fields`). As unfused, a bad
    collection fails at the `reduce` (`rt_t_items`), the budget at the fn."""
    low = e.expr(coll)
    items = helper("t_items", low.expr)
    at(node.span, items)
    value = helper(
        "t_assoc_fields",
        load(acc),
        items,
        e.const(k),
        ast.Constant(k.name),
        NONE if v is None else e.const(v),
        NONE if v is None else ast.Constant(v.name),
        load(FUEL),
        load(CREDIT),
    )
    stmt = ast.Assign([ast.Tuple([store(FUEL), store(acc)], STORE)], value)
    start = assign(acc, ast.Dict([], []))
    fn = node.args[0]
    return Lowered((start, *low.stmts, at(fn.span, stmt)), load(acc))  # type: ignore[arg-type]


def lower_update_fields(
    e: Emitter, node: ir.Call, init: ir.Node, coll: ir.Node, acc: str, updates: list[ir.Call]
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
                e.const(cast(ir.Const, path[-1]).value),
                load(FAST_CALLS[cast(ir.BuiltinRef, update.args[2]).name][1]),
                ast.Constant(len(update.args) - 3),
                *update_fields_arg(e, update.args[3:], x, field),
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
                template.append(e.const(cast(ir.ConstValue, k)))
        groups.append((template, fidx, [leaf]))
    low_init = e.expr(init)
    low = e.expr(coll)
    items = helper("t_items", low.expr)
    at(node.span, items)
    value = helper(
        "t_update_fields",
        load(acc),
        items,
        ast.Tuple([e.const(k) for k in fields], LOAD),
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
    e: Emitter, args: Sequence[ir.Node], x: str, field: Callable[[Keyword], int]
) -> list[ast.expr]:
    """An update's (field index, constant) in `rt_t_update_fields`: (-1, nil) for
    none, (-1, c) for a constant, (i, nil) for the element's field i."""
    if not args:
        return [ast.Constant(-1), NONE]
    k = rules_sequences.field_read(args[0], x)
    if k is not None:
        return [ast.Constant(field(k)), NONE]
    return [ast.Constant(-1), e.const(cast(ir.Const, args[0]).value)]


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


@gated("assoc-fields", lambda body, acc, x: None)
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
    k = rules_sequences.field_read(key, x)
    if k is None:
        return None
    if type(value) is ir.Local and value.ident == x:
        return k, None
    v = rules_sequences.field_read(value, x)
    return None if v is None else (k, v)


@gated("update-fields", lambda body, acc, x: None)
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
        if (
            extra
            and type(extra[0]) is not ir.Const
            and rules_sequences.field_read(extra[0], x) is None
        ):
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
    k = rules_sequences.field_read(node, x)
    return None if k is None else (k,)


@gated("fast-update-fn", lambda fn, extra, low: low, lambda r, fn, extra, low: r is not low)
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


def linear_loop(e: Emitter, node: ir.Loop) -> tuple[ir.Loop, str] | None:
    """A `loop` with a binding threaded linearly through its `recur`s as updated in place.

    `(loop [.. st init ..] body)` where every `recur` of `body` passes for `st` an
    accumulator shape of `st` (`(-> st (update-in p f) (assoc-in q v))`, `st` itself;
    see `scan.linear_accumulation`), no other `recur` argument mentions `st`, and every
    other use of `st` in `body` is a read that cannot leak it (`scan.acc_safe`), or `st`
    itself as the loop's value: then each intermediate value of `st` is dropped when the
    next is made, and updating the containers the loop owns in place
    (`ptc_runtime.fast.transient`) is indistinguishable from persistent updates. The
    start value is copied level by level on its first write (it may be shared). Returns
    the loop with its updates made in place and the name of the ownership table (the
    caller binds it to a fresh `t_begin()` before the loop), or None.
    """
    for i, (ident, _) in enumerate(node.bindings):
        if not any(_updates(r, i) for r in scan.tail_recurs(node.body)):
            continue
        owned = e.cx.fresh()
        reads: list[ir.Call] = []
        body = _linear_tail(node.body, i, ident, e.free_memo, ir.Local(owned, node.span), reads)
        if body is None:
            continue
        if reads:  # a part read out of the value may be shared from then on
            seen: dict[int, ir.Node] = {
                id(r): ir.RtCall("t_seen", (ir.Local(owned, r.span), r), r.span) for r in reads
            }
            body = scan.substitute(body, seen)
        return ir.Loop(node.bindings, body, node.span), owned
    return None


def _updates(recur: ir.Recur, i: int) -> bool:
    """Whether `recur` passes an accumulator update (`assoc`, `update-in` ...) at `i`."""
    arg = recur.args[i] if i < len(recur.args) else None
    return (
        type(arg) is ir.Call
        and type(arg.fn) is ir.BuiltinRef
        and arg.fn.name in scan.MAP_ACCUMULATORS
    )


def _linear_tail(
    n: ir.Node,
    i: int,
    v: str,
    memo: dict[int, frozenset[str]],
    owned: ir.Local,
    reads: list[ir.Call],
) -> ir.Node | None:
    """`n`, a tail of the loop body, with its `recur`s updating binding `i` (`v`) in
    place, or None when `v` might escape or be seen after an update."""
    if type(n) is ir.Recur:
        if i >= len(n.args):
            return None
        new = scan.linear_accumulation(n.args[i], v, scan.MAP_ACCUMULATORS, memo, owned, reads)
        others = (a for j, a in enumerate(n.args) if j != i)
        if new is None or not all(scan.acc_safe(a, v, memo, None) for a in others):
            return None
        return ir.Recur((*n.args[:i], new, *n.args[i + 1 :]), n.span)
    if type(n) is ir.If:
        then = _linear_tail(n.then, i, v, memo, owned, reads)
        else_ = _linear_tail(n.else_, i, v, memo, owned, reads)
        if then is None or else_ is None or not scan.acc_safe(n.test, v, memo, reads):
            return None
        return ir.If(n.test, then, else_, n.span)
    if type(n) is ir.Let:
        if any(ident == v for ident, _ in n.bindings):
            return None  # shadowed: the body's `v` is another value
        if not all(scan.acc_safe(value, v, memo, reads) for _, value in n.bindings):
            return None
        inner = _linear_tail(n.body, i, v, memo, owned, reads)
        return None if inner is None else ir.Let(n.bindings, inner, n.span)
    if type(n) is ir.Do and n.body:
        if not all(scan.acc_safe(x, v, memo, reads) for x in n.body[:-1]):
            return None
        last = _linear_tail(n.body[-1], i, v, memo, owned, reads)
        return None if last is None else ir.Do((*n.body[:-1], last), n.span)
    if type(n) is ir.Local and n.ident == v:
        return n  # the loop's value: no update follows it
    return n if scan.acc_safe(n, v, memo, reads) else None
