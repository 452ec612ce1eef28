"""`agent.main/run` (seed 001): input {task, agent}, result contract, raw value."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from loop_helpers import call, last_content

from ptc_agent import AgentError, run_main
from ptc_agent.loop import _run
from ptc_agent.providers import ProviderFailure, ScriptedProvider
from ptc_compiler.cli import main

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "agent"


def test_RES_05_main_returns_the_raw_contract_valid_value() -> None:
    sp = ScriptedProvider([call('(return {:total "x"})'), call("(return {:total 3})")])
    value = run_main({"task": "Count.", "agent": {"max_turns": 3}}, model=sp,
                     signature="{total :int}")
    assert {k.name: v for k, v in value.items()} == {"total": 3}  # no {ok, value} envelope
    assert len(sp.requests) == 2
    assert "does not satisfy the result contract" in last_content(sp)
    assert '"x"' not in last_content(sp)  # RES-03: the candidate is never echoed
    assert "Turns remaining: 3 turns" in str(sp.requests[0].messages[0].to_json()["content"])


def test_main_uses_the_agent_configuration_and_defaults() -> None:
    sp = ScriptedProvider([call("(return 5)")])
    assert run_main({"task": "t"}, model=sp) == 5  # no "agent": the documented defaults
    assert "Turns remaining: 4 turns" in str(sp.requests[0].messages[0].to_json()["content"])


def test_RES_06_main_exhaustion_fails_result_contract() -> None:
    sp = ScriptedProvider([call('(return "no")')])
    with pytest.raises(AgentError) as info:
        run_main({"task": "t", "agent": {"max_turns": 1}}, model=sp, signature=":int")
    assert info.value.code == "result_contract_failed"


def test_PRV_09_main_fails_fast_on_provider_failure() -> None:
    sp = ScriptedProvider([ProviderFailure("provider_error", "unavailable", True, "HTTP 503"),
                           call("(return 1)")])
    with pytest.raises(AgentError) as info:
        run_main({"task": "t"}, model=sp)
    assert info.value.code == "llm_provider_failed"
    assert info.value.details["reason"] == "unavailable" and len(sp.requests) == 1


@pytest.mark.parametrize(("task", "tag"), [(None, "nil"), (7, "other"), (["x"], "vector")])
def test_main_rejects_a_non_string_task_before_any_request(task: Any, tag: str) -> None:
    sp = ScriptedProvider([call("(return 1)")])
    with pytest.raises(AgentError) as info:
        run_main({"task": task}, model=sp)
    assert info.value.code == "invalid_agent_config"
    assert info.value.details == {"reason": "invalid-task", "option": "task", "type": tag}
    assert sp.requests == []


def test_main_prelude_reports_a_non_map_input_as_the_task() -> None:
    sp = ScriptedProvider([call("(return 1)")])
    with pytest.raises(AgentError) as info:
        _run("agent.main/run", ["not", "a", "map"], tools=None, model=sp,  # type: ignore[arg-type]
             router=None, config=None, signature=None, data=None, preludes=(), missions=None,
             timeout_ms=5000, cache_dir=None)
    assert info.value.code == "invalid_agent_config" and sp.requests == []


@pytest.mark.parametrize("bad", [["task"], {"task": "t", "temperature": 1}, {"agent": 3}])
def test_main_python_input_shape_is_checked(bad: Any) -> None:
    with pytest.raises(TypeError):
        run_main(bad, model=ScriptedProvider([]))


def test_cli_main_entry_prints_the_raw_value(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("tools.py", "replay.jsonl", "task.md"):
        shutil.copy(EXAMPLE / name, tmp_path / name)
    spec = json.loads((EXAMPLE / "agent.json").read_text(encoding="utf-8"))
    spec["entry"] = "agent.main/run"
    (tmp_path / "agent.json").write_text(json.dumps(spec), encoding="utf-8")
    assert main(["agent", "run", str(tmp_path / "agent.json")]) == 0
    assert capsys.readouterr().out.strip() == "{:revenue 181.0, :count 3}"
    spec["config"] = {"max_turns": 0}
    (tmp_path / "agent.json").write_text(json.dumps(spec), encoding="utf-8")
    assert main(["agent", "run", str(tmp_path / "agent.json")]) == 2
    assert "invalid_agent_config" in capsys.readouterr().err
