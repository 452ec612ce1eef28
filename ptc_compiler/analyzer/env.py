"""The analyzer's view of the world outside the program: user names, tools, builtins."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from ptc_runtime.builtins.registry import BuiltinSpec

_EMPTY: Mapping[str, BuiltinSpec] = MappingProxyType({})


def default_builtins() -> Mapping[str, BuiltinSpec]:
    """The real registry (`ptc_runtime.builtins.BUILTINS`), or nothing while it is missing."""
    try:
        module = importlib.import_module("ptc_runtime.builtins")
    except ImportError:
        return _EMPTY
    found: Mapping[str, BuiltinSpec] = getattr(module, "BUILTINS", _EMPTY)
    return found


@dataclass(frozen=True, slots=True)
class ExportInfo:
    """What analysis needs of a prelude export `ns/name`: its kind and its arities.

    `arities`: fixed parameter counts; `variadic_min`: the least count of a variadic
    arity (None: not variadic). A constant has `const=True` and no arities.
    """

    ref: str
    const: bool = False
    arities: tuple[int, ...] = ()
    variadic_min: int | None = None

    def accepts(self, n: int) -> bool:
        if self.const:
            return n == 0
        return n in self.arities or (self.variadic_min is not None and n >= self.variadic_min)

    def arity_text(self) -> str:
        parts = [str(a) for a in self.arities]
        if self.variadic_min is not None:
            parts.append(f"{self.variadic_min} or more")
        return " or ".join(parts) or "0"


@dataclass(frozen=True)
class AnalysisEnv:
    """What a program may refer to besides its own definitions.

    `user_names`: definitions that already exist (earlier turns, preludes).
    `tools`: granted tool names; None means "do not check".
    `builtins`: canonical builtin name -> spec (default: the real registry).
    """

    user_names: frozenset[str] = frozenset()
    tools: frozenset[str] | None = None  # `tool/` members; "ns/member" for other namespaces
    builtins: Mapping[str, BuiltinSpec] = field(default_factory=default_builtins)
    #: Prelude exports a program may call as `ns/name` (ref -> info); in component mode,
    #: the exports of the component's direct dependencies only.
    exports: Mapping[str, ExportInfo] = field(default_factory=dict)
    #: Namespaces of the attached preludes: protected, and `ns/x` must be an export.
    prelude_namespaces: frozenset[str] = frozenset()
    #: Key of the attached bundle (set by an `Environment`; carried to the IR program).
    prelude_key: str | None = None
    #: Host tools only a prelude may call; a program naming one is refused.
    private_tools: frozenset[str] = frozenset()
    #: Component mode (prelude source): the namespace being compiled, and its own
    #: definitions (name -> True for a `def` constant, False for a function).
    component: str | None = None
    siblings: Mapping[str, bool] = field(default_factory=dict)

    @property
    def binding_namespaces(self) -> frozenset[str]:
        """Host binding namespaces other than `tool/` (from qualified names in `tools`)."""
        return frozenset(t.split("/", 1)[0] for t in self.tools or () if "/" in t)
