"""Validation (spec §5-6): per type, per admitted representation, nil vs missing, aliases."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Mapping

import pytest

from ptc_compiler import signatures as sigs
from ptc_runtime.collections import PMap, PSet, PVec
from ptc_runtime.values import keyword as kw

UTC = dt.UTC
IST = dt.timezone(dt.timedelta(hours=5, minutes=30))
AWARE = dt.datetime(2024, 1, 1, tzinfo=UTC)
NAIVE = dt.datetime(2024, 1, 1)


class FrozenMap(Mapping[object, object]):
    """A Mapping that is neither dict nor the runtime map."""

    def __init__(self, d: dict[object, object]) -> None:
        self._d = d

    def __getitem__(self, k: object) -> object:
        return self._d[k]

    def __iter__(self) -> Iterator[object]:
        return iter(self._d)

    def __len__(self) -> int:
        return len(self._d)


def ok(t: str, v: object) -> bool:
    return sigs.validate_output(t, v) == []


# (type, accepted values, rejected values)
TYPES: list[tuple[str, list[object], list[object]]] = [
    (":string", ["", "x", "ünï", "1"], [kw("a"), 1, None, True, b"x"]),
    (":int", [0, -3, 2**100], [True, False, 1.0, "1", None, 1.5]),
    (
        ":float",
        [1.5, 0.0, -2.5e300, 1, 2**70, 0],
        [True, "1.5", float("nan"), float("inf"), float("-inf"), None],
    ),
    (":bool", [True, False], [0, 1, "true", None]),
    (":keyword", [kw("active")], ["active", None, True, sigs.parse]),
    (
        ":datetime",
        [AWARE, dt.datetime(2024, 1, 1, tzinfo=IST)],
        ["2024-01-01T00:00:00Z", NAIVE, dt.date(2024, 1, 1), 1700000000, None],
    ),
    (
        ":map",
        [{}, {"a": 1}, {1: 2}, PMap.from_dict({"a": 1}), FrozenMap({"a": 1})],
        [[], PSet.from_iterable([1]), "x", None, [("a", 1)]],
    ),
    (":any", [None, 1, "x", [], {}, True, kw("a"), AWARE], []),
    (
        "[:int]",
        [[], [1, 2], (1, 2), PVec([1, 2], 2)],
        [{1, 2}, frozenset({1}), {"a": 1}, "12", None, [1, "2"], [True]],
    ),
    (
        "{a :int}",
        [{"a": 1}, {"a": 1, "extra": "x"}, {kw("a"): 1}, FrozenMap({"a": 1})],
        [[], None, {}, {"a": None}, "a"],
    ),
    (":int?", [None, 1], ["1", True]),
    ("[:int]?", [None, [], [1]], [[None], "x"]),
    ("{a :int}?", [None, {"a": 1}], [{}, []]),
    ("[:int?]", [[None, 1]], [None, ["1"]]),
]


def _cases(accept: bool) -> Iterator[object]:
    for t, good, bad in TYPES:
        for i, v in enumerate(good if accept else bad):
            yield pytest.param(t, v, id=f"{t}-{i}")


@pytest.mark.parametrize(("t", "v"), list(_cases(True)))
def test_accepts(t: str, v: object) -> None:
    assert sigs.validate_output(t, v) == []


@pytest.mark.parametrize(("t", "v"), list(_cases(False)))
def test_rejects(t: str, v: object) -> None:
    errs = sigs.validate_output(t, v)
    assert errs and errs[0].kind in ("type", "missing")


def test_float_accepts_int_without_conversion() -> None:
    v = {"x": 3}
    assert sigs.validate_output("{x :float}", v) == []
    assert type(v["x"]) is int


def test_validation_never_mutates() -> None:
    v = {kw("order-count"): 1, "extra": [1, 2]}
    before = dict(v)
    assert sigs.validate_output("{order_count :int}", v) == []
    assert v == before and list(v) == list(before)


ALIASES = [{kw("order_count"): 1}, {kw("order-count"): 1}, {"order_count": 1}, {"order-count": 1}]


@pytest.mark.parametrize("value", ALIASES, ids=lambda v: repr(next(iter(v))))
@pytest.mark.parametrize("declared", ["order_count", "order-count"])
def test_alias_keys_match_declared_field(value: dict[object, object], declared: str) -> None:
    assert sigs.validate_output(f"{{{declared} :int}}", value) == []


@pytest.mark.parametrize("name", ["a_b_c_d", "a-b_c-d_e"])
def test_alias_matching_for_many_separators(name: str) -> None:
    pub = name.replace("-", "_")
    t = f"{{{name} :int}}"
    assert ok(t, {pub.replace("_", "-"): 1})
    assert ok(t, {kw(pub): 1})
    errs = sigs.validate_output(t, {pub: 1, kw(pub.replace("_", "-")): 2})
    assert [e.kind for e in errs] == ["ambiguous"]
    assert sigs.validate_output(t, {pub: "x"})[0].path == [name]


@pytest.mark.parametrize("t", ["{order_count :int}", "{order_count :int?}", "{order_count :any}"])
def test_two_alias_keys_are_ambiguous(t: str) -> None:
    errs = sigs.validate_output(t, {"order_count": 1, kw("order-count"): 1})
    assert [(e.kind, list(e.path)) for e in errs] == [("ambiguous", ["order_count"])]


def test_alias_matching_is_case_sensitive_and_text_only() -> None:
    assert sigs.validate_output("{id :int}", {"ID": 1})[0].kind == "missing"
    assert sigs.validate_output("{id :int}", {1: 1})[0].kind == "missing"


NIL_VS_MISSING = [
    ("{a :int}", {"a": None}, "type"),
    ("{a :int}", {}, "missing"),
    ("{a :any}", {"a": None}, None),
    ("{a :any}", {}, "missing"),
    ("{a :int?}", {"a": None}, None),
    ("{a :int?}", {}, None),
    ("{a :any?}", {}, None),
    ("{a [:int]?}", {}, None),
    ("{a {b :int}?}", {"a": None}, None),
]


@pytest.mark.parametrize(("t", "v", "kind"), NIL_VS_MISSING)
def test_nil_vs_missing(t: str, v: object, kind: str | None) -> None:
    errs = sigs.validate_output(t, v)
    assert [e.kind for e in errs] == ([kind] if kind else [])


INPUTS = [
    ("(query :string, limit :int?) -> :any", {"query": "x"}, []),
    ("(query :string, limit :int?) -> :any", {"query": "x", "other": 1}, []),
    ("(query :string, limit :int?) -> :any", {kw("query"): "x", "limit": None}, []),
    ("(query :string, limit :int?) -> :any", {}, [("missing", ["query"])]),
    (
        "(query :string, limit :int?) -> :any",
        {"query": 1, "limit": "2"},
        [("type", ["query"]), ("type", ["limit"])],
    ),
    ("(user {id :int}) -> :any", {"user": {"id": "7"}}, [("type", ["user", "id"])]),
    ("() -> :any", {}, []),
    ("() -> :any", {"x": 1}, []),
    ("(a :int) -> :any", [1], [("type", [])]),
    ("(a :int) -> :any", None, [("type", [])]),
    ("(user-id :int) -> :any", {"user_id": 1}, []),
]


@pytest.mark.parametrize(("sig", "args", "want"), INPUTS)
def test_validate_input(sig: str, args: object, want: list[tuple[str, list[object]]]) -> None:
    errs = sigs.validate_input(sigs.parse(sig), args)
    assert [(e.kind, list(e.path)) for e in errs] == want


def test_missing_argument_message() -> None:
    (err,) = sigs.validate_input("(q :string) -> :any", {})
    assert err.message == "missing required argument"


def test_output_of_signature_with_params() -> None:
    s = sigs.parse("(q :string) -> {items [:string]}")
    assert sigs.validate_output(s, {"items": []}) == []
    assert sigs.validate_output(s, {"items": [1]})[0].path == ["items", 0]


def test_validator_compiled_once_per_signature() -> None:
    s = sigs.parse("{a :int}")
    assert s.check_output is s.check_output
    assert sigs.parse("{a :int}") is s  # parse results are cached
    assert s.check_output({"a": 1}) == []


def test_validators_do_not_need_the_parser() -> None:
    check = sigs.compile_type(sigs.ListOf(sigs.Prim("int")))
    assert check([1, 2]) == [] and check(["x"])[0].path == [0]


def test_runtime_vector_and_map_types() -> None:
    v = PVec([PMap.from_dict({kw("id"): 1})], 1)
    assert sigs.validate_output("[{id :int}]", v) == []


def test_set_is_not_a_list() -> None:
    (err,) = sigs.validate_output("[:int]", PSet.from_iterable([1]))
    assert err.got == "set"


def test_check_raises_contract_violation() -> None:
    with pytest.raises(sigs.ContractViolation) as info:
        sigs.check("(a :int) -> :int", {"a": "x"}, side="input", ref="crm/f")
    exc = info.value
    assert exc.code == "contract_violation"
    assert exc.errors[0].path == ["a"]
    assert str(exc).startswith("crm/f input a: expected int, got string")
    sigs.check("(a :int) -> :int", 5, side="output")
