"""Alias resolution, max_calls, host-owned parameters and credentials, via the router."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from llm_fake_server import FakeLLMServer, Reply

from ptc_agent.providers import (
    Alias,
    AliasConfigError,
    Message,
    ModelRouter,
    ProviderFailure,
    Request,
    Response,
    ScriptedProvider,
    Usage,
    router_from_config,
)
from ptc_agent.providers.aliases import api_key

REQ = Request((Message("user", "hi"),))
OK = {
    "content": "",
    "tool_calls": [{"id": "c", "name": "run_ptc_lisp", "args": {"program": "(return 1)"}}],
    "tokens": {"input": 3, "output": 2},
}


def router(*aliases: Alias) -> ModelRouter:
    return ModelRouter(aliases)


def test_single_alias_is_used_when_model_omitted() -> None:
    script = ScriptedProvider([OK])
    response = router(Alias("only", script)).request(REQ)
    assert response.model == "only"
    assert response.tool_calls[0].args == {"program": "(return 1)"}


def test_default_alias_among_several() -> None:
    a, b = ScriptedProvider([OK]), ScriptedProvider([OK])
    assert router(Alias("a", a), Alias("b", b, default=True)).request(REQ).model == "b"
    assert (len(a.requests), len(b.requests)) == (0, 1)


def test_several_without_default_require_an_alias() -> None:
    envelope = router(Alias("a", ScriptedProvider()), Alias("b", ScriptedProvider())).llm_request(
        {"messages": []}
    )
    assert envelope == {
        "status": "error",
        "kind": "protocol_error",
        "reason": "model_alias_required",
        "retryable?": False,
        "details": "several aliases and no default: a, b",
    }


@pytest.mark.parametrize(
    ("model", "reason", "named"),
    [
        pytest.param("nope", "unknown_model_alias", "nope", id="unknown"),
        pytest.param(None, "invalid_model_alias", None, id="null"),
        pytest.param("  ", "invalid_model_alias", None, id="blank"),
        pytest.param(7, "invalid_model_alias", None, id="not-a-string"),
    ],
)
def test_bad_alias_never_reaches_a_provider(model: object, reason: str, named: str | None) -> None:
    script = ScriptedProvider([OK])
    envelope = router(Alias("only", script)).llm_request({"messages": [], "model": model})
    assert (envelope["kind"], envelope["reason"], envelope["retryable?"]) == (
        "protocol_error",
        reason,
        False,
    )
    assert envelope.get("model") == named
    assert script.requests == []


def test_max_calls_is_a_named_quota() -> None:
    script = ScriptedProvider([OK, OK, OK])
    r = router(Alias("fast", script, max_calls=2))
    assert [r.llm_request({"messages": [], "model": "fast"})["status"] for _ in range(2)] == [
        "ok",
        "ok",
    ]
    envelope = r.llm_request({"messages": [], "model": "fast"})
    assert envelope == {
        "status": "error",
        "kind": "limit_exceeded",
        "reason": "capability_quota",
        "retryable?": False,
        "model": "fast",
        "details": {"limit": "max_calls", "alias": "fast", "limit_value": 2},
    }
    assert len(script.requests) == 2


def test_max_calls_counts_failed_calls_and_is_per_alias() -> None:
    a = ScriptedProvider([ProviderFailure("provider_error", "unavailable", True)])
    b = ScriptedProvider([OK])
    r = router(Alias("a", a, max_calls=1, default=True), Alias("b", b, max_calls=1))
    assert r.llm_request({"messages": []})["reason"] == "unavailable"
    assert r.llm_request({"messages": []})["reason"] == "capability_quota"
    assert r.llm_request({"messages": [], "model": "b"})["status"] == "ok"


def test_provider_failure_envelope_names_the_alias() -> None:
    script = ScriptedProvider([ProviderFailure("provider_error", "rate_limited", True, "HTTP 429")])
    envelope = router(Alias("fast", script)).llm_request({"messages": []})
    assert envelope == {
        "status": "error",
        "kind": "provider_error",
        "reason": "rate_limited",
        "retryable?": True,
        "details": "HTTP 429",
        "model": "fast",
    }


def test_success_envelope_is_the_neutral_response() -> None:
    envelope = router(Alias("fast", ScriptedProvider([OK]))).llm_request(
        {
            "system": "s",
            "messages": [{"role": "user", "content": "hi"}],
            "model": "fast",
            "cache": True,
        }
    )
    assert envelope == {
        "status": "ok",
        "value": {
            "content": "",
            "tool_calls": [{"id": "c", "name": "run_ptc_lisp", "args": {"program": "(return 1)"}}],
            "tokens": {"input": 3, "output": 2, "cache_creation": 0, "cache_read": 0},
            "model": "fast",
        },
    }


def test_malformed_request_map_is_invalid_request() -> None:
    envelope = router(Alias("a", ScriptedProvider())).llm_request({"messages": "nope"})
    assert (envelope["kind"], envelope["reason"]) == ("provider_error", "invalid_request")
    assert router(Alias("a", ScriptedProvider())).llm_request({"messages": [], "temperature": 1})[
        "reason"
    ] == ("invalid_request")


def test_host_crash_propagates() -> None:
    r = router(Alias("a", ScriptedProvider([RuntimeError("callback bug")])))
    with pytest.raises(RuntimeError, match="callback bug"):
        r.llm_request({"messages": []})


def test_host_parameters_fill_the_request() -> None:
    script = ScriptedProvider([OK])
    router(Alias("a", script, max_tokens=100, temperature=0.5, timeout=9.0)).request(REQ)
    [seen] = script.requests
    assert (seen.max_tokens, seen.temperature, seen.timeout) == (100, 0.5, 9.0)
    assert seen.model is None  # the alias stays the workflow's; the adapter holds the model id


def test_usage_and_close_once() -> None:
    script = ScriptedProvider([OK, Response("x", usage=Usage(input=7, output=1))])
    r = router(Alias("a", script))
    r.request(REQ)
    r.request(REQ)
    usage = r.usage()["a"]
    assert (usage.calls, usage.successes, usage.input_tokens, usage.output_tokens) == (2, 2, 10, 3)
    r.close()
    r.close()
    assert script.close_count == 1


@pytest.mark.parametrize(
    "aliases",
    [
        pytest.param([], id="empty"),
        pytest.param(
            [Alias("a", ScriptedProvider()), Alias("a", ScriptedProvider())], id="duplicate"
        ),
        pytest.param(
            [
                Alias("a", ScriptedProvider(), default=True),
                Alias("b", ScriptedProvider(), default=True),
            ],
            id="two-defaults",
        ),
        pytest.param([Alias("a", ScriptedProvider(), max_calls=-1)], id="negative-max-calls"),
    ],
)
def test_invalid_router(aliases: list[Alias]) -> None:
    with pytest.raises(AliasConfigError):
        ModelRouter(aliases)


# ----------------------------------------------------------------- host configuration


def test_config_builds_http_aliases_with_env_credentials(server: FakeLLMServer) -> None:
    server.reply(Reply(200, {"choices": [{"message": {"content": "hi"}, "finish_reason": "stop"}]}))
    config: dict[str, Any] = {
        "aliases": {
            "fast": {
                "adapter": "openai",
                "model": "gpt-x",
                "base_url": server.base_url,
                "api_key_env": "MY_KEY",
                "max_tokens": 64,
                "timeout": 5,
                "max_calls": 1,
                "default": True,
            },
            "deep": {"adapter": "anthropic", "model": "claude-x", "base_url": server.base_url},
        }
    }
    r = router_from_config(config, environ={"MY_KEY": "k-123", "ANTHROPIC_API_KEY": "a-456"})
    assert r.default == "fast"
    assert r.llm_request({"messages": [{"role": "user", "content": "q"}]})["status"] == "ok"
    [seen] = server.requests
    assert seen.headers["authorization"] == "Bearer k-123"
    assert (seen.body["model"], seen.body["max_tokens"]) == ("gpt-x", 64)
    assert r.llm_request({"messages": []})["reason"] == "capability_quota"


def test_config_replay_alias(tmp_path: Path) -> None:
    r = router_from_config(
        {"aliases": {"rep": {"adapter": "replay", "fixtures": str(tmp_path / "none.jsonl")}}}
    )
    envelope = r.llm_request({"messages": []})
    assert (envelope["reason"], envelope["model"]) == ("not_found", "rep")


def test_config_custom_factory() -> None:
    script = ScriptedProvider([OK])
    r = router_from_config(
        {"aliases": {"s": {"adapter": "script"}}}, factories={"script": lambda e, env: script}
    )
    assert r.request(REQ).model == "s"


@pytest.mark.parametrize(
    "config",
    [
        pytest.param({}, id="no-aliases"),
        pytest.param({"aliases": {"a": {"adapter": "grpc"}}}, id="unknown-adapter"),
        pytest.param({"aliases": {"a": {"adapter": "openai"}}}, id="no-model"),
        pytest.param(
            {"aliases": {"a": {"adapter": "openai", "model": "m", "max_calls": "3"}}},
            id="max-calls-type",
        ),
        pytest.param(
            {"aliases": {"a": {"adapter": "openai", "model": "m", "max_calls": 1.5}}},
            id="max-calls-float",
        ),
        pytest.param(
            {"aliases": {"a": {"adapter": "openai", "model": "m", "api_key_env": "UNSET_VAR"}}},
            id="named-var-unset",
        ),
        pytest.param({"aliases": {"a": {"adapter": "replay"}}}, id="replay-no-fixtures"),
    ],
)
def test_invalid_config(config: dict[str, Any]) -> None:
    with pytest.raises(AliasConfigError) as info:
        router_from_config(config, environ={})
    assert "secret" not in str(info.value)


def test_credential_sources_in_order() -> None:
    env = {"OPENAI_API_KEY": "from-default", "CUSTOM": "from-named"}
    assert (
        api_key({"api_key": "from-config", "api_key_env": "CUSTOM"}, env, "openai") == "from-config"
    )
    assert api_key({"api_key_env": "CUSTOM"}, env, "openai") == "from-named"
    assert api_key({}, env, "openai") == "from-default"
    assert api_key({}, {}, "openai") is None
    assert api_key({}, {"ANTHROPIC_API_KEY": "a"}, "anthropic") == "a"
