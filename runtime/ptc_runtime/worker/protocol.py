"""Line-delimited JSON framing with a byte cap per message.

Every message is one JSON object encoded with `ensure_ascii=True` (so it contains no
raw newline), terminated by ``\\n``. `LineReader` reads from a file descriptor and
refuses any line longer than its cap before buffering more of it.
"""

from __future__ import annotations

import json
import os
import select
import time
from typing import Any


class ProtocolError(Exception):
    """Malformed or over-budget traffic."""


class Closed(Exception):
    """The other side closed its end (it exited or died)."""


def dumps(msg: dict[str, Any]) -> bytes:
    return (json.dumps(msg, ensure_ascii=True, separators=(",", ":")) + "\n").encode("ascii")


def loads(line: bytes) -> dict[str, Any]:
    """Parse one message; anything but a JSON object with a string `op` is a protocol error."""
    try:
        msg = json.loads(line)
    except (ValueError, RecursionError, UnicodeDecodeError):
        raise ProtocolError("a message that is not JSON") from None
    if type(msg) is not dict or type(msg.get("op")) is not str:
        raise ProtocolError("a message without an op")
    return msg


class LineReader:
    """Read capped lines from a raw file descriptor (non-blocking waits via select)."""

    def __init__(self, fd: int, cap: int) -> None:
        self.fd = fd
        self.cap = cap
        self.buf = bytearray()
        self.lines: list[bytes] = []

    def read_line(self, timeout: float | None) -> bytes | None:
        """The next line, or None if none arrived within `timeout` seconds."""
        end = None if timeout is None else time.monotonic() + timeout
        while not self.lines:
            wait = None if end is None else max(0.0, end - time.monotonic())
            ready, _, _ = select.select([self.fd], [], [], wait)
            if not ready:
                return None
            chunk = os.read(self.fd, 1 << 16)
            if not chunk:
                raise Closed()
            self._feed(chunk)
        return self.lines.pop(0)

    def _feed(self, chunk: bytes) -> None:
        self.buf += chunk
        while True:
            i = self.buf.find(b"\n")
            if i < 0:
                break
            if i > self.cap:
                raise ProtocolError(f"a message over {self.cap} bytes")
            self.lines.append(bytes(self.buf[:i]))
            del self.buf[: i + 1]
        if len(self.buf) > self.cap:
            raise ProtocolError(f"a message over {self.cap} bytes")
