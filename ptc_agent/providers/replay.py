"""`ReplayProvider`: JSON Lines fixtures keyed by the hash of the neutral request.

One line per distinct request: `{"schema_version": 1, "request_hash": "sha256:<64 hex>",
"response": {...}}`, or `"responses": [...]` (1-1024, served in order to identical repeated
requests). The hash is `request_hash(request)`: SHA-256 of the canonical JSON of
`Request.to_json()` (system, messages, tools, model alias), so fixtures are vendor-neutral
and any prompt or transcript change misses. Rules follow agent-design §4.1:

* a miss is `provider_error/not_found`, non-retryable, naming the hash to paste in;
* an exhausted sequence fails closed the same way;
* load errors name the rule and the 1-based file line (blank lines counted), never its text.

In record mode every request goes to `inner` and its response is stored; the file is
rewritten whole (via a temporary file) after each record, so it is always loadable.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final, Literal

from ptc_agent.providers.base import Provider
from ptc_agent.providers.failure import provider_error
from ptc_agent.providers.request import (
    Request,
    RequestShapeError,
    Response,
    canonical_json,
    request_hash,
    response_from_json,
)

SCHEMA_VERSION: Final = 1
MAX_FILE_BYTES: Final = 8 * 1024 * 1024
MAX_SEQUENCE: Final = 1024
_HASH: Final = re.compile(r"sha256:[0-9a-f]{64}")

Mode = Literal["replay", "record"]


class FixtureError(ValueError):
    """A fixture file breaks a format rule; `line` is 1-based (0: the file as a whole)."""

    def __init__(self, rule: str, line: int) -> None:
        where = f"line {line}" if line else "file"
        super().__init__(f"replay fixture {where}: {rule}")
        self.rule = rule
        self.line = line


def load_fixtures(
    path: Path, *, max_entries: int = 10_000, max_result_bytes: int = 1024 * 1024
) -> dict[str, list[Response]]:
    """Parse and validate a fixture file (a missing file is an empty set)."""
    if not path.exists():
        return {}
    if path.stat().st_size > MAX_FILE_BYTES:
        raise FixtureError(f"file exceeds {MAX_FILE_BYTES} bytes", 0)
    entries: dict[str, list[Response]] = {}
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            if len(entries) >= max_entries:
                raise FixtureError(f"more than {max_entries} entries", number)
            key, responses = _entry(line, number, max_result_bytes)
            if key in entries:
                raise FixtureError("duplicate request_hash", number)
            entries[key] = responses
    return entries


def _entry(line: str, number: int, max_result_bytes: int) -> tuple[str, list[Response]]:
    try:
        obj = json.loads(line)
    except ValueError:
        raise FixtureError("not valid JSON", number) from None
    if not isinstance(obj, dict):
        raise FixtureError("entry is not a JSON object", number)
    if set(obj) - {"schema_version", "request_hash", "response", "responses"}:
        raise FixtureError("unknown key", number)
    if obj.get("schema_version") != SCHEMA_VERSION:
        raise FixtureError(f"schema_version must be {SCHEMA_VERSION}", number)
    key = obj.get("request_hash")
    if not isinstance(key, str) or not _HASH.fullmatch(key):
        raise FixtureError("request_hash must be sha256: plus 64 lowercase hex digits", number)
    if ("response" in obj) == ("responses" in obj):
        raise FixtureError("exactly one of response or responses is required", number)
    raw = [obj["response"]] if "response" in obj else obj["responses"]
    if not isinstance(raw, list) or not 1 <= len(raw) <= MAX_SEQUENCE:
        raise FixtureError(f"responses must hold 1 to {MAX_SEQUENCE} objects", number)
    responses: list[Response] = []
    for item in raw:
        if len(canonical_json(item).encode("utf-8")) > max_result_bytes:
            raise FixtureError(f"a response exceeds {max_result_bytes} bytes", number)
        try:
            responses.append(response_from_json(item))
        except (RequestShapeError, ValueError):
            raise FixtureError("response does not have the response shape", number) from None
    return key, responses


class ReplayProvider:
    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        mode: Mode = "replay",
        inner: Provider | None = None,
        max_entries: int = 10_000,
        max_result_bytes: int = 1024 * 1024,
    ) -> None:
        if mode == "record" and inner is None:
            raise ValueError("record mode needs an inner provider")
        self.path = Path(path)
        self.mode = mode
        self._inner = inner
        self._limits = (max_entries, max_result_bytes)
        self._entries = load_fixtures(
            self.path, max_entries=max_entries, max_result_bytes=max_result_bytes
        )
        self._cursor: dict[str, int] = {}
        self._lock = threading.Lock()

    def request(self, request: Request) -> Response:
        key = request_hash(request)
        if self.mode == "record":
            return self._record(key, request)
        with self._lock:
            responses = self._entries.get(key)
            if responses is None:
                raise provider_error(
                    "not_found", f"no replay fixture for request {key}", retryable=False
                )
            at = self._cursor.get(key, 0)
            if at >= len(responses):
                raise provider_error(
                    "not_found",
                    f"replay fixture for request {key} exhausted after {len(responses)} responses",
                    retryable=False,
                )
            self._cursor[key] = at + 1
            return responses[at]

    def close(self) -> None:
        if self._inner is not None:
            self._inner.close()

    def _record(self, key: str, request: Request) -> Response:
        assert self._inner is not None
        response = self._inner.request(request)  # failures propagate and are not recorded
        stored = Response(
            response.content, response.tool_calls, response.usage, response.finish_reason
        )  # the alias is the router's, not the fixture's
        with self._lock:
            self._entries.setdefault(key, []).append(stored)
            if len(self._entries[key]) > MAX_SEQUENCE or len(self._entries) > self._limits[0]:
                raise FixtureError("recording exceeds the fixture limits", 0)
            self._write()
        return response

    def _write(self) -> None:
        lines = [canonical_json(_line(key, responses)) for key, responses in self._entries.items()]
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=self.path.name, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write("".join(line + "\n" for line in lines))
        os.replace(tmp, self.path)


def _line(key: str, responses: list[Response]) -> Mapping[str, Any]:
    out: dict[str, Any] = {"schema_version": SCHEMA_VERSION, "request_hash": key}
    if len(responses) == 1:
        out["response"] = responses[0].to_json()
    else:
        out["responses"] = [r.to_json() for r in responses]
    return out
