"""The kernel limits of one agent run (`HostLimits`) and the evaluation lease.

Agent configuration never raises these limits; the host enforces them: the run deadline,
the number of mission evaluations and model requests, and admission of evaluations one at
a time (`EvaluationLease`) when loops run in parallel.
"""

from __future__ import annotations

import math
import threading
from collections import deque
from dataclasses import dataclass
from typing import Final

from ptc_runtime.host_api import Mode

MODES: Final = ("in-process", "isolated")


@dataclass(frozen=True)
class HostLimits:
    """Kernel limits of one agent run; agent configuration never raises them (seed 001).

    `subordinate_evaluations`: mission evaluations the whole run may start (all loops
    together); None = unbounded. `evaluation_admission_timeout_ms`: how long an evaluation
    waits for the run's single evaluation lease. `run_timeout_ms`: the run deadline, which
    also bounds every admission wait and evaluation; None = none.
    `workflow_capability_calls`: model requests the whole run may make; None = unbounded.
    `mission_mode`: where the evaluations of a mission that does not choose (`Mission.mode`
    None, e.g. the `default` mission the entries build) run: `"in-process"` or `"isolated"`
    (worker processes, docs/agents.md "Isolated missions").
    `parallel_timeout_ms`: the deadline of one `pmap`/`pcalls` of the workflow (agent loops
    run under it need headroom for all their turns); still clamped by the run deadline.
    `parallel_concurrency`: how many workers one `pmap`/`pcalls` of the workflow runs at
    once; agent loops wait on model requests, not the CPU, so more than the default
    (two per CPU, at most eight per run) may overlap. None = that default.
    """

    subordinate_evaluations: int | None = None
    evaluation_admission_timeout_ms: float = 10_000
    run_timeout_ms: float | None = None
    workflow_capability_calls: int | None = None
    mission_mode: Mode = "in-process"
    parallel_timeout_ms: int = 30_000
    parallel_concurrency: int | None = None

    def __post_init__(self) -> None:
        if self.mission_mode not in MODES:
            raise ValueError("HostLimits.mission_mode must be 'in-process' or 'isolated'")
        for name in ("parallel_timeout_ms", "parallel_concurrency"):
            v = getattr(self, name)
            if (v is not None or name == "parallel_timeout_ms") and (
                type(v) is not int or v <= 0
            ):
                raise ValueError(f"HostLimits.{name} must be a positive integer")
        for name in ("subordinate_evaluations", "workflow_capability_calls"):
            v = getattr(self, name)
            if v is not None and (type(v) is not int or v < 0):
                raise ValueError(f"HostLimits.{name} must be a non-negative integer or None")
        for name in ("evaluation_admission_timeout_ms", "run_timeout_ms"):
            v = getattr(self, name)
            if v is None and name == "run_timeout_ms":
                continue
            number = isinstance(v, int | float) and not isinstance(v, bool)
            if not number or not math.isfinite(v) or v <= 0:
                raise ValueError(f"HostLimits.{name} must be a positive finite number")


class EvaluationLease:
    """The run's single subordinate-evaluation lease, granted in FIFO order.

    Agent loops under `pmap`/`pcalls` call the host from several threads: their model
    calls overlap, but mission evaluations share one retained state owner, so they are
    admitted one at a time, in arrival order. `threading.Lock` promises no order, hence a
    queue of events; `release` hands the lease straight to the oldest waiter.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._held = False
        self._queue: deque[threading.Event] = deque()

    @property
    def waiting(self) -> int:
        """Threads currently queued for the lease."""
        with self._lock:
            return len(self._queue)

    def acquire(self, timeout: float | None) -> bool:
        """Wait at most `timeout` seconds (None: forever); True when the lease is ours."""
        with self._lock:
            if not self._held and not self._queue:
                self._held = True
                return True
            turn = threading.Event()
            self._queue.append(turn)
        granted = turn.wait(None if timeout is None else max(0.0, timeout))
        with self._lock:
            # `release` may have handed us the lease just after the wait timed out.
            if granted or turn.is_set():
                return True
            self._queue.remove(turn)
            return False

    def release(self) -> None:
        with self._lock:
            if self._queue:
                self._queue.popleft().set()  # the lease passes on without becoming free
            else:
                self._held = False
