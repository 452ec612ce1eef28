"""agent-design §3.12 Config lines (CFG-*), driven by ScriptedProvider."""

from __future__ import annotations

from typing import Any

import pytest
from loop_helpers import agent, call, last_content

from ptc_agent import AgentError, Mission, run_main, run_outcome, run_value
from ptc_agent.loop import _run
from ptc_agent.providers import Alias, ModelRouter, ScriptedProvider


def _core_run(task: str, *, model: Any, config: Any) -> Any:
    """agent.core/run, the terminal prelude entry."""
    return _run("agent.core/run", task, tools=None, model=model, router=None, config=config,
                signature=None, data=None, preludes=(), missions=None, timeout_ms=5000,
                cache_dir=None)


def _result_value(task: str, *, model: Any, config: Any) -> Any:
    """agent.core/run-result-value (a result contract selects it)."""
    return run_value(task, model=model, config=config, signature=":int")


def _main(task: str, *, model: Any, config: Any) -> Any:
    """agent.main/run with input {task, agent}."""
    return run_main({"task": task, "agent": config}, model=model)


def _config_error(config: dict[str, Any], entry: Any = run_outcome) -> tuple[AgentError, ScriptedProvider]:
    sp = ScriptedProvider([call("(return 1)")])
    with pytest.raises(AgentError) as info:
        entry("t", model=sp, config=config)
    return info.value, sp


def test_CFG_01_defaults_for_omitted_or_nil_options() -> None:
    for cfg in ({}, {"max_turns": None, "max_program_chars": None,
                     "max_observation_chars": None, "max_transcript_chars": None}):
        out, sp = agent([call("(return 1)")], config=cfg)
        assert out.status == "returned"
        assert "Turns remaining: 4 turns" in last_content(sp)
    # max_program_chars 64000: exactly 64000 runs, 64001 is too large
    ok = "(return 1)" + " " * (64000 - 10)
    out, _ = agent([call(ok)])
    assert out.value == 1
    out, sp = agent([call(ok + " "), call("(return 2)")])
    assert "program-too-large" in last_content(sp) and "64000" in last_content(sp)
    # max_observation_chars 2048 bounds the observation body
    out, sp = agent([call('(apply str (repeat 5000 "x"))'), call("(return 1)")])
    body = last_content(sp).split("<untrusted-output")[1]
    assert 2048 <= body.count("x") + 40 and body.count("x") < 2048


@pytest.mark.parametrize(("option", "lo", "hi"), [
    ("max_turns", 1, 128), ("max_program_chars", 1, 1_000_000),
    ("max_observation_chars", 1, 65_536), ("max_transcript_chars", 1, 1_000_000)])
def test_CFG_02_inclusive_endpoints_accepted(option: str, lo: int, hi: int) -> None:
    out, _ = agent([call("(return 1)")], config={option: hi})
    assert out.value == 1
    if option == "max_transcript_chars":  # accepted, then the transcript limit applies
        with pytest.raises(AgentError) as info:
            agent([call("(return 1)")], config={option: lo})
        assert info.value.code == "runtime_limit_exceeded"
    elif option == "max_program_chars":
        out, _ = agent([call("1"), call("2"), call("3"), call("4")], config={option: lo})
        assert out.kind == "turn-limit"
    else:
        out, _ = agent([call("(return 1)")], config={option: lo})
        assert out.value == 1


@pytest.mark.parametrize("entry", [run_outcome, run_value, _core_run, _result_value, _main])
@pytest.mark.parametrize(("option", "value", "rng"), [
    ("max_turns", 0, "1..128"), ("max_turns", 129, "1..128"),
    ("max_program_chars", 1_000_001, "1..1000000"),
    ("max_observation_chars", 65_537, "1..65536"), ("max_transcript_chars", 0, "1..1000000")])
def test_CFG_03_out_of_range_fails_before_any_request(entry: Any, option: str, value: int, rng: str) -> None:
    err, sp = _config_error({option: value}, entry)
    assert err.code == "invalid_agent_config"
    assert option in err.message and rng in err.message and str(value) in err.message
    assert sp.requests == []


@pytest.mark.parametrize(("value", "tag"), [
    ("SECRET-TEXT", "string"), (2.5, "float"), (True, "bool"), ({"k": "SECRET"}, "map"),
    (["SECRET"], "vector")])
def test_CFG_04_non_integer_fails_by_type_tag(value: Any, tag: str) -> None:
    err, sp = _config_error({"max_turns": value})
    assert err.code == "invalid_agent_config"
    assert err.details["type"] == tag and err.message.endswith(f"got {tag}")
    assert "SECRET" not in str(err) and "SECRET" not in repr(err.details)
    assert sp.requests == []


def test_CFG_05_mission_default_and_invalid() -> None:
    for cfg in ({}, {"mission": None}):
        out, _ = agent([call("(return data/x)")], config=cfg, data={"x": 7})
        assert out.value == 7
    for bad in ("", "   ", 3):
        err, sp = _config_error({"mission": bad})
        assert err.code == "invalid_agent_config" and err.details["reason"] == "invalid-mission"
        assert sp.requests == []


def test_CFG_06_unknown_mission_is_unavailable_without_fallback() -> None:
    err, sp = _config_error({"mission": "elsewhere"})
    assert err.code == "mission_unavailable" and err.details["cause"] == "unknown_mission"
    assert sp.requests == []
    # a named mission is used when it exists
    out, _ = agent([call("(return data/y)")], config={"mission": "m2"},
                   missions={"m2": Mission(data={"y": "from m2"})})
    assert out.value == "from m2"


@pytest.mark.parametrize("threshold", [0, 5, "2", 1.0])
def test_CFG_07_consolidation_threshold_range(threshold: Any) -> None:
    err, sp = _config_error({"max_turns": 4, "consolidate_at_turns_remaining": threshold})
    assert err.code == "invalid_agent_config"
    assert err.details["reason"] == "invalid-consolidation-threshold"
    assert sp.requests == []


def _run_entry(config: dict[str, Any]) -> Any:
    sp = ScriptedProvider([call('(return {:a 1})')])
    value, _ = _run("agent.core/run", "t", tools=None, model=sp, router=None, config=config,
                    signature=None, data=None, preludes=(), missions=None, timeout_ms=5000,
                    cache_dir=None)
    return value


def test_CFG_08_result_envelope() -> None:
    wrapped = _run_entry({})
    assert {getattr(k, "name", k): v for k, v in wrapped.items()}["ok"] is True
    raw = _run_entry({"result_envelope": False})
    assert [getattr(k, "name", k) for k in raw] == ["a"]


def test_CFG_09_unknown_key_rejected() -> None:
    err, sp = _config_error({"max_turns": 2, "temperature": 0.3})
    assert err.code == "invalid_agent_config" and err.details["reason"] == "unknown-option"
    assert "temperature" in err.message
    assert sp.requests == []


def test_CFG_10_model_omitted_uses_single_or_default_alias() -> None:
    one = ScriptedProvider([call("(return 1)")])
    out = run_outcome("t", router=ModelRouter([Alias("only", one)]))
    assert out.value == 1 and "model" not in one.requests[0].to_json()
    a, b = ScriptedProvider([call("(return :a)")]), ScriptedProvider([call("(return :b)")])
    out = run_outcome("t", router=ModelRouter([Alias("a", a), Alias("b", b, default=True)]))
    assert out.value.name == "b" and a.requests == []
    a, b = ScriptedProvider(), ScriptedProvider()
    out = run_outcome("t", router=ModelRouter([Alias("a", a), Alias("b", b)]))
    assert out.status == "provider-failure"
    assert out.error["reason"] == "model_alias_required"
    assert a.requests == [] and b.requests == []


@pytest.mark.parametrize(("model", "reason"), [("nope", "unknown_model_alias"),
                                               (None, "invalid_model_alias")])
def test_CFG_11_unknown_or_null_model_no_fallback(model: Any, reason: str) -> None:
    a = ScriptedProvider([call("(return 1)")])
    router = ModelRouter([Alias("a", a, default=True)])
    out = run_outcome("t", router=router, config={"model": model})
    assert out.status == "provider-failure"
    assert out.error["kind"] == "protocol_error" and out.error["reason"] == reason
    assert a.requests == []
    if model is not None:
        assert out.model == model
