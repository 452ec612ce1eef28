"""The run contract in Python, under one name (a facade).

The pieces live in modules named for their responsibility:

- `ptc_runtime.run_contract`: the contract's types (`RunRequest`, `RunSpec`,
  `RunResult`, `RunFailure`, `OutputText`, `MISSING`, `UNSET`, kinds and modes);
- `ptc_runtime.tool_boundary`: how a program's call reaches a host tool, shared by
  the in-process invoker and the isolated pool;
- `ptc_runtime.completion`: from an execution's outcome to a `RunResult`;
- `ptc_runtime.runtime`: the run provider, `Runtime` (resolve, run, arun, owners).

Importing names from here keeps working; new code may import the modules directly.
"""

from __future__ import annotations

from ptc_runtime.bindings import BindingNamespace
from ptc_runtime.completion import finish, project, settle
from ptc_runtime.executor import execute
from ptc_runtime.run_contract import (
    MISSING,
    UNSET,
    Compiled,
    Compiler,
    Kind,
    Mode,
    OutcomeName,
    OutputText,
    RunFailure,
    RunRequest,
    RunResult,
    RunSpec,
)
from ptc_runtime.runtime import Runtime
from ptc_runtime.tool_boundary import (
    binding_member,
    check_tool_args,
    check_tool_result,
    count_tool_call,
    make_invoker,
    plain_json,
    tool_names,
)

__all__ = [
    "MISSING",
    "UNSET",
    "BindingNamespace",
    "Compiled",
    "Compiler",
    "Kind",
    "Mode",
    "OutcomeName",
    "OutputText",
    "RunFailure",
    "RunRequest",
    "RunResult",
    "RunSpec",
    "Runtime",
    "binding_member",
    "check_tool_args",
    "check_tool_result",
    "count_tool_call",
    "execute",
    "finish",
    "make_invoker",
    "plain_json",
    "project",
    "settle",
    "tool_names",
]
