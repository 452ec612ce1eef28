"""RES-06 / RES-08: the trusted `result_contract_failed` diagnostic (agent-design §2.2:
`{agent_turns, constraint, violations[{kind, path, missing_required}], contract_source}`):
the host revalidates the final candidate itself, names where the contract came from, and
cannot be made to report a failure that did not happen."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from loop_helpers import call

from ptc_agent import AgentError, ResultContract, run_outcome
from ptc_agent.cli import main_agent
from ptc_agent.failures import Terminal
from ptc_agent.host import AgentHost
from ptc_agent.loop import run_main, run_value
from ptc_agent.missions import Mission
from ptc_agent.providers import Alias, ModelRouter, ScriptedProvider

SIG = "{total :int, meta {source :string, pages :int}, items [:int]}"


def contract_failure(items: list[Any], signature: Any, turns: int = 1) -> AgentError:
    sp = ScriptedProvider(items)
    with pytest.raises(AgentError) as info:
        run_value("t", model=sp, signature=signature, config={"max_turns": turns})
    assert info.value.code == "result_contract_failed"
    return info.value


def test_RES_06_diagnostic_has_turns_constraint_and_safe_violations() -> None:
    err = contract_failure(
        [call('(return {:total "SECRET" :meta {:pages 1} :undeclared-SECRET 1})'),
         call('(return {:total "SECRET" :meta {} :items ["SECRET"]})')],
        SIG, turns=2)
    assert err.details == {
        "agent_turns": 2,
        "constraint": "{total :int, meta {source :string, pages :int}, items [:int]}",
        "violations": [
            {"kind": "type", "path": "total"},
            {"kind": "missing", "path": "meta", "missing_required": ["source", "pages"]},
            {"kind": "type", "path": "items[0]"},
        ],
    }  # the final candidate's facts; no contract_source: the caller gave a bare string
    assert "SECRET" not in repr(err.details) and "SECRET" not in err.message


def test_RES_06_missing_root_keys_are_grouped_at_the_root() -> None:
    err = contract_failure([call("(return {:items []})")], SIG)
    assert err.details["violations"] == [
        {"kind": "missing", "path": "(root)", "missing_required": ["total", "meta"]}]


def test_RES_06_contract_source_of_a_result_contract() -> None:
    contract = ResultContract(":int", source="manifests/app.json#/result")
    err = contract_failure([call('(return "no")')], contract)
    assert err.details["contract_source"] == "manifests/app.json#/result"
    assert err.details["constraint"] == ":int"
    assert "(contract manifests/app.json#/result)" in err.message


def test_RES_06_contract_source_of_a_contract_file(tmp_path: Path) -> None:
    path = tmp_path / "result.sig"
    path.write_text("{total :int}", encoding="utf-8")
    err = contract_failure([call('(return {:total "x"})')], path)
    assert err.details["contract_source"] == str(path)
    # the file is the contract: a valid candidate returns
    value = run_value("t", model=ScriptedProvider([call("(return {:total 1})")]), signature=path)
    assert {k.name: v for k, v in value.items()} == {"total": 1}


def test_RES_06_main_entry_reports_the_same_facts() -> None:
    sp = ScriptedProvider([call('(return "no")')])
    with pytest.raises(AgentError) as info:
        run_main({"task": "t", "agent": {"max_turns": 1}}, model=sp,
                 signature=ResultContract(":int", source="app.json#/signature"))
    assert info.value.details == {"agent_turns": 1, "constraint": ":int",
                                  "violations": [{"kind": "type", "path": "(root)"}],
                                  "contract_source": "app.json#/signature"}


def test_RES_06_the_cli_names_the_spec_as_the_contract_source(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fixture = tmp_path / "replay.jsonl"
    spec = tmp_path / "agent.json"
    spec.write_text(json.dumps({"task": "t", "signature": ":int", "config": {"max_turns": 1},
                                "fixtures": "replay.jsonl"}), encoding="utf-8")
    # record the one response the replay needs, under the alias the CLI uses
    from ptc_agent.providers import ReplayProvider
    recorder = ReplayProvider(fixture, mode="record",
                              inner=ScriptedProvider([call('(return "no")')]))
    router = ModelRouter([Alias("replay", recorder)])
    with pytest.raises(AgentError):
        run_outcome("t", router=router, signature=":int", config={"max_turns": 1})
    router.close()
    assert main_agent(["run", str(spec)]) == 2
    err = capsys.readouterr().err
    assert "result_contract_failed" in err and f"(contract {spec}#/signature)" in err


def test_RES_08_the_reporter_revalidates_and_refuses_unreturned_candidates() -> None:
    host = AgentHost(ModelRouter([Alias("m", ScriptedProvider())]), {"default": Mission()},
                     ":int")
    ok = host._keep(5)["value_ref"]
    bad = host._keep("x")["value_ref"]
    for ref in (ok, bad, 99, "0"):  # none was returned by a loop
        with pytest.raises(Terminal):
            host.report_failure({"code": "result_contract_failed", "agent_turns": 1,
                                 "value_ref": ref})
        assert host.failure is not None and host.failure.code == "workflow_error"
        host.failure = None
    host._returned.update({ok, bad})
    with pytest.raises(Terminal):  # a returned but valid candidate did not fail
        host.report_failure({"code": "result_contract_failed", "agent_turns": 1,
                             "value_ref": ok})
    assert host.failure is not None and host.failure.code == "workflow_error"
    host.failure = None
    with pytest.raises(Terminal):
        host.report_failure({"code": "result_contract_failed", "agent_turns": 1,
                             "value_ref": bad, "violations": [{"kind": "forged"}],
                             "contract_source": "forged.json"})
    assert host.failure is not None and host.failure.code == "result_contract_failed"
    assert host.failure.details == {"agent_turns": 1, "constraint": ":int",
                                    "violations": [{"kind": "type", "path": "(root)"}]}
