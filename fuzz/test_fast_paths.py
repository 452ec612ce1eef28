"""The optimiser's rules against the same programs compiled with none (`optimize=False`), on seeds hypothesis
picks (one random program per example; see `fuzz/strategies/fastpaths.py`)."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from fuzz.strategies.fastpaths import check


def test_fast_paths_agree_with_the_generic_code() -> None:
    @given(st.integers(min_value=0, max_value=2**64))
    def one(seed: int) -> None:
        check(random.Random(seed), f"h{seed}")

    one()
