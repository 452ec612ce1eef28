"""The runtime's public API for hosts built on it (the agent library, `ptc_agent`).

The rest of `ptc_runtime` is the runtime's own layout and may change; a host imports what it
needs from here (and from `ptc_runtime.seam`, the run boundary). This module only gathers
names, so importing it costs nothing the compiler does not already load.

- values a program's results are made of: `Keyword`, `SymbolRef`, `PMap`, `PVec`, `PSet`,
  `EqKey` (a map key's equality wrapper) and `from_key` (the value a key stands for);
- `pr_str` (print a value as PTC-Lisp, bounded), `to_json_value` (a value as plain JSON);
- `Label`, `LABEL_CHARS`, `label_of`: the inert stand-in a value that is not data
  (a function, a regex, a date) crosses as, and its length bound;
- errors: `PtcError` (every typed runtime error), `ContractViolation` (a signature check);
- `Limits` and `DEFAULT_LIMITS`; `Mode` and `RunFailure` from the seam;
- `COMMIT_PHASE`: the `details.phase` of a failure raised while keeping a session's
  definitions (the program itself completed).
"""

from ptc_runtime.collections import EqKey, PMap, PSet, PVec, from_key
from ptc_runtime.contracts.errors import ContractViolation
from ptc_runtime.convert import to_json_value
from ptc_runtime.errors import PtcError
from ptc_runtime.limits import DEFAULT_LIMITS, Limits
from ptc_runtime.printer import pr_str
from ptc_runtime.seam import Mode, RunFailure
from ptc_runtime.state import COMMIT_PHASE
from ptc_runtime.values import Keyword, SymbolRef
from ptc_runtime.worker.crossing import LABEL_CHARS, Label, label_of

__all__ = [
    "COMMIT_PHASE",
    "DEFAULT_LIMITS",
    "LABEL_CHARS",
    "ContractViolation",
    "EqKey",
    "Keyword",
    "Label",
    "Limits",
    "Mode",
    "PMap",
    "PSet",
    "PVec",
    "PtcError",
    "RunFailure",
    "SymbolRef",
    "from_key",
    "label_of",
    "pr_str",
    "to_json_value",
]
