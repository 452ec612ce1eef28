"""The fast paths against the same programs with them switched off, on seeds hypothesis
picks (one random program per example; see `fuzz/strategies/fastpaths.py`)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fuzz.strategies.fastpaths import check


def test_fast_paths_agree_with_the_generic_code() -> None:
    @given(st.integers(min_value=0, max_value=2**64))
    def one(seed: int) -> None:
        with pytest.MonkeyPatch.context() as monkeypatch:
            check(random.Random(seed), f"h{seed}", monkeypatch)

    one()
