"""`ptc repl`: read PTC-Lisp forms at a terminal, run each, print its value.

    $ ptc repl --tools examples/tools.py
    ptc> (def xs [1 2 3])
    #'user/xs
    ptc> (reduce +
    ...>   xs)
    6

Definitions and `*1`..`*3` persist from one input to the next (the session is the runs'
state owner). An input whose brackets are still open continues on the next line (`...>`);
strings, comments and character literals do not count. Line editing, history and Tab
completion of builtin, special-form, tool and `data/` names come from the standard
library's `readline` where the platform has it; without it the REPL reads plain lines.
History is kept in `$PTC_HISTORY` (default `~/.ptc_history`). `:help` lists the
commands; `:quit` or end of input (Ctrl-D) leaves.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

from ptc_compiler import api
from ptc_runtime.errors import PtcError
from ptc_runtime.printer import pr_str

PROMPT = "ptc> "
CONTINUE = "...> "
HISTORY_LENGTH = 1000
#: the longest printed value; past it the REPL says how much it left out
PRINT_LIMIT = 10_000

HELP = """\
Enter a PTC-Lisp form; it runs when its brackets balance (open ones continue on the next line).
  :help      this text
  :names     the tool and data names this session knows
  :quit      leave (or Ctrl-D)
Tab completes builtin, special-form, tool/ and data/ names."""

_OPEN = {"(": ")", "[": "]", "{": "}"}
_CLOSE = frozenset(_OPEN.values())


def needs_more(text: str) -> bool:
    """True while `text` has an unclosed bracket or string (the REPL reads another line).

    A `;` comment runs to the end of its line; `\\x` outside a string is a character
    literal (so `\\(` opens nothing). An extra closing bracket does not ask for more: the
    reader reports it with its place.
    """
    depth = 0
    i, n = 0, len(text)
    in_string = False
    while i < n:
        ch = text[i]
        if in_string:
            if ch == "\\":
                i += 1
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch == ";":
            while i < n and text[i] != "\n":
                i += 1
        elif ch == "\\":
            i += 1
        elif ch in _OPEN:
            depth += 1
        elif ch in _CLOSE:
            depth -= 1
            if depth < 0:
                return False
        i += 1
    return in_string or depth > 0


def language_names() -> list[str]:
    """Builtin and special-form names, sorted (what Tab completes besides tools and data)."""
    from ptc_compiler.analyzer.core import HANDLERS
    from ptc_compiler.analyzer.env import default_builtins

    return sorted(set(default_builtins()) | set(HANDLERS))


_DELIMITERS = " \t\n()[]{}\"'`,;@^~"


class Session:
    """One REPL session: its tools, data and preludes, and the state its runs share."""

    def __init__(
        self,
        *,
        tools: Mapping[str, Callable[..., Any]] | None = None,
        data: Mapping[str, Any] | None = None,
        preludes: Sequence[str | Path] | None = None,
        mode: str = "in-process",
        timeout_ms: float | None = 1000,
        max_steps: int = 10_000_000,
    ) -> None:
        self.tools = dict(tools or {})
        self.data = dict(data or {})
        self.preludes = list(preludes) if preludes else None
        self.mode = mode
        self.timeout_ms = timeout_ms
        self.max_steps = max_steps
        # the state owner: definitions and *1..*3 persist across this session's runs
        self._owner = object()
        self.names = sorted(
            [
                *language_names(),
                *(f"tool/{t}" for t in self.tools),
                *(f"data/{d}" for d in self.data),
            ]
        )

    def complete(self, prefix: str) -> list[str]:
        """The known names that start with `prefix`, sorted."""
        return [name for name in self.names if name.startswith(prefix)]

    def evaluate(self, source: str) -> tuple[bool, str, str]:
        """Run `source`: (ok, printed output, the value's `pr-str` or the error line)."""
        try:
            result = api.run(
                source,
                data=self.data or None,
                tools=self.tools or None,
                timeout_ms=self.timeout_ms,
                max_steps=self.max_steps,
                preludes=self.preludes,
                mode=self.mode,
                state_owner=self._owner,
                native=self.mode != "isolated",
            )
        except PtcError as err:  # a prelude that cannot be loaded
            return False, "", str(api.RunFailure.from_error(err))
        if result.error is not None:
            return False, result.output, str(result.error)
        text = pr_str(result.value)
        if len(text) > PRINT_LIMIT:
            text = f"{text[:PRINT_LIMIT]} ... ({len(text) - PRINT_LIMIT} more characters not shown)"
        return True, result.output, text


class _Readline:
    """History and completion through the standard library's `readline`, if it loads."""

    def __init__(self, session: Session, history: Path | None) -> None:
        self.history = history
        self.module: Any = None
        try:
            import readline
        except ImportError:  # e.g. Windows without pyreadline: plain lines
            return
        self.module = readline
        self._session = session
        self._matches: list[str] = []
        readline.set_completer_delims(_DELIMITERS)
        readline.set_completer(self._complete)
        if "libedit" in (readline.__doc__ or ""):
            readline.parse_and_bind("bind ^I rl_complete")
        else:
            readline.parse_and_bind("tab: complete")
        readline.set_history_length(HISTORY_LENGTH)
        if history is not None and history.is_file():
            try:
                readline.read_history_file(str(history))
            except OSError:
                pass  # an unreadable history file only costs the history

    def _complete(self, text: str, state: int) -> str | None:
        if state == 0:
            self._matches = self._session.complete(text)
        return self._matches[state] if state < len(self._matches) else None

    def record(self, lines_read: int, form: str) -> None:
        """Replace the form's separate lines in the history with the form, on one line."""
        rl = self.module
        if rl is None:
            return
        for _ in range(lines_read):
            length = rl.get_current_history_length()
            if length > 0:
                rl.remove_history_item(length - 1)
        if form.strip():
            rl.add_history(" ".join(line.strip() for line in form.splitlines()))

    def save(self) -> None:
        if self.module is None or self.history is None:
            return
        try:
            self.module.write_history_file(str(self.history))
        except OSError as exc:
            print(f"ptc repl: cannot write history {self.history}: {exc.strerror}", file=sys.stderr)


def default_history() -> Path | None:
    """`$PTC_HISTORY` ("" for none), else `~/.ptc_history`."""
    value = os.environ.get("PTC_HISTORY")
    if value is not None:
        return Path(value) if value else None
    return Path.home() / ".ptc_history"


def _read_form(
    read_line: Callable[[str], str], out: TextIO
) -> tuple[str, int] | None:
    """Lines up to a complete form: (text, lines read), or None at end of input."""
    lines: list[str] = []
    while True:
        try:
            line = read_line(CONTINUE if lines else PROMPT)
        except EOFError:
            if lines:  # an unfinished form at end of input still runs: the reader says why
                out.write("\n")
                return "\n".join(lines), len(lines)
            return None
        except KeyboardInterrupt:
            out.write("\n(interrupted)\n")
            lines = []
            continue
        lines.append(line)
        text = "\n".join(lines)
        if not needs_more(text):
            return text, len(lines)


def serve(
    session: Session,
    *,
    history: Path | None = None,
    lines: Iterable[str] | None = None,
    out: TextIO | None = None,
) -> int:
    """Run the read-eval-print loop until `:quit` or end of input; returns the exit status.

    `lines`: read these instead of the terminal (no prompts, no history: scripted use).
    """
    out = out or sys.stdout
    rl: _Readline | None = None
    if lines is None:
        rl = _Readline(session, history)
        read_line: Callable[[str], str] = input
    else:
        feed = iter(lines)

        def read_line(prompt: str) -> str:
            try:
                return next(feed).rstrip("\n")
            except StopIteration:
                raise EOFError from None

    try:
        while True:
            got = _read_form(read_line, out)
            if got is None:
                break
            text, count = got
            if rl is not None:
                rl.record(count, text)
            command = text.strip()
            if not command:
                continue
            if command in (":quit", ":q", ":exit"):
                break
            if command == ":help":
                out.write(HELP + "\n")
                continue
            if command == ":names":
                names = [n for n in session.names if n.startswith(("tool/", "data/"))]
                out.write(("  ".join(names) or "(no tools or data)") + "\n")
                continue
            _ok, printed, shown = session.evaluate(text)
            if printed:
                out.write(printed if printed.endswith("\n") else printed + "\n")
            out.write(shown + "\n")
            out.flush()
    finally:
        if rl is not None:
            rl.save()
    return 0
