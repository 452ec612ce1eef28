"""Signatures: parse, validate both sides of a call, JSON Schema both ways, render, normalise.

```python
from ptc_compiler import signatures as sigs
s = sigs.parse("(query :string, limit :int?) -> {items [:string]}")   # raises SignatureError
sigs.validate_input(s, {"query": "x"})        # -> list[ValidationError] ([] = valid)
sigs.validate_output(s, {"items": []})
sigs.to_json_schema(s, side="input")          # JSON Schema 2020-12 dict
sigs.from_json_schema(schema)                 # output-only Signature (may hold closed maps)
sigs.render(s)                                # canonical text
sigs.to_public(value)                         # recursive key normalisation at the boundary
```

See docs/signatures.md for the syntax and the validation rules.
"""

from __future__ import annotations

from ptc_compiler.signatures.api import (
    check,
    validate_input,
    validate_output,
    validate_value,
)
from ptc_compiler.signatures.parse import parse, parse_type
from ptc_compiler.signatures.render import render, render_output, render_type
from ptc_compiler.signatures.schema import from_json_schema, to_json_schema
from ptc_runtime.contracts.errors import (
    MAX_ERRORS,
    ContractViolation,
    ErrorPath,
    NormalizationError,
    SchemaConversionError,
    SignatureError,
    ValidationError,
    path_text,
)
from ptc_runtime.contracts.normalize import from_public, to_public
from ptc_runtime.contracts.types import (
    MAX_DEPTH,
    Field,
    ListOf,
    MapOf,
    Prim,
    Signature,
    SigType,
    norm_name,
)
from ptc_runtime.contracts.validate import compile_input, compile_type, kind_of

__all__ = [
    "MAX_DEPTH",
    "MAX_ERRORS",
    "ContractViolation",
    "ErrorPath",
    "Field",
    "ListOf",
    "MapOf",
    "NormalizationError",
    "Prim",
    "SchemaConversionError",
    "SigType",
    "Signature",
    "SignatureError",
    "ValidationError",
    "check",
    "compile_input",
    "compile_type",
    "from_json_schema",
    "from_public",
    "kind_of",
    "norm_name",
    "parse",
    "parse_type",
    "path_text",
    "render",
    "render_output",
    "render_type",
    "to_json_schema",
    "to_public",
    "validate_input",
    "validate_output",
    "validate_value",
]
