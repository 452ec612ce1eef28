"""A deliberately naive transcription of spec §5-6 used as a test oracle.

It shares no code with `ptc_runtime.contracts.validate`: the optimised validator is checked
against it (differential), so a bug would have to be made twice, the same way, to go unseen.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Iterable, Mapping, Sequence
from typing import cast

from ptc_compiler.signatures import ListOf, MapOf, Prim, SigType
from ptc_runtime.collections import PSet, PVec
from ptc_runtime.values import Keyword


def _text(k: object) -> str | None:
    if isinstance(k, Keyword):
        return k.name
    if isinstance(k, str):
        return k
    return None


def _same(a: str, b: str) -> bool:
    return a.replace("-", "_") == b.replace("-", "_")


def accepts(t: SigType, v: object) -> bool:
    """Does `v` satisfy `t`? (the spec's tables, read literally)"""
    if v is None:
        return t.optional or (isinstance(t, Prim) and t.name == "any")
    if isinstance(t, Prim):
        return _prim(t.name, v)
    if isinstance(t, ListOf):
        is_list = isinstance(v, list | tuple | PVec)
        return is_list and all(accepts(t.item, x) for x in cast("Iterable[object]", v))
    if not isinstance(v, Mapping):
        return False
    used: list[object] = []
    for f in t.fields:
        hits = [k for k in v if (txt := _text(k)) is not None and _same(txt, f.name)]
        used += hits
        if len(hits) > 1:
            return False
        if not hits:
            if not f.type.optional:
                return False
        elif not accepts(f.type, v[hits[0]]):
            return False
    return not t.closed or all(any(k is u for u in used) for k in v)


def _prim(name: str, v: object) -> bool:
    if name == "any":
        return True
    if name == "string":
        return isinstance(v, str)
    if name == "int":
        return isinstance(v, int) and not isinstance(v, bool)
    if name == "float":
        if isinstance(v, bool):
            return False
        return isinstance(v, int) or (isinstance(v, float) and math.isfinite(v))
    if name == "bool":
        return isinstance(v, bool)
    if name == "keyword":
        return isinstance(v, Keyword)
    if name == "datetime":
        return isinstance(v, dt.datetime) and v.tzinfo is not None and v.utcoffset() is not None
    assert name == "map"
    return isinstance(v, Mapping)


def path_exists(t: SigType, path: Sequence[str | int]) -> bool:
    """Is `path` a position of type `t` (names as declared, ints inside lists)?"""
    for seg in path:
        if isinstance(seg, int):
            if not isinstance(t, ListOf):
                return False
            t = t.item
        else:
            if not isinstance(t, MapOf):
                return False
            found = [f for f in t.fields if f.name == seg]
            if not found:
                return False
            t = found[0].type
    return True


def is_set_like(v: object) -> bool:
    return isinstance(v, set | frozenset | PSet)
