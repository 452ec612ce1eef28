"""Signatures as plain JSON data, so compiled programs and artifacts can carry them.

`to_data(sig)` gives nested lists/dicts/strings; `from_data(d)` rebuilds the `Signature`
(validators compiled once, then cached by the data's text). The format:

    type  := ["prim", name, optional] | ["list", type, optional]
           | ["map", [[field-name, type], ...], optional, closed]
    sig   := {"params": [[name, type], ...], "output": type}
"""

from __future__ import annotations

import functools
import json
from typing import Any

from ptc_runtime.contracts.types import (
    MAX_DEPTH,
    PRIM_NAMES,
    Field,
    ListOf,
    MapOf,
    Prim,
    Signature,
    SigType,
)
from ptc_runtime.errors import PtcError


def type_to_data(t: SigType) -> list[Any]:
    if isinstance(t, Prim):
        return ["prim", t.name, t.optional]
    if isinstance(t, ListOf):
        return ["list", type_to_data(t.item), t.optional]
    fields = [[f.name, type_to_data(f.type)] for f in t.fields]
    return ["map", fields, t.optional, t.closed]


def to_data(sig: Signature) -> dict[str, Any]:
    return {
        "params": [[p.name, type_to_data(p.type)] for p in sig.params],
        "output": type_to_data(sig.output),
    }


def to_text(sig: Signature) -> str:
    """Canonical JSON text of `sig` (what generated code embeds as a constant)."""
    return json.dumps(to_data(sig), separators=(",", ":"), sort_keys=True)


def type_from_data(d: object, depth: int = 0) -> SigType:
    if depth > MAX_DEPTH + 1 or not isinstance(d, list) or not d:
        raise PtcError("invalid_contract", "malformed contract data")
    tag = d[0]
    if tag == "prim" and len(d) == 3 and d[1] in PRIM_NAMES and type(d[2]) is bool:
        return Prim(d[1], d[2])
    if tag == "list" and len(d) == 3 and type(d[2]) is bool:
        return ListOf(type_from_data(d[1], depth + 1), d[2])
    if tag == "map" and len(d) == 4 and isinstance(d[1], list) and type(d[2]) is bool:
        fields = tuple(_field(f, depth + 1) for f in d[1])
        return MapOf(fields, d[2], bool(d[3]))
    raise PtcError("invalid_contract", "malformed contract data")


def _field(f: object, depth: int) -> Field:
    if not (isinstance(f, list) and len(f) == 2 and isinstance(f[0], str)):
        raise PtcError("invalid_contract", "malformed contract data")
    return Field(f[0], type_from_data(f[1], depth))


def from_data(d: object) -> Signature:
    if not (isinstance(d, dict) and isinstance(d.get("params"), list) and "output" in d):
        raise PtcError("invalid_contract", "malformed contract data")
    params = tuple(_field(p, 1) for p in d["params"])
    return Signature(params, type_from_data(d["output"], 1))


@functools.lru_cache(maxsize=4096)
def from_text(text: str) -> Signature:
    """The `Signature` of `to_text` output (validators compiled once per distinct text)."""
    try:
        data = json.loads(text)
    except ValueError:
        raise PtcError("invalid_contract", "malformed contract data") from None
    return from_data(data)
