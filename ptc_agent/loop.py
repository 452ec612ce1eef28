"""Python entries of the agent loop: `run_outcome`, `run_value`, `run_phased`, `run_main`.

The loop itself is PTC-Lisp: the shipped preludes `agent.core`, `agent.main` and their
support libraries (preludes/*.clj), compiled by this compiler on first use into the prelude
cache. These entries build the host capability surface (`host.AgentHost`), a trusted
workflow environment holding the preludes and the private host tools, and run one entry in it.
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal, TypedDict, Unpack

from ptc_agent.failures import AgentError
from ptc_agent.host import TOOL_OWNERS, AgentHost
from ptc_agent.library import SHIPPED, Selection, library_closure
from ptc_agent.missions import Mission
from ptc_agent.providers import Alias, ModelRouter, Provider
from ptc_agent.response_fit import response_bytes
from ptc_agent.result_contract import Contract
from ptc_agent.run_limits import HostLimits
from ptc_agent.trace import (
    EventSink,
    Trace,
    stopped_from_error,
    stopped_from_exception,
    stopped_from_outcome,
)
from ptc_compiler.prelude import (
    Bundle,
    CacheDir,
    Environment,
    bundle_fingerprint,
    load_bundle,
    read_header,
    resolve_cache_dir,
    source_hash,
)
from ptc_runtime.host_api import DEFAULT_LIMITS, Keyword

CORE_SOURCE: Final = SHIPPED["agent.core"]
#: `cap` is for mission programs (`cap/unwrap!`); the loop does not use it.
CAP_SOURCE: Final = SHIPPED["cap"]
#: The default workflow: `agent.main` and its closure, and `runtime` for workflow programs.
WORKFLOW_NAMESPACES: Final = library_closure(["agent.main", "runtime"])
MAIN_ENTRY: Final = "agent.main/run"
#: agent.core's ceiling on the turns of one loop (max_turns, or the phases' sum).
MAX_TOTAL_TURNS: Final = 128
DEFAULT_TURNS: Final = 4
#: Host tool calls one turn makes at most: the model request, the annotation, the
#: terminal-source check, the evaluation (or the protocol-error count) and the contract check;
#: the rest is room for a replaced prompt policy calling kernel exports in render/transition.
HOST_CALLS_PER_TURN: Final = 8
#: Host tool calls of one loop outside its turns: each phase's API rendering, the failure report.
HOST_CALLS_PER_LOOP: Final = 32
#: agent.core's default and ceiling of `max_transcript_chars` (the encoded model request).
DEFAULT_TRANSCRIPT_CHARS: Final = 262_144
MAX_TRANSCRIPT_CHARS: Final = 1_000_000
#: agent.core's default and ceiling of `max_program_chars` (one model program).
DEFAULT_PROGRAM_CHARS: Final = 64_000
MAX_PROGRAM_CHARS: Final = 1_000_000
#: UTF-8 bytes per code point at most, and room for encoder differences.
UTF8_MAX: Final = 4
REQUEST_SLACK_BYTES: Final = 4096

Status = Literal["returned", "subject-failure", "provider-failure"]


@dataclass(frozen=True)
class Outcome:
    """Model-attributable completion or failure, as data (seed 001 `run-outcome`).

    `returned`: `value` is the program's `(return v)` value (contract-valid when a contract
    was given). `subject-failure`: `kind` is `model-program-failed`, `turn-limit` or
    `non-retryable-evaluation`; `error` the bounded failure data. `provider-failure`: `error`
    is the provider envelope, `model` the resolved alias. `mutation_state` is
    `"indeterminate"` when a write (or undeclared-effect) tool call of the loop failed or did
    not finish, so whether it took effect is unknown (seed 001); None otherwise.
    """

    status: Status
    value: Any = None
    kind: str | None = None
    error: Any = None
    model: str | None = None
    events: list[dict[str, Any]] = field(default_factory=list, repr=False)
    protocol_errors: int = 0
    evaluations: int = 0
    #: per alias: {"calls", "successes", "input_tokens", "output_tokens"} of this run's router
    usage: dict[str, dict[str, int]] = field(default_factory=dict, repr=False)
    #: the run's event stream, run-started to run-stopped (docs/agents.md "Trace events")
    trace: list[dict[str, Any]] = field(default_factory=list, repr=False)
    mutation_state: str | None = None

    @property
    def ok(self) -> bool:
        return self.status == "returned"


class RunOptions(TypedDict, total=False):
    """The keyword options every entry takes (`run_outcome`, `run_value`, `run_phased`,
    `run_main`), declared once; an option left out has the default `_run_body` gives it.

    - `tools`, `data`, `preludes` (prelude items and shipped `{"library": name}`
      selections) and `timeout_ms` (per evaluation, default 5000) form the `default`
      mission; `missions` adds named ones (a named `default` replaces it);
    - `model`: a `Provider` (used as the only alias), or an alias name given with `router`;
    - `signature`: the result contract (a type such as `"{total :int}"`, a signature, a
      `ResultContract` or a `Path`); with it, each returned candidate is validated and
      corrected while turns remain;
    - `cache_dir`: where compiled preludes are cached (`CacheDir`, default the user cache);
    - `limits`: the run's kernel limits (`HostLimits`: subordinate evaluations, model calls,
      evaluation admission wait, run deadline, mission mode);
    - `prompt`: replaces the `agent.prompt` policy (source text or a `Path`; docs/agents.md);
    - `on_event`: receives each trace event as it happens (run-started, agent-action,
      evaluation, run-stopped; bounded scalars only, see `ptc_agent.trace`).
    """

    tools: Mapping[str, Callable[..., Any]] | None
    model: Any
    router: ModelRouter | None
    signature: Contract | None
    data: Mapping[str, Any] | None
    preludes: Sequence[Any]
    missions: Mapping[str, Mission] | None
    timeout_ms: float | None
    cache_dir: CacheDir
    limits: HostLimits | None
    prompt: str | Path | None
    on_event: EventSink | None


_RUN_OPTIONS: Final = frozenset(RunOptions.__annotations__)


def _router(model: Any, router: ModelRouter | None) -> tuple[ModelRouter, str | None]:
    """(router, alias to put in the config or None)."""
    if router is not None:
        if model is not None and not isinstance(model, str):
            raise TypeError("with router=, model= must be an alias name")
        return router, model
    if model is None:
        raise TypeError("give model= (a Provider or an alias with router=) or router=")
    if isinstance(model, str):
        raise TypeError("model= names an alias only together with router=")
    if not callable(getattr(model, "request", None)):
        raise TypeError("model= must be a Provider (an object with request/close)")
    provider: Provider = model
    return ModelRouter([Alias("model", provider)]), None


@functools.cache
def _shipped_hash(ns: str) -> str:
    return source_hash(SHIPPED[ns].read_text(encoding="utf-8"))


def _prompt_item(prompt: str | Path) -> str:
    """The source of a replacement `agent.prompt` (BUD-06), checked to declare that namespace."""
    if isinstance(prompt, Path):
        text = prompt.read_text(encoding="utf-8")
    elif isinstance(prompt, str):
        text = prompt
    else:
        raise TypeError("prompt= must be agent.prompt source text or a pathlib.Path to it")
    ns = read_header(text, origin="prompt=").ns
    if ns != "agent.prompt":
        raise AgentError(
            "invalid_prompt",
            f"prompt= must declare (ns agent.prompt ...), not {ns[:64]!r}",
            {"reason": "invalid-namespace"},
        )
    return text


#: Linked workflow bundles by (source fingerprint, cache directory). Loading a bundle reads
#: every component's header (a parse of its source): about 12 ms for the agent library,
#: more than a turn costs, so each run reuses the linked, immutable bundle instead. The
#: fingerprint covers file paths, mtimes and sizes, and replacement prompt texts.
_BUNDLES: OrderedDict[tuple[str, str], Bundle] = OrderedDict()
_BUNDLES_LOCK = threading.Lock()
_BUNDLES_MAX = 16


def _workflow_bundle(items: Sequence[str | Path], cache_dir: CacheDir) -> Bundle:
    key = (bundle_fingerprint(items), str(resolve_cache_dir(cache_dir)))
    with _BUNDLES_LOCK:
        hit = _BUNDLES.get(key)
        if hit is not None:
            _BUNDLES.move_to_end(key)
            return hit
    bundle = load_bundle(list(items), cache_dir=cache_dir)
    with _BUNDLES_LOCK:
        _BUNDLES[key] = bundle
        while len(_BUNDLES) > _BUNDLES_MAX:
            _BUNDLES.popitem(last=False)
    return bundle


def host_call_budget(turns: int) -> int:
    """The tool-call budget of a trusted workflow whose loops take `turns` turns together.

    The workflow's only tools are the host capabilities, and every turn calls several of them,
    so the runtime's default budget (256 calls per run) would stop a loop near its
    `max_turns` ceiling of 128. The budget is derived from the turns instead, never below the
    default; mission programs keep their own per-evaluation budget (their runs are separate).
    """
    return max(DEFAULT_LIMITS.max_tool_calls, HOST_CALLS_PER_TURN * turns + HOST_CALLS_PER_LOOP)


def request_arg_bytes(transcript_chars: int) -> int:
    """The workflow's tool-argument byte cap for model requests of `transcript_chars`.

    agent.core checks each model request against `max_transcript_chars` (code points of its
    JSON text) before sending it, so that limit, not the runtime's default cap on one tool
    call's JSON arguments (262,144 bytes), must decide; a request may take up to 4 UTF-8
    bytes per code point. Never below the default.
    """
    return max(DEFAULT_LIMITS.tool_arg_bytes, UTF8_MAX * transcript_chars + REQUEST_SLACK_BYTES)


def config_transcript_chars(config: Mapping[str, Any] | None) -> int:
    """The configuration's `max_transcript_chars` (default 262,144); a value agent.core would
    reject counts as the ceiling (1,000,000), as for `config_turns`."""
    chars = (config or {}).get("max_transcript_chars", DEFAULT_TRANSCRIPT_CHARS)
    if type(chars) is not int or not 1 <= chars <= MAX_TRANSCRIPT_CHARS:
        return MAX_TRANSCRIPT_CHARS
    return chars


def config_program_chars(config: Mapping[str, Any] | None) -> int:
    """The configuration's `max_program_chars` (default 64,000); a value agent.core would
    reject counts as the ceiling (1,000,000), as for `config_turns`."""
    chars = (config or {}).get("max_program_chars", DEFAULT_PROGRAM_CHARS)
    if type(chars) is not int or not 1 <= chars <= MAX_PROGRAM_CHARS:
        return MAX_PROGRAM_CHARS
    return chars


def config_turns(config: Mapping[str, Any] | None) -> int:
    """The turns a loop configuration allows: `max_turns` (default 4), or the phases' sum.

    agent.core validates the configuration; a value it would reject counts as the ceiling
    (128), so the budget never decides which diagnostic a bad configuration gets.
    """
    cfg = config or {}
    if "phases" in cfg:
        phases = cfg["phases"]
        if not isinstance(phases, Sequence) or isinstance(phases, str):
            return MAX_TOTAL_TURNS
        total = 0
        for ph in phases:
            turns = ph.get("max_turns") if isinstance(ph, Mapping) else None
            if type(turns) is not int or not 1 <= turns <= MAX_TOTAL_TURNS:
                return MAX_TOTAL_TURNS
            total += turns
        return min(total, MAX_TOTAL_TURNS)
    turns = cfg.get("max_turns", DEFAULT_TURNS)
    if type(turns) is not int or not 1 <= turns <= MAX_TOTAL_TURNS:
        return MAX_TOTAL_TURNS
    return turns


def _workflow(
    host: AgentHost,
    cache_dir: CacheDir,
    prompt: str | Path | None = None,
    *,
    max_host_calls: int | None = None,
    max_request_chars: int | None = None,
    max_program_chars: int | None = None,
    selection: Selection | None = None,
) -> Environment:
    """The trusted workflow environment: the shipped agent preludes and the host tools.

    The environment lets only the owning namespace call each host tool; the namespaces that
    own one must moreover be the shipped sources, so no other component can take their name.
    `prompt` replaces the shipped `agent.prompt` (the replaceable prompt policy; it owns no
    host tool and may call `kernel` exports only if it declares that dependency).
    `max_host_calls` is the workflow's tool-call budget (default: `host_call_budget` of the
    largest loop, 128 turns); `max_request_chars` the largest model request the loops may send
    (default: the `max_transcript_chars` ceiling), which sets the tool-argument byte cap;
    `max_program_chars` the largest program they accept (default: its ceiling), which sets
    the tool-result byte cap a model response must fit (`host.transport.response_bytes`).
    `selection`: the installed components (`library.resolve_components`); default
    `WORKFLOW_NAMESPACES`.
    """
    if selection is None:
        items: list[str | Path] = [SHIPPED[ns] for ns in WORKFLOW_NAMESPACES]
    else:
        items = selection.items()
    if prompt is not None:
        if SHIPPED["agent.prompt"] not in items:
            raise TypeError("prompt= replaces agent.prompt, which the selection does not hold")
        items[items.index(SHIPPED["agent.prompt"])] = _prompt_item(prompt)
    bundle = _workflow_bundle(items, cache_dir)
    if max_host_calls is None:
        max_host_calls = host_call_budget(MAX_TOTAL_TURNS)
    if max_request_chars is None:
        max_request_chars = MAX_TRANSCRIPT_CHARS
    if max_program_chars is None:
        max_program_chars = MAX_PROGRAM_CHARS
    host.transport.response_bytes = response_bytes(max_program_chars)
    parallel: dict[str, int] = {"parallel_timeout_ms": host.limits.parallel_timeout_ms}
    if host.limits.parallel_concurrency is not None:  # host-call-bound: not capped by CPUs
        n = host.limits.parallel_concurrency
        parallel.update(parallel_workers=n, parallel_per_cpu=n)
    limits = DEFAULT_LIMITS.with_(
        **parallel,
        max_tool_calls=max_host_calls,
        tool_arg_bytes=request_arg_bytes(max_request_chars),
        tool_result_bytes=host.transport.response_bytes,
    )
    env = Environment(bundle, tools=host.tools(), timeout_ms=None, limits=limits)
    owners = set(TOOL_OWNERS.values())
    for meta in env.bundle.metas:
        if meta.ns in owners and meta.source_hash != _shipped_hash(meta.ns):
            env.close()
            raise AgentError(
                "workflow_error",
                f"namespace {meta.ns} owns host capabilities and must be the shipped source",
                {"namespace": meta.ns},
            )
    return env


def _run_missions(
    tools: Mapping[str, Callable[..., Any]] | None,
    data: Mapping[str, Any] | None,
    preludes: Sequence[Any],
    timeout_ms: float | None,
    missions: Mapping[str, Mission] | None,
) -> dict[str, Mission]:
    """The missions of one run: `default` from the entry's `tools`, `data`, `preludes` and
    `timeout_ms`, then the named `missions` (a named `default` replaces the built one)."""
    built = {
        "default": Mission(
            tools=dict(tools or {}), data=data, preludes=preludes, timeout_ms=timeout_ms
        )
    }
    built.update(missions or {})
    return built


def _run_in_workflow(
    host: AgentHost,
    make_env: Callable[[], Environment],
    program: str,
    inputs: Mapping[str, Any],
    *,
    own_router: ModelRouter | None,
) -> Any:
    """Run `program` with `inputs` as `data/...` in the workflow `make_env` builds over `host`.

    The environment, the host (its mission workers) and `own_router` (the router the entry
    made itself, None when the caller gave one) are closed on every path. A crash or terminal
    failure the host recorded while the workflow ran is raised instead of the result: the
    workflow only saw the tool call fail, the host knows why.
    """
    env: Environment | None = None
    try:
        env = make_env()
        # the trusted workflow's value is the PTC value (outcome maps with keywords ...)
        result = env.run(program, data=dict(inputs), native=True)
    finally:
        if env is not None:
            env.close()
        host.close()
        if own_router is not None:
            own_router.close()
    if host.transport.crash is not None:
        raise host.transport.crash
    if host.failure is not None:
        raise host.failure
    return result


@contextmanager
def _stopped_on_failure(trace: Trace) -> Iterator[None]:
    """Stop `trace` with the run-stopped event of a failure escaping the block, and let the
    failure go on; an `AgentError` carries the retained events as its `trace`."""
    try:
        yield
    except AgentError as err:
        err.trace = trace.stop(stopped_from_error(err.code, err.details))
        raise
    except BaseException as exc:
        trace.stop(stopped_from_exception(exc))
        raise


def _keyword_name(v: Any) -> Any:
    return v.name if isinstance(v, Keyword) else v


def _get(m: Any, key: str) -> Any:
    if not isinstance(m, Mapping):
        return None
    for k, v in m.items():
        if _keyword_name(k) == key:
            return v
    return None


def _mutation(value: Any) -> dict[str, Any]:
    state = _get(value, "mutation_state")
    return {} if state is None else {"mutation_state": state}


def _run(
    entry: str,
    task: Any,
    *,
    config: Mapping[str, Any] | None = None,
    on_event: EventSink | None = None,
    **options: Any,
) -> tuple[Any, AgentHost]:
    """Run one entry with its event trace: run-started first, run-stopped on every path
    (trace.py); `options` are `_run_body`'s. The trace goes with the outcome or the error.
    This is the one preamble of every entry: each passes its `RunOptions` on unchanged."""
    unknown = sorted(set(options) - _RUN_OPTIONS)
    if unknown:  # before the trace starts, as the entries' own signatures once refused it
        raise TypeError(f"unexpected keyword argument {unknown[0]!r}")
    trace = Trace(on_event)
    alias = config.get("model") if isinstance(config, Mapping) else None
    alias = alias if isinstance(alias, str) else options.get("model")
    trace.emit("run-started", {"entry": entry, "model": alias if isinstance(alias, str) else None})
    with _stopped_on_failure(trace):
        value, host = _run_body(entry, task, config=config, trace=trace, **options)
    if entry.endswith("-outcome"):  # the loop's outcome data; never its value
        error = _get(value, "error")
        facts = {
            "status": _keyword_name(_get(value, "status")),
            "kind": _keyword_name(_get(value, "kind")),
            "error": {_keyword_name(k): v for k, v in error.items()}
            if isinstance(error, Mapping)
            else None,
            "model": _get(value, "model"),
        }
        trace.stop(stopped_from_outcome(facts))
    else:
        trace.stop({"status": "returned"})
    return value, host


def _run_body(
    entry: str,
    task: str,
    *,
    config: Mapping[str, Any] | None,
    trace: Trace,
    tools: Mapping[str, Callable[..., Any]] | None = None,
    model: Any = None,
    router: ModelRouter | None = None,
    signature: Contract | None = None,
    data: Mapping[str, Any] | None = None,
    preludes: Sequence[Any] = (),
    missions: Mapping[str, Mission] | None = None,
    timeout_ms: float | None = 5000,
    cache_dir: CacheDir = None,
    limits: HostLimits | None = None,
    prompt: str | Path | None = None,
) -> tuple[Any, AgentHost]:
    """The entry's workflow over a fresh `AgentHost`: its value (or the `AgentError` of a
    failed one) and the host, whose records the entry reads. Defaults of the `RunOptions`."""
    if not isinstance(task, str) and entry != MAIN_ENTRY:
        raise TypeError("task must be a string")
    the_router, alias = _router(model, router)
    cfg = dict(config or {})
    if alias is not None:
        cfg.setdefault("model", alias)
    host = AgentHost(
        the_router, _run_missions(tools, data, preludes, timeout_ms, missions), signature, limits
    )
    host.trace = trace
    if entry == MAIN_ENTRY:  # seed 001: agent.main/run takes one input {task, agent}
        program = f"({entry} data/input)"
        inputs: dict[str, Any] = {"input": {"task": task, "agent": cfg}}
    else:
        program = f"({entry} data/task data/config)"
        inputs = {"task": task, "config": cfg}
    result = _run_in_workflow(
        host,
        lambda: _workflow(
            host,
            cache_dir,
            prompt,
            max_host_calls=host_call_budget(config_turns(cfg)),
            max_request_chars=config_transcript_chars(cfg),
            max_program_chars=config_program_chars(cfg),
        ),
        program,
        inputs,
        own_router=the_router if router is None else None,
    )
    if result.outcome == "fail":
        raise AgentError(
            "subject_failure",
            "the agent did not produce a value",
            {
                "kind": _keyword_name(_get(result.value, "kind")),
                "error": _get(result.value, "error"),
                **_mutation(result.value),
            },
        )
    if not result.ok:
        err = result.error
        raise AgentError("workflow_error", str(err), {"code": err.code if err else None})
    return result.value, host


def _core_entry(
    result: Literal["outcome", "value"],
    config: Mapping[str, Any] | None,
    signature: Contract | None,
) -> str:
    """The agent.core entry returning the loop's `result`: the phased loop when `config` has
    `phases`, else the contract-checked loop when there is a `signature`, else the plain one."""
    if config is not None and "phases" in config:
        return f"agent.core/run-phased-result-{result}"
    if signature is not None:
        return f"agent.core/run-result-{result}"
    return f"agent.core/run-{result}"


def run_outcome(
    task: str, *, config: Mapping[str, Any] | None = None, **options: Unpack[RunOptions]
) -> Outcome:
    """Run the agent loop; completion and model-attributable failure come back as `Outcome`.

    `config` is the loop's configuration (`max_turns`, `model`, ...; docs/agents.md); one
    with `phases` runs `run-phased-result-value`'s loop (see `run_phased`). `options` are
    `RunOptions`. The retained trace events are `Outcome.trace` (or `AgentError.trace`).
    Host failures (invalid config, transcript limit, truncation, contract exhaustion,
    unknown mission) raise `AgentError`; a crashing provider's exception propagates.
    """
    entry = _core_entry("outcome", config, options.get("signature"))
    value, host = _run(entry, task, config=config, **options)
    status = _keyword_name(_get(value, "status"))
    returned = _get(value, "value")
    if status == "returned":  # the native value the program returned, not its projection
        returned = host.native(_get(value, "value-ref"))
    model_alias = _get(value, "model")
    return Outcome(
        status=status,
        value=returned,
        kind=_keyword_name(_get(value, "kind")),
        error=_get(value, "error"),
        model=model_alias if isinstance(model_alias, str) else None,
        events=host.events,
        protocol_errors=host.protocol_errors,
        evaluations=host.evaluations,
        usage=host.usage,
        trace=host.trace.events,
        mutation_state=_get(value, "mutation-state"),
    )


def run_value(
    task: str, *, config: Mapping[str, Any] | None = None, **options: Unpack[RunOptions]
) -> Any:
    """The application value, or `AgentError` (seed `run-value` / `run-result-value`, or
    `run-phased-result-value` when `config` has `phases`); `options` are `RunOptions`."""
    entry = _core_entry("value", config, options.get("signature"))
    _, host = _run(entry, task, config=config, **options)
    # The loop completes only on an accepted return: the last returned candidate, native.
    return host.last_returned


def run_phased(
    task: str,
    phases: Sequence[Mapping[str, Any]],
    *,
    config: Mapping[str, Any] | None = None,
    **options: Unpack[RunOptions],
) -> Any:
    """Seed 001 `agent.core/run-phased-result-value`: ordered mission phases, one transcript.

    `phases`: 1 to 8 maps with `mission` and `max_turns` (together at most 128 turns), and
    optional `instruction` and `terminal_only` (the final phase only). `config` holds the
    other options (not `mission`/`max_turns`). Only the final phase can return the value;
    the result contract (`signature=`) applies to it. Other keyword arguments as `run_value`.
    """
    cfg = dict(config or {})
    if "phases" in cfg:
        raise TypeError("run_phased: give the phases as the phases argument, not in config")
    cfg["phases"] = [dict(p) if isinstance(p, Mapping) else p for p in phases]
    return run_value(task, config=cfg, **options)


def run_main(input: Mapping[str, Any], **options: Unpack[RunOptions]) -> Any:
    """Seed 001 `agent.main/run`: `input` is `{"task": str, "agent": config}`.

    Runs `agent.core/run-result-value` on the task with the `agent` configuration (validated
    exactly like the other entries), every returned candidate checked against `signature`,
    and returns the raw contract-valid value (no `{ok, value}` envelope). Failures raise
    `AgentError` like `run_value`; `options` are `RunOptions`.
    """
    if not isinstance(input, Mapping):
        raise TypeError("run_main: input must be a mapping {'task': ..., 'agent': {...}}")
    extra = sorted(str(k) for k in input if k not in ("task", "agent"))
    if extra:
        raise TypeError(f"run_main: input accepts only 'task' and 'agent', not {extra[0][:64]!r}")
    agent_cfg = input.get("agent")
    if agent_cfg is not None and not isinstance(agent_cfg, Mapping):
        raise TypeError("run_main: input['agent'] must be a mapping of agent options")
    # agent.main validates the task (a string)
    _, host = _run(MAIN_ENTRY, input.get("task"), config=agent_cfg, **options)
    return host.last_returned


__all__ = [
    "AgentError",
    "Mission",
    "Outcome",
    "RunOptions",
    "run_main",
    "run_outcome",
    "run_phased",
    "run_value",
]
