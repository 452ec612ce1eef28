"""PRE-11 ... PRE-15 of agent-design §1.11.8."""

from __future__ import annotations

from pathlib import Path

import pytest
from prelude_helpers import compile_error, env, failure, ok

from ptc_compiler.prelude import PreludeError, graph_hash, load_bundle
from ptc_compiler.prelude import artifact as art
from ptc_compiler.prelude.component import ComponentMeta, compile_component
from ptc_compiler.tools import Tool


def test_pre_11_dependency_ref_in_def_and_constant_types() -> None:
    base = "(ns base)\n(defn one [] 1)"
    err = compile_error([base, "(ns u {:deps [base]})\n(def x (base/one))"], "dep_ref_in_def")
    assert "base/one" in err.message
    compile_error(["(ns u)\n(def x (tool/get {}))"], "tool_in_def")
    compile_error(['(ns u)\n(def rate {:type ":int"} "ten")'], "type_mismatch")
    compile_error(['(ns u)\n(def rate {:type ":int"} 1.5)'], "type_mismatch")
    compile_error(['(ns u)\n(def rate {:type "{a :int"} 1)'], "invalid_signature")
    e = env('(ns u)\n(def rate "Rate." {:type ":float"} 1)\n(def rates {:type "[:int]"} [1 2])\n'
            "(def doubled (mapv #(* 2 %) rates))\n(defn scaled [x] (* x rate))")
    assert ok(e, "[u/rate (u/rate) u/doubled (u/scaled 3)]") == [1, 1, [2, 4], 3]
    assert ok(e, "(:type (export-meta u/rates))") == "[:int]"


def _metas(*sources: str) -> list[ComponentMeta]:
    b = load_bundle(list(sources), cache_dir=False, register=False)
    return list(b.metas)


def test_pre_12_bundle_hash_changes_iff_source_or_edge_changes() -> None:
    a = "(ns a)\n(defn f [] 1)"
    b = "(ns b {:deps [a]})\n(defn g [] (a/f))"
    b_no_edge = "(ns b)\n(defn g [] 1)"
    h1 = graph_hash(_metas(a, b))
    assert graph_hash(_metas(b, a)) == h1  # order of the inputs does not matter
    assert graph_hash(_metas(a, b)) == h1  # deterministic
    assert graph_hash(_metas(a + " ", b)) != h1  # a source changed
    assert graph_hash(_metas(a, b_no_edge)) != h1  # an edge changed


def test_pre_12_cache_invalidates_on_compiler_version_or_python_magic(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    src = "(ns a)\n(defn f [] 1)"
    cache = tmp_path / "c"
    seen: list[str] = []

    def progress(done: int, total: int, ns: str, what: str) -> None:
        seen.append(what)

    load_bundle([src], cache_dir=cache, progress=progress, register=False)
    load_bundle([src], cache_dir=cache, progress=progress, register=False)
    assert seen == ["compiled", "cached"]
    monkeypatch.setattr(art, "compiler_version", lambda: "999.0")
    load_bundle([src], cache_dir=cache, progress=progress, register=False)
    monkeypatch.setattr(art, "python_magic", lambda: "deadbeef")
    load_bundle([src], cache_dir=cache, progress=progress, register=False)
    assert seen == ["compiled", "cached", "compiled", "compiled"]
    assert len(list(cache.glob("*.ptcc"))) == 3


def test_pre_13_private_tool_only_from_authorised_namespace() -> None:
    calls: list[object] = []
    secret = Tool(lambda a: calls.append(a) or "ok", private_to=("agent.core",))
    core = "(ns agent.core)\n(defn finish [x] (tool/report-failure {:x x}))"
    e = env(core, tools={"report-failure": secret, "public": lambda a: 1})
    assert ok(e, "(agent.core/finish 1)") == "ok"
    r = failure(e, "(tool/report-failure {:x 2})")
    assert r.error is not None and r.error.code == "private_tool_unauthorized"
    r = failure(e, "(map tool/report-failure [{}])")
    assert r.error is not None and r.error.code == "private_tool_unauthorized"
    assert calls == [{"x": 1}]
    assert "report-failure" not in e.render_api()
    with pytest.raises(PreludeError) as info:
        env("(ns app)\n(defn sneaky [] (tool/report-failure {}))",
            tools={"report-failure": secret})
    assert info.value.code == "private_tool_unauthorized"


def test_pre_14_source_shows_exports_and_reachable_private_helpers_only() -> None:
    e = env(
        '(ns s)\n(defn- used [x] (* x 2))\n(defn- unused [] :never)\n'
        ';; a comment\n(defn pub "Doubles." [x] (used x))'
    )
    r = e.run("(source s/pub)")
    assert r.output.splitlines() == [
        ";; s/pub (prompt, arity 1)",
        '(defn pub "Doubles." [x] (used x))',
    ]
    r = e.run("(source s/used)")
    assert r.output.splitlines()[0] == ";; s/used (private, arity 1)"
    r = e.run("(source s/unused)")
    assert "not found" in r.output
    assert ok(e, '(apropos "used")') == []


def test_pre_15_returned_closure_still_resolves_private_helpers() -> None:
    e = env(
        "(ns c)\n(defn- scale [x] (* x 10))\n"
        "(defn make-scaler [k] (fn [x] (+ k (scale x))))\n"
        "(defn make-counter [] (fn [xs] (count-big xs)))\n"
        "(defn- count-big [xs] (count (filter #(> (scale %) 15) xs)))"
    )
    assert ok(e, "(let [f (c/make-scaler 1)] (map f [1 2]))") == [11, 21]
    assert ok(e, "((c/make-counter) [1 2 3])") == 2
    # The closure keeps working outside the call that made it, in a later run too.
    owner = object()
    assert ok(e, "(def f (c/make-scaler 5)) (f 1)", state_owner=owner) == 15
    assert ok(e, "(f 2)", state_owner=owner) == 25


def test_component_source_keeps_private_names_out_of_the_artifact_surface() -> None:
    c = compile_component("(ns z)\n(defn- h [] 1)\n(defn f [] (h))")
    assert [d.name for d in c.meta.public()] == ["f"]


def test_environment_arun_with_async_tool() -> None:
    import asyncio

    async def fetch(args: dict[str, object]) -> int:
        await asyncio.sleep(0)
        return 7

    e = env("(ns a)\n(defn get [] (+ 1 (tool/fetch {})))", tools={"fetch": fetch})
    r = asyncio.run(e.arun("(a/get)"))
    assert r.ok and r.value == 8
