"""ptc-compiler: PTC-Lisp compiled to Python bytecode and run in a sandbox.

    >>> import ptc_compiler
    >>> ptc_compiler.run("(+ 1 2)").value
    3

Public API: `run`, `compile` (-> `Program`), `RunResult`, `RunFailure`, `Tool`, `pr_str`,
`Keyword`; `Environment` and `PreludeError` for preludes (docs/preludes.md).
"""

from ptc_compiler.api import Program, RunFailure, RunResult, compile, run
from ptc_compiler.tools import Tool
from ptc_runtime.printer import pr_str
from ptc_runtime.values import Keyword, keyword

__all__ = [
    "Keyword",
    "Program",
    "RunFailure",
    "RunResult",
    "Tool",
    "compile",
    "keyword",
    "pr_str",
    "run",
]
__version__ = "0.1.0"


def __getattr__(name: str) -> object:
    """`Environment` and `PreludeError` (docs/preludes.md), imported on first use."""
    if name in ("Environment", "PreludeError"):
        from ptc_compiler import prelude

        return getattr(prelude, name)
    raise AttributeError(f"module 'ptc_compiler' has no attribute {name!r}")
