"""The compile budget: how much work compiling one program may take.

Compiling runs on the host in both execution modes (an isolated run's worker only gets
the compiled code), so a program must not be able to make it slow: every pass is linear
in the source, and on top of that each compile is held to a wall-clock limit and a count
of the program nodes it analyzes and lowers (`Limits.compile_timeout_ms` and
`Limits.compile_nodes`). Going over either fails the compile with `compile_limit`, an
`exception`-kind error naming the limit and its value. The passes over the generated
tree (the allow-list checks) read the clock as they go (`tick`); the node count bounds
that tree, so CPython's `compile()`, which cannot be interrupted, stays bounded too.
"""

from __future__ import annotations

import time
from typing import Final

from ptc_runtime.errors import PtcError

#: Nodes charged between two looks at the clock (a clock read costs about 50 ns).
_CLOCK_EVERY: Final = 512


class CompileBudget:
    """A deadline and a node allowance for one compile, charged as the passes go."""

    __slots__ = ("deadline", "max_nodes", "next_check", "next_tick", "nodes", "ticks", "timeout_ms")

    def __init__(self, timeout_ms: int, max_nodes: int) -> None:
        self.timeout_ms = timeout_ms
        self.max_nodes = max_nodes
        self.deadline = time.monotonic() + timeout_ms / 1000.0
        self.nodes = 0
        #: the count at which `charge` next calls `check` (kept in a slot: `charge` is
        #: inlined in the analyzer's and the lowering's per-node paths)
        self.next_check = min(_CLOCK_EVERY, max_nodes + 1)
        #: steps of the passes over the generated tree (the allow-list checks), which
        #: read the clock without charging nodes: the node count already bounds the tree
        self.ticks = 0
        self.next_tick = _CLOCK_EVERY

    def charge(self, n: int = 1) -> None:
        """Count `n` more nodes; fails past the allowance or (checked every few
        hundred nodes) past the deadline."""
        self.nodes += n
        if self.nodes >= self.next_check:
            self.check()

    def tick(self) -> None:
        """One step of a pass over the generated tree: fails past the deadline (the
        clock is read every few hundred steps)."""
        self.ticks += 1
        if self.ticks >= self.next_tick:
            self.check_clock()

    def check_clock(self) -> None:
        """Fail now if the deadline has passed."""
        self.next_tick = self.ticks + _CLOCK_EVERY
        if time.monotonic() > self.deadline:
            raise self._late()

    def check(self) -> None:
        """Fail now if the allowance or the deadline is exceeded."""
        if self.nodes > self.max_nodes:
            raise PtcError(
                "compile_limit",
                f"the program is too large to compile: more than {self.max_nodes} nodes "
                f"(limit compile_nodes = {self.max_nodes})",
                hint="Split the work into smaller programs or shorter forms.",
            )
        if time.monotonic() > self.deadline:
            raise self._late()
        self.next_check = min(self.nodes + _CLOCK_EVERY, self.max_nodes + 1)

    def _late(self) -> PtcError:
        return PtcError(
            "compile_limit",
            f"compiling the program took longer than {self.timeout_ms} ms "
            f"(limit compile_timeout_ms = {self.timeout_ms})",
            hint="Split the work into smaller programs or shorter forms.",
        )


def unbounded() -> CompileBudget:
    """A budget that never runs out (direct use of `analyze`/`lower`, e.g. preludes
    compiled by the host from its own source)."""
    return CompileBudget(timeout_ms=10**12, max_nodes=10**15)
