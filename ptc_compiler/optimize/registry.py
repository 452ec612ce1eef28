"""The rule registry: what each optimiser rule rewrites, and which rules a compile uses.

A `Rule` declares the builtin or form it rewrites, the shape it matches and the builtins
whose general runtime functions its result must equal; the declarations themselves are the table
in `ptc_compiler.optimize.rules`. A compile runs with one `RuleSet` (all rules, or none
with `compile(..., optimize=False)`), made current for the lowering by `using`; rules
consult it through `on`, and each application is counted in `fired` (process-wide,
for the differential tests: every registered rule must fire on their programs).
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

Stage = Literal["ir", "call", "args", "site"]


@dataclass(frozen=True, slots=True)
class Rule:
    """One optimiser rule.

    `stage`: where it applies. `ir`: an IR -> IR rewrite in `optimize.run`, before
    lowering. `call`: a lowering of a whole call (`Emitter.call`, before the arguments
    are lowered); `args`: a lowering of a builtin call from its lowered arguments; `site`:
    consulted where the general lowering meets its form (a `for`, a binding, a fn body,
    a helper call) or by another rule. `heads`: the builtins a `call`/`args` rule is
    tried on (`":keyword"` for a keyword in head position).
    """

    name: str
    rewrites: str
    pattern: str
    #: the builtins (registry names) whose general functions define what the rewritten
    #: code must do: `ptc_runtime.builtins.BUILTINS[name].fn`
    agrees_with: tuple[str, ...]
    stage: Stage
    heads: tuple[str, ...] = ()
    lower: Callable[..., Any] | None = None


_RULES: dict[str, Rule] = {}


def declare(rule: Rule) -> Rule:
    """Add `rule` to the registry (names are unique)."""
    if rule.name in _RULES:
        raise ValueError(f"optimiser rule {rule.name!r} declared twice")
    _RULES[rule.name] = rule
    return rule


def registered() -> tuple[Rule, ...]:
    """Every declared rule, in declaration order (the order they are tried in)."""
    from ptc_compiler.optimize import rules  # noqa: F401  (the declarations)

    return tuple(_RULES.values())


@dataclass(frozen=True, slots=True)
class RuleSet:
    """The rules one compile may apply."""

    enabled: frozenset[str]

    def at(self, stage: Stage, head: str) -> tuple[Rule, ...]:
        """The enabled `call`/`args` rules tried on builtin `head`, in order."""
        return _table(self.enabled).get((stage, head), ())

    def stage(self, stage: Stage) -> tuple[Rule, ...]:
        return tuple(r for r in registered() if r.stage == stage and r.name in self.enabled)


#: Per distinct set of enabled rules (a handful per process): its rules by stage and head.
_tables: dict[frozenset[str], dict[tuple[Stage, str], tuple[Rule, ...]]] = {}


def _table(enabled: frozenset[str]) -> dict[tuple[Stage, str], tuple[Rule, ...]]:
    table = _tables.get(enabled)
    if table is None:
        built: dict[tuple[Stage, str], list[Rule]] = {}
        for r in registered():
            if r.name in enabled:
                for h in r.heads:
                    built.setdefault((r.stage, h), []).append(r)
        table = {k: tuple(v) for k, v in built.items()}
        _tables[enabled] = table
    return table


_NONE = RuleSet(frozenset())
_current: contextvars.ContextVar[RuleSet] = contextvars.ContextVar("ptc_rules", default=_NONE)
_disabled: contextvars.ContextVar[frozenset[str]] = contextvars.ContextVar(
    "ptc_rules_disabled", default=frozenset()
)


def for_compile(optimize: bool) -> RuleSet:
    """The rules of a compile: none when `optimize` is false, else every registered rule
    but those switched off by an enclosing `disabled`."""
    if not optimize:
        return _NONE
    off = _disabled.get()
    return RuleSet(frozenset(r.name for r in registered() if r.name not in off))


@contextlib.contextmanager
def disabled(*names: str) -> Iterator[None]:
    """Within it, compiles leave out the rules `names` (each must be registered): one
    rule against the general lowering, as the differential tests need."""
    known = {r.name for r in registered()}
    unknown = sorted(set(names) - known)
    if unknown:
        raise ValueError(f"unknown optimiser rules: {', '.join(unknown)}")
    token = _disabled.set(_disabled.get() | frozenset(names))
    try:
        yield
    finally:
        _disabled.reset(token)


@contextlib.contextmanager
def using(rules: RuleSet) -> Iterator[None]:
    """Make `rules` the current set for a lowering (see `on`)."""
    token = _current.set(rules)
    try:
        yield
    finally:
        _current.reset(token)


def current() -> RuleSet:
    return _current.get()


def on(name: str) -> bool:
    """Whether rule `name` may apply in the current lowering."""
    return name in _current.get().enabled


_fired: Counter[str] = Counter()
_fired_lock = threading.Lock()


def fire(name: str) -> None:
    """Count one application of rule `name`."""
    with _fired_lock:
        _fired[name] += 1


def fired() -> dict[str, int]:
    """How many times each rule has applied in this process (a snapshot)."""
    with _fired_lock:
        return dict(_fired)


F = TypeVar("F", bound=Callable[..., Any])


def gated(
    name: str, off: Callable[..., Any], hit: Callable[..., bool] | None = None
) -> Callable[[F], F]:
    """Make a rule function answer `off(*args)` (the general lowering's own answer) when
    rule `name` is switched off, and count it as fired when its answer differs from
    that (`hit(result, *args)`; by default: the answer is not None)."""

    def wrap(f: F) -> F:
        @functools.wraps(f)
        def gate(*args: Any) -> Any:
            if name not in _current.get().enabled:
                return off(*args)
            result = f(*args)
            if (result is not None) if hit is None else hit(result, *args):
                fire(name)
            return result

        return gate  # type: ignore[return-value]

    return wrap


def names(rules: Iterable[Rule]) -> list[str]:
    return [r.name for r in rules]
