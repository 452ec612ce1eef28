"""ptc-compiler: PTC-Lisp compiled to Python bytecode and run in a sandbox.

    >>> import ptc_compiler
    >>> ptc_compiler.run("(+ 1 2)").value
    3

Public API: `run`, `compile` (-> `Program`), `RunResult`, `RunFailure`, `Tool`, `pr_str`,
`Keyword`.
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
