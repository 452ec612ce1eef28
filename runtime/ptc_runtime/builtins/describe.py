"""`describe`: a bounded, JSON-encodable summary of a value's shape.

The result is a keyword-keyed map: `:type`, `:count`, and for a collection of maps a
per-key summary (`:present :pct :types :examples :distinct_count`). At most
`SCAN_ITEMS` elements and `MAX_KEYS` keys are looked at per level; hitting a cap sets
`:truncated true` and lists the cap in `:caps_hit`. Examples are JSON scalars, or
bounded display strings for containers and callables.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Final

from ptc_runtime.builtins.registry import BuiltinSpec, declare
from ptc_runtime.collections import EqKey, PSet, is_map, is_vector, kind_name
from ptc_runtime.errors import PtcError
from ptc_runtime.lookup import NOT_FOUND, get_flexible
from ptc_runtime.printer import pr_str
from ptc_runtime.values import Keyword, keyword

DECLS: list[BuiltinSpec] = []

SCAN_ITEMS: Final = 1_000
MAX_KEYS: Final = 100
EXAMPLE_CHARS: Final = 80
DISTINCT_CAP: Final = 1_000

_K = keyword


def _example(x: object) -> object:
    t = type(x)
    if x is None or t is bool or t is int:
        return x
    if t is float:
        return x if math.isfinite(x) else pr_str(x)  # type: ignore[arg-type]
    if isinstance(x, str):
        return x if len(x) <= EXAMPLE_CHARS else x[:EXAMPLE_CHARS] + "..."
    return pr_str(x, EXAMPLE_CHARS)


def _key_name(k: object) -> str:
    if type(k) is EqKey:
        k = k.value
    if type(k) is str:
        return k
    if type(k) is Keyword:
        return k.name
    return pr_str(k, EXAMPLE_CHARS)


def _count(kinds: dict[str, int], x: object) -> None:
    name = kind_name(x)
    kinds[name] = kinds.get(name, 0) + 1


class _Summary:
    def __init__(self, depth: int, sample: int) -> None:
        self.depth = depth
        self.sample = sample
        self.caps: list[str] = []

    def cap(self, what: str) -> None:
        if what not in self.caps:
            self.caps.append(what)

    def items(self, xs: Iterable[object], total: int) -> list[object]:
        out = []
        for i, x in enumerate(xs):
            if i >= SCAN_ITEMS:
                self.cap("items")
                break
            out.append(x)
        if total > len(out):
            self.cap("items")
        return out

    def keys_of(self, maps: list[object], level: int) -> dict[object, object]:
        stats: dict[str, dict[str, object]] = {}
        key_types: dict[str, int] = {}
        for m in maps:
            for k in m:  # type: ignore[attr-defined]
                name = _key_name(k)
                _count(key_types, k.value if type(k) is EqKey else k)
                if name not in stats:
                    if len(stats) >= MAX_KEYS:
                        self.cap("keys")
                        continue
                    stats[name] = {"present": 0, "types": {}, "examples": [], "seen": set()}
                entry = stats[name]
                v = m[k]  # type: ignore[index]
                entry["present"] += 1  # type: ignore[operator]
                _count(entry["types"], v)  # type: ignore[arg-type]
                if len(entry["examples"]) < self.sample:  # type: ignore[arg-type]
                    entry["examples"].append(_example(v))  # type: ignore[attr-defined]
                seen: set[object] = entry["seen"]  # type: ignore[assignment]
                if len(seen) < DISTINCT_CAP:
                    seen.add(pr_str(v, EXAMPLE_CHARS))
        out: dict[object, object] = {}
        for name, e in stats.items():
            present: int = e["present"]  # type: ignore[assignment]
            summary: dict[object, object] = {
                _K("present"): present,
                _K("pct"): round(100.0 * present / len(maps), 1),
                _K("types"): e["types"],
                _K("examples"): e["examples"],
                _K("distinct_count"): len(e["seen"]),  # type: ignore[arg-type]
            }
            if level < self.depth:
                nested = [m for m in maps if is_map(m) or is_vector(m)]
                value = next(
                    (
                        get_flexible(m, name, None)
                        for m in nested
                        if get_flexible(m, name, NOT_FOUND) is not NOT_FOUND
                    ),
                    None,
                )
                if is_map(value) or is_vector(value) or type(value) is PSet:
                    summary[_K("shape")] = self.value(value, level + 1)
            out[name] = summary
        return {_K("keys"): out, _K("key_types"): key_types}

    def value(self, x: object, level: int) -> dict[object, object]:
        out: dict[object, object] = {_K("type"): kind_name(x)}
        if is_vector(x) or type(x) is PSet:
            seq = list(x.m.values()) if type(x) is PSet else x
            total = len(seq)  # type: ignore[arg-type]
            scanned = self.items(seq, total)  # type: ignore[arg-type]
            kinds: dict[str, int] = {}
            for item in scanned:
                _count(kinds, item)
            out[_K("count")] = total
            out[_K("scanned")] = len(scanned)
            if total > len(scanned) and level == 1:
                out[_K("count_capped")] = True
            out[_K("item_types")] = kinds
            maps = [m for m in scanned if is_map(m)]
            if maps:
                out.update(self.keys_of(maps, level))
        elif is_map(x):
            out[_K("count")] = len(x)  # type: ignore[arg-type]
            out.update(self.keys_of([x], level))
        elif type(x) is str:
            out[_K("length")] = len(x)
            out[_K("example")] = _example(x)
        else:
            out[_K("example")] = _example(x)
        return out


def _option(opts: object, name: str, low: int, high: int, default: int) -> int:
    v = get_flexible(opts, _K(name), None) if opts is not None else None
    if v is None:
        return default
    if type(v) is not int or not low <= v <= high:
        raise PtcError("type_error", f"describe: :{name} must be an integer from {low} to {high}")
    return v


@declare(
    DECLS,
    "describe",
    arities=(1, 2),
    doc="Bounded summary of a value's shape; opts :depth 1-5, :sample 1-3.",
)
def describe(x: object, opts: object = None) -> dict[object, object]:
    if opts is not None and not is_map(opts):
        raise PtcError("type_error", f"describe: options must be a map, got {kind_name(opts)}")
    s = _Summary(_option(opts, "depth", 1, 5, 1), _option(opts, "sample", 1, 3, 2))
    out = s.value(x, 1)
    if s.caps:
        out[_K("truncated")] = True
        out[_K("caps_hit")] = list(s.caps)
    return out
