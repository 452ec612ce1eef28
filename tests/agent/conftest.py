from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from llm_fake_server import FakeLLMServer


@pytest.fixture(autouse=True, scope="session")
def _agent_prelude_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Compile agent.core once per session into a private cache (never the user's); the CLI
    subprocesses the tests start inherit it."""
    cache = tmp_path_factory.mktemp("agent-prelude-cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PTC_PRELUDE_CACHE", str(cache))
        yield cache


@pytest.fixture
def server() -> Iterator[FakeLLMServer]:
    fake = FakeLLMServer().start()
    try:
        yield fake
    finally:
        fake.stop()
