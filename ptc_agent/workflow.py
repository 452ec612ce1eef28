"""`run_workflow`: a trusted PTC-Lisp workflow program over the shipped agent library.

`run_outcome`/`run_value` run one agent loop. A workflow program composes several: it runs
in the same trusted environment as the loop (the agent preludes and the private host
tools), so it may call `agent.core/run-value`, `run-outcome`, ... directly, and run loops
side by side with `pcalls`/`pmap`. Their model calls overlap; their mission evaluations are
admitted one at a time, in arrival order, through the run's single evaluation lease
(`host.EvaluationLease`), each wait bounded by `HostLimits.evaluation_admission_timeout_ms`
and the run deadline.

    (pcalls #(agent.core/run-value "Summarise the EU orders." {"model" "fast"})
            #(agent.core/run-value "Summarise the US orders." {"model" "fast"}))

`components` installs the workflow's own preludes next to the shipped library, in the
manifest shape of seed 001 (`library.resolve_components`):

    run_workflow("(my.agent/run data/input)", inputs={"input": {...}},
                 components=["agent.clj", {"library": "agent.core"}], ...)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ptc_agent.failures import AgentError
from ptc_agent.host import AgentHost
from ptc_agent.library import Selection, resolve_components
from ptc_agent.loop import (
    MAX_TOTAL_TURNS,
    _router,
    _run_in_workflow,
    _run_missions,
    _stopped_on_failure,
    _workflow,
    host_call_budget,
)
from ptc_agent.missions import Mission
from ptc_agent.providers import ModelRouter
from ptc_agent.result_contract import Contract
from ptc_agent.run_limits import HostLimits
from ptc_agent.trace import EventSink, Trace
from ptc_compiler.prelude import CacheDir, Environment
from ptc_runtime.host_api import DEFAULT_LIMITS

#: Without a `workflow_capability_calls` ceiling, the workflow's host-call budget allows this
#: many turns in all: a full-length loop (128 turns) on each of the runtime's parallel workers.
DEFAULT_WORKFLOW_TURNS = MAX_TOTAL_TURNS * DEFAULT_LIMITS.parallel_workers


def run_workflow(
    program: str,
    *,
    inputs: Mapping[str, Any] | None = None,
    tools: Mapping[str, Callable[..., Any]] | None = None,
    model: Any = None,
    router: ModelRouter | None = None,
    signature: Contract | None = None,
    data: Mapping[str, Any] | None = None,
    preludes: Sequence[Any] = (),
    missions: Mapping[str, Mission] | None = None,
    timeout_ms: float | None = 5000,
    limits: HostLimits | None = None,
    cache_dir: CacheDir = None,
    on_event: EventSink | None = None,
    components: Sequence[Any] | Selection | None = None,
) -> Any:
    """Run `program` as the trusted workflow; return its value or raise `AgentError`.

    `inputs` become the workflow's `data/<name>`; `tools`, `data` and `preludes` form the
    `default` mission the loops evaluate in (`missions` adds named ones); `model`/`router`,
    `signature` and `timeout_ms` are as for `run_outcome`. All loops of the program share
    one `AgentHost`: one router (and its `max_calls`), one evaluation lease, the `limits`.
    A `fail` of the workflow raises `AgentError("workflow_failed")` with the failure value.
    Every turn makes one model request, so the workflow's host tool-call budget is derived
    from `limits.workflow_capability_calls` when set (else `DEFAULT_WORKFLOW_TURNS` turns).
    `on_event` receives the run's trace events (every loop's turns and evaluations between
    one run-started and one run-stopped; `ptc_agent.trace`); on failure the retained
    events are `AgentError.trace`.
    `components` selects the workflow's preludes (seed 001 "Install the library"): local
    prelude files (paths, or `{"id", "path", "dependencies"}` maps) and shipped libraries
    (`{"library": "agent.core"}`, with their dependency closure); default: `agent.main`
    and `runtime` with their closures. A bad entry raises `library.ManifestError` naming it.
    """
    selection: Selection | None = None
    if isinstance(components, Selection):
        selection = components
    elif components is not None:
        selection = resolve_components(components, base=None, manifest="components")
    trace = Trace(on_event)
    trace.emit("run-started", {"entry": "workflow"})
    with _stopped_on_failure(trace):
        value = _run_workflow(
            program, inputs, tools, model, router, signature, data, preludes, missions,
            timeout_ms, limits, cache_dir, trace, selection,
        )  # fmt: skip
    trace.stop({"status": "returned"})
    return value


def _run_workflow(
    program: str,
    inputs: Mapping[str, Any] | None,
    tools: Mapping[str, Callable[..., Any]] | None,
    model: Any,
    router: ModelRouter | None,
    signature: Contract | None,
    data: Mapping[str, Any] | None,
    preludes: Sequence[Any],
    missions: Mapping[str, Mission] | None,
    timeout_ms: float | None,
    limits: HostLimits | None,
    cache_dir: CacheDir,
    trace: Trace,
    selection: Selection | None = None,
) -> Any:
    if not isinstance(program, str):
        raise TypeError("run_workflow: program must be a string")
    the_router, alias = _router(model, router)
    if alias is not None:
        raise TypeError("run_workflow: an alias name needs router=")
    host = AgentHost(
        the_router, _run_missions(tools, data, preludes, timeout_ms, missions), signature, limits
    )
    host.trace = trace

    def make_env() -> Environment:
        turns = host.limits.workflow_capability_calls
        budget = host_call_budget(DEFAULT_WORKFLOW_TURNS if turns is None else turns)
        return _workflow(host, cache_dir, max_host_calls=budget, selection=selection)

    result = _run_in_workflow(
        host, make_env, program, inputs or {}, own_router=the_router if router is None else None
    )
    if result.outcome == "fail":
        raise AgentError("workflow_failed", "the workflow called fail", {"value": result.value})
    if not result.ok:
        err = result.error
        message = err.message if err is not None else "the workflow failed"
        raise AgentError("workflow_error", message, {"code": err.code if err else None})
    return result.value


__all__ = ["run_workflow"]
