"""The loops made from templates at import (`ptc_runtime.fast.unrolled`): each case does what
the template says, for every number of fields and comparison, in its module's globals."""

from __future__ import annotations

import random
from typing import Any

import pytest

from ptc_runtime.builtins.strings_core import str_format
from ptc_runtime.fast import fieldformat, filtered_groups, group_sums
from ptc_runtime.fast.unrolled import Cases, define
from ptc_runtime.values import keyword

VALUES: list[Any] = ["", "ab", 0, -7, 12345, 0.5, -2.25, 0.001, 1e-4, 1e7, 123.0, None]


def test_define_compiles_in_the_modules_globals() -> None:
    made = define("def f(x):\n    return x + K\n", "mod", "f", {"K": 2})
    assert made(1) == 3
    assert made.__code__.co_filename == "<mod:f>"


@pytest.mark.parametrize("table", ["_RECORD_TEXTS", "_RECORD_GETS", "_TEXTS"])
@pytest.mark.parametrize("fields", range(1, fieldformat.MAX_FIELDS + 1))
def test_each_comprehension_is_str(table: str, fields: int) -> None:
    # the fast texts where every part prints as `str` prints it, else `_Odd` (the caller
    # then makes the stretch by `str_format`): never another text
    rnd = random.Random(fields)
    keys = tuple(keyword(n) for n in "pqrs"[:fields])
    fmt = "<" + "|".join(["%s"] * fields) + ">"
    pieces, names, plain, alts = fieldformat._shape(fmt, keys)
    texts = getattr(fieldformat, table)[fields]
    assert texts.__code__.co_filename.startswith("<ptc_runtime.fast.fieldformat:")
    assert texts.__globals__ is vars(fieldformat)
    for _ in range(200):
        row = {n: rnd.choice(VALUES) for n in names}
        try:
            got = texts([row], pieces, keys, names, plain, alts)
        except fieldformat._Odd:
            continue
        assert got == [str_format(fmt, *row.values())], row


def _sums(rows: list[dict[str, Any]], counted: bool) -> dict[object, Any]:
    out: dict[object, Any] = {}
    for r in rows:
        if r["k"] in out:
            s = out[r["k"]]
            out[r["k"]] = [s[0] + r["v"], s[1] + 1] if counted else s + r["v"]
        else:
            out[r["k"]] = [r["v"], 1] if counted else r["v"]
    return out


@pytest.mark.parametrize("kind", ["_COLUMNS", "_COUNTS", "_SUMS", "_SUM_COUNTS"])
@pytest.mark.parametrize("keep_equal", [True, False])
def test_each_split_keeps_and_groups(kind: str, keep_equal: bool) -> None:
    rnd = random.Random(7)
    rows = [
        {"f": rnd.choice("ab"), "k": rnd.choice("xyz"), "v": rnd.choice([1, 2.5, -3])}
        for _ in range(300)
    ]
    kept = [r for r in rows if (r["f"] == "a") == keep_equal]
    groups: Any = {} if kind in ("_SUMS", "_SUM_COUNTS") else None
    if kind == "_COLUMNS":
        groups = {k: [] for k in "xyz"}
        want: dict[object, Any] = {k: [r["v"] for r in kept if r["k"] == k] for k in "xyz"}
    elif kind == "_COUNTS":
        groups = dict.fromkeys("xyz", 0)
        want = {k: sum(r["k"] == k for r in kept) for k in "xyz"}
    else:
        want = _sums(kept, kind == "_SUM_COUNTS")
    getattr(filtered_groups, kind)[keep_equal](rows, "f", "a", "k", "v", groups)
    assert groups == want
    # the unfiltered loops of `group_sums` are the same bodies
    if kind in ("_SUMS", "_SUM_COUNTS"):
        alone: dict[object, Any] = {}
        add = group_sums.add_all if kind == "_SUMS" else group_sums.add_all_counted
        add(kept, "k", "v", alone)
        assert alone == want


@pytest.mark.parametrize("add", [group_sums.add_all, group_sums.add_all_counted])
@pytest.mark.parametrize("bad", [True, "1", None])
def test_a_value_that_is_no_number_fails(add: Any, bad: object) -> None:
    with pytest.raises(TypeError):
        add([{"k": 1, "v": 2}, {"k": 1, "v": bad}], "k", "v", {})
    with pytest.raises(TypeError):
        add([{"k": 1, "v": bad}], "k", "v", {})


def test_cases_are_made_on_first_use() -> None:
    made: list[int] = []

    def make(n: int) -> str:
        made.append(n)
        return f"case {n}"

    cases = Cases(make, range(3))
    assert made == [] and len(cases) == 3
    assert cases[2] == cases[2] == "case 2" and made == [2]
    assert list(cases) == ["case 0", "case 1", "case 2"] and made == [2, 0, 1]
    with pytest.raises(KeyError):
        cases[3]
    assert cases.get(3) is None and made == [2, 0, 1]
    cases[1] = "stand-in"
    assert cases[1] == "stand-in"
