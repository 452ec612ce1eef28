"""Every builtin, under every spelling and accepted argument count, with bad arguments.

The promise (issue 3 item 5): bad data of any kind gets a signal value or a typed error,
never a Python exception, a Python repr or a traceback in a message, and every error
names the place. A CI-sized slice of the sweep of `fuzz/strategies/bad_args.py` (the
campaign, `ptc fuzz bad-args`, makes every combination up to two arguments): for one
argument every kind of the pool, for two and three a seeded sample in which each kind
appears at least once in each position, and each refused count; each call inline, in a
`let` with the call on line 2, and (one argument, refused counts) through `apply`.
"""

from __future__ import annotations

import pytest

from fuzz.strategies.bad_args import (
    POOL,
    Arg,
    Target,
    applied,
    arg_counts,
    check,
    check_source,
    leak_in,
    target_calls,
    targets,
)
from ptc_runtime.builtins import BUILTINS

SEED = 20261130
#: Draws per argument count above one: the pool once per position, and no more.
SAMPLE = len(POOL)

TARGETS = targets()


@pytest.mark.parametrize("target", TARGETS, ids=[t.spelling for t in TARGETS])
def test_builtin_with_bad_arguments(target: Target) -> None:
    problems = []
    for row in target_calls(target, 1, SAMPLE, SEED):
        problems += check(target, row, applied=applied(target, row))
    assert not problems, "\n".join(p.render() for p in problems[:20])


def test_every_builtin_and_spelling_is_swept() -> None:
    assert {t.spec.name for t in TARGETS} == set(BUILTINS)
    spellings = {t.spelling for t in TARGETS}
    assert {"str/join", "set/union", "walk/postwalk", "regex/re-find"} <= spellings
    assert {"json/parse-string", "Math/abs", ".length", "java.util.Date."} <= spellings
    for target in TARGETS:
        counts, refused = arg_counts(target.spec)
        assert counts and all(target.spec.accepts(n) for n in counts), target.spelling
        assert not any(target.spec.accepts(n) for n in refused), target.spelling


def test_pool_arguments_evaluate_on_their_own() -> None:
    # a pool entry that failed by itself would make every call fail before the builtin
    for arg in POOL:
        assert check_source(f"[{arg.src}]", 1, 1, arg.fn) == [], arg.label


def test_the_checker_sees_each_kind_of_broken_promise() -> None:
    # the checker is the test: it must flag what it is there to flag
    assert leak_in("inc: 'NoneType' object is not iterable") == "NoneType"
    assert leak_in("first: expected a collection, got number") is None
    unplaced = check_source("(let [x 1]\n  (inc nil))", 1, 1, False)
    assert [p.kind for p in unplaced] == ["wrong_position"]
    assert check_source("(let [x 1]\n  (inc nil))", 2, 3, False) == []
    fine = Arg("one", "1")
    target = next(t for t in TARGETS if t.spelling == "inc")
    assert check(target, [fine], applied=True) == []
