"""`ptc agent run SPEC.json`: run the agent loop from an agent spec file.

    ptc agent run examples/agent/agent.json                    # replays the bundled fixture
    ptc agent run agent.json --models models.json --model fast # a live model alias

The spec (paths are relative to the spec file):

    {"task": "..." | "task_file": "task.md",
     "tools": "tools.py",            # trusted Python file defining TOOLS = {name: callable}
     "data": "data.json",            # optional JSON object: data/<key>
     "preludes": ["lib.clj"],        # optional
     "signature": "{total :int}",    # optional result contract
     "mission_mode": "isolated",     # optional: "in-process" (default) or "isolated"
                                     # (--mission-mode overrides it)
     "config": {"max_turns": 4},     # agent configuration (seed 001 keys; "phases" for a
                                     # phased run)
     "entry": "agent.main/run",      # optional: seed 001's manifest entry, input
                                     # {"task", "agent": config}; prints the raw value
     "models": {"aliases": {...}},   # router config (docs/providers.md); "fixtures" relative
     "fixtures": "fixture.jsonl"}    # shorthand: one replay alias named "replay"

A workflow of your own (seed 001 "Install the library") adds its components, in the
manifest shape, and names its entry, which is called with one argument, `input`
(default `{"task": task, "agent": config}`):

    {"components": [{"id": "my.agent", "path": "agent.clj", "dependencies": ["agent.core"]},
                    {"library": "agent.core"}],
     "entry": "my.agent/run",
     "input": {...}, ...}

Exit codes: 0 a contract-valid value was returned (printed as PTC-Lisp); 1 the model failed
the task (subject failure) or the provider failed (outcome printed on stderr); 2 the run
failed as a workflow (invalid configuration, limits, contract exhaustion, ...); 6 the model's
output was truncated by its output cap without a usable action (`model_output_truncated`).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final

from ptc_agent.failures import AgentError
from ptc_agent.library import ManifestError, Selection, resolve_components
from ptc_agent.loop import MAIN_ENTRY, run_main, run_outcome
from ptc_agent.providers import router_from_config
from ptc_agent.result_contract import ResultContract
from ptc_agent.run_limits import MODES, HostLimits
from ptc_agent.workflow import run_workflow
from ptc_runtime.host_api import pr_str


def _die(message: str) -> SystemExit:
    return SystemExit(f"ptc agent: {message}")


def _load_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise _die(f"cannot read {path}: {exc.strerror}") from None
    except ValueError as exc:
        raise _die(f"{path} is not valid JSON: {exc}") from None


def _load_tools(path: Path) -> dict[str, Callable[..., Any]]:
    spec = importlib.util.spec_from_file_location("ptc_agent_tools", path)
    if spec is None or spec.loader is None:
        raise _die(f"cannot load tools from {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    tools = getattr(module, "TOOLS", None)
    if not isinstance(tools, dict):
        raise _die(f"{path} must define a TOOLS dict of name -> callable")
    return tools


def _router_config(spec: dict[str, Any], base: Path, models: Path | None) -> dict[str, Any]:
    if models is not None:
        config = _load_json(models)
        base = models.parent
    elif "models" in spec:
        config = spec["models"]
    elif "fixtures" in spec:
        config = {"aliases": {"replay": {"adapter": "replay", "fixtures": spec["fixtures"]}}}
    else:
        raise _die('the spec names no models (give "models", "fixtures" or --models)')
    if not isinstance(config, dict) or not isinstance(config.get("aliases"), dict):
        raise _die('models must be {"aliases": {...}} (docs/providers.md)')
    aliases = {}
    for name, entry in config["aliases"].items():
        entry = dict(entry)
        if isinstance(entry.get("fixtures"), str):
            entry["fixtures"] = str(base / entry["fixtures"])
        aliases[name] = entry
    return {**config, "aliases": aliases}


def cmd_run(args: argparse.Namespace) -> int:
    spec_path = Path(args.spec)
    spec = _load_json(spec_path)
    if not isinstance(spec, dict):
        raise _die(f"{spec_path} must hold a JSON object")
    base = spec_path.parent
    selection = None
    if "components" in spec:
        try:
            selection = resolve_components(spec["components"], base=base, manifest=str(spec_path))
        except ManifestError as err:
            raise _die(str(err)) from None
    if isinstance(spec.get("task_file"), str):
        task = (base / spec["task_file"]).read_text(encoding="utf-8").strip()
    elif isinstance(spec.get("task"), str):
        task = spec["task"]
    elif selection is not None and "input" in spec:
        task = ""
    else:
        raise _die('the spec needs "task" or "task_file"')
    tools = _load_tools(base / spec["tools"]) if isinstance(spec.get("tools"), str) else None
    data = _load_json(base / spec["data"]) if isinstance(spec.get("data"), str) else None
    preludes = [str(base / p) for p in spec.get("preludes", [])]
    config = dict(spec.get("config") or {})
    signature = spec.get("signature")
    if isinstance(signature, str):  # the contract names where it came from
        signature = ResultContract(signature, source=f"{spec_path}#/signature")
    if args.max_turns is not None:
        config["max_turns"] = args.max_turns
    if args.model is not None:
        config["model"] = args.model
    mission_mode = args.mission_mode or spec.get("mission_mode", "in-process")
    if mission_mode not in MODES:
        modes = " or ".join(f'"{m}"' for m in MODES)
        raise _die(f"{spec_path}: mission_mode must be {modes}, not {str(mission_mode)[:64]!r}")

    entry = spec.get("entry", "agent.core/run-outcome")
    if selection is not None:
        _check_entry(entry, selection, spec_path)
    elif entry not in ("agent.core/run-outcome", MAIN_ENTRY):
        raise _die(f'"entry" must be "agent.core/run-outcome" or "{MAIN_ENTRY}"')
    models = Path(args.models) if args.models else None
    router = router_from_config(_router_config(spec, base, models))
    # What every entry takes alike: the default mission, the result contract, the router and
    # the host limits (the spec's and the flags' mission mode).
    options: dict[str, Any] = {
        "tools": tools,
        "router": router,
        "signature": signature,
        "data": data,
        "preludes": preludes,
        "limits": HostLimits(mission_mode=mission_mode),
    }
    try:
        if selection is not None:  # the workflow's own entry over its installed components
            value = spec["input"] if "input" in spec else {"task": task, "agent": config}
            program = f"({entry} data/input)"
            return _print_value(
                lambda: run_workflow(
                    program, inputs={"input": value}, components=selection, **options
                ),
                _WORKFLOW_SUBJECT_CODES,
            )
        if entry == MAIN_ENTRY:  # the raw contract-valid value
            return _print_value(
                lambda: run_main({"task": task, "agent": config}, **options), _SUBJECT_CODES
            )
        return _print_outcome(task, config, options, verbose=args.verbose)
    finally:
        router.close()


#: AgentError codes that report the model or provider failing the task (exit 1, not 2).
_SUBJECT_CODES = ("subject_failure", "llm_provider_failed", "capability_quota_exceeded")
#: AgentError codes of a workflow whose agent, provider or own `fail` failed it (exit 1).
_WORKFLOW_SUBJECT_CODES = (*_SUBJECT_CODES, "workflow_failed")


#: The exit status of a model response cut off by its output cap without a usable action.
TRUNCATED_EXIT: Final = 6


def _failed(err: AgentError, subject_codes: tuple[str, ...]) -> int:
    """Report `err` on stderr; exit 1 when its code says the model, provider or workflow
    failed the task (`subject_codes`), 6 when the model's output was truncated, else 2."""
    print(f"agent failed: {err.code}: {err.message}", file=sys.stderr)
    if err.code == "model_output_truncated":
        return TRUNCATED_EXIT
    return 1 if err.code in subject_codes else 2


def _print_value(run: Callable[[], Any], subject_codes: tuple[str, ...]) -> int:
    """Print the value `run` returns, or report its `AgentError` (`_failed`)."""
    try:
        value = run()
    except AgentError as err:
        return _failed(err, subject_codes)
    print(pr_str(value))
    return 0


def _print_outcome(
    task: str, config: dict[str, Any], options: dict[str, Any], *, verbose: bool
) -> int:
    """`agent.core/run-outcome`: the value, or the subject or provider failure on stderr
    (exit 1); any `AgentError` is a failed workflow (exit 2)."""
    try:
        outcome = run_outcome(task, config=config, **options)
    except AgentError as err:
        return _failed(err, ())
    if verbose:
        for event in outcome.events:  # the agent-action annotations, one per turn
            print(f"turn {event['data'].get('turn')}: {event['data'].get('kind')}", file=sys.stderr)
    if outcome.ok:
        print(pr_str(outcome.value))
        return 0
    detail = outcome.kind or ""
    if outcome.status == "provider-failure":
        env = outcome.error if isinstance(outcome.error, dict) else {}
        detail = f"{env.get('kind')}/{env.get('reason')} (model {outcome.model})"
    print(f"agent {outcome.status}: {detail}: {pr_str(outcome.error, 500)}", file=sys.stderr)
    return 1


def _check_entry(entry: Any, selection: Selection, spec_path: Path) -> None:
    if not isinstance(entry, str) or entry.count("/") != 1:
        raise _die(f'{spec_path}: entry: with "components", name the entry as "ns/name"')
    ns = entry.split("/", 1)[0]
    if ns not in selection.namespaces:
        raise _die(f"{spec_path}: entry: namespace {ns[:64]} is not among the components")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ptc agent", description="run the agent loop")
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="run an agent spec (JSON) and print the returned value")
    run.add_argument("spec", help="agent spec JSON file (see docs/agents.md)")
    run.add_argument("--models", help="router config JSON (aliases) instead of the spec's")
    run.add_argument("--model", help='alias to use (config "model")')
    run.add_argument("--max-turns", type=int, help="override config max_turns")
    run.add_argument(
        "--mission-mode",
        choices=MODES,
        help='where mission programs run: "in-process" (default) or "isolated" (a worker '
        'process per mission); overrides the spec\'s "mission_mode"',
    )
    run.add_argument("-v", "--verbose", action="store_true", help="print one line per turn")
    run.set_defaults(handler=cmd_run)
    return parser


def main_agent(argv: Sequence[str]) -> int:
    args = build_parser().parse_args(list(argv))
    handler: Callable[[argparse.Namespace], int] = args.handler
    return handler(args)
