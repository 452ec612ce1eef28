"""Run limits and the bounded JSON boundary.

`Limits` holds every budget a run is held to, with its default. `encode_json` is the
one way a value crosses a JSON boundary (completion value, tool arguments and
results, worker traffic): our own encoder over an explicit stack that counts bytes as
it writes and stops at the cap, so a heavily shared value (2^64 leaves built in 64
steps) or a very deep one costs at most `cap` work, never exponential C-level work.
`measure` is the same walk without producing text (byte ceilings of retained state).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields, replace
from typing import Any, Final

from ptc_runtime.collections import EqKey, PMap, PSet, PVec
from ptc_runtime.errors import LimitExceeded, PtcError, bound_message
from ptc_runtime.printer import format_float
from ptc_runtime.temporal import Temporal
from ptc_runtime.values import Keyword, SymbolRef

DEFAULT_TIMEOUT_MS: Final = 1_000
MAX_TIMEOUT_MS: Final = 300_000


@dataclass(frozen=True, slots=True)
class Limits:
    """Every limit a run is held to; see the limits table in docs/security.md.

    All are positive integers (`worker_cpu_seconds` may be 0, `allow_no_deadline` is a
    bool). Each one either fails the run with a typed error whose message gives its
    value, or (only `print_line_chars`, display text) cuts visibly; a new field needs a
    row in that table (`tests/test_limits_documented.py` checks it)."""

    max_steps: int = 10_000_000  # loop passes, for elements and fn calls
    default_timeout_ms: int = DEFAULT_TIMEOUT_MS  # omitted timeout
    max_timeout_ms: int = MAX_TIMEOUT_MS  # numeric timeouts are capped to this
    allow_no_deadline: bool = True  # timeout None accepted (trusted direct use)
    max_output_bytes: int = 1_000_000  # all println output of one run
    print_line_chars: int = 2_000  # one println line (longer lines are cut, marked)
    max_value_bytes: int = 1_000_000  # the JSON completion value
    max_tool_calls: int = 256  # per run, shared across pmap workers
    tool_arg_bytes: int = 262_144  # one tool call's JSON arguments
    tool_result_bytes: int = 1_000_000  # one tool call's JSON result
    memory_bytes: int = 2_000_000  # retained definitions of one state owner
    history_bytes: int = 1_000_000  # each *1/*2/*3 value and their aggregate
    parallel_timeout_ms: int = 30_000  # one pmap/pcalls, clamped by the run
    parallel_workers: int = 8  # live pmap/pcalls workers per run, across nesting
    # one pmap/pcalls runs at most this many workers per CPU at once: 2 suits CPU-bound
    # work; work that waits on host calls (model requests) may take more
    parallel_per_cpu: int = 2
    program_bytes: int = 1_000_000  # source size
    compile_timeout_ms: int = 3_000  # wall clock of one compile (on the host, both modes)
    compile_nodes: int = 1_000_000  # program nodes one compile analyzes and lowers
    # isolated mode
    worker_memory_bytes: int = 768 * 1024 * 1024  # RLIMIT_AS of a worker
    worker_cpu_seconds: int = 0  # RLIMIT_CPU per run; 0 = deadline + 2 s
    protocol_bytes: int = 4_000_000  # one worker message
    kill_grace_ms: int = 250  # worker past its deadline by this much is killed
    max_workers: int = 4  # worker processes of one runtime (idle, busy or an owner's)

    def __post_init__(self) -> None:
        for f in fields(self):
            v = getattr(self, f.name)
            if f.name == "allow_no_deadline":
                if type(v) is not bool:
                    raise ValueError("allow_no_deadline must be a bool")
                continue
            if type(v) is not int or (v <= 0 and f.name != "worker_cpu_seconds") or v < 0:
                raise ValueError(f"limit {f.name} must be a positive integer, got {v!r}")

    def with_(self, **changes: Any) -> Limits:
        return replace(self, **changes)


DEFAULT_LIMITS: Final = Limits()


# ---------------------------------------------------------------- bounded JSON

_ESC: Final = {
    '"': '\\"',
    "\\": "\\\\",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\b": "\\b",
    "\f": "\\f",
}


def _json_str(s: str) -> str:
    out = []
    for ch in s:
        e = _ESC.get(ch)
        if e is not None:
            out.append(e)
        elif ch < " ":
            out.append(f"\\u{ord(ch):04x}")
        elif "\ud800" <= ch <= "\udfff":
            raise PtcError(
                "invalid_output",
                "a string with a lone surrogate cannot be encoded as JSON",
                kind="invalid-output",
            )
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _plain(s: str) -> bool:
    if not s.isprintable() or '"' in s or "\\" in s:
        return False
    return True


def _quote(s: str) -> str:
    if s.isascii() and _plain(s):
        return '"' + s + '"'
    return _json_str(s)


def _invalid(what: str) -> PtcError:
    return PtcError("invalid_output", f"{what} cannot be encoded as JSON", kind="invalid-output")


def _kind(x: object) -> str:
    if callable(x):
        return "a function"
    if isinstance(x, PSet | set | frozenset):
        return "a set"
    return "this value"


def _key_text(k: object) -> str:
    if type(k) is EqKey:
        k = k.value
    t = type(k)
    if t is str:
        return k  # type: ignore[return-value]
    if t is Keyword:
        return k.name  # type: ignore[attr-defined, no-any-return]
    if t is int:
        return _int_text(k)  # type: ignore[arg-type]
    if t is float and math.isfinite(k):  # type: ignore[arg-type]
        return format_float(k)  # type: ignore[arg-type]
    if t is SymbolRef:
        return k.name  # type: ignore[attr-defined, no-any-return]
    if isinstance(k, Temporal):
        return str(k)  # Java canonical text
    raise _invalid("a map key that is not a string, keyword or number")


def _int_text(x: int) -> str:
    try:
        return str(x)
    except ValueError:
        raise PtcError(
            "invalid_output", "integer too large to encode", kind="invalid-output"
        ) from None


class _Budget:
    __slots__ = ("cap", "used", "what")

    def __init__(self, cap: int, what: str) -> None:
        self.cap = cap
        self.used = 0
        self.what = what

    def ahead(self, n: int) -> None:
        """Fail now if `n` more bytes will certainly be needed and do not fit."""
        if self.used + n > self.cap:
            self.add(n)

    def add(self, n: int) -> None:
        self.used += n
        if self.used > self.cap:
            raise LimitExceeded(
                "output_limit", f"{self.what} exceeded {self.cap} bytes", kind="output-limit"
            )


def _utf8_len(s: str) -> int:
    return len(s) if s.isascii() else len(s.encode("utf-8", "surrogatepass"))


def encode_json(
    value: object,
    cap: int,
    what: str = "the value",
    *,
    sets_as_arrays: bool = True,
    error: type[PtcError] | None = None,
) -> str:
    """`value` as compact JSON text of at most `cap` UTF-8 bytes.

    Keywords become their names, Java temporal values their canonical text (as keys
    too), map keys must be strings/keywords/numbers and must not
    collide after that, NaN/infinities, functions and lone surrogates are
    `invalid-output`; more than `cap` bytes is `output-limit`, found after at most
    `cap` bytes of work. Works on PTC values and plain JSON-like Python alike.
    """
    budget = _Budget(cap, what)
    parts: list[str] = []
    # stack items: ("v", value) to encode, or ("t", text) to emit
    stack: list[tuple[int, Any]] = [(0, value)]
    depth = 0
    while stack:
        tag, x = stack.pop()
        if tag == 1:
            budget.add(len(x))
            parts.append(x)
            continue
        if tag == 3:  # a container's closing bracket
            depth -= 1
            budget.add(1)
            parts.append(x)
            continue
        if tag == 2:  # key collision check set + key text
            keys, k = x
            if k in keys:
                raise _invalid(f"a map with two keys both named {bound_message(k, 60)!s}")
            keys.add(k)
            text = _quote(k) + ":"
            budget.add(_utf8_len(text))
            parts.append(text)
            continue
        t = type(x)
        if x is None:
            budget.add(4)
            parts.append("null")
        elif t is bool:
            s = "true" if x else "false"
            budget.add(len(s))
            parts.append(s)
        elif t is int:
            if x.bit_length() > 4 * cap + 64:
                budget.add(cap + 1)
            s = _int_text(x)
            budget.add(len(s))
            parts.append(s)
        elif t is float:
            if not math.isfinite(x):
                raise _invalid("NaN or an infinity")
            s = repr(x)
            budget.add(len(s))
            parts.append(s)
        elif t is str or t is Keyword or t is SymbolRef or isinstance(x, Temporal):
            s = x if t is str else str(x) if isinstance(x, Temporal) else x.name
            budget.add(len(s) + 2)  # cheap lower bound first: refuse huge strings early
            q = _quote(s)
            budget.add(_utf8_len(q) - len(s) - 2)
            parts.append(q)
        elif t is list or t is PVec or t is tuple or (t is PSet and sets_as_arrays):
            items = list(x.m.values()) if t is PSet else x
            n = len(items)
            if n == 0:
                budget.add(2)
                parts.append("[]")
                continue
            budget.ahead(2 * n + 1)  # every element needs at least one byte and a comma
            depth = _deeper(depth)
            budget.add(1)
            parts.append("[")
            stack.append((3, "]"))
            seq: list[tuple[int, Any]] = []
            for i, item in enumerate(items):
                if i:
                    seq.append((1, ","))
                seq.append((0, item))
            stack.extend(reversed(seq))
        elif t is dict or t is PMap:
            n = len(x)
            if n == 0:
                budget.add(2)
                parts.append("{}")
                continue
            budget.ahead(6 * n + 1)  # every entry needs at least `"":0,`
            depth = _deeper(depth)
            budget.add(1)
            parts.append("{")
            stack.append((3, "}"))
            seen: set[str] = set()
            seq = []
            for i, (k, v) in enumerate(x.items()):
                if i:
                    seq.append((1, ","))
                seq.append((2, (seen, _key_text(k))))
                seq.append((0, v))
            stack.extend(reversed(seq))
        else:
            raise _invalid(_kind(x))
    return "".join(parts)


#: JSON nesting deeper than this is refused (JSON parsers recurse; ours must not make
#: the reader of a completion fail).
MAX_JSON_DEPTH: Final = 512


def _deeper(depth: int) -> int:
    if depth >= MAX_JSON_DEPTH:
        raise _invalid(f"a value nested deeper than {MAX_JSON_DEPTH} levels")
    return depth + 1


def measure(value: object, cap: int) -> int:
    """Approximate retained bytes of `value`, stopping once over `cap` (returns > cap).

    Functions count a fixed size; shared structure counts every time it is reached,
    so the walk costs at most `cap` steps.
    """
    used = 0
    stack: list[object] = [value]
    while stack:
        x = stack.pop()
        t = type(x)
        if t is str:
            used += 8 + len(x)  # type: ignore[arg-type]
        elif t is int:
            used += 8 + x.bit_length() // 8  # type: ignore[attr-defined]
        elif t is list or t is PVec or t is tuple:
            used += 8 + 8 * len(x)  # type: ignore[arg-type]
            if used <= cap:
                stack.extend(x)  # type: ignore[arg-type]
        elif t is dict or t is PMap:
            used += 8 + 16 * len(x)  # type: ignore[arg-type]
            if used <= cap:
                for k, v in x.items():  # type: ignore[attr-defined]
                    stack.append(k.value if type(k) is EqKey else k)
                    stack.append(v)
        elif t is PSet:
            used += 8 + 8 * len(x)  # type: ignore[arg-type]
            if used <= cap:
                stack.extend(x)  # type: ignore[arg-type]
        elif t is EqKey:
            stack.append(x.value)  # type: ignore[attr-defined]
        else:
            used += 16
        if used > cap:
            return used
    return used
