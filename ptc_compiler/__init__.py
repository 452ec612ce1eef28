"""ptc-compiler: PTC-Lisp compiled to Python bytecode and run in a sandbox.

    >>> import ptc_compiler
    >>> ptc_compiler.run("(+ 1 2)").value
    3

Public API:

* `run` and `arun` (the same for async hosts, whose tools may be coroutine functions):
  compile and run a program, never raising for anything the program does;
* `compile` -> `Program` (compile once, `Program.run` many times);
* `RunResult` and `RunFailure`: a run's outcome;
* `Tool` and `tool` (the decorator): typed host tools (docs/tools.md);
* `pr_str`, `Keyword` and `keyword`: printing and building PTC values;
* `Environment` and `PreludeError` for preludes (docs/preludes.md), imported on first use.

For hosts built on the compiler (the agent library, `ptc_agent`): `top_level_heads` (the
shape of a program's top-level forms, read without compiling), `render_tools` (the tools
text of a prompt) and the `Tool` failures `InputValidationUnavailable` and
`OutputValidationUnavailable`. The public modules besides this one are
`ptc_compiler.prelude`, `ptc_compiler.signatures` and `ptc_compiler.tools` (each with its
`__all__`).
"""

from ptc_compiler.api import Program, RunFailure, RunResult, arun, compile, run
from ptc_compiler.reader import top_level_heads
from ptc_compiler.tools import (
    InputValidationUnavailable,
    OutputValidationUnavailable,
    Tool,
    render_tools,
    tool,
)
from ptc_runtime.printer import pr_str
from ptc_runtime.values import Keyword, keyword

__all__ = [
    "Environment",
    "InputValidationUnavailable",
    "Keyword",
    "OutputValidationUnavailable",
    "PreludeError",
    "Program",
    "RunFailure",
    "RunResult",
    "Tool",
    "arun",
    "compile",
    "keyword",
    "pr_str",
    "render_tools",
    "run",
    "tool",
    "top_level_heads",
]
__version__ = "0.1.0"


def __getattr__(name: str) -> object:
    """`Environment` and `PreludeError` (docs/preludes.md), imported on first use."""
    if name in ("Environment", "PreludeError"):
        from ptc_compiler import prelude

        return getattr(prelude, name)
    raise AttributeError(f"module 'ptc_compiler' has no attribute {name!r}")
