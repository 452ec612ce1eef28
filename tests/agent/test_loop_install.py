"""Seed 001 "Install the library": a local workflow component on top of the shipped library.

The manifest selects shipped libraries (`{"library": "agent.core"}`, with their dependency
closure) and local components (`{"id", "path", "dependencies"}`); every mistake is a typed
`ManifestError` naming the manifest and the place. The example under
`examples/agent/workflow/` runs through the real CLI, in a subprocess, on the replay fixture.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from loop_helpers import call

from ptc_agent import AgentError
from ptc_agent.library import (
    SHIPPED,
    ManifestError,
    library_closure,
    resolve_components,
)
from ptc_agent.providers import ScriptedProvider
from ptc_agent.workflow import run_workflow

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "agent" / "workflow"

AGENT_SRC = """(ns my.agent {:deps [agent.core workflow.event]})
(defn run [input]
  (workflow.event/annotate "workflow-step" {"step" "start"})
  (agent.core/run-value (get input "task") (get input "agent")))
"""


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_agent_core_closure_is_the_seed_list() -> None:
    closure = set(library_closure(["agent.core"]))
    assert closure == {"agent.core", "agent.feedback", "agent.native", "agent.prompt",
                       "agent.retry", "kernel", "llm", "result", "workflow.event"}
    main = set(library_closure(["agent.main"]))
    assert main == closure | {"agent.main"}
    # dependencies come before their dependants
    order = library_closure(["agent.main"])
    assert order.index("workflow.event") < order.index("agent.core") < order.index("agent.main")


def test_manifest_resolves_local_component_and_library(tmp_path: Path) -> None:
    _write(tmp_path, "agent.clj", AGENT_SRC)
    sel = resolve_components(
        [{"id": "my.agent", "path": "agent.clj",
          "dependencies": ["agent.core", "workflow.event"]},
         {"library": "agent.core"}],
        base=tmp_path, manifest="m.json")
    assert sel.libraries == library_closure(["agent.core"])
    assert sel.local == (("my.agent", tmp_path / "agent.clj"),)
    assert sel.items()[-1] == tmp_path / "agent.clj"
    assert SHIPPED["agent.main"] not in sel.items()  # only what was selected


@pytest.mark.parametrize(("entries", "code", "where"), [
    ([{"id": "my.agent", "path": "agent.clj", "dependencies": ["agent.core", "workflow.event"]}],
     "missing_dependency", "components[0].dependencies[0]"),
    ([{"library": "agent.cor"}], "unknown_library", "components[0].library"),
    ([{"library": "agent.core"}, {"library": "agent.core"}], "duplicate_component",
     "components[1]"),
    ([{"id": "kernel", "path": "agent.clj"}], "library_id_collision", "components[0].id"),
    ([{"id": "other.agent", "path": "agent.clj",
       "dependencies": ["agent.core", "workflow.event"]}, {"library": "agent.core"}],
     "namespace_mismatch", "components[0].id"),
    ([{"id": "my.agent", "path": "agent.clj", "dependencies": ["agent.core"]},
      {"library": "agent.core"}], "dependency_mismatch", "components[0].dependencies"),
    ([{"id": "my.agent", "path": "missing.clj"}], "component_not_found", "components[0].path"),
    ([{"id": "My Agent", "path": "agent.clj"}], "invalid_component", "components[0].id"),
    ([{"id": "my.agent", "path": "agent.clj", "deps": []}], "invalid_component",
     "components[0].deps"),
    (["nope"], "component_not_found", "components[0]"),
    ([7], "invalid_component", "components[0]"),
])
def test_manifest_errors_name_the_place(tmp_path: Path, entries: list[Any], code: str,
                                        where: str) -> None:
    _write(tmp_path, "agent.clj", AGENT_SRC)
    with pytest.raises(ManifestError) as info:
        resolve_components(entries, base=tmp_path, manifest="workflow.json")
    err = info.value
    assert (err.code, err.where, err.manifest) == (code, where, "workflow.json")
    assert str(err).startswith(f"workflow.json: {where}: ")


def test_missing_library_error_says_what_to_select(tmp_path: Path) -> None:
    _write(tmp_path, "agent.clj", AGENT_SRC)
    with pytest.raises(ManifestError, match=r'add \{"library": "agent.core"\}'):
        resolve_components(["agent.clj"], base=tmp_path)


def test_manifest_rejects_a_dependency_cycle(tmp_path: Path) -> None:
    _write(tmp_path, "a.clj", "(ns app.a {:deps [app.b]})\n(defn f [] 1)\n")
    _write(tmp_path, "b.clj", "(ns app.b {:deps [app.a]})\n(defn g [] 2)\n")
    with pytest.raises(ManifestError) as info:
        resolve_components(["a.clj", "b.clj"], base=tmp_path)
    assert info.value.code == "dependency_cycle" and "app.a -> app.b -> app.a" in str(info.value)


def test_run_workflow_with_a_local_component(tmp_path: Path) -> None:
    path = _write(tmp_path, "agent.clj", AGENT_SRC)
    events: list[dict[str, Any]] = []
    sp = ScriptedProvider([call("(return (+ 40 2))")])
    value = run_workflow("(my.agent/run data/input)",
                         inputs={"input": {"task": "Add.", "agent": {"max_turns": 2}}},
                         model=sp, components=[path, {"library": "agent.core"}],
                         on_event=events.append)
    assert value == 42
    types = [e["type"] for e in events]
    assert types[0] == "run-started" and types[-1] == "run-stopped"
    step = next(e for e in events if e["type"] == "workflow-step")
    assert step["data"] == {"step": "start"}
    assert types.index("workflow-step") < types.index("agent-action")


def test_selection_holds_only_what_was_selected(tmp_path: Path) -> None:
    # agent.main is not in agent.core's closure: calling it is an unknown namespace
    path = _write(tmp_path, "agent.clj", AGENT_SRC)
    sp = ScriptedProvider([call("(return 1)")])
    with pytest.raises(AgentError) as info:
        run_workflow('(agent.main/run {"task" "t"})', model=sp,
                     components=[path, {"library": "agent.core"}])
    assert info.value.code == "workflow_error" and "agent.main" in info.value.message
    assert sp.requests == []


def test_local_component_cannot_call_host_capabilities(tmp_path: Path) -> None:
    path = _write(tmp_path, "evil.clj",
                  '(ns my.evil {:deps [agent.core]})\n'
                  '(defn boom [] (tool/kernel-failure {"code" "x"}))\n')
    with pytest.raises(Exception) as info:
        run_workflow("(my.evil/boom)", model=ScriptedProvider([]),
                     components=[path, {"library": "agent.core"}])
    assert getattr(info.value, "code", None) == "private_tool_unauthorized"


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ptc_compiler.cli", "agent", "run", *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=300, check=False)


def test_example_workflow_runs_through_the_cli() -> None:
    done = _cli(str(EXAMPLE / "workflow.json"))
    assert done.returncode == 0, done.stderr
    # the program's value crosses natively: its keyword keys stay keywords
    assert done.stdout.strip() == '{:status "returned", :answer {:revenue 181.0, :count 3}}'


def test_cli_names_the_manifest_and_place_of_a_bad_entry(tmp_path: Path) -> None:
    spec = json.loads((EXAMPLE / "workflow.json").read_text(encoding="utf-8"))
    spec["components"][0]["path"] = str(EXAMPLE / "agent.clj")
    spec["components"][1] = {"library": "agent.mian"}
    for key in ("task_file", "tools", "fixtures"):
        spec[key] = str((EXAMPLE / spec[key]).resolve())
    bad = _write(tmp_path, "bad.json", json.dumps(spec))
    done = _cli(str(bad))
    assert done.returncode == 1
    assert f"{bad}: components[1].library: 'agent.mian' is not a shipped library" in done.stderr
