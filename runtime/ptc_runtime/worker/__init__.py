"""Isolated execution: a pool of pre-started, rlimited worker processes.

`pool` is the host side (start, hand out, kill and replace workers; enforce the
deadline with SIGKILL; proxy tool calls), `main` the worker side (set rlimits, run
code objects the host compiled, report results), `protocol` the framing both speak:
one JSON object per line, every line under a byte cap. The worker never sends
anything but JSON; the host never unpickles or unmarshals what a worker sends.
"""
