"""Record lists (`ptc_runtime.records`): host lists the data scan proves to hold only maps
with string keys, and the bulk field reads that use the proof.

What is registered and what is not (`convert.from_host`), where each reader takes the
direct path and where it must not, and a randomized differential of programs over such
data: the same value, error (code, message, line:column), output and step count with the
registry switched off.

Some tests register a list the scan would refuse (a map holding the keyword key too):
there the direct path answers differently from the flexible read, which shows which path
ran.
"""

from __future__ import annotations

import contextlib
import copy
import gc
import json
import random
import sys
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from ptc_runtime import context, convert, fieldfilter, records
from ptc_runtime.builtins import keyed
from ptc_runtime.context import Records, RunContext
from ptc_runtime.convert import from_host
from ptc_runtime.errors import PtcError
from ptc_runtime.fast import transient
from ptc_runtime.values import Keyword, keyword
from tests.outcomes import describe, outcome

N = records.MIN_LEN


def rows(n: int = N, **extra: Any) -> list[dict[str, Any]]:
    return [{"sku": f"s{i}", "price": i * 1.5, **extra} for i in range(n)]


def scanned(x: object) -> Records:
    """The record lists `from_host` registers for `x`."""
    reg = Records()
    assert from_host(x, reg) is x
    return reg


def listed(reg: Records) -> list[int]:
    return sorted(reg)


@contextlib.contextmanager
def running(*registered: list[Any]) -> Iterator[RunContext]:
    """A run context (installed) whose registry holds `registered`."""
    ctx = RunContext()
    for items in registered:
        ctx.records[id(items)] = items
    token = context.install(ctx)
    try:
        yield ctx
    finally:
        context.uninstall(token)


# ---------------------------------------------------------------- the proof


def test_a_list_of_string_keyed_maps_is_registered() -> None:
    xs = rows()
    reg = scanned({"xs": xs, "n": 1})
    assert listed(reg) == [id(xs)] and reg[id(xs)] is xs


def test_root_list_and_nested_record_lists() -> None:
    inner = rows()
    outer = [{"id": i, "lines": inner} for i in range(N)]
    reg = scanned(outer)
    assert listed(reg) == sorted([id(outer), id(inner)])
    a, b = rows(), rows(N + 3)
    reg = scanned({"groups": [a, b]})  # a list of lists: the inner ones only
    assert listed(reg) == sorted([id(a), id(b)])


def test_short_lists_are_not_registered() -> None:
    assert not scanned({"xs": rows(N - 1)})


@pytest.mark.parametrize(
    "odd",
    [
        {1: "x"},  # a key of another type
        {keyword("sku"): "x"},  # the keyword spelling next to strings
        {True: 1},
        {(1, 2): 1},
        {None: 1},
    ],
)
def test_a_map_with_another_key_is_never_registered(odd: dict[Any, Any]) -> None:
    xs = rows()
    xs[5] = {**xs[5], **odd}
    reg = Records()
    from_host({"xs": xs}, reg)
    assert not reg


def test_a_str_subclass_key_or_value_is_never_registered() -> None:
    class S(str):
        pass

    xs = rows()
    xs[3] = {S("sku"): "x"}
    reg = Records()
    with pytest.raises(PtcError):
        from_host({"xs": xs}, reg)
    assert not reg
    ys = rows()
    ys[3] = {"sku": S("x")}
    reg = Records()
    with contextlib.suppress(PtcError):
        from_host({"ys": ys}, reg)
    assert not reg


def test_a_dict_subclass_or_a_mixed_list_is_never_registered() -> None:
    class D(dict[str, Any]):
        pass

    xs = rows()
    xs[7] = D(xs[7])
    reg = Records()
    from_host({"xs": xs}, reg)
    assert not reg
    ys: list[Any] = rows()
    ys.append(None)  # plain data, but not all maps
    assert not scanned({"ys": ys})
    zs: list[Any] = rows()
    zs.append([1])
    assert not scanned({"zs": zs})


def test_a_list_elsewhere_in_unplain_data_is_not_registered() -> None:
    xs = rows()
    reg = Records()
    from_host({"xs": xs, "t": (1, 2)}, reg)  # the walk converts the tuple: no proof
    assert not reg


# Lists this long are scanned a block of records at a time (`convert._record_values`).
LONG = convert._RECORD_BLOCK * 2 + 10


class Sub(str):
    pass


def mixed_table() -> dict[object, object]:
    """A dict with only `str` keys in a table that held another key (traversed with keys)."""
    d: dict[object, object] = {1: None, "sku": "x"}
    del d[1]
    return d


@pytest.mark.parametrize("at", [0, convert._RECORD_BLOCK - 1, convert._RECORD_BLOCK, LONG - 1])
def test_long_lists_with_one_odd_item(at: int) -> None:
    def with_item(odd: object) -> list[Any]:
        xs: list[Any] = rows(LONG)
        xs[at] = odd
        return xs

    xs = rows(LONG)
    assert listed(scanned({"xs": xs})) == [id(xs)]
    ys = with_item(None)  # plain, but not all maps
    assert not scanned({"ys": ys})
    zs = with_item(mixed_table())  # the keys checked one by one: still a record list
    assert listed(scanned({"zs": zs})) == [id(zs)]
    for odd in ({1: 2}, {"sku": Sub("x")}, {"sku": (1,)}, {"n": [{2: 3}]}, {"n": {"m": {1.5}}}):
        reg = Records()
        bad = with_item(odd)
        with contextlib.suppress(PtcError):  # a str subclass is refused
            from_host({"bad": bad}, reg)
        assert not reg, odd
        assert not convert._is_plain({"bad": bad}), odd
    nested = with_item({"lines": rows()})  # records inside records
    reg = scanned({"nested": nested})
    assert listed(reg) == sorted([id(nested), id(nested[at]["lines"])])


def random_value(rnd: random.Random, depth: int, odd: float) -> Any:
    r = rnd.random()
    if depth > 0 and r < 0.08:
        return [random_value(rnd, depth - 1, odd) for _ in range(rnd.randint(0, 3))]
    if depth > 0 and r < 0.16:
        return random_record(rnd, depth - 1, odd)
    if rnd.random() < odd:
        return rnd.choice([(1,), Sub("s"), {1, 2}, b"x", keyword("k")])
    return rnd.choice([None, True, 1, 2.5, "s", "", -7])


def random_record(rnd: random.Random, depth: int, odd: float) -> Any:
    """A map of 3 fields (containers nested `depth` deep), anything else with odds `odd`."""
    if rnd.random() < odd:
        return rnd.choice([{1: 2}, {keyword("a"): 1}, mixed_table(), {Sub("a"): 1}, None, [1]])
    return {k: random_value(rnd, depth, odd) for k in rnd.sample(["a", "b", "c", "d"], 3)}


def all_lists(x: object, out: list[list[Any]]) -> list[list[Any]]:
    if type(x) is list:
        out.append(x)
        for y in x:
            all_lists(y, out)
    elif type(x) is dict:
        for y in x.values():
            all_lists(y, out)
    return out


def is_record_list(xs: list[Any]) -> bool:
    return all(type(x) is dict and all(type(k) is str for k in x) for x in xs)


@pytest.mark.parametrize("seed", range(4))
def test_the_blocked_record_scan_agrees_with_the_level_scan(seed: int) -> None:
    rnd = random.Random(seed)
    plains = 0
    for _ in range(12):
        n = rnd.choice([convert._RECORD_BLOCK, LONG, 40])
        odd = rnd.choice([0.0, 0.0, 0.3 / n, 3 / n])  # mostly none or a few odd values
        data = {
            "xs": [random_record(rnd, 2, odd) for _ in range(n)],
            "ys": [
                [random_record(rnd, 1, odd) for _ in range(n)] for _ in range(rnd.randint(0, 2))
            ],
        }
        plains += convert._is_plain(data)
        got, old = Records(), Records()
        plain = convert._is_plain(data)
        with pytest.MonkeyPatch.context() as m:
            m.setattr(convert, "_FEW_LISTS", 0)  # the level scan alone
            assert convert._is_plain(data) == plain
            with contextlib.suppress(PtcError):
                from_host(data, old)
        with contextlib.suppress(PtcError):
            from_host(data, got)
        assert set(old) <= set(got)
        for xs in got.values():
            assert len(xs) >= N and is_record_list(xs)
        if plain:
            # every list of records found: the long ones by blocks, the rest as before
            want = {id(xs) for xs in all_lists(data, []) if len(xs) >= N and is_record_list(xs)}
            assert set(got) <= want
            assert {id(xs) for xs in all_lists(data, []) if len(xs) >= LONG - 10} & want <= set(got)
    assert 0 < plains < 12  # both kinds were seen


def test_lists_a_program_builds_are_not_registered() -> None:
    xs = rows()
    got: list[bool] = []
    real = records.register

    def spy(reg: Records, lists: Any) -> None:
        lists = list(lists)
        got.extend(id(x) == id(xs) for x in lists)
        real(reg, lists)

    with pytest.MonkeyPatch.context() as m:
        m.setattr(records, "register", spy)
        import ptc_runtime.convert as convert

        m.setattr(convert, "register", spy)
        src = "(count (sort-by :price (mapv identity data/xs)))"
        assert outcome(src, data={"xs": xs}).endswith("ok 16")
    assert got == [True]  # only the host list, once


def test_tool_results_register_in_the_running_program() -> None:
    out = rows()
    kept: list[Records] = []

    def fetch(args: Any) -> Any:
        kept.append(context.current().records)
        return out

    from ptc_compiler import api

    res = api.run("(count (tool/fetch {}))", tools={"fetch": fetch})
    assert res.ok and res.value == N
    assert kept and kept[0].get(id(out)) is out


def test_nothing_carries_over_to_the_next_run() -> None:
    # a session keeps the host list; the host then gives one map the keyword key too,
    # which the next run's flexible read must find (that run never scanned the list)
    from ptc_compiler import api

    xs = rows()
    owner = object()
    first = api.run("(def xs data/xs) (first (map :sku xs))", data={"xs": xs}, state_owner=owner)
    assert first.ok and first.value == "s0"
    xs[0][SKU] = "KW"  # type: ignore[index]
    again = api.run("(first (map :sku xs))", state_owner=owner)
    assert again.ok and again.value == "KW"


@pytest.mark.parametrize(
    "program",
    [
        '(->> data/xs (filter #(= (:sku %) "s3")) (map :price) (reduce +))',
        "(->> data/xs (sort-by :price >) (take 2) (map :sku))",
        "(reduce (fn [m p] (assoc m (:sku p) (:price p))) {} data/xs)",
        "(->> data/xs (group-by :sku) (map (fn [[k ps]] (reduce + (map :price ps)))) count)",
    ],
)
def test_a_host_changing_its_data_during_the_run_gets_a_typed_outcome(program: str) -> None:
    # Data is read, not copied (docs/security.md): a tool that changes a list the run
    # already scanned breaks the host's side of the contract. The run must still end in a
    # value or a typed failure without a Python message, and the next run, which scans
    # the changed list again, must read it correctly.
    from ptc_compiler import api

    xs: list[Any] = rows(64)

    def spoil(args: Any) -> Any:
        xs[3] = 7
        xs[5] = {1: "one", "sku": "s5"}
        xs.append(None)
        return 0

    res = api.run(f"(do (tool/spoil {{}}) {program})", data={"xs": xs}, tools={"spoil": spoil})
    if not res.ok:
        assert res.error is not None and res.error.kind == "exception"
        assert "Traceback" not in res.error.message and "object has no" not in res.error.message
    del xs[3], xs[-1]
    again = api.run(program, data={"xs": xs})
    fresh = api.run(program, data={"xs": copy.deepcopy(xs)})
    assert describe(again) == describe(fresh)


def test_outside_a_run_nothing_is_registered() -> None:
    xs = rows()
    assert from_host({"xs": xs}) is not None
    assert not records.is_records(xs)
    assert records.current_registry() is None


def test_the_registry_lets_go_of_lists_nothing_else_holds() -> None:
    reg = Records()
    held = [rows() for _ in range(3)]
    records.register(reg, held)
    for _ in range(10 * Records.FIRST_BOUND):
        records.register(reg, [rows()])  # a list dropped at once
    gc.collect()
    assert len(reg) < 2 * Records.FIRST_BOUND + 3
    assert all(reg.get(id(x)) is x for x in held)


def test_registering_from_several_threads_at_once() -> None:
    reg = Records()
    held = rows()
    records.register(reg, [held])
    errors: list[BaseException] = []

    def work() -> None:
        try:
            for _ in range(3000):
                records.register(reg, [rows()])
        except BaseException as exc:  # reported below
            errors.append(exc)

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible
    try:
        threads = [threading.Thread(target=work) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(old)
    assert not errors
    assert reg.get(id(held)) is held and len(reg) < 4 * Records.FIRST_BOUND


def test_parallel_workers_share_the_registry() -> None:
    seen: list[Records] = []

    def where(args: Any) -> Any:
        seen.append(context.current().records)
        return rows()

    src = "[(count (tool/where {})) (pmap (fn [k] (count (sort-by k (tool/where {})))) [:a :b])]"
    from ptc_compiler import api

    res = api.run(src, tools={"where": where})
    assert res.ok, res.error
    assert len(seen) == 3 and seen[1] is seen[0] and seen[2] is seen[0]
    assert len(seen[0]) == 3  # each result registered


# ---------------------------------------------------------------- the readers


def forged() -> list[dict[Any, Any]]:
    """A list the scan would refuse, each map holding `:sku` too (the flexible read finds
    the keyword first): registering it shows which path a reader takes."""
    return [{"sku": f"s{i}", keyword("sku"): "KW", "price": i} for i in range(N)]


SKU = keyword("sku")


def test_pluck_reads_strings_directly_on_a_record_list() -> None:
    xs = forged()
    with running():
        assert keyed.pluck(xs, SKU) == ["KW"] * N
        assert keyed.pluck_getter(xs, SKU)[0] == ["KW"] * N
    with running(xs):
        assert keyed.pluck(xs, SKU) == [f"s{i}" for i in range(N)]
        keys, getter = keyed.pluck_getter(xs, SKU)
        assert keys == [f"s{i}" for i in range(N)] and getter is not None
        assert getter(xs[2]) == "s2"
        # a string spec reads its own spelling on both paths; a copy is not registered
        assert keyed.pluck(xs, "sku") == [f"s{i}" for i in range(N)]
        assert keyed.pluck(list(xs), SKU) == ["KW"] * N


def test_missing_fields_and_dashed_names() -> None:
    xs: list[dict[str, Any]] = [{"a_b": i} for i in range(N)]
    xs[3] = {"a-b": "dash", "a_b": 0}
    ys: list[dict[str, Any]] = [{"q": i} for i in range(N)]
    with running(xs, ys):
        # `:a-b` finds "a-b" where it is, else "a_b": the general path answers
        assert keyed.pluck(xs, keyword("a-b")) == [*range(3), "dash", *range(4, N)]
        assert keyed.pluck_getter(xs, keyword("a-b")) == (keyed.pluck(xs, keyword("a-b")), None)
        assert keyed.pluck(ys, keyword("a")) == [None] * N  # missing: nil
        assert keyed.pluck_getter(ys, keyword("a"))[0] == [None] * N
        assert keyed.pluck(ys, keyword("q")) == list(range(N))
        assert keyed.pluck_getter(ys, keyword("q"))[1] is not None


def filtered(xs: list[Any], lit: object, keep: bool) -> list[Any]:
    fuel = iter([None] * 10_000)
    credit = context.fresh_credit()
    fuel, out = fieldfilter.filter_field(xs, SKU, "sku", lit, keep, fuel, credit)
    return out


def test_filter_field_on_a_record_list_and_its_output() -> None:
    xs = forged()
    xs[4]["sku"] = "KW"
    with running() as ctx:
        assert len(filtered(xs, "KW", True)) == N
        assert not ctx.records
    with running(xs) as ctx:
        out = filtered(xs, "KW", True)
        assert out == [xs[4]]  # too short to register
        assert filtered(xs, "KW", False) == xs[:4] + xs[5:]
        assert ctx.records.get(id(filtered(xs, "KW", False))) is None  # a new list each call
        kept = filtered(xs, None, False)
        assert ctx.records.get(id(kept)) is kept  # a subset of the same maps
        assert filtered(xs, None, True) == []
        assert filtered(xs, True, True) == []


def test_filter_field_steps_and_budget_are_unchanged() -> None:
    xs = [{"status": "paid" if i % 3 else "open", "n": i} for i in range(1000)]
    progs = [
        '(count (filter #(= (:status %) "paid") data/xs))',
        '(count (remove #(= (:status %) "paid") data/xs))',
        "(count (filterv #(= (:status %) nil) data/xs))",
    ]
    for src in progs:
        for budget in (10, 500, 999, 1000, 1001, 10**6):
            with records_off():
                want = outcome(src + " ", data={"xs": xs}, max_steps=budget)
            assert outcome(src, data={"xs": xs}, max_steps=budget) == want


def test_assoc_fields_on_a_record_list() -> None:
    xs = forged()
    for registered in ((), (xs,)):
        with running(*registered):
            fuel = iter([None] * 10_000)
            m: dict[Any, Any] = {}
            _, m = transient.t_assoc_fields(
                m, xs, SKU, "sku", keyword("price"), "price", fuel, context.fresh_credit()
            )
            assert list(m) == (["KW"] if not registered else [f"s{i}" for i in range(N)])


@contextlib.contextmanager
def records_off() -> Iterator[None]:
    """Nothing is registered within it: every read takes the general path."""
    with pytest.MonkeyPatch.context() as m:
        m.setattr(records, "MIN_LEN", 10**18)
        yield


# ---------------------------------------------------------------- differential

FIELDS = ["sku", "price", "status", "a-b", "a_b", "q"]
VALUES: list[Any] = ["paid", "open", "a-b", "x_y", 1, 2, 2.5, -1, None, True, False, [1], {"k": 1}]
PROGRAMS = [
    "(mapv {f} data/xs)",
    "(map {f} data/xs)",
    "(sort-by {f} data/xs)",
    "(sort-by {f} > data/xs)",
    "(take 3 (sort-by {f} data/xs))",
    "(take 2 (sort-by {f} > data/xs))",
    "(group-by {f} data/xs)",
    "(distinct-by {f} data/xs)",
    "(count (filter #(= ({f} %) {lit}) data/xs))",
    "(filterv #(not= ({f} %) {lit}) data/xs)",
    "(remove #(= ({f} %) {lit}) data/xs)",
    "(reduce (fn [m p] (assoc m ({f} p) ({g} p))) {{}} data/xs)",
    "(reduce (fn [m p] (assoc m ({f} p) p)) {{}} data/xs)",
    "(->> data/xs (filter #(= ({f} %) {lit})) (group-by {g}))",
    "(->> data/xs (filter #(= ({f} %) {lit})) (map {g}) (take 5))",
    "(->> data/xs (filter #(= ({f} %) {lit})) (sort-by {g}) (take 2))",
    "(->> data/xs (group-by {f}) (map (fn [[k vs]] [k (count vs) (map {g} vs)])))",
    "(sum-by {f} data/xs)",
    "(->> (tool/rows {{}}) (filter #(= ({f} %) {lit})) (mapv {g}))",
    "(sort-by {f} (tool/rows {{}}))",
]
LITERALS = ['"paid"', '"open"', "nil", "true", "false", ":paid"]


def random_rows(rnd: random.Random) -> list[Any]:
    n = rnd.choice([0, 5, N, N + 1, 40, 300])
    pool = rnd.sample(FIELDS, rnd.randint(1, len(FIELDS)))
    vals = rnd.sample(VALUES, rnd.randint(1, 5))
    out: list[Any] = []
    for _ in range(n):
        out.append({k: rnd.choice(vals) for k in pool if rnd.random() < 0.9})
    if out and rnd.random() < 0.2:  # a near miss: something the scan refuses
        i = rnd.randrange(len(out))
        out[i] = rnd.choice([None, 3, (1,), {"price": (1, 2)}, {1: 2}, {SKU: "kw"}, ["x"]])
    return out


def field(rnd: random.Random) -> str:
    name = rnd.choice(FIELDS)
    return ":" + name if rnd.random() < 0.85 else json.dumps(name)


@pytest.mark.parametrize("seed", range(6))
def test_random_programs_agree_with_the_registry_off(seed: int) -> None:
    rnd = random.Random(seed)
    for i in range(40):
        xs = random_rows(rnd)
        tool_rows = random_rows(rnd)
        src = rnd.choice(PROGRAMS).format(f=field(rnd), g=field(rnd), lit=rnd.choice(LITERALS))
        budget = rnd.choice([10**6, 10**6, rnd.randint(1, len(xs) + 40)])
        before = repr(xs) + repr(tool_rows)

        def run(src: str, xs: list[Any] = xs, ys: list[Any] = tool_rows, n: int = budget) -> str:
            return outcome(
                src,
                data={"xs": xs},
                tools={"rows": lambda args: ys},
                max_steps=n,
                timeout_ms=None,
            )

        got = run(f"{src}\n; {seed}/{i}")
        with records_off():
            want = run(f"{src}\n; {seed}/{i} off")
        assert got == want, src
        assert repr(xs) + repr(tool_rows) == before, src  # host data left as it was


def test_keyword_type_is_identity_equal() -> None:
    # the proof relies on a keyword never being equal to (or found as) a string key
    k = keyword("sku")
    assert type(k) is Keyword
    assert k != "sku" and {"sku": 1}.get(k) is None  # type: ignore[call-overload]
