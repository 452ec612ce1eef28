"""Fast paths for `group-by`: grouping told the field it plucks, the columns of each group
built while grouping (`builtins.grouped`), `(update-vals (group-by ..) count)` as counts.

Pure IR -> IR rewrites (no `Emitter`): each returns the rewritten node, or the node as it
was / None when the shape does not apply.
"""

from __future__ import annotations

from ptc_compiler import ir
from ptc_compiler.lower import scan
from ptc_compiler.optimize.registry import gated
from ptc_runtime.values import Keyword


@gated("group-by-field", lambda coll, param, body: coll, lambda r, coll, *_: r is not coll)
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


@gated("group-columns", lambda coll, param, bindings, body: None)
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
    column (the same fold, errors and position; `(reduce + 0 ..)` and `(apply + ..)` of
    the pluck `rt_reduce0_column`/`rt_apply_sum_column`; when such a sum, or `sum-by`, is
    the group's one read, `rt_group_sums` may hand out the sum in place of the column:
    `_summed_only`),
    `(sum-by :f vs)`/`(avg-by :f vs)`
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
            summing = _summing(name, args)
            if summing is not None:
                folds, inner = summing
                if type(inner) is ir.Call and type(inner.fn) is ir.BuiltinRef:
                    if inner.fn.name in ("map", "mapv"):
                        key = _group_field(inner, group)
                        use = None if key is None else (key, folds, inner)
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
    summed = _summed_only(fields)
    # with a sum and a count, a stand-in is a pair: the sum (or column), the count
    n = 2 if summed and counted else len(fields)
    subs: dict[int, ir.Node] = {}
    for i, (node, _, fold, read) in enumerate(fields.values()):
        column = _column(ir.Local(group, node.span), i, n)
        if type(read.args[0]) is ir.Fn:  # the fn's steps, where `map` charges them: its entry
            column = ir.RtCall("charged_column", (column,), read.args[0].span)
        subs[id(node)] = column if fold is None else ir.RtCall(fold, (column,), node.span)
    for count in counted:
        if summed:  # the count beside the sum (a vector's count cannot fail)
            subs[id(count)] = _column(ir.Local(group, count.span), 1, 2)
        elif len(fields) > 1:  # the length of the first column
            subs[id(count.args[0])] = _column(ir.Local(group, count.args[0].span), 0, 2)
        elif not fields:  # the count itself
            subs[id(count)] = ir.Local(group, count.span)
    plucked = tuple(key for _, key, _, _ in fields.values())
    stand_ins = "group_columns" if entries else "group_vals"
    if summed:
        stand_ins = "group_sum" + ("_counts" if counted else "s")
        stand_ins = stand_ins if entries else stand_ins.replace("group_", "group_val_")
    return ir.RtCall(stand_ins, (*coll.args, *plucked), coll.span), subs


def _summing(name: str, args: tuple[ir.Node, ...]) -> tuple[str, ir.Node] | None:
    """The helper folding a column and the pluck it folds, for `(reduce + pluck)`
    (`rt_sum_column`), `(reduce + 0 pluck)` (`rt_reduce0_column`) and `(apply + pluck)`
    (`rt_apply_sum_column`); else None."""
    if not args or args[0] != ir.BuiltinRef("+"):
        return None
    if name == "reduce" and len(args) == 2:
        return "sum_column", args[1]
    if name == "reduce" and len(args) == 3:
        zero = args[1]
        if type(zero) is ir.Const and type(zero.value) is int and zero.value == 0:
            return "reduce0_column", args[2]
    if name == "apply" and len(args) == 2:
        return "apply_sum_column", args[1]
    return None


#: The folds of a column that a group's sum may stand in for (`_summed_only`).
SUMMED_FOLDS = frozenset({"sum_column", "reduce0_column", "apply_sum_column", "sum_by_column"})


@gated("group-sums", lambda fields: False, lambda r, fields: r is True)
def _summed_only(
    fields: dict[ir.ConstValue, tuple[ir.Node, ir.Const, str | None, ir.Call]],
) -> bool:
    """The group is read only as `(reduce + (map :f vs))` of one keyword field (or `(reduce
    + 0 ..)`, `(apply + ..)`, `(sum-by :f vs)`; no read by a fn, which takes steps) and
    perhaps counted: its column serves that fold alone, so the grouping may hand out the
    sum in its place (`rt_group_sums`; with the count, `rt_group_sum_counts`:
    `fast.group_sums`)."""
    if len(fields) != 1:
        return False
    ((_, key, fold, read),) = fields.values()
    return fold in SUMMED_FOLDS and type(key.value) is Keyword and type(read.args[0]) is ir.Const


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
