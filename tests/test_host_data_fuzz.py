"""Host values of every Python shape as run data and as tool results (fuzz/strategies/host_data.py):
no exception reaches the host, errors are typed and free of Python reprs, host data is left
as it was, results cross to JSON, the scan's fast path agrees with plain JSON copies, and a
mutated list is not read with stale record facts. A CI-sized run over fixed seeds; more
seeds by hand: `.venv/bin/python -m fuzz.strategies.host_data 0 5000`.
"""

from __future__ import annotations

import pytest

import ptc_compiler
from fuzz.strategies.host_data import BadEq, BadIterDict, BadLenList, check_case


@pytest.mark.parametrize("block", range(15))
def test_host_data_seeds(block: int) -> None:
    """Seeds 0-299 in blocks of 20: every case keeps the host-boundary promises."""
    problems = [p for seed in range(block * 20, block * 20 + 20) for p in check_case(seed)]
    assert problems == []


@pytest.mark.parametrize(
    "value",
    [BadIterDict(a=1), {"a": BadIterDict(a=1)}, BadLenList([1, 2]), [1, {"x": BadLenList([1])}]],
)
@pytest.mark.parametrize("via", ["data", "tool"])
def test_host_objects_whose_methods_raise_are_a_tool_error(value: object, via: str) -> None:
    """A dict/list subclass whose items/__iter__/__len__ raise was a RuntimeError reaching the
    host (run data: the walk in `from_host`) or an internal_error (tool result: the size check's
    JSON encoding); now a tool_error without the host's exception text."""
    if via == "data":
        r = ptc_compiler.run("(count data/v)", data={"v": value})
    else:
        r = ptc_compiler.run("(count (tool/g {}))", tools={"g": lambda _args: value})
    assert not r.ok and r.error is not None
    assert r.error.code == "tool_error"
    assert "boom" not in r.error.message and "RuntimeError" not in r.error.message


def test_unhashable_odd_key_is_a_tool_error() -> None:
    """A key whose __hash__ raises: typed, not a crash."""
    r = ptc_compiler.run("(count data/v)", data={"v": [BadEq()]})
    assert not r.ok and r.error is not None and r.error.code == "tool_error"
