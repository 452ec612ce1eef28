"""Runtime helpers of desugared destructuring (`ptc_runtime.destructure`)."""

from __future__ import annotations

import pytest

from ptc_runtime import destructure as d
from ptc_runtime.collections import PSet
from ptc_runtime.errors import PtcError
from ptc_runtime.values import keyword


def test_helpers_table() -> None:
    assert set(d.HELPERS) == {
        "ds_check_vec",
        "ds_nth",
        "ds_rest",
        "ds_rest_map",
        "ds_check_map",
        "ds_get",
        "ds_get_or",
        "ds_has",
        "ds_seq",
    }


@pytest.mark.parametrize("value", [None, [], [1, 2]], ids=["nil", "empty", "vector"])
def test_check_vec_accepts(value: object) -> None:
    assert d.check_vec(value) is value


@pytest.mark.parametrize(
    ("value", "kind"),
    [
        pytest.param({"a": 1}, "map", id="map"),
        pytest.param(5, "number", id="number"),
        pytest.param(keyword("k"), "keyword", id="keyword"),
        pytest.param(PSet.from_iterable([1]), "set", id="set"),
    ],
)
def test_check_vec_rejects(value: object, kind: str) -> None:
    with pytest.raises(PtcError) as info:
        d.check_vec(value)
    assert info.value.code == "destructure_error"
    assert info.value.message == f"expected a vector or nil, got {kind}"


def test_nth() -> None:
    assert d.nth([1, 2], 0) == 1
    assert d.nth([1, 2], 5) is None
    assert d.nth(None, 0) is None


def test_rest_is_nil_when_empty() -> None:
    assert d.rest([1, 2, 3], 1) == [2, 3]
    assert d.rest([1], 1) is None
    assert d.rest(None, 0) is None


def test_rest_map() -> None:
    k = keyword("k")
    assert d.rest_map([1, k, 2], 1) == {k: 2}
    assert d.rest_map([{k: 1}], 0) == {k: 1}
    assert d.rest_map([], 0) is None
    with pytest.raises(PtcError) as info:
        d.rest_map([k], 0)
    assert info.value.code == "destructure_error"


def test_rest_map_wraps_boolean_keys() -> None:
    out = d.rest_map([True, 1, 1, 2], 0)
    assert isinstance(out, dict) and len(out) == 2


def test_seq_or_nil() -> None:
    assert d.seq_or_nil([]) is None
    assert d.seq_or_nil(None) is None
    assert d.seq_or_nil([1]) == [1]
    assert d.seq_or_nil("ab") == ["a", "b"]


def test_check_map() -> None:
    m = {"a": 1}
    assert d.check_map(m) is m
    assert d.check_map(None) is None
    v = [10, 20]  # read by index (target §14 GAP-S118: Clojure's behaviour)
    assert d.check_map(v) is v
    assert [d.get_key(v, 1), d.get_key(v, 2), d.get_key(v, -1), d.get_key(v, keyword("a"))] == [
        20, None, None, None
    ]
    assert d.get_or(v, 1.0, "dflt") == "dflt"  # an exact int only, as `get` reads vectors
    assert d.get_or(v, True, "dflt") == "dflt"
    assert d.has_key(v, 0) and not d.has_key(v, 2)
    with pytest.raises(PtcError) as info:
        d.check_map("ab")
    assert info.value.message == "expected a map, a vector or nil, got string"


def test_flexible_reads() -> None:
    uid = keyword("user-id")
    m = {"user_id": 7}
    assert d.get_key(m, uid) == 7
    assert d.get_key({"name": 1}, keyword("name")) == 1
    assert d.get_key({keyword("a"): 1}, "a") == 1
    assert d.get_key(None, uid) is None
    assert d.get_key({}, uid) is None


def test_or_default_only_when_absent() -> None:
    k = keyword("a")
    assert d.get_or({}, k, 5) == 5
    assert d.get_or({k: None}, k, 5) is None
    assert d.get_or({"a": False}, k, 5) is False
    assert d.get_or(None, k, 5) == 5
    assert d.has_key({"a": None}, k)
    assert not d.has_key({}, k)
    assert not d.has_key(None, k)


def test_check_vec_reads_a_string_as_characters() -> None:
    # The string itself, so :as binds it (Clojure); the helpers read it by character.
    assert d.check_vec("ab") == "ab"
    assert [d.nth("ab", 0), d.nth("ab", 1), d.nth("ab", 2)] == ["a", "b", None]
    assert d.rest("héllo", 1) == ["é", "l", "l", "o"]
    assert d.rest("ab", 2) is None
    assert d.rest_map("xab", 1) == {"a": "b"}


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ('(let [[a :as s] "hi"] [a s])', '["h" "hi"]'),
        ('(let [[a & r :as s] "xyz"] [a r s])', '["x" ["y" "z"] "xyz"]'),
        ('((fn [[a :as s]] [a s]) "hi")', '["h" "hi"]'),
        ('(for [[a :as w] ["ab" "cd"]] [a w])', '[["a" "ab"] ["c" "cd"]]'),
        ('(let [{[a :as s] :k} {:k "pq"}] [a s])', '["p" "pq"]'),
        ('(let [[a :as s] ""] [a s])', '[nil ""]'),
    ],
)
def test_vector_as_binds_the_string_itself(source: str, expected: str) -> None:
    # Found by the Clojure campaign's probes: :as bound the characters as a vector.
    import ptc_compiler

    result = ptc_compiler.run(source)
    assert result.ok, result.error
    assert ptc_compiler.pr_str(result.value) == expected
