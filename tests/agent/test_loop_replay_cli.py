"""The bundled example: `ptc agent run examples/agent/agent.json` replays a recorded 3-turn run
(agent-design §4: replay fixtures drive the loop without a live model)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from loop_helpers import call

from ptc_agent import run_outcome
from ptc_agent.cli import _load_tools
from ptc_agent.providers import Alias, ModelRouter, ReplayProvider, ScriptedProvider
from ptc_compiler.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "agent"


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


# ---------------------------------------------------------------- --mission-mode / "mission_mode"

#: A read tool returning a keyword: in-process the program gets the keyword itself, in an
#: isolated worker its JSON spelling, a string (docs/agents.md "Isolated missions", what
#: differs). The printed value therefore shows where the mission program ran.
PROBE_TOOLS = """from ptc_compiler.tools import Tool


def probe() -> object:
    \"\"\"The payment status.\"\"\"
    return "paid"


TOOLS = {"probe": Tool(probe, effect="read")}
"""
# a tool's plain JSON result reads the same in both modes
IN_PROCESS = ISOLATED = '"paid"'


def _ptc_agent(*args: str) -> subprocess.CompletedProcess[str]:
    """`ptc agent run ...` in a fresh interpreter (it inherits the test's prelude cache)."""
    return subprocess.run([sys.executable, "-m", "ptc_compiler.cli", "agent", "run", *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=300, check=False)


def _probe_spec(tmp_path: Path, **extra: Any) -> Path:
    """A spec whose replayed model returns the probe tool's result on the first turn.

    The fixture is recorded here, through the same tools and alias the CLI will use, so its
    request hash follows the current prompt; the request does not depend on the mission mode.
    """
    (tmp_path / "tools.py").write_text(PROBE_TOOLS, encoding="utf-8")
    spec = {"task": "Report the payment status.", "tools": "tools.py",
            "config": {"max_turns": 2}, "fixtures": "replay.jsonl", **extra}
    recorder = ReplayProvider(tmp_path / "replay.jsonl", mode="record",
                              inner=ScriptedProvider([call("(return (tool/probe))")]))
    out = run_outcome(spec["task"], tools=_load_tools(tmp_path / "tools.py"),
                      router=ModelRouter([Alias("replay", recorder)]), config=spec["config"])
    assert out.ok and out.value is not None
    path = tmp_path / "agent.json"
    path.write_text(json.dumps(spec), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("spec_mode", "flags", "printed"),
    [
        (None, [], IN_PROCESS),  # the default
        ("isolated", [], ISOLATED),
        ("in-process", [], IN_PROCESS),
        (None, ["--mission-mode", "isolated"], ISOLATED),
        ("isolated", ["--mission-mode", "in-process"], IN_PROCESS),  # the flag wins
        ("in-process", ["--mission-mode", "isolated"], ISOLATED),
    ],
)
def test_cli_runs_the_missions_in_the_chosen_mode(
    tmp_path: Path, spec_mode: str | None, flags: list[str], printed: str
) -> None:
    extra = {} if spec_mode is None else {"mission_mode": spec_mode}
    done = _ptc_agent(str(_probe_spec(tmp_path, **extra)), *flags)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == printed


def test_cli_refuses_an_unknown_mission_mode(tmp_path: Path) -> None:
    spec = _probe_spec(tmp_path, mission_mode="thread")
    done = _ptc_agent(str(spec))
    assert done.returncode == 1 and done.stdout == ""
    assert (f"ptc agent: {spec}: mission_mode must be \"in-process\" or \"isolated\", "
            "not 'thread'") in done.stderr
    done = _ptc_agent(str(spec), "--mission-mode", "subprocess")
    assert done.returncode == 2  # argparse: the flag's choices
    assert "--mission-mode: invalid choice: 'subprocess'" in done.stderr
