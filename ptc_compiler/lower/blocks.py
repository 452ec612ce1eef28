"""The nesting of Python blocks in a generated module, held to what CPython compiles.

CPython refuses a function with more than 20 statically nested blocks (`for`, `while`,
`try`, `with`): `SyntaxError: too many statically nested blocks`. Lowering turns each
`for`/`doseq` binding into one `for` and each `loop` (and recurring fn arity) into a
`while` around a `for` over the fuel, with one more `for` for a step check inside, so
a program with about ten nested `loop`s or a twenty-binding `for` would reach that
limit. `check_block_depth` finds the first place that goes past it before `compile()`
runs and reports a program error at that place's line and column. A `fn` is its own
Python function (lowering hoists every `fn` to module level), so moving an inner part
of the program into a `fn` starts the count again.
"""

from __future__ import annotations

import ast
from typing import Final

from ptc_runtime.errors import PtcError

#: CPython's `CO_MAXBLOCKS`: the most blocks one function may nest.
MAX_BLOCKS: Final = 20


def check_block_depth(module: ast.Module) -> None:
    """Raise `PtcError("program_too_complex")` at the first block nested past `MAX_BLOCKS`.

    Walks statements only (expressions cannot hold blocks), with an explicit stack: the
    tree may be deep. The generated code has no `try` or `with`; they are counted like
    loops all the same (a handler as two), so the check stays conservative.
    """
    stack: list[tuple[list[ast.stmt], int]] = [(module.body, 0)]
    pop = stack.pop
    push = stack.append
    while stack:
        body, depth = pop()
        for stmt in body:
            kind = type(stmt)
            if kind is ast.FunctionDef or kind is ast.AsyncFunctionDef:
                push((stmt.body, 0))  # type: ignore[attr-defined]
            elif kind is ast.If:
                push((stmt.body, depth))  # type: ignore[attr-defined]
                push((stmt.orelse, depth))  # type: ignore[attr-defined]
            elif kind in _LOOPS:
                _enter(stmt, depth + 1)
                push((stmt.body, depth + 1))  # type: ignore[attr-defined]
                push((stmt.orelse, depth))  # type: ignore[attr-defined]  # after the loop
            elif kind in _WITH:
                _enter(stmt, depth + 1)
                push((stmt.body, depth + 1))  # type: ignore[attr-defined]
            elif kind in _TRY:
                _enter(stmt, depth + 2)
                push((stmt.body, depth + 1))  # type: ignore[attr-defined]
                push((stmt.orelse, depth + 1))  # type: ignore[attr-defined]
                push((stmt.finalbody, depth + 2))  # type: ignore[attr-defined]
                for handler in stmt.handlers:  # type: ignore[attr-defined]
                    push((handler.body, depth + 2))


_LOOPS: Final = frozenset({ast.For, ast.While, ast.AsyncFor})
_WITH: Final = frozenset({ast.With, ast.AsyncWith})
_TRY: Final = frozenset({ast.Try, getattr(ast, "TryStar", ast.Try)})


def _enter(stmt: ast.stmt, depth: int) -> None:
    if depth <= MAX_BLOCKS:
        return
    line = getattr(stmt, "lineno", None)
    col = getattr(stmt, "col_offset", None)
    raise PtcError(
        "program_too_complex",
        f"loops nest too deeply to compile here: more than {MAX_BLOCKS} nested blocks "
        "(each for or doseq binding is one, each loop two)",
        line=line if line else None,
        column=col + 1 if line and col is not None else None,
        hint="Move the inner part into a separate (defn ...) and call it.",
    )
