from __future__ import annotations

from collections.abc import Iterator

import pytest
from llm_fake_server import FakeLLMServer


@pytest.fixture
def server() -> Iterator[FakeLLMServer]:
    fake = FakeLLMServer().start()
    try:
        yield fake
    finally:
        fake.stop()
