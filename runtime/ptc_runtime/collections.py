"""Collections of the value model: keys, growable vectors, persistent maps, ordered sets.

Plain `list` and `dict` are the everyday vector and map (tool data, literals, builtin
results); nothing ever mutates one a program can see. Repeated growth is where copying
would be quadratic, so `conj` and `assoc` switch to `PVec` / `PMap`:

* `PVec` shares an append buffer with the vector it grew from: the first `conj` onto a
  prefix appends in place, later `conj`s onto the same (now shorter) prefix copy.
* `PMap` keeps values in a HAMT (`immutables.Map`, O(log n) persistent set) and the
  insertion order in a shared append buffer of keys, like `PVec`.
* `PSet` wraps a key->element map (a dict when small, a `PMap` when it grows).

Map keys and set elements are stored through `to_key`: booleans, vectors, maps and sets
become `EqKey`, so `true` and `1` stay distinct keys and vectors can be keys, with
hashing and equality following PTC `=` (`equality.eq` / `equality.hash_value`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from itertools import islice
from typing import Any, Final, overload

import immutables

from ptc_runtime.errors import PtcError
from ptc_runtime.values import Keyword, SymbolRef, VarRef

#: Maps with fewer entries than this stay plain dicts on `assoc` (copy is cheap).
SMALL_MAP: Final = 16


class EqKey:
    """A map key / set element that Python would conflate (bool) or cannot hash (colls)."""

    __slots__ = ("_hash", "value")

    value: object
    _hash: int

    def __init__(self, value: object) -> None:
        self.value = value
        self._hash = _equality.hash_value(value)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        if type(other) is not EqKey:
            return False
        if self is other:
            return True
        if self._hash != other._hash:
            return False
        if _equality.eq(self.value, other.value):
            return True
        _hashguard.collided()  # distinct values, one hash: bounded per run
        return False

    def __repr__(self) -> str:
        return "EqKey(...)"


def to_key(x: object) -> object:
    """The stored form of `x` as a map key or set element."""
    t = type(x)
    if t is bool or t is list or t is dict or t is PVec or t is PMap or t is PSet:
        return EqKey(x)
    return x


def from_key(k: object) -> object:
    """The PTC value of a stored key."""
    return k.value if type(k) is EqKey else k


# ---------------------------------------------------------------- vectors


class PVec(Sequence[object]):
    """An immutable vector: the first `n` items of an append buffer shared with its parent."""

    __slots__ = ("buf", "n")

    buf: list[object]
    n: int

    def __init__(self, buf: list[object], n: int) -> None:
        self.buf = buf
        self.n = n

    def __len__(self) -> int:
        return self.n

    def __iter__(self) -> Iterator[object]:
        # islice stops at n even if a later conj appends to the shared buffer.
        return islice(self.buf, self.n)

    @overload
    def __getitem__(self, i: int) -> object: ...

    @overload
    def __getitem__(self, i: slice) -> list[object]: ...

    def __getitem__(self, i: int | slice) -> object:
        if type(i) is slice:
            return self.buf[: self.n][i]
        if not isinstance(i, int):  # as `list` does: a field read of a vector is no index
            raise TypeError("vector indices must be integers")
        n = self.n
        if i < 0:
            i += n
        if i < 0 or i >= n:
            raise IndexError("vector index out of range")
        return self.buf[i]

    def __eq__(self, other: object) -> bool:
        return _equality.eq(self, other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"PVec(n={self.n})"

    def conj(self, x: object) -> PVec:
        """This vector with `x` appended; amortised O(1) when this is the longest version."""
        buf, n = self.buf, self.n
        if len(buf) == n:
            buf.append(x)
            # Another thread may have appended to the same buffer between the length
            # check and our append: only keep the shared buffer if slot n is ours.
            if buf[n] is x:
                return PVec(buf, n + 1)
        fresh = buf[:n]
        fresh.append(x)
        return PVec(fresh, n + 1)

    def extend(self, xs: Iterable[object]) -> PVec:
        """This vector with all of `xs` appended (one shared-buffer attempt, else a copy)."""
        items = xs if isinstance(xs, list) else list(xs)
        if not items:
            return self
        buf, n, k = self.buf, self.n, len(items)
        if len(buf) == n:
            buf.extend(items)
            # As in `conj`: keep the shared buffer only if slots n..n+k hold our items.
            if all(a is b for a, b in zip(islice(buf, n, n + k), items, strict=True)):
                return PVec(buf, n + k)
        fresh = buf[:n]
        fresh.extend(items)
        return PVec(fresh, len(fresh))

    def to_list(self) -> list[object]:
        return self.buf[: self.n]


def vec_conj(v: list[object] | PVec, x: object) -> PVec:
    """`(conj v x)` for a vector in either representation."""
    if type(v) is PVec:
        return v.conj(x)
    buf = list(v)
    buf.append(x)
    return PVec(buf, len(buf))


def vec_extend(v: list[object] | PVec, xs: Iterable[object]) -> list[object] | PVec:
    """All of `xs` appended to vector `v`."""
    if type(v) is PVec:
        return v.extend(xs)
    buf = list(v)
    buf.extend(xs)
    return PVec(buf, len(buf))


# ---------------------------------------------------------------- maps


class PMap(Mapping[object, object]):
    """A persistent insertion-ordered map over stored keys (see `to_key`).

    `vals` maps key -> value; `pos` maps key -> its index in `order`, an append buffer
    of keys shared between versions (`n` is this version's prefix length). A key that
    was removed and added again appears twice in the buffer; only the index recorded in
    `pos` counts.
    """

    __slots__ = ("_live", "n", "order", "pos", "vals")

    vals: Any  # immutables.Map[object, object]
    pos: Any  # immutables.Map[object, int]
    order: list[object]
    n: int
    _live: list[object] | None

    def __init__(self, vals: Any, pos: Any, order: list[object], n: int) -> None:
        self.vals = vals
        self.pos = pos
        self.order = order
        self.n = n
        self._live = None

    @staticmethod
    def from_items(items: Iterable[tuple[object, object]]) -> PMap:
        """Build from (stored key, value) pairs; later duplicates overwrite, keep position."""
        d: dict[object, object] = {}
        for k, v in items:
            d[k] = v
        return PMap.from_dict(d)

    @staticmethod
    def from_dict(d: Mapping[object, object]) -> PMap:
        """Build from a dict (or any mapping) whose keys are already stored keys."""
        order = list(d)
        return PMap(
            immutables.Map(d),
            immutables.Map(zip(order, range(len(order)), strict=True)),
            order,
            len(order),
        )

    def __len__(self) -> int:
        n: int = len(self.vals)
        return n

    def __getitem__(self, k: object) -> object:
        return self.vals[k]

    def get(self, k: object, default: object = None) -> object:
        return self.vals.get(k, default)

    def __contains__(self, k: object) -> bool:
        return k in self.vals

    def _keys(self) -> list[object]:
        live = self._live
        if live is not None:
            return live
        order, n = self.order, self.n
        if n == len(self.vals):
            live = order[:n]
        else:
            pos = self.pos
            live = [k for i, k in enumerate(islice(order, n)) if pos.get(k) == i]
        self._live = live
        return live

    def __iter__(self) -> Iterator[object]:
        return iter(self._keys())

    def __eq__(self, other: object) -> bool:
        return _equality.eq(self, other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"PMap(n={len(self.vals)})"

    def assoc(self, k: object, v: object) -> PMap:
        """A new map with stored key `k` set to `v` (position kept if `k` exists)."""
        vals = self.vals
        if k in self.pos:
            return PMap(vals.set(k, v), self.pos, self.order, self.n)
        order, n = self.order, self.n
        if len(order) == n:
            order.append(k)
            if not (len(order) > n and order[n] is k):
                order = order[:n]
                order.append(k)
        else:
            order = order[:n]
            order.append(k)
        return PMap(vals.set(k, v), self.pos.set(k, n), order, n + 1)

    def dissoc(self, k: object) -> PMap:
        """A new map without stored key `k`."""
        if k not in self.pos:
            return self
        vals = self.vals.delete(k)
        pos = self.pos.delete(k)
        n = self.n
        if n > 2 * len(vals) + 32:
            # Mostly dead entries: compact into a fresh buffer.
            keys = [x for i, x in enumerate(islice(self.order, n)) if pos.get(x) == i]
            return PMap(
                vals, immutables.Map(zip(keys, range(len(keys)), strict=True)), keys, len(keys)
            )
        return PMap(vals, pos, self.order, n)

    def to_dict(self) -> dict[object, object]:
        vals = self.vals
        return {k: vals[k] for k in self._keys()}


# ---------------------------------------------------------------- sets


class PSet:
    """An insertion-ordered immutable set; `(s x)` returns the member or nil."""

    __slots__ = ("m",)

    m: dict[object, object] | PMap  # stored key -> element

    def __init__(self, m: dict[object, object] | PMap) -> None:
        self.m = m

    @staticmethod
    def from_iterable(xs: Iterable[object]) -> PSet:
        """A set of the elements of `xs` (first occurrence kept)."""
        if type(xs) is not list and type(xs) is not tuple:
            xs = list(xs)
        if len(xs) > _hashguard.MAX_SAME_HASH:
            _hashguard.check_keys(xs, "set")
        d: dict[object, object] = {}
        for x in xs:
            k = to_key(x)
            if k not in d:
                d[k] = x
        return PSet(d)

    def __len__(self) -> int:
        return len(self.m)

    def __iter__(self) -> Iterator[object]:
        return iter(self.m.values())

    def __contains__(self, x: object) -> bool:
        return to_key(x) in self.m

    def __call__(self, x: object) -> object:
        # one argument only, as in Clojure (a set takes no default, unlike a map)
        return self.m.get(to_key(x))

    def __eq__(self, other: object) -> bool:
        return _equality.eq(self, other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"PSet(n={len(self.m)})"

    def conj(self, x: object) -> PSet:
        k = to_key(x)
        if k in self.m:
            return self
        return PSet(_assoc_stored(self.m, k, x))

    def disj(self, x: object) -> PSet:
        k = to_key(x)
        m = self.m
        if k not in m:
            return self
        if type(m) is PMap:
            return PSet(m.dissoc(k))
        d = dict(m)
        del d[k]
        return PSet(d)


# ---------------------------------------------------------------- shape helpers


def is_vector(x: object) -> bool:
    t = type(x)
    return t is list or t is PVec


def is_map(x: object) -> bool:
    t = type(x)
    return t is dict or t is PMap


def is_set(x: object) -> bool:
    return type(x) is PSet


def is_coll(x: object) -> bool:
    t = type(x)
    return t is list or t is dict or t is PVec or t is PMap or t is PSet


def kind_name(x: object) -> str:
    """The PTC kind of `x` for messages: never a Python type name."""
    t = type(x)
    if x is None:
        return "nil"
    if t is bool:
        return "boolean"
    if t is int or t is float:
        return "number"
    if t is str:
        return "string"
    if t is Keyword:
        return "keyword"
    if t is list or t is PVec:
        return "vector"
    if t is dict or t is PMap:
        return "map"
    if t is PSet:
        return "set"
    if t is SymbolRef:
        return "symbol"
    if t is VarRef:
        return "var"
    if t.__name__ == "Regex":
        return "regex"
    java_class = getattr(t, "java_class", None)
    if type(java_class) is str and java_class:  # LocalDate, Instant, Duration, Date values
        return java_class
    if callable(x):
        return "function"
    return "unknown"


def entry(k: object, v: object) -> list[object]:
    """A map entry as PTC sees it: a 2-element vector."""
    return [k, v]


def map_entries(m: Mapping[object, object]) -> list[object]:
    """`[k v]` entries of a map in insertion order, keys unwrapped."""
    return [[k.value if type(k) is EqKey else k, v] for k, v in m.items()]


def seq_items(x: object, who: str = "seq") -> Sequence[object]:
    """The elements of seqable `x` (nil, vector, map entries, set, string characters).

    Vectors come back as themselves (no copy); other kinds as a fresh list.
    """
    t = type(x)
    if t is list or t is PVec:
        return x  # type: ignore[return-value]
    if x is None:
        return ()
    if t is dict or t is PMap:
        return map_entries(x)  # type: ignore[arg-type]
    if t is PSet:
        return list(x.m.values())  # type: ignore[attr-defined]
    if t is str:
        return list(x)  # type: ignore[call-overload, no-any-return]
    raise PtcError("type_error", f"{who}: expected a collection, got {kind_name(x)}")


# ---------------------------------------------------------------- writes


def _assoc_stored(m: Mapping[object, object], k: object, v: object) -> dict[object, object] | PMap:
    """`m` with stored key `k` set to `v`: a dict copy while small, else a PMap."""
    if type(m) is PMap:
        return m.assoc(k, v)
    if len(m) < SMALL_MAP:
        d = dict(m)
        d[k] = v
        return d
    return PMap.from_dict(m).assoc(k, v)


def map_write_key(m: Mapping[object, object], k: object) -> object:
    """The stored key a write of `k` into `m` addresses (one-logical-key rule)."""
    found = _lookup.find_key(m, k)
    if found is _lookup.NOT_FOUND:
        return to_key(k)
    return found


def assoc(m: object, k: object, v: object, who: str = "assoc") -> object:
    """`(assoc m k v)` for nil, maps and vectors; maps follow the one-logical-key rule."""
    t = type(m)
    if t is dict or t is PMap:
        return _assoc_stored(m, map_write_key(m, k), v)  # type: ignore[arg-type]
    if m is None:
        return {to_key(k): v}
    if t is list or t is PVec:
        n = len(m)  # type: ignore[arg-type]
        if type(k) is not int:
            raise PtcError(
                "type_error", f"{who}: vector index must be an integer, got {kind_name(k)}"
            )
        if k == n:
            return vec_conj(m, v)  # type: ignore[arg-type]
        if not 0 <= k < n:
            raise PtcError(
                "runtime_error", f"{who}: index {k} out of range for a vector of {n} items"
            )
        out = list(m)  # type: ignore[call-overload]
        out[k] = v
        return out
    raise PtcError("type_error", f"{who}: expected a map or vector, got {kind_name(m)}")


def dissoc(m: object, k: object, who: str = "dissoc") -> object:
    """`(dissoc m k)`: removes the key a flexible read of `k` finds; nil stays nil."""
    t = type(m)
    if m is None:
        return None
    if t is not dict and t is not PMap:
        raise PtcError("type_error", f"{who}: expected a map, got {kind_name(m)}")
    found = _lookup.find_key(m, k)  # type: ignore[arg-type]
    if found is _lookup.NOT_FOUND:
        return m
    if t is PMap:
        return m.dissoc(found)  # type: ignore[attr-defined]
    d = dict(m)  # type: ignore[call-overload]
    del d[found]
    return d


def conj(coll: object, x: object, who: str = "conj") -> object:
    """`(conj coll x)` for one item: vector append, set add, map entry/merge (nil adds none),
    nil -> [x]."""
    t = type(coll)
    if t is list or t is PVec:
        return vec_conj(coll, x)  # type: ignore[arg-type]
    if coll is None:
        return [x]
    if t is PSet:
        return coll.conj(x)  # type: ignore[attr-defined]
    if t is dict or t is PMap:
        tx = type(x)
        if (tx is list or tx is PVec) and len(x) == 2:  # type: ignore[arg-type]
            return assoc(coll, x[0], x[1], who)  # type: ignore[index]
        if tx is dict or tx is PMap:
            out = coll
            for k, v in x.items():  # type: ignore[attr-defined]
                out = assoc(out, from_key(k), v, who)
            return out
        if x is None:
            # Clojure conjoins nil onto a map as no entries at all, so
            # (into {} (map #(when (ok? %) [k v]) xs)) drops the nils.
            return coll
        raise PtcError(
            "type_error", f"{who}: a map takes [key value] entries or maps, got {kind_name(x)}"
        )
    raise PtcError("type_error", f"{who}: expected a collection, got {kind_name(coll)}")


def as_fn(f: object, who: str = "call") -> Callable[..., Any]:
    """Any PTC callable (fn, builtin, keyword, set, map) as a Python callable."""
    t = type(f)
    if t is dict or t is PMap:
        m = f
        get_flexible = _lookup.get_flexible

        def map_as_fn(k: object, default: object = None) -> object:
            return get_flexible(m, k, default)

        return map_as_fn
    if t is Keyword or t is PSet:
        return f  # type: ignore[return-value]
    if t is list or t is PVec:
        return _vector_as_fn(f)  # type: ignore[arg-type]
    if callable(f) and not isinstance(f, type) and t is not EqKey:
        return f
    raise PtcError(
        "not_callable", f"not callable: {kind_name(f)}", hint=f"{who} expects a function"
    )


def _vector_as_fn(v: list[object] | PVec) -> Callable[..., Any]:
    """`([10 20] 1)`: a vector called with an index (as in Clojure)."""

    def vector_as_fn(i: object) -> object:
        if type(i) is not int:
            raise PtcError(
                "type_error",
                f"a vector called as a function takes an integer index, got {kind_name(i)}",
            )
        if 0 <= i < len(v):
            return v[i]
        raise PtcError("runtime_error", f"index {i} out of range for a vector of {len(v)} items")

    return vector_as_fn


# Imported last: both modules import names from this one (see module docstring).
from ptc_runtime import equality as _equality  # noqa: E402
from ptc_runtime import hashguard as _hashguard  # noqa: E402
from ptc_runtime import lookup as _lookup  # noqa: E402
