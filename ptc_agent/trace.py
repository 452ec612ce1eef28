"""The event trace of one agent run (seed 001; agent-design §3.11 observability).

Every agent entry (`run_outcome`, `run_value`, `run_phased`, `run_main`, `run_workflow`)
records a short stream of events and hands each one to an optional host callback
(`on_event=`) as it happens; `Outcome.trace` and `AgentError.trace` hold the retained list.

* `run-started`, first: `entry`, and `model` (the configured alias, when one is).
* `agent-action`, once per model turn: `turn`, `kind`, and `phase`, `phase_turn`, `mission`
  in a phased run.
* `evaluation`, once per mission evaluation: `mission`, `outcome`, `code` (the error code),
  `retryable`, `capability_calls`, `duration_ms`; a refused one: `outcome` and `reason`.
* `run-stopped`, last, on every path: `status`, `failure_kind`, limit facts, counters.

`run-stopped` carries `status` (`returned`, `subject-failure`, `provider-failure`, or
`failed` when the run itself failed), `failure_kind` unless returned (`turn-limit`,
`transcript-limit`, `model-program-failed`, `non-retryable-evaluation`, `provider-failure`,
or the failure code in hyphens, e.g. `result-contract-failed`), `code` (the `AgentError`
code), `limit`, `limit_value` and `limit_reason` for a limit (seed 001: "the canonical failed
`run-stopped` event retains the bounded `agent_turns` limit name, its value, and the same
`limit_reason`"), the provider's closed `provider_kind`/`provider_reason`, and the counters
`turns`, `evaluations`, `protocol_errors`, `events_dropped`.

Bounds, and what never enters a trace: events hold only scalars (strings cut to
`MAX_TEXT` characters); no task, prompt, program source, model text, observation, returned or
failed value, error message or provider detail is ever recorded, so a trace can be logged as
is. A run retains at most `MAX_EVENTS` events (later ones are counted in `events_dropped`,
and still delivered to the callback); `run-stopped` is always retained. A callback that
raises is detached for the rest of the run and `run-stopped` says `sink_failed`:
observability never changes a run's outcome.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Mapping
from typing import Any, Final

#: A host callback receiving each event (`{"seq", "type", "data"}`) as it is emitted. It is
#: called with the trace's lock held (events arrive in `seq` order even from parallel
#: loops): keep it quick and do not call back into the run.
EventSink = Callable[[dict[str, Any]], None]

MAX_EVENTS: Final = 1024
MAX_TEXT: Final = 128
MAX_FIELDS: Final = 16

#: `status` of run-stopped when the run itself failed (an `AgentError` or an exception)
FAILED: Final = "failed"
_SUBJECT_KINDS: Final = frozenset(
    {"model-program-failed", "non-retryable-evaluation", "turn-limit"}
)
#: `limit` -> `failure_kind` of a limit failure
_LIMIT_KINDS: Final[Mapping[str, str]] = {
    "agent_turns": "turn-limit",
    "max_transcript_chars": "transcript-limit",
}


def _scalar(value: Any) -> Any:
    if value is None or isinstance(value, bool | int | float):
        return value
    text = value.name if hasattr(value, "name") and not isinstance(value, str) else value
    return str(text)[:MAX_TEXT]


def bounded(data: Mapping[str, Any]) -> dict[str, Any]:
    """`data` as a flat map of at most `MAX_FIELDS` scalar fields, strings cut to `MAX_TEXT`."""
    out: dict[str, Any] = {}
    for key, value in data.items():
        if len(out) >= MAX_FIELDS:
            break
        if value is not None:
            out[str(key)[:64]] = _scalar(value)
    return out


class Trace:
    """The bounded event stream of one run; thread-safe (loops under `pcalls` share it)."""

    def __init__(self, sink: EventSink | None = None, max_events: int = MAX_EVENTS) -> None:
        if sink is not None and not callable(sink):
            raise TypeError("on_event must be a callable taking one event map")
        if type(max_events) is not int or max_events < 1:
            raise ValueError("Trace: max_events must be a positive integer")
        self._sink = sink
        self._max = max_events
        self._events: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._seq = 0
        self.dropped = 0
        self.sink_failed = False
        self.turns = 0
        self.evaluations = 0
        self.protocol_errors = 0
        self.stopped = False

    @property
    def events(self) -> list[dict[str, Any]]:
        """The retained events, oldest first (a copy)."""
        with self._lock:
            return list(self._events)

    def emit(self, type_: str, data: Mapping[str, Any]) -> None:
        """Record one event and hand it to the callback; never raises for the callback."""
        with self._lock:
            if self.stopped:  # nothing follows run-stopped
                return
            self._seq += 1
            fields = bounded(data)
            event: dict[str, Any] = {"seq": self._seq, "type": type_, "data": fields}
            if type_ == "agent-action":
                self.turns += 1
                self.protocol_errors += fields.get("kind") == "protocol-error"
            elif type_ == "evaluation" and "reason" not in fields:  # admitted, not refused
                self.evaluations += 1
            if type_ == "run-stopped":
                self.stopped = True
                if len(self._events) >= self._max:  # run-stopped is always retained
                    self._events.pop()
                    self.dropped += 1
                self._events.append(event)
            elif len(self._events) < self._max - 1:  # one place kept for run-stopped
                self._events.append(event)
            else:
                self.dropped += 1
            if self._sink is not None:
                try:
                    self._sink({**event, "data": dict(fields)})  # the sink gets its own copy
                except Exception:
                    self._sink = None
                    self.sink_failed = True

    def stop(self, data: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Emit `run-stopped` (once) with the run's counters; returns the retained events."""
        with self._lock:
            counters = {
                "turns": self.turns,
                "evaluations": self.evaluations,
                "protocol_errors": self.protocol_errors,
                "events_dropped": self.dropped,
            }
        stopped = {**data, **counters}
        if self.sink_failed:
            stopped["sink_failed"] = True
        self.emit("run-stopped", stopped)
        return self.events


def stopped_from_outcome(outcome: Mapping[str, Any]) -> dict[str, Any]:
    """run-stopped data of a run that ended with an outcome: status and the failure facts.

    `outcome` is the `run-outcome` data with plain keys (`status`, `kind`, `error`, `model`);
    only closed-vocabulary facts are copied, never the failure value.
    """
    status = str(outcome.get("status"))
    data: dict[str, Any] = {"status": status}
    if status == "returned":
        return data
    error = outcome.get("error")
    error = error if isinstance(error, Mapping) else {}
    if status == "provider-failure":
        data["failure_kind"] = "provider-failure"
        data["provider_kind"] = error.get("kind")
        data["provider_reason"] = error.get("reason")
        data["model"] = outcome.get("model")
        return data
    kind = outcome.get("kind")
    data["failure_kind"] = kind if kind in _SUBJECT_KINDS else "subject-failure"
    if kind == "turn-limit":
        data.update(_limit_facts(error))
    return data


def stopped_from_error(code: str, details: Mapping[str, Any]) -> dict[str, Any]:
    """run-stopped data of a run that failed with `AgentError(code, ..., details)`."""
    data: dict[str, Any] = {"status": FAILED, "code": code}
    if code in ("runtime_limit_exceeded", "turn_limit_exceeded"):
        limit = details.get("limit")
        data["failure_kind"] = _LIMIT_KINDS.get(str(limit), "runtime-limit")
        data.update(_limit_facts(details))
    elif code == "subject_failure":
        kind = details.get("kind")
        data["failure_kind"] = kind if kind in _SUBJECT_KINDS else "subject-failure"
    else:
        data["failure_kind"] = code.replace("_", "-")
    if code in ("llm_provider_failed", "capability_quota_exceeded"):
        data["provider_kind"] = details.get("kind")
        data["provider_reason"] = details.get("reason")
        data["model"] = details.get("model")
    if code == "model_output_truncated":
        data["model"] = details.get("alias")
        if "max_tokens" in details:  # only a cap the adapter stated
            data["limit"] = "max_tokens"
            data["limit_value"] = details.get("max_tokens")
            data["limit_bindings"] = ",".join(str(b) for b in details.get("bindings") or ())
    if code == "result_contract_failed":
        data["limit"] = "agent_turns"
        data["limit_value"] = details.get("agent_turns")
    return data


def stopped_from_exception(exc: BaseException) -> dict[str, Any]:
    """run-stopped data of a run ended by an exception (a crashing provider or callback):
    only the exception's type name, never its text."""
    return {"status": FAILED, "failure_kind": "host-exception", "code": type(exc).__name__}


def _limit_facts(facts: Mapping[str, Any]) -> dict[str, Any]:
    out = {"limit": facts.get("limit"), "limit_value": facts.get("value")}
    if facts.get("reason") is not None:
        out["limit_reason"] = facts.get("reason")
    return out


__all__ = [
    "EventSink",
    "Trace",
    "stopped_from_error",
    "stopped_from_exception",
    "stopped_from_outcome",
]


#: Annotation types the host emits itself; workflow code cannot forge them.
HOST_EVENT_TYPES: Final = frozenset({"run-started", "run-stopped", "evaluation"})
ANNOTATION_TYPE: Final = re.compile(r"[a-z][a-z0-9-]{0,63}")


def annotation_problem(kind: Any, data: Any) -> str | None:
    """Why `workflow.event/annotate` refuses an event of type `kind` with `data`, or None.

    The type is a lower-case name that is not one of the host's own event types; the data a
    flat map of at most `MAX_FIELDS` fields with string keys and scalar values.
    """
    if not isinstance(kind, str) or not ANNOTATION_TYPE.fullmatch(kind):
        return "the type must be a lower-case name ([a-z][a-z0-9-]{0,63})"
    if kind in HOST_EVENT_TYPES:
        return f"{kind} events are the host's own"
    if not isinstance(data, Mapping) or len(data) > MAX_FIELDS:
        return f"the data must be a map of at most {MAX_FIELDS} fields"
    if not all(isinstance(k, str) for k in data):
        return "the data's keys must be strings or keywords"
    if not all(v is None or isinstance(v, str | int | float | bool) for v in data.values()):
        return "the data's values must be scalars (strings, numbers, booleans, nil)"
    return None
