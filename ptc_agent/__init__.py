"""The agent loop: `run_outcome`, `run_value`, `run_phased`, `run_main` (docs/agents.md) and
its model providers.

The loop itself is PTC-Lisp: the shipped preludes `agent.core`, `agent.main` and their
support libraries (`preludes/*.clj`), compiled by this compiler on first use; `host` holds
the capability surface they reach through private tools, and `providers` the model router
and adapters.

A sibling of `ptc_compiler`, built on the public API of the compiler and the runtime only
(`ptc_compiler`, `ptc_compiler.prelude`, `ptc_compiler.signatures`, `ptc_runtime.host_api`;
tests/test_layering.py enforces it). docs/design/architecture.md shows the layout.
"""

from ptc_agent.failures import AgentError
from ptc_agent.loop import Outcome, run_main, run_outcome, run_phased, run_value
from ptc_agent.missions import Mission
from ptc_agent.result_contract import ResultContract

__all__ = [
    "AgentError",
    "Mission",
    "Outcome",
    "ResultContract",
    "run_main",
    "run_outcome",
    "run_phased",
    "run_value",
]
