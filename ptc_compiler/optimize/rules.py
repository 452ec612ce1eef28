"""The declared optimiser rules: what each rewrites, its shape, what it must agree with.

Declaration order is the order rules are tried in at one head. `call` and `args` rules
carry their lowering here (`Emitter.call` tries them, then lowers the call generally);
`site` rules are consulted by the general lowering where it meets their form, or by
another rule, through `registry.on` or a `registry.gated` function in the rule's module;
`ir` rules rewrite the program before lowering (`optimize.run`).

Every rule's result must equal what the general lowering gives for the same program
(value, error with its position, output, step count): the rule's `agrees_with` names the
runtime function that defines it, and `tests/test_fast_paths_differential.py` checks
the whole set against `compile(..., optimize=False)`.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from ptc_compiler import ir
from ptc_compiler.lower.ctx import Lowered, assign, at, helper, load
from ptc_compiler.optimize import (
    rules_grouping,
    rules_operators,
    rules_paths,
    rules_reduce,
    rules_sequences,
)
from ptc_compiler.optimize.registry import Rule, declare
from ptc_runtime.values import Keyword

if TYPE_CHECKING:
    from ptc_compiler.lower.emit import Emitter

# ---------------------------------------------------------------------- ir rules
# (node) -> ir.Node | None: a rewrite of the node, before lowering.


def _read_chain(node: object) -> ir.Node | None:
    """`(:c (:b (:a m)))` as `(get-in m [:a :b :c])` (`rules_paths.read_chain`)."""
    if type(node) is not ir.Call:
        return None
    chain = rules_paths.read_chain(node)
    if chain is None:
        return None
    base, keys = chain
    span = node.span
    return ir.Call(ir.BuiltinRef("get-in", span), (base, ir.VectorLit(tuple(keys), span)), span)


# ---------------------------------------------------------------------- call rules
# (e, node) -> Lowered | None, before the call's arguments are lowered.


def _hoist_read(e: Emitter, node: ir.Call) -> Lowered | None:
    """A read with constant keys of a loop-invariant local, moved before the loop."""
    fn, args = node.fn, node.args
    if isinstance(fn, ir.Const):  # (:k m) / (:k m default)
        if 1 <= len(args) <= 2 and (len(args) == 1 or type(args[1]) is ir.Const):
            hoisted = rules_paths.hoist(e, args[0], (fn,), node.span, *args[1:])
            return None if hoisted is None else Lowered((), hoisted)
        return None
    assert isinstance(fn, ir.BuiltinRef)
    if fn.name == "get" and 2 <= len(args) <= 3 and rules_paths.const_args(args[1:]):
        hoisted = rules_paths.hoist(e, args[0], args[1:2], node.span, *args[2:])
        return None if hoisted is None else Lowered((), hoisted)
    if fn.name == "get-in" and len(args) == 3 and rules_paths.const_args(args[2:]):
        keys = args[1]
        if (
            isinstance(keys, ir.VectorLit)
            and 2 <= len(keys.items) <= rules_paths.PATH_UNROLLED
            and rules_paths.const_args(keys.items)
        ):
            hoisted = rules_paths.hoist(e, args[0], keys.items, node.span, args[2])
            return None if hoisted is None else Lowered((), hoisted)
    return None


def _field_filter(e: Emitter, node: ir.Call) -> Lowered | None:
    assert isinstance(node.fn, ir.BuiltinRef)
    return rules_sequences.field_filter(e, node.fn.name, node)


def _inline_hof(e: Emitter, node: ir.Call) -> Lowered | None:
    assert isinstance(node.fn, ir.BuiltinRef)
    loop = rules_sequences.inline_hof(e, node.fn.name, node)
    return None if loop is None else e.via_statements(loop)


def _linear_reduce(e: Emitter, node: ir.Call) -> Lowered | None:
    return rules_reduce.linear_reduce(e, node) if len(node.args) == 3 else None


def _take_sorted(e: Emitter, node: ir.Call) -> Lowered | None:
    if len(node.args) != 2:
        return None
    return rules_sequences.take_sorted(e, node.args[0], node.args[1])


def _group_counts(e: Emitter, node: ir.Call) -> Lowered | None:
    if len(node.args) != 2:
        return None
    counts = rules_grouping.group_counts(node.args[0], node.args[1])
    if counts is None:
        return None
    # a statement at the group-by: its errors' position
    by_key, t = e.expr(counts), e.cx.fresh()
    stmt = at(counts.span, assign(t, by_key.expr))
    # then the `count` calls it stands for, charged at the update-vals
    charged = at(node.span, assign(t, helper("counted_groups", load(t))))
    return Lowered((*by_key.stmts, stmt, charged), load(t))  # type: ignore[arg-type]


def _frequencies_of_mapcat(e: Emitter, node: ir.Call) -> Lowered | None:
    if len(node.args) != 1:
        return None
    return rules_sequences.frequencies_of_mapcat(e, node.args[0])


# ---------------------------------------------------------------------- args rules
# (e, node, exprs) -> ast.expr | None, given the call's lowered arguments.


def _keyword_read(e: Emitter, node: ir.Call, exprs: list[ast.expr]) -> ast.expr | None:
    fn = node.fn
    if isinstance(fn, ir.Const):
        assert isinstance(fn.value, Keyword)
        if 1 <= len(exprs) <= 2:
            return rules_paths.keyword_read(e, fn.value, exprs[0], exprs[1:])
        return None
    key = node.args[1] if len(node.args) >= 2 else None
    if 2 <= len(exprs) <= 3 and isinstance(key, ir.Const) and isinstance(key.value, Keyword):
        return rules_paths.keyword_read(e, key.value, exprs[0], exprs[2:])
    return None


def _get_path(e: Emitter, node: ir.Call, exprs: list[ast.expr]) -> ast.expr | None:
    if len(exprs) != 2:
        return None
    return rules_paths.path_read(exprs[0], node.args[1:], exprs[1:])


def _get_in_literal(e: Emitter, node: ir.Call, exprs: list[ast.expr]) -> ast.expr | None:
    keys = node.args[1] if len(node.args) >= 2 else None
    if not isinstance(keys, ir.VectorLit) or not isinstance(exprs[1], ast.List):
        return None
    path = exprs[1]
    if len(exprs) == 2:
        return rules_paths.literal_path(e, exprs[0], keys.items, path.elts, node.args[0], node.span)
    if len(exprs) == 3 and 2 <= len(keys.items) <= rules_paths.PATH_UNROLLED:
        # `lookup.get_path_or2` ..: levels that stop at a missing key with the default,
        # passed last: evaluated after the keys, as the builtin's argument
        read = rules_paths.path_read(exprs[0], keys.items, path.elts)
        read.func = load(f"rt_get_path_or{len(keys.items)}")
        read.args.append(exprs[2])
        return read
    return None


def _inline_operator(e: Emitter, node: ir.Call, exprs: list[ast.expr]) -> ast.expr | None:
    assert isinstance(node.fn, ir.BuiltinRef)
    return rules_operators.inline(e, node.fn.name, node.args, exprs)


def _str_format(e: Emitter, node: ir.Call, exprs: list[ast.expr]) -> ast.expr | None:
    return rules_operators.str_format(node.args, exprs)


def _same_type_arith(e: Emitter, node: ir.Call, exprs: list[ast.expr]) -> ast.expr | None:
    from ptc_runtime.fastops import FAST_CALLS

    assert isinstance(node.fn, ir.BuiltinRef)
    fast = FAST_CALLS.get(node.fn.name)
    if not e.cx.numeric or fast is None or fast[0] != len(exprs):
        return None
    op = rules_operators.ARITH[node.fn.name]
    return rules_operators.same_type_arith(e, op, fast[1], exprs)


# ---------------------------------------------------------------------- the table

OPERATORS: tuple[str, ...] = ("=", "==", "not=", "+", "-", "*", "inc", "dec", "<", ">", "<=")
OPERATORS += (">=", "zero?", "pos?", "neg?")

declare(Rule(
    "read-chain", "keyword call, get", "(:c (:b (:a m))), (get (get m k1) k2), (-> m :a :b): "
    "two or more constant keys, no default", ("get-in",), "ir", (), _read_chain,
))
declare(Rule(
    "loop-invariant-read", "keyword call, get, get-in",
    "a read with constant keys of a local bound outside the enclosing loop or fn",
    ("get", "get-in"), "call", (":keyword", "get", "get-in"),
    _hoist_read,
))
declare(Rule(
    "field-filter", "filter, filterv, remove", "(filter #(= (:k %) literal) coll)",
    ("filter", "filterv", "remove"), "call", ("filter", "filterv", "remove"),
    _field_filter,
))
declare(Rule(
    "inline-hof", "map, mapv, filter, filterv, remove",
    "a one-parameter literal fn over a collection: a for loop",
    ("map", "mapv", "filter", "filterv", "remove"), "call",
    tuple(sorted(rules_sequences.INLINE_HOF)), _inline_hof,
))
declare(Rule(
    "linear-reduce", "reduce", "(reduce (fn [acc x] ...) init coll) whose acc is used linearly",
    ("reduce",), "call", ("reduce",), _linear_reduce,
))
declare(Rule(
    "take-sorted", "take", "(take n (sort ...)), (take n (sort-by ...))",
    ("sort", "sort-by", "take"), "call", ("take",), _take_sorted,
))
declare(Rule(
    "group-counts", "update-vals", "(update-vals (group-by kf xs) count)",
    ("group-by", "update-vals", "count"), "call", ("update-vals",),
    _group_counts,
))
declare(Rule(
    "frequencies-of-mapcat", "frequencies", "(frequencies (mapcat f coll))",
    ("frequencies", "mapcat"), "call", ("frequencies",),
    _frequencies_of_mapcat,
))
declare(Rule(
    "keyword-read", "keyword call, get", "(:k m [default]), (get m :k [default])",
    ("get",), "args", (":keyword", "get"), _keyword_read,
))
declare(Rule(
    "get-path", "get", "(get m k), any other key: one level of a path",
    ("get-in",), "args", ("get",), _get_path,
))
declare(Rule(
    "get-in-literal", "get-in", "(get-in m [k1 k2 ...] [default]) with a literal path vector",
    ("get-in",), "args", ("get-in",), _get_in_literal,
))
declare(Rule(
    "inline-operators", "arithmetic, comparison, equality",
    "operands known numeric (or one side of = a literal string, keyword, nil or boolean)",
    OPERATORS, "args", OPERATORS,
    _inline_operator,
))
declare(Rule(
    "str-format", "str", "(str ...) with literal parts: one format",
    ("str",), "args", ("str",), _str_format,
))
declare(Rule(
    "same-type-arith", "+, -", "in a fn's numeric version: same-type operands inline",
    ("+", "-"), "args", tuple(rules_operators.ARITH), _same_type_arith,
))
# site rules: consulted where the general lowering meets their form, or by another rule
declare(Rule(
    "group-by-field", "group-by", "a group-by told the one field its groups are plucked for",
    ("group-by", "map", "count"), "site",
))
declare(Rule(
    "group-columns", "group-by, for", "groups read only by count and plucks: columns, no groups",
    ("group-by", "map", "count"), "site",
))
declare(Rule(
    "group-sums", "group-by, reduce +", "groups read only as sums of one field",
    ("group-by", "reduce", "+"), "site",
))
declare(Rule(
    "filter-groups", "group-by of filter", "a group-by the one reader of a field filter",
    ("group-by", "filter"), "site",
))
declare(Rule(
    "map-path", "map, for", "(map #(get-in % [..]) coll) and element field paths",
    ("get-in",), "site",
))
declare(Rule(
    "map-str-fields", "map, for", "(map #(str (:a %) \",\" (:b %)) coll)",
    ("str",), "site",
))
declare(Rule(
    "keyword-getter", "keyword call", "three or more constant keyword reads of a loop element "
    "or parameter: one getter chosen per element", ("get",), "site",
))
declare(Rule(
    "update-fields", "reduce", "a linear reduce whose body updates fields of its accumulator",
    ("update-in", "update", "assoc"), "site",
))
declare(Rule(
    "assoc-fields", "reduce", "(reduce (fn [m x] (assoc m (:k x) (:v x))) init coll): one call",
    ("assoc",), "site",
))
declare(Rule(
    "linear-loop", "loop, recur", "a loop binding threaded through every recur as "
    "(-> st (update-in ..) (assoc-in ..) ..), otherwise only read: updated in place",
    ("assoc", "update", "assoc-in", "update-in"), "site",
))
declare(Rule(
    "fast-update-fn", "update, update-in", "the update fn inc, dec, + n ... called directly",
    ("update", "update-in"), "site",
))

