"""One isolated worker process, seen from the host: start it, talk to it, kill it.

`Proc` owns a child started as ``python -I -m ptc_runtime.worker`` with a scrubbed
environment, its two pipes and a capped `LineReader` on the child's stdout. The pool
(`ptc_runtime.worker.pool`) decides when a process is started, lent, recycled or
killed; the session (`ptc_runtime.worker.session`) speaks the protocol over it.
"""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import subprocess
import sys
import threading
from collections import OrderedDict
from typing import Any

from ptc_runtime.limits import Limits
from ptc_runtime.worker.protocol import Closed, LineReader, ProtocolError, dumps, loads

_SAFE_ENV = {
    "PATH": "/usr/bin:/bin",
    "LANG": "C.UTF-8",
    "MALLOC_ARENA_MAX": "2",
    "PYTHONHASHSEED": "0",
    "PYTHONDONTWRITEBYTECODE": "1",
}


class Unavailable(Exception):
    """Isolation could not be established."""


class Proc:
    """One worker process and its pipes."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        args = json.dumps(dataclasses.asdict(limits))
        try:
            self.p = subprocess.Popen(
                [sys.executable, "-I", "-m", "ptc_runtime.worker", args],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                env=dict(_SAFE_ENV),
                cwd="/",
                close_fds=True,
                start_new_session=True,
            )
        except OSError as exc:
            raise Unavailable(f"cannot start a worker process ({type(exc).__name__})") from None
        assert self.p.stdin is not None and self.p.stdout is not None
        self.reader = LineReader(self.p.stdout.fileno(), limits.protocol_bytes)
        self.wlock = threading.Lock()
        self.ready = False
        self.runs_served = 0
        #: digests of the prelude packages this worker holds, least recently used first
        self.preludes: OrderedDict[str, None] = OrderedDict()

    @property
    def pid(self) -> int:
        """The worker's process id."""
        return self.p.pid

    def wait_ready(self, timeout: float) -> None:
        """Wait for the worker's `ready` (raises `Unavailable`, killing it, otherwise)."""
        try:
            line = self.reader.read_line(timeout)
        except (Closed, ProtocolError):
            line = None
        if line is None:
            self.kill()
            raise Unavailable("the worker did not start")
        try:
            msg = loads(line)
        except ProtocolError:
            msg = {}
        if msg.get("op") != "ready":
            self.kill()
            raise Unavailable("the worker could not confine itself (rlimits)")
        self.ready = True

    def alive(self) -> bool:
        """Is the process still running?"""
        return self.p.poll() is None

    def address_space(self) -> int | None:
        """The worker's virtual size in bytes, read by the host from /proc (Linux), or
        None where that is not available. The host reads it itself: a worker's own
        report of its size would be untrusted traffic."""
        try:
            with open(f"/proc/{self.p.pid}/statm") as f:
                pages = int(f.read().split()[0])
        except (OSError, ValueError, IndexError):
            return None
        return pages * os.sysconf("SC_PAGE_SIZE")

    def cpu_limit_hit(self, settle_s: float = 0.5) -> bool:
        """After its pipe closed: did the worker die of its CPU rlimit (SIGXCPU)?

        That is an implementation-owned budget expiring (`timeout`), not a substrate
        failure (`worker-exit`). The exit status may lag the closed pipe a little."""
        try:
            code = self.p.wait(timeout=settle_s)
        except subprocess.TimeoutExpired:
            return False
        return code == -signal.SIGXCPU

    def send(self, msg: dict[str, Any]) -> None:
        """Write one protocol message (raises OSError/ValueError if the pipe is gone)."""
        self.send_raw(dumps(msg))

    def send_raw(self, data: bytes) -> None:
        """Write one pre-encoded protocol line."""
        with self.wlock:
            assert self.p.stdin is not None
            self.p.stdin.write(data)
            self.p.stdin.flush()

    def interrupt(self) -> None:
        """SIGKILL the worker but leave its pipes to the session reading them: that
        session sees the pipe close and retires the worker (`kill`)."""
        try:
            self.p.kill()
        except OSError:
            pass

    def kill(self) -> None:
        """SIGKILL the worker, reap it and close the pipes (idempotent)."""
        try:
            self.p.kill()
        except OSError:
            pass
        try:
            self.p.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        for f in (self.p.stdin, self.p.stdout):
            try:
                if f is not None:
                    f.close()
            except OSError:
                pass
