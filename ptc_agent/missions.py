"""Missions: what a model program sees, and one mission's runtime within an agent run.

`Mission` is the declaration (tools, data, preludes, limits, mode). `MissionRuntime` is a
mission of one run: its environments, a fresh state owner, the reserved runtime routes
(`runtime-usage`, `runtime-remaining`, `cap-list`, `cap-describe`) and the ledger of
capability calls (`CapabilityCall`) an evaluation made, from which the host derives
retryability, `mutation_state` and whether a `fail` value is the last capability result.
"""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from ptc_agent import library, mission_api
from ptc_agent.providers import ProviderError
from ptc_agent.run_limits import MODES
from ptc_compiler import InputValidationUnavailable, OutputValidationUnavailable, Tool
from ptc_compiler.prelude import Environment
from ptc_runtime.host_api import (
    ContractViolation,
    Keyword,
    Limits,
    Mode,
    PtcError,
    SymbolRef,
    to_json_value,
)

if TYPE_CHECKING:
    from ptc_agent.host import AgentHost

#: Applications cannot install capabilities under these names (agent-design §1.9).
RESERVED_PREFIXES: Final = ("kernel-", "runtime-", "cap-")
RESERVED_NAMES: Final = frozenset({"workflow-annotate"})
ROUTE_DOC_CHARS: Final = 1000
#: The runtime limits of a mission's evaluations that its inventory reports.
INVENTORY_LIMITS: Final = (
    "max_steps",
    "max_tool_calls",
    "tool_arg_bytes",
    "tool_result_bytes",
    "max_output_bytes",
    "print_line_chars",
    "max_value_bytes",
    "memory_bytes",
    "history_bytes",
    "program_bytes",
    "parallel_workers",
    "parallel_timeout_ms",
)


@dataclass
class Mission:
    """What a model program sees: preludes, tools and data; `timeout_ms` per evaluation.

    `preludes`: prelude sources, files or directories, and shipped libraries selected as
    `{"library": "cap"}` (`library.MISSION_LIBRARIES`: `cap`, `runtime`, `result`).

    `limits`: the runtime limits of the mission's evaluations (`ptc_runtime.limits.Limits`),
    e.g. the byte ceilings of retained definitions and of `*1 *2 *3`; None = the defaults.

    `mode`: `"isolated"` runs the mission's evaluations in a worker process (one per
    mission and agent run, holding its retained definitions), `"in-process"` in the host;
    None = the run's `HostLimits.mission_mode`. Outcomes, feedback and the effect ledger are
    the same; docs/agents.md "Isolated missions" lists what differs.
    """

    tools: Mapping[str, Callable[..., Any]] = field(default_factory=dict)
    data: Mapping[str, Any] | None = None
    preludes: Sequence[Any] = ()
    timeout_ms: float | None = 5000
    limits: Limits | None = None
    mode: Mode | None = None

    def __post_init__(self) -> None:
        if self.mode is not None and self.mode not in MODES:
            raise ValueError("Mission.mode must be 'in-process', 'isolated' or None")
        library.mission_items(self.preludes)  # a bad library selection fails here, typed
        for name in self.tools:
            if name in RESERVED_NAMES or str(name).startswith(RESERVED_PREFIXES):
                raise ValueError(
                    f"Mission.tools: {str(name)[:64]!r} is a reserved capability name "
                    "(kernel-*, runtime-*, cap-* and workflow-annotate belong to the kernel)"
                )


@dataclass
class CapabilityCall:
    name: str
    effect: str
    result: Any = None
    denied: bool = False  # the capability's provider refused it (`denied`): terminal
    #: pending (never finished), ok, error (an error envelope), raised, or rejected (not
    #: dispatched: its input was refused or could not be validated, or the provider denied it)
    status: str = "pending"
    #: ticks of the mission's call clock when the call started and ended (None: it never did)
    started: int = 0
    finished: int | None = None
    #: the call failed in a way repeating the program cannot fix: its provider raised a
    #: non-retryable `ProviderError`, or the tool crashed with an unclassified exception
    #: (an unclassified failure is never assumed safe to repeat, even on a read)
    non_retryable: bool = False

    @property
    def indeterminate(self) -> bool:
        """A write (or undeclared effect) that may have been dispatched and did not succeed:
        whether it took effect is unknown (seed 001, `mutation_state: indeterminate`)."""
        return self.effect != "read" and self.status in ("pending", "error", "raised")


def last_result(calls: Sequence[CapabilityCall], value: Any) -> bool:
    """Is `value` exactly (the same object) the result of the last capability call?

    The last call is the one that started last. Calls that ran at the same time as it (under
    `pmap`/`pcalls`: still running when it started) count as last too, since no order among
    them is observable; a call that had finished before it started does not. In a sequential
    program this is exactly the last call (seed 001: an error-shaped value after an unrelated
    read is not the last result).
    """
    if not calls:
        return False
    last = max(calls, key=lambda c: c.started)
    return any(
        c.result is value and (c.finished is None or c.finished > last.started) for c in calls
    )


def last_result_equal(calls: Sequence[CapabilityCall], value: Any) -> bool:
    """`last_result` for an isolated mission: the program's value and the capability
    results crossed the worker boundary as data, so the test is equality of the value with
    a last result as the worker received it (its JSON form), not identity."""
    if not calls:
        return False
    last = max(calls, key=lambda c: c.started)
    try:
        mine = to_json_value(value)
    except (PtcError, TypeError, ValueError, RecursionError):
        return False
    for c in calls:
        if (c.finished is not None and c.finished <= last.started) or c.status == "raised":
            continue
        try:
            if json.loads(json.dumps(c.result, default=_json_default)) == mine:
                return True
        except (TypeError, ValueError, RecursionError):
            continue
    return False


def _json_default(x: object) -> object:
    """Tool results as the worker pool sends them: sets and tuples as arrays, keywords and
    symbols as their names."""
    if isinstance(x, set | frozenset | tuple):
        return list(x)
    name = getattr(x, "name", None)
    if isinstance(x, Keyword | SymbolRef) and isinstance(name, str):
        return name
    raise TypeError("not JSON")


def _denied(value: Any) -> bool:
    """An error envelope whose reason is `denied` (a string or a keyword)."""
    if not isinstance(value, Mapping):
        return False

    def text(key: str) -> str:
        v = value.get(key)
        return str(getattr(v, "name", v))

    return text("status") == "error" and text("reason") == "denied"


def _error_envelope(value: Any) -> bool:
    """A capability result `{:status "error" ...}` (string or keyword keys and values)."""
    if not isinstance(value, Mapping):
        return False
    for k, v in value.items():
        if getattr(k, "name", k) == "status":
            return getattr(v, "name", v) == "error"
    return False


def route_error(reason: str) -> dict[str, Any]:
    """The refusal a reserved route answers a malformed request with (data, not a raise)."""
    return {"status": "error", "kind": "protocol_error", "reason": reason, "retryable?": False}


def no_arguments(args: Any) -> bool:
    """Did a route get no arguments (nil or an empty map), as the no-argument routes need?"""
    return args is None or (isinstance(args, Mapping) and not args)


def ms_left(deadline: float | None) -> int | None:
    """Milliseconds until the monotonic `deadline` (never negative); None = no deadline."""
    return None if deadline is None else max(0, int((deadline - time.monotonic()) * 1000))


class MissionRuntime:
    """One mission of one agent run: its environment, a fresh state owner, a call ledger."""

    def __init__(self, mission: Mission, host: AgentHost) -> None:
        self.mission = mission
        self.host = host
        self.ledger: list[CapabilityCall] = []
        #: orders the starts and ends of capability calls, also across parallel workers
        self._clock = itertools.count(1)
        #: why the current evaluation hit a host failure (input validation unavailable)
        self.host_failure: str | None = None
        #: when the current evaluation's own budget ends (monotonic), None = no budget
        self.eval_deadline: float | None = None
        tools: dict[str, Callable[..., Any]] = {**mission.tools, **self._routes()}
        # The routes are granted to the API environment too, so a mission prelude may wrap them.
        items = library.mission_items(mission.preludes)
        self.api_env = Environment(items, tools=tools, data=mission.data)
        wrapped = {name: self._recorded(name, fn) for name, fn in tools.items()}
        self.mode: Mode = mission.mode or host.limits.mission_mode
        # Isolated: one worker, started now (the model's first turn overlaps its start-up)
        # and then dedicated to this mission's state owner.
        self.run_env = Environment(
            self.api_env.bundle,
            tools=wrapped,
            data=mission.data,
            timeout_ms=mission.timeout_ms,
            limits=mission.limits,
            mode=self.mode,
            pool_size=1,
        )
        self.owner = object()
        self._inventory: str | None = None  # the frozen inventory, as canonical JSON

    def _recorded(self, name: str, fn: Callable[..., Any]) -> Callable[[Any], Any]:
        effect = (fn.effect or "unknown") if isinstance(fn, Tool) else "unknown"

        def call(args: Any) -> Any:
            record = CapabilityCall(name, str(effect), started=next(self._clock))
            self.ledger.append(record)
            try:
                return self._dispatch(record, fn, args)
            finally:
                record.finished = next(self._clock)

        call.__name__ = name.replace("-", "_")
        # a tool trusted to return PTC values keeps that trust through the recording
        call.returns_ptc_data = getattr(fn, "returns_ptc_data", False) is True  # type: ignore[attr-defined]
        return call

    def _dispatch(self, record: CapabilityCall, fn: Callable[..., Any], args: Any) -> Any:
        """Call `fn` for `record`, noting how the call ended."""
        try:
            record.result = fn(args)
        except InputValidationUnavailable:
            record.status = "rejected"
            self.host_failure = "input-validation-unavailable"
            raise
        except OutputValidationUnavailable:
            # The tool ran (its effect happened); its result was not handed on.
            record.status = "unvalidated"
            self.host_failure = "output-validation-unavailable"
            raise
        except ContractViolation as exc:  # a Tool's input check runs before its function
            input_refused = exc.side == "input" and isinstance(fn, Tool)
            record.status = "rejected" if input_refused else "raised"
            raise
        except ProviderError as exc:
            record.denied = exc.failure.reason == "denied"
            record.status = "rejected" if record.denied else "raised"
            record.non_retryable = not exc.failure.retryable
            raise
        except PtcError:
            # a typed runtime error (a resource kill, a limit): no crash of the tool itself
            record.status = "raised"
            raise
        except BaseException:
            # A provider callback crash is unclassified, hence non-retryable.
            record.status = "raised"
            record.non_retryable = True
            raise
        record.denied = _denied(record.result)
        if record.denied:
            record.status = "rejected"
        else:
            record.status = "error" if _error_envelope(record.result) else "ok"
        return record.result

    # -- reserved runtime routes (read-only) ---------------------------------------------

    def _routes(self) -> dict[str, Tool]:
        def route(fn: Callable[[Any], Any], name: str, doc: str) -> Tool:
            # An untyped one-argument callable (no signature is derived from the method's
            # hints): the route receives the argument map as is and checks it itself.
            return Tool(lambda args: fn(args), name=name, effect="read", doc=doc)

        return {
            "runtime-usage": route(self._usage, "runtime-usage", "This run's usage so far."),
            "runtime-remaining": route(
                self._remaining, "runtime-remaining", "What is left of this run's budgets."
            ),
            "cap-list": route(self._cap_list, "cap-list", "The mission's capabilities."),
            "cap-describe": route(
                self._cap_describe, "cap-describe", "One capability by {:name n}, or nil."
            ),
        }

    def _usage(self, args: Any) -> dict[str, Any]:
        if not no_arguments(args):
            return route_error("invalid_runtime_usage_request")
        # this evaluation's capability calls, this one included
        return {**self.host.run_usage(), "capability_calls": len(self.ledger)}

    def _remaining(self, args: Any) -> dict[str, Any]:
        if not no_arguments(args):
            return route_error("invalid_runtime_remaining_request")
        return {**self.host.run_remaining(), "evaluation_ms": ms_left(self.eval_deadline)}

    def _capabilities(self) -> list[dict[str, Any]]:
        """The mission's own public capabilities (never the routes or private tools)."""
        out = []
        for t in self.api_env.inventory().tools:
            if t.private_to or t.name in mission_api.MISSION_ROUTES:
                continue
            doc = t.doc[:ROUTE_DOC_CHARS] if t.doc else None
            out.append({"name": t.name, "effect": t.effect, "signature": t.signature, "doc": doc})
        return out

    def inventory(self, name: str) -> dict[str, Any]:
        """The mission's structured inventory, computed once and then frozen: every call
        in the run answers the same map (a fresh copy, so no caller can change it)."""
        if self._inventory is None:
            inv = self.api_env.inventory()
            mission = self.mission
            limits = self.run_env.runtime.limits
            data: Mapping[str, Any] = mission.data or {}
            frozen = {
                "schema_version": 1,
                "mission": name,
                "namespaces": [
                    {"namespace": ns, "doc": doc} for ns, doc in sorted(inv.namespaces.items())
                ],
                "exports": [e.to_json() for e in inv.exports],
                "capabilities": self._capabilities(),
                "routes": list(mission_api.MISSION_ROUTES),
                "data": [
                    {"name": str(k), "type": mission_api.data_type(data[k])}
                    for k in sorted(data, key=str)
                ],
                "limits": {
                    "timeout_ms": mission.timeout_ms,
                    **{f: getattr(limits, f) for f in INVENTORY_LIMITS},
                },
            }
            self._inventory = json.dumps(frozen, ensure_ascii=False, sort_keys=True)
        value: dict[str, Any] = json.loads(self._inventory)
        return value

    def _cap_list(self, args: Any) -> Any:
        if not no_arguments(args):
            return route_error("invalid_capability_list_request")
        return self._capabilities()

    def _cap_describe(self, args: Any) -> Any:
        name = None
        if isinstance(args, Mapping) and len(args) == 1:
            key, value = next(iter(args.items()))
            if getattr(key, "name", key) == "name":  # {:name n} or {"name" n}
                name = value
        if not isinstance(name, str):
            return route_error("invalid_capability_description_request")
        return next((c for c in self._capabilities() if c["name"] == name), None)

    def close(self) -> None:
        self.run_env.close()
        self.api_env.close()
