"""Shape of the generated code where compile latency depends on it (fewer statements)."""

from __future__ import annotations

import re

import pytest

from ptc_compiler import api


@pytest.mark.parametrize(
    ("source", "want"),
    [
        ("(let [xs (filter (fn [x] (> x 1)) [1 2 3])] xs)", [2, 3]),
        ("(let [xs (map #(* % 10) [1 2])] (count xs))", 2),
        ("(let [xs (remove #(= % 2) [1 2 3]) n (count xs)] [xs n])", [[1, 3], 2]),
    ],
)
def test_let_bound_inline_map_filter_collects_straight_into_the_local(
    source: str, want: object
) -> None:
    program = api.compile(source)
    python = program.python_source
    # The loop's accumulator is copied into the local once, with no temporary in between.
    assert re.search(r"^\s*t\d+ = t\d+$", python, re.M) is None, python
    assert re.search(r"^\s*v\d+_xs = t\d+$", python, re.M), python
    result = program.run()
    assert result.ok and result.value == want, result
