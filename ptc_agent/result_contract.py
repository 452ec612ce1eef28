"""Result contracts: the type a workflow's result must have, and how violations are told.

`ResultContract` pairs a contract with where the host read it; `result_contract` and
`contract_type` turn what a caller gives into a type; `check_candidate` is the loop's
feedback on a candidate, `contract_violations` the facts of a trusted
`result_contract_failed` report (schema names and paths only, never candidate values).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from ptc_agent.failures import bounded
from ptc_compiler.signatures import (
    Signature,
    SigType,
    ValidationError,
    parse,
    parse_type,
    path_text,
    validate_value,
)

MAX_VIOLATIONS: Final = 8
#: The declared contract type a `result_contract_failed` report quotes at most.
CONSTRAINT_CHARS: Final = 1024


@dataclass(frozen=True)
class ResultContract:
    """A result contract and where the host got it.

    `signature`: a bare type (`"{total :int}"`), a signature whose output is used, or a
    parsed type. `source`: where the contract was read from (a file, or a manifest and the
    place in it, e.g. `"agent.json#/signature"`); the host reports it as `contract_source`
    when correction is exhausted. It is set only by host code (the entries, the CLI), never
    by a workflow or a model program, so the report can be trusted.
    """

    signature: str | Signature | SigType
    source: str | None = None


Contract = str | Signature | SigType | ResultContract | Path


def result_contract(signature: Contract | None) -> tuple[SigType | None, str | None]:
    """(the contract's type, its source): `signature` as a bare type (`{total :int}`), a
    signature's output, a `ResultContract`, or a `pathlib.Path` of a file holding either
    (its path is then the source); None is no contract."""
    if signature is None:
        return None, None
    if isinstance(signature, ResultContract):
        return contract_type(signature.signature), signature.source
    if isinstance(signature, Path):
        return contract_type(signature.read_text(encoding="utf-8")), str(signature)
    return contract_type(signature), None


def contract_type(signature: str | Signature | SigType | None) -> SigType | None:
    """A result contract: a bare type (`{total :int}`), a signature's output, or None."""
    if signature is None:
        return None
    if isinstance(signature, Signature):
        return signature.output
    if isinstance(signature, str):
        text = signature.strip()
        if text.startswith("(") or text.startswith("->"):
            return parse(text).output
        return parse_type(text)
    return signature


def check_candidate(contract: SigType, value: Any) -> dict[str, Any]:
    """A candidate result checked against `contract`, as the loop's feedback sees it:
    `{enforced? valid?}` and, when invalid, at most `MAX_VIOLATIONS` violations (`kind`,
    `path`, and the `expected` type of a mismatch) with the total `violation_count`."""
    errors = validate_value(contract, value)
    if not errors:
        return {"enforced?": True, "valid?": True}
    violations = []
    for e in errors[:MAX_VIOLATIONS]:
        item: dict[str, Any] = {"kind": str(e.kind), "path": e.path_text or "(root)"}
        if e.kind in ("type_mismatch", "missing_key", "missing_field"):
            item["expected"] = bounded(e.expected, 200)
        violations.append(item)
    return {
        "enforced?": True,
        "valid?": False,
        "details": {"violations": violations, "violation_count": len(errors)},
    }


def contract_violations(errors: Sequence[ValidationError]) -> list[dict[str, Any]]:
    """The violations of a trusted `result_contract_failed` report, in the errors' order:
    `{kind, path}` (`path` the schema path, `"(root)"` for the value itself), and for keys
    the contract requires but the candidate lacks, one `{kind: "missing", path: <the map's
    path>, missing_required: [declared keys]}` per map. Only schema-declared names and
    paths, never candidate values or undeclared keys; at most `MAX_VIOLATIONS` entries."""
    out: list[dict[str, Any]] = []
    missing: dict[str, list[str]] = {}
    for e in errors:
        if e.kind == "missing" and e.path and isinstance(e.path[-1], str):
            parent = path_text(tuple(e.path[:-1])) or "(root)"
            if parent not in missing:
                missing[parent] = []
                out.append({"kind": "missing", "path": parent, "missing_required": missing[parent]})
            missing[parent].append(e.path[-1])
        else:
            out.append({"kind": str(e.kind), "path": e.path_text or "(root)"})
    return out[:MAX_VIOLATIONS]
