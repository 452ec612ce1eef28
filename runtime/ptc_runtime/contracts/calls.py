"""Contract checks around calls: signed `defn`s and tools with signatures.

`signed(sig, fn, ref)` wraps a compiled fn so that its arguments are validated before the
body runs and every successful result (a `(return v)` inside it included) before it is
handed back; a `fail` payload is not validated. Failures are `ContractViolation`s
(code `contract_violation`) naming the ref, the side and the contract path — never the
submitted values.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ptc_runtime.contracts.errors import ContractViolation
from ptc_runtime.contracts.types import Signature
from ptc_runtime.errors import PtcError, ReturnSignal


def check_args(sig: Signature, args: tuple[object, ...], ref: str) -> None:
    """Validate positional `args` against the parameters of `sig`."""
    names = sig.param_names
    if len(args) != len(names):
        raise PtcError(
            "arity_error",
            f"{ref}: wrong number of arguments ({len(args)}), expected {len(names)}",
        )
    errors = sig.check_input(dict(zip(names, args, strict=True)))
    if errors:
        raise ContractViolation(errors, ref=ref, side="input")


def check_result(sig: Signature, value: object, ref: str) -> object:
    errors = sig.check_output(value)
    if errors:
        raise ContractViolation(errors, ref=ref, side="output")
    return value


def signed(
    sig: Signature, fn: Callable[..., Any], ref: str, *, catch_return: bool = False
) -> Callable[..., Any]:
    """`fn` with both sides of every call checked against `sig`.

    `catch_return`: a `(return v)` inside ends the call with `v` as its (validated) result,
    as for prelude exports; elsewhere `return` still ends the program.
    """

    def checked(*args: object) -> object:
        check_args(sig, args, ref)
        if not catch_return:
            return check_result(sig, fn(*args), ref)
        try:
            value = fn(*args)
        except ReturnSignal as signal:
            return check_result(sig, signal.value, ref)
        return check_result(sig, value, ref)

    checked.__name__ = getattr(fn, "__name__", "fn")
    checked.__qualname__ = checked.__name__
    return checked
