"""Host side of isolated execution: a bounded pool of worker processes.

The pool never runs more than `max_workers` worker processes (`Limits.max_workers`),
counting idle ones, ones lent to a run, ones starting and ones dedicated to a state
owner. A run that finds no idle worker queues (first come, first served); its wait is
charged to its own deadline, and a run whose deadline passes while it waits fails with
`timeout` (code `queue_timeout`) saying so and how long it waited. Cancelling it, or
closing the runtime, while it waits is `abort`.

Workers are started one at a time by a spawner thread: `size` of them as soon as the
pool is created (so the first run finds a started worker), more only while runs are
queued and the cap allows. A worker whose address space grew past half its memory
limit during a run is replaced rather than lent again, so memory one program left
behind cannot fail a later program. `close` fails queued runs, cancels the in-flight
ones and waits for them to stop, then kills and reaps every worker.

The protocol conversation of one run is `ptc_runtime.worker.session`; the process
itself is `ptc_runtime.worker.process`.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from ptc_runtime.limits import Limits
from ptc_runtime.worker.process import Proc, Unavailable
from ptc_runtime.worker.session import QueueAborted, QueueTimeout, RemoteEnv, execute

__all__ = ["Proc", "RemoteEnv", "Unavailable", "WorkerPool"]

#: how long a worker may take to start and confine itself
START_TIMEOUT_S = 30.0
#: how often a queued run re-checks its cancel token
_POLL_S = 0.02


class _Waiter:
    """A run queued for a worker: the pool hands it one (or an error) directly."""

    __slots__ = ("error", "event", "proc")

    def __init__(self) -> None:
        self.event = threading.Event()
        self.proc: Proc | None = None
        self.error: Exception | None = None


class WorkerPool:
    """At most `max_workers` rlimited worker processes; `run` executes one spec."""

    def __init__(
        self,
        limits: Limits,
        size: int = 2,
        *,
        max_workers: int | None = None,
    ) -> None:
        if size < 0:
            raise ValueError("pool size must be >= 0")
        cap = limits.max_workers if max_workers is None else max_workers
        if type(cap) is not int or cap < 1:
            raise ValueError("max_workers must be a positive integer")
        self.limits = limits
        self.max_workers = cap
        self.size = min(size, cap)  # started up front and kept started
        self.lock = threading.Lock()
        self.idle: list[Proc] = []  # a handful at most (`max_workers`)
        self.procs: set[Proc] = set()  # every worker process not yet killed
        self.waiters: deque[_Waiter] = deque()
        self.starting = 0
        self.spawning = False
        #: when the pool's first worker was ready (None: still booting)
        self.booted_at: float | None = None
        self.closed = False
        self.inflight = 0
        self.drained = threading.Condition(self.lock)
        #: worker processes started over the pool's life (tests, monitoring)
        self.started = 0
        #: a worker whose address space is past this after a run is replaced
        self.recycle_bytes = limits.worker_memory_bytes // 2
        #: workers replaced for their size (`recycle_bytes`)
        self.recycled = 0
        self.unavailable: str | None = None
        try:
            import resource  # noqa: F401
        except ImportError:
            self.unavailable = "rlimits are not supported on this platform"
        if self.unavailable is None:
            with self.lock:
                self._kick()

    # -- starting workers -----------------------------------------------------

    def _needs_worker(self) -> bool:
        """(lock held) Should one more worker start now?"""
        if self.closed or self.unavailable is not None:
            return False
        count = len(self.procs) + self.starting
        if count >= self.max_workers:
            return False
        if count < self.size:  # keep `size` started
            return True
        return len(self.waiters) > self.starting  # runs are queued and none will be served

    def _kick(self) -> None:
        """(lock held) Make sure the spawner runs while a worker is needed."""
        if not self.spawning and self._needs_worker():
            self.spawning = True
            threading.Thread(target=self._spawner, daemon=True, name="ptc-spawn").start()

    def _spawner(self) -> None:
        """Start workers one at a time while one is needed: a lone start gets the CPU to
        itself, so the first worker is ready as early as possible."""
        while True:
            with self.lock:
                if not self._needs_worker():
                    self.spawning = False
                    return
                self.starting += 1
                self.started += 1
            proc: Proc | None = None
            reason = None
            try:
                proc = Proc(self.limits)
                proc.wait_ready(START_TIMEOUT_S)
            except Unavailable as exc:
                proc, reason = None, str(exc)
            with self.lock:
                self.starting -= 1
                if proc is None:
                    self.unavailable = reason
                    self.spawning = False
                    self._fail_waiters_if_hopeless()
                    return
                if self.closed:
                    self.spawning = False
                    doomed: Proc | None = proc
                else:
                    if self.booted_at is None:
                        self.booted_at = time.monotonic()
                    self.procs.add(proc)
                    self._offer(proc)
                    doomed = None
            if doomed is not None:
                doomed.kill()
                return

    def _fail_waiters_if_hopeless(self) -> None:
        """(lock held) No worker can start and none exists: queued runs get the reason."""
        if self.procs or self.starting:
            return
        while self.waiters:
            w = self.waiters.popleft()
            w.error = Unavailable(self.unavailable or "the worker did not start")
            w.event.set()

    def _offer(self, proc: Proc) -> None:
        """(lock held) A free worker: to the first queued run, else to the idle list."""
        while self.waiters:
            w = self.waiters.popleft()
            if not w.event.is_set():
                w.proc = proc
                w.event.set()
                return
        self.idle.append(proc)

    # -- lending workers ----------------------------------------------------

    def boot_wait(self, since: float) -> float:
        """How much of the time since `since` the pool spent starting its first worker:
        a one-time cost of the provider, not charged to a run (as prelude loading is not)."""
        booted = self.booted_at
        return max(0.0, (time.monotonic() if booted is None else booted) - since)

    def acquire(self, deadline: float | None, stopped: Callable[[], str | None]) -> Proc:
        """A worker for one run, waiting in line while all are busy.

        The wait is charged to `deadline`, except the pool's own boot (`boot_wait`).
        Raises `QueueTimeout` when `deadline` passes first, `QueueAborted` when
        `stopped()` gives a reason (cancel token, runtime closing), `Unavailable` when
        no worker can be started."""
        start = time.monotonic()
        dead: list[Proc] = []
        with self.lock:
            if self.closed:
                raise QueueAborted("run cancelled: the runtime was closed")
            if self.unavailable is not None and not self.unavailable.startswith("rlimits"):
                self.unavailable = None  # a failed start may have been transient: retry
            proc = None
            while self.idle and not self.waiters:
                p = self.idle.pop(0)
                if p.alive():
                    proc = p
                    break
                self.procs.discard(p)
                dead.append(p)
            w = None
            if proc is None:
                if self.unavailable is not None and not self.procs and not self.starting:
                    raise Unavailable(self.unavailable)
                w = _Waiter()
                self.waiters.append(w)
            self._kick()
        for p in dead:
            p.kill()
        if proc is not None:
            return proc
        assert w is not None
        while True:
            why = stopped()
            now = time.monotonic()
            left = None if deadline is None else deadline + self.boot_wait(start) - now
            if why is None and (left is None or left > 0):
                step = _POLL_S if left is None else min(_POLL_S, left)
                if not w.event.wait(step):
                    continue
            with self.lock:
                if not w.event.is_set():  # gave up: leave the line
                    w.event.set()
                    try:
                        self.waiters.remove(w)
                    except ValueError:
                        pass
                    self._kick()
                    if why is not None:
                        raise QueueAborted(why)
                    raise QueueTimeout(time.monotonic() - start, self.max_workers)
            if w.error is not None:
                raise w.error
            assert w.proc is not None
            if not w.proc.alive():  # died while handed over: retire it, wait again
                self.retire(w.proc)
                return self.acquire(deadline, stopped)
            if why is not None or (left is not None and left <= 0):
                self.give_back(w.proc)  # handed over just as the run gave up
                if why is not None:
                    raise QueueAborted(why)
                raise QueueTimeout(time.monotonic() - start, self.max_workers)
            return w.proc

    def give_back(self, proc: Proc) -> None:
        """A run is done with `proc`: lend it again, or replace it if it grew too big."""
        space = proc.address_space()
        if space is not None and space > self.recycle_bytes:
            with self.lock:
                self.recycled += 1
            self.retire(proc)
            return
        with self.lock:
            if not self.closed and proc.alive() and proc in self.procs:
                self._offer(proc)
                return
        self.retire(proc)

    def retire(self, proc: Proc) -> None:
        """Kill and reap `proc`; its slot is free for a new worker."""
        proc.kill()
        with self.lock:
            self.procs.discard(proc)
            self._kick()

    def release_env(self, env: RemoteEnv) -> None:
        """Drop a state owner's environment and kill its dedicated worker."""
        if env.proc is not None:
            self.retire(env.proc)
            env.proc = None
        env.initialized = False
        env.names = frozenset()

    def stats(self) -> dict[str, int]:
        """Counts for tests and monitoring: live, idle, starting workers; queued runs."""
        with self.lock:
            return {
                "workers": len(self.procs),
                "idle": len(self.idle),
                "starting": self.starting,
                "queued": len(self.waiters),
                "in_flight": self.inflight,
                "max_workers": self.max_workers,
                "started": self.started,
                "recycled": self.recycled,
            }

    def close(self, wait_s: float | None = None) -> None:
        """Fail queued runs, cancel in-flight runs and wait for them (at most `wait_s`,
        default kill grace + 5 s), then kill and reap every worker (idempotent)."""
        with self.lock:
            self.closed = True
            while self.waiters:
                w = self.waiters.popleft()
                if not w.event.is_set():
                    w.error = QueueAborted("run cancelled: the runtime was closed")
                    w.event.set()
            idle = list(self.idle)
            self.idle.clear()
        for p in idle:
            p.kill()
        limit = self.limits.kill_grace_ms / 1000.0 + 5.0 if wait_s is None else wait_s
        end = time.monotonic() + limit
        with self.lock:
            # In-flight sessions see `closed`, send cancel, and kill their worker after
            # the grace period; each ends by giving back or retiring its worker.
            while self.inflight and time.monotonic() < end:
                self.drained.wait(max(0.0, min(0.1, end - time.monotonic())))
            rest = list(self.procs)
        for p in rest:
            p.interrupt() if self.inflight else p.kill()
        with self.lock:
            while self.inflight and time.monotonic() < end + 1.0:
                self.drained.wait(0.05)
            rest = list(self.procs)
            self.procs.clear()
        for p in rest:
            p.kill()

    # -- one run --------------------------------------------------------------

    def run(self, runtime: Any, spec: Any, env: Any, loop: asyncio.AbstractEventLoop | None) -> Any:
        """Execute a resolved spec on a worker (see `ptc_runtime.worker.session`)."""
        with self.lock:
            self.inflight += 1
        try:
            return execute(self, runtime, spec, env, loop)
        finally:
            with self.lock:
                self.inflight -= 1
                self.drained.notify_all()
