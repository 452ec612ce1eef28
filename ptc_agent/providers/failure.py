"""Provider failures: the closed kind/reason vocabulary and the bounded envelope.

Source: agent-design.md §3.8 (ProviderError reasons, HTTP mapping, quota and alias errors)
and seed 001 ("Provider-neutral requests", the `run-outcome` provider-failure table). The seed
spells the Lisp keywords with hyphens (`rate-limited`); the Python layer uses the underscore
spelling of §3.8 and of the reference `ProviderError`. The loop accepts both.

Invariant: `details` never holds credentials, headers, request bodies or raw response bodies;
only a sanitized excerpt (the provider's own error message) of at most 1024 characters.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Final, Literal, get_args

Kind = Literal["provider_error", "limit_exceeded", "protocol_error"]

ProviderReason = Literal[
    # retryable by nature
    "timeout",
    "unavailable",
    "rate_limited",
    "transport_error",
    # permanent per alias
    "authentication_failed",
    "payment_required",
    "denied",
    "not_found",
    "invalid_request",
    "tool_calling_unsupported",
    "internal",
    "domain_error",
    "invalid_result",
]
QuotaReason = Literal["capability_quota"]
AliasReason = Literal["unknown_model_alias", "invalid_model_alias", "model_alias_required"]
Reason = ProviderReason | QuotaReason | AliasReason

PROVIDER_REASONS: Final = frozenset(get_args(ProviderReason))
ALIAS_REASONS: Final = frozenset(get_args(AliasReason))
#: Which reasons each kind may carry; `ProviderFailure` rejects any other pair.
REASONS_BY_KIND: Final[Mapping[str, frozenset[str]]] = {
    "provider_error": PROVIDER_REASONS,
    "limit_exceeded": frozenset({"capability_quota"}),
    "protocol_error": ALIAS_REASONS,
}

DETAILS_LIMIT: Final = 1024
#: HTTP statuses worth retrying on the same alias (§3.8); every 5xx is retryable too.
RETRYABLE_STATUSES: Final = frozenset({408, 409, 425, 429})

QuotaDetails = Mapping[str, str | int]


@dataclass(frozen=True, slots=True)
class ProviderFailure:
    """One classified failure of a model request; `to_envelope()` is what PTC-Lisp sees."""

    kind: Kind
    reason: Reason
    retryable: bool
    details: str | QuotaDetails | None = None
    model: str | None = None  # the resolved installation alias, once routing resolved one
    status: int | None = field(default=None, compare=False)  # HTTP status, host-side only
    retry_after: float | None = field(default=None, compare=False)  # seconds, host-side only

    def __post_init__(self) -> None:
        if self.reason not in REASONS_BY_KIND.get(self.kind, frozenset()):
            raise ValueError(f"reason {self.reason!r} does not belong to kind {self.kind!r}")
        if isinstance(self.details, str) and len(self.details) > DETAILS_LIMIT:
            object.__setattr__(self, "details", self.details[:DETAILS_LIMIT])

    def to_envelope(self) -> dict[str, object]:
        """The capability error envelope of agent-design §2.2, as JSON-like data."""
        env: dict[str, object] = {
            "status": "error",
            "kind": self.kind,
            "reason": self.reason,
            "retryable?": self.retryable,
        }
        if self.details is not None:
            env["details"] = self.details if isinstance(self.details, str) else dict(self.details)
        if self.model is not None:
            env["model"] = self.model
        return env


class ProviderError(Exception):
    """Raised by a provider for an expected failure; carries the classified `failure`.

    A provider that cannot classify its failure raises `ProviderError("some-reason")` (or
    with no argument): an unclassified requester error, which becomes the retryable
    `provider_error/unavailable` (agent-design §3.8), its text sanitized into `details`.
    """

    def __init__(self, failure: ProviderFailure | str | None = None) -> None:
        if not isinstance(failure, ProviderFailure):
            text = sanitize(failure, limit=DETAILS_LIMIT) if isinstance(failure, str) else ""
            failure = ProviderFailure("provider_error", "unavailable", True, text or None)
        super().__init__(f"{failure.kind}/{failure.reason}")
        self.failure = failure


def provider_error(
    reason: ProviderReason,
    details: str | None = None,
    *,
    retryable: bool | None = None,
    status: int | None = None,
    retry_after: float | None = None,
) -> ProviderError:
    """A `provider_error` with the reason's default retryability unless one is given."""
    if retryable is None:
        retryable = reason in {"timeout", "unavailable", "rate_limited", "transport_error"}
    return ProviderError(
        ProviderFailure(
            "provider_error", reason, retryable, details, status=status, retry_after=retry_after
        )
    )


def reason_for_status(status: int, message: str | None = None) -> ProviderReason:
    """The §3.8 HTTP table: status (and, for 400/404, the provider's message) -> reason."""
    if status in (400, 404) and message is not None and _NO_TOOLS.search(message):
        return "tool_calling_unsupported"
    fixed: dict[int, ProviderReason] = {
        401: "authentication_failed",
        402: "payment_required",
        403: "denied",
        404: "not_found",
        408: "timeout",
        429: "rate_limited",
    }
    if status in fixed:
        return fixed[status]
    if 400 <= status < 500:
        return "invalid_request"
    return "unavailable"  # 5xx, and anything else a requester did not expect


def status_retryable(status: int) -> bool:
    return status in RETRYABLE_STATUSES or 500 <= status < 600


# "No endpoints found that support tool use", "model X does not support tools", ...
_NO_TOOLS: Final = re.compile(
    r"(support[s]?\s+(tool|function)[\s_-]*(use|call|calling|s)\b)"
    r"|(tool[\s_-]*(use|calling|calls|s)?\s+(is\s+|are\s+)?not\s+supported)",
    re.IGNORECASE,
)
_CONTROL: Final = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_SECRETS: Final = re.compile(
    r"(sk-[A-Za-z0-9_\-]{8,})|(Bearer\s+[A-Za-z0-9._\-]{8,})|(x-api-key\s*[:=]\s*\S+)",
    re.IGNORECASE,
)


def sanitize(text: str, secrets: Iterable[str] = (), limit: int = 512) -> str:
    """A bounded, single-line excerpt with known and key-shaped secrets redacted."""
    for secret in secrets:
        if secret:
            text = text.replace(secret, "[redacted]")
    text = _SECRETS.sub("[redacted]", text)
    text = _CONTROL.sub(" ", text).replace("\n", " ").strip()
    return text if len(text) <= limit else text[: limit - 3] + "..."
