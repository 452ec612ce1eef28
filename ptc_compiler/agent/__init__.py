"""The agent loop: `run_outcome` / `run_value` (docs/agents.md) and its model providers.

The loop itself is the PTC-Lisp prelude `agent.core` (`preludes/agent_core.clj`), compiled by
this compiler on first use; `host` holds the capability surface it reaches through private
tools, and `providers` the model router and adapters.
"""

from ptc_compiler.agent.host import AgentError, Mission
from ptc_compiler.agent.loop import Outcome, run_outcome, run_value

__all__ = ["AgentError", "Mission", "Outcome", "run_outcome", "run_value"]
