"""Higher-order sequence builtins: `mapv mapcat map-indexed filterv remove
keep keep-indexed reduce-kv some every? not-any? not-every? tree-seq`.

All are eager and return vectors. Function arguments may be any PTC callable (`as_fn`);
`map`/`mapv`/`mapcat` take any number of collections. `tree-seq` is the
one builtin whose output is not bounded by its input, so it counts the nodes it visits.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Final

from ptc_runtime.builtins import sequences
from ptc_runtime.builtins.registry import BuiltinSpec, declare
from ptc_runtime.collections import PMap, PVec, from_key, kind_name, seq_items
from ptc_runtime.context import current
from ptc_runtime.errors import PtcError
from ptc_runtime.metered import metered_fn

DECLS: list[BuiltinSpec] = []

#: The most nodes `tree-seq`, `prewalk` and `postwalk` visit before failing.
MAX_NODES: Final = 10_000_000
#: How often (in nodes) they charge the step budget and check the deadline.
WORK_CHUNK: Final = 1_000


declare(
    DECLS,
    "mapv",
    variadic_min=2,
    doc="Vector of (f x) for each x; several colls are zipped.",
)(sequences.map_)
declare(
    DECLS,
    "filterv",
    arities=(2,),
    doc="Vector of the items for which (pred x) is truthy.",
)(sequences.filter_)


@declare(
    DECLS,
    "mapcat",
    variadic_min=2,
    doc="Concatenation of the collections (f x) returns; several colls are zipped.",
)
def mapcat(f: object, coll: object, *colls: object) -> list[object]:
    out: list[object] = []
    for part in sequences.map_(f, coll, *colls):
        out.extend(seq_items(part, "mapcat"))
    return out


@declare(DECLS, "map-indexed", arities=(2,), doc="Vector of (f index x) for each x.")
def map_indexed(f: object, coll: object) -> list[object]:
    fn = metered_fn(f, "map-indexed")
    return [fn(i, x) for i, x in enumerate(seq_items(coll, "map-indexed"))]


@declare(DECLS, "remove", arities=(2,), doc="Vector of the items for which (pred x) is falsy.")
def remove(pred: object, coll: object) -> list[object]:
    fn = metered_fn(pred, "remove")
    out = []
    for x in seq_items(coll, "remove"):
        v = fn(x)
        if v is None or v is False:
            out.append(x)
    return out


@declare(DECLS, "keep", arities=(2,), doc="Vector of the non-nil results of (f x).")
def keep(f: object, coll: object) -> list[object]:
    fn = metered_fn(f, "keep")
    out = []
    for x in seq_items(coll, "keep"):
        v = fn(x)
        if v is not None:
            out.append(v)
    return out


@declare(DECLS, "keep-indexed", arities=(2,), doc="Vector of the non-nil results of (f index x).")
def keep_indexed(f: object, coll: object) -> list[object]:
    fn = metered_fn(f, "keep-indexed")
    out = []
    for i, x in enumerate(seq_items(coll, "keep-indexed")):
        v = fn(i, x)
        if v is not None:
            out.append(v)
    return out


@declare(
    DECLS,
    "reduce-kv",
    arities=(3,),
    doc="Fold (f acc k v) over a map's entries (or a vector's index/item pairs).",
)
def reduce_kv(f: object, init: object, coll: object) -> object:
    fn = metered_fn(f, "reduce-kv")
    t = type(coll)
    acc = init
    if t is dict or t is PMap:
        m: Mapping[object, object] = coll  # type: ignore[assignment]
        for k, v in m.items():
            acc = fn(acc, from_key(k), v)
        return acc
    if t is list or t is PVec:
        vec: Sequence[object] = coll  # type: ignore[assignment]
        for i, x in enumerate(vec):
            acc = fn(acc, i, x)
        return acc
    if coll is None:
        return acc
    raise PtcError("type_error", f"reduce-kv: expected a map or vector, got {kind_name(coll)}")


@declare(DECLS, "some", arities=(2,), doc="The first truthy (pred x), else nil.")
def some(pred: object, coll: object) -> object:
    fn = metered_fn(pred, "some")
    for x in seq_items(coll, "some"):
        v = fn(x)
        if v is not None and v is not False:
            return v
    return None


def _all(pred: object, coll: object, who: str) -> bool:
    fn = metered_fn(pred, who)
    for x in seq_items(coll, who):
        v = fn(x)
        if v is None or v is False:
            return False
    return True


@declare(
    DECLS, "every?", arities=(2,), doc="True if (pred x) is truthy for every x (also for none)."
)
def every(pred: object, coll: object) -> bool:
    return _all(pred, coll, "every?")


@declare(DECLS, "not-every?", arities=(2,), doc="True if (pred x) is falsy for some x.")
def not_every(pred: object, coll: object) -> bool:
    return not _all(pred, coll, "not-every?")


@declare(DECLS, "not-any?", arities=(2,), doc="True if (pred x) is falsy for every x.")
def not_any(pred: object, coll: object) -> bool:
    return some(pred, coll) is None


@declare(
    DECLS,
    "tree-seq",
    arities=(3,),
    allocates=True,
    doc="Vector of the nodes of a tree, depth-first pre-order, from root.",
)
def tree_seq(branch: object, children: object, root: object) -> list[object]:
    is_branch = metered_fn(branch, "tree-seq")
    kids = metered_fn(children, "tree-seq")
    out: list[object] = [root]
    stack: list[Iterator[object]] = []
    node = root
    while True:
        v = is_branch(node)
        if v is not None and v is not False:
            stack.append(iter(seq_items(kids(node), "tree-seq")))
        node = _next_node(stack)
        if node is _DONE:
            return out
        out.append(node)
        if len(out) % WORK_CHUNK == 0:
            count_work("tree-seq", len(out))


_DONE: Final = object()


def _next_node(stack: list[Iterator[object]]) -> object:
    while stack:
        nxt = next(stack[-1], _DONE)
        if nxt is not _DONE:
            return nxt
        stack.pop()
    return _DONE


def count_work(who: str, visited: int) -> None:
    """Every `WORK_CHUNK` nodes of an unbounded walk: charge the step budget (which
    checks the deadline) and fail past `MAX_NODES`."""
    if visited > MAX_NODES:
        raise PtcError(
            "memory_exceeded",
            f"{who}: more than {MAX_NODES} nodes",
            hint="check that the tree stops growing (children eventually has no branches)",
        )
    try:
        ctx = current()
    except PtcError:  # called outside a run (direct calls in tests): only the cap applies
        return
    ctx.charge(WORK_CHUNK)
