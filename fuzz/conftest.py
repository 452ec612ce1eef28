"""Hypothesis profiles for the fuzz suite.

* ``ci`` (default): 1 000 examples per property, so that ``make test`` stays within 10 minutes
  on 2 cores (the properties are its longest tests).
* ``thorough``: 5 000 examples, for a deeper local run.
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
settings.register_profile("ci", max_examples=1000, **_COMMON)  # type: ignore[arg-type]
settings.register_profile("thorough", max_examples=5000, **_COMMON)  # type: ignore[arg-type]
settings.register_profile("dev", max_examples=200, **_COMMON)  # type: ignore[arg-type]
settings.load_profile(os.environ.get("PTC_FUZZ_PROFILE", "ci"))
