"""ptc-compiler: PTC-Lisp compiled to Python bytecode and run in a sandbox.

    >>> import ptc_compiler
    >>> ptc_compiler.run("(+ 1 2)").value
    3

Public API: `run`, `compile` (-> `Program`), `RunResult`, `RunFailure`, `Tool`, `pr_str`,
`Keyword`; `Environment` and `PreludeError` for preludes (docs/preludes.md).
For hosts built on the compiler (the agent library, `ptc_agent`): `top_level_heads` (the
shape of a program's top-level forms, read without compiling), `render_tools` (the tools
text of a prompt) and the `Tool` failures `InputValidationUnavailable` and
`OutputValidationUnavailable`. The public modules besides this one are
`ptc_compiler.prelude` and `ptc_compiler.signatures` (each with its `__all__`).
"""

from ptc_compiler.api import Program, RunFailure, RunResult, compile, run
from ptc_compiler.reader import top_level_heads
from ptc_compiler.tools import (
    InputValidationUnavailable,
    OutputValidationUnavailable,
    Tool,
    render_tools,
)
from ptc_runtime.printer import pr_str
from ptc_runtime.values import Keyword, keyword

__all__ = [
    "InputValidationUnavailable",
    "Keyword",
    "OutputValidationUnavailable",
    "Program",
    "RunFailure",
    "RunResult",
    "Tool",
    "compile",
    "keyword",
    "pr_str",
    "render_tools",
    "run",
    "top_level_heads",
]
__version__ = "0.1.0"


def __getattr__(name: str) -> object:
    """`Environment` and `PreludeError` (docs/preludes.md), imported on first use."""
    if name in ("Environment", "PreludeError"):
        from ptc_compiler import prelude

        return getattr(prelude, name)
    raise AttributeError(f"module 'ptc_compiler' has no attribute {name!r}")
