"""The bundled example: `ptc agent run examples/agent/agent.json` replays a recorded 3-turn run
(agent-design §4: replay fixtures drive the loop without a live model)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from loop_helpers import _agent_prelude_cache  # noqa: F401

from ptc_compiler.agent import run_outcome
from ptc_compiler.agent.cli import _load_tools
from ptc_compiler.agent.providers import Alias, ModelRouter, ReplayProvider
from ptc_compiler.cli import main

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "agent"


def test_cli_replays_bundled_fixture(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["agent", "run", str(EXAMPLE / "agent.json"), "-v"]) == 0
    captured = capsys.readouterr()
    assert captured.out.strip() == "{:revenue 181.0, :count 3}"
    assert captured.err.count("tool-call") == 3


def test_replay_provider_drives_three_turns() -> None:
    spec = json.loads((EXAMPLE / "agent.json").read_text(encoding="utf-8"))
    replay = ReplayProvider(EXAMPLE / spec["fixtures"])
    out = run_outcome((EXAMPLE / spec["task_file"]).read_text(encoding="utf-8").strip(),
                      tools=_load_tools(EXAMPLE / spec["tools"]),
                      router=ModelRouter([Alias("replay", replay)]),
                      config=spec["config"], signature=spec["signature"])
    assert out.ok and out.evaluations == 3
    assert {k.name: v for k, v in out.value.items()} == {"revenue": 181.0, "count": 3}


def test_changed_prompt_misses_the_fixture(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("agent.json", "tools.py", "replay.jsonl"):
        shutil.copy(EXAMPLE / name, tmp_path / name)
    (tmp_path / "task.md").write_text("A different task.\n", encoding="utf-8")
    assert main(["agent", "run", str(tmp_path / "agent.json")]) == 1
    err = capsys.readouterr().err
    assert "provider-failure" in err and "not_found" in err


def test_cli_workflow_failure_exit_code(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("tools.py", "replay.jsonl", "task.md"):
        shutil.copy(EXAMPLE / name, tmp_path / name)
    spec = json.loads((EXAMPLE / "agent.json").read_text(encoding="utf-8"))
    spec["config"] = {"max_turns": 0}
    (tmp_path / "agent.json").write_text(json.dumps(spec), encoding="utf-8")
    assert main(["agent", "run", str(tmp_path / "agent.json")]) == 2
    assert "invalid_agent_config" in capsys.readouterr().err
