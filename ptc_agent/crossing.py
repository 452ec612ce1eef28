"""Mission values crossing into the trusted workflow (seed 001 `run-outcome` values).

A model program's `(return v)` or `(fail v)` value reaches the workflow that runs the loop
(`agent.core/run-value`, `run-outcome`, ...) as PTC data, not as its JSON projection:
keywords stay keywords, sets stay sets, keyword and vector map keys stay what they were, so
a workflow can use the value as the program built it. The mission program is untrusted, so
nothing it returns may carry something executable or a host object into the trusted
environment: such parts cross as inert text.

The value crosses as a host tool result (`kernel-eval`), so `to_workflow` builds the host
data that the runtime's `from_host` turns back into the same PTC value:

| In the mission value | Host data | In the workflow |
| --- | --- | --- |
| nil, booleans, numbers, strings, keywords, quoted symbols | the same | the same |
| vectors | lists | vectors |
| maps with scalar, keyword or vector keys | dicts (vector keys as tuples) | the same map |
| sets of scalars, keywords, vectors | frozensets (vectors as tuples) | the same set |
| a map or set as a map key or set member | its printed text | text |
| dates and times | their canonical text, as in JSON results | text |
| functions, vars, regexes | inert labels (`#function[...]`, `#'name`, `#"..."`) | text |
| anything else | `#<kind>` | text |

A value nested deeper than the Python stack allows crosses as its JSON projection.

An isolated mission's value reaches the host already in this shape, rebuilt from the
worker's native wire form (`ptc_runtime.worker.crossing`): its functions, regexes and dates
arrive as `Label`s, which cross here as the same text as in-process.
"""

from __future__ import annotations

from typing import Final

from ptc_runtime.host_api import (
    LABEL_CHARS,
    Keyword,
    Label,
    PMap,
    PSet,
    PVec,
    SymbolRef,
    from_key,
    label_of,
    pr_str,
    to_json_value,
)

_DATA: Final = (type(None), bool, int, float, str, Keyword, SymbolRef)


def to_workflow(value: object) -> object:
    """`value` as host data that becomes the same PTC value in the workflow (module doc)."""
    try:
        return _cross(value)
    except RecursionError:
        return to_json_value(value)


def _cross(x: object) -> object:
    t = type(x)
    if t in _DATA:
        return x
    if t is list or t is PVec:
        return [_cross(v) for v in x]  # type: ignore[attr-defined]
    if t is dict or t is PMap:
        return {_hashable(from_key(k)): _cross(v) for k, v in x.items()}  # type: ignore[attr-defined]
    if t is PSet:
        items = [_hashable(v) for v in x]  # type: ignore[attr-defined]
        return frozenset(items)
    return _leaf(x)


def _hashable(x: object) -> object:
    """A map key or set element: vectors become tuples; a map or set becomes its text."""
    t = type(x)
    if t in _DATA:
        return x
    if t is list or t is PVec:
        return tuple(_hashable(v) for v in x)  # type: ignore[attr-defined]
    if t is dict or t is PMap or t is PSet:
        return pr_str(x, LABEL_CHARS)
    return _leaf(x)


def _leaf(x: object) -> str:
    # A label that crossed from an isolated worker already holds the workflow's text.
    return x.data if type(x) is Label else label_of(x).data


__all__ = ["LABEL_CHARS", "to_workflow"]
