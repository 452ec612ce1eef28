"""Set builtins: `union intersection difference disj`, and from
`clojure.set` `subset? superset? select`, reachable as `set/...` and `clojure.set/...`
(and bare).

Results are sets in insertion order: the first argument's order, then new
elements in the order they appear. `nil` counts as the empty set, as in Clojure, and
comes back where Clojure's fold starts from it (`(difference nil #{1})` is nil).
"""

from __future__ import annotations

from ptc_runtime.builtins.registry import BuiltinSpec, declare
from ptc_runtime.collections import PSet, kind_name
from ptc_runtime.errors import PtcError
from ptc_runtime.metered import metered_fn

DECLS: list[BuiltinSpec] = []

_EMPTY: dict[object, object] = {}


def _members(who: str, s: object) -> dict[object, object] | PSet:
    """The stored-key -> element view of a set argument (nil: empty)."""
    if type(s) is PSet:
        return s.m  # type: ignore[return-value]
    if s is None:
        return _EMPTY
    raise PtcError("type_error", f"{who}: expected a set, got {kind_name(s)}")


def _nil_base(
    sets: tuple[object, ...], views: list[dict[object, object] | PSet], largest: bool
) -> bool:
    """Whether Clojure's `union` (`largest`) or `intersection` returns nil here: they
    build on one of their sets (the largest, or the smallest; of equal ones the first of
    two, the last of more), which comes back as it is when it is nil and, for `union`,
    every other set is empty (for `intersection` an empty one ends the work at once)."""
    if not sets or all(s is not None for s in sets):
        return False
    counts = [len(v) for v in views]
    if largest and max(counts):
        return False
    if len(sets) == 1:
        return sets[0] is None
    if len(sets) == 2:
        if largest:  # both empty: the first
            return sets[0] is None
        return sets[1] is None if counts[1] < counts[0] else sets[0] is None
    # three or more: the set of least (greatest) count comes first, the last of equals
    best = min(counts) if not largest else max(counts)
    return sets[max(i for i, c in enumerate(counts) if c == best)] is None


@declare(
    DECLS,
    "union",
    variadic_min=0,
    groups=("set",),
    doc="Set of the elements of all the sets; (union) is #{}.",
)
def union(*sets: object) -> PSet | None:
    views = [_members("union", s) for s in sets]
    if _nil_base(sets, views, largest=True):
        return None
    nonempty = [i for i, v in enumerate(views) if len(v)]
    if len(nonempty) == 1 and type(sets[nonempty[0]]) is PSet:
        return sets[nonempty[0]]  # type: ignore[return-value]
    out: dict[object, object] = {}
    for v in views:
        for k, x in v.items():  # type: ignore[union-attr]
            if k not in out:
                out[k] = x
    return PSet(out)


@declare(
    DECLS,
    "intersection",
    variadic_min=1,
    groups=("set",),
    doc="Set of the elements of s that are in every other set.",
)
def intersection(s: object, *more: object) -> PSet | None:
    first = _members("intersection", s)
    others = [_members("intersection", t) for t in more]
    if _nil_base((s, *more), [first, *others], largest=False):
        return None
    return PSet({k: x for k, x in first.items() if all(k in o for o in others)})  # type: ignore[union-attr]


@declare(
    DECLS,
    "difference",
    variadic_min=1,
    groups=("set",),
    doc="Set of the elements of s that are in none of the other sets.",
)
def difference(s: object, *more: object) -> PSet | None:
    first = _members("difference", s)
    others = [_members("difference", t) for t in more]
    if s is None:  # Clojure's difference starts from s: nil stays nil
        return None
    return PSet({k: x for k, x in first.items() if not any(k in o for o in others)})  # type: ignore[union-attr]


@declare(
    DECLS,
    "disj",
    variadic_min=1,
    groups=("core", "set"),
    doc="Set s without the given elements; (disj nil x) is nil.",
)
def disj(s: object, *xs: object) -> object:
    if not xs:  # `(disj x)` is x, whatever it is, as in Clojure
        return s
    if s is None:
        return None
    if type(s) is not PSet:
        raise PtcError("type_error", f"disj: expected a set, got {kind_name(s)}")
    out: PSet = s
    for x in xs:
        out = out.disj(x)
    return out


@declare(
    DECLS,
    "subset?",
    arities=(2,),
    groups=("set",),
    doc="True if every element of set a is in set b.",
)
def is_subset(a: object, b: object) -> bool:
    small = _members("subset?", a)
    big = _members("subset?", b)
    return len(small) <= len(big) and all(k in big for k in small)


@declare(
    DECLS,
    "superset?",
    arities=(2,),
    groups=("set",),
    doc="True if every element of set b is in set a.",
)
def is_superset(a: object, b: object) -> bool:
    big = _members("superset?", a)
    small = _members("superset?", b)
    return len(small) <= len(big) and all(k in big for k in small)


@declare(
    DECLS,
    "select",
    arities=(2,),
    groups=("set",),
    doc="Set of the elements of s for which (pred x) is truthy.",
)
def select(pred: object, s: object) -> PSet | None:
    fn = metered_fn(pred, "select")
    if s is None:
        return None
    members = _members("select", s)
    out = {}
    for k, x in members.items():  # type: ignore[union-attr]
        v = fn(x)
        if v is not None and v is not False:
            out[k] = x
    return PSet(out)
