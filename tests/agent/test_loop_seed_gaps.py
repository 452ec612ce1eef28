"""The agent loop driven through the OpenAI-format loopback server: read failures a repeat
cannot fix, failure names, quota facts, the prints flag under the observation cap,
turn-limit remedies, effect metadata in the prompt and parallel agent loops."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from llm_fake_server import FakeLLMServer, Reply

from ptc_agent import AgentError, run_outcome, run_value
from ptc_agent.providers import (
    Alias,
    ModelRouter,
    OpenAIChatProvider,
    ProviderError,
    ProviderFailure,
)
from ptc_agent.run_limits import HostLimits
from ptc_agent.workflow import run_workflow
from ptc_compiler.tools import Tool

DONT_REPEAT = "Do not repeat that program"


def program_reply(program: str, call_id: str = "c1", **extra: Any) -> Reply:
    """An OpenAI chat-completions response with one run_ptc_lisp tool call."""
    return Reply(200, {
        "id": "r", "object": "chat.completion", "model": "m",
        "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
            "role": "assistant", "content": "",
            "tool_calls": [{"id": call_id, "type": "function", "function": {
                "name": "run_ptc_lisp", "arguments": json.dumps({"program": program})}}]}}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
        **extra})


def router_for(server: FakeLLMServer, **alias: Any) -> ModelRouter:
    provider = OpenAIChatProvider("m", base_url=server.base_url + "/v1", api_key="k")
    return ModelRouter([Alias("live", provider, timeout=30, **alias)])


def sent_messages(server: FakeLLMServer, i: int = -1) -> list[dict[str, Any]]:
    body = server.requests[i].body
    assert isinstance(body, dict)
    return list(body["messages"])


def last_sent(server: FakeLLMServer, i: int = -1) -> str:
    return str(sent_messages(server, i)[-1]["content"])


# ------------------------------------------------------- read failures a repeat cannot fix


def _read_tools(log: list[str]) -> dict[str, Any]:
    def refused(args):  # type: ignore[no-untyped-def]  # untyped: receives the map
        log.append("refused")
        raise ProviderError(ProviderFailure("provider_error", "authentication_failed", False,
                                            "HTTP 401"))

    def transient(args):  # type: ignore[no-untyped-def]  # untyped: receives the map
        log.append("transient")
        raise ProviderError(ProviderFailure("provider_error", "timeout", True, "slow"))

    def crashes(args):  # type: ignore[no-untyped-def]  # untyped: receives the map
        log.append("crashes")
        raise KeyError("bug in the tool")

    return {"refused": Tool(refused, effect="read", doc="A read whose provider refuses."),
            "transient": Tool(transient, effect="read", doc="A read that times out."),
            "crashes": Tool(crashes, effect="read", doc="A read that crashes.")}


@pytest.mark.parametrize("tool", ["refused", "crashes"])
def test_a_read_failure_a_repeat_cannot_fix_is_not_corrected(
    server: FakeLLMServer, tool: str
) -> None:
    log: list[str] = []
    server.reply(program_reply(f"(tool/{tool} {{}})"), program_reply('(return "gave up")'))
    router = router_for(server)
    out = run_outcome("t", router=router, tools=_read_tools(log), config={"max_turns": 4})
    router.close()
    fb = last_sent(server)
    assert DONT_REPEAT in fb  # the closing turn, not an ordinary correction
    assert out.value == "gave up" and log == [tool]
    assert out.mutation_state is None  # a read: nothing of unknown state happened


@pytest.mark.parametrize("tool", ["refused", "crashes"])
def test_a_second_failure_after_the_closing_turn_ends_the_loop(
    server: FakeLLMServer, tool: str
) -> None:
    server.reply(program_reply(f"(tool/{tool} {{}})"), program_reply(f"(tool/{tool} {{:again 1}})"))
    router = router_for(server)
    out = run_outcome("t", router=router, tools=_read_tools([]), config={"max_turns": 4})
    router.close()
    assert out.kind == "non-retryable-evaluation" and len(server.requests) == 2


def test_a_retryable_read_failure_keeps_the_ordinary_correction(server: FakeLLMServer) -> None:
    server.reply(program_reply("(tool/transient {})"), program_reply("(return 1)"))
    router = router_for(server)
    out = run_outcome("t", router=router, tools=_read_tools([]), config={"max_turns": 4})
    router.close()
    assert out.value == 1 and DONT_REPEAT not in last_sent(server)


# ------------------------------------------------------- failure names and remedies


def text_reply(content: str, finish: str = "stop") -> Reply:
    return Reply(200, {"choices": [{"index": 0, "finish_reason": finish,
                                    "message": {"role": "assistant", "content": content}}]})


@pytest.mark.parametrize(("last", "reason", "remedy"), [
    (program_reply("2"), "intermediate-result", "raise max_turns, or reduce the work per turn"),
    (program_reply("(/ 1 0)"), "evaluation-error",
     "raise max_turns, or simplify the work per turn"),
    (text_reply("I am done."), "protocol-error",
     "check the model's tool-calling support and any configured max_tokens first"),
])
def test_a_spent_turn_ceiling_is_turn_limit_exceeded_with_its_remedy(
    server: FakeLLMServer, last: Reply, reason: str, remedy: str
) -> None:
    server.reply(program_reply("1"), last)
    router = router_for(server)
    try:
        with pytest.raises(AgentError) as info:
            run_value("t", router=router, config={"max_turns": 2})
    finally:
        router.close()
    err = info.value
    assert err.code == "turn_limit_exceeded"
    assert err.details == {"limit": "agent_turns", "value": 2, "reason": reason,
                           "remedy": remedy}
    assert "agent_turns limit of 2" in err.message and err.message.endswith(remedy)
    stopped = err.trace[-1]["data"]
    assert stopped["failure_kind"] == "turn-limit" and stopped["limit_value"] == 2
    assert len(server.requests) == 2


ROOT = Path(__file__).resolve().parents[2]


def _ptc_agent(*args: str) -> subprocess.CompletedProcess[str]:
    """`ptc agent run ...` in a fresh interpreter (it inherits the test's prelude cache)."""
    return subprocess.run([sys.executable, "-m", "ptc_compiler.cli", "agent", "run", *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=300, check=False)


def _live_spec(tmp_path: Path, server: FakeLLMServer, **config: Any) -> Path:
    models = {"aliases": {"live": {"adapter": "openai", "model": "m", "api_key": "k",
                                   "base_url": server.base_url + "/v1", "max_tokens": 64}}}
    spec = {"task": "Do the task.", "models": models, "config": {"max_turns": 3, **config}}
    path = tmp_path / "agent.json"
    path.write_text(json.dumps(spec), encoding="utf-8")
    return path


def test_cli_exits_6_on_truncated_model_output(tmp_path: Path, server: FakeLLMServer) -> None:
    server.reply(text_reply("partial", finish="length"))
    done = _ptc_agent(str(_live_spec(tmp_path, server)))
    assert done.returncode == 6, done.stderr
    assert "model_output_truncated" in done.stderr and done.stdout == ""
    assert len(server.requests) == 1  # terminal: no further turn



# ------------------------------------------------------- quota refusals keep their facts


def test_a_fail_fast_max_calls_refusal_keeps_the_quota_facts(server: FakeLLMServer) -> None:
    server.reply(program_reply("1"), program_reply("(return 1)"))
    router = router_for(server, max_calls=1)
    try:
        with pytest.raises(AgentError) as info:
            run_value("t", router=router, config={"max_turns": 3})
    finally:
        router.close()
    err = info.value
    assert err.code == "capability_quota_exceeded"
    assert err.details == {"kind": "limit_exceeded", "reason": "capability_quota",
                           "retryable?": False, "model": "live", "limit": "max_calls",
                           "alias": "live", "limit_value": 1}
    assert "max_calls limit of 1 reached" in err.message
    assert len(server.requests) == 1  # the refused request never reached the server


def test_a_workflow_quota_refusal_keeps_its_facts(server: FakeLLMServer) -> None:
    server.reply(program_reply("1"), program_reply("(return 1)"))
    router = router_for(server)
    try:
        with pytest.raises(AgentError) as info:
            run_value("t", router=router, limits=HostLimits(workflow_capability_calls=1))
    finally:
        router.close()
    err = info.value
    assert err.details["limit"] == "workflow_capability_calls"
    assert err.details["limit_value"] == 1 and err.details["name"] == "llm-request"
    assert "workflow_capability_calls limit of 1 reached" in err.message


# ------------------------------------------------------- the prints flag under the cap


@pytest.mark.parametrize("cap", [200, 1000, 4000])
def test_the_prints_omitted_flag_survives_the_observation_cap(
    server: FakeLLMServer, cap: int
) -> None:
    program = '(println (apply str (repeat 5000 "p"))) (apply str (repeat 100000 "v"))'
    server.reply(program_reply(program), program_reply("(return 1)"))
    router = router_for(server)
    out = run_outcome("t", router=router, config={"max_observation_chars": cap})
    router.close()
    assert out.value == 1
    fb = last_sent(server)
    body = fb.split('">\n', 1)[1].split("\n</untrusted-output>")[0]
    assert body.endswith("...[prints omitted]") and "[observation truncated]" not in body
    assert len(body) <= cap and "println:\npp" in body and body.startswith('user=> "vvv')


# ------------------------------------------------------- effects in the Available API


def _shop_tools() -> dict[str, Any]:
    def get_order(args):  # type: ignore[no-untyped-def]  # untyped: receives the map
        return {"id": 1}

    def cancel(args):  # type: ignore[no-untyped-def]  # untyped: receives the map
        return {"ok": True}

    return {"get-order": Tool(get_order, effect="read", doc="Look an order up."),
            "cancel": Tool(cancel, effect="write", doc="Cancel an order.")}


SHOP = """(ns shop "Orders." {:visibility :prompt})
(defn totals "Sums of the numbers." [xs] (reduce + 0 xs))
(defn cancel! "Cancels an order." [id] (tool/cancel {:id id}))
"""


def _system_prompt(server: FakeLLMServer) -> str:
    messages = sent_messages(server, 0)
    body = server.requests[0].body
    assert isinstance(body, dict)
    system = [m for m in messages if m.get("role") == "system"]
    assert system, body
    return str(system[0]["content"])


def test_the_prompt_lists_each_tools_effect(server: FakeLLMServer) -> None:
    server.reply(program_reply("(return 1)"))
    router = router_for(server)
    out = run_outcome("t", router=router, tools=_shop_tools())
    router.close()
    assert out.value == 1
    system = _system_prompt(server)
    assert "(tool/get-order {...})  ; effect: read\n  ;; Look an order up." in system
    assert "(tool/cancel {...})  ; effect: write" in system


def test_the_prompt_lists_each_exports_effect(server: FakeLLMServer) -> None:
    server.reply(program_reply("(return 1)"))
    router = router_for(server)
    out = run_outcome("t", router=router, tools=_shop_tools(), preludes=[SHOP])
    router.close()
    assert out.value == 1
    lines = _system_prompt(server).splitlines()
    totals = next(x for x in lines if x.startswith("(shop/totals"))
    cancel = next(x for x in lines if x.startswith("(shop/cancel!"))
    assert totals.endswith("; effect: read")
    assert cancel.endswith("; effect: unknown")  # reaching a capability is never a read
    assert not any(x.startswith("(tool/") for x in lines)  # the facades replace the tools


# ------------------------------------------------------- agent loops under pmap / pcalls


def _slow(program: str, delay: float) -> Reply:
    r = program_reply(program)
    return Reply(r.status, r.body, delay=delay)


#: ten loops: more than the run's default of eight parallel workers, on any machine
LOOPS = '(pmap (fn [t] (agent.core/run-value t {"max_turns" 1})) (map str (range 10)))'


def test_the_parallel_deadline_is_a_host_limit(server: FakeLLMServer) -> None:
    # two loops whose model calls outlast a short parallel deadline fail by it ...
    server.reply(_slow("(return 1)", 1.5), _slow("(return 2)", 1.5))
    router = router_for(server)
    program = ('(pcalls (fn [] (agent.core/run-value "a" {"max_turns" 1}))'
               ' (fn [] (agent.core/run-value "b" {"max_turns" 1})))')
    try:
        with pytest.raises(AgentError) as info:
            run_workflow(program, router=router, timeout_ms=60_000,
                         limits=HostLimits(parallel_timeout_ms=300))
        assert "parallel" in str(info.value) or "timeout" in str(info.value)
        # ... and succeed once the host gives the parallel phase its headroom
        server.reply(_slow("(return 1)", 1.5), _slow("(return 2)", 1.5))
        value = run_workflow(program, router=router, timeout_ms=60_000,
                             limits=HostLimits(parallel_timeout_ms=50_000))
    finally:
        router.close()
    assert sorted(value) == [1, 2]


def test_pmap_of_agent_loops_may_overlap_more_than_the_cpu_bound(
    server: FakeLLMServer,
) -> None:
    # ten loops, each waiting on a slow model call: all ten requests are in flight at once
    server.reply(*(_slow(f"(return {i})", 2.0) for i in range(10)))
    router = router_for(server)
    try:
        value = run_workflow(LOOPS, router=router, timeout_ms=120_000,
                             limits=HostLimits(parallel_timeout_ms=100_000,
                                               parallel_concurrency=10))
    finally:
        router.close()
    assert sorted(value) == list(range(10))
    assert server.max_in_flight == 10


def test_parallel_host_limits_are_checked() -> None:
    for bad in ({"parallel_timeout_ms": 0}, {"parallel_concurrency": 0},
                {"parallel_concurrency": True}):
        with pytest.raises(ValueError, match=r"HostLimits\.parallel"):
            HostLimits(**bad)  # type: ignore[arg-type]
