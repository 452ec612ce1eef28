"""The signature properties under pytest (profile from fuzz/conftest.py: CI uses ``ci``)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given

from fuzz.properties import PROPERTIES, Property


def _make(prop: Property) -> Any:
    @given(prop.strategy)
    def run(arg: Any) -> None:
        prop.check(arg)

    return run


@pytest.mark.parametrize("prop", PROPERTIES, ids=[p.name for p in PROPERTIES])
def test_property(prop: Property) -> None:
    _make(prop)()
