"""The builtin registry: every builtin declared once, with its facts.

Each domain module (`arithmetic`, `collections_`, ...) keeps a list `DECLS` filled by
the `declare` decorator. `build()` merges them into one read-only mapping from the
canonical PTC name to its `BuiltinSpec`; the analyzer resolves symbols against it,
lowering names each builtin's global (`BuiltinSpec.py_name`) in generated code, and
the docs, the language card and `doc`/`dir`/`apropos` are generated from it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal, TypeVar

from ptc_runtime.errors import PtcError

#: Namespace groups a builtin can also be reached through (`str/join`, `set/union` ...).
#: "core" means `clojure.core/` and `core/`. Aliases map onto these groups.
Group = Literal["core", "string", "set", "walk", "json", "regex", "java"]

NAMESPACE_ALIASES: Mapping[str, Group] = MappingProxyType(
    {
        "clojure.core": "core",
        "core": "core",
        "clojure.string": "string",
        "str": "string",
        "string": "string",
        "clojure.set": "set",
        "set": "set",
        "clojure.walk": "walk",
        "walk": "walk",
        "json": "json",
        "regex": "regex",
    }
)


@dataclass(frozen=True, slots=True)
class BuiltinSpec:
    """One builtin: name, Python implementation, arities, doc and facts."""

    name: str  # canonical PTC name, e.g. "get-in"; Java entries keep theirs ("Math/abs")
    fn: Callable[..., object]
    arities: tuple[int, ...]  # accepted fixed argument counts
    doc: str  # one line, verbatim on the language card
    variadic_min: int | None = None  # accepts any count >= this (in addition to arities)
    groups: tuple[Group, ...] = ("core",)  # namespace groups that expose it
    bare: bool = True  # callable without a namespace (False for json/..., Math/...)
    pure: bool = True  # no effect besides its result (println, tools are not)
    allocates: bool = False  # may allocate in proportion to an argument's value
    py_name: str = field(default="", compare=False)  # global name in generated code

    def accepts(self, n: int) -> bool:
        """True when `n` arguments is a valid call."""
        return n in self.arities or (self.variadic_min is not None and n >= self.variadic_min)

    def arity_text(self) -> str:
        """Human text for arity errors: "1 or 2", "2 or more"."""
        parts = [str(a) for a in self.arities]
        if self.variadic_min is not None:
            parts.append(f"{self.variadic_min} or more")
        return " or ".join(parts) if parts else "0"


F = TypeVar("F", bound=Callable[..., object])


def wrong_count(name: str, got: int, expected: str) -> PtcError:
    """The `arity_error` of a variadic builtin given fewer arguments than its least count.

    A call `(f)` is checked by Python's own signature, but `(apply f [])` or a builtin
    passed as a value reaches a `*xs` function with any count, so such a function checks
    its minimum itself, with the same message the executor gives a signature mismatch."""
    return PtcError(
        "arity_error", f"{name}: wrong number of arguments ({got}), expected {expected}"
    )


def declare(
    decls: list[BuiltinSpec],
    name: str,
    *,
    arities: tuple[int, ...] = (),
    variadic_min: int | None = None,
    doc: str,
    groups: tuple[Group, ...] = ("core",),
    bare: bool = True,
    pure: bool = True,
    allocates: bool = False,
) -> Callable[[F], F]:
    """Decorator: declare the decorated function as builtin `name` in `decls`."""

    def register(fn: F) -> F:
        decls.append(
            BuiltinSpec(
                name=name,
                fn=fn,
                arities=arities,
                doc=doc,
                variadic_min=variadic_min,
                groups=groups,
                bare=bare,
                pure=pure,
                allocates=allocates,
            )
        )
        return fn

    return register


_UNSAFE = re.compile(r"[^A-Za-z0-9]")
_SPELL = {
    "+": "plus",
    "-": "_",
    "*": "star",
    "/": "slash",
    "<": "lt",
    ">": "gt",
    "=": "eq",
    "?": "_p",
    "!": "_x",
    "'": "_q",
    ".": "_dot_",
}


def py_name_for(name: str) -> str:
    """A readable Python identifier for a builtin name (before collision suffixes)."""
    spelled = "".join(_SPELL.get(ch, ch) for ch in name)
    return "b_" + _UNSAFE.sub("_", spelled)


def build(decl_lists: list[list[BuiltinSpec]]) -> Mapping[str, BuiltinSpec]:
    """Merge domain lists into one frozen mapping; duplicate names are a bug."""
    out: dict[str, BuiltinSpec] = {}
    used: set[str] = set()
    for decls in decl_lists:
        for spec in decls:
            if spec.name in out:
                raise ValueError(f"builtin declared twice: {spec.name}")
            base = py_name_for(spec.name)
            py = base
            n = 2
            while py in used:
                py = f"{base}_{n}"
                n += 1
            used.add(py)
            out[spec.name] = BuiltinSpec(
                name=spec.name,
                fn=spec.fn,
                arities=spec.arities,
                doc=spec.doc,
                variadic_min=spec.variadic_min,
                groups=spec.groups,
                bare=spec.bare,
                pure=spec.pure,
                allocates=spec.allocates,
                py_name=py,
            )
    return MappingProxyType(out)
