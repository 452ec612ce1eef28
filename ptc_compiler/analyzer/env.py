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


@dataclass(frozen=True)
class AnalysisEnv:
    """What a program may refer to besides its own definitions.

    `user_names`: definitions that already exist (earlier turns, preludes).
    `tools`: granted tool names; None means "do not check".
    `builtins`: canonical builtin name -> spec (default: the real registry).
    """

    user_names: frozenset[str] = frozenset()
    tools: frozenset[str] | None = None
    builtins: Mapping[str, BuiltinSpec] = field(default_factory=default_builtins)
