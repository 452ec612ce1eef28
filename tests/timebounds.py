"""Time bounds in tests that machine load cannot break.

A loaded machine (other jobs, `pytest -n`) stretches wall time by any factor, so a test's
verdict never rests on a short wall-clock bound. Two kinds of bound remain:

* `HANG_GUARD_S`: a wall bound only a run that never ends (or waits for something held for
  a minute) reaches; it turns a hang into a failure instead of a stuck suite.
* CPU time of this process (`Clock.cpu`) for "stopped promptly" and "linear, not
  quadratic" claims about work done in-process: load slows the work, not its CPU cost.

What a deadline or a cancel did is shown by the failure's kind and code ("timeout",
"abort", the message), not by how long it took.
"""

from __future__ import annotations

import time

HANG_GUARD_S = 60.0


class Clock:
    """Wall and CPU seconds (this process, every thread) since it was made."""

    def __init__(self) -> None:
        self._wall = time.monotonic()
        self._cpu = time.process_time()

    def wall(self) -> float:
        return time.monotonic() - self._wall

    def cpu(self) -> float:
        return time.process_time() - self._cpu


def assert_prompt(clock: Clock, cpu_seconds: float, *, in_process: bool = True) -> None:
    """Ended before the hang guard; in-process, also within `cpu_seconds` of CPU."""
    wall = clock.wall()
    assert wall < HANG_GUARD_S, f"took {wall:.1f} s: it did not stop"
    if in_process:
        cpu = clock.cpu()
        assert cpu < cpu_seconds, f"took {cpu:.2f} s of CPU (bound {cpu_seconds} s)"
