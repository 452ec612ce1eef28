"""Isolated execution: a bounded pool of rlimited worker processes.

Host side: `pool` (admission: at most `Limits.max_workers` processes, queued runs,
starting, recycling and killing workers), `session` (one run's conversation with the
worker it was lent: deadline and cancel enforced with SIGKILL, tool calls proxied,
output and result validated, with the contract types of `run_contract` and the checks of
`tool_boundary`, never the seam facade) and `process` (one worker process and its pipes).
Worker side: `main` (set rlimits, run code objects the host compiled,
report results). Both speak `protocol`: one JSON object per line, every line under a
byte cap. The worker never sends anything but JSON; the host never unpickles or
unmarshals what a worker sends.
"""
