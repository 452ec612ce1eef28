"""The provider protocol every adapter, script and replay source implements."""

from __future__ import annotations

from typing import Protocol

from ptc_agent.providers.request import Request, Response


class Provider(Protocol):
    """Answers one neutral request.

    `request` returns a `Response` or raises `ProviderError` for an expected failure; any
    other exception is a host bug and is left to fail the workflow. `close` releases
    resources; the router calls it exactly once.
    """

    def request(self, request: Request) -> Response: ...

    def close(self) -> None: ...
