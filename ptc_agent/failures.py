"""`AgentError`, the typed failure of an agent run, and the message of each of its codes.

The host records the first trusted failure a workflow reports (`AgentHost.report_failure`)
as an `AgentError` and raises `Terminal` inside the workflow to end it; the entry then
raises the recorded error. Messages name facts (limits, reasons, aliases), never values.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final


class AgentError(Exception):
    """The agent run failed as a workflow: `code` names the diagnostic, `details` the facts.

    Codes: `invalid_agent_config`, `mission_unavailable`, `runtime_limit_exceeded`,
    `turn_limit_exceeded` (the loop spent its `max_turns`: details `limit` `agent_turns`,
    `value`, `reason` and the `remedy` for that reason),
    `capability_unavailable` (details `kind`/`reason`, e.g. input-validation-unavailable),
    `result_contract_failed`, `llm_provider_failed`, `capability_quota_exceeded`,
    `model_output_truncated`, `evaluation_unavailable`, `subject_failure` (from the
    value entries), `workflow_error` (the loop itself failed unexpectedly).
    """

    def __init__(self, code: str, message: str, details: Mapping[str, Any] | None = None):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.details: dict[str, Any] = dict(details or {})
        #: the run's retained trace events, run-stopped last (set by the entry; see trace.py)
        self.trace: list[dict[str, Any]] = []


class Terminal(Exception):
    """Raised inside the workflow by a trusted reporter; the entry raises the recorded error."""


def bounded(text: str, limit: int) -> str:
    """`text`, cut to at most `limit` characters with a trailing `...` when it was longer."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


#: What a spent turn ceiling recommends, by how the final turn ended: only some endings
#: are answered by buying more turns.
TURN_LIMIT_REMEDIES: Final[Mapping[str, str]] = {
    "intermediate-result": "raise max_turns, or reduce the work per turn",
    "evaluation-error": "raise max_turns, or simplify the work per turn",
    "protocol-error": "check the model's tool-calling support and any configured max_tokens "
    "first",
}
#: The remedy of the other endings (a phase that must return, the ceiling itself).
DEFAULT_TURN_LIMIT_REMEDY: Final = "raise max_turns"


def turn_limit_remedy(reason: object) -> str:
    """The remedy a turn-limit failure whose final turn ended with `reason` reports."""
    return TURN_LIMIT_REMEDIES.get(str(reason), DEFAULT_TURN_LIMIT_REMEDY)


def failure_message(code: str, p: Mapping[str, Any]) -> str:
    """The message of an `AgentError` with `code` and details `p` (facts, never values)."""
    if code == "invalid_agent_config":
        reason = p.get("reason")
        if reason == "invalid-task":
            return f"the task must be a string, got {p.get('type')}"
        if reason == "invalid-phases":
            return f"phases {p.get('problem')}"
        if reason == "unknown-option":
            return f"unknown option {bounded(str(p.get('option')), 64)!r}"
        if reason == "invalid-mission":
            return f"mission must be a non-blank string, got {p.get('type')}"
        head = f"{p.get('option')} must be an integer in {p.get('min')}..{p.get('max')}"
        if "value" in p:
            return f"{head}, got {p['value']}"
        return f"{head}, got {p.get('type')}"
    if code == "invalid_prompt":
        return f"the agent.prompt policy returned an invalid value ({p.get('reason')})"
    if code == "turn_limit_exceeded":
        head = f"agent_turns limit of {p.get('value')} reached (reason: {p.get('reason')})"
        remedy = p.get("remedy")
        return f"{head}; {remedy}" if isinstance(remedy, str) else head
    if code == "runtime_limit_exceeded":
        limit = p.get("limit")
        if limit == "subordinate_evaluations":
            return (
                f"subordinate_evaluations limit of {p.get('value')} reached; raise the host's "
                "subordinate_evaluations ceiling, or reduce agent turns or parallel agent loops"
            )
        return f"{limit} limit of {p.get('value')} exceeded"
    if code == "mission_unavailable":
        return f"mission {bounded(str(p.get('mission')), 64)!r} is unavailable"
    if code == "result_contract_failed":
        where = f" (contract {p['contract_source']})" if "contract_source" in p else ""
        return f"no contract-valid result after {p.get('agent_turns')} turns{where}"
    if code in ("llm_provider_failed", "capability_quota_exceeded"):
        head = f"{p.get('kind')}/{p.get('reason')} (model {p.get('model')})"
        if code == "capability_quota_exceeded" and "limit" in p:
            return f"{head}: {p['limit']} limit of {p.get('limit_value')} reached"
        return head
    if code == "evaluation_unavailable":
        why = {
            "admission_timeout": "the evaluation lease was not granted within "
            "evaluation_admission_timeout_ms",
            "deadline": "the run deadline passed before the evaluation was admitted",
        }.get(str(p.get("reason")), str(p.get("reason")))
        return f"mission evaluation unavailable: {why}"
    if code == "capability_unavailable":
        if p.get("reason") == "output-validation-unavailable":
            why = "a capability's result could not be validated, so it was not used"
        else:
            why = "a capability's input could not be validated, so it was not called"
        return f"{p.get('kind')}/{p.get('reason')}: {why}"
    if code == "subject_failure":
        return f"the agent did not produce a value ({p.get('kind')})"
    if code == "model_output_truncated":
        head = f"model output truncated without a usable action (model {p.get('alias')})"
        if "max_tokens" not in p:
            return head
        return (
            f"{head}; the request's max_tokens cap was {p['max_tokens']}, bound by "
            f"{', '.join(p['bindings'])} (request metadata: the provider may enforce a lower "
            f"ceiling); {'; or '.join(p['remedy'])}"
        )
    return code
