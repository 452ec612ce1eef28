"""The agent loop driven through the OpenAI-format loopback server: read failures a repeat
cannot fix, failure names, quota facts, the prints flag under the observation cap,
turn-limit remedies, effect metadata in the prompt and parallel agent loops."""

from __future__ import annotations

import json
from typing import Any

import pytest
from llm_fake_server import FakeLLMServer, Reply

from ptc_agent import run_outcome
from ptc_agent.providers import (
    Alias,
    ModelRouter,
    OpenAIChatProvider,
    ProviderError,
    ProviderFailure,
)
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
