"""Preludes in isolated mode: the same programs, in-process and in real worker processes.

Every differential case runs one program against the same preludes and tools in both
modes and compares the outcome, the error (kind, code, message, position), the printed
output and the value (the in-process PTC value projected to JSON, as a worker returns it).
Then: tool calls made by prelude code run on the host, a warm worker is not sent the
prelude again, state owners and environment initializers behave as in-process, and the
security cases: private helpers stay private, a worker never lets a program resolve a
prelude another run shipped to it, and a damaged package is refused before any of its
code runs.
"""

from __future__ import annotations

import base64
import hashlib
import json
import marshal
import os
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from types import CodeType
from typing import Any

import pytest

from ptc_compiler import api
from ptc_compiler.prelude import Environment
from ptc_compiler.tools import Tool
from ptc_runtime import prelude as rt_prelude
from ptc_runtime.limits import DEFAULT_LIMITS
from ptc_runtime.seam import MISSING, RunRequest, Runtime, project
from ptc_runtime.worker import pool as pool_module
from ptc_runtime.worker.prelude import (
    Component,
    PackageError,
    PreludePackage,
    build_package,
    load_package,
)

MONEY = """(ns money "Money helpers." {})
(def vat "VAT rate." {:type ":float"} 0.25)
(defn- cents [x] (int (* 100 x)))
(defn gross {:doc "Price with VAT, rounded to cents." :signature "(net :float) -> :float"}
  [net] (/ (cents (* net (+ 1 vat))) 100.0))
"""

SHOP = """(ns shop "Order analytics." {:deps [money]})
(def statuses "Known statuses." {:type "[:keyword]"} [:open :paid])
(defn- line-total [l] (* (:qty l) (:price l)))
(defn- secret-helper [] "private-value")
(defn total {:doc "Gross total of an order." :signature "(order {lines [:map]}) -> :float"}
  [order] (money/gross (reduce + (map line-total (:lines order)))))
(defn customer {:doc "Looks a customer up (tool call)."} [id] (tool/customer {:id id}))
(defn audited {:doc "Reads the ledger through a private tool."} [] (tool/ledger {}))
(defn shout [s] (println (str "!" s)) (count s))
(defn early [x] (when (neg? x) (return :negative)) (* x 2))
(defn refuse [x] (fail {:refused x}))
(defn explode [] (tool/broken {}))
(defn spin [] (loop [i 0] (recur (inc i))))
(defn deep [n] (if (zero? n) 0 (inc (deep (dec n)))))
(defn pick [m k] (get m k))
"""

ORDER = "{:lines [{:qty 2 :price 10.0} {:qty 1 :price 4.5}]}"

PROGRAMS = [
    f"(shop/total {ORDER})",
    "(money/gross 8.0)",
    "money/vat",
    "shop/statuses",
    "(shop/customer 42)",
    "(shop/audited)",
    '(shop/shout "hey")',
    "[(shop/early -1) (shop/early 4)]",
    "(shop/refuse 3)",
    "(shop/explode)",
    "(shop/total 5)",
    "(shop/total {:lines [{:qty 1 :price 1.0}] :extra 1})",
    "(money/gross)",
    "(shop/line-total {:qty 1 :price 2})",
    "(shop/secret-helper)",
    "(tool/ledger {})",
    "(shop/pick {:a 1} :a)",
    "(map shop/early [1 -2 3])",
    "(let [f shop/total] (f {:lines []}))",
    "(dir)",
    '(dir "shop")',
    '(apropos "vat")',
    "(export-meta shop/total)",
    "(export-meta money/gross)",
    "(doc shop/total)",
    "(source shop/total)",
    "(source shop/secret-helper)",
    "(shop/deep 100)",
    "(def shop/x 1)",
    "(defn gross [x] x) (gross 2)",
]

CALLS: list[Any] = []
CALLS_LOCK = threading.Lock()


def _customer(args: dict[str, Any]) -> dict[str, Any]:
    with CALLS_LOCK:
        CALLS.append(("customer", args["id"], os.getpid()))
    return {"id": args["id"], "name": f"c{args['id']}", "vip": args["id"] > 40}


def _ledger(args: dict[str, Any]) -> list[int]:
    return [1, 2, 3]


def _broken(args: dict[str, Any]) -> Any:
    raise RuntimeError("ledger offline")


def _tools() -> dict[str, Any]:
    return {
        "customer": _customer,
        "ledger": Tool(_ledger, private_to=("shop",)),
        "broken": _broken,
    }


@pytest.fixture(scope="module")
def envs() -> Iterator[dict[str, Environment]]:
    tools = _tools()
    made = {
        mode: Environment(
            [MONEY, SHOP], tools=tools, cache_dir=False, mode=mode, pool_size=1
        )
        for mode in ("in-process", "isolated")
    }
    yield made
    for e in made.values():
        e.close()


def _warm(rt: Runtime) -> Any:
    """The single idle worker of a one-worker pool, once it has started: every later run
    borrows and returns this same process."""
    deadline = time.monotonic() + 30
    while len(rt._pool.idle) != 1:
        assert time.monotonic() < deadline, "the worker did not start"
        time.sleep(0.02)
    return rt._pool.idle[0]


def _json(value: Any) -> Any:
    return None if value is None else project(value, DEFAULT_LIMITS)


def _summary(r: api.RunResult, native: bool) -> dict[str, Any]:
    err = r.error
    return {
        "ok": r.ok,
        "outcome": r.outcome,
        "value": _json(r.value) if native else r.value,
        "output": r.output,
        "error": None
        if err is None
        else (err.kind, err.code, err.message, err.line, err.column, err.hint),
    }


@pytest.mark.parametrize("program", PROGRAMS)
def test_same_outcome_in_both_modes(envs: dict[str, Environment], program: str) -> None:
    local = envs["in-process"].run(program, timeout_ms=2000)
    remote = envs["isolated"].run(program, timeout_ms=2000)
    assert _summary(remote, native=False) == _summary(local, native=True)


def test_differential_cases_cover_values_and_each_failure_kind(
    envs: dict[str, Environment],
) -> None:
    """The table above is not vacuous: it has values, fails, returns and typed errors."""
    results = [envs["isolated"].run(p, timeout_ms=2000) for p in PROGRAMS]
    assert results[0].ok and results[0].value == pytest.approx(30.62)
    assert results[4].value == {"id": 42, "name": "c42", "vip": True}
    assert results[5].value == [1, 2, 3]
    assert results[6].output == "!hey\n" and results[6].value == 3
    assert results[7].value == ["negative", 8]
    assert results[8].outcome == "fail" and results[8].value == {"refused": 3}
    codes = {r.error.code for r in results if r.error is not None}
    assert {"contract_violation", "unbound_var", "arity_error", "tool_error"} <= codes, codes
    assert results[14].error is not None and "secret-helper" in results[14].error.message
    assert results[15].error is not None  # a private tool is not callable from the program
    assert results[19].value == ["money", "shop"]
    assert "not available" in results[26].output  # an unreachable private helper


def test_timeouts_and_depth_inside_prelude_code_match(envs: dict[str, Environment]) -> None:
    cases = (
        ("(shop/spin)", 300, 100_000, "step_limit_exceeded"),  # the step budget ends it
        ("(shop/spin)", 300, 10**12, "timeout"),  # the deadline ends it
        ("(shop/deep 100000)", 5000, 10**12, "recursion_limit"),
    )
    for program, timeout_ms, steps, code in cases:
        local = envs["in-process"].run(program, timeout_ms=timeout_ms, max_steps=steps)
        remote = envs["isolated"].run(program, timeout_ms=timeout_ms, max_steps=steps)
        assert local.error is not None and remote.error is not None
        assert local.error.kind == remote.error.kind == "timeout"
        assert local.error.code == remote.error.code == code
    assert envs["isolated"].run("(shop/pick {:a 7} :a)").value == 7  # worker still serving


def test_prelude_tool_calls_run_on_the_host(envs: dict[str, Environment]) -> None:
    with CALLS_LOCK:
        CALLS.clear()
    r = envs["isolated"].run("(mapv shop/customer [1 2 3])")
    assert r.ok, r.error
    assert [c[1] for c in CALLS] == [1, 2, 3]
    assert {c[2] for c in CALLS} == {os.getpid()}


def test_the_prelude_is_shipped_once_per_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    shipped: list[int] = []
    real = pool_module.Proc.send_raw

    def counting(self: pool_module.Proc, data: bytes) -> None:
        if data.startswith(b'{"op":"prelude"'):
            shipped.append(len(data))
        real(self, data)

    monkeypatch.setattr(pool_module.Proc, "send_raw", counting)
    with Environment([MONEY, SHOP], tools=_tools(), cache_dir=False, mode="isolated",
                     pool_size=1) as e:
        proc = _warm(e.runtime)
        for i in range(6):
            assert e.run(f"(money/gross {i}.0)").ok
        assert e.run("(+ 1 2)").value == 3
        assert len(shipped) == 1, shipped
        assert e.runtime._pool.idle == [proc]
        assert list(proc.preludes) == [e.bundle.package().digest]


def test_state_owner_keeps_definitions_that_use_exports() -> None:
    owner = object()
    seen = {}
    for mode in ("in-process", "isolated"):
        with Environment([MONEY, SHOP], tools=_tools(), cache_dir=False, mode=mode,
                         pool_size=1) as e:
            first = e.run("(defn twice [o] (* 2 (shop/total o))) (def n 1) nil",
                          state_owner=owner)
            assert first.ok, first.error
            second = e.run(f"[(twice {ORDER}) n (shop/early -1)]", state_owner=owner)
            failed = e.run("(def n 2) (shop/refuse n)", state_owner=owner)
            assert failed.outcome == "fail"
            after = e.run("n", state_owner=owner)
            seen[mode] = (_json(second.value) if mode == "in-process" else second.value,
                          failed.outcome, after.value)
    assert seen["isolated"] == seen["in-process"]
    assert seen["isolated"][2] == 1  # the failed run committed nothing


def test_environment_initializer_uses_exports_in_both_modes() -> None:
    seen = {}
    for mode in ("in-process", "isolated"):
        with Environment([MONEY, SHOP], tools=_tools(), cache_dir=False, mode=mode,
                         pool_size=1) as e:
            e.runtime.register_environment_initializer("(def base (money/gross 4.0))")
            owner = object()
            r1 = e.run("(+ base 1)", state_owner=owner)
            r2 = e.run("base", state_owner=owner)
            r3 = e.run("base")
            seen[mode] = (r1.value, r2.value, r3.value)
    assert seen["isolated"] == seen["in-process"] == (6.0, 5.0, 5.0)


def test_run_with_preludes_accepts_isolated_mode() -> None:
    tools = _tools()
    local = api.run(f"(shop/total {ORDER})", preludes=[MONEY, SHOP], tools=tools)
    remote = api.run(f"(shop/total {ORDER})", preludes=[MONEY, SHOP], tools=tools,
                     mode="isolated")
    assert remote.ok and remote.value == local.value


# ---------------------------------------------------------------- security


@dataclass
class _Raw:
    code: CodeType
    fn_names: dict[str, str]
    prelude: PreludePackage | None = None


def test_a_worker_never_resolves_another_runs_prelude() -> None:
    """Two environments' preludes are shipped to one worker; each run sees only its own,
    and code that names the other bundle's key (as a compromised compiler could) fails."""
    other = "(ns vault)\n(def pin \"Do not leak.\" {:type \":string\"} \"4711\")\n" \
            "(defn- hidden [] pin)\n(defn opened [] (hidden))"
    env_a = Environment([other], cache_dir=False)
    env_b = Environment([MONEY], cache_dir=False)
    key_a = env_a.bundle.key
    pkg_a, pkg_b = env_a.bundle.package(), env_b.bundle.package()

    def compiler(source: str, tools: Any, names: Any) -> Any:
        if source.startswith("A:"):
            p = env_a.compile(source[2:], names)
            return _Raw(p.code, dict(p.fn_names), pkg_a)
        if source.startswith("B:"):
            p = env_b.compile(source[2:], names)
            return _Raw(p.code, dict(p.fn_names), pkg_b)
        if source.startswith("#py\n"):
            return _Raw(compile(source[4:], "<ptc>", "exec"), {})
        return api.compile(source, tools=tools, user_names=names)

    rt = Runtime(compiler, mode="isolated", pool_size=1)
    try:
        def go(program: str) -> Any:
            return rt.run(rt.resolve(RunRequest(program, timeout_ms=3000)))

        proc = _warm(rt)
        assert go("A:(vault/opened)").value == "4711"
        assert go("B:(dir)").value == ["money"]
        assert rt._pool.idle == [proc]
        assert set(proc.preludes) == {pkg_a.digest, pkg_b.digest}  # both held by this worker
        plain = go("(dir)")
        assert plain.ok and plain.value == [], plain
        assert go("(apropos \"leak\")").value == []
        refused = go("B:(vault/opened)")
        assert refused.error is not None and "unknown namespace vault/" in refused.error.message
        stolen = go(f"#py\ndef program():\n    return rt_export('{key_a}|vault/opened')()\n")
        assert stolen.error is not None and stolen.error.code == "prelude_unavailable"
        attached = go(f"#py\ndef program():\n    return rt_attach('{key_a}')\n")
        assert attached.error is not None and attached.error.code == "prelude_unavailable"
        # ... while the same worker still serves vault to the runs compiled against it
        assert go("A:(vault/opened)").value == "4711"
    finally:
        rt.close()
        env_a.close()
        env_b.close()


def test_private_helpers_and_constants_are_unreachable_in_the_worker(
    envs: dict[str, Environment],
) -> None:
    e = envs["isolated"]
    for program in ("(shop/secret-helper)", "shop/line-total", "(money/cents 1)",
                    "(def money/vat 1)", "(resolve 'shop/secret-helper)"):
        r = e.run(program)
        assert not r.ok, program
        assert "private-value" not in json.dumps([r.value, r.output, r.error.message])
    src = e.run("(source shop/secret-helper)")
    assert src.ok and "not available" in src.output and "private-value" not in src.output


def _package(code: CodeType) -> PreludePackage:
    return build_package("k" * 64, [Component("evil", (), ("x",), code)], [], {})


def _tampered(pkg: PreludePackage, change: Any) -> dict[str, Any]:
    msg: dict[str, Any] = json.loads(pkg.line)
    change(msg)
    return msg


def test_a_damaged_package_is_refused_before_unmarshalling() -> None:
    code = compile("def program():\n    PNS['x'] = 1\n", "<ptc>", "exec")
    good = _package(code)
    digest, loaded = load_package(json.loads(good.line))
    assert digest == good.digest and loaded.exports == {"evil/x": 1}

    def swap_code(msg: dict[str, Any]) -> None:
        other = compile("def program():\n    PNS['x'] = 2\n", "<ptc>", "exec")
        msg["body"]["components"][0]["code"] = base64.b64encode(marshal.dumps(other)).decode()

    def truncate(msg: dict[str, Any]) -> None:
        msg["body"]["components"][0]["code"] = msg["body"]["components"][0]["code"][:40]

    def reorder(msg: dict[str, Any]) -> None:
        msg["body"]["components"][0]["deps"] = ["later"]

    for change, expect in ((swap_code, "digest"), (truncate, "digest"), (reorder, "digest")):
        with pytest.raises(PackageError, match=expect):
            load_package(_tampered(good, change))
    # consistent but out of order (a dependency that comes later): refused before running
    bad = build_package("k" * 64, [Component("a", ("b",), (), code), Component("b", (), (), code)],
                        [], {})
    with pytest.raises(PackageError, match="dependency order"):
        load_package(json.loads(bad.line))
    not_code = json.loads(good.line)
    not_code["body"]["components"][0]["code"] = base64.b64encode(marshal.dumps(123)).decode()
    not_code["digest"] = hashlib.sha256(json.dumps(
        not_code["body"], sort_keys=True, separators=(",", ":"), ensure_ascii=True
    ).encode()).hexdigest()
    with pytest.raises(PackageError, match="not a code object"):
        load_package(not_code)


def test_a_worker_refuses_a_mismatched_package_and_keeps_serving() -> None:
    code = compile("def program():\n    PNS['x'] = 1\n", "<ptc>", "exec")
    good = _package(code)
    msg = json.loads(good.line)
    msg["body"]["key"] = "j" * 64  # content no longer matches the digest
    forged = PreludePackage(good.key, good.digest, (json.dumps(msg) + "\n").encode())
    prog = compile("def program():\n    return 1\n", "<ptc>", "exec")

    rt = Runtime(lambda s, t, n: _Raw(prog, {}, forged if s == "forged" else None),
                 mode="isolated", pool_size=1)
    try:
        r = rt.run(rt.resolve(RunRequest("forged")))
        assert r.error is not None and r.error.kind == "sandbox-unavailable", r.error
        assert "digest mismatch" in r.error.message
        assert rt.run(rt.resolve(RunRequest("plain"))).value == 1
    finally:
        rt.close()


def test_unregister_removes_only_the_bundle_it_is_given() -> None:
    """`unregister` removes only the bundle it is given (the host's registry is shared)."""
    e = Environment([MONEY], cache_dir=False)
    found = rt_prelude.lookup(e.bundle.key)
    assert found is e.bundle

    @dataclass
    class Other:
        key: str
        exports: Any = MISSING
        index: Any = None

    rt_prelude.unregister(Other(e.bundle.key))  # a different object: kept
    assert rt_prelude.lookup(e.bundle.key) is e.bundle
    rt_prelude.unregister(e.bundle)
    assert rt_prelude.lookup(e.bundle.key) is None
    rt_prelude.register(e.bundle)
    e.close()


def test_a_worker_holds_a_bounded_number_of_preludes() -> None:
    """Nine bundles through one worker: the host drops the least recently used one first,
    and a dropped bundle is shipped again when a run needs it."""
    from ptc_runtime.worker.prelude import MAX_LOADED

    envs = [Environment([f"(ns lib{i})\n(defn id [] {i})"], cache_dir=False)
            for i in range(MAX_LOADED + 1)]
    packages = [e.bundle.package() for e in envs]

    def compiler(source: str, tools: Any, names: Any) -> Any:
        i = int(source.split(":", 1)[0])
        p = envs[i].compile(source.split(":", 1)[1], names)
        return _Raw(p.code, dict(p.fn_names), packages[i])

    rt = Runtime(compiler, mode="isolated", pool_size=1)
    try:
        proc = _warm(rt)
        for i in range(MAX_LOADED + 1):
            assert rt.run(rt.resolve(RunRequest(f"{i}:(lib{i}/id)"))).value == i
        assert rt._pool.idle == [proc]
        assert list(proc.preludes) == [p.digest for p in packages[1:]]
        assert rt.run(rt.resolve(RunRequest("0:(lib0/id)"))).value == 0  # shipped again
        assert packages[0].digest in proc.preludes and packages[1].digest not in proc.preludes
        assert len(proc.preludes) == MAX_LOADED
    finally:
        rt.close()
        for e in envs:
            e.close()


def test_a_bundle_too_large_to_ship_is_refused_when_the_environment_is_built(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from ptc_compiler.prelude import PreludeError
    from ptc_runtime.worker import prelude as worker_prelude

    monkeypatch.setattr(worker_prelude, "MAX_PACKAGE_BYTES", 2_000)
    big = "(ns big)\n" + "\n".join(f"(defn f{i} [x] (+ x {i}))" for i in range(40))
    with pytest.raises(PreludeError) as info:
        Environment([big], cache_dir=False, mode="isolated", pool_size=0)
    assert info.value.code == "prelude_too_large" and "2000" in info.value.message
    # in-process the same bundle is fine (nothing is shipped)
    with Environment([big], cache_dir=False) as e:
        assert e.run("(big/f39 1)").value == 40


def test_an_isolated_environment_without_preludes_runs_like_in_process() -> None:
    """An empty bundle still ships (its key is attached by every program it compiles) and
    the worker accepts it: values, introspection, failures and retained definitions."""
    programs = ["(+ 1 2)", "(dir)", '(apropos "x")', "(fail {:a 1})", "(undefined-fn 1)"]
    got: dict[str, list[Any]] = {}
    for mode in ("in-process", "isolated"):
        with Environment([], cache_dir=False, mode=mode, pool_size=1) as env:
            runs = [env.run(p) for p in programs]
            owner = object()
            first = env.run("(def base 40) nil", state_owner=owner)
            second = env.run("(+ base 2)", state_owner=owner)
        got[mode] = [
            (r.outcome, r.error.code if r.error else None, project(r.value, DEFAULT_LIMITS))
            for r in [*runs, first, second]
        ]
    assert got["isolated"] == got["in-process"]
    assert got["isolated"][0] == ("value", None, 3)
    assert got["isolated"][-1] == ("value", None, 42)


def test_the_worker_loads_an_empty_package() -> None:
    pkg = build_package("k" * 64, [], [], {})
    digest, loaded = load_package(json.loads(pkg.line))
    assert digest == pkg.digest
    assert dict(loaded.exports) == {} and list(loaded.index.namespaces()) == []
