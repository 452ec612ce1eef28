"""Retained environments of state owners (each run is a transaction).

An `Environment` holds one owner's user namespace (`ns`: name -> value, `nsc`: the same
vars as generated code names them, see `ptc_runtime.uservars`) and the turn history
`*1 *2 *3`. Closures from earlier runs reference the very `ns`/`nsc` dict objects (`nsc`
is their modules' `__builtins__`), so they are never replaced: a run writes into them
directly and `rollback` restores them *in place* from the snapshot taken at `begin`.
`commit` checks both byte ceilings first and changes nothing when either is exceeded.
Runs of one owner are serialised by `lock`.
"""

from __future__ import annotations

import threading
import weakref
from dataclasses import dataclass, field
from typing import Any

from ptc_runtime.errors import PtcError
from ptc_runtime.limits import measure


@dataclass
class Environment:
    """One owner's retained state (or a one-shot run's fresh one)."""

    ns: dict[str, Any] = field(default_factory=dict)
    nsc: dict[str, Any] = field(default_factory=dict)
    history: tuple[Any, Any, Any] = (None, None, None)
    initialized: bool = False
    discard: bool = False  # set when the initializer failed: the env is dropped
    lock: threading.Lock = field(default_factory=threading.Lock)
    sizes: dict[str, tuple[int, int]] = field(default_factory=dict)  # name -> (id(value), bytes)
    #: The modules run in this environment, as weak references to their `program`
    #: functions (a module lives while any of its fns does): a later run's steps in their
    #: fns are its own (`RunContext.link`).
    modules: list[weakref.ReferenceType[Any]] = field(default_factory=list)
    _snap: tuple[dict[str, Any], dict[str, Any]] | None = None

    def begin(self) -> None:
        """Snapshot the namespace before a run (shallow: values are immutable)."""
        self._snap = (dict(self.ns), dict(self.nsc))

    def rollback(self) -> None:
        """Restore the namespace exactly as it was at `begin`, in place."""
        if self._snap is None:
            return
        ns, nsc = self._snap
        self.ns.clear()
        self.ns.update(ns)
        self.nsc.clear()
        self.nsc.update(nsc)
        self._snap = None

    def commit(
        self, value: object, *, advance_history: bool, memory_bytes: int, history_bytes: int
    ) -> None:
        """Keep the run's definitions (and `*1` when `advance_history`), or raise and
        roll back when a ceiling is exceeded (neither changes)."""
        total = 0
        fresh: dict[str, tuple[int, int]] = {}
        for name, v in self.ns.items():
            known = self.sizes.get(name)
            if known is not None and known[0] == id(v):
                size = known[1]
            else:
                size = len(name) + measure(v, memory_bytes)
            fresh[name] = (id(v), size)
            total += size
            if total > memory_bytes:
                self.rollback()
                raise _commit_error(
                    "memory_exceeded",
                    f"retained definitions exceed {memory_bytes} bytes; nothing was committed",
                    "def only what later turns need",
                )
        history = self.history
        if advance_history:
            h1 = measure(value, history_bytes)
            agg = h1 + measure(history[0], history_bytes) + measure(history[1], history_bytes)
            if h1 > history_bytes or agg > history_bytes:
                self.rollback()
                raise _commit_error(
                    "history_exceeded",
                    f"the turn history (*1 *2 *3) would exceed {history_bytes} bytes; "
                    "nothing was committed",
                    "return a smaller value or def it under a name",
                )
            history = (value, history[0], history[1])
        self.sizes = fresh
        self.history = history
        self._snap = None


#: `details.phase` of a commit rejection: the program itself completed, but keeping its
#: definitions or its `*1` would exceed a byte ceiling. An agent host words its feedback
#: differently for it than for a heap kill during the run (same `memory_exceeded` code).
COMMIT_PHASE = "commit"


def _commit_error(code: str, message: str, hint: str) -> PtcError:
    err = PtcError(code, message, hint=hint)
    err.details = {"phase": COMMIT_PHASE}  # type: ignore[attr-defined]  # read by RunFailure.of
    return err
