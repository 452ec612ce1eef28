"""Hypothesis strategies: signature types and signatures, conforming values, mutated values,
JSON-shaped near-conforming values, and wild values of every runtime kind.
"""

from __future__ import annotations

import datetime as dt
import string
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, cast

from hypothesis import strategies as st

from fuzz.strategies.oracle import accepts
from ptc_compiler.signatures import (
    Field,
    ListOf,
    MapOf,
    Prim,
    Signature,
    SigType,
    norm_name,
)
from ptc_runtime.collections import PMap, PSet, PVec
from ptc_runtime.contracts.types import PRIM_NAMES
from ptc_runtime.values import keyword

ZONES = [
    dt.UTC,
    dt.timezone(dt.timedelta(hours=5, minutes=30)),
    dt.timezone(dt.timedelta(hours=-8)),
]
SEPARATED = ["a", "b", "id", "a_b", "a-b", "x_y_z", "user-id", "_", "A", "a_b_c_d", "q-r_s-t"]

names = st.one_of(
    st.sampled_from(SEPARATED),
    st.builds(
        str.__add__,
        st.sampled_from(string.ascii_letters + "_"),
        st.text(string.ascii_letters + string.digits + "_-", max_size=7),
    ),
)

prims = st.builds(Prim, st.sampled_from(PRIM_NAMES), st.booleans())


def _fields(inner: st.SearchStrategy[SigType]) -> st.SearchStrategy[tuple[Field, ...]]:
    pairs = st.lists(st.tuples(names, inner), max_size=4, unique_by=lambda p: norm_name(p[0]))
    return pairs.map(lambda ps: tuple(Field(n, t) for n, t in ps))


def sig_types(max_leaves: int = 8) -> st.SearchStrategy[SigType]:
    """Random types: primitives, lists and typed maps, each possibly optional."""
    return st.recursive(
        prims,
        lambda inner: st.one_of(
            st.builds(ListOf, inner, st.booleans()),
            st.builds(MapOf, _fields(inner), st.booleans()),
        ),
        max_leaves=max_leaves,
    )


@st.composite
def deep_types(draw: st.DrawFn) -> SigType:
    """A chain of 0..64 list/map constructors: the nesting bound's edge."""
    t: SigType = draw(prims)
    name = draw(names)
    rnd = draw(st.randoms(use_true_random=False))
    for _ in range(draw(st.sampled_from([1, 2, 8, 32, 63, 64]))):
        if rnd.random() < 0.5:
            t = ListOf(t, rnd.random() < 0.3)
        else:
            t = MapOf((Field(name, t),), rnd.random() < 0.3)
    return t


def signatures(types: st.SearchStrategy[SigType] | None = None) -> st.SearchStrategy[Signature]:
    types = types if types is not None else sig_types()
    return st.builds(Signature, _fields(types), types)


# ---------------------------------------------------------------- runtime values

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=6),
    st.builds(keyword, names),
    st.datetimes(timezones=st.sampled_from(ZONES)),
)


def _unique_public_keys(keys: st.SearchStrategy[object]) -> Callable[[Any], Any]:
    def build(values: st.SearchStrategy[object]) -> st.SearchStrategy[dict[object, object]]:
        return st.lists(
            st.tuples(keys, values), max_size=3, unique_by=lambda p: norm_name(_key_str(p[0]))
        ).map(dict)

    return build


def _key_str(k: object) -> str:
    return k if isinstance(k, str) else getattr(k, "name", repr(k))


map_keys = st.one_of(names, st.builds(keyword, names), st.text(max_size=4))

#: Values an `:any`/`:map` position may hold that survive `to_public` (no key collisions).
any_values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=3), _unique_public_keys(map_keys)(inner)),
    max_leaves=4,
)


def _as_vector(items: list[object], how: int) -> object:
    if how == 1:
        return tuple(items)
    if how == 2:
        return PVec(list(items), len(items))
    return items


def _spellings(name: str) -> list[object]:
    pub = norm_name(name)
    texts = {name, pub, pub.replace("_", "-")}
    return sorted(texts) + [keyword(t) for t in sorted(texts)]


@st.composite
def conforming(draw: st.DrawFn, t: SigType) -> object:
    """A runtime value satisfying `t`: any alias spelling of keys, any vector/map class."""
    if t.optional and draw(st.integers(0, 4)) == 0:
        return None
    if isinstance(t, Prim):
        return draw(_prim_value(t.name))
    if isinstance(t, ListOf):
        items = draw(st.lists(conforming(t.item), max_size=3))
        return _as_vector(items, draw(st.integers(0, 2)))
    out: dict[object, object] = {}
    for f in t.fields:
        if f.type.optional and draw(st.booleans()):
            continue
        out[draw(st.sampled_from(_spellings(f.name)))] = draw(conforming(f.type))
    if not t.closed and draw(st.booleans()):
        taken = {norm_name(f.name) for f in t.fields}
        for k, v in draw(_unique_public_keys(map_keys)(any_values)).items():
            pk = norm_name(_key_str(k))
            if pk not in taken:
                taken.add(pk)
                out[k] = v
    return PMap.from_dict(out) if draw(st.booleans()) else out


def _prim_value(name: str) -> st.SearchStrategy[object]:
    table: dict[str, st.SearchStrategy[object]] = {
        "string": st.text(max_size=6),
        "int": st.one_of(st.integers(), st.just(2**100)),
        "float": st.one_of(st.floats(allow_nan=False, allow_infinity=False), st.integers()),
        "bool": st.booleans(),
        "keyword": st.builds(keyword, names),
        "datetime": st.datetimes(timezones=st.sampled_from(ZONES)),
        "map": _unique_public_keys(map_keys)(any_values),
        "any": any_values,
    }
    return table[name]


#: Runtime values of every kind, used as replacements when mutating a conforming value.
POOL: list[object] = [
    None, True, False, 0, 7, 1.5, 1.0, float("nan"), float("inf"), "s", "12",
    "2024-01-01T00:00:00Z",
    keyword("k"), [], [1], ("t",), {}, {"zz": 1}, PSet.from_iterable([1]), frozenset({1}),
    dt.datetime(2024, 1, 1), dt.date(2024, 1, 1), dt.datetime(2024, 1, 1, tzinfo=dt.UTC), b"b",
]  # fmt: skip


def _sites(
    t: SigType, v: object, path: list[str | int], access: list[object], out: list[Any]
) -> None:
    """Collect mutation sites: (declared path, access path, type, action)."""
    out.append((list(path), list(access), t, "replace"))
    if v is None:
        return
    if isinstance(t, ListOf):
        for i, x in enumerate(cast("Iterable[object]", v)):
            _sites(t.item, x, [*path, i], [*access, i], out)
    elif isinstance(t, MapOf):
        assert isinstance(v, Mapping)
        for f in t.fields:
            keys = [k for k in _spellings(f.name) if k in v]
            if keys:
                key = keys[0]
                if not f.type.optional:
                    out.append(([*path, f.name], [*access, key], f.type, "delete"))
                _sites(f.type, v[key], [*path, f.name], [*access, key], out)


def _rebuild(v: object, access: Sequence[object], action: str, new: object) -> object:
    if not access:
        return new
    head, rest = access[0], access[1:]
    if isinstance(v, Mapping):
        d = dict(v)
        if not rest and action == "delete":
            del d[head]
        else:
            d[head] = _rebuild(d[head], rest, action, new)
        return d
    items = list(v)  # type: ignore[call-overload]
    assert isinstance(head, int)
    items[head] = _rebuild(items[head], rest, action, new)
    return items


@st.composite
def mutated(draw: st.DrawFn, t: SigType) -> tuple[object, list[str | int], str]:
    """A conforming value with one position broken: (value, declared path, error kind)."""
    v = draw(conforming(t))
    sites: list[Any] = []
    _sites(t, v, [], [], sites)
    candidates: list[tuple[Any, Any, str, list[object] | None]] = []
    for path, access, sub, action in sites:
        if action == "delete":
            candidates.append((path, access, action, None))
        else:
            wrong = [x for x in POOL if not accepts(sub, x)]
            if wrong:
                candidates.append((path, access, action, wrong))
    if not candidates:
        return v, [], "none"
    path, access, action, wrong = draw(st.sampled_from(candidates))
    new = draw(st.sampled_from(wrong)) if wrong else None
    return _rebuild(v, access, action, new), path, "missing" if action == "delete" else "type"


def _pmap(d: Mapping[Any, Any]) -> PMap:
    return PMap.from_dict(dict(d))


wild_values = st.recursive(
    st.one_of(scalars, st.sampled_from(POOL), st.just(object()), st.just(len)),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.lists(inner, max_size=4).map(tuple),
        st.lists(inner, max_size=3).map(lambda xs: PVec(xs, len(xs))),
        st.dictionaries(st.one_of(map_keys, st.integers()), inner, max_size=4),
        st.dictionaries(map_keys, inner, max_size=3).map(_pmap),
    ),
    max_leaves=12,
)


# ---------------------------------------------------------------- JSON-shaped values


def _json_pool(t: SigType) -> list[object]:
    """Wrong-ish JSON values outside the documented schema/runtime gaps (spec §9)."""
    pool: list[object] = [None, True, False, 0, 7, 1.5, "s", [], [1], {}, {"k": 1}]
    if isinstance(t, MapOf):  # projection is closed, runtime open: no stray maps
        pool = [x for x in pool if not isinstance(x, dict)]
    if isinstance(t, Prim) and t.name in ("keyword", "datetime"):  # strings on the wire
        pool = [x for x in pool if not isinstance(x, str)]
    return pool


json_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=5),
)  # fmt: skip
json_values = st.recursive(
    json_scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=6,
)


@st.composite
def json_near(draw: st.DrawFn, t: SigType) -> object:
    """A JSON value for `t`, conforming or broken at random positions, public keys only."""
    if draw(st.integers(0, 5)) == 0:
        return draw(st.sampled_from(_json_pool(t)))
    if t.optional and draw(st.integers(0, 4)) == 0:
        return None
    if isinstance(t, Prim):
        table: dict[str, st.SearchStrategy[object]] = {
            "string": st.text(max_size=5),
            "int": st.integers(),
            "float": st.one_of(st.floats(allow_nan=False, allow_infinity=False), st.integers()),
            "bool": st.booleans(),
            "keyword": st.text(max_size=5),
            "datetime": st.datetimes(timezones=st.sampled_from(ZONES)).map(dt.datetime.isoformat),
            "map": st.dictionaries(st.text(max_size=3), json_values, max_size=3),
            "any": json_values,
        }
        return draw(table[t.name])
    if isinstance(t, ListOf):
        return draw(st.lists(json_near(t.item), max_size=3))
    out: dict[str, object] = {}
    for f in t.fields:
        if draw(st.integers(0, 5)) == 0:
            continue  # absent: fine if optional, a missing field otherwise
        out[norm_name(f.name)] = draw(json_near(f.type))
    return out
