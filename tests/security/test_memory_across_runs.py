"""Memory a run allocates does not outlive it: the keyword intern table is weak.

Three runs that each made 1,000 keywords of 100,000 characters left 287 MiB in the host
(the table kept every keyword ever made), and an isolated worker that had served such
runs failed a later innocent program. A keyword now lives as long as something holds it
(a value, a session's definitions, a compiled module's constants), and identity still
means equality for every live keyword.
"""

from __future__ import annotations

import gc
import threading
import tracemalloc
from collections.abc import Iterator

import pytest

from ptc_compiler import api
from ptc_runtime.seam import RunRequest, RunResult, Runtime
from ptc_runtime.values import INTERNED, Keyword, existing_keyword, keyword

LONG = "k" * 100_000
MINT = '(count (map (fn [i] (keyword (str i "-" (apply str (repeat 100000 "k"))))) (range 1000)))'


@pytest.fixture(scope="module", params=["in-process", "isolated"])
def runtime(request: pytest.FixtureRequest) -> Iterator[Runtime]:
    rt = api.runtime(request.param, pool_size=1)
    yield rt
    rt.close()


def _run(rt: Runtime, program: str, **kw: object) -> RunResult:
    # a memory test, not a time test: the longest deadline a run may have, so that a loaded
    # machine (and tracemalloc's slowdown) cannot time the 100 MB of keywords out
    request = RunRequest(program, timeout_ms=300_000, **kw)  # type: ignore[arg-type]
    return rt.run(rt.resolve(request))


def _long_keywords() -> int:
    return sum(1 for name in list(INTERNED) if len(name) > 50_000)


def test_keywords_of_a_run_are_gone_after_it() -> None:
    rt = api.runtime("in-process")
    try:
        _run(rt, '(keyword "warm")')  # compile caches and the like, before measuring
        gc.collect()
        tracemalloc.start()
        try:
            before = tracemalloc.get_traced_memory()[0]
            for _ in range(3):
                r = _run(rt, MINT)
                assert r.error is None and r.value == 1000, r.error
            gc.collect()
            grown = tracemalloc.get_traced_memory()[0] - before
        finally:
            tracemalloc.stop()
        assert _long_keywords() == 0
        assert grown < 8 * 2**20, f"{grown / 2**20:.1f} MiB kept"  # it was 287 MiB
    finally:
        rt.close()


def test_a_worker_that_served_keyword_runs_serves_the_next_program(runtime: Runtime) -> None:
    for _ in range(4):
        r = _run(runtime, MINT)
        assert r.error is None and r.value == 1000, r.error
    after = _run(runtime, "(+ 1 2)")
    assert after.error is None and after.value == 3, after.error
    if runtime.mode == "in-process":
        assert _long_keywords() == 0


def test_a_keyword_kept_by_a_session_stays_the_same_keyword(runtime: Runtime) -> None:
    owner = object()
    try:
        r = _run(runtime, '(def k (keyword "kept-across-runs")) (def m {k 1}) 1', state_owner=owner)
        assert r.error is None, r.error
        gc.collect()
        checks = (
            "[(= k :kept-across-runs) (get m :kept-across-runs)"
            ' (contains? #{:kept-across-runs} k) (get {"kept-across-runs" 2} k)'
            ' (get m "kept-across-runs")]'
        )
        r = _run(runtime, checks, state_owner=owner)
        assert r.error is None and r.value == [True, 1, True, 2, 1], r.error
    finally:
        runtime.release(owner)


def test_literal_keywords_of_compiled_code_stay_alive(runtime: Runtime) -> None:
    program = '(let [m {:only-in-this-program 1}] [(get m (keyword "only-in-this-program")) m])'
    for _ in range(2):  # the second run comes from the compile cache
        gc.collect()
        r = _run(runtime, program)
        assert r.error is None and r.value == [1, {"only-in-this-program": 1}], r.error


def test_interning_is_identity_while_alive_and_forgets_after() -> None:
    a = keyword("leaks-test-" + LONG)
    assert keyword("leaks-test-" + LONG) is a
    assert existing_keyword("leaks-test-" + LONG) is a
    del a
    gc.collect()
    assert existing_keyword("leaks-test-" + LONG) is None
    assert "leaks-test-" + LONG not in INTERNED
    b = Keyword("leaks-test-" + LONG)
    assert keyword("leaks-test-" + LONG) is b
    assert b.__reduce__() == (Keyword, ("leaks-test-" + LONG,))


def test_concurrent_interning_gives_one_keyword_per_name() -> None:
    """Threads minting and dropping the same names: whatever is alive at once is one
    object per name (a dying keyword's entry never removes its successor's)."""
    names = [f"race-{i}" for i in range(50)]
    seen: list[list[Keyword]] = []
    keep: list[Keyword] = []

    def mint(hold: bool) -> None:
        got = []
        for _ in range(200):
            for name in names:
                kw = keyword(name)
                if hold:
                    got.append(kw)
        seen.append(got)

    keep.extend(keyword(n) for n in names[:10])  # half alive throughout
    threads = [threading.Thread(target=mint, args=(i % 2 == 0,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for got in seen:
        for kw in got:
            assert kw is keyword(kw.name)
    for kw in keep:
        assert existing_keyword(kw.name) is kw
