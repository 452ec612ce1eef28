"""`ptc repl` and the interactive CLI, driven through a real terminal (a pty).

The waits below only guard against a hang: each `expect` returns as soon as the text
appears, so a loaded machine makes the tests slower, never red.
"""

from __future__ import annotations

import os
import re
import select
import subprocess
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import pytest

from ptc_compiler.repl import Session, needs_more, serve

ROOT = Path(__file__).resolve().parent.parent
HANG_GUARD_S = 120.0  # generous: only a REPL that never answers fails on time
_ANSI = re.compile(r"\x1b(\[[0-9;?]*[A-Za-z]|[=>])|\r")


class Terminal:
    """A child process on a pty: send keystrokes, wait for text on the screen."""

    def __init__(self, argv: Sequence[str], env: dict[str, str], cwd: Path) -> None:
        self.master, slave = os.openpty()
        self.proc = subprocess.Popen(
            list(argv), stdin=slave, stdout=slave, stderr=slave, env=env, cwd=cwd,
            close_fds=True, start_new_session=True,
        )
        os.close(slave)
        self.seen = ""  # everything read so far, escape sequences removed

    def send(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def expect(self, text: str) -> str:
        """Read until `text` appears after what earlier calls consumed; return the read part."""
        import time

        deadline = time.monotonic() + HANG_GUARD_S
        while text not in self.seen:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {text!r} on the terminal; it shows {self.seen!r}")
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.master, 4096)
                except OSError:  # the child closed the terminal
                    chunk = b""
                if not chunk:
                    raise AssertionError(f"terminal closed before {text!r}; it showed {self.seen!r}")
                self.seen += _ANSI.sub("", chunk.decode("utf-8", "replace"))
        head, _, tail = self.seen.partition(text)
        self.seen = tail
        return head + text

    def close(self) -> int:
        try:
            return self.proc.wait(timeout=HANG_GUARD_S)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
            os.close(self.master)


@contextmanager
def terminal(
    *args: str, history: Path | None = None, python_args: Sequence[str] | None = None
) -> Iterator[Terminal]:
    """`python -m ptc_compiler ARGS` (or `python PYTHON_ARGS`) on a fresh terminal."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "COV"))}
    env["TERM"] = "xterm"
    env["PTC_HISTORY"] = str(history) if history is not None else ""
    env["INPUTRC"] = "/dev/null"  # the user's readline settings do not change the keys
    argv = python_args if python_args is not None else ["-m", "ptc_compiler", *args]
    term = Terminal([sys.executable, *argv], env, ROOT)
    try:
        yield term
    finally:
        if term.proc.poll() is None:
            term.proc.kill()
        term.proc.wait()


def test_continuation_follows_open_brackets_strings_and_not_comments() -> None:
    assert needs_more("(+ 1")
    assert needs_more("(str \"a)")
    assert needs_more("[1 {:a (2")
    assert not needs_more("(+ 1 2)")
    assert not needs_more("(str \"(\")")      # a bracket in a string
    assert not needs_more("(+ 1 2) ; (open")  # a bracket in a comment
    assert not needs_more("(str \\()")         # a character literal
    assert not needs_more("(+ 1))")            # one too many: the reader reports it
    assert not needs_more("")


def test_repl_keeps_definitions_and_reads_multi_line_forms(tmp_path: Path) -> None:
    with terminal("repl", "--tools", "examples/tools.py") as term:
        term.expect("ptc> ")
        term.send("(def base 20)\r")
        term.expect("#'base")
        term.expect("ptc> ")
        term.send("(+ base\r")
        term.expect("...> ")
        term.send("   22)\r")
        assert "42" in term.expect("ptc> ")
        term.send('(println "side") (+ 1\r')
        term.expect("...> ")
        term.send("1)\r")
        shown = term.expect("ptc> ")
        assert "side" in shown and "2" in shown
        term.send("(let [x] x)\r")
        shown = term.expect("ptc> ")
        assert "invalid_form" in shown and "Traceback" not in shown
        term.send(":quit\r")
        assert term.close() == 0


def test_repl_completes_builtin_and_tool_names() -> None:
    with terminal("repl", "--tools", "examples/tools.py") as term:
        term.expect("ptc> ")
        term.send("(frequen\t")
        term.expect("frequencies")
        term.send("[1 1 2])\r")
        assert "{1 2, 2 1}" in term.expect("ptc> ")
        term.send("(:name (tool/get-c\t")
        term.expect("tool/get-customer")
        term.send("{:id 1}))\r")
        assert '"Ada Lovelace"' in term.expect("ptc> ")
        term.send("\x04")  # Ctrl-D leaves
        assert term.close() == 0


def test_repl_history_persists_across_sessions(tmp_path: Path) -> None:
    history = tmp_path / "history"
    with terminal("repl", history=history) as term:
        term.expect("ptc> ")
        term.send("(* 6\r")
        term.expect("...> ")
        term.send("7)\r")
        assert "42" in term.expect("ptc> ")
        term.send(":quit\r")
        assert term.close() == 0
    lines = history.read_text().splitlines()
    assert "(* 6 7)" in lines  # a multi-line form is one history entry
    with terminal("repl", history=history) as term:
        term.expect("ptc> ")
        term.send("\x1b[A\x1b[A")  # up twice: past ":quit" to the form
        term.expect("(* 6 7)")
        term.send("\r")
        assert "42" in term.expect("ptc> ")
        term.send(":quit\r")
        assert term.close() == 0


def test_repl_without_readline_still_reads_multi_line_forms() -> None:
    # the plain fallback where readline does not exist (e.g. Windows without it)
    script = (
        "import sys; sys.modules['readline'] = None; "
        "from ptc_compiler.cli import main; raise SystemExit(main(['repl']))"
    )
    with terminal(python_args=["-c", script]) as term:
        term.expect("ptc> ")
        term.send("(count\r")
        term.expect("...> ")
        term.send('"abcd")\r')
        assert "4" in term.expect("ptc> ")
        term.send(":quit\r")
        assert term.close() == 0


def test_serve_reads_scripted_lines() -> None:
    import io

    out = io.StringIO()
    status = serve(Session(data={"n": 3}), lines=["(def y\n", "(* 2 data/n))\n", "y\n"], out=out)
    assert status == 0
    assert out.getvalue().splitlines() == ["#'y", "6"]


def test_ptc_run_dash_reads_the_program_typed_at_a_terminal() -> None:
    with terminal("run", "-") as term:
        term.send("(+ 1\r2)\r\x04")
        term.expect("2)")  # the echo of what was typed
        assert term.expect("3").strip() == "3"
        assert term.close() == 0


def test_version_and_module_entry_point() -> None:
    from ptc_compiler import __version__

    out = subprocess.run([sys.executable, "-m", "ptc_compiler", "--version"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == f"ptc {__version__}"


@pytest.mark.parametrize("source", ["(let [x 1] (+ x", '(str "open'])
def test_syntax_error_at_a_terminal_is_one_typed_line(source: str) -> None:
    with terminal("run", "-e", source) as term:
        shown = term.expect("\n")
        assert shown.startswith("exception: parse_error: "), shown
        assert "Traceback" not in term.seen
        assert term.close() == 1
