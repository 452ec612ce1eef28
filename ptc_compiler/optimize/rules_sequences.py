"""Fast paths for sequence builtins: `map`/`filter`/`remove` with a literal fn as a loop,
field filters (`rt_filter_field`), `(take n (sort ...))` and `(frequencies (mapcat ...))`
as one call each.

The functions taking the `Emitter` return the lowering of their shape, or None when it
does not apply (the `Emitter` then takes the general path); the others recognize shapes.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from ptc_compiler import ir
from ptc_compiler.lower.ctx import (
    CREDIT,
    FUEL,
    STORE,
    Lowered,
    assign,
    at,
    helper,
    load,
    store,
)
from ptc_compiler.optimize import rules_format, rules_grouping
from ptc_compiler.optimize.registry import gated
from ptc_runtime.values import Keyword

if TYPE_CHECKING:
    from ptc_compiler.lower.emit import Emitter


def inline_hof(e: Emitter, name: str, node: ir.Call) -> ir.For | None:
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
    if len(arity.params) != 1 or arity.rest is not None or e.recurs(arity):
        return None
    x = arity.params[0]
    if name in ("map", "mapv"):
        # the element's step is charged where the general lowering charges it: at the
        # fn's entry, so a budget running out there is reported at the fn
        body, span = arity.body, fn.span
        columns = rules_grouping.group_columns(coll, x, body)
        if columns is not None:
            coll, body = columns
        else:
            coll = rules_grouping.group_by_field(coll, x, body)
        return ir.For((ir.ForBind(x, _seq_of(name, coll, node), span),), body, True, node.span)
    bind = ir.ForBind(x, _seq_of(name, coll, node), fn.span)
    test = arity.body
    if name == "remove":
        test = ir.Call(ir.BuiltinRef("not", test.span), (test,), test.span)
    return ir.For((bind, ir.ForWhen(test, test.span)), ir.Local(x, node.span), True, node.span)


def _seq_of(name: str, coll: ir.Node, node: ir.Call) -> ir.Node:
    """The collection as builtin `name` sees it: not one, it fails there, named as the
    builtin and at its call (the loop over it then never fails to iterate)."""
    who = ir.Const(ERROR_NAME.get(name, name), node.span)
    return ir.RtCall("seq_of", (coll, who), node.span)


#: The name a sequence builtin's errors give it (`mapv` fails as `map` does).
ERROR_NAME = {"mapv": "map", "filterv": "filter"}


def field_filter(
    e: Emitter,
    name: str,
    node: ir.Call,
    grouping: tuple[Keyword, ...] = (),
    fused: str = "filter_groups",
) -> Lowered | None:
    """`(filter #(= (:k %) "lit") coll)` and its variants (see `field_test`) as one
    `rt_filter_field` call (`ptc_runtime.fieldfilter`): the same elements and steps.
    With `grouping` (`filter_groups`: a key and fields), the helper `fused` with them.

    The call takes the fuel chunk and hands back the one to go on with, so it is a
    statement `FUEL, t = ...`, positioned where the builtin's element step would fail
    (at the test fn); the collection is evaluated (and checked, at the call) before
    `FUEL` is read.
    """
    parts = field_test(name, node)
    if parts is None:
        return None
    k, lit, keep_equal, coll = parts
    if grouping and type(lit) is not str:
        return None
    low = e.expr(coll)
    # the collection as the builtin sees it, failing at the call as the builtin does
    items, t = e.cx.fresh(), e.cx.fresh()
    who = ast.Constant(ERROR_NAME.get(name, name))
    seq = at(node.span, assign(items, helper("seq_of", low.expr, who)))
    value = helper(
        fused if grouping else "filter_field",
        load(items),
        e.const(k),
        ast.Constant(k.name),
        e.const(lit),
        ast.Constant(keep_equal),
        load(FUEL),
        load(CREDIT),
        *(e.const(g) for g in grouping),
    )
    stmt = ast.Assign([ast.Tuple([store(FUEL), store(t)], STORE)], value)
    # an element's step fails where the builtin charges it: at the test fn's entry
    step_span = node.args[0].span
    return Lowered((*low.stmts, seq, at(step_span, stmt)), load(t))  # type: ignore[arg-type]


def filter_groups(e: Emitter, n: ir.RtCall) -> Lowered | None:
    """`rt_group_columns(:k, xs, :v)` (also `rt_group_vals`, `rt_group_counts`; at most
    one field) whose collection `xs` is a field filter with a string literal: the filter
    as `rt_filter_groups(..., :k, :v)` (`fast.filtered_groups`), which may group
    the kept maps in its own pass and hand on the stand-ins in place of the vector
    (`rt_filter_sums` for `rt_group_sums`/`rt_group_val_sums`: the groups' sums;
    `rt_filter_sum_counts` with their counts too). The
    helper is the vector's one reader (it is an argument of that call only), and both
    statements keep their positions (the filter's at its collection, the helper's at
    the group-by). None for any other call."""
    if n.helper not in FILTERED_GROUPS or len(n.args) > 3:
        return None
    keyfn, xs, *fields = n.args
    keys: list[Keyword] = []
    for g in (keyfn, *fields):
        if type(g) is not ir.Const or type(g.value) is not Keyword:
            return None
        keys.append(g.value)
    if not (type(xs) is ir.Call and type(xs.fn) is ir.BuiltinRef):
        return None
    fused = SUMMED_GROUPS.get(n.helper, "filter_groups")
    low = field_filter(e, xs.fn.name, xs, tuple(keys), fused)
    if low is None:
        return None
    return Lowered(low.stmts, helper(n.helper, e.const(keys[0]), low.expr, *map(e.const, keys[1:])))


#: The group-by helpers without groups (`rules_grouping`) whose vector a field filter may
#: group as it filters (`filter_groups`); those summing each group, with the filter
#: helper that sums as it filters.
SUMMED_GROUPS = {
    "group_sums": "filter_sums",
    "group_val_sums": "filter_sums",
    "group_sum_counts": "filter_sum_counts",
    "group_val_sum_counts": "filter_sum_counts",
}
FILTERED_GROUPS = frozenset({"group_columns", "group_vals", "group_counts", *SUMMED_GROUPS})


def take_sorted(e: Emitter, n: ir.Node, coll: ir.Node) -> Lowered | None:
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
    stmts, exprs = e.many(coll.args)
    t = e.cx.fresh()
    value = at(coll.span, helper(fused, ast.Constant(n.value), *exprs))
    return Lowered((*stmts, at(coll.span, assign(t, value))), load(t))  # type: ignore[arg-type]


def frequencies_of_mapcat(e: Emitter, coll: ir.Node) -> Lowered | None:
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
    stmts, exprs = e.many(coll.args)
    t = e.cx.fresh()
    value = at(coll.span, helper("frequencies_mapcat", *exprs))
    return Lowered((*stmts, at(coll.span, assign(t, value))), load(t))  # type: ignore[arg-type]


#: `(take n (<sort> args...))` by the sort's name and argument count: the helper that
#: finds only the first n (see `take_sorted`).
TAKE_SORTED: dict[tuple[str, int], str] = {
    ("sort", 1): "take_sort",
    ("sort", 2): "take_sort",
    ("sort-by", 2): "take_sort_by",
    ("sort-by", 3): "take_sort_by",
}


#: Higher-order builtins whose literal one-parameter fn argument compiles to a loop.
INLINE_HOF = frozenset({"map", "mapv", "filter", "filterv", "remove"})


@gated("field-filter", lambda name, node: None, lambda result, name, node: False)
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
        k = field_read(read, arity.params[0])
        if k is not None:
            keep_equal = (test.fn.name == "=") is (name != "remove")
            return k, v, keep_equal, coll
    return None


def field_read(node: ir.Node, param: str) -> Keyword | None:
    """The keyword `k` when `node` is `(:k param)` or `(get param :k)`, `k` without `-`
    (`rules_format.field_read`, which takes a name with `-` too)."""
    k = rules_format.field_read(node, param)
    return k if k is not None and "-" not in k.name else None
