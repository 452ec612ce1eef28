"""The closed failure vocabulary, the HTTP status table, sanitizing, and the envelope."""

from __future__ import annotations

import pytest

from ptc_agent.providers import ProviderFailure, reason_for_status
from ptc_agent.providers.failure import REASONS_BY_KIND, sanitize, status_retryable
from ptc_agent.providers.http import error_message, parse_retry_after

# agent-design.md §3.8, copied here on purpose: changing the vocabulary must break this test.
DOCUMENTED = {
    "provider_error": {
        "timeout",
        "unavailable",
        "rate_limited",
        "transport_error",
        "authentication_failed",
        "payment_required",
        "denied",
        "not_found",
        "invalid_request",
        "tool_calling_unsupported",
        "internal",
        "domain_error",
        "invalid_result",
    },
    "limit_exceeded": {"capability_quota"},
    "protocol_error": {"unknown_model_alias", "invalid_model_alias", "model_alias_required"},
}


def test_vocabulary_is_the_documented_one() -> None:
    assert {k: set(v) for k, v in REASONS_BY_KIND.items()} == DOCUMENTED


def test_reason_must_belong_to_kind() -> None:
    with pytest.raises(ValueError):
        ProviderFailure("provider_error", "capability_quota", False)
    with pytest.raises(ValueError):
        ProviderFailure("protocol_error", "timeout", True)


def test_details_are_cut_to_1024() -> None:
    assert (
        len(str(ProviderFailure("provider_error", "internal", False, "x" * 5000).details)) == 1024
    )


def test_envelope_omits_absent_fields() -> None:
    assert ProviderFailure("provider_error", "timeout", True, status=408).to_envelope() == {
        "status": "error",
        "kind": "provider_error",
        "reason": "timeout",
        "retryable?": True,
    }


@pytest.mark.parametrize(
    ("status", "reason"),
    [
        (401, "authentication_failed"),
        (402, "payment_required"),
        (403, "denied"),
        (404, "not_found"),
        (408, "timeout"),
        (429, "rate_limited"),
        (400, "invalid_request"),
        (418, "invalid_request"),
        (451, "invalid_request"),
        (500, "unavailable"),
        (599, "unavailable"),
        (302, "unavailable"),
    ],
)
def test_status_table(status: int, reason: str) -> None:
    assert reason_for_status(status) == reason


@pytest.mark.parametrize(
    ("status", "retryable"),
    [
        (408, True),
        (409, True),
        (425, True),
        (429, True),
        (500, True),
        (529, True),
        (400, False),
        (401, False),
        (404, False),
        (413, False),
        (422, False),
        (302, False),
    ],
)
def test_status_retryability(status: int, retryable: bool) -> None:
    assert status_retryable(status) is retryable


@pytest.mark.parametrize(
    ("status", "message", "reason"),
    [
        (
            404,
            "No endpoints found that support tool use. Try disabling tools.",
            "tool_calling_unsupported",
        ),
        (
            400,
            "registry.ollama.ai/library/gemma does not support tools",
            "tool_calling_unsupported",
        ),
        (400, "Tool calling is not supported for this model", "tool_calling_unsupported"),
        (404, "model not found", "not_found"),
        (400, "messages: field required", "invalid_request"),
        (500, "does not support tools", "unavailable"),
    ],
)
def test_tool_support_messages(status: int, message: str, reason: str) -> None:
    assert reason_for_status(status, message) == reason


def test_sanitize_redacts_and_bounds() -> None:
    text = sanitize("key sk-abcdefghijklmnop and Bearer tok.en-123456789\nline2\x00", ["line2"])
    assert text == "key [redacted] and [redacted] [redacted]"
    assert len(sanitize("y" * 2000)) == 512


@pytest.mark.parametrize(
    ("value", "seconds"),
    [
        ("7", 7.0),
        ("0.5", 0.5),
        ("-3", 0.0),
        ("soon", None),
        (None, None),
        ("nan", None),
        ("Wed, 21 Oct 2015 07:28:30 GMT", 30.0),
    ],
)
def test_retry_after(value: str | None, seconds: float | None) -> None:
    assert parse_retry_after(value, now=1445412480.0) == seconds


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"error": {"message": "m"}}, "m"),
        ({"error": "plain"}, "plain"),
        ({"message": "top"}, "top"),
        ({"error": {"code": 1}}, None),
        ([1], None),
    ],
)
def test_error_message(body: object, message: str | None) -> None:
    assert error_message(body) == message
