"""Two tiny properties for tests of the campaign machinery: one holds, one breaks.

`ptc fuzz signatures --properties-module fuzz.campaign.demo_properties` runs them as it runs
the real ones (`fuzz/properties.py`), quickly, with a known failure (the shrunk example
is -1).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st


@dataclass(frozen=True)
class Property:
    """A strategy and the check of one drawn value (as `fuzz.properties.Property`)."""

    name: str
    strategy: st.SearchStrategy[Any]
    check: Any


def _never_negative(x: int) -> None:
    assert x >= 0, "negative"


PROPERTIES = (
    Property("holds", st.integers(0, 10**9), _never_negative),
    Property("breaks", st.integers(), _never_negative),
)
