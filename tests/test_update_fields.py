"""`(reduce (fn [t e] (-> t (update-in [:k (:f e) ...] + (:v e)) ...)) init coll)` runs in
one runtime call (`transient.t_update_fields`, lowered by `rules_reduce.lower_update_fields`).

Random programs of that shape run as compiled and with the fn bound by `let` first (the
plain `reduce` builtin over persistent operations): the value, the error (code,
message, line:column), the step count, also under small budgets, and the host data
must agree. The data mixes record lists (host lists of string-keyed maps, read by
their string spelling) with literal vectors of keyword maps, fields that are missing,
nil, collections or of other types, keys of every spelling, and leaves that are not
numbers.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

import ptc_compiler
from ptc_compiler import pr_str
from ptc_runtime.fast.transient import update_fields
from tests.outcomes import lisp_literal


def run(source: str, **options: Any) -> ptc_compiler.RunResult:
    """`ptc_compiler.run` asking for the PTC value: these tests check PTC semantics."""
    options.setdefault("native", True)
    return ptc_compiler.run(source, **options)


PREFIX_KEYS = [":a", '"a"', ":d-e", "(:p e)", "(:q e)", "(get e :p)"]
LEAVES = [":n", '"n"', ":m", ":d-e", '"d_e"']
FNS = [
    "+ (:v e)",
    "- (:v e)",
    "inc",
    "dec",
    "+ 2",
    "- 1.5",
    "* (:v e)",
    "+ (:w e)",
    "< 3",
]
FIELD_VALUES: list[Any] = ["x", "x", "y", "a", "d_e", "d-e"]
ODD_FIELD_VALUES: list[Any] = [1, None, 2.5, "1", "zz", [1], {"z": 1}]
NUMBERS: list[Any] = [1, 2, -3, 0, 2.5, -0.0, 10**20]
ODD_NUMBERS: list[Any] = [None, "s", True, [1]]


def _update(rnd: random.Random, prefix: list[str]) -> str:
    path = " ".join([*prefix, rnd.choice(LEAVES)])
    fn = rnd.choice(FNS[:4]) if rnd.random() < 0.85 else rnd.choice(FNS)
    return f"(update-in [{path}] {fn})"


def _body(rnd: random.Random, depth: int) -> str:
    """One to three updates; each group's prefix has `depth` keys (the tree's depth)."""
    prefix = [rnd.choice(PREFIX_KEYS) for _ in range(depth)]
    ups = []
    for _ in range(rnd.randint(1, 3)):
        if rnd.random() < 0.3:  # another prefix: another group
            prefix = [rnd.choice(PREFIX_KEYS) for _ in range(depth)]
        ups.append(_update(rnd, prefix))
    if len(ups) == 1 and rnd.random() < 0.5:
        return ups[0].replace("(update-in ", "(update-in t ", 1)
    return f"(-> t {' '.join(ups)})"


def _event(rnd: random.Random, odd: float) -> dict[str, Any]:
    e: dict[str, Any] = {}
    for f in ("p", "q"):
        if rnd.random() >= odd:
            e[f] = rnd.choice(FIELD_VALUES if rnd.random() > odd else ODD_FIELD_VALUES)
    for f in ("v", "w"):
        if rnd.random() >= odd:
            e[f] = rnd.choice(NUMBERS if rnd.random() > odd else ODD_NUMBERS)
    return e


def _tree(rnd: random.Random, depth: int, odd: float) -> dict[str, Any]:
    """A host map whose levels hold the keys the paths use (string spellings)."""
    if depth == 0:
        keys = ["n", "m", "d-e", "d_e"]
        return {
            k: rnd.choice(NUMBERS if rnd.random() > odd else ODD_NUMBERS)
            for k in keys
            if rnd.random() > odd
        }
    keys = ["a", "d-e", "x", "y", "d_e", "1"]
    return {k: _tree(rnd, depth - 1, odd) for k in keys if rnd.random() > odd}


def _program(rnd: random.Random) -> tuple[str, str, dict[str, Any]]:
    odd = rnd.choice([0.0] * 6 + [0.01, 0.05, 0.3])
    depth = rnd.randint(0, 3)
    body = _body(rnd, depth)
    n = rnd.choice([3, 16, 40, 120])
    events = [_event(rnd, odd) for _ in range(n)]
    data = {"events": events, "m": _tree(rnd, depth if rnd.random() < 0.95 else 1, odd)}
    init = rnd.choice(["data/m"] * 16 + ["{}", "nil", "{:a {:x {:n 0 :m 0}} :d-e {}}", "[]"])
    coll = rnd.choice(["data/events", "data/events", "lit"])
    if coll == "lit":  # keyword maps the program built: not a record list
        coll = "[" + " ".join(map(lisp_literal, events[:40])) + "]"
    inline = f"(reduce (fn [t e] {body}) {init} {coll})"
    plain = f"(let [f (fn [t e] {body})] (reduce f {init} {coll}))"
    return inline, plain, data


def _outcome(src: str, data: dict[str, Any], budget: int) -> tuple[Any, ...]:
    res = run(src, data=data, max_steps=budget, timeout_ms=None)
    if res.ok:
        return ("ok", pr_str(res.value), res.steps)
    assert res.error is not None
    e = res.error
    return ("error", e.code, e.message, e.line, e.column, res.steps)


@pytest.mark.parametrize("seed", range(8))
def test_whole_loop_updates_agree_with_the_plain_reduce(seed: int) -> None:
    rnd = random.Random(seed)
    whole = records = 0
    seen = update_fields.is_records

    def spy(items: object) -> bool:
        nonlocal records
        got = seen(items)
        records += got
        return got

    update_fields.is_records = spy
    try:
        for i in range(40):
            inline, plain, data = _program(rnd)
            # the fn and each update on lines of their own: positions tell them apart
            inline = inline.replace("(-> t ", "(-> t\n ").replace(" (update-in", "\n (update-in")
            plain = plain.replace("(-> t ", "(-> t\n ").replace(" (update-in", "\n (update-in")
            whole += "rt_t_update_fields" in ptc_compiler.compile(inline).python_source
            before = copy.deepcopy(data)
            for budget in (10**6, rnd.randint(1, 60)):
                got = _outcome(inline, data, budget)
                assert data == before, inline  # host data is never written
                want = _outcome(plain, data, budget)
                assert got == want, (i, inline, data, budget)
    finally:
        update_fields.is_records = seen
    assert whole == 40
    assert records > 10  # many programs read their fields from record lists


TREE_UPDATE = (
    "(reduce (fn [t e]\n"
    "  (-> t\n"
    "      (update-in [:regions (:region e) :stores (:store e) :sales] + (:amount e))\n"
    "      (update-in [:regions (:region e) :stores (:store e) :orders] inc)))\n"
    "  data/tree data/events)"
)


def _tree_data(n: int, amounts: list[Any] | None = None) -> dict[str, Any]:
    rnd = random.Random(n)
    regions, stores = [f"r{i}" for i in range(3)], [f"s{i}" for i in range(5)]
    tree = {
        "regions": {r: {"stores": {s: {"sales": 0, "orders": 0} for s in stores}} for r in regions}
    }
    events = [
        {
            "region": rnd.choice(regions),
            "store": rnd.choice(stores),
            "amount": (amounts or [rnd.randrange(1, 100)])[i % len(amounts or [1])],
        }
        for i in range(n)
    ]
    return {"tree": tree, "events": events}


@pytest.mark.parametrize(
    "amounts",
    [None, [1.5, 2.25], [1, 2.5], [3, "x"], [2, None], [1, 10**30, 0.5]],
)
def test_the_tree_update_shape(amounts: list[Any] | None) -> None:
    # many memoized walks over parts of every size (budgets make the chunks small),
    # numbers of one type or mixed, a bad number at some element
    data = _tree_data(300, amounts)
    plain = TREE_UPDATE.replace("(reduce (fn [t e]", "(let [f (fn [t e]").replace(
        "  data/tree data/events)", "] (reduce f data/tree data/events))"
    )
    assert "rt_t_update_fields" in ptc_compiler.compile(TREE_UPDATE).python_source
    for budget in (10**6, 1, 7, 150, 299, 300, 301):
        assert _outcome(TREE_UPDATE, data, budget) == _outcome(plain, data, budget), budget


@pytest.mark.parametrize(
    ("body", "events", "want"),
    [
        # a missing level: (+ nil 1) fails at the update-in, after one step per element
        (
            "(update-in t [:a (:p e) :n] + (:v e))",
            '[{:p "x" :v 1} {:p "y" :v 1}]',
            "error type_error 1 2",
        ),
        # a string field finds the keyword key :x
        ("(update-in t [:a (:p e) :n] + (:v e))", '[{:p "x" :v 1}]', "ok"),
        # a missing level is made by the update (nil is then a map of the new leaf)
        ("(update-in t [:a (:p e) :n] (fnil + 0) (:v e))", "", None),
        # a nil level: maps are made below it, as persistent update-in does
        ("(update-in t [:z (:p e) :n] dec)", '[{:p "x"}]', "error type_error 1 1"),
        # keys of both spellings reach the same leaf; the first written is kept
        ("(update-in t [:a (:p e) :n] + (:v e))", '[{:p "x" :v 1} {:p :x :v 2}]', None),
    ],
)
def test_edge_cases_agree(body: str, events: str, want: str | None) -> None:
    init = "{:a {:x {:n 1}} :z nil}"
    events = events or '[{:p "x" :v 1}]'
    inline = f"(reduce (fn [t e] {body}) {init} {events})"
    plain = f"(let [f (fn [t e] {body})] (reduce f {init} {events}))"
    got, exp = _outcome(inline, {}, 10**6), _outcome(plain, {}, 10**6)
    assert got == exp
    if want is not None:
        if want == "ok":
            assert got[0] == "ok", got
            return
        kind, code, line, steps = want.split()
        assert (got[0], got[1], got[3], got[5]) == (kind, code, int(line), int(steps)), got


@pytest.mark.parametrize(
    "body",
    [
        "(update-in t [:a (:p e) :n] + (:v e))",
        "(-> t (update-in [:a (:p e) :n] + (:v e)) (update-in [:a (:p e) :m] inc))",
        "(-> t (update-in [(:p e) :n] dec) (update-in [:b (:q e) :m] - 2))",
        '(update-in t ["a" :n] * (get e :v))',
        "(update-in t [:n] inc)",
    ],
)
def test_shapes_that_run_in_one_call(body: str) -> None:
    code = ptc_compiler.compile(f"(reduce (fn [t e] {body}) {{}} [])").python_source
    assert "rt_t_update_fields" in code and "rt_t_begin" not in code, code


@pytest.mark.parametrize(
    "body",
    [
        "(update-in t [:a (:p e)] + (:v e))",  # the last key is a field
        "(update-in t [:a (:p-q e) :n] inc)",  # a field with `-` (two spellings)
        "(update-in t [:a (str e) :n] inc)",  # a computed key
        "(update-in t [:a 1 :n] inc)",  # a key that is neither string nor keyword
        "(update-in t [:a :n] + e)",  # an argument that is the element itself
        "(update-in t [:a :n] + (:v e) 1)",  # two arguments
        "(update-in t [:a :n] (fnil + 0) (:v e))",  # a fn that is not a builtin
        "(update-in t [:a :n] max (:v e))",  # a builtin without a fast helper
        "(update-in t [:a :n] inc 1)",  # a fast helper of another arity
        "(update t :n inc)",  # update, not update-in
        "(-> t (update-in [:a :n] inc) (assoc :b 1))",
        "(update-in t [:a (:p t) :n] inc)",  # the accumulator's field
    ],
)
def test_shapes_that_do_not(body: str) -> None:
    code = ptc_compiler.compile(f"(reduce (fn [t e] {body}) {{}} [])").python_source
    assert "rt_t_update_fields" not in code, code


@pytest.mark.parametrize(
    ("key", "other"),
    [('"x"', '"x"'), ('"x"', ":x"), (":x", ":x"), (":x", '"x"')],
)
def test_leaves_changed_off_the_memo_are_checked_again(key: str, other: str) -> None:
    # a leaf memoized holding an int becomes a float (by `+` of a float, through the
    # memoized walk, another spelling found by the name, or one found by a search, which
    # is not memoized); later ints, all of them, must not be added to it bare: 1.5 +
    # 2**1400 overflows, where `+` gives infinity
    events = [f"{{:p {key} :v 1}}"] * 120 + [f"{{:p {other} :v 0.5}}"]
    # another leaf past the stretch run one at a time after that, then the leaf again
    events += ['{:p "y" :v 1}'] * 300 + [f"{{:p {key} :v 1}}"] * 300
    events.append(f"{{:p {key} :v (apply * (repeat 20 1180591620717411303424))}}")  # 2**1400
    body = "(update-in t [:a (:p e) :n] + (:v e))"
    init = f'{{:a {{{key} {{:n 0}} "y" {{:n 0}}}}}}'
    coll = "[" + " ".join(events) + "]"
    inline = f"(reduce (fn [t e] {body}) {init} {coll})"
    plain = f"(let [f (fn [t e] {body})] (reduce f {init} {coll}))"
    got = _outcome(inline, {}, 10**6)
    assert got == _outcome(plain, {}, 10**6)
    assert got[0] == "ok" and "##Inf" in got[1], got


@pytest.mark.parametrize("values", [(":x", ":y"), ('"x"', ":y"), (":x", '"y"'), ('"x"', '"y"')])
def test_fields_of_either_spelling_over_string_keys(values: tuple[str, str]) -> None:
    # the walks memoized ahead share the walk of all but the last field
    # (`_FieldsRun.prewalks`): a keyword field finds a string key by its name, and the
    # map it adopts there must replace that key's value, not go in next to it
    p, q = values
    w = '"w"'
    events = " ".join(
        f"{{:p {p if i % 3 else ':z'} :q {q if i % 2 else w} :v {i}}}" for i in range(60)
    )
    body = (
        "(-> t (update-in [:a (:p e) :b (:q e) :n] + (:v e))"
        " (update-in [:a (:p e) :b (:q e) :m] inc))"
    )
    init = "data/m"
    data = {"m": {"a": {k: {"b": {j: {"n": 0, "m": 0} for j in ("y", "w")}} for k in ("x", "z")}}}
    inline = f"(reduce (fn [t e] {body}) {init} [{events}])"
    plain = f"(let [f (fn [t e] {body})] (reduce f {init} [{events}]))"
    assert "rt_t_update_fields" in ptc_compiler.compile(inline).python_source
    before = copy.deepcopy(data)
    for budget in (10**6, 7, 45):
        got = _outcome(inline, data, budget)
        assert got == _outcome(plain, data, budget), budget
    assert data == before


@pytest.mark.parametrize("late", [0.5, "s", None])
@pytest.mark.parametrize("split", [51, 152, 353, 754])
def test_a_part_adding_another_kind_is_not_added_bare(late: Any, split: int) -> None:
    # a record list: a part whose walks are all memoized streams its keys (`streamed`),
    # but only adds bare where the numbers added are of the leaves' kind: here the
    # later amounts are floats (an int too large for floats is a leaf: Python's `+`
    # fails there, where `+` gives ##Inf), or no numbers at all; the change of kind
    # falls on the first element of a part for some `split` (parts of 50, 1, 100, 1,
    # 200, ... elements while the fuel chunks grow)
    rnd = random.Random(5)
    events = [{"p": rnd.choice(["x", "y"]), "v": 1} for _ in range(split)]
    events += [{"p": rnd.choice(["x", "y"]), "v": late} for _ in range(900 - split)]
    data = {"events": events, "m": {"a": {"x": {"n": 10**400, "k": 0}, "y": {"n": 0, "k": 0}}}}
    body = "(-> t (update-in [:a (:p e) :n] + (:v e)) (update-in [:a (:p e) :k] inc))"
    inline = f"(reduce (fn [t e] {body}) data/m data/events)"
    plain = f"(let [f (fn [t e] {body})] (reduce f data/m data/events))"
    got = _outcome(inline, data, 10**6)
    assert got == _outcome(plain, data, 10**6)
    assert "internal_error" not in got, got


@pytest.mark.parametrize("stores", [8, 60])
def test_walks_first_taken_in_later_parts(stores: int) -> None:
    # many keys: parts after the first keep taking walks for the first time, memoized
    # ahead for their elements only (`streamed`), then added bare with the rest
    rnd = random.Random(stores)
    regions = [f"r{i}" for i in range(12)]
    names = [f"s{i}" for i in range(stores)]
    tree = {
        "regions": {r: {"stores": {s: {"sales": 0, "orders": 0} for s in names}} for r in regions}
    }
    events = [
        {"region": rnd.choice(regions), "store": rnd.choice(names), "amount": rnd.randrange(1, 99)}
        for _ in range(3000)
    ]
    data = {"tree": tree, "events": events}
    plain = TREE_UPDATE.replace("(reduce (fn [t e]", "(let [f (fn [t e]").replace(
        "  data/tree data/events)", "] (reduce f data/tree data/events))"
    )
    before = copy.deepcopy(data)
    for budget in (10**6, 1700):
        assert _outcome(TREE_UPDATE, data, budget) == _outcome(plain, data, budget), budget
    assert data == before
