"""Typed host tools: a Python callable plus the contract a program must honour to call it.

    from ptc_compiler import Tool, run

    def get_user(args): return {"name": USERS[args["id"]]}
    run("(tool/get-user {:id 7})",
        tools={"get-user": Tool(get_user, signature="(id :int) -> {name :string}")})

With a signature, the arguments are validated before the function is called (a bad
argument is a `contract_violation` naming the contract path, and the function is not
called) and the result before it is handed to the program (spec §8). Arguments reach
the function as one dict with public keys (`:order-count` arrives as "order_count").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from ptc_compiler.signatures import Signature, parse
from ptc_runtime.contracts.errors import ContractViolation

Effect = Literal["read", "write", "unknown"]


@dataclass(frozen=True)
class Tool:
    """A host function exposed as `tool/<name>`, optionally with a signature."""

    fn: Callable[[dict[str, Any]], Any]
    name: str | None = None
    signature: str | Signature | None = None
    effect: Effect = "unknown"
    doc: str | None = None
    contract: Signature | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not callable(self.fn):
            raise TypeError("Tool(fn): fn must be callable")
        if self.effect not in ("read", "write", "unknown"):
            raise ValueError(
                f"Tool effect must be 'read', 'write' or 'unknown', not {self.effect!r}"
            )
        sig = self.signature
        contract = parse(sig) if isinstance(sig, str) else sig
        object.__setattr__(self, "contract", contract)

    @property
    def ref(self) -> str:
        name = self.name or getattr(self.fn, "__name__", None)
        return "tool/" + (name if isinstance(name, str) else "tool")

    def __call__(self, args: dict[str, Any]) -> Any:
        sig = self.contract
        if sig is None:
            return self.fn(args)
        errors = sig.check_input(args)
        if errors:
            raise ContractViolation(errors, ref=self.ref, side="input")
        result = self.fn(args)
        errors = sig.check_output(result)
        if errors:
            raise ContractViolation(errors, ref=self.ref, side="output")
        return result
