"""The signature IR: frozen, comparable type trees produced by `parse` and `from_json_schema`.

Equality ignores everything but meaning: ``parse("{a :int}") == parse("() -> {a :int}")``,
``:boolean`` is stored as ``bool``. A `Signature` compiles its validators once, at construction,
so validating a call repeats no per-signature work.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final, Literal

if TYPE_CHECKING:
    from ptc_runtime.contracts.errors import ValidationError

PrimName = Literal["string", "int", "float", "bool", "keyword", "datetime", "map", "any"]

PRIM_NAMES: Final[tuple[PrimName, ...]] = (
    "string",
    "int",
    "float",
    "bool",
    "keyword",
    "datetime",
    "map",
    "any",
)

#: Deepest accepted nesting of `[`/`{` constructors.
MAX_DEPTH: Final = 64


@dataclass(frozen=True, slots=True)
class Prim:
    """A primitive type word (`:int`, `:any`, ...), optionally nilable (`:int?`)."""

    name: PrimName
    optional: bool = False


@dataclass(frozen=True, slots=True)
class ListOf:
    """`[T]`: a vector whose every element satisfies `item`."""

    item: SigType
    optional: bool = False


@dataclass(frozen=True, slots=True)
class Field:
    """A named map field or parameter; `name` is spelled as declared."""

    name: str
    type: SigType


@dataclass(frozen=True, slots=True)
class MapOf:
    """`{f T, ...}`: declared fields in declaration order.

    `closed` maps exist only as the result of `from_json_schema` (additionalProperties: false)
    and reject keys that no declared field consumes.
    """

    fields: tuple[Field, ...]
    optional: bool = False
    closed: bool = False


SigType = Prim | ListOf | MapOf

Validator = Callable[[object], "list[ValidationError]"]


@dataclass(frozen=True)
class Signature:
    """`(params) -> output`; an output-only signature has no parameters.

    `check_input` / `check_output` are the compiled validators (plain callables needing only the
    standard library and `ptc_runtime` at call time); they are not part of equality.
    """

    params: tuple[Field, ...]
    output: SigType
    check_input: Validator = field(init=False, repr=False, compare=False)
    check_output: Validator = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        from ptc_runtime.contracts.validate import compile_input, compile_type

        object.__setattr__(self, "check_input", compile_input(self.params))
        object.__setattr__(self, "check_output", compile_type(self.output))

    @property
    def param_names(self) -> tuple[str, ...]:
        """Parameter names as declared, in order."""
        return tuple(p.name for p in self.params)


def norm_name(name: str) -> str:
    """The public spelling of a declared name or key text: every `-` becomes `_`."""
    return name.replace("-", "_")


def is_optional(t: SigType) -> bool:
    """True when `t` admits nil (and, as a field, absence)."""
    return t.optional


def type_word(t: SigType) -> str:
    """The word used in `expected` of an error: `int`, `list`, `map`, ..."""
    if isinstance(t, Prim):
        return t.name
    if isinstance(t, ListOf):
        return "list"
    return "map"


def depth(t: SigType) -> int:
    """Nesting depth: `[`/`{` constructors on the longest root-to-leaf path."""
    if isinstance(t, Prim):
        return 0
    if isinstance(t, ListOf):
        return 1 + depth(t.item)
    return 1 + max((depth(f.type) for f in t.fields), default=0)
