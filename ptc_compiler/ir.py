"""The IR: what the analyzer produces from forms and lowering turns into Python AST.

Nodes are small, frozen and closed (`Node` is the union). Every name arrives
resolved: a local is a unique Python-safe identifier chosen by the analyzer
(``v<n>_<name>``), a builtin is its canonical registry name, a user definition
is its PTC name (looked up in the user namespace at run time). Macros,
destructuring, `cond`, `case`, threading, `when` ... are desugared by the
analyzer, so lowering only knows the forms below and never raises `PtcError`.
Equality ignores spans, so tests compare trees built by hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field, is_dataclass
from typing import TypeAlias

from ptc_compiler.fast_init import fast_frozen_init
from ptc_compiler.forms import NO_SPAN, Span
from ptc_runtime.values import Keyword, SymbolRef

ConstValue: TypeAlias = bool | int | float | str | Keyword | SymbolRef | None


@dataclass(frozen=True, slots=True)
class Const:
    """A literal value (keywords and quoted symbols included)."""

    value: ConstValue
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class RegexLit:
    """`#"..."`: pattern source, validated by the analyzer, compiled once per run."""

    source: str
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class Local:
    """A reference to a local binding by its unique identifier."""

    ident: str
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class UserRef:
    """A user-namespace definition (`def`/`defn`, this turn or an earlier one).

    `lenient`: evaluates to nil when the name is not defined at run time (bare
    operands of `or`, and a `def`'s reference to its own name in its initialiser).
    """

    name: str
    lenient: bool = False
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class BuiltinRef:
    """A builtin by canonical registry name (`map`, `join`, `Math/abs`, `.indexOf`)."""

    name: str
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class DataRef:
    """`data/<key>`: flexible lookup in the run's data."""

    key: str
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class ToolRef:
    """`tool/<name>` used as a value (not in call position)."""

    name: str
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class SiblingRef:
    """A definition of the component being compiled (prelude source only), looked up in
    the component's own namespace table at call time (forward and mutual references).
    `const`: a `def` constant (its value), otherwise a function."""

    name: str
    const: bool = False
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class ExportRef:
    """A public export `ns/name` of an attached prelude (programs) or of a direct
    dependency (prelude source). `const`: a `def` constant (its value), else a function."""

    ref: str
    const: bool = False
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class HistoryRef:
    """`*1`, `*2`, `*3`."""

    n: int
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class VectorLit:
    items: tuple[Node, ...]
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class MapLit:
    """Map literal; keys are distinct forms (duplicates were rejected by the analyzer)."""

    pairs: tuple[tuple[Node, Node], ...]
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class SetLit:
    items: tuple[Node, ...]
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class Do:
    """Evaluate in order, value of the last; empty is nil."""

    body: tuple[Node, ...]
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class If:
    test: Node
    then: Node
    else_: Node  # the analyzer supplies Const(None) when absent
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class Let:
    """Sequential simple bindings (destructuring is already desugared into more bindings)."""

    bindings: tuple[tuple[str, Node], ...]
    body: Node
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class Loop:
    """`loop`: simple bindings and a body in which `Recur` (tail position only) jumps back."""

    bindings: tuple[tuple[str, Node], ...]
    body: Node
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class Recur:
    """Rebind the innermost `Loop` bindings or `FnArity` parameters and jump back.

    The analyzer has checked tail position and the count (a rest parameter is one slot).
    """

    args: tuple[Node, ...]
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class FnArity:
    """One arity: fixed parameters, an optional rest parameter (a vector), a body."""

    params: tuple[str, ...]
    rest: str | None
    body: Node
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class Fn:
    """A closure. `self_name` is the local ident bound to the function inside its body.

    `name` is the PTC-visible name for messages (`defn` name, `fn` name, or None).
    Arities are sorted by fixed-parameter count; at most one has a rest parameter.
    """

    arities: tuple[FnArity, ...]
    self_name: str | None = None
    name: str | None = None
    signature: str | None = None  # from a `defn` attribute map {:signature "..."}
    doc: str | None = None  # docstring or attribute-map :doc of a `defn`
    span: Span = field(default=NO_SPAN, compare=False)
    # The parsed signature as canonical contract data (`ptc_runtime.contracts.data`):
    # calls are validated on both sides when set.
    contract: str | None = None


@dataclass(frozen=True, slots=True)
class Call:
    """Call any callable value: builtins, user functions, locals, keywords, maps, sets."""

    fn: Node
    args: tuple[Node, ...]
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class RtCall:
    """Call a runtime-internal helper (`ptc_runtime.rt.HELPERS[helper]`), not a builtin.

    Used by desugaring (destructuring, `case`, `some->` ...); never visible to programs.
    """

    helper: str
    args: tuple[Node, ...]
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class ToolCall:
    """`(tool/name arg?)`: `arg` is the single map argument expression (None: no argument).

    Keyword-style pairs were gathered into a `MapLit` by the analyzer.
    """

    name: str
    arg: Node | None
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class Def:
    """`def`/`defonce`/`defn`: bind `name` in the user namespace; evaluates to `#'name`."""

    name: str
    value: Node
    once: bool = False
    doc: str | None = None
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class And:
    items: tuple[Node, ...]
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class Or:
    items: tuple[Node, ...]
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class ForBind:
    """Iterate `ident` over the elements of `coll` (maps give `[k v]` entries)."""

    ident: str
    coll: Node
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class ForWhen:
    test: Node
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class ForWhile:
    """Stop the innermost enclosing `ForBind` level when falsy."""

    test: Node
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class ForLet:
    bindings: tuple[tuple[str, Node], ...]
    span: Span = field(default=NO_SPAN, compare=False)


ForClause: TypeAlias = ForBind | ForWhen | ForWhile | ForLet


@dataclass(frozen=True, slots=True)
class For:
    """`for` (collect=True, a vector) and `doseq` (collect=False, nil).

    The first clause is always a `ForBind`; each element visited costs one step.
    """

    clauses: tuple[ForClause, ...]
    body: Node
    collect: bool
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class Return:
    value: Node
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class Fail:
    value: Node
    span: Span = field(default=NO_SPAN, compare=False)


Node: TypeAlias = (
    Const
    | RegexLit
    | Local
    | UserRef
    | BuiltinRef
    | DataRef
    | ToolRef
    | SiblingRef
    | ExportRef
    | HistoryRef
    | VectorLit
    | MapLit
    | SetLit
    | Do
    | If
    | Let
    | Loop
    | Recur
    | Fn
    | Call
    | RtCall
    | ToolCall
    | Def
    | And
    | Or
    | For
    | Return
    | Fail
)


@dataclass(frozen=True, slots=True)
class Program:
    """A whole analyzed program: its body (an implicit `do`) and static facts about it."""

    body: Node
    defines: frozenset[str] = frozenset()  # user names a top-level def makes known
    tools: frozenset[str] = frozenset()  # every tool/<name> referenced
    data_keys: frozenset[str] = frozenset()  # every data/<key> referenced
    #: Key of the attached prelude bundle the program's `ExportRef`s resolve in (or None).
    prelude_key: str | None = None


# The analyzer builds these by the hundred per compile: each node class gets an `__init__`
# that fills its slots directly (same signature and defaults, still frozen).
for _cls in list(globals().values()):
    if isinstance(_cls, type) and _cls.__module__ == __name__ and is_dataclass(_cls):
        fast_frozen_init(_cls)
del _cls
