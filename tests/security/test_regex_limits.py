"""Regex limits in both modes: whole subjects are searched (nothing is cut silently),
backtracking is stopped by the time budget even on long subjects, and compiling a
pattern is bounded (pattern size, nesting, counted-repetition expansion) for literals
and `re-pattern` alike."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from ptc_compiler import api
from ptc_runtime.context import CancelToken
from ptc_runtime.errors import PtcError
from ptc_runtime.regexp import MAX_REGEX_EXPANSION, MAX_REGEX_NESTING, check_complexity
from ptc_runtime.seam import RunRequest, RunResult, Runtime

WORDS = 200_000
TEXT = " ".join(f"wd{i % 997}x" for i in range(WORDS))  # ~1.4 MB


@pytest.fixture(scope="module", params=["in-process", "isolated"])
def runtime(request: pytest.FixtureRequest) -> Iterator[Runtime]:
    rt = api.runtime(request.param, pool_size=1)
    yield rt
    rt.close()


def _run(rt: Runtime, program: str, timeout_ms: int = 10_000, **kw: object) -> RunResult:
    return rt.run(rt.resolve(RunRequest(program, timeout_ms=timeout_ms, **kw)))  # type: ignore[arg-type]


def test_the_text_is_long_enough() -> None:
    assert len(TEXT) > 1_200_000


@pytest.mark.parametrize(
    "program",
    [
        '(count (str/split data/text #"\\s+"))',  # the C fast path
        '(count (str/split data/text #"[ ]+"))',  # the engine, match by match
        '(count (re-seq #"\\w+" data/text))',
        '(count (re-split #" " data/text))',
        '(count (clojure.string/split data/text #" +" -1))',
    ],
)
def test_split_and_seq_see_every_word(runtime: Runtime, program: str) -> None:
    r = _run(runtime, program, data={"text": TEXT})
    assert r.error is None, r.error
    assert r.value == WORDS


def test_a_match_past_the_old_cut_is_found(runtime: Runtime) -> None:
    text = "a" * 1_000_000 + "needle"
    r = _run(
        runtime,
        '[(re-find #"ne+dle" data/t) (count (re-matches #"a+needle" data/t))]',
        data={"t": text},
    )
    assert r.error is None, r.error
    assert r.value == ["needle", len(text)]


def test_finditer_follows_java_find(runtime: Runtime) -> None:
    # Java's Matcher.find: after an empty match the next search starts one later.
    r = _run(runtime, '[(re-seq #"|a" "a") (re-seq #"a*?" "aa") (re-seq #"x*" "axxb")]')
    assert r.error is None, r.error
    assert r.value == [["", ""], ["", "", ""], ["", "xx", "", ""]]


@pytest.mark.parametrize(
    "program",
    [
        '(re-find #"(a|aa)+$" data/s)',
        '(re-matches #"(a+)+$" data/s)',
        '(count (re-seq #"(x+x+)+y" data/s))',
        '(str/split data/s #"(a|aa)+$")',
    ],
)
def test_backtracking_on_a_long_subject_is_stopped(runtime: Runtime, program: str) -> None:
    data = {"s": "a" * 200_000 + "!" + "x" * 5_000}
    start = time.monotonic()
    r = _run(runtime, program, data=data)
    assert time.monotonic() - start < 10
    assert r.error is not None, r.value
    assert (r.error.kind, r.error.code) == ("exception", "runtime_error"), r.error
    assert "Regex complexity limit" in r.error.message


def test_the_run_deadline_bounds_a_regex_call(runtime: Runtime) -> None:
    start = time.monotonic()
    r = _run(runtime, '(re-find #"(a|aa)+$" data/s)', timeout_ms=100, data={"s": "a" * 5000 + "b"})
    assert time.monotonic() - start < 5
    assert r.error is not None
    assert r.error.kind == "timeout", r.error


def test_cancel_stops_a_long_regex_scan(runtime: Runtime) -> None:
    token = CancelToken()
    import threading

    threading.Timer(0.3, token.cancel).start()
    start = time.monotonic()
    r = _run(
        runtime,
        '(loop [n 0] (if (< n 1000000) (recur (+ n (count (re-seq #"a" data/t)))) n))',
        timeout_ms=60_000,
        data={"t": "a" * 100_000},
        cancel=token,
    )
    assert time.monotonic() - start < 10
    assert r.error is not None and r.error.kind == "abort", r.error


BOMBS = [
    "(?:(?:(?:a{1000}){1000}){1000})",
    "(?:a{1000}){1000}",
    "(a|b){100000}",
    "x{99999999999999999999}",
    "(?:a{1000}){,1000}",
    "(" * (MAX_REGEX_NESTING + 1) + "a" + ")" * (MAX_REGEX_NESTING + 1),
]


@pytest.mark.parametrize("pattern", BOMBS)
def test_a_regex_literal_bomb_is_refused_at_analysis(runtime: Runtime, pattern: str) -> None:
    start = time.monotonic()
    r = _run(runtime, f'(re-find #"{pattern}" "a")')
    assert time.monotonic() - start < 10
    assert r.error is not None and r.error.code == "invalid_form", r.error
    assert "regex" in r.error.message and "limit exceeded" in r.error.message
    assert (
        f"{MAX_REGEX_EXPANSION:,}" in r.error.message or str(MAX_REGEX_NESTING) in r.error.message
    )


@pytest.mark.parametrize("pattern", BOMBS)
def test_a_re_pattern_bomb_is_refused(runtime: Runtime, pattern: str) -> None:
    start = time.monotonic()
    r = _run(runtime, "(re-pattern data/p)", data={"p": pattern})
    assert time.monotonic() - start < 10
    assert r.error is not None, r.value
    assert (r.error.kind, r.error.code) == ("exception", "regex_too_complex"), r.error
    assert "limit exceeded" in r.error.message


@pytest.mark.parametrize(
    "pattern",
    [
        "(?:a{1000}){100}",  # exactly at the expansion limit
        "\\d{1,3}(?:,\\d{3})*",
        "(?<year>\\d{4})-(?<m>\\d{2})",
        "(?i)[a-z{5}]{3}",
        "(" * MAX_REGEX_NESTING + "a" + ")" * MAX_REGEX_NESTING,
        "\\p{L}{2,}",
    ],
)
def test_ordinary_patterns_compile(pattern: str) -> None:
    check_complexity(pattern)


def test_expansion_is_counted_through_groups() -> None:
    check_complexity("(?:ab{10}){1000}")  # (1 + 10) * 1000 = 11,000
    with pytest.raises(PtcError) as e:
        check_complexity("(?:ab{100}){1000}")  # 101,000
    assert e.value.code == "regex_too_complex"
