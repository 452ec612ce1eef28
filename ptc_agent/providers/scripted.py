"""`ScriptedProvider`: canned responses for tests, recording every request it receives."""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from ptc_agent.providers.failure import ProviderError, ProviderFailure
from ptc_agent.providers.request import Request, Response, response_from_json

Outcome = Response | Mapping[str, Any] | ProviderFailure | BaseException
Item = Outcome | Callable[[Request], Outcome]


class ScriptExhausted(RuntimeError):
    """The script ran out: the code under test made more model calls than expected."""


class ScriptedProvider:
    """Pops one item per request.

    An item is a `Response`, a response map (`{"content": ..., "tool_calls": [...]}`), a
    `ProviderFailure` (raised as `ProviderError`), any other exception (raised as is: a host
    crash), or a callable receiving the request and returning one of those.
    """

    def __init__(self, items: Iterable[Item] = ()) -> None:
        self._items: deque[Item] = deque(items)
        self._lock = threading.Lock()
        self.requests: list[Request] = []
        self.close_count = 0

    def push(self, item: Item) -> None:
        with self._lock:
            self._items.append(item)

    @property
    def remaining(self) -> int:
        return len(self._items)

    def request(self, request: Request) -> Response:
        with self._lock:
            self.requests.append(request)
            if not self._items:
                raise ScriptExhausted(f"script exhausted after {len(self.requests) - 1} requests")
            item = self._items.popleft()
        outcome = item(request) if callable(item) else item
        if isinstance(outcome, Response):
            return outcome
        if isinstance(outcome, ProviderFailure):
            raise ProviderError(outcome)
        if isinstance(outcome, BaseException):
            raise outcome
        return response_from_json(outcome)

    def close(self) -> None:
        self.close_count += 1
