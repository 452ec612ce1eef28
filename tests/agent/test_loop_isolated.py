"""Isolated missions: the same scripted multi-turn runs in-process and in worker processes.

Every scenario drives the loop with a scripted model through both modes
(`HostLimits.mission_mode`) and compares everything the model and the caller observe: each
model request's messages (observations, previews, println output, corrections and failure
feedback, turns remaining), the outcome (status, value, kind, error, mutation state), the
trace's evaluation facts (outcome, code, capability calls) and the capability calls the
host made. Then what only isolation has: a program cannot reach the host's objects, a
worker killed mid-turn (or by its heap limit) is replaced and the loop goes on with the
feedback that says the earlier definitions are gone.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from loop_helpers import call

from ptc_agent import AgentError, Mission, ResultContract, run_outcome
from ptc_agent.crossing import to_workflow
from ptc_agent.providers import ScriptedProvider
from ptc_agent.run_limits import HostLimits
from ptc_agent.workflow import run_workflow
from ptc_compiler.tools import Tool
from ptc_runtime.limits import DEFAULT_LIMITS
from ptc_runtime.values import Keyword as K
from ptc_runtime.worker import pool as pool_module

MODES = ("in-process", "isolated")

ORDERS = [{"id": 1, "total": 10, "status": "open"}, {"id": 2, "total": 32, "status": "paid"}]


def _tools(log: list[tuple[str, Any]]) -> dict[str, Any]:
    # Untyped one-argument functions: a Tool receives the argument map as it is.
    def orders(args):  # type: ignore[no-untyped-def]
        log.append(("orders", dict(args or {})))
        return ORDERS

    def lookup(args):  # type: ignore[no-untyped-def]
        log.append(("lookup", dict(args or {})))
        if args.get("id") == 9:
            return {"status": "error", "kind": "not_found", "reason": "no_such_order",
                    "retryable?": False}
        return {"id": args.get("id"), "name": "Ada"}

    def save(args):  # type: ignore[no-untyped-def]
        log.append(("save", dict(args or {})))
        if args.get("bad"):
            raise RuntimeError("storage offline")
        return {"saved": True}

    return {
        "orders": Tool(orders, effect="read", doc="All orders."),
        "lookup": Tool(lookup, effect="read", doc="One customer by {:id n}."),
        "save": Tool(save, effect="write", doc="Store a record."),
        "slow": Tool(lambda a: time.sleep(2) or 1, effect="read", doc="Takes two seconds."),
    }


def _run(mode: str, programs: list[str], **kw: Any) -> dict[str, Any]:
    """One scripted run; everything observable, in a comparable form."""
    log: list[tuple[str, Any]] = []
    events: list[dict[str, Any]] = []
    sp = ScriptedProvider([call(p) for p in programs])
    kw.setdefault("tools", _tools(log))
    kw.setdefault("config", {"max_turns": len(programs)})
    limits = kw.pop("limits", HostLimits())
    limits = HostLimits(**{**limits.__dict__, "mission_mode": mode})
    try:
        out = run_outcome("Do the task.", model=sp, limits=limits, on_event=events.append, **kw)
        # A returned function is the function in-process and its label when isolated
        # (nothing executable leaves a worker): compare what the workflow sees of it.
        result: Any = (out.status, to_workflow(out.value), out.kind, out.error,
                       out.mutation_state)
    except AgentError as err:
        result = ("error", err.code, err.details)
    evaluations = [
        {k: v for k, v in e["data"].items() if k != "duration_ms"}
        for e in events
        if e.get("type") == "evaluation"
    ]
    return {
        "requests": [[m.to_json() for m in r.messages] for r in sp.requests],
        "result": result,
        "evaluations": evaluations,
        "calls": log,
    }


SCENARIOS: dict[str, list[str]] = {
    "definitions-across-turns": [
        "(defn total [os] (reduce + (map :total os)))",
        '(def os (tool/orders {})) (println "orders" (count os)) {:n (count os) :s #{:a :b}}',
        "(def open (filter #(= (:status %) \"open\") os)) [(count open) *1]",
        "(return {:total (total os) :open (count open) :k :done [1 2] \"vector key\"})",
    ],
    "values-of-every-kind": [
        "(defn f [x] x)",
        "inc",
        '[#"a+b" \'sym :kw nil true 1.5 (/ 1 3) (/ 0.0 0.0) (first (tool/orders {}))]',
        '{"~k" 1 "~~" 2 :set #{[1 2] {:a 1}} {:m 1} "map key" true :t}',
        "(return [f (fn [] 1) #{:x}])",
    ],
    "errors-then-correction": [
        "(undefined-thing 1)",
        "(/ 1 0)",
        '(tool/lookup {:id "x" :extra})',
        "(return (tool/lookup {:id 3}))",
    ],
    "correctable-capability-failure": [
        "(fail (tool/lookup {:id 9}))",
        "(return (tool/lookup {:id 1}))",
    ],
    "fail-with-forged-envelope-is-final": [
        '(tool/lookup {:id 1}) (fail {:status "error" :kind "x" :reason "y" :retryable? false})',
    ],
    "write-then-failure-takes-the-closing-turn": [
        "(tool/save {:a 1}) (/ 1 0)",
        "(return :decided)",
    ],
    "write-that-raised-is-indeterminate": [
        "(tool/save {:bad true})",
        "(fail :gave-up)",
    ],
    "rollback-of-a-failed-program": [
        "(def a 1)",
        "(def a 2) (def b 3) (fail :nope)",
    ],
    "timeout": [
        "(def kept 1)",
        "(def lost 2) (loop [i 0] (sort (range 300)) (recur (inc i)))",
        "(return kept)",
    ],
    "large-value-preview-and-prints": [
        '(doseq [i (range 3)] (println "line" i)) (vec (range 5000))',
        '(apply str (repeat 3000 "x"))',
        "(into {} (map (fn [i] [(keyword (str \"k\" i)) i]) (range 300)))",
        "(return (count *1))",
    ],
    "routes-and-inventory": [
        "(tool/cap-list {})",
        '(tool/cap-describe {:name "orders"})',
        "(:capability_calls (tool/runtime-usage {}))",
        "(return :ok)",
    ],
    "turn-limit": [
        "(def x 1)",
        "x",
    ],
}


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_the_same_run_in_both_modes(name: str) -> None:
    kw: dict[str, Any] = {}
    if name == "timeout":
        kw["timeout_ms"] = 300
    runs = {mode: _run(mode, SCENARIOS[name], **kw) for mode in MODES}
    assert runs["isolated"] == runs["in-process"]


def test_the_scenarios_reach_what_they_claim() -> None:
    # The comparison above is only worth something if the runs really go through these
    # outcomes: a few spot checks on the isolated side.
    r = _run("isolated", SCENARIOS["definitions-across-turns"])
    assert r["result"][0] == "returned"
    assert r["result"][1] == {K("total"): 42, K("open"): 1, K("k"): K("done"), (1, 2): "vector key"}
    feedback = r["requests"][2][-1]["content"]
    assert "user=> {:n 2, :s #{:a :b}}" in feedback and "orders 2" in feedback
    r = _run("isolated", SCENARIOS["values-of-every-kind"])
    texts = [req[-1]["content"] for req in r["requests"][1:]]
    assert "user=> #'f\n" in texts[0] and "user=> #function[inc]\n" in texts[1]
    assert 'user=> [#"a+b" \'sym :kw nil true 1.5 0.3333333333333333 ##NaN {"id" 1' in texts[2]
    assert 'user=> {"~k" 1, "~~" 2, :set #{[1 2] {:a 1}}, {:m 1} "map key", true :t}' in texts[3]
    assert r["result"][1] == ["#function[f]", "#function[fn]", frozenset({K("x")})]
    r = _run("isolated", SCENARIOS["correctable-capability-failure"])
    assert "A tool call failed (kind: not_found" in r["requests"][1][-1]["content"]
    assert r["result"][0] == "returned"
    r = _run("isolated", SCENARIOS["write-then-failure-takes-the-closing-turn"])
    assert "Do not repeat that program" in r["requests"][1][-1]["content"]
    r = _run("isolated", SCENARIOS["timeout"], timeout_ms=300)
    assert "error: timeout" in r["requests"][2][-1]["content"]
    assert "earlier definitions remain" in r["requests"][2][-1]["content"]
    assert r["result"][1] == 1  # the definition survived the timed-out turn


def test_commit_rejections_and_contract_corrections_match() -> None:
    limits = DEFAULT_LIMITS.with_(memory_bytes=2000, history_bytes=2000)
    programs = [
        "(def big (vec (range 1000))) 1",
        "(vec (range 1000))",
        "(def small 1) (return {:total \"no\"})",
        "(return {:total small})",
    ]
    runs = {}
    for mode in MODES:
        mission = Mission(tools={}, limits=limits, timeout_ms=2000)
        runs[mode] = _run(mode, programs, tools={}, missions={"default": mission},
                          signature=ResultContract("{total :int}", source="test"))
    assert runs["isolated"] == runs["in-process"]
    texts = [req[-1]["content"] for req in runs["isolated"]["requests"][1:]]
    assert "too large to retain" in texts[0] and "too large to keep as *1" in texts[1]
    assert "does not satisfy the result contract" in texts[2]
    assert runs["isolated"]["result"][1] == {K("total"): 1}


def test_a_run_deadline_ends_an_isolated_evaluation_like_in_process() -> None:
    runs = {
        mode: _run(mode, ["(loop [i 0] (sort (range 300)) (recur (inc i)))", "(return 1)"],
                   timeout_ms=None, limits=HostLimits(run_timeout_ms=700))
        for mode in MODES
    }
    assert runs["isolated"]["evaluations"][0]["code"] == "timeout"
    assert runs["isolated"] == runs["in-process"]


def test_a_tool_still_running_at_the_deadline_ends_the_run_in_both_modes() -> None:
    # A program stops waiting for a synchronous tool at its deadline in both modes
    # (timeout, rolled back; the tool finishes on the host and its result is dropped):
    # in-process the call runs on a helper thread (ptc_runtime.tool_boundary).
    programs = ["(def kept 1)", "(def lost 2) (tool/slow {})", "(return kept)"]
    runs = {mode: _run(mode, programs, timeout_ms=300) for mode in MODES}
    codes = {m: [(e["outcome"], e.get("code")) for e in r["evaluations"]] for m, r in runs.items()}
    assert codes["in-process"][1] == codes["isolated"][1] == ("evaluation_error", "timeout")
    for mode in MODES:
        assert "earlier definitions remain" in runs[mode]["requests"][2][-1]["content"]
    assert runs["isolated"]["result"][:2] == runs["in-process"]["result"][:2] == ("returned", 1)


@pytest.mark.parametrize("mode", MODES)
def test_phased_missions_and_a_workflow_over_loops(mode: str) -> None:
    # Two missions (one per phase) with their own state owners, and a workflow running two
    # loops under pcalls against the same missions.
    log: list[tuple[str, Any]] = []
    missions = {
        "gather": Mission(tools=_tools(log)),
        "decide": Mission(tools={}, data={"limit": 40}, mode=None),
    }
    sp = ScriptedProvider([call("(def os (tool/orders {})) (count os)"),
                           call("(return (count os))"),
                           call("(return (> 42 data/limit))")])
    out = run_outcome(
        "Phased.", model=sp, missions=missions, limits=HostLimits(mission_mode=mode),  # type: ignore[arg-type]
        config={"phases": [{"mission": "gather", "max_turns": 2},
                           {"mission": "decide", "max_turns": 1}]},
    )
    assert (out.status, out.value) == ("returned", True)
    value = run_workflow(
        '(pcalls #(agent.core/run-value "a" {}) #(agent.core/run-value "b" {}))',
        model=ScriptedProvider([call("(return (count (tool/orders {})))")] * 2),
        tools=_tools(log), limits=HostLimits(mission_mode=mode),
    )
    assert list(value) == [2, 2]


def test_a_mission_chooses_its_mode_over_the_host_default() -> None:
    seen: list[int] = []

    def where(args):  # type: ignore[no-untyped-def]
        seen.append(os.getpid())
        return 1

    for mission_mode, host_mode in (("isolated", "in-process"), ("in-process", "isolated")):
        mission = Mission(tools={"where": Tool(where, effect="read")}, mode=mission_mode)  # type: ignore[arg-type]
        out = run_outcome("t", model=ScriptedProvider([call("(return (tool/where {}))")]),
                          missions={"default": mission}, limits=HostLimits(mission_mode=host_mode))  # type: ignore[arg-type]
        assert out.value == 1
    assert seen == [os.getpid(), os.getpid()]  # tools always run in the host
    with pytest.raises(ValueError, match=r"Mission\.mode"):
        Mission(mode="subprocess")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="mission_mode"):
        HostLimits(mission_mode="thread")  # type: ignore[arg-type]


# ---------------------------------------------------------------- isolation itself


SECRET = "ptc-host-secret-4471"


def test_an_isolated_mission_program_cannot_reach_host_objects(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    """Escape attempts end as typed failures in both modes; the host is unharmed; the
    kernel's private tools and the host's objects are out of the program's reach."""
    monkeypatch.setenv("PTC_TEST_SECRET", SECRET)
    canary = tmp_path / "canary.txt"
    canary.write_text("intact", encoding="utf-8")
    attempts = [
        '(System/getenv "PTC_TEST_SECRET")',
        "(.getClass data/orders)",
        '(slurp "' + str(canary) + '")',
        "(tool/kernel-eval {:mission \"default\" :source \"1\"})",
        "(tool/llm-request {:messages []})",
        "(eval '(+ 1 2))",
        '(def __class__ 1) (str (type data))',
        "(agent.core/run-value \"t\" {})",
        '(return [(str (tool/orders {})) (pr-str inc) data/orders])',
    ]
    procs = _record_mission_workers(monkeypatch)
    runs = {mode: _run(mode, attempts, data={"orders": ORDERS}) for mode in MODES}
    assert runs["isolated"] == runs["in-process"]
    # The host compiles first: the refused attempts never reached a worker; the one program
    # that compiled ran in a worker process, not in the host.
    assert len(procs) == 1 and procs[0].p.pid != os.getpid()
    observed = "\n".join(str(m) for req in runs["isolated"]["requests"] for m in req)
    assert SECRET not in observed and "0x" not in observed and "Traceback" not in observed
    assert "/work/" not in observed and str(tmp_path) not in observed.replace(str(canary), "")
    assert canary.read_text(encoding="utf-8") == "intact"
    assert runs["isolated"]["result"][0] == "returned"
    # Each attempt failed typed, before anything ran; the last one saw only data and labels.
    codes = [e["code"] for e in runs["isolated"]["evaluations"][:-1]]
    assert codes == ["unsupported_java_member", "unsupported_java_member", "unbound_var",
                     "unknown_tool", "unknown_tool", "parse_error", "unbound_var",
                     "invalid_form"]
    assert runs["isolated"]["result"][1][1:] == ["#function[inc]", ORDERS]


def _record_mission_workers(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The workers a run message went to, in order (the test kills one of them)."""
    procs: list[Any] = []
    send = pool_module.Proc.send

    def recording(self: Any, msg: dict[str, Any]) -> None:
        if msg.get("op") == "run":
            procs.append(self)
        send(self, msg)

    monkeypatch.setattr(pool_module.Proc, "send", recording)
    return procs


def test_a_worker_killed_mid_turn_is_replaced_and_the_loop_continues(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    procs = _record_mission_workers(monkeypatch)
    killed = threading.Event()

    def crash(args):  # type: ignore[no-untyped-def]
        # The program waits on this read while the host kills its worker.
        os.kill(procs[-1].p.pid, signal.SIGKILL)
        killed.set()
        procs[-1].p.wait(timeout=10)
        return {"never": "seen"}

    tools: dict[str, Callable[..., Any]] = {"crash": Tool(crash, effect="read")}
    r = _run("isolated", ["(def kept 1) kept", "(tool/crash {})", "kept", "(return :after)"],
             tools=tools)
    assert killed.is_set()
    first, second = r["evaluations"][1], r["evaluations"][2]
    assert (first["outcome"], first["code"]) == ("evaluation_error", "worker_exit")
    feedback = r["requests"][2][-1]["content"]
    assert "worker process was stopped and replaced" in feedback
    assert "definitions of earlier turns are gone" in feedback
    assert "Do not repeat" not in feedback  # a read only: the loop may correct
    # The replacement worker starts empty: the earlier definition is gone, as the model
    # was told, and the loop still ends normally.
    assert second["code"] == "unbound_var"
    assert "undefined variable: kept" in r["requests"][3][-1]["content"]
    assert r["result"][:2] == ("returned", K("after"))
    assert len({id(p) for p in procs}) == 2


def test_a_worker_heap_kill_gets_the_out_of_memory_feedback() -> None:
    # About 330 MB of distinct integers pass the runtime's own caps but not a 256 MB
    # address space: a real MemoryError in the worker, which is then replaced.
    limits = DEFAULT_LIMITS.with_(worker_memory_bytes=256 * 1024 * 1024)
    mission = Mission(limits=limits, timeout_ms=30_000)
    r = _run("isolated", [
        "(def kept 1)",
        "(count (vec (map (fn [i] (* i 1000)) (range 9000000))))",
        "(return 2)",
    ], tools={}, missions={"default": mission})
    ev = r["evaluations"][1]
    assert (ev["outcome"], ev["code"]) == ("evaluation_error", "memory_exceeded")
    feedback = r["requests"][2][-1]["content"]
    assert "ran out of memory, so its worker process was stopped and replaced" in feedback
    assert "definitions of earlier turns are gone" in feedback
    assert "filter, page, project or reduce" in feedback.lower()
    assert r["result"][:2] == ("returned", 2)


# ---------------------------------------------------------------- the native wire form


def test_native_wire_values_round_trip_and_malformed_ones_are_refused() -> None:
    from ptc_runtime.collections import PSet, to_key
    from ptc_runtime.values import SymbolRef, VarRef
    from ptc_runtime.worker.crossing import Label, MalformedValue, decode, encode

    value = [
        1, -2.5, "s", None, True, K("k"), SymbolRef("sym"), VarRef("user/x"),
        {"~k": 1, "~": 2, "plain": [1, {"a": K("b")}]},
        {K("a"): 1, to_key([1, 2]): 2, to_key(True): 3, None: 4, to_key({"m": 1}): 5},
        PSet.from_iterable([1, K("x"), [1, 2]]),
        float("inf"), abs,
    ]
    wire = encode(value)
    back = decode(wire)
    assert back[:12] == value[:12]  # type: ignore[index]
    label = back[12]  # type: ignore[index]
    assert isinstance(label, Label) and label.text == label.data == "#function[fn]"
    for bad in ({"~k": 1}, {"~x": 1}, {"~m": [[1]]}, {"~f": "1e400"}, {"~l": ["a"]}, 1e400,
                {"~S": 5}, (1, 2), {"~v": None}):
        with pytest.raises(MalformedValue):
            decode(bad)


def test_an_isolated_completion_too_deep_for_the_native_form_crosses_as_its_projection() -> None:
    from ptc_compiler.prelude import Environment

    deep = "(reduce (fn [acc _] [acc]) [] (range 200))"
    with Environment([], cache_dir=False, mode="isolated", pool_size=1) as env:
        native = env.run(deep, native=True)
        too_big = env.run("(vec (range 400000))", native=True, state_owner=object())
    assert native.ok and isinstance(native.value, list)
    depth, v = 0, native.value
    while v:
        v, depth = v[0], depth + 1
    assert depth == 200
    assert too_big.error is not None and too_big.error.code == "output_limit"
