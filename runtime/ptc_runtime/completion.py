"""From an execution's outcome to a `RunResult`: projection, commit or rollback.

Shared by the in-process runtime and the worker process (`ptc_runtime.worker.main`).
"""

from __future__ import annotations

from ptc_runtime.context import RunContext
from ptc_runtime.errors import PtcError
from ptc_runtime.executor import Outcome
from ptc_runtime.host_value import COMPLETION, to_host
from ptc_runtime.limits import Limits
from ptc_runtime.printer import pr_str
from ptc_runtime.run_contract import (
    MISSING,
    OutcomeName,
    RunFailure,
    RunResult,
    RunSpec,
    output_entries,
)
from ptc_runtime.state import Environment
from ptc_runtime.values import VarRef


def finish(
    ctx: RunContext | None,
    value: object,
    err: PtcError | None,
    outcome: OutcomeName,
    spec: RunSpec,
    prefix: str = "",
    *,
    steps: int | None = None,
) -> RunResult:
    """A result from the pieces (output from `ctx`)."""
    output = output_entries(ctx.output) if ctx is not None else ()
    used = ctx.steps_used if ctx is not None and steps is None else (steps or 0)
    if err is not None:
        return RunResult(
            output=output, error=RunFailure.of(err, prefix), outcome=outcome, steps=used
        )
    return RunResult(value=value, output=output, outcome=outcome, steps=used)


def project(value: object, limits: Limits, what: str = "the result value") -> object:
    """The completion as its lossless-JSON projection (`ptc_runtime.host_value`): kind
    `invalid-output` naming the path for a part with no JSON form, `output-limit` past
    `max_value_bytes`."""
    return to_host(value, limits.max_value_bytes, what, COMPLETION)


def settle(
    ctx: RunContext, out: Outcome, spec: RunSpec, env: Environment | None, limits: Limits
) -> RunResult:
    """Project the completion, commit or roll back the owner's environment, build the result."""
    steps = ctx.steps_used
    output = output_entries(ctx.output)
    if out.status == "error":
        if env is not None:
            env.rollback()
        assert out.error is not None
        return RunResult(
            output=output, error=RunFailure.of(out.error), outcome="error", steps=steps
        )
    if out.status == "fail":
        if env is not None:
            env.rollback()
        try:
            fv: object = project(out.value, limits, "the fail value")
        except PtcError:
            fv = _preview(out.value)
        failure = RunFailure("exception", "fail: " + _preview(out.value), "fail")
        return RunResult(
            output=output,
            error=failure,
            outcome="fail",
            fail_value=fv,
            steps=steps,
            native_value=out.value if spec.native else MISSING,
        )
    value: object = MISSING
    try:
        # A program that ends with a definition (`(def x 1)`, `(defn f ...)`) completes
        # with no value, as a declaration does in a REPL: the var display `#'x` has no
        # JSON form and is not data.
        if not spec.discard_completion and type(out.value) is not VarRef:
            value = project(out.value, limits)
        if env is not None:
            env.commit(
                out.value,
                advance_history=out.status == "value",
                memory_bytes=limits.memory_bytes,
                history_bytes=limits.history_bytes,
            )
    except PtcError as err:
        if env is not None:
            env.rollback()
        return RunResult(output=output, error=RunFailure.of(err), outcome="error", steps=steps)
    return RunResult(
        value=value,
        output=output,
        outcome=out.status,
        steps=steps,
        native_value=out.value if spec.native else MISSING,
    )


def _preview(value: object) -> str:
    try:
        return pr_str(value, limit=400)[:400]
    except PtcError:
        return "<unprintable value>"
