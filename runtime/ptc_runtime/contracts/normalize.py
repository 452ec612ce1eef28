"""Key normalisation at the public (JSON-shaped) boundary.

`to_public` is structural, not contract-driven: every map key, recursively, becomes its text
(a keyword's name, a string itself, other keys their printed form) with `-` -> `_`; keyword
values become their names; vectors and sets become lists; datetimes and dates become ISO 8601
strings. Two keys of one map that normalise alike are an error, never silently merged.

`from_public` goes the other way *guided by a contract*: strings at `:keyword` and
`:datetime` positions become runtime keywords and aware datetimes, so that a JSON-shaped value
can then be validated. Keys are never renamed back (no `_` -> `-`).
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterable, Mapping
from typing import Final, Literal, cast

from ptc_runtime.contracts.errors import NormalizationError
from ptc_runtime.contracts.types import Field, ListOf, MapOf, Prim, Signature, SigType
from ptc_runtime.contracts.validate import is_map, is_set, is_vector, key_text, printed_key
from ptc_runtime.values import Keyword, keyword

#: Deepest value `to_public` walks; deeper values are rejected, never a RecursionError.
MAX_VALUE_DEPTH: Final = 256


def public_key(k: object) -> str:
    """The public spelling of one map key."""
    text = key_text(k)
    return (text if text is not None else printed_key(k)).replace("-", "_")


def to_public(value: object) -> object:
    """`value` with every map key normalised, recursively (raises `NormalizationError`)."""
    return _public(value, [], 0)


def _public(v: object, path: list[str | int], depth: int) -> object:
    if v is None or isinstance(v, bool | int | float | str):
        return v
    if isinstance(v, Keyword):
        return v.name
    if isinstance(v, _dt.date):  # datetime is a date subclass
        return v.isoformat()
    if depth >= MAX_VALUE_DEPTH:
        raise NormalizationError(f"value nested deeper than {MAX_VALUE_DEPTH} levels", path)
    if is_map(v):
        assert isinstance(v, Mapping)
        out: dict[str, object] = {}
        for k, item in v.items():
            pk = public_key(k)
            if pk in out:
                raise NormalizationError(f"two keys normalise to '{pk[:64]}'", [*path, pk])
            path.append(pk)
            out[pk] = _public(item, path, depth + 1)
            path.pop()
        return out
    if is_vector(v) or is_set(v):
        items: list[object] = []
        for i, item in enumerate(cast("Iterable[object]", v)):
            path.append(i)
            items.append(_public(item, path, depth + 1))
            path.pop()
        return items
    return v


def from_public(
    contract: Signature | SigType,
    value: object,
    *,
    side: Literal["input", "output"] = "output",
) -> object:
    """`value` with strings at `:keyword`/`:datetime` positions turned into runtime values.

    Values that do not fit are left as they are for validation to report; containers are
    rebuilt only along declared typed positions, everything else is passed through unchanged.
    """
    if isinstance(contract, Signature):
        if side == "input":
            return _fields_from(contract.params, value)
        contract = contract.output
    return _from(contract, value)


def _from(t: SigType, v: object) -> object:
    if isinstance(t, Prim):
        if isinstance(v, str):
            if t.name == "keyword":
                return keyword(v)
            if t.name == "datetime":
                return _datetime(v)
        return v
    if isinstance(t, ListOf):
        if isinstance(v, list):
            return [_from(t.item, x) for x in v]
        return v
    assert isinstance(t, MapOf)
    return _fields_from(t.fields, v)


def _fields_from(fields: tuple[Field, ...], v: object) -> object:
    if not is_map(v) or not fields:
        return v
    assert isinstance(v, Mapping)
    by_public = {f.name.replace("-", "_"): f.type for f in fields}
    out: dict[object, object] = {}
    for k, item in v.items():
        text = key_text(k)
        t = by_public.get(text.replace("-", "_")) if text is not None else None
        out[k] = item if t is None else _from(t, item)
    return out


def _datetime(text: str) -> object:
    """An aware datetime from ISO 8601 text with an offset; anything else stays a string."""
    try:
        parsed = _dt.datetime.fromisoformat(text)
    except ValueError:
        return text
    return parsed if parsed.utcoffset() is not None else text
