"""`(reduce (fn [m x] (assoc m (:k x) (:v x))) {} coll)` over a record list: the map is
built by a comprehension (`transient.assoc_fields._record_map`), first reading fields by
subscript and refusing any key but a string without `_`, then (a field missing, or
another key) with `dict.get` and a check of the finished map's keys (`_plain_keys`),
else the general per-part stores.

Each must give what the plain in-place loop gives: the same map (keys, their order and
spelling, values), the same error and position, the same step count when the budget runs
out before, inside or after the loop, and the host data untouched.
"""

from __future__ import annotations

import json
import math
import random
from typing import Any

import pytest

import ptc_compiler
from ptc_compiler import optimize
from ptc_runtime.fast.transient import assoc_fields
from tests.outcomes import outcome

PROGRAMS = [
    "(reduce (fn [m x] (assoc m (:k x) (:v x))) {} data/xs)",
    "(reduce (fn [m x] (assoc m (get x :k) x)) {} data/xs)",
    "(count (reduce (fn [m x] (assoc m (:k x) (get x :v))) {} data/xs))",
]

#: Key spellings: plain strings, `_`/`-` twins (a later `-` key finds the `_` one), and
#: values that are no string.
STRINGS = ["a", "b", "a-b", "c-d", "s1", "s2", ""]
TWINS = ["a_b", "c_d", "_"]
OTHERS: list[Any] = [1, 2, 1.0, 2.5, -0.0, 0, None, True, False, [1], {"n": 1}, math.nan]


def _records(rnd: random.Random, n: int) -> list[dict[str, Any]]:
    kinds = rnd.choice(["strings", "strings", "twins", "numbers", "others", "missing"])
    pool: list[Any] = list(STRINGS)
    if kinds == "twins":
        pool += TWINS
    elif kinds == "numbers":
        pool = [1, 2, 3, 1.0, 2.5, -0.0, 0, None, 7]
    elif kinds == "others":
        pool += OTHERS
    out = []
    late = rnd.random() < 0.5  # the odd keys only near the end (after several parts)
    for i in range(n):
        odd = not late or i > n * 0.9
        choices = pool if odd else STRINGS
        d: dict[str, Any] = {"k": rnd.choice(choices), "v": rnd.choice([1, "x", None, [2]])}
        if kinds == "missing" and rnd.random() < (0.3 if odd else 0.0):
            del d[rnd.choice(["k", "v"])]
        out.append(d)
    return out


def _both(src: str, data: dict[str, Any], budget: int, monkeypatch: pytest.MonkeyPatch) -> None:
    assert "rt_t_assoc_fields" in ptc_compiler.compile(src).python_source
    before = json.dumps(data, sort_keys=True, default=repr)
    got = outcome(src, data=data, max_steps=budget, timeout_ms=None)
    assert json.dumps(data, sort_keys=True, default=repr) == before  # host data untouched
    with optimize.disabled("assoc-fields"):
        plain = src + " "
        assert "rt_t_assoc_fields" not in ptc_compiler.compile(plain).python_source
        want = outcome(plain, data=data, max_steps=budget, timeout_ms=None)
    assert got == want, (src, budget)


@pytest.mark.parametrize("at_once", [assoc_fields._AT_ONCE, 0, 300])
@pytest.mark.parametrize("seed", range(8))
def test_record_maps_agree_with_the_loop(
    seed: int, at_once: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # short lists: every step pulled first; longer ones (`_AT_ONCE`): part by part
    monkeypatch.setattr(assoc_fields, "_AT_ONCE", at_once)
    rnd = random.Random(seed)
    for i in range(25):
        n = rnd.choice([16, 40, 300, 5000, 12000])
        data = {"xs": _records(rnd, n)}
        src = rnd.choice(PROGRAMS) + f"\n; {seed}/{i}"
        # before the loop, at and around chunk ends inside it, at its end, after it
        budget = max(1, rnd.choice([1, 49, 50, 51, 151, n // 2, n - 1, n, n + 1, 10**7]))
        _both(src, data, budget, monkeypatch)


@pytest.mark.parametrize(
    ("keys", "want"),
    [
        (["a", "b-c", "d"], '{"a" 1, "b-c" 1, "d" 1}'),
        (["a_b", "a-b"], '{"a_b" 1}'),  # the `-` key finds its `_` twin
        (["a-b", "a_b"], '{"a-b" 1, "a_b" 1}'),  # not the other way round
        ([1, 1.0, 2], "{1 1, 2 1}"),  # equal numbers are one key, the first one's
        ([True, 1], "{true 1, 1 1}"),  # a boolean is not 1
        ([-0.0, 1.0, False, True], "{-0.0 1, 1.0 1, false 1, true 1}"),  # nor a plain store
        ([-0.0, 1.0, 0, 1], "{-0.0 1, 1.0 1}"),  # equal numbers: the first key stays
        ([None, "a", None], '{nil 1, "a" 1}'),
        ([[1], [1], "a"], '{[1] 1, "a" 1}'),
        (["a", {"n": 1}], '{"a" 1, {"n" 1} 1}'),
    ],
)
def test_record_map_keys(keys: list[Any], want: str, monkeypatch: pytest.MonkeyPatch) -> None:
    xs = [{"k": k, "v": 1} for k in keys] * 16  # a record list (16 items at least)
    src = "(reduce (fn [m x] (assoc m (:k x) (:v x))) {} data/xs)"
    assert outcome(src, data={"xs": xs}) == f"steps {len(xs)} output '' ok {want}"
    _both(src, {"xs": xs}, 10**6, monkeypatch)


def test_which_comprehension_builds_the_map(monkeypatch: pytest.MonkeyPatch) -> None:
    checked: list[int] = []
    real = assoc_fields._plain_keys

    def counting(m: dict[Any, Any]) -> bool:
        checked.append(len(m))
        return real(m)

    monkeypatch.setattr(assoc_fields, "_plain_keys", counting)
    src = "(count (reduce (fn [m x] (assoc m (:k x) (:v x))) {} data/xs))"
    strings = [{"k": f"s-{i}", "v": i} for i in range(9000)]
    assert outcome(src, data={"xs": strings}) == "steps 9000 output '' ok 9000"
    assert checked == []  # strings without `_`: the first comprehension, no check
    numbers = [{"k": i % 5000, "v": i} for i in range(9000)]
    assert outcome(src, data={"xs": numbers}) == "steps 9000 output '' ok 5000"
    assert checked == [5000]  # ints: the second one, its map's keys checked
    missing = [{"k": f"s{i}"} if i % 2 else {"v": i} for i in range(100)]
    assert outcome(src, data={"xs": missing}) == "steps 100 output '' ok 51"
    assert checked == [5000, 51]


def test_plain_keys() -> None:
    plain = assoc_fields._plain_keys
    assert plain({"a": 1, "b-c": 2, 1: 3, 2.5: 4, None: 5})
    assert plain({})
    assert not plain({"a_b": 1})
    assert not plain({1: 1, "a_b": 2})
    assert not plain({True: 1})
    assert not plain({"a": 1, (1,): 2})


@pytest.mark.parametrize("at_once", [assoc_fields._AT_ONCE, 0])
def test_a_budget_out_inside_the_second_comprehension(
    at_once: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the first comprehension stops at the first int key, well inside the loop; the
    # second one runs out of steps later: the error and count of the loop
    monkeypatch.setattr(assoc_fields, "_AT_ONCE", at_once)
    xs = [{"k": f"s{i}", "v": i} for i in range(3000)] + [{"k": i, "v": i} for i in range(3000)]
    src = "(reduce (fn [m x] (assoc m (:k x) (:v x))) {} data/xs)"
    for budget in (2999, 3000, 3001, 4500, 6000, 6001):
        _both(src, {"xs": xs}, budget, monkeypatch)


def test_a_long_list_is_read_part_by_part(monkeypatch: pytest.MonkeyPatch) -> None:
    # over `_AT_ONCE` elements: a budget that runs out in the middle stops the
    # comprehension there (its part's elements read, no later one)
    read: list[int] = []
    n = assoc_fields._AT_ONCE + 5000
    xs = [{"k": f"s{i}", "v": i} for i in range(n)]
    src = "(count (reduce (fn [m x] (assoc m (:k x) (:v x))) {} data/xs))"
    assert outcome(src, data={"xs": xs}) == f"steps {n} output '' ok {n}"
    real = assoc_fields._pulled_parts

    def parts(*args: Any) -> Any:
        for c in real(*args):
            read.append(c)
            yield c

    monkeypatch.setattr(assoc_fields, "_pulled_parts", parts)
    got = outcome(src, data={"xs": xs}, max_steps=20_000)
    assert got.startswith("steps 20001 output '' error timeout step_limit_exceeded"), got
    assert sum(read) == 20_000 and len(read) > 3  # stopped in the loop, part by part
