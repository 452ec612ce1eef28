"""`(map (fn [x] (get-in m [k (:f x) ...])) coll)` as one runtime call (`rt_map_path`).

Also `mapv`, `#(...)`, a one-binding `for` and `(get m (:f x))`: a loop whose body reads
a path out of a local `m` that is not the element, each key a constant or a field read of
the element. The loop's element steps and the reads run in `ptc_runtime.fast.pathmap`, which
memoizes the reads by the elements' field values (see there for why that is exact).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from ptc_compiler import ir
from ptc_compiler.lower.ctx import CREDIT, FUEL, LOAD, STORE, Lowered, at, helper, load, store
from ptc_runtime.values import Keyword

if TYPE_CHECKING:
    from ptc_compiler.lower.emit import Emitter

#: Constant keys a path may hold (hashable values a literal can be).
_KEY_TYPES = (str, Keyword, int, float, bool, type(None))

#: A field read of the element: its key (a keyword or string constant), or `ELEMENT`.
Field = Keyword | str


class _Element:
    """The element itself as a key of the path (`(get m x)`)."""

    __slots__ = ()


#: The element itself as a key of the path: its field key is None (`pathmap`).
ELEMENT = _Element()


def map_path(e: Emitter, node: ir.For) -> Lowered | None:
    """The lowering of a collecting one-binding `for` (what `map`/`mapv` with a literal
    fn become) whose body is such a path read (`path_read`), or None.

    `FUEL, t = rt_map_path(m, coll, path, slots, fields, names, FUEL, CREDIT)`, positioned
    at the binding (where the loop's element steps and `coll`'s error are placed); the
    collection is evaluated before `FUEL` is read, as the loop does.
    """
    if not node.collect or len(node.clauses) != 1:
        return None
    bind = node.clauses[0]
    if type(bind) is not ir.ForBind:
        return None
    read = path_read(node.body, bind.ident)
    if read is None:
        return None
    base, keys = read
    low = e.expr(bind.coll)
    path: list[ast.expr] = []
    slots: list[ast.expr] = []
    fields: list[ast.expr] = []
    names: list[ast.expr] = []
    for i, k in enumerate(keys):
        if isinstance(k, ir.Const):
            path.append(e.const(k.value))
            continue
        path.append(ast.Constant(None))
        slots.append(ast.Constant(i))
        if isinstance(k, _Element):
            fields.append(ast.Constant(None))
            names.append(ast.Constant(""))
            continue
        fields.append(e.const(k))
        names.append(ast.Constant(k.name if isinstance(k, Keyword) else k))
    t = e.cx.fresh()
    value = helper(
        "map_path",
        load(base),
        low.expr,
        ast.Tuple(path, LOAD),
        ast.Tuple(slots, LOAD),
        ast.Tuple(fields, LOAD),
        ast.Tuple(names, LOAD),
        load(FUEL),
        load(CREDIT),
    )
    stmt = ast.Assign([ast.Tuple([store(FUEL), store(t)], STORE)], value)
    return Lowered((*low.stmts, at(bind.span, stmt)), load(t))  # type: ignore[arg-type]


def path_read(body: ir.Node, param: str) -> tuple[str, list[ir.Const | Field | _Element]] | None:
    """`(get-in m [k ...])` (no default), `(get m k)`, or a chain of such reads and
    keyword calls (`(:name (get m (:id x)))`, `(-> m (get (:id x)) :name)`: a read of
    the path of their keys in order), in a loop over `param`: the local `m` (not
    `param`) and the keys, each a constant (`ir.Const`), the key of a field read of
    `param` (`element_field`) or `param` itself (`ELEMENT`), at least one of those two;
    None for anything else."""
    items: list[ir.Node] = []
    node = body
    while type(node) is ir.Call:  # from the last read in
        fn, args = node.fn, node.args
        if type(fn) is ir.Const and type(fn.value) is Keyword and len(args) == 1:
            items[:0] = (fn,)
        elif type(fn) is ir.BuiltinRef and fn.name == "get" and len(args) == 2:
            items[:0] = args[1:]
        elif (
            type(fn) is ir.BuiltinRef
            and fn.name == "get-in"
            and len(args) == 2
            and type(args[1]) is ir.VectorLit
        ):
            items[:0] = args[1].items
        else:
            break
        node = args[0]
    if type(node) is not ir.Local or node.ident == param or not items:
        return None
    keys: list[ir.Const | Field | _Element] = []
    for item in items:
        if type(item) is ir.Const and type(item.value) in _KEY_TYPES:
            keys.append(item)
            continue
        if type(item) is ir.Local and item.ident == param:
            keys.append(ELEMENT)  # `(get m x)`: the element is the key
            continue
        f = element_field(item, param)
        if f is None:
            return None
        keys.append(f)
    if all(type(k) is ir.Const for k in keys):
        return None  # no field: nothing varies with the element
    return node.ident, keys


def element_field(node: ir.Node, param: str) -> Field | None:
    """The key `k` when `node` is `(:k param)` or `(get param k)` for a constant keyword
    or string `k` (a read that cannot fail), else None."""
    if type(node) is not ir.Call or not node.args:
        return None
    fn, args = node.fn, node.args
    k: ir.ConstValue
    if type(fn) is ir.Const and type(fn.value) is Keyword and len(args) == 1:
        k, m = fn.value, args[0]
    elif type(fn) is ir.BuiltinRef and fn.name == "get" and len(args) == 2:
        m, key = args
        if type(key) is not ir.Const:
            return None
        k = key.value
    else:
        return None
    if isinstance(k, Keyword | str) and type(m) is ir.Local and m.ident == param:
        return k
    return None
