"""Hypothesis profiles for the fuzz suite.

* ``ci`` (default): 2 000 examples per property; the whole suite fits a few minutes on 2 cores.
* ``dev``: 200 examples, for a quick local run.
Pick one with ``PTC_FUZZ_PROFILE=dev pytest fuzz``. Long campaigns: ``ptc fuzz signatures``.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

_COMMON = {
    "deadline": None,
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large],
    "print_blob": True,
}
settings.register_profile("ci", max_examples=2000, **_COMMON)  # type: ignore[arg-type]
settings.register_profile("dev", max_examples=200, **_COMMON)  # type: ignore[arg-type]
settings.load_profile(os.environ.get("PTC_FUZZ_PROFILE", "ci"))
