"""The `ptc` command line.

    ptc --version
    ptc run FILE | - | -e EXPR [--data FILE.json] [--tools FILE.py] [--timeout-ms N] [--max-steps N]
    ptc compile FILE --emit python
    ptc compile PRELUDE_FILES_OR_DIRS... -o OUT_DIR [-q] [--key-file KEY]
    ptc run FILE [--prelude PATH]... [--key-file KEY]
    ptc check FILE | - | -e EXPR [--tools FILE.py] [--prelude PATH]...
    ptc repl [--tools FILE.py] [--data FILE.json] [--prelude PATH]... [--mode MODE]
    ptc fuzz signatures [--examples N | --minutes M] [--seed S]
    ptc fuzz clojure [--programs N] [--seed S]... [--out FILE]
    ptc fuzz bad-args [--calls N] [--seed S] [--only NAME]
    ptc agent run SPEC.json [--models FILE] [--model ALIAS] [--max-turns N] [-v]

`run` prints `pr-str` of the value and exits 0, or prints `kind: code: message
(line:column)` on stderr and exits 1. `--tools` names a trusted host Python file
whose `TOOLS` dict maps tool names to callables (the program itself can never load code).
FILE `-` reads the program from standard input. `check --tools` also refuses a call of a
tool the file does not define (`unknown_tool`), as a run with those tools would.
`python -m ptc_compiler` is the same command.
`--key-file` names the prelude key that signs (`compile -o`) and authenticates (`run
--prelude`) artifacts and cache entries, instead of `$PTC_PRELUDE_KEY_FILE` or the per-user
key file (docs/preludes.md); it must be the user's own file, readable by no one else.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ptc_compiler import __version__, api
from ptc_runtime.errors import PtcError
from ptc_runtime.printer import pr_str


def _source(args: argparse.Namespace) -> str:
    if getattr(args, "expr", None) is not None:
        return str(args.expr)
    if args.file is None:
        raise SystemExit("ptc: give a FILE, - (standard input) or -e EXPR")
    if args.file == "-":
        try:
            return sys.stdin.read()
        except UnicodeDecodeError:
            raise SystemExit("ptc: standard input is not UTF-8 text") from None
    try:
        return Path(args.file).read_text(encoding="utf-8")
    except OSError as exc:
        raise SystemExit(f"ptc: cannot read {args.file}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise SystemExit(f"ptc: {args.file} is not UTF-8 text") from None


def _load_data(path: str | None) -> dict[str, Any] | None:
    if path is None:
        return None
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise SystemExit(f"ptc: cannot read {path}: {exc.strerror}") from None
    except ValueError as exc:
        raise SystemExit(f"ptc: {path} is not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise SystemExit(f"ptc: {path} must hold a JSON object (its keys become data/<name>)")
    return data


def _load_tools(path: str | None) -> dict[str, Callable[..., Any]] | None:
    if path is None:
        return None
    spec = importlib.util.spec_from_file_location("ptc_cli_tools", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"ptc: cannot load tools from {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    tools = getattr(module, "TOOLS", None)
    if not isinstance(tools, dict):
        raise SystemExit(f"ptc: {path} must define a TOOLS dict of name -> callable")
    return tools


def _report(failure: api.RunFailure) -> None:
    where = f" ({failure.line}:{failure.column})" if failure.line is not None else ""
    hint = f"\n  hint: {failure.hint}" if failure.hint else ""
    print(f"{failure.kind}: {failure.code}: {failure.message}{where}{hint}", file=sys.stderr)


def _prelude_key(args: argparse.Namespace) -> bytes | None:
    """The key `--key-file` names (checked: the user's own, private), or None."""
    if args.key_file is None:
        return None
    from ptc_compiler.prelude.keys import read_key_file

    return read_key_file(Path(args.key_file))


def cmd_run(args: argparse.Namespace) -> int:
    if args.key_file is not None:
        if not args.prelude:
            raise SystemExit("ptc: --key-file authenticates preludes: give --prelude PATH")
        return _run_keyed(args)
    try:
        result = api.run(
            _source(args),
            data=_load_data(args.data),
            tools=_load_tools(args.tools),
            timeout_ms=args.timeout_ms if args.timeout_ms > 0 else None,
            max_steps=args.max_steps,
            preludes=args.prelude or None,
            mode=args.mode,
            # in-process the PTC value is printed with pr-str; isolated, its JSON projection
            native=args.mode != "isolated",
        )
    except PtcError as err:  # a prelude that cannot be loaded or attached
        _report(api.RunFailure.from_error(err))
        return 1
    if result.output:
        sys.stdout.write(result.output)
    if result.error is not None:
        _report(result.error)
        return 1
    print(pr_str(result.value))
    return 0


def _run_keyed(args: argparse.Namespace) -> int:
    """`ptc run --prelude ... --key-file KEY`: the preludes loaded under that key."""
    from ptc_compiler.prelude.environment import Environment

    env: Environment | None = None
    try:
        env = Environment(
            list(args.prelude),
            tools=_load_tools(args.tools),
            mode=args.mode,
            artifact_key=_prelude_key(args),
        )
        result = env.run(
            _source(args),
            data=_load_data(args.data),
            timeout_ms=args.timeout_ms if args.timeout_ms > 0 else None,
            max_steps=args.max_steps,
            native=args.mode != "isolated",
        )
    except PtcError as err:  # a key, or a prelude, that cannot be read, loaded or attached
        _report(api.RunFailure.from_error(err))
        return 1
    finally:
        if env is not None:
            env.close()
    if result.output:
        sys.stdout.write(result.output)
    if result.error is not None:
        _report(result.error)
        return 1
    print(pr_str(result.value))
    return 0


def cmd_compile(args: argparse.Namespace) -> int:
    if args.out is not None:
        return _compile_preludes(args)
    if len(args.file) > 1:
        raise SystemExit("ptc: compile takes one program FILE (prelude files need -o OUT_DIR)")
    if args.key_file is not None:
        raise SystemExit("ptc: --key-file signs prelude artifacts: give -o OUT_DIR")
    args.file = args.file[0] if args.file else None
    try:
        program = api.compile(_source(args))
    except PtcError as err:
        _report(api.RunFailure.from_error(err))
        return 1
    if args.emit == "python":
        print(program.python_source)
    return 0


def _compile_preludes(args: argparse.Namespace) -> int:
    """`ptc compile FILES_OR_DIRS -o OUT`: one artifact per prelude component."""
    from ptc_compiler.prelude import compile_to_dir

    if not args.file:
        raise SystemExit("ptc: give prelude FILES or DIRS to compile")
    quiet = args.quiet

    def progress(done: int, total: int, ns: str, what: str) -> None:
        if not quiet:
            width = len(str(total))
            print(f"[{done:>{width}}/{total}] {what} {ns}", file=sys.stderr)

    try:
        written = compile_to_dir(args.file, args.out, progress=progress, key=_prelude_key(args))
    except PtcError as err:
        _report(api.RunFailure.from_error(err))
        return 1
    if not quiet:
        print(f"wrote {len(written)} artifact(s) to {args.out}", file=sys.stderr)
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    tools = _load_tools(args.tools)
    try:
        api.compile(
            _source(args),
            tools=frozenset(tools) if tools is not None else None,
            preludes=args.prelude or None,
        )
    except PtcError as err:
        _report(api.RunFailure.from_error(err))
        return 1
    print("ok")
    return 0


def cmd_repl(args: argparse.Namespace) -> int:
    from ptc_compiler import repl

    session = repl.Session(
        tools=_load_tools(args.tools),
        data=_load_data(args.data),
        preludes=args.prelude or None,
        mode=args.mode,
        timeout_ms=args.timeout_ms if args.timeout_ms > 0 else None,
        max_steps=args.max_steps,
    )
    history = None if args.no_history else repl.default_history()
    if args.history is not None:
        history = Path(args.history)
    interactive = sys.stdin.isatty()
    if interactive:
        print(f"ptc {__version__} REPL: :help for help, :quit or Ctrl-D to leave")
    return repl.serve(session, history=history, lines=None if interactive else sys.stdin)


def cmd_fuzz(argv: Sequence[str]) -> int:
    from ptc_compiler.fuzz_cli import main_fuzz

    return main_fuzz(list(argv))


_KEY_FILE_HELP = (
    "prelude key file that signs and authenticates artifacts (default: $PTC_PRELUDE_KEY_FILE, "
    "else ~/.config/ptc/prelude.key); it must be yours and mode 600"
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ptc", description="PTC-Lisp compiler and runner")
    parser.add_argument("--version", action="version", version=f"ptc {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    run = sub.add_parser("run", help="compile and run a program, print its value")
    run.add_argument("file", nargs="?", help="program file, or - for standard input")
    run.add_argument("-e", "--expr", help="program text instead of a file")
    run.add_argument("--data", help="JSON object file: its keys become data/<name>")
    run.add_argument("--tools", help="trusted Python file defining TOOLS = {name: callable}")
    run.add_argument("--timeout-ms", type=float, default=1000, help="0 for no deadline")
    run.add_argument("--max-steps", type=int, default=10_000_000)
    run.add_argument(
        "--mode",
        choices=["in-process", "isolated"],
        default="in-process",
        help="isolated: run in a separate worker process with OS resource limits",
    )
    run.add_argument(
        "--prelude",
        action="append",
        metavar="PATH",
        help="prelude source, compiled artifact (.ptcc) or directory (repeatable)",
    )
    run.add_argument("--key-file", metavar="KEY", help=_KEY_FILE_HELP)
    run.set_defaults(handler=cmd_run)

    comp = sub.add_parser(
        "compile",
        help="compile a program (--emit python prints the code), or prelude files/dirs "
        "to artifacts with -o OUT_DIR",
    )
    comp.add_argument("file", nargs="*")
    comp.add_argument("-o", "--out", help="compile prelude sources to artifacts in this directory")
    comp.add_argument("-q", "--quiet", action="store_true", help="no progress lines")
    comp.add_argument("-e", "--expr")
    comp.add_argument("--emit", choices=["python"], default="python")
    comp.add_argument("--key-file", metavar="KEY", help=_KEY_FILE_HELP)
    comp.set_defaults(handler=cmd_compile)

    check = sub.add_parser("check", help="report parse and analysis errors without running")
    check.add_argument("file", nargs="?", help="program file, or - for standard input")
    check.add_argument("-e", "--expr")
    check.add_argument(
        "--tools", help="Python file defining TOOLS: a call of any other tool is an error"
    )
    check.add_argument("--prelude", action="append", metavar="PATH", help="(repeatable)")
    check.set_defaults(handler=cmd_check)

    rp = sub.add_parser("repl", help="read, run and print forms at a terminal")
    rp.add_argument("--tools", help="trusted Python file defining TOOLS = {name: callable}")
    rp.add_argument("--data", help="JSON object file: its keys become data/<name>")
    rp.add_argument("--prelude", action="append", metavar="PATH", help="(repeatable)")
    rp.add_argument("--mode", choices=["in-process", "isolated"], default="in-process")
    rp.add_argument("--timeout-ms", type=float, default=1000, help="per input; 0 for none")
    rp.add_argument("--max-steps", type=int, default=10_000_000)
    rp.add_argument("--history", metavar="FILE", help="history file (default $PTC_HISTORY "
                    "or ~/.ptc_history)")
    rp.add_argument("--no-history", action="store_true", help="keep no history file")
    rp.set_defaults(handler=cmd_repl)

    sub.add_parser("fuzz", help="fuzz campaigns (ptc fuzz signatures/clojure/bad-args --help)")
    sub.add_parser("agent", help="run the agent loop (ptc agent run --help; docs/agents.md)")
    return parser


def cmd_agent(argv: Sequence[str]) -> int:
    """`ptc agent ...`: hand over to the agent library's CLI (`ptc_agent.cli`).

    The agent library is a sibling package the compiler never imports otherwise; this lazy
    hook is its only entry from `ptc_compiler`, so the compiler runs without it.
    """
    try:
        from ptc_agent.cli import main_agent
    except ModuleNotFoundError as exc:
        if exc.name != "ptc_agent" and not (exc.name or "").startswith("ptc_agent."):
            raise
        print("ptc agent: the agent library (ptc_agent) is not installed; "
              "install it with: pip install 'ptc-compiler[agent]'", file=sys.stderr)
        return 2
    return main_agent(list(argv))


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["fuzz"]:
        return cmd_fuzz(argv[1:])
    if argv[:1] == ["agent"]:
        return cmd_agent(argv[1:])
    args = build_parser().parse_args(argv)
    handler: Callable[[argparse.Namespace], int] = args.handler
    return handler(args)


if __name__ == "__main__":
    raise SystemExit(main())
