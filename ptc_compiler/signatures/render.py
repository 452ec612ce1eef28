"""`Signature` -> canonical one-line text; ``parse(render(s)) == s``.

Canonical form: ``(name T, name T) -> T``, ``() -> T`` without parameters, maps
``{name T, name T}``, lists ``[T]``, ``?`` attached after the type, names as declared,
``:boolean`` as ``:bool``. A closed map (from JSON Schema) renders like an open one: the
signature syntax has no closed maps.
"""

from __future__ import annotations

from ptc_runtime.contracts.types import Field, ListOf, Prim, Signature, SigType


def render_type(t: SigType) -> str:
    """A bare type (constants' `{:type ...}`)."""
    suffix = "?" if t.optional else ""
    if isinstance(t, Prim):
        return ":" + t.name + suffix
    if isinstance(t, ListOf):
        return "[" + render_type(t.item) + "]" + suffix
    return "{" + _fields(t.fields) + "}" + suffix


def _fields(fields: tuple[Field, ...]) -> str:
    return ", ".join(f.name + " " + render_type(f.type) for f in fields)


def render(sig: Signature) -> str:
    """The canonical text: ``(query :string, limit :int?) -> {items [:string]}``."""
    return "(" + _fields(sig.params) + ") -> " + render_type(sig.output)


def render_output(sig: Signature) -> str:
    """An output-only signature as its bare type; anything else as `render`."""
    return render_type(sig.output) if not sig.params else render(sig)
