"""Random host values of every Python shape, and the check that a run over them keeps the
host-boundary promises (docs/security.md, docs/tools.md).

`host_value(rng)` builds one value: JSON-shaped data, dicts with str/int/float/bool/None/
tuple/frozenset keys (some colliding after conversion: `True` and `1`), lists, tuples, sets,
frozensets, nesting past 1000 levels, long record lists with one odd item somewhere, str and
int subclasses, dict subclasses, bytes, Decimal, Fraction, complex, dates, NaN/inf, huge
ints, -0.0, objects whose `__eq__`/`__hash__`/`__len__`/`__iter__` raise, cycles, shared
sub-objects and very wide dicts.

`check_case(rng)` feeds one such value as `data` and as a tool's result to a program that
reads it one way (`PROGRAMS`) and returns the problems found: an exception reaching the host,
a warning, an `internal_error`, a Python repr in a message, host data changed, a result that
is not JSON-shaped, a differing result on a JSON round-trip copy, a stale record-list fact
after the host mutates the data between two runs.

Run by hand with more seeds: `.venv/bin/python -m fuzz.strategies.host_data 0 2000`.
"""

from __future__ import annotations

import collections
import copy
import datetime
import enum
import json
import math
import random
import sys
import warnings
from decimal import Decimal
from fractions import Fraction
from typing import Any

import ptc_compiler
from ptc_runtime.convert import to_json_value
from ptc_runtime.errors import PtcError
from ptc_runtime.printer import pr_str

# Python reprs that must never reach a message.
_REPR_MARKERS = (
    "<class",
    "object at 0x",
    "Traceback",
    "NoneType",
    "<built-in",
    "<function",
    "Error:",
)


class Color(enum.IntEnum):
    """An int subclass hosts hand over (an IntEnum member)."""

    RED = 1
    GREEN = 2


class Tag(str):
    """A str subclass."""


class Num(int):
    """A plain int subclass."""


class Opaque:
    """A custom object with no PTC meaning."""

    __slots__ = ("v",)

    def __init__(self, v: int) -> None:
        self.v = v


class BadEq:
    """A value whose __eq__ and __hash__ raise."""

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("eq boom")

    def __hash__(self) -> int:
        raise RuntimeError("hash boom")


class BadLenList(list[object]):
    """A list subclass whose __len__ and __iter__ raise."""

    def __len__(self) -> int:
        raise RuntimeError("len boom")

    def __iter__(self) -> Any:
        raise RuntimeError("iter boom")


class BadIterDict(dict[str, object]):
    """A dict subclass whose iteration raises."""

    def __iter__(self) -> Any:
        raise RuntimeError("iter boom")

    def items(self) -> Any:
        raise RuntimeError("items boom")


def _scalar(rng: random.Random) -> object:
    r = rng.randrange(30)
    table: list[Any] = [
        None,
        True,
        False,
        0,
        -1,
        7,
        2**63,
        -(2**70),
        1.5,
        -0.0,
        float("nan"),
        float("inf"),
        float("-inf"),
        "",
        "a",
        "héllo",
        "a_b",
        "a-b",
        Tag("t"),
        Num(5),
        Color.RED,
        b"bytes",
        bytearray(b"ba"),
        Decimal("1.10"),
        Fraction(1, 3),
        1 + 2j,
        datetime.date(2024, 1, 31),
        datetime.datetime(2024, 1, 31, 12, 0),
        Opaque(1),
        10**5000,
    ]
    return table[r] if r < len(table) else rng.randrange(-50, 50)


def _plain_scalar(rng: random.Random) -> object:
    return rng.choice([None, True, False, 0, 3, -2, 2.5, -0.0, "x", "", "b", 10**20])


def _key(rng: random.Random) -> object:
    r = rng.randrange(14)
    if r < 6:
        return rng.choice(["a", "b", "c", "id", "a_b", "a-b", "n", "name", ""])
    return rng.choice(
        [
            1,
            0,
            True,
            False,
            None,
            2.5,
            float("nan"),
            (1, 2),
            ("a",),
            frozenset({1}),
            Tag("a"),
            Color.RED,
            b"k",
            -0.0,
        ]
    )


def _record(rng: random.Random, i: int) -> dict[str, object]:
    return {
        "id": i,
        "name": rng.choice(["ann", "bo", "cy"]),
        "n": rng.randrange(10),
        "tags": ["x"] if i % 3 else [],
    }


def _records_with_odd(rng: random.Random) -> list[object]:
    n = rng.choice([5, 130, 1500, 3000])
    items: list[object] = [_record(rng, i) for i in range(n)]
    odd: object = rng.choice(
        [
            (1, 2),
            {1, 2},
            float("nan"),
            True,
            Opaque(2),
            None,
            {"id": (1,)},
            {"id": {1}},
            {1: "int key"},
            {True: "bool key"},
            collections.OrderedDict(id=3),
            Tag("s"),
            10**5000,
            {"id": Decimal("1")},
            [],
            {"n": float("nan")},
            {"id": BadEq()},
        ]
    )
    if rng.random() < 0.8:
        items[rng.randrange(n)] = odd
    return items


def host_value(rng: random.Random, depth: int = 0) -> object:
    """One random host value (see the module docstring)."""
    if depth > 4:
        return _scalar(rng) if rng.random() < 0.3 else _plain_scalar(rng)
    r = rng.randrange(24)
    if r < 4:
        return _scalar(rng) if rng.random() < 0.4 else _plain_scalar(rng)
    if r < 7:
        return {
            str(_key(rng)) if rng.random() < 0.6 else _key(rng): host_value(rng, depth + 1)
            for _ in range(rng.randrange(5))
        }
    if r < 9:
        return [host_value(rng, depth + 1) for _ in range(rng.randrange(5))]
    if r == 9:
        return tuple(host_value(rng, depth + 1) for _ in range(rng.randrange(4)))
    if r == 10:
        return rng.choice([set, frozenset])(
            rng.choice([1, "a", None, (1, 2), 2.0, True]) for _ in range(rng.randrange(4))
        )
    if r == 11:
        return _records_with_odd(rng)
    if r == 12:  # deep nesting
        v: object = _plain_scalar(rng)
        for _ in range(rng.choice([50, 1100, 2500])):
            v = [v] if rng.random() < 0.5 else {"k": v}
        if rng.random() < 0.3:
            v = (v,)
        return v
    if r == 13:  # a cycle
        if rng.random() < 0.5:
            lst: list[object] = [1, 2]
            lst.append(lst if rng.random() < 0.5 else {"self": lst})
            return lst
        d: dict[str, object] = {"a": 1}
        d["me"] = d if rng.random() < 0.5 else [d]
        return d
    if r == 14:  # shared sub-objects
        shared = host_value(rng, depth + 1)
        return {"x": shared, "y": shared, "z": [shared, shared]}
    if r == 15:  # very wide
        return {f"k{i}": i for i in range(rng.choice([100, 5000]))}
    if r == 16:
        inner = {"a": host_value(rng, depth + 1), "b": 1}
        return rng.choice(
            [collections.OrderedDict(inner), collections.defaultdict(list, inner), dict(inner)]
        )
    if r == 17:  # keys colliding after conversion
        return rng.choice(
            [
                {1: "int", "1": "str"},
                {True: "t", "true": "s"},
                {"a_b": 1, "a-b": 2},
                {-0.0: "nz", "0": "s"},
                {False: "f", "false": 1},
                {(1, 2): "t", "x": 1},
                {frozenset({1}): 1},
                {None: 1, "nil": 2},
                {Tag("a"): 1, "a": 2},
            ]
        )
    if r == 18:
        return rng.choice(
            [BadEq(), BadLenList([1, 2]), BadIterDict(a=1), [BadEq()], {"a": BadEq()}]
        )
    if r == 19:
        return [Color.GREEN, Num(3), Tag("z"), 10**5000, -0.0]
    return rng.choice(
        [
            {"orders": _records_with_odd(rng)},
            [_record(rng, i) for i in range(rng.randrange(200))],
            {"a": {"b": [1, {"c": _scalar(rng)}]}},
        ]
    )


# Programs that read `v` (the value) in many ways; `v` is bound from data or a tool.
PROGRAMS: list[str] = [
    "v",
    "(count v)",
    "(keys v)",
    "(vals v)",
    '(get-in v [0 "id"])',
    '(get-in v ["a" "b" 1 "c"])',
    "(get-in v [:orders 0 :id])",
    '(get v "a")',
    "(get v 1)",
    "(:a v)",
    "(first v)",
    "(str v)",
    "(pr-str v)",
    "(json/generate-string v)",
    "(= v v)",
    "(= v (identity v))",
    '(contains? v "a")',
    "(map :id v)",
    "(filter #(> (:n %) 3) v)",
    "(map :name (filter :id v))",
    "(group-by :name v)",
    "(sort-by :n v)",
    "(sort-by :id > v)",
    "(frequencies (map :name v))",
    "(reduce + (map :n v))",
    '(count (filter #(= (get % "name") "bo") v))',
    "(map :id (:orders v))",
    "(group-by :name (:orders v))",
    "(sort-by :n (:orders v))",
    "(into {} v)",
    "(set v)",
    "(vec v)",
    "(seq v)",
    "(flatten v)",
    "(distinct v)",
    "(hash-set v)",
    "{:wrapped v}",
    "[v v]",
    "(assoc v :new 1)",
    "(conj v 1)",
    '(update v "a" str)',
    '(select-keys v ["a" "b" 1])',
    "(mapv (fn [r] (select-keys r [:id :name])) v)",
    "(last v)",
    "(nth v 1)",
    "(empty? v)",
    "(sort v)",
    "(max-key count v)",
    "(apply + v)",
]


def _snapshot(x: object) -> object:
    """A deep copy to compare against later, or a sentinel when the value cannot be copied."""
    try:
        return copy.deepcopy(x)
    except Exception:
        return _UNCOPIED


_UNCOPIED = object()


def _same(a: object, b: object) -> bool:
    """Structural equality that tolerates NaN, cycles and values whose __eq__ raises."""
    seen: set[tuple[int, int]] = set()
    stack: list[tuple[Any, Any]] = [(a, b)]
    while stack:
        x, y = stack.pop()
        if type(x) is not type(y):
            return False
        pair = (id(x), id(y))
        if pair in seen:
            continue
        seen.add(pair)
        if isinstance(x, dict):
            if len(x) != len(y) or list(map(repr_key, x)) != list(map(repr_key, y)):
                return False
            stack.extend(zip(x.values(), y.values(), strict=True))
        elif isinstance(x, (list, tuple)):
            if type(x) is BadLenList:
                continue
            if len(x) != len(y):
                return False
            stack.extend(zip(x, y, strict=True))
        elif isinstance(x, (set, frozenset)):
            if sorted(map(repr, x)) != sorted(map(repr, y)):
                return False
        elif isinstance(x, float):
            if not (x == y or (math.isnan(x) and math.isnan(y))) or math.copysign(
                1, x
            ) != math.copysign(1, y):
                return False
        elif isinstance(x, (BadEq, Opaque)):
            continue
        elif isinstance(x, int) and not isinstance(x, bool) and abs(x) > 10**4000:
            if x != y:
                return False
        elif x != y:
            return False
    return True


def repr_key(k: object) -> str:
    """A comparable spelling of a dict key (type and value)."""
    if isinstance(k, int) and abs(k) > 10**4000:
        return "hugeint"
    return f"{type(k).__name__}:{k!r}"


def _json_shaped(x: object) -> bool:
    stack = [x]
    seen: set[int] = set()
    while stack:
        v = stack.pop()
        if type(v) in (list, dict):
            if id(v) in seen:
                return False  # a cycle (or shared): never JSON from the host's side
            seen.add(id(v))
        if v is None or type(v) in (bool, int, str):
            continue
        if type(v) is float:
            continue  # NaN/inf leave as floats (documented)
        if type(v) is list:
            stack.extend(v)
        elif type(v) is dict:
            if any(type(k) is not str for k in v):
                return False
            stack.extend(v.values())
        else:
            return False
    return True


def _plain_json(x: object) -> bool:
    """True when `x` is JSON-shaped and round-trips through json unchanged (finite floats)."""
    try:
        return _json_shaped(x) and json.loads(json.dumps(x, allow_nan=False)) == x
    except (ValueError, RecursionError, TypeError):
        return False


def _problems_of(result: object, label: str) -> list[str]:
    if not isinstance(result, ptc_compiler.RunResult):
        return [f"{label}: not a RunResult: {type(result).__name__}"]
    out: list[str] = []
    if result.ok:
        try:
            as_json = to_json_value(result.value)
        except PtcError as e:  # a value JSON cannot hold: a typed error, a clean message
            out += _message_problems(label, e.code, e.message)
        except Exception as e:  # anything else is a bug
            out.append(f"{label}: to_json_value raised {type(e).__name__}: {str(e)[:200]}")
        else:
            if not _json_shaped(as_json):
                out.append(f"{label}: to_json_value not JSON-shaped: {type(as_json).__name__}")
    elif result.error is not None:
        out += _message_problems(label, result.error.code, result.error.message)
    return out


def _message_problems(label: str, code: str, msg: str) -> list[str]:
    out: list[str] = []
    if code == "internal_error":
        out.append(f"{label}: internal_error: {msg[:200]}")
    out += [f"{label}: repr {m!r} in message: {msg[:200]}" for m in _REPR_MARKERS if m in msg]
    return out


def run_one(src: str, value: object, via: str, timeout_ms: int = 5000) -> tuple[object, list[str]]:
    """Run `src` with `v` bound to `value` from data or a tool; the result and the problems."""
    if via == "data":
        prog = f"(let [v data/v] {src})"
        kwargs: dict[str, Any] = {"data": {"v": value}}
    else:
        prog = f"(let [v (tool/get-v {{}})] {src})"
        kwargs = {"tools": {"get-v": lambda *a, **k: value}}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result: object = ptc_compiler.run(
                prog, timeout_ms=timeout_ms, max_steps=200_000, **kwargs
            )
        except BaseException as e:  # the promise is that nothing escapes
            return None, [f"{via}: exception reached the host: {type(e).__name__}: {str(e)[:200]}"]
    problems = _problems_of(result, via)
    problems += [f"{via}: warning {w.category.__name__}: {w.message}" for w in caught]
    return result, problems


def _outcome(r: object) -> object:
    assert isinstance(r, ptc_compiler.RunResult)
    if r.ok:
        try:
            return ("ok", pr_str(r.value))
        except Exception as e:  # compared, not judged, here
            return ("ok-unprintable", type(e).__name__)
    return ("err", r.error.code if r.error else None)


def check_case(seed: int) -> list[str]:
    """One random (value, program) case; the problems found, each naming seed and program."""
    rng = random.Random(seed)
    value = host_value(rng)
    src = rng.choice(PROGRAMS)
    before = _snapshot(value)
    problems: list[str] = []
    via = rng.choice(["data", "tool"])
    result, found = run_one(src, value, via)
    problems += found
    if before is not _UNCOPIED and not _same(before, value):
        problems.append(f"{via}: host data changed")
    # differential: the scan's fast path vs a JSON round-trip copy
    if result is not None and _plain_json(value):
        copy_ = json.loads(json.dumps(value))
        r2, found2 = run_one(src, copy_, via)
        problems += found2
        if r2 is not None and _outcome(r2) != _outcome(result):
            problems.append(f"differential: {_outcome(result)!r:.200} vs {_outcome(r2)!r:.200}")
    # the same object twice, mutated between the runs: no stale record facts
    if result is not None and type(value) is list and value and rng.random() < 0.5:
        fresh = copy.deepcopy(value) if before is not _UNCOPIED else None
        if fresh is not None:
            i = rng.randrange(len(value))
            new_item = rng.choice([(1, 2), {"id": "changed", "n": 99}, 5, {1: 2}, None])
            value[i] = new_item
            fresh[i] = copy.deepcopy(new_item)
            r3, found3 = run_one(src, value, via)
            r4, found4 = run_one(src, fresh, via)
            problems += found3 + found4
            if r3 is not None and r4 is not None and _outcome(r3) != _outcome(r4):
                problems.append(f"stale: {_outcome(r3)!r:.200} vs fresh {_outcome(r4)!r:.200}")
    return [f"seed {seed} {src!r}: {p}" for p in problems]


def main(argv: list[str]) -> int:
    """Run seeds [start, stop) and print every problem; exit status 1 when any."""
    start, stop = int(argv[1]), int(argv[2])
    bad = 0
    for seed in range(start, stop):
        print(f"# seed {seed}", file=sys.stderr, flush=True)
        for p in check_case(seed):
            bad += 1
            print(p, flush=True)
    print(f"seeds {start}..{stop}: {bad} problems")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
