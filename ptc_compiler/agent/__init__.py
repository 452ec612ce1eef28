"""Host side of the agent loop: model providers (`ptc_compiler.agent.providers`).

The loop itself is PTC-Lisp; this package holds what it reaches through host capabilities.
"""
