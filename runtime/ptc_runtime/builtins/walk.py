"""Tree walking: `walk prewalk postwalk`, and from `clojure.walk`
`keywordize-keys stringify-keys prewalk-replace postwalk-replace`; all also as `walk/...`
and `clojure.walk/...`.

A map's children are its `[k v]` entries (walked like any vector, then turned back into
a map); sets stay sets. `prewalk`/`postwalk` use an explicit stack, so nesting depth is
not limited by Python recursion, and they count the nodes they visit: a `prewalk` whose
function keeps growing the tree fails instead of running away.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from ptc_runtime.builtins.higher_order import WORK_CHUNK, count_work
from ptc_runtime.builtins.registry import BuiltinSpec, declare
from ptc_runtime.builtins.strings import keyword_
from ptc_runtime.collections import PMap, PSet, PVec, from_key, kind_name, to_key
from ptc_runtime.errors import PtcError
from ptc_runtime.metered import metered_fn
from ptc_runtime.values import Keyword

DECLS: list[BuiltinSpec] = []

_VEC: Final = 0
_MAP: Final = 1
_SET: Final = 2


def _children(x: object) -> tuple[int, list[object]] | None:
    t = type(x)
    if t is list or t is PVec:
        return _VEC, list(x)  # type: ignore[call-overload]
    if t is dict or t is PMap:
        return _MAP, [[from_key(k), v] for k, v in x.items()]  # type: ignore[attr-defined]
    if t is PSet:
        return _SET, list(x)  # type: ignore[call-overload]
    return None


def _rebuild(who: str, kind: int, items: list[object]) -> object:
    if kind == _VEC:
        return items
    if kind == _SET:
        return PSet.from_iterable(items)
    out: dict[object, object] = {}
    for e in items:
        t = type(e)
        if (t is list or t is PVec) and len(e) == 2:  # type: ignore[arg-type]
            out[to_key(e[0])] = e[1]  # type: ignore[index]
        elif t is dict or t is PMap:
            out.update(e)  # type: ignore[call-overload]
        elif e is not None:
            raise PtcError(
                "type_error", f"{who}: a map entry must become a [k v] vector, got {kind_name(e)}"
            )
    return out


@declare(
    DECLS,
    "walk",
    arities=(3,),
    groups=("walk",),
    doc="(outer form') where form' is form with inner applied to each child.",
)
def walk(inner: object, outer: object, form: object) -> object:
    fin = metered_fn(inner, "walk")
    fout = metered_fn(outer, "walk")
    kc = _children(form)
    if kc is None:
        return fout(form)
    kind, kids = kc
    return fout(_rebuild("walk", kind, [fin(x) for x in kids]))


def _walk_tree(
    who: str,
    form: object,
    pre: Callable[[object], object] | None,
    post: Callable[[object], object] | None,
) -> object:
    """Depth-first rebuild of `form`: `pre` on the way down, `post` on the way up."""
    # A frame: [kind, children, next child index, rebuilt children].
    stack: list[list[object]] = []
    node = form
    visited = 0
    while True:
        visited += 1
        if visited % WORK_CHUNK == 0:
            count_work(who, visited)
        if pre is not None:
            node = pre(node)
        kc = _children(node)
        if kc is not None and kc[1]:
            stack.append([kc[0], kc[1], 1, []])
            node = kc[1][0]
            continue
        value = node if kc is None else _rebuild(who, kc[0], [])
        if post is not None:
            value = post(value)
        while stack:
            top = stack[-1]
            out: list[object] = top[3]  # type: ignore[assignment]
            out.append(value)
            kids: Sequence[object] = top[1]  # type: ignore[assignment]
            i: int = top[2]  # type: ignore[assignment]
            if i < len(kids):
                top[2] = i + 1
                node = kids[i]
                break
            stack.pop()
            value = _rebuild(who, top[0], out)  # type: ignore[arg-type]
            if post is not None:
                value = post(value)
        else:
            return value


@declare(
    DECLS,
    "prewalk",
    arities=(2,),
    groups=("walk",),
    doc="Rebuild form top-down: (f node) first, then walk the result's children.",
)
def prewalk(f: object, form: object) -> object:
    return _walk_tree("prewalk", form, metered_fn(f, "prewalk"), None)


@declare(
    DECLS,
    "postwalk",
    arities=(2,),
    groups=("walk",),
    doc="Rebuild form bottom-up: children first, then (f node).",
)
def postwalk(f: object, form: object) -> object:
    return _walk_tree("postwalk", form, None, metered_fn(f, "postwalk"))


def _rekey(who: str, form: object, change: Callable[[object], object]) -> object:
    """`form` with every map's keys (at any depth) passed through `change`."""

    def post(x: object) -> object:
        if type(x) is dict or type(x) is PMap:
            return {to_key(change(from_key(k))): v for k, v in x.items()}
        return x

    return _walk_tree(who, form, None, post)


def _string_to_keyword(k: object) -> object:
    if type(k) is not str:
        return k
    try:
        return keyword_(k)
    except PtcError:  # not a keyword name ("a b", ""): the key stays a string
        return k


@declare(
    DECLS,
    "keywordize-keys",
    arities=(1,),
    groups=("walk",),
    doc="Every string map key, at any depth, as a keyword (keys that are no keyword name stay).",
)
def keywordize_keys(form: object) -> object:
    return _rekey("keywordize-keys", form, _string_to_keyword)


def _keyword_to_string(k: object) -> object:
    return k.name if type(k) is Keyword else k


@declare(
    DECLS,
    "stringify-keys",
    arities=(1,),
    groups=("walk",),
    doc="Every keyword map key, at any depth, as a string (its name, no colon).",
)
def stringify_keys(form: object) -> object:
    return _rekey("stringify-keys", form, _keyword_to_string)


def _replacer(who: str, smap: object) -> Callable[[object], object]:
    if type(smap) is not dict and type(smap) is not PMap:
        raise PtcError(
            "type_error", f"{who}: expected a map of replacements, got {kind_name(smap)}"
        )
    table: dict[object, object] | PMap = smap

    def replace(x: object) -> object:
        return table.get(to_key(x), x)

    return replace


@declare(
    DECLS,
    "prewalk-replace",
    arities=(2,),
    groups=("walk",),
    doc="form with each node that is a key of smap replaced by its value, top-down.",
)
def prewalk_replace(smap: object, form: object) -> object:
    return _walk_tree("prewalk-replace", form, _replacer("prewalk-replace", smap), None)


@declare(
    DECLS,
    "postwalk-replace",
    arities=(2,),
    groups=("walk",),
    doc="form with each node that is a key of smap replaced by its value, bottom-up.",
)
def postwalk_replace(smap: object, form: object) -> object:
    return _walk_tree("postwalk-replace", form, None, _replacer("postwalk-replace", smap))
