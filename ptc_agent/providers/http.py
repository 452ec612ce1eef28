"""A bounded JSON-over-HTTP POST (stdlib `http.client`) and its failure classification.

`post_json` returns the decoded JSON object of a 2xx reply and raises `ProviderError` for
everything else: HTTP statuses by the §3.8 table, a spent deadline as `timeout`, socket
failures as `transport_error`, and a 2xx body that is oversized or not a JSON object as
`invalid_result`. Details carry the status and the provider's own error message (sanitized,
credentials redacted); headers, the request body and raw response bodies never do.
"""

from __future__ import annotations

import email.utils
import http.client
import json
import ssl
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import urlsplit

from ptc_agent.providers.failure import (
    ProviderError,
    provider_error,
    reason_for_status,
    sanitize,
    status_retryable,
)

DEFAULT_TIMEOUT: Final = 120.0
DEFAULT_MAX_RESPONSE_BYTES: Final = 8 * 1024 * 1024
_CHUNK: Final = 64 * 1024
#: Socket failures after which the same request may simply be sent again (§3.8 transport).
_RETRYABLE_TRANSPORT: Final = (
    ConnectionRefusedError,
    ConnectionResetError,
    ConnectionAbortedError,
    BrokenPipeError,
    http.client.RemoteDisconnected,
    http.client.IncompleteRead,
)

#: Extracts the provider's human-readable message from a parsed error body.
MessageOf = Callable[[object], str | None]


@dataclass(frozen=True, slots=True)
class Endpoint:
    """Where and how to POST: `base_url` plus a path, and the headers (credentials included)."""

    base_url: str
    headers: Mapping[str, str]
    secrets: tuple[str, ...] = ()  # values to redact from anything that leaves this module

    def url(self, path: str) -> str:
        return self.base_url.rstrip("/") + path


class HTTPAdapter:
    """What the HTTP adapters share: the model id, the endpoint, the reply cap and the catalog
    output limit, and one bounded JSON POST to the endpoint.

    `headers` carry the adapter's own fields and the credential header, if any; `api_key` is
    redacted from every failure (`Endpoint.secrets`). Subclasses build the wire body and parse
    the reply.
    """

    def __init__(
        self,
        model: str,
        *,
        base_url: str,
        headers: Mapping[str, str],
        api_key: str | None,
        max_response_bytes: int,
        model_output_limit: int | None,
    ) -> None:
        self._endpoint = Endpoint(base_url, dict(headers), (api_key,) if api_key else ())
        self.model = model
        self.max_response_bytes = max_response_bytes
        #: the model's output-token limit from catalog metadata the host supplies, if any
        self.model_output_limit = model_output_limit

    def post(self, path: str, body: Mapping[str, Any], timeout: float | None) -> dict[str, Any]:
        """POST `body` to `path` (`post_json` with the provider's error-message extraction)."""
        return post_json(
            self._endpoint,
            path,
            body,
            timeout=timeout,
            max_response_bytes=self.max_response_bytes,
            message_of=error_message,
        )

    def close(self) -> None:
        """Nothing pooled: each request opens and closes its own connection."""


def post_json(
    endpoint: Endpoint,
    path: str,
    body: Mapping[str, Any],
    *,
    timeout: float | None,
    max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES,
    message_of: MessageOf,
) -> dict[str, Any]:
    """POST `body` as JSON; the whole exchange must finish within `timeout` seconds."""
    deadline = time.monotonic() + (DEFAULT_TIMEOUT if timeout is None else timeout)
    parts = urlsplit(endpoint.url(path))
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise provider_error("invalid_request", "base_url must be an http(s) URL", retryable=False)
    payload = json.dumps(body, ensure_ascii=False, allow_nan=False).encode("utf-8")
    headers = {
        **endpoint.headers,
        "content-type": "application/json",
        "accept": "application/json",
        "content-length": str(len(payload)),
    }
    conn = _connection(
        parts.scheme, parts.hostname, parts.port, max(0.001, deadline - time.monotonic())
    )
    try:
        conn.request(
            "POST",
            parts.path + (f"?{parts.query}" if parts.query else ""),
            body=payload,
            headers=headers,
        )
        _set_timeout(conn, deadline)
        reply = conn.getresponse()
        raw = _read_bounded(conn, reply, deadline, max_response_bytes)
    except TimeoutError:
        raise provider_error("timeout", "the provider did not answer in time") from None
    except ProviderError:
        raise
    except _RETRYABLE_TRANSPORT as exc:
        raise provider_error("transport_error", _transport_text(exc), retryable=True) from None
    except (OSError, http.client.HTTPException) as exc:
        raise provider_error("transport_error", _transport_text(exc), retryable=False) from None
    finally:
        conn.close()
    if not 200 <= reply.status < 300:
        raise _status_error(reply, raw, message_of, endpoint.secrets)
    try:
        decoded = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise provider_error(
            "invalid_result",
            f"HTTP {reply.status}: body is not JSON",
            retryable=False,
            status=reply.status,
        ) from None
    if not isinstance(decoded, dict):
        raise provider_error(
            "invalid_result",
            f"HTTP {reply.status}: body is not a JSON object",
            retryable=False,
            status=reply.status,
        )
    return decoded


def _connection(
    scheme: str, host: str, port: int | None, timeout: float
) -> http.client.HTTPConnection:
    if scheme == "https":
        return http.client.HTTPSConnection(
            host, port, timeout=timeout, context=ssl.create_default_context()
        )
    return http.client.HTTPConnection(host, port, timeout=timeout)


def _remaining(deadline: float) -> float:
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeoutError
    return left


def _set_timeout(conn: http.client.HTTPConnection, deadline: float) -> None:
    # http.client's timeout bounds each socket operation; re-arming it before every read
    # turns it into one deadline for the whole exchange, so a trickling server cannot stall us.
    if conn.sock is not None:
        conn.sock.settimeout(_remaining(deadline))


def _read_bounded(
    conn: http.client.HTTPConnection, reply: http.client.HTTPResponse, deadline: float, limit: int
) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while True:
        _set_timeout(conn, deadline)
        chunk = reply.read(_CHUNK)
        if not chunk:
            return b"".join(chunks)
        size += len(chunk)
        if size > limit:
            raise provider_error(
                "invalid_result",
                f"response body exceeds {limit} bytes",
                retryable=False,
                status=reply.status,
            )
        chunks.append(chunk)


def _transport_text(exc: BaseException) -> str:
    # The exception class names the failure; its message may hold addresses, so it is dropped.
    return f"transport failure ({type(exc).__name__})"


def _status_error(
    reply: http.client.HTTPResponse, raw: bytes, message_of: MessageOf, secrets: tuple[str, ...]
) -> ProviderError:
    status = reply.status
    message: str | None = None
    try:
        message = message_of(json.loads(raw.decode("utf-8")))
    except (UnicodeDecodeError, ValueError):
        message = None  # a non-JSON error body is never echoed
    reason = reason_for_status(status, message)
    retry_after = parse_retry_after(reply.getheader("retry-after"))
    details = f"HTTP {status}"
    if retry_after is not None:
        details += f"; retry after {retry_after:g}s"
    if message:
        details += ": " + sanitize(message, secrets)
    return provider_error(
        reason, details, retryable=status_retryable(status), status=status, retry_after=retry_after
    )


def parse_retry_after(value: str | None, now: float | None = None) -> float | None:
    """`Retry-After` as delta-seconds or an HTTP date -> seconds from now (None if unusable)."""
    if value is None:
        return None
    value = value.strip()
    try:
        seconds = float(value)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return None
        seconds = when.timestamp() - (time.time() if now is None else now)
    if seconds != seconds or seconds in (float("inf"), float("-inf")):
        return None
    return max(0.0, seconds)


def error_message(body: object) -> str | None:
    """`{"error": {"message": ...}}` or `{"error": "..."}` or `{"message": ...}` -> message."""
    if not isinstance(body, dict):
        return None
    err = body.get("error", body)
    if isinstance(err, str):
        return err
    if isinstance(err, dict):
        message = err.get("message")
        if isinstance(message, str):
            return message
    return None
