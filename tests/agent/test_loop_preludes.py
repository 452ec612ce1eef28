"""The agent library as separate shipped preludes, and who may call the host capabilities.

PRE-13 (agent-design §1.11) applied to the agent library: every host tool is reserved for
the one shipped namespace that wraps it (`llm`, `kernel`) or, for the trusted reporters, for
`agent.core`; model programs and other preludes cannot reach them.
"""

from __future__ import annotations

from typing import Any

import pytest
from loop_helpers import agent, call, last_content

from ptc_agent import loop
from ptc_agent.failures import AgentError
from ptc_agent.host import TOOL_OWNERS, AgentHost
from ptc_agent.providers import Alias, ModelRouter, ScriptedProvider
from ptc_compiler.prelude import Environment
from ptc_compiler.prelude.component import PreludeError
from ptc_compiler.tools import Tool


def _host() -> AgentHost:
    return AgentHost(ModelRouter([Alias("m", ScriptedProvider([]))]), {})


def test_workflow_is_the_split_library_with_declared_dependencies() -> None:
    host = _host()
    env = loop._workflow(host, None)
    try:
        deps = {m.ns: set(m.deps) for m in env.bundle.metas}
        direct = env.bundle.direct_tools()
    finally:
        env.close()
        host.close()
    assert set(deps) == set(loop.WORKFLOW_NAMESPACES)
    assert "cap" not in deps  # a mission library, not part of the loop
    assert deps["agent.main"] == {"agent.core"}
    assert deps["agent.core"] >= {"kernel", "llm", "agent.native", "agent.feedback",
                                  "agent.prompt", "agent.retry"}
    assert deps["agent.prompt"] == {"kernel"}
    # each host tool is called directly by exactly its owner, nobody else
    assert {tool: sorted(nss) for tool, nss in direct.items()} == {
        tool: [owner] for tool, owner in TOOL_OWNERS.items()}


@pytest.mark.parametrize("tool", sorted(TOOL_OWNERS))
def test_host_tool_refused_to_every_other_namespace(tool: str) -> None:
    host = _host()
    try:
        intruder = "agent.main" if TOOL_OWNERS[tool] != "agent.main" else "app"
        src = f"(ns {intruder})\n(defn x [] (tool/{tool} {{}}))"
        with pytest.raises(PreludeError) as info:
            Environment([src], tools=host.tools(), timeout_ms=None)
        assert info.value.code == "private_tool_unauthorized"
        # and programs of the workflow itself cannot name it either
        env = Environment([], tools=host.tools(), timeout_ms=None)
        try:
            r = env.run(f"(tool/{tool} {{}})")
        finally:
            env.close()
        assert r.error is not None and r.error.code == "private_tool_unauthorized"
    finally:
        host.close()


def test_trusted_reporters_refused_to_the_support_libraries() -> None:
    host = _host()
    try:
        src = "(ns kernel)\n(defn boom [] (tool/kernel-failure {\"code\" \"x\"}))"
        with pytest.raises(PreludeError) as info:
            Environment([src], tools=host.tools(), timeout_ms=None)
        assert info.value.code == "private_tool_unauthorized"
    finally:
        host.close()


def test_owner_namespaces_must_be_the_shipped_sources(monkeypatch: pytest.MonkeyPatch,
                                                      tmp_path: Any) -> None:
    # A look-alike `llm` (same name, same tool, different code) is refused by source hash.
    fake = tmp_path / "llm.clj"
    fake.write_text('(ns llm)\n(defn request [req] (tool/llm-request (assoc req "x" 1)))\n'
                    "(defn transcript [] (tool/llm-transcript {}))\n"
                    "(defn request-appending [t new req] (tool/llm-request req))\n"
                    "(defn error? [r] false)\n")
    monkeypatch.setitem(loop.SHIPPED, "llm", fake)  # type: ignore[arg-type]
    monkeypatch.setattr(loop, "_shipped_hash", lambda ns: "not-" + ns)
    host = _host()
    try:
        with pytest.raises(AgentError) as info:
            loop._workflow(host, None)
    finally:
        host.close()
    assert info.value.code == "workflow_error" and info.value.details["namespace"] in TOOL_OWNERS.values()


def test_mission_programs_cannot_call_the_wrappers() -> None:
    out, sp = agent([call('(kernel/render-api "default")'), call("(return 1)")])
    assert out.value == 1
    assert "unknown namespace kernel/" in last_content(sp)
    assert "Available API" not in last_content(sp)


def _flaky_tools() -> dict[str, Any]:
    def flaky(args):  # type: ignore[no-untyped-def]  # untyped: receives the map
        return {"status": "error", "kind": "provider_error", "reason": "timeout",
                "retryable?": True}

    return {"flaky": Tool(flaky, effect="read")}


def test_EFF_10_cap_unwrap_keeps_the_exact_envelope() -> None:
    out, sp = agent([call("(cap/unwrap! (tool/flaky {}))"), call("(return 1)")],
                    tools=_flaky_tools(), preludes=[loop.CAP_SOURCE])
    assert out.value == 1
    assert "kind: provider_error, reason: timeout" in last_content(sp)
    # rebuilding the envelope before unwrapping is not the capability's result: terminal
    out, _ = agent([call("(cap/unwrap! (into {} (tool/flaky {})))"), call("(return 1)")],
                   tools=_flaky_tools(), preludes=[loop.CAP_SOURCE])
    assert out.status == "subject-failure" and out.kind == "model-program-failed"


def test_cap_unwrap_passes_values_through() -> None:
    out, _ = agent([call('(return [(cap/unwrap! {:status "ok" :value 5}) (cap/unwrap! 7)])')],
                   preludes=[loop.CAP_SOURCE])
    assert list(out.value) == [5, 7]
