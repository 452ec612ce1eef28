"""Flexible key reads (target §4.6) and the one-logical-key rule for writes."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from ptc_runtime.collections import PMap, PSet, to_key
from ptc_runtime.lookup import (
    NOT_FOUND,
    contains_key,
    find_key,
    get_flexible,
    get_in,
    get_path,
    get_path1,
    get_path2,
    get_path3,
    get_path4,
    get_path5,
    get_path_or2,
    get_path_or3,
    get_path_or4,
    get_path_or5,
)
from ptc_runtime.rt import kfield, kfield_dash
from ptc_runtime.values import INTERNED, Keyword, keyword

A = keyword("a")
UID = keyword("user-id")

READS = [
    pytest.param({A: 1}, A, 1, id="exact-keyword"),
    pytest.param({"a": 1}, A, 1, id="keyword-finds-string"),
    pytest.param({A: 1}, "a", 1, id="string-finds-keyword"),
    pytest.param({"user_id": 7}, UID, 7, id="dash-to-underscore-string"),
    pytest.param({keyword("user_id"): 7}, UID, 7, id="dash-to-underscore-keyword"),
    pytest.param({"user-id": 7}, UID, 7, id="string-spelling"),
    pytest.param({A: 9, "a": 1}, A, 9, id="exact-wins"),
    pytest.param({A: 9, "a": 1}, "a", 1, id="exact-wins-string"),
    pytest.param({keyword("turn_summaries"): 3}, "turn-summaries", 3, id="string-dash"),
    pytest.param({A: None}, A, None, id="present-nil"),
    pytest.param({1: "x"}, 1.0, "x", id="int-float-key"),
    pytest.param({1: "x"}, True, "d", id="bool-not-int"),
    pytest.param({to_key(True): "t"}, True, "t", id="bool-key"),
    pytest.param({to_key([1, 2]): "v"}, [1, 2], "v", id="literal-vector-key"),
    pytest.param({A: {keyword("b"): 2}}, [A, keyword("b")], 2, id="vector-key-is-path"),
    pytest.param(PMap.from_dict({"a": 1}), A, 1, id="pmap"),
    pytest.param([10, 20], 1, 20, id="vector-index"),
    pytest.param([10, 20], 2, "d", id="vector-out-of-range"),
    pytest.param([10, 20], -1, "d", id="vector-negative"),
    pytest.param([10, 20], True, "d", id="vector-bool-index"),
    pytest.param(None, A, "d", id="nil"),
    pytest.param(PSet.from_iterable([1, 2]), 2, 2, id="set-member"),
    pytest.param(PSet.from_iterable([1, 2]), 3, "d", id="set-nonmember"),
    pytest.param("abc", 1, "b", id="string-index"),
    pytest.param(5, A, "d", id="number"),
    pytest.param({}, A, "d", id="missing"),
]


@pytest.mark.parametrize(("m", "k", "want"), READS)
def test_get_flexible(m: object, k: object, want: object) -> None:
    assert get_flexible(m, k, "d") == want


def test_keyword_call_uses_flexible_lookup() -> None:
    assert UID({"user_id": 5}) == 5
    assert A({}, 0) == 0


def test_find_key_does_not_intern_keywords() -> None:
    name = "never-seen-before-key-xyz"
    assert find_key({"a": 1}, name) is NOT_FOUND
    assert name not in INTERNED


def test_get_in() -> None:
    m = {"a": [{"b": 1}, {"b": None}]}
    assert get_in(m, [A, 0, keyword("b")]) == 1
    assert get_in(m, [A, 1, keyword("b")], "d") is None
    assert get_in(m, [A, 5, keyword("b")], "d") == "d"
    assert get_in(m, [], "d") is m
    assert get_in(m, None) is m
    assert get_in(None, [A], "d") == "d"


def test_get_in_is_get_flexible_level_by_level() -> None:
    # every spelling a flexible read accepts (keyword, string, `_` for `-`), both present
    # or one of them, at every level; nil and false values are found, not defaulted
    rnd = random.Random(3)
    spellings = [keyword("a-b"), "a-b", keyword("a_b"), "a_b", keyword("c"), "c", 0]
    for _ in range(3000):
        m: object = rnd.choice([None, False, 1, "leaf"])
        path: list[object] = []
        for _ in range(rnd.randint(0, 3)):
            keys = rnd.sample(spellings, rnd.randint(0, 3))
            m = {to_key(k): (m if i == 0 else rnd.choice([None, 7])) for i, k in enumerate(keys)}
            path.insert(0, rnd.choice(spellings))
        want: object = m
        for k in path:
            want = get_flexible(want, k, NOT_FOUND)
            if want is NOT_FOUND:
                want = "default"
                break
        assert get_in(m, path, "default") == want


def test_get_path_is_get_in() -> None:
    # `rt_get_path` (the compiled `(get-in m [k ...])` of a literal path) against `get_in`
    # on nested maps holding every spelling, keys that equal others in Python (1, 1.0,
    # true), unhashable keys (vectors, maps, sets: their probe raises), persistent maps,
    # vectors, strings, sets and nil at every level
    rnd = random.Random(5)
    keys: list[object] = [
        keyword("a-b"),
        "a-b",
        keyword("a_b"),
        "a_b",
        keyword("c"),
        "c",
        0,
        1,
        1.0,
        True,
        None,
        [1],
        [keyword("c")],
        PMap.from_dict({"c": 1}),
        PSet.from_iterable([1]),
    ]
    for _ in range(4000):
        m: object = rnd.choice([None, False, 1, "leaf", [5, 6], PSet.from_iterable([0, 1])])
        path: list[object] = []
        for _ in range(rnd.randint(0, 4)):
            present = rnd.sample(keys, rnd.randint(0, 4))
            d = {to_key(k): (m if i == 0 else rnd.choice([None, 7])) for i, k in enumerate(present)}
            m = rnd.choice([d, d, d, PMap.from_dict(d), [m, d]])
            path.insert(0, rnd.choice(keys))
        want = get_in(m, path)
        got = get_path(m, *path)
        assert got is want or got == want, (m, path)
        assert type(got) is type(want)


UNROLLED: dict[int, Callable[..., object]] = {
    1: get_path1,
    2: get_path2,
    3: get_path3,
    4: get_path4,
    5: get_path5,
}


WITH_DEFAULT: dict[int, Callable[..., object]] = {
    2: get_path_or2,
    3: get_path_or3,
    4: get_path_or4,
    5: get_path_or5,
}


def _name(k: object) -> str | None:
    """What the compiler passes after a path key: a keyword's name without `-`, else None."""
    return k.name if isinstance(k, Keyword) and "-" not in k.name else None


def test_unrolled_get_paths_are_get_in() -> None:
    # `rt_get_path1` .. `rt_get_path5` (the compiled `(get-in m [k1 .. kn])` of a literal
    # path, each key with its name when a keyword without `-`) against `get_in`, on nested
    # maps holding the spellings (both, one, none), keys Python conflates (1, 1.0, true,
    # false, 0), nil keys and values, unhashable keys (their probe raises), persistent
    # maps, vectors, sets, strings and nil at any level; mostly paths that lead somewhere
    rnd = random.Random(17)
    keys: list[object] = [
        keyword("a"),
        "a",
        keyword("b"),
        "b",
        keyword("a-b"),
        "a-b",
        keyword("a_b"),
        "a_b",
        0,
        1,
        1.0,
        True,
        False,
        None,
        [1],
        [keyword("a")],
        PMap.from_dict({"a": 1}),
        PSet.from_iterable([1]),
    ]
    leaves: list[object] = [None, False, 0, 1, "leaf", [5, 6], PSet.from_iterable([0, 1])]
    for _ in range(6000):
        n = rnd.randint(1, 5)
        path = [rnd.choice(keys) for _ in range(n)]
        m: object = rnd.choice(leaves)
        for k in reversed(path):
            near = [k, rnd.choice(keys)]
            if isinstance(k, Keyword):  # the other spellings of the key read here
                near += [k.name, k.name.replace("-", "_")]
            present = rnd.sample(near + keys, rnd.randint(0, 4))
            if rnd.random() < 0.8:
                present.insert(0, rnd.choice(near))
            d = {
                to_key(x): (m if i == 0 else rnd.choice([None, 7, m]))
                for i, x in enumerate(present)
            }
            m = rnd.choice([d, d, d, d, PMap.from_dict(d), [m, d], None])
        args = [x for k in path for x in (k, _name(k))]
        want = get_in(m, path)
        got = UNROLLED[n](m, *args)
        assert got is want or got == want, (m, path)
        assert type(got) is type(want)
        if n >= 2:  # with a default: given when a key is missing, not for a nil value
            want = get_in(m, path, "dflt")
            got = WITH_DEFAULT[n](m, *args, "dflt")
            assert got is want or got == want, (m, path)
            assert type(got) is type(want)


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_unrolled_get_paths_tell_conflated_keys_apart(n: int) -> None:
    # at each level in turn, a key Python finds under another (true and 1, false and 0)
    # or a nil value, on a path that is otherwise all there: as `get_in`
    for i in range(n):
        for key, stored, value in [
            (True, 1, "one"),
            (False, 0, "zero"),
            (1, to_key(True), "true"),
            (A, "a", None),
            ("a", A, None),
        ]:
            path: list[object] = [A] * n
            path[i] = key
            m: object = "leaf"
            for j in reversed(range(n)):
                m = {stored: m if value is not None else None} if j == i else {"a": m}
            args = [x for k in path for x in (k, _name(k))]
            for default in ([], ["dflt"]):
                want = get_in(m, path, *default)
                if default and n >= 2:
                    got = WITH_DEFAULT[n](m, *args, *default)
                elif not default:
                    got = UNROLLED[n](m, *args)
                else:
                    continue
                assert got == want and type(got) is type(want), (m, path, default)


def test_kfield_is_get_flexible_for_names_without_dash() -> None:
    # `rt_kfield` (the compiled `(:k m)` / `(get m :k)` of a name without `-`) against
    # the definition, on dicts holding any mix of the spellings a flexible read knows
    # (keyword, string, `_`/`-` variants: they must not be found for such names), nil
    # values, persistent maps and non-maps
    rnd = random.Random(11)
    names = ["a", "a_b", "ab", "a/b"]
    spellings: list[object] = [*(keyword(n) for n in names), *names, "a-b", keyword("a-b")]
    for _ in range(3000):
        keys = rnd.sample(spellings, rnd.randint(0, 4))
        d = {to_key(k): rnd.choice([None, False, 0, "v", [1]]) for k in keys}
        m: object = rnd.choice([d, d, d, PMap.from_dict(d), None, [1, 2], "ab", 5])
        k = keyword(rnd.choice(names))
        for default in ([], ["dflt"]):
            want = get_flexible(m, k, *default)
            got = kfield(m, k, k.name, *default)
            assert got is want or got == want, (m, k, default)
            assert type(got) is type(want)


def test_kfield_dash_is_get_flexible_for_names_with_dash() -> None:
    # `rt_kdash` (the compiled `(:k m)` / `(get m :k)` of a name with `-`, given the name,
    # the keyword and string of its `_` spelling) against the definition, on dicts holding
    # any mix of the spellings (and ones a flexible read must not find: other mixes of
    # `-`/`_`), nil values, persistent maps and non-maps
    rnd = random.Random(13)
    names = ["a-b", "a-b-c", "-", "a--b", "x-"]
    for _ in range(4000):
        name = rnd.choice(names)
        alt = name.replace("-", "_")
        odd = name.replace("-", "_", 1)  # one `-` replaced: not a spelling of `name`
        spellings: list[object] = [keyword(name), name, keyword(alt), alt, keyword(odd), odd]
        keys = rnd.sample(spellings, rnd.randint(0, 4))
        d = {to_key(x): rnd.choice([None, False, 0, "v", [1], i]) for i, x in enumerate(keys)}
        m: object = rnd.choice([d, d, d, PMap.from_dict(d), None, [1, 2], "ab", 5])
        k = keyword(name)
        for default in ([], ["dflt"]):
            want = get_flexible(m, k, *default)
            got = kfield_dash(m, k, name, keyword(alt), alt, *default)
            assert got is want or got == want, (m, k, default)
            assert type(got) is type(want)


def test_contains_key() -> None:
    assert contains_key({"a": None}, A)
    assert not contains_key({"b": 1}, A)
    assert contains_key(PSet.from_iterable([1]), 1.0)
    assert contains_key(["a", "b"], "b")
    assert not contains_key(None, A)
    assert contains_key("abc", 2) and not contains_key("abc", 3)
