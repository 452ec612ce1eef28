"""What a run shows, as one string, for tests that compare a fast path with the generic one.

A fast path must be invisible: the same value (as printed), the same error (kind, code,
line:column, message), the same output and the same step count. The differential tests
run a program twice (the rule on, the rule defeated) and compare these strings, which
also makes a failure readable.
"""

from __future__ import annotations

from typing import Any

from ptc_compiler import api
from ptc_runtime.printer import pr_str


def describe(
    res: api.RunResult, *, steps: bool = True, output: bool = True, position: bool = True
) -> str:
    """`res` as one comparable string; a test may leave out what its rule may change."""
    head = ""
    if steps:
        head += f"steps {res.steps} "
    if output:
        head += f"output {res.output!r} "
    if res.ok:
        return head + "ok " + pr_str(res.value)
    err = res.error
    assert err is not None
    where = f" {err.line}:{err.column}" if position else ""
    return head + f"error {err.kind} {err.code}{where}: {err.message}"


def outcome(
    src: str,
    *,
    steps: bool = True,
    output: bool = True,
    position: bool = True,
    **run_options: Any,
) -> str:
    """Run `src` (`api.run` with `run_options`, e.g. `data=`, `max_steps=`) and describe it."""
    run_options.setdefault("native", True)  # the PTC value, as the language defines it
    return describe(api.run(src, **run_options), steps=steps, output=output, position=position)


def lisp_literal(x: Any) -> str:
    """JSON-shaped `x` as PTC-Lisp source: maps with keyword keys (for tests that put host
    data into a program as a literal, where it is a persistent map, not a record list)."""
    if x is None:
        return "nil"
    if x is True:
        return "true"
    if x is False:
        return "false"
    if isinstance(x, str):
        return f'"{x}"'
    if isinstance(x, list):
        return "[" + " ".join(map(lisp_literal, x)) + "]"
    if isinstance(x, dict):
        return "{" + " ".join(f":{k} {lisp_literal(v)}" for k, v in x.items()) + "}"
    return repr(x)
