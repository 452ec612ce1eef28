"""A collecting loop that formats fields of its element as one call: `(map (fn [x] (str
"id-" (:id x) ": " (:name x))) coll)`, also `mapv` and a one-binding `for`, becomes
`FUEL, t = rt_map_str_fields(coll, 'id-%s: %s', line, column, FUEL, CREDIT, k1, k2)`
(`ptc_runtime.fieldformat`): the same vector, errors and steps as the loop.

`map`/`mapv` with a literal fn reach the `for` lowering as a `for` (`rules_sequences.
inline_hof`), so the rule looks at `ir.For` only.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from ptc_compiler import ir
from ptc_compiler.lower.ctx import CREDIT, FUEL, STORE, Lowered, at, helper, load, store
from ptc_compiler.lower.rules_sequences import field_read
from ptc_runtime.fastops import STR_FORMAT_LITERAL, STR_FORMAT_PARTS
from ptc_runtime.fieldformat import MAX_FIELDS
from ptc_runtime.values import Keyword

if TYPE_CHECKING:
    from ptc_compiler.lower.emit import Emitter


def map_str_fields(e: Emitter, node: ir.For) -> Lowered | None:
    """`(for [x coll] (str ...))` (and the `map` loops) whose `str` parts are string
    literals and field reads of `x` (see `str_fields`) as one `rt_map_str_fields` call,
    else None.

    The call takes the fuel chunk and hands back the one to go on with, so it is a
    statement `FUEL, t = ...`, stamped where the loop is (an element's step fails
    there); the `str` call's position is passed along for the errors of `str` itself.
    The collection is evaluated before `FUEL` is read, as the loop evaluates it.
    """
    if not node.collect or len(node.clauses) != 1:
        return None
    bind = node.clauses[0]
    if type(bind) is not ir.ForBind:
        return None
    parts = str_fields(node.body, bind.ident)
    if parts is None:
        return None
    fmt, keys = parts
    span = node.body.span
    saved = e.cx.recur
    e.cx.recur = None  # as `Emitter.for_` lowers the collection
    try:
        low = e.expr(bind.coll)
    finally:
        e.cx.recur = saved
    t = e.cx.fresh()
    value = helper(
        "map_str_fields",
        low.expr,
        ast.Constant(fmt),
        ast.Constant(span.line),
        ast.Constant(span.col if span.col > 0 else 1),  # as `executor.locate` reads it
        load(FUEL),
        load(CREDIT),
        *[e.const(k) for k in keys],
    )
    stmt = ast.Assign([ast.Tuple([store(FUEL), store(t)], STORE)], value)
    return Lowered((*low.stmts, at(bind.span, stmt)), load(t))  # type: ignore[arg-type]


def str_fields(body: ir.Node, param: str) -> tuple[str, tuple[Keyword, ...]] | None:
    """`(str part ...)` whose parts are string literals (at most `STR_FORMAT_LITERAL`
    characters) and one to `MAX_FIELDS` reads `(:k param)`/`(get param :k)` (keywords
    without `-`): its `%` format (the literals with `%` doubled, `%s` for each read, as
    `rules_operators.str_format` makes it) and the keywords in order; else None.

    Such reads cannot fail and have no effects, which lets the runtime make the texts
    apart from the elements' steps. The `str` call must carry a position (its errors are
    stamped with it).
    """
    if not (
        type(body) is ir.Call
        and type(body.fn) is ir.BuiltinRef
        and body.fn.name == "str"
        and 1 <= len(body.args) <= STR_FORMAT_PARTS
        and body.span.line > 0
    ):
        return None
    fmt: list[str] = []
    keys: list[Keyword] = []
    for a in body.args:
        if type(a) is ir.Const and type(a.value) is str and len(a.value) <= STR_FORMAT_LITERAL:
            fmt.append(a.value.replace("%", "%%"))
            continue
        k = field_read(a, param)
        if k is None:
            return None
        fmt.append("%s")
        keys.append(k)
    if not 1 <= len(keys) <= MAX_FIELDS:
        return None
    return "".join(fmt), tuple(keys)
