"""Errors a PTC-Lisp program can cause, and the control signals `return` / `fail`.

Every failure the *program* causes is a `PtcError`: it carries a stable `code`
(the reference's reason, e.g. ``"type_error"``), the run contract's `kind`
(``"exception"``, ``"timeout"``, ``"abort"`` ...), a bounded message that is safe to
show a model (no Python reprs, tracebacks or host paths), and the source position
when known. Anything else raised while a program runs is a bug of ours and is
reported as an internal error by the executor.
"""

from __future__ import annotations

from typing import Final

MAX_MESSAGE_CHARS: Final = 512

#: The failure kinds of the run contract.
KINDS: Final = frozenset(
    {
        "exception",
        "timeout",
        "abort",
        "worker-exit",
        "invalid-output",
        "output-limit",
        "protocol",
        "sandbox-unavailable",
    }
)


def bound_message(text: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    """Cut `text` to `limit` characters, marking the cut."""
    if len(text) <= limit:
        return text
    return text[: limit - 3] + "..."


class PtcError(Exception):
    """Something the program did wrong; its message is safe to show the model."""

    kind: str = "exception"

    def __init__(
        self,
        code: str,
        message: str,
        *,
        line: int | None = None,
        column: int | None = None,
        hint: str | None = None,
        kind: str | None = None,
    ) -> None:
        super().__init__(bound_message(message))
        self.code = code
        self.message = bound_message(message)
        self.line = line
        self.column = column
        self.hint = hint
        if kind is not None:
            self.kind = kind

    def at(self, line: int | None, column: int | None) -> PtcError:
        """Attach a source position unless one is already known; returns self."""
        if self.line is None and line is not None:
            self.line = line
            self.column = column
        return self

    def render(self) -> str:
        """One line for a model or a terminal: ``code: message (line:col) hint``."""
        text = f"{self.code}: {self.message}"
        if self.line is not None:
            text += f" (line {self.line}, column {self.column})"
        if self.hint:
            text += f". Hint: {self.hint}"
        return bound_message(text, 2 * MAX_MESSAGE_CHARS)


class ReadError(PtcError):
    """The source text is not well-formed PTC-Lisp (code ``parse_error`` and friends)."""


class AnalysisError(PtcError):
    """The forms are well-formed but not a valid program (bad special form, unbound symbol)."""


class LimitExceeded(PtcError):
    """A resource budget ran out: steps or deadline (`timeout`), output, memory."""


class OutOfMemory(LimitExceeded):
    """Python itself ran out of memory (`MemoryError`), as opposed to a size guard refusing
    an allocation in advance: the process may be damaged, so a worker is replaced."""


class Aborted(PtcError):
    """The run's cancel token fired."""

    kind = "abort"


class ControlSignal(BaseException):
    """Base of `return`/`fail`: a BaseException so no builtin's `except Exception` eats it."""

    def __init__(self, value: object) -> None:
        super().__init__()
        self.value = value


class ReturnSignal(ControlSignal):
    """`(return v)`: end the program successfully with `v`."""


class FailSignal(ControlSignal):
    """`(fail v)`: end the program with a language-level failure carrying `v`."""
