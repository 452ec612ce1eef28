"""The model transport of one agent run: requests, their quota, and host-held transcripts.

`ModelTransport.request` is the `llm-request` capability: it spends one request of the run's
`workflow_capability_calls` quota (a refusal is data, `limit_exceeded`), sends the turn
through the `ModelRouter` and fits the response to the workflow's result cap
(`response_fit`). It records what a trusted failure report may later cite: the provider
failures it returned and the output caps adapters stated on truncated responses.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any

from ptc_agent.providers import ModelRouter, ProviderError
from ptc_agent.providers.failure import ProviderFailure
from ptc_agent.providers.request import Message, RequestShapeError, message_from_json
from ptc_agent.response_fit import DEFAULT_RESPONSE_BYTES, fit_response


class ModelTransport:
    """The run's model requests; `lock` is the host's, which guards the run's records."""

    def __init__(self, router: ModelRouter, quota: int | None, lock: threading.Lock) -> None:
        self.router = router
        #: model requests the whole run may make (`HostLimits.workflow_capability_calls`)
        self.quota = quota
        self._lock = lock
        self.model_calls = 0
        #: the failure envelopes returned to the workflow (anti-forgery for its reports)
        self.provider_failures: list[dict[str, Any]] = []
        #: (alias, max_tokens, bindings) of every truncated response an adapter stated its
        #: cap for: a `model_output_truncated` report may cite only these
        self.output_caps: list[tuple[Any, Any, tuple[Any, ...]]] = []
        #: a provider or callback crash, re-raised by the entry after the workflow ends
        self.crash: BaseException | None = None
        #: host-held transcripts (`llm/transcript`): id -> the messages sent so far
        self._transcripts: dict[int, list[Message]] = {}
        #: the workflow's cap on one tool result, which a model response must fit (set by
        #: the entry that builds the workflow environment)
        self.response_bytes = DEFAULT_RESPONSE_BYTES

    def request(self, args: Any) -> dict[str, Any]:
        """`llm/request`: one model turn (a transcript's messages first, when it names one),
        as an envelope: the response fitted to `response_bytes`, or the failure as data."""
        history: list[Message] = []
        if isinstance(args, Mapping) and "transcript" in args:
            appended = self._append(args)
            if isinstance(appended, dict):  # a malformed append: refused before any call
                return appended
            history = appended
            args = {k: v for k, v in args.items() if k not in ("transcript", "append")}
            args["messages"] = []
        refusal = self._capability_quota(args)
        if refusal is not None:
            return refusal
        try:
            envelope = self.router.llm_request(args, history)
        except ProviderError:  # pragma: no cover - llm_request returns these as data
            raise
        except BaseException as exc:  # a provider or callback crash fails the workflow
            self.crash = exc
            raise
        if envelope.get("status") != "ok":
            with self._lock:
                self.provider_failures.append(envelope)
            return envelope
        value = envelope["value"]
        if isinstance(value, dict):
            limit = value.get("output_limit")
            if value.get("finish_reason") == "length" and isinstance(limit, dict):
                with self._lock:  # what a truncation report may cite (`AgentHost.report_failure`)
                    self.output_caps.append(
                        (value.get("model"), limit.get("value"), tuple(limit.get("bindings", ())))
                    )
            value = fit_response(value, self.response_bytes)
        return {"status": "ok", "value": value}

    def open_transcript(self, args: Any) -> dict[str, Any]:
        """`llm/transcript`: a new, empty host-held transcript; its id."""
        with self._lock:
            tid = len(self._transcripts)
            self._transcripts[tid] = []
        return {"status": "ok", "value": tid}

    def _append(self, args: Mapping[str, Any]) -> list[Message] | dict[str, Any]:
        """Append `args["append"]` to transcript `args["transcript"]`; its messages, or the
        invalid-request envelope (nothing appended) when the id or a message is malformed."""
        tid = args.get("transcript")
        with self._lock:
            messages = self._transcripts.get(tid) if type(tid) is int else None
        new = args.get("append")
        try:
            if messages is None:
                raise RequestShapeError("request.transcript must be an id from llm/transcript")
            if not isinstance(new, list):
                raise RequestShapeError("request.append must be an array of messages")
            converted = [message_from_json(m) for m in new]
        except RequestShapeError as exc:
            failure = ProviderFailure("provider_error", "invalid_request", False, str(exc))
            return failure.to_envelope()
        messages.extend(converted)  # only its own loop appends to a transcript
        return messages

    def _capability_quota(self, args: Any) -> dict[str, Any] | None:
        """The global model-call quota (`workflow_capability_calls`), a named refusal."""
        limit = self.quota
        with self._lock:
            if limit is None or self.model_calls < limit:
                self.model_calls += 1
                return None
            envelope: dict[str, Any] = {
                "status": "error",
                "kind": "limit_exceeded",
                "reason": "capability_quota",
                "retryable?": False,
                "details": {
                    "limit": "workflow_capability_calls",
                    "name": "llm-request",
                    "limit_value": limit,
                },
            }
            requested = args.get("model") if isinstance(args, Mapping) else None
            alias = requested if isinstance(requested, str) else self.router.default
            if alias is not None:
                envelope["model"] = alias
            self.provider_failures.append(envelope)
            return envelope
