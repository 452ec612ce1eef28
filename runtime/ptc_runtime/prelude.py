"""Linked prelude bundles at run time: the registry programs resolve `ns/name` in.

A compiled program that uses a prelude carries only the bundle's key (a hash). When its
module runs, `rt_attach(key)` records the bundle's introspection index in the run's context
(`(dir)`, `(doc ...)` see exactly that prelude), and each `ns/name` it references is a
hoisted `rt_export("key|ns/name")`. Component modules get the helpers that wrap their
exports (`rt_pexport`, `rt_signed_export`).

The registry holds bundles weakly: an `Environment` (or a compiled `Program`) keeps its
bundle alive, and a key of a bundle nobody holds any more resolves to nothing. An isolated
worker registers a loaded prelude only for the runs compiled against it (`unregister`).
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from ptc_runtime import context
from ptc_runtime.contracts.calls import signed
from ptc_runtime.contracts.types import Signature
from ptc_runtime.errors import PtcError, ReturnSignal

#: `RunContext.options` key holding the attached prelude's introspection index.
OPTION = "prelude"


class Linked(Protocol):
    """A linked bundle as the runtime sees it."""

    @property
    def key(self) -> str: ...

    @property
    def exports(self) -> Mapping[str, object]: ...

    @property
    def index(self) -> object: ...


_registry: weakref.WeakValueDictionary[str, Any] = weakref.WeakValueDictionary()
_lock = threading.Lock()


def register(bundle: Linked) -> Linked:
    """Make `bundle` resolvable by its key; an equal bundle already registered wins."""
    with _lock:
        found: Linked | None = _registry.get(bundle.key)
        if found is not None:
            return found
        _registry[bundle.key] = bundle
        return bundle


def unregister(bundle: Linked) -> None:
    """Stop resolving `bundle`'s key (an isolated worker between runs); others are kept."""
    with _lock:
        if _registry.get(bundle.key) is bundle:
            del _registry[bundle.key]


def lookup(key: str) -> Linked | None:
    with _lock:
        found: Linked | None = _registry.get(key)
        return found


def _bundle(key: str) -> Linked:
    found = lookup(key)
    if found is None:
        raise PtcError(
            "prelude_unavailable",
            "the prelude this program was compiled against is no longer attached",
        )
    return found


def attach(key: str) -> str:
    """First statement of a program compiled against a prelude: expose it to introspection."""
    bundle = _bundle(key)
    context.current().options[OPTION] = bundle.index
    return key


def export(spec: str) -> object:
    """`ns/name` of the attached bundle (`spec` is "key|ns/name")."""
    key, _, ref = spec.partition("|")
    value = _bundle(key).exports.get(ref, _MISSING)
    if value is _MISSING:
        raise PtcError("unbound_var", f"undefined variable: {ref}")
    return value


_MISSING = object()


def pexport(fn: Callable[..., Any], ref: str) -> Callable[..., Any]:
    """An unsigned export: a `(return v)` inside ends the export call with `v`."""

    def export_call(*args: object) -> object:
        try:
            return fn(*args)
        except ReturnSignal as signal:
            return signal.value

    export_call.__name__ = getattr(fn, "__name__", "fn")
    export_call.__qualname__ = export_call.__name__
    return export_call


def signed_export(sig: Signature, fn: Callable[..., Any], ref: str) -> Callable[..., Any]:
    """A signed export: both sides validated, a `(return v)` inside is its result."""
    return signed(sig, fn, ref, catch_return=True)


HELPERS: dict[str, Any] = {
    "rt_attach": attach,
    "rt_export": export,
    "rt_pexport": pexport,
    "rt_signed_export": signed_export,
}
