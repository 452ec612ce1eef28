"""`(map (fn [x] (str "lit" (:k x) ...)) coll)` (also `mapv`, a one-binding `for`) lowers to
one `rt_map_str_fields` call (`ptc_runtime.fast.fieldformat`): the same vector, errors,
positions and step counts as the loop it replaces, an exhausted budget included, over
record lists and any other collection."""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from typing import Any

import pytest

import ptc_compiler
from ptc_compiler import optimize, run
from ptc_runtime import context
from ptc_runtime.collections import PMap
from ptc_runtime.fast import fieldformat
from ptc_runtime.values import keyword
from tests.outcomes import outcome

#: Values whose `str` text `%s` gives, and values it does not (nil, booleans, keywords,
#: collections, long strings, floats outside Java's plain range, nan, huge ints, -0.0).
PLAIN: list[Any] = ["a", "", "%s", "x,y", 0, 7, -3, 2.5, 0.001, -0.5, 9999999.0, 0.0]
ODD: list[Any] = [
    None,
    True,
    False,
    keyword("a"),
    [1, "a"],
    {"s": "a"},
    "x" * 9000,
    1e-4,
    1e7,
    -1e9,
    float("nan"),
    float("inf"),
    -0.0,
    10**40,
]
FIELDS = ["s", "g", "f", "a", "a-b", "a_b"]


def _record(rnd: random.Random, odd: float) -> dict[str, Any]:
    keys = rnd.sample(FIELDS, rnd.randint(2, 5))
    return {k: rnd.choice(ODD) if rnd.random() < odd else rnd.choice(PLAIN) for k in keys}


def _item(rnd: random.Random, odd: float) -> Any:
    r = rnd.random()
    if r < 0.9:
        return _record(rnd, odd)
    if r < 0.95:  # a keyword-keyed map, a persistent map
        d = {keyword(k): v for k, v in _record(rnd, odd).items()}
        return d if rnd.random() < 0.5 else PMap.from_dict(d)
    return rnd.choice([None, 5, "s", [1, 2], {"x": {"s": "a"}}])


def _items(rnd: random.Random) -> list[Any]:
    n = rnd.choice([0, 1, 7, 16, 60, 300, 5000])
    # a few odd values among plain ones (a stretch with one goes element by element: the
    # others must pass the inline tests), or many
    odd = rnd.choice([0.0, 0.0, 0.0, 0.05, 0.5])
    if rnd.random() < 0.5:  # a record list: only string-keyed dicts
        xs = [_record(rnd, odd) for _ in range(n)]
    else:
        xs = [_item(rnd, odd) for _ in range(n)]
    for _ in range(rnd.choice([0, 1, 1, 2]) if n else 0):
        x = xs[rnd.randrange(n)]
        if type(x) is dict and x:
            x[rnd.choice(list(x))] = rnd.choice(ODD)
    return xs


def _body(rnd: random.Random, x: str) -> str:
    parts = []
    for _ in range(rnd.randint(1, 4)):  # one to four fields, literals around them
        for _ in range(rnd.choice([0, 0, 1, 2])):
            parts.append(rnd.choice(['"-"', '","', '"%"', '"%s"', '""', '"a b"']))
        k = rnd.choice([":s", ":g", ":f", ":a", ":z", ":a-b", ":a_b"])
        parts.append(f"({k} {x})" if rnd.random() < 0.7 else f"(get {x} {k})")
    if rnd.random() < 0.3:
        parts.append('"."')
    return f"(str {' '.join(parts)})"


def _pattern_body(rnd: random.Random) -> tuple[str, str]:
    """A `{:keys [...]}` pattern (or `{s :s}`) and a `str` of the names it binds."""
    names = rnd.sample(["s", "g", "f", "a", "z", "a-b"], rnd.randint(1, 4))
    if rnd.random() < 0.8:
        pattern = f"{{:keys [{' '.join(names)}]{rnd.choice(['', '', ' :as p'])}}}"
    else:
        pattern = "{" + " ".join(f"{n} :{n}" for n in names) + "}"
    parts = []
    for _ in range(rnd.randint(1, 4)):
        if rnd.random() < 0.4:
            parts.append(rnd.choice(['"-"', '","', '"%"', '""']))
        parts.append(rnd.choice(names))
    return pattern, f"(str {' '.join(parts)})"


def _program(rnd: random.Random) -> str:
    coll = rnd.choice(["data/xs"] * 6 + ["data/m", "data/n", "data/str", "(:xs data/w)"])
    kind = rnd.random()
    pattern, text = _pattern_body(rnd)
    if kind < 0.25:
        call = f"(map #{_body(rnd, '%')}\n  {coll})"
    elif kind < 0.45:
        call = f"(mapv (fn [x] {_body(rnd, 'x')})\n  {coll})"
    elif kind < 0.6:
        call = f"(for [x {coll}]\n  {_body(rnd, 'x')})"
    elif kind < 0.75:  # the element destructured by a map pattern
        call = f"(map (fn [{pattern}]\n  {text}) {coll})"
    elif kind < 0.9:
        call = f"(for [{pattern} {coll}]\n  {text})"
    else:
        call = f"(mapv #(let [{pattern} %]\n  {text}) {coll})"
    shape = rnd.choice(
        [
            "{}",
            "(count {})",
            '(str/join "\\n" {})',
            "(let [r {}] [r (count r)])",
            "((fn [] {}))",
            # inside a fuel-driven loop, which holds the chunk the call pulls from
            "(loop [i 0 a 0] (if (< i 3) (recur (inc i) (+ a (count {}))) a))",
            "(map (fn [j] (count {})) [1 2])",
        ]
    )
    return shape.format(call)


def _outcome(src: str, data: dict[str, Any], max_steps: int) -> str:
    return outcome(src, data=data, max_steps=max_steps, timeout_ms=None)


@pytest.fixture
def loop_only(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Within it, the rule is off: the loop runs."""
    with optimize.disabled("map-str-fields"):
        yield


def _agree(src: str, data: dict[str, Any], steps: int, monkeypatch: pytest.MonkeyPatch) -> None:
    assert "rt_map_str_fields" in ptc_compiler.compile(src).python_source, src
    got = _outcome(src, data, steps)
    with optimize.disabled("map-str-fields"):
        plain_src = src + " "  # a fresh compile (the cache is by text)
        assert "rt_map_str_fields" not in ptc_compiler.compile(plain_src).python_source
        want = _outcome(plain_src, data, steps)
    assert got == want, src


@pytest.mark.parametrize("seed", range(6))
def test_formatted_fields_agree_with_the_loop(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    rnd = random.Random(seed)
    for i in range(50):
        xs = _items(rnd)
        data = {"xs": xs, "m": {"s": "a", "t": 1}, "n": None, "str": "sa", "w": {"xs": xs}}
        src = _program(rnd) + f"\n; {i}"
        # budgets that run out before, inside (at and around chunk ends) and after the loop
        n = len(xs)
        steps = max(1, rnd.choice([1, 2, 50, 51, 150, n // 3, n - 1, n, n + 1, n + 2, 10**7]))
        _agree(src, data, steps, monkeypatch)


@pytest.mark.parametrize(
    "src",
    [
        '(map #(str (:s %) "," (:g %)) data/xs)',
        '(mapv #(str "id-" (get % :s)) data/xs)',
        "(map (fn [x] (str (:s x))) data/xs)",
        '(for [x data/xs] (str (:s x) "%" (:g x) "%s" (:f x) (:a x)))',
        '(let [v (map #(str (:s %) "-") data/xs)] v)',
        '(->> data/xs (map #(str (:s %) ":" (:s %))) (str/join ";"))',
        '(map #(str (:a-b %) "," (get % :c-d)) data/xs)',  # `-` names: as `rt_kdash` reads
    ],
)
def test_the_rule_applies(src: str) -> None:
    assert "rt_map_str_fields" in ptc_compiler.compile(src).python_source


@pytest.mark.parametrize(
    "src",
    [
        "(map #(str (:a %) (:b %) (:c %) (:d %) (:e %)) data/xs)",  # five fields
        "(map #(str (:a %) 1) data/xs)",  # a number literal
        "(map #(str (:a %) :k) data/xs)",
        "(map #(str (:a %) %) data/xs)",  # the element itself
        "(map #(str (:a (:b %))) data/xs)",
        '(map #(str (:a % "d")) data/xs)',  # a default
        '(map #(str (get % "a")) data/xs)',  # a string key
        '(map #(str "a" "b") data/xs)',  # no field
        "(map #(str) data/xs)",
        '(map #(str (:a %) (str "x" (:b %))) data/xs)',
        "(let [y {:a 1}] (map (fn [x] (str (:a y))) data/xs))",
        "(map (fn f [x] (str (:a x))) data/xs)",  # named: may recur
        "(map (fn [x y] (str (:a x))) data/xs data/xs)",
        "(map #(str (:a %1) %2) data/xs data/xs)",
        "(for [x data/xs :when (:a x)] (str (:a x)))",
        "(for [x data/xs y [1]] (str (:a x)))",
        "(doseq [x data/xs] (str (:a x)))",
        "(filter #(str (:a %)) data/xs)",
        "(map #(pr-str (:a %)) data/xs)",
        "(let [str (fn [x] x)] (map #(str (:a %)) data/xs))",
        '(map #(str (:a %) "' + "x" * 9000 + '") data/xs)',  # a long literal
    ],
)
def test_other_shapes_keep_the_loop(src: str) -> None:
    assert "rt_map_str_fields" not in ptc_compiler.compile(src).python_source


@pytest.mark.parametrize("records", [True, False])
@pytest.mark.parametrize("odd", ODD, ids=repr)
def test_one_odd_value_among_plain_ones(
    odd: Any, records: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the one element that must not take `%s`'s text, in each field position
    rnd = random.Random(repr(odd))
    for field in ("s", "g", "f", "a-b"):
        xs: list[Any] = [{k: rnd.choice(PLAIN) for k in FIELDS} for _ in range(300)]
        at = rnd.randrange(300)
        xs[at] = {**xs[at], field: odd}
        if not records:
            xs[0] = {keyword(k): v for k, v in xs[0].items()}
        src = '(mapv #(str (:s %) "," (:g %) "%" (:f %) (:a-b %)) data/xs)'
        for steps in (at, at + 1, 10**6):
            _agree(src + f" ; {field} {steps}", {"xs": xs}, max(steps, 1), monkeypatch)
        for n in (1, 2, 3):  # fewer fields
            src = f"(map (fn [x] (str {' '.join(f'(:{k} x)' for k in FIELDS[:n])})) data/xs)"
            _agree(src + f" ; {field}", {"xs": xs}, 10**6, monkeypatch)


@pytest.mark.parametrize("at", [0, 5, 50, 51, 4000])
@pytest.mark.parametrize("odd", [[1, 2], 7, "s", None, keyword("k")], ids=repr)
def test_a_pattern_error_comes_at_its_element(
    at: int, odd: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # an element no map pattern may read: destructure_error at the pattern, after `at` + 1
    # steps (nil reads as an empty map, a vector by index: no keyword is found in it)
    xs: list[Any] = [{"s": f"v{i}", "g": i} for i in range(5000)]
    xs[at] = odd
    src = '(count\n  (map (fn [{:keys [g s]}]\n   (str s "," g)) data/xs))'
    for steps in (at, at + 1, 10**7):
        if steps:
            _agree(src + f" ; {steps}", {"xs": xs}, steps, monkeypatch)
    res = run(src, data={"xs": xs}, timeout_ms=None)
    if odd is None or type(odd) is list:
        assert res.ok and res.value == 5000
    else:
        assert res.error is not None and res.error.code == "destructure_error"
        assert (res.error.line, res.error.column, res.steps) == (2, 13, at + 1)


@pytest.mark.parametrize(
    "src",
    [
        '(mapv (fn [{:keys [s g]}] (str s ": " g)) data/xs)',
        '(for [{:keys [s g]} data/xs] (str s "-" g "-" s))',
        "(map #(let [{:keys [s]} %] (str s)) data/xs)",
        '(map (fn [{s :s g :g}] (str s "," g)) data/xs)',
        "(map (fn [{:keys [a-b]}] (str a-b)) data/xs)",
        '(map (fn [{:keys [s] :as p}] (str s "!")) data/xs)',  # `:as`, not read
    ],
)
def test_the_rule_applies_to_a_map_pattern(src: str) -> None:
    assert "rt_map_str_fields_ds(" in ptc_compiler.compile(src).python_source


@pytest.mark.parametrize(
    "src",
    [
        "(map (fn [{:keys [s] :as p}] (str s p)) data/xs)",  # the map itself a part
        "(map (fn [{:keys [s] :or {s 1}}] (str s)) data/xs)",  # :or
        "(map (fn [{:strs [s]}] (str s)) data/xs)",  # a string key
        "(map (fn [[s g]] (str s g)) data/xs)",  # a vector pattern
        "(map (fn [{{t :t} :s}] (str t)) data/xs)",  # nested
        "(for [{:keys [s]} data/xs :let [t 1]] (str s t))",
        "(for [{:keys [s]} data/xs :when s] (str s))",
        "(map (fn [x] (let [s (:s x)] (str s))) data/xs)",  # a plain let
        "(map (fn [{:keys [s]}] (str s (:g {:g 1}))) data/xs)",
        "(let [y {:s 1}] (map (fn [x] (let [{:keys [s]} y] (str s))) data/xs))",
    ],
)
def test_other_patterns_keep_the_loop(src: str) -> None:
    assert "rt_map_str_fields" not in ptc_compiler.compile(src).python_source


def test_values() -> None:
    xs = [
        {"s": "a", "g": 1, "f": 2.5},
        {"s": None, "g": True, "f": 1e-5},
        {"g": keyword("k"), "f": [1, "b"]},
        {"s": "x", "g": {"a": 1}, "f": 1e7},
    ] * 5  # 20: a record list
    src = '(mapv #(str "<" (:s %) "|" (get % :g) "|" (:f %) "%>") data/xs)'
    assert "rt_map_str_fields" in ptc_compiler.compile(src).python_source
    res = run(src, data={"xs": xs})
    want = ["<a|1|2.5%>", "<|true|1.0E-5%>", '<|:k|[1 "b"]%>', '<x|{"a" 1}|1.0E7%>'] * 5
    assert res.ok and res.value == want and res.steps == 20
    # not a record list: keyword keys win over string keys, persistent maps, non-maps
    ys = [{keyword("s"): "k", "s": "s"}, PMap.from_dict({keyword("s"): 1}), None, "ab", [1]]
    res = run(src, data={"xs": ys})
    assert res.ok and res.value == ["<k||%>", "<1||%>", "<||%>", "<||%>", "<||%>"]


@pytest.mark.parametrize("at", [0, 5, 49, 50, 51, 3999, 4000, 9999])
@pytest.mark.parametrize("records", [True, False])
def test_an_error_of_str_comes_at_its_element(
    at: int, records: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a text over `str`'s bound: memory_exceeded at the `str` call, after `at` + 1 steps
    xs: list[Any] = [{"s": f"v{i}", "g": i} for i in range(10_000)]
    xs[at] = {"s": "x" * 10_000_001, "g": 0}
    if not records:
        xs[3 if at != 3 else 4] = None  # no record list
    src = '(count\n  (map (fn [x] (str (:g x) ","\n                    (:s x))) data/xs))'
    for steps in (at, at + 1, 10**7):
        if steps:
            _agree(src + f" ; {steps}", {"xs": xs}, steps, monkeypatch)
    res = run(src, data={"xs": xs}, timeout_ms=None)
    assert res.error is not None and res.error.code == "memory_exceeded"
    assert (res.error.line, res.error.column, res.steps) == (2, 16, at + 1)


@pytest.mark.parametrize("digits", [0, 100_000, 640])
def test_ints_over_the_digit_limit(digits: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # `%` raises on an int over the interpreter's limit (`str` has its own text or error);
    # a host that lifted the limit (0) or raised it far makes every element go by `str`
    big = 10**700 + 1
    xs = [{"s": i, "g": "a"} for i in range(100)]
    xs[60] = {"s": big, "g": "a"}
    before = sys.get_int_max_str_digits()
    try:
        sys.set_int_max_str_digits(digits)
        for steps in (10, 61, 10**6):
            _agree(
                f'(vec (map #(str (:s %) "-" (:g %)) data/xs)) ; {steps}',
                {"xs": xs},
                steps,
                monkeypatch,
            )
    finally:
        sys.set_int_max_str_digits(before)


def test_host_data_is_left_as_it_was() -> None:
    xs = [{"s": "a", "g": [1, {"t": 2}]} for _ in range(40)]
    snapshot = repr(xs)
    res = run("(map #(str (:s %) (:g %)) data/xs)", data={"xs": xs})
    assert res.ok and res.value == ['a[1 {"t" 2}]'] * 40
    assert repr(xs) == snapshot


def _pull_like_a_worker(module: dict[str, Any], steps: int) -> None:
    """What a pmap worker's element checks do to the module's `FUEL` (pull, refill)."""
    ctx = context.current()
    for _ in range(steps):
        for _t in module["FUEL"]:
            break
        else:
            module["FUEL"] = ctx.refill(module["FUEL"], module["CREDIT"])


@pytest.mark.parametrize("worker_steps", [1, 3000, 9000])
def test_a_chunk_refilled_by_another_worker_meanwhile(
    worker_steps: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # pmap workers pull from the module's one `FUEL`: while the texts are made, a worker
    # may take steps from the chunk or use it up and refill it. Then only the texts of
    # the steps pulled are kept and the call goes on with the module's chunk, as the
    # loop's next pull would: every step is counted once.
    xs = [{"s": f"s{i}", "g": i} for i in range(20_000)]
    src = '(str/join "," (map (fn [x] (str (:s x) "=" (:g x))) data/xs))'
    plain = run(src, data={"xs": xs}, timeout_ms=None)
    calls = 0
    texts = fieldformat._RECORD_TEXTS[2]

    def interleaved(*args: Any) -> list[str]:
        nonlocal calls
        calls += 1
        if calls == 2:  # the generated code's frame is three up (map_str_fields' caller)
            _pull_like_a_worker(sys._getframe(3).f_globals, worker_steps)
        return texts(*args)

    monkeypatch.setattr(fieldformat, "_RECORD_TEXTS", (interleaved,) * 5)
    got = run(src + " ", data={"xs": xs}, timeout_ms=None)
    assert calls > 2
    assert got.ok and got.value == plain.value
    assert got.steps == plain.steps + worker_steps


def _recording(f: Any, used: list[str], tag: str) -> Any:
    def texts(*args: Any) -> Any:
        used.append(tag)
        return f(*args)

    return texts


def test_the_benchmark_shape_reads_a_record_list(monkeypatch: pytest.MonkeyPatch) -> None:
    # over a record list the string spelling is read directly (no keyword probe)
    used: list[str] = []
    for name in ("_RECORD_TEXTS", "_TEXTS"):
        table = getattr(fieldformat, name)
        monkeypatch.setattr(fieldformat, name, tuple(_recording(f, used, name) for f in table))
    xs = [{"sku": f"k{i}", "price": i / 4, "qty": i} for i in range(100)]
    src = '(str/join "\\n" (map #(str (:sku %) "," (:price %) "," (:qty %)) data/xs))'
    res = run(src, data={"xs": xs})
    assert res.ok and res.value == "\n".join(f"k{i},{i / 4},{i}" for i in range(100))
    assert set(used) == {"_RECORD_TEXTS"}
    res = run(src, data={"xs": [*xs, None]})
    assert set(used) == {"_RECORD_TEXTS", "_TEXTS"}


def test_a_record_without_a_field(monkeypatch: pytest.MonkeyPatch) -> None:
    # a record list read by subscripts: the first record without a field sends the rest
    # to reads by `get`, where the field is nil (the same text as the loop's)
    used: list[str] = []
    for name in ("_RECORD_TEXTS", "_RECORD_GETS", "_TEXTS"):
        table = getattr(fieldformat, name)
        monkeypatch.setattr(fieldformat, name, tuple(_recording(f, used, name) for f in table))
    xs: list[dict[str, Any]] = [{"sku": f"k{i}", "qty": i} for i in range(3000)]
    del xs[2500]["qty"]
    src = '(vec (map #(str (:sku %) "," (:qty %)) data/xs))'
    res = run(src, data={"xs": xs}, timeout_ms=None)
    want = [f"k{i},{i}" if i != 2500 else "k2500," for i in range(3000)]
    assert res.ok and res.value == want
    assert "_RECORD_GETS" in used and "_TEXTS" not in used
    assert used.index("_RECORD_GETS") > 0  # after the subscripts
    _agree(src + " ;", {"xs": xs}, 10**6, monkeypatch)


@pytest.mark.parametrize("spelling", ["a-b", "a_b", "both", "none"])
@pytest.mark.parametrize("records", [True, False])
def test_a_name_with_a_dash(spelling: str, records: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    # `(:a-b x)` reads "a-b", else "a_b" (and the keywords, off record lists), as `rt_kdash`
    rnd = random.Random(spelling)
    xs: list[Any] = []
    for i in range(200):
        d: dict[Any, Any] = {"s": i}
        if spelling in ("a-b", "both") or (spelling == "none" and i % 7 == 0):
            d["a-b"] = f"dash{i}"
        if spelling in ("a_b", "both") or (spelling == "none" and i % 5 == 0):
            d["a_b"] = f"under{i}"
        if not records and rnd.random() < 0.2:
            d = {keyword(k) if rnd.random() < 0.5 else k: v for k, v in d.items()}
        xs.append(d)
    for src in (
        '(mapv #(str (:s %) "=" (:a-b %)) data/xs)',
        '(map #(str (:a-b %) "," (get % :s)) data/xs)',
        '(for [{:keys [s a-b]} data/xs] (str s "=" a-b))',
    ):
        assert "rt_map_str_fields" in ptc_compiler.compile(src).python_source
        for steps in (1, 150, 10**6):
            _agree(src + f" ; {steps}", {"xs": xs}, steps, monkeypatch)


def test_a_long_format(monkeypatch: pytest.MonkeyPatch) -> None:
    # a format over 1,024 characters is not kept by `_shape`'s or `_literal_pieces`' cache
    lit = "%s " * 700
    src = f'(map #(str "{lit}" (:s %) "{lit}" (:g %)) data/xs)'
    xs = [{"s": i, "g": "x"} for i in range(40)]
    before = fieldformat._shape.cache_info().currsize
    pieces = fieldformat._literal_pieces.cache_info().currsize
    res = run(src, data={"xs": xs})
    assert res.ok and res.value == [f"{lit}{i}{lit}x" for i in range(40)]
    assert fieldformat._shape.cache_info().currsize == before
    assert fieldformat._literal_pieces.cache_info().currsize == pieces
    _agree(src + " ;", {"xs": xs}, 10**6, monkeypatch)
