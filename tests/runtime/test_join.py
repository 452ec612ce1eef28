"""`join`: a collection that starts with a string is joined by one C-level `str.join` after
its size is checked; the same text and errors as the type check followed by the join or
the part-by-part display it replaced."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import cast

import pytest

from ptc_runtime.builtins import strings
from ptc_runtime.collections import PSet, PVec, seq_items
from ptc_runtime.errors import PtcError
from ptc_runtime.lookup import NOT_FOUND
from ptc_runtime.printer import str_ as display
from ptc_runtime.values import keyword


def reference(a: object, b: object = NOT_FOUND) -> str:
    """`join` as it was: the items' types first, then one join or part by part."""
    sep, coll = ("", a) if b is NOT_FOUND else (a, b)
    bound: int = vars(strings)["MAX_RESULT_CHARS"]
    sep_text = display(sep, bound)
    items = seq_items(coll, "join")
    step = len(sep_text)
    if not set(map(type, items)) - {str}:
        strs = cast("Sequence[str]", items)
        strings._checked_size("join", sum(map(len, strs)) + step * len(strs))
        return sep_text.join(strs)
    parts: list[str] = []
    size = 0
    for x in items:
        text = x if type(x) is str else display(x, bound)
        size += len(text) + step
        if size > bound:
            strings._checked_size("join", size)
        parts.append(text)
    return sep_text.join(parts)


ITEMS: list[object] = [
    "",
    "a",
    "bcd",
    "x" * 40,
    1,
    2.5,
    None,
    keyword("k"),
    [1, "a"],
    PVec(["p", "q"], 2),
    {"a": 1},
    PSet.from_iterable(["s"]),
    math.nan,
]
SEPS: list[object] = [NOT_FOUND, "", ",", "--", None, keyword("s"), 7]


def _outcome(f: Callable[..., str], args: tuple[object, ...]) -> str:
    try:
        return "ok " + f(*args)
    except PtcError as err:
        return f"error {err.code}: {err.message}"


@pytest.mark.parametrize("bound", [10_000_000, 60])
def test_join_agrees_with_the_type_checked_join(
    bound: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(strings, "MAX_RESULT_CHARS", bound)
    rnd = random.Random(bound)
    fast = errors = 0
    for _ in range(4000):
        pool = ITEMS[:4] if rnd.random() < 0.5 else ITEMS  # often strings only
        items = [rnd.choice(pool) for _ in range(rnd.randint(0, 8))]
        coll: object = items
        if rnd.random() < 0.2:
            coll = PVec(items, len(items))
        elif rnd.random() < 0.1:
            coll = rnd.choice([None, "ab", 5, 5.5, {"k": "v"}])  # 5, 5.5: not seqable
        sep = rnd.choice(SEPS)
        args = (coll,) if sep is NOT_FOUND else (sep, coll)
        want = _outcome(reference, args)
        assert _outcome(strings.join, args) == want, args
        fast += bool(items) and all(type(x) is str for x in items)
        errors += want.startswith("error")
    assert fast > 1000 and errors > (200 if bound < 100 else 100)
