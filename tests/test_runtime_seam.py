"""The seed-003 run contract (ptc_runtime.seam), in both execution modes."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from timebounds import HANG_GUARD_S, Clock, assert_prompt  # tests/timebounds.py

from ptc_compiler import api
from ptc_runtime.bindings import BindingErrorClass, BindingNamespace, BindingRejection
from ptc_runtime.context import CancelToken
from ptc_runtime.limits import Limits, encode_json, measure
from ptc_runtime.seam import MISSING, RunRequest, RunResult, Runtime


@pytest.fixture(scope="module", params=["in-process", "isolated"])
def rt(request: pytest.FixtureRequest) -> Iterator[Runtime]:
    runtime = api.runtime(request.param, pool_size=2)
    yield runtime
    runtime.close()


def go(rt: Runtime, program: str, **kw: Any) -> RunResult:
    return rt.run(rt.resolve(RunRequest(program, **kw)))


def tools(**fns: Any) -> tuple[BindingNamespace, ...]:
    return (BindingNamespace("tool", fns),)


# ---------------------------------------------------------------- resolve


def test_resolve_defaults_and_caps() -> None:
    runtime = api.runtime()
    assert runtime.resolve(RunRequest("1")).timeout_ms == 1000
    assert runtime.resolve(RunRequest("1", timeout_ms=None)).timeout_ms is None
    assert runtime.resolve(RunRequest("1", timeout_ms=10**9)).timeout_ms == 300_000
    assert runtime.resolve(RunRequest("1", timeout_ms=5)).timeout_ms == 5
    assert runtime.resolve(RunRequest("1")).max_steps == 10_000_000
    assert runtime.timeout == (1000, 300_000)


@pytest.mark.parametrize(
    "request_",
    [
        RunRequest("1", timeout_ms=0),
        RunRequest("1", timeout_ms=-5),
        RunRequest("1", timeout_ms=float("nan")),
        RunRequest("1", timeout_ms=float("inf")),
        RunRequest("1", max_steps=0),
        RunRequest("1", bindings=(BindingNamespace("tool", {}), BindingNamespace("tool", {}))),
    ],
)
def test_resolve_rejects_invalid_values(request_: RunRequest) -> None:
    with pytest.raises(ValueError):
        api.runtime().resolve(request_)


@pytest.mark.parametrize(
    "request_",
    [
        RunRequest(1),  # type: ignore[arg-type]
        RunRequest("1", timeout_ms="10"),  # type: ignore[arg-type]
        RunRequest("1", timeout_ms=True),  # type: ignore[arg-type]
        RunRequest("1", data=[1]),  # type: ignore[arg-type]
        RunRequest("1", discard_completion=1),  # type: ignore[arg-type]
    ],
)
def test_resolve_rejects_wrong_types(request_: RunRequest) -> None:
    with pytest.raises(TypeError):
        api.runtime().resolve(request_)


def test_no_deadline_can_be_refused() -> None:
    runtime = api.runtime(limits=Limits(allow_no_deadline=False))
    with pytest.raises(ValueError):
        runtime.resolve(RunRequest("1", timeout_ms=None))


@pytest.mark.parametrize(
    "bad",
    [
        lambda: BindingNamespace("data", {}),
        lambda: BindingNamespace("1x", {}),
        lambda: BindingNamespace("tool", {"": print}),
        lambda: BindingNamespace("tool", {"x": 1}),  # type: ignore[dict-item]
        lambda: BindingErrorClass("Bad-Name", "member"),
        lambda: BindingErrorClass("ToolError", "__proto__"),
        lambda: BindingErrorClass("ToolError", "message"),
        lambda: Limits(max_steps=0),
    ],
)
def test_invalid_options_raise_clear_errors(bad: Any) -> None:
    with pytest.raises(ValueError):
        bad()


def test_run_requires_a_resolved_spec() -> None:
    with pytest.raises(TypeError):
        api.runtime().run(RunRequest("1"))  # type: ignore[arg-type]


# ---------------------------------------------------------------- results


def test_value_output_and_outcomes(rt: Runtime) -> None:
    r = go(rt, '(println "a") (println "b" 1) {:k [1 2.5 nil true "s"]}')
    assert r.ok and r.value == {"k": [1, 2.5, None, True, "s"]}
    assert [o.text for o in r.output] == ["a\n", "b 1\n"] and r.outcome == "value"
    r = go(rt, "(return 5)")
    assert r.ok and r.value == 5 and r.outcome == "return"
    r = go(rt, '(println "x") (fail {:why "no"})')
    assert not r.ok and r.outcome == "fail" and r.fail_value == {"why": "no"}
    assert r.error is not None and r.error.kind == "exception" and r.error.code == "fail"
    assert r.text == "x\n" and r.value is MISSING


def test_discard_completion(rt: Runtime) -> None:
    r = go(rt, "(fn [] 1)", discard_completion=True)
    assert r.ok and r.value is MISSING


@pytest.mark.parametrize(
    ("program", "kind", "code"),
    [
        ("(+ 1", "exception", None),
        ("(undefined-thing)", "exception", "unbound_var"),
        ("(/ 1 0)", "exception", None),
        ("(loop [] (recur))", "timeout", "step_limit_exceeded"),
        ("##NaN", "invalid-output", "invalid_output"),
        ("(fn [] 1)", "invalid-output", "invalid_output"),
        ('{:a 1 "a" 2}', "invalid-output", "invalid_output"),
        ("(doseq [i (range 300000)] (println i))", "output-limit", "output_limit"),
        ('(apply str (repeat 200000 "xxxxxxxxxx"))', "output-limit", "output_limit"),
    ],
)
def test_failure_taxonomy(rt: Runtime, program: str, kind: str, code: str | None) -> None:
    r = go(rt, program, max_steps=100_000 if "recur" in program else None, timeout_ms=3000)
    assert r.error is not None and r.error.kind == kind, r.error
    if code is not None:
        assert r.error.code == code
    assert len(r.error.message) <= 1024 and "Traceback" not in r.error.message


def test_deadline_is_timeout(rt: Runtime) -> None:
    clock = Clock()
    r = go(rt, "(loop [i 0] (recur (inc i)))", timeout_ms=150)
    assert r.error is not None and r.error.kind == "timeout"
    assert_prompt(clock, 2.0, in_process=rt.mode == "in-process")


def test_no_deadline_runs_to_the_step_budget(rt: Runtime) -> None:
    r = go(rt, "(loop [i 0] (recur (inc i)))", timeout_ms=None, max_steps=50_000)
    assert r.error is not None and r.error.code == "step_limit_exceeded"


def test_cancel_from_another_thread_is_abort(rt: Runtime) -> None:
    token = CancelToken()
    threading.Timer(0.1, token.cancel).start()
    start = time.monotonic()
    # A budget the loop cannot spend in 0.1 s (an empty recur costs ~10 ns a step).
    r = go(rt, "(loop [] (recur))", cancel=token, timeout_ms=10_000, max_steps=10**12)
    # "abort": the cancel, not the 10 s deadline, ended it
    assert r.error is not None and r.error.kind == "abort"
    assert time.monotonic() - start < HANG_GUARD_S
    assert go(rt, "(+ 1 1)").value == 2


def test_runs_on_any_thread(rt: Runtime) -> None:
    results: list[Any] = []

    def work(i: int) -> None:
        results.append(go(rt, f"(reduce + (range {i}))").value)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == sorted(sum(range(i)) for i in range(8))


# ---------------------------------------------------------------- bindings


def test_tool_call_exact_names_and_json(rt: Runtime) -> None:
    seen: list[Any] = []

    def echo(args: Any) -> Any:
        seen.append(args)
        return {"got": args, "list": [1, 2]}

    r = go(rt, "(tool/echo {:user-id 1 :tags [:a] :kw :x})", bindings=tools(echo=echo))
    assert r.ok and r.value["got"] == {"user_id": 1, "tags": ["a"], "kw": "x"}
    assert seen == [{"user_id": 1, "tags": ["a"], "kw": "x"}]
    # a set has no lossless JSON form: refused with the path, the tool is not called
    r = go(rt, "(tool/echo {:user-id 1 :tags #{:a}})", bindings=tools(echo=echo))
    assert r.error is not None and r.error.code == "invalid_tool_args"
    assert "a set at [:tags]" in r.error.message and len(seen) == 1
    r = go(rt, "(tool/__class__ {})", bindings=tools(__class__=lambda a: "plain name"))
    assert r.value == "plain name"


def test_tool_rejection_with_error_class_names_member(rt: Runtime) -> None:
    def deny(args: Any) -> Any:
        raise BindingRejection("not allowed")

    ns = BindingNamespace("tool", {"delete": deny}, BindingErrorClass("ToolError", "member"))
    r = go(rt, "(tool/delete {:id 1})", bindings=(ns,))
    assert r.error is not None and r.error.kind == "exception"
    assert "ToolError" in r.error.message and "delete" in r.error.message
    assert r.error.details == {"error_class": "ToolError", "member": "delete"}


def test_tool_errors_are_bounded_and_typed(rt: Runtime) -> None:
    def boom(args: Any) -> Any:
        raise RuntimeError("x" * 10_000)

    r = go(rt, "(tool/boom {})", bindings=tools(boom=boom))
    assert r.error is not None and r.error.code == "tool_error"
    assert len(r.error.message) < 600


def test_tool_byte_caps_and_call_budget(rt: Runtime) -> None:
    ns = tools(echo=lambda a: a, big=lambda a: "y" * 2_000_000)
    r = go(rt, '(tool/echo {:x (apply str (repeat 300000 "x"))})', bindings=ns)
    assert r.error is not None and r.error.kind == "protocol"
    r = go(rt, "(tool/big {})", bindings=ns)
    assert r.error is not None and r.error.code == "tool_result_too_large"
    r = go(rt, "(doseq [i (range 300)] (tool/echo {:i i}))", bindings=ns)
    assert r.error is not None and r.error.code == "tool_call_limit"


def test_unknown_tool_is_an_analysis_error(rt: Runtime) -> None:
    r = go(rt, "(tool/nope {})", bindings=tools(echo=lambda a: a))
    assert r.error is not None and r.error.code == "unknown_tool"


# ---------------------------------------------------------------- state owners


def test_owner_definitions_history_and_commit(rt: Runtime) -> None:
    owner = object()
    try:
        assert go(rt, "(def x 10) (defn f [y] (+ x y)) (f 1)", state_owner=owner).value == 11
        assert go(rt, "(f 5)", state_owner=owner).value == 15
        assert go(rt, "[*1 *2]", state_owner=owner).value == [15, 11]
        # fail discards the run's definitions and history
        assert go(rt, "(def x 100) (fail :no)", state_owner=owner).outcome == "fail"
        assert go(rt, "x", state_owner=owner).value == 10
        # an error discards everything, even definitions made before it
        assert go(rt, "(def z 1) (/ 1 0)", state_owner=owner).error is not None
        assert go(rt, "z", state_owner=owner).error.code == "unbound_var"  # type: ignore[union-attr]
        # return commits definitions, not history
        assert go(rt, "(def x 5) (return (f 1))", state_owner=owner).value == 6
        assert go(rt, "[*1 x]", state_owner=owner).value == [10, 5]
        # an invalid completion fails the run and commits nothing
        assert go(rt, "(def w 1) (fn [] 1)", state_owner=owner).error is not None
        assert go(rt, "w", state_owner=owner).error is not None
    finally:
        rt.release(owner)
    owner2 = object()
    try:
        assert go(rt, "(or *1 :fresh)", state_owner=owner2).value == "fresh"
    finally:
        rt.release(owner2)


def test_release_drops_the_environment(rt: Runtime) -> None:
    owner = object()
    go(rt, "(def x 1)", state_owner=owner)
    rt.release(owner)
    assert go(rt, "x", state_owner=owner).error is not None
    rt.release(owner)
    rt.release(object())  # unknown owners are fine


def test_memory_ceiling_commits_nothing() -> None:
    for mode in ("in-process", "isolated"):
        runtime = api.runtime(mode, limits=Limits(memory_bytes=10_000, history_bytes=5_000))
        owner = object()
        try:
            r = go(runtime, "(def big (vec (range 5000))) 1", state_owner=owner)
            assert r.error is not None and r.error.code == "memory_exceeded"
            assert go(runtime, "big", state_owner=owner).error is not None
            r = go(runtime, "(vec (range 2000))", state_owner=owner)
            assert r.error is not None and r.error.code == "history_exceeded"
            assert go(runtime, "(or *1 :none)", state_owner=owner).value == "none"
        finally:
            runtime.close()


def test_runs_of_one_owner_are_serialized() -> None:
    runtime = api.runtime()
    owner = object()
    active = []
    overlap = []

    def tool(args: Any) -> Any:
        active.append(1)
        if len(active) > 1:
            overlap.append(1)
        time.sleep(0.05)
        active.pop()
        return 1

    def work() -> None:
        go(runtime, "(tool/t {})", state_owner=owner, bindings=tools(t=tool))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not overlap


def test_environment_initializer() -> None:
    for mode in ("in-process", "isolated"):
        runtime = api.runtime(mode)
        dispose = runtime.register_environment_initializer(
            '(defn greet [n] (str "hi " n)) (println "init")'
        )
        with pytest.raises(RuntimeError):
            runtime.register_environment_initializer("1")
        try:
            owner = object()
            r = go(runtime, '(greet "a")', state_owner=owner)
            assert r.value == "hi a" and r.text == "init\n"
            r = go(runtime, '(greet "b")', state_owner=owner)
            assert r.value == "hi b" and r.text == ""  # evaluated once per environment
            assert go(runtime, '(greet "c")').value == "hi c"  # one-shot envs get it too
        finally:
            dispose()
            dispose()  # idempotent
        with pytest.raises(RuntimeError):
            go(runtime, "1")


def test_initializer_after_first_run_is_refused() -> None:
    runtime = api.runtime()
    go(runtime, "1")
    with pytest.raises(RuntimeError):
        runtime.register_environment_initializer("(def a 1)")


def test_initializer_failure_discards_environment() -> None:
    runtime = api.runtime()
    runtime.register_environment_initializer("(def a 1) (/ 1 0)")
    owner = object()
    r = go(runtime, "a", state_owner=owner)
    assert r.error is not None and "initializer" in r.error.message


# ---------------------------------------------------------------- async and parallel


def test_arun_awaits_coroutine_tools() -> None:
    async def fetch(args: Any) -> Any:
        await asyncio.sleep(0.01)
        return {"id": args["id"]}

    async def main() -> Any:
        return await api.arun("(mapv #(tool/fetch {:id %}) [1 2])", tools={"fetch": fetch})

    r = asyncio.run(main())
    assert r.ok and r.value == [{"id": 1}, {"id": 2}]


def test_sync_run_accepts_coroutine_tools() -> None:
    async def fetch(args: Any) -> Any:
        return 7

    assert api.run("(tool/fetch {})", tools={"fetch": fetch}).value == 7


def test_arun_cancellation_aborts() -> None:
    async def main() -> None:
        # A budget the loop cannot spend before the cancellation (~10 ns a step).
        src = "(loop [] (recur))"
        task = asyncio.ensure_future(api.arun(src, timeout_ms=10_000, max_steps=10**12))
        await asyncio.sleep(0.1)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(main())


def test_pmap_runs_tool_calls_concurrently(rt: Runtime) -> None:
    # Each call waits at a two-party barrier: calls made one at a time never meet there
    # (the barrier breaks after the hang guard and the run fails), whatever the load.
    pair = threading.Barrier(2, timeout=HANG_GUARD_S / 2)

    def slow(args: Any) -> Any:
        pair.wait()
        return args["i"]

    r = go(rt, "(pmap #(tool/slow {:i %}) (range 8))", bindings=tools(slow=slow),
           timeout_ms=HANG_GUARD_S * 1000)
    assert r.value == list(range(8)), r.error


def test_async_pmap_concurrency() -> None:
    pair: asyncio.Barrier | None = None

    async def slow(args: Any) -> Any:
        assert pair is not None
        # awaited one at a time, no call would ever meet another at the barrier
        await asyncio.wait_for(pair.wait(), HANG_GUARD_S / 2)
        return args["i"]

    async def main() -> Any:
        nonlocal pair
        pair = asyncio.Barrier(2)
        return await api.arun(
            "(pmap #(tool/slow {:i %}) (range 6))", tools={"slow": slow},
            timeout_ms=HANG_GUARD_S * 1000,
        )

    r = asyncio.run(main())
    assert r.value == list(range(6)), r.error


def test_pmap_pcalls_semantics(rt: Runtime) -> None:
    assert go(rt, "(pmap + [1 2 3] [10 20])").value == [11, 22]
    assert go(rt, "(pcalls)").value == []
    assert go(rt, "(pcalls (fn [] 1) (fn [] 2))").value == [1, 2]
    assert go(rt, "(apply pmap [inc [1 2]])").value == [2, 3]
    r = go(rt, "(pmap (fn [x] (println x) x) [1 2 3 4 5])")
    assert r.text == "1\n2\n3\n4\n5\n"
    r = go(rt, "(pcalls (fn [] 1) (fn [] (/ 1 0)))")
    assert r.error is not None and "item 1" in r.error.message
    r = go(rt, "(pmap (fn [x] (return x)) [1])")
    assert r.error is not None and r.outcome == "error"


def test_pmap_parallel_deadline() -> None:
    runtime = api.runtime(limits=Limits(parallel_timeout_ms=200))
    start = time.monotonic()
    # max_steps: the step budget must outlast the 200 ms parallel deadline.
    src = "(pmap (fn [_] (loop [] (recur))) [1 2])"
    r = go(runtime, src, timeout_ms=HANG_GUARD_S * 1000, max_steps=10**12)
    assert r.error is not None and r.error.kind == "timeout"
    assert "parallel" in r.error.message  # the 200 ms parallel deadline, not the run's
    assert time.monotonic() - start < HANG_GUARD_S


def test_pmap_capacity() -> None:
    runtime = api.runtime(limits=Limits(parallel_workers=2))
    r = go(runtime, "(pmap (fn [x] (pmap (fn [y] (pmap inc [y])) [x])) (range 4))")
    assert r.error is not None and "parallel_capacity_exceeded" in r.error.code


# ---------------------------------------------------------------- JSON boundary helpers


def test_encode_json_bounds_shared_structure() -> None:
    v: Any = []
    for _ in range(64):
        v = [v, v]
    clock = Clock()  # 2**64 paths if the walk did not stop at the bound
    with pytest.raises(Exception) as info:
        encode_json(v, 10_000)
    assert getattr(info.value, "kind", None) == "output-limit"
    assert measure(v, 10_000) > 10_000
    assert_prompt(clock, 1.0)


def test_public_api_front(rt: Runtime) -> None:
    r = api.run("(+ 1 2)", runtime=rt)
    assert r.ok and r.value == 3
    with pytest.raises(TypeError):
        api.run("1", bogus=True)


def test_lowering_without_guards_drops_only_the_fuel_checks() -> None:
    import ast

    from ptc_compiler.analyzer import AnalysisEnv, analyze
    from ptc_compiler.lower import lower
    from ptc_compiler.reader import read

    prog = analyze(
        read("(defn f [n] (loop [i 0] (if (< i n) (recur (inc i)) i))) (f 10)"), AnalysisEnv()
    )
    guarded = ast.unparse(lower(prog).module)
    bare = ast.unparse(lower(prog, guards=False).module)
    assert "for t0 in FUEL" in guarded and "rt_refill" in guarded
    assert "for t0 in CREDIT" in guarded  # the loop's entry credit
    rest = bare.replace("global FUEL", "")
    assert "FUEL" not in rest and "CREDIT" not in rest and "rt_refill" not in bare
    # Only the pulls went: the same loop remains (its `recur` a `continue` of the `while`).
    assert bare.count("while True") == guarded.count("while True") > 0
    assert api.compile("(+ 1 2) ", guards=False).run().value == 3
