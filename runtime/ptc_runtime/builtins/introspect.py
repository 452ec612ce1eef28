"""Introspection: `doc dir apropos export-meta source`.

Builtins are described from the registry. Prelude exports come from a `PreludeIndex`
the host installs for a run with `use_prelude` (a context variable, so concurrent runs
never see each other's prelude); without one, only builtins are known.
"""

from __future__ import annotations

import contextvars
from collections.abc import Mapping, Sequence
from typing import Final, Protocol

from ptc_runtime.builtins.registry import NAMESPACE_ALIASES, BuiltinSpec, declare
from ptc_runtime.collections import kind_name
from ptc_runtime.context import current, emit_line
from ptc_runtime.errors import PtcError
from ptc_runtime.values import SymbolRef

DECLS: list[BuiltinSpec] = []

_JAVA_PREFIXES: Final = ("java.time.", "java.lang.", "java.util.")


class PreludeIndex(Protocol):
    """What introspection needs from an attached prelude."""

    def namespaces(self) -> Sequence[str]:
        """Namespaces that have visible exports."""
        ...

    def exports(self, ns: str) -> Sequence[str]:
        """Export refs (`ns/name`) of `ns`, or empty."""
        ...

    def doc_text(self, ref: str) -> str | None:
        """Printed documentation of export `ref`, or None."""
        ...

    def meta(self, ref: str) -> Mapping[object, object] | None:
        """The `export-meta` map of `ref`, or None."""
        ...

    def source(self, ref: str) -> str | None:
        """Defining form text of `ref`, or None."""
        ...

    def search(self, term: str) -> Sequence[str]:
        """Refs whose name, signature or description contains `term` (lower case)."""
        ...


PRELUDE: contextvars.ContextVar[PreludeIndex | None] = contextvars.ContextVar(
    "ptc_prelude", default=None
)


def use_prelude(index: PreludeIndex | None) -> contextvars.Token[PreludeIndex | None]:
    """Install the prelude for the current run; `PRELUDE.reset(token)` afterwards."""
    return PRELUDE.set(index)


def current_prelude() -> PreludeIndex | None:
    """The prelude of this run: `use_prelude`, else the one the program attached."""
    index = PRELUDE.get()
    if index is not None:
        return index
    try:
        found: PreludeIndex | None = current().options.get("prelude")
    except PtcError:
        return None
    return found


def _registry() -> Mapping[str, BuiltinSpec]:
    from ptc_runtime.builtins import BUILTINS

    return BUILTINS


def _ref_text(who: str, x: object) -> str:
    if type(x) is str:
        return x
    if type(x) is SymbolRef:
        return x.name
    raise PtcError("type_error", f"{who}: expected a name as a string, got {kind_name(x)}")


def find_builtin(ref: str) -> BuiltinSpec | None:
    """The builtin `ref` names: `join`, `str/join`, `clojure.string/join`, `java.lang.Math/abs`."""
    builtins = _registry()
    spec = builtins.get(ref)
    if spec is not None:
        return spec
    ns, sep, name = ref.partition("/")
    if not sep or not name:
        return None
    group = NAMESPACE_ALIASES.get(ns)
    if group is not None:
        for candidate in (name, f"{ns}/{name}", f"{group}/{name}"):
            spec = builtins.get(candidate)
            if spec is not None and group in spec.groups:
                return spec
        return None
    for prefix in _JAVA_PREFIXES:
        if ns.startswith(prefix):
            return builtins.get(f"{ns[len(prefix) :]}/{name}")
    return None


def builtin_doc(spec: BuiltinSpec) -> str:
    """Two lines: the name with its argument counts, then the doc."""
    counts = [str(a) for a in spec.arities]
    if spec.variadic_min is not None:
        counts.append(f"{spec.variadic_min} or more")
    arity = f"takes {' or '.join(counts)} argument(s)" if counts else "a constant"
    return f"{spec.name} ({arity})\n  {spec.doc}"


@declare(DECLS, "doc", arities=(1,), pure=False, doc="Print the documentation of a name.")
def doc(ref: object) -> None:
    name = _ref_text("doc", ref)
    spec = find_builtin(name)
    prelude = current_prelude()
    text = builtin_doc(spec) if spec is not None else None
    if text is None and prelude is not None:
        text = prelude.doc_text(name)
    for line in (text or f"No documentation found for {name[:100]}").split("\n"):
        emit_line(line)


@declare(DECLS, "dir", arities=(0, 1), doc="Prelude namespaces, or the names in one namespace.")
def dir_(ns: object = None) -> list[str]:
    prelude = current_prelude()
    if ns is None:
        return sorted(prelude.namespaces()) if prelude is not None else []
    name = _ref_text("dir", ns)
    found: list[str] = list(prelude.exports(name)) if prelude is not None else []
    group = NAMESPACE_ALIASES.get(name)
    for key, spec in _registry().items():
        if group is not None and group in spec.groups:
            found.append(f"{name}/{key.rsplit('/', 1)[-1]}")
        elif group is None and key.startswith(name + "/"):
            found.append(key)
    return sorted(set(found))


@declare(DECLS, "apropos", arities=(1,), doc="Names whose name or doc contains the query.")
def apropos(query: object) -> list[str]:
    term = _ref_text("apropos", query).strip().lower()
    if not term:
        return []
    hits: set[str] = set()
    for key, spec in _registry().items():
        if term in key.lower() or term in spec.doc.lower():
            hits.add(key)
    prelude = current_prelude()
    if prelude is not None:
        hits.update(prelude.search(term))
    return sorted(hits)


@declare(DECLS, "export-meta", arities=(1,), doc="Metadata map of a prelude export, or nil.")
def export_meta(ref: object) -> object:
    prelude = current_prelude()
    if prelude is None:
        return None
    return prelude.meta(_ref_text("export-meta", ref))


@declare(DECLS, "source", arities=(1,), pure=False, doc="Print the source of a prelude export.")
def source(ref: object) -> None:
    name = _ref_text("source", ref)
    prelude = current_prelude()
    text = prelude.source(name) if prelude is not None else None
    if text is None:
        what = "a builtin" if find_builtin(name) is not None else "not found"
        text = f"Source not available for {name[:100]} ({what})"
    for line in text.split("\n"):
        emit_line(line)
