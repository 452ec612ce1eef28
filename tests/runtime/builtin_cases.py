"""Helpers for table-driven builtin tests run through `ptc_compiler.run`.

A case is `(source, expected)`: `expected` is the readable text of the value
(`pr-str`), or `"!code"` when the run must fail with that error code.
"""

from __future__ import annotations

from typing import Any

import pytest

from ptc_compiler import run
from ptc_runtime.printer import pr_str


def outcome(src: str, **kwargs: Any) -> str:
    """`pr-str` text of the value, or `!code` for a failure (messages must be clean)."""
    res = run(src, native=True, **kwargs)  # the PTC value, as the language defines it
    if res.ok:
        return pr_str(res.value)
    assert res.error is not None
    msg = res.error.message
    assert "Traceback" not in msg and " object at 0x" not in msg, msg
    return "!" + res.error.code


def cases(table: list[tuple[str, str]]) -> Any:
    """Parametrize a test over `table`, with each source as its id."""
    return pytest.mark.parametrize(("src", "want"), table, ids=[s for s, _ in table])
