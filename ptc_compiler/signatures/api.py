"""The validation entry points: signature (or its text) + value -> errors."""

from __future__ import annotations

import functools

from ptc_compiler.signatures.parse import parse
from ptc_runtime.contracts.errors import ContractViolation, Side, ValidationError
from ptc_runtime.contracts.types import Signature, SigType, Validator
from ptc_runtime.contracts.validate import compile_type


def _sig(sig: Signature | str) -> Signature:
    if isinstance(sig, Signature):
        return sig
    return parse(sig)


def validate_input(sig: Signature | str, args: object) -> list[ValidationError]:
    """Errors of the named-argument map `args` ([] = valid). Text is parsed (cached) first.

    For a positional call, zip the arguments with `sig.param_names` first (arity is checked
    by the caller; `?` never makes a positional argument omittable).
    """
    return _sig(sig).check_input(args)


def validate_output(sig: Signature | str, value: object) -> list[ValidationError]:
    """Errors of a result `value` against the output type ([] = valid)."""
    return _sig(sig).check_output(value)


@functools.lru_cache(maxsize=1024)
def _type_validator(t: SigType) -> Validator:
    return compile_type(t)


def validate_value(t: SigType, value: object) -> list[ValidationError]:
    """Errors of `value` against a bare type (e.g. a constant's `{:type ...}`)."""
    return _type_validator(t)(value)


def check(sig: Signature | str, value: object, *, side: Side, ref: str = "") -> None:
    """Raise `ContractViolation` (a `PtcError`) when `value` fails the `side` of `sig`."""
    s = _sig(sig)
    errors = s.check_input(value) if side == "input" else s.check_output(value)
    if errors:
        raise ContractViolation(errors, ref=ref, side=side)
