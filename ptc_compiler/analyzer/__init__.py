"""The analyzer: forms -> IR (`ptc_compiler.ir`), raising `AnalysisError` before anything runs.

`analyze(forms, env)` resolves every symbol, checks every special form's shape,
desugars macros and destructuring, and collects the program's static facts
(definitions, tools, data keys). Modules: `core` (dispatch, calls, tool calls),
`resolve` (symbols, namespaces, Java names, hints), `control`, `bindings`
(let/loop/for and destructuring), `fn` (fn/#()/def/defn), `threading`, `colls`
(literals, duplicate keys), `scope` (context), `env` (`AnalysisEnv`).
"""

from __future__ import annotations

from collections.abc import Sequence

from ptc_compiler import ir
from ptc_compiler.analyzer.core import Analyzer
from ptc_compiler.analyzer.env import AnalysisEnv, default_builtins
from ptc_compiler.analyzer.scope import Ctx
from ptc_compiler.budget import CompileBudget
from ptc_compiler.forms import NO_SPAN, Form, Span

__all__ = ["AnalysisEnv", "analyze", "default_builtins"]


def analyze(
    forms: Sequence[Form], env: AnalysisEnv | None = None, budget: CompileBudget | None = None
) -> ir.Program:
    """Analyze a whole program (an implicit `do` of `forms`; empty is nil).

    `budget`: charged per form analyzed (`ptc_compiler.budget`); none means unbounded.
    """
    if env is None:
        env = AnalysisEnv()
    an = Analyzer(env, budget)
    ctx = Ctx({}, None, True, None, frozenset())
    span = NO_SPAN
    if forms:
        first, last = forms[0].span, forms[-1].span
        span = Span(first.line, first.col, last.end_line, last.end_col)
    body = an.body(forms, ctx, False, span)
    return ir.Program(
        body,
        defines=frozenset(an.defines),
        tools=frozenset(an.tools),
        data_keys=frozenset(an.data_keys),
        prelude_key=env.prelude_key,
    )
