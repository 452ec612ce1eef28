"""A collecting loop that formats fields of its element as one call: `(map (fn [x] (str
"id-" (:id x) ": " (:name x))) coll)`, also `mapv` and a one-binding `for`, becomes
`FUEL, t = rt_map_str_fields(coll, 'id-%s: %s', line, column, FUEL, CREDIT, k1, k2)`
(`ptc_runtime.fast.fieldformat`): the same vector, errors and steps as the loop. The element
may be destructured by `{:keys [...]}` (`(fn [{:keys [id name]}] (str id ": " name))`):
`rt_map_str_fields_ds` then also makes the pattern's check.

`map`/`mapv` with a literal fn reach the `for` lowering as a `for` (`rules_sequences.
inline_hof`), so the rule looks at `ir.For` only.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, TypeGuard

from ptc_compiler import ir
from ptc_compiler.forms import Span
from ptc_compiler.lower.ctx import CREDIT, FUEL, STORE, Lowered, at, helper, load, store
from ptc_runtime.fast.fieldformat import MAX_FIELDS
from ptc_runtime.fastops import STR_FORMAT_LITERAL, STR_FORMAT_PARTS
from ptc_runtime.values import Keyword

if TYPE_CHECKING:
    from ptc_compiler.lower.emit import Emitter


def map_str_fields(e: Emitter, node: ir.For) -> Lowered | None:
    """`(for [x coll] (str ...))` (and the `map` loops) whose `str` parts are string
    literals and field reads of `x` (see `format_shape`) as one `rt_map_str_fields` call
    (`rt_map_str_fields_ds` when `x` is destructured by a map pattern first), else None.

    The call takes the fuel chunk and hands back the one to go on with, so it is a
    statement `FUEL, t = ...`, stamped where the loop is (an element's step fails
    there); the positions of the `str` call and of the pattern are passed along for the
    errors of `str` and of the pattern's check. The collection is evaluated before
    `FUEL` is read, as the loop evaluates it.
    """
    shape = format_shape(node)
    if shape is None:
        return None
    fmt, keys, text_span, pattern_span = shape
    bind = node.clauses[0]
    assert type(bind) is ir.ForBind  # `format_shape` checked it
    saved = e.cx.recur
    e.cx.recur = None  # as `Emitter.for_` lowers the collection
    try:
        low = e.expr(bind.coll)
    finally:
        e.cx.recur = saved
    t = e.cx.fresh()
    args: list[ast.expr] = [low.expr, ast.Constant(fmt), *position(text_span)]
    if pattern_span is not None:
        args += position(pattern_span)
    args += [load(FUEL), load(CREDIT), *[e.const(k) for k in keys]]
    name = "map_str_fields" if pattern_span is None else "map_str_fields_ds"
    stmt = ast.Assign([ast.Tuple([store(FUEL), store(t)], STORE)], helper(name, *args))
    return Lowered((*low.stmts, at(bind.span, stmt)), load(t))  # type: ignore[arg-type]


def position(span: Span) -> list[ast.expr]:
    """The line and column `executor.locate` gives an error raised at a node stamped with
    `span` (see `ctx.at`)."""
    return [ast.Constant(span.line), ast.Constant(span.col if span.col > 0 else 1)]


def format_shape(node: ir.For) -> tuple[str, tuple[Keyword, ...], Span, Span | None] | None:
    """The `%` format, the keywords read, and the positions of the `str` call and of the
    element's map pattern (None without one) of a collecting one-binding `for` whose
    body is `(str part ...)`, each part a string literal (at most `STR_FORMAT_LITERAL`
    characters) or one of one to `MAX_FIELDS` reads of the element `x`: `(:k x)`,
    `(get x :k)`, or a name a map pattern `{:keys [k ...]}` binds (`(fn [{:keys [k]}]
    ...)`, `(for [{:keys [k]} coll] ...)`, `(let [{:keys [k]} x] ...)`). Else None.

    The format is the literals with `%` doubled and `%s` for each read, as
    `rules_operators.str_format` makes it. Such reads cannot fail and have no effects,
    which lets the runtime make the texts apart from the elements' steps; the pattern's
    check (a map or nil) is made by the runtime where it fails. The `str` call and the
    pattern must carry positions (their errors are stamped with them).
    """
    if not node.collect or not 1 <= len(node.clauses) <= 2:
        return None
    bind, *more = node.clauses
    if type(bind) is not ir.ForBind:
        return None
    body = node.body
    bindings: tuple[tuple[str, ir.Node], ...] = ()
    if more:
        if type(more[0]) is not ir.ForLet:
            return None
        bindings = more[0].bindings
    elif type(body) is ir.Let:
        bindings, body = body.bindings, body.body
    names: dict[str, Keyword] = {}  # locals the pattern binds -> their keys
    pattern_span = None
    if bindings:
        pattern_span = _pattern(bindings, bind.ident, names)
        if pattern_span is None:
            return None
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
        k = names.get(a.ident) if type(a) is ir.Local else field_read(a, bind.ident)
        if k is None:
            return None
        fmt.append("%s")
        keys.append(k)
    if not 1 <= len(keys) <= MAX_FIELDS:
        return None
    return "".join(fmt), tuple(keys), body.span, pattern_span


def _pattern(
    bindings: tuple[tuple[str, ir.Node], ...], param: str, names: dict[str, Keyword]
) -> Span | None:
    """The position of a map pattern's check when `bindings` destructure `param` by
    `{:keys [k ...]}` and nothing else (`(m (ds_check_map param)) (k (ds_get m :k)) ...`,
    keyword keys, perhaps `:as`; no `:or` or nested pattern), filling `names`; else None.
    """
    (m, check), *reads = bindings
    if not (_call_on(check, "ds_check_map", 1, param) and check.span.line > 0):
        return None
    for ident, value in reads:
        if type(value) is ir.Local and value.ident == m:
            continue  # `:as p`: the map itself, which no part reads (it is no field)
        if not (_call_on(value, "ds_get", 2, m) and type(value.args[1]) is ir.Const):
            return None
        k = value.args[1].value
        if type(k) is not Keyword:
            return None
        names[ident] = k
    return check.span


def _call_on(node: ir.Node, helper: str, arity: int, ident: str) -> TypeGuard[ir.RtCall]:
    """Whether `node` calls the runtime's `helper` with `arity` arguments, the first the
    local `ident`."""
    return (
        type(node) is ir.RtCall
        and node.helper == helper
        and len(node.args) == arity
        and type(node.args[0]) is ir.Local
        and node.args[0].ident == ident
    )


def field_read(node: ir.Node, param: str) -> Keyword | None:
    """The keyword `k` when `node` is `(:k param)` or `(get param :k)` (a name with `-`
    too: such a read is flexible, as the loop's `rt_kdash`, and cannot fail either)."""
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
    if type(k) is Keyword and type(m) is ir.Local and m.ident == param:
        return k
    return None
