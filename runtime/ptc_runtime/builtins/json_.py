"""JSON builtins: `json/parse-string json/parse-lines json/generate-string`.

Parsing never raises (DIV-23): bad text, `NaN`, too deep or too large input gives nil.
Objects become maps with string keys in document order. Generating
refuses what JSON cannot say (keyword values, sets, functions, non-finite floats,
non-scalar keys, keys that collide once encoded) with a `type_error` naming the path.
"""

from __future__ import annotations

import json
from typing import Final

from ptc_runtime.builtins.registry import BuiltinSpec, declare
from ptc_runtime.collections import EqKey, PSet, is_map, is_vector, kind_name
from ptc_runtime.errors import PtcError
from ptc_runtime.printer import check_deadline, format_float, format_int, pr_str
from ptc_runtime.values import Keyword

DECLS: list[BuiltinSpec] = []

MAX_DEPTH: Final = 512
MAX_OUTPUT_CHARS: Final = 10_000_000

_DECODER: Final = json.JSONDecoder(parse_constant=lambda _c: _reject())


class _Invalid(Exception):
    pass


def _reject() -> object:
    raise _Invalid


def parse_json(text: str) -> object:
    """The value of JSON `text`, or None when it is not valid JSON."""
    try:
        return _DECODER.decode(text)
    except (ValueError, RecursionError, _Invalid):
        return None


@declare(
    DECLS,
    "json/parse-string",
    arities=(1,),
    doc="Decode JSON text (string keys); nil for invalid text or a non-string.",
    groups=("json",),
    bare=False,
)
def parse_string(s: object) -> object:
    return parse_json(s) if type(s) is str else None


@declare(
    DECLS,
    "json/parse-lines",
    arities=(1,),
    doc="Decode each non-blank line of JSON Lines text; bad lines give nil.",
    groups=("json",),
    bare=False,
)
def parse_lines(s: object) -> object:
    if type(s) is not str:
        return None
    return [parse_json(line) for line in s.splitlines() if line.strip()]


def _where(path: list[object]) -> str:
    return "at " + pr_str(list(path), 200)


def _refuse(path: list[object], what: str, hint: str) -> PtcError:
    return PtcError(
        "type_error", f"json/generate-string: cannot encode {what} {_where(path)}", hint=hint
    )


def _key_text(k: object, path: list[object]) -> str:
    if type(k) is str:
        return k
    if type(k) is Keyword:
        return k.name
    if type(k) is int:
        return format_int(k)
    raise _refuse(
        path, f"a {kind_name(k)} map key", "JSON object keys must be strings, keywords or integers"
    )


class _Encoder:
    def __init__(self) -> None:
        self.out: list[str] = []
        self.size = 0

    def emit(self, text: str) -> None:
        self.size += len(text)
        if self.size > MAX_OUTPUT_CHARS:
            raise PtcError(
                "memory_exceeded",
                f"json/generate-string: result exceeds {MAX_OUTPUT_CHARS} characters",
            )
        self.out.append(text)
        if len(self.out) & 0xFFFF == 0:
            check_deadline()  # long encodings honour the run's deadline and cancel

    def value(self, x: object, path: list[object]) -> None:
        t = type(x)
        if x is None:
            self.emit("null")
        elif t is bool:
            self.emit("true" if x else "false")
        elif t is int:
            self.emit(format_int(x))  # type: ignore[arg-type]
        elif t is float:
            if x != x or x in (float("inf"), float("-inf")):
                raise _refuse(path, "a non-finite number", "JSON has no NaN or Infinity")
            self.emit(format_float(x))  # type: ignore[arg-type]
        elif t is str:
            self.emit(json.dumps(x, ensure_ascii=False))
        elif t is Keyword:
            raise _refuse(
                path,
                "a keyword value",
                "JSON has no keyword type — convert it first with (name x) or (str x).",
            )
        elif t is PSet:
            raise _refuse(path, "a set", "Convert it first with (vec x).")
        elif len(path) >= MAX_DEPTH:
            raise PtcError(
                "runtime_error", f"json/generate-string: nesting deeper than {MAX_DEPTH}"
            )
        elif is_vector(x):
            self.vector(x, path)  # type: ignore[arg-type]
        elif is_map(x):
            self.map(x, path)  # type: ignore[arg-type]
        else:
            raise _refuse(
                path,
                f"a {kind_name(x)}",
                "only maps, vectors, strings, numbers, booleans and nil are JSON",
            )

    def vector(self, xs: list[object], path: list[object]) -> None:
        self.emit("[")
        for i, x in enumerate(xs):
            if i:
                self.emit(",")
            path.append(i)
            self.value(x, path)
            path.pop()
        self.emit("]")

    def map(self, m: dict[object, object], path: list[object]) -> None:
        self.emit("{")
        seen: set[str] = set()
        for i, (k, v) in enumerate(m.items()):
            key = k.value if type(k) is EqKey else k
            text = _key_text(key, path)
            if text in seen:
                raise _refuse(
                    path,
                    f"two keys that both encode as {json.dumps(text)[:60]}",
                    "keep one spelling of each key",
                )
            seen.add(text)
            if i:
                self.emit(",")
            self.emit(json.dumps(text, ensure_ascii=False) + ":")
            path.append(key)
            self.value(v, path)
            path.pop()
        self.emit("}")


@declare(
    DECLS,
    "json/generate-string",
    arities=(1,),
    doc="Encode a value as JSON text (keys in insertion order).",
    groups=("json",),
    bare=False,
)
def generate_string(x: object) -> str:
    enc = _Encoder()
    enc.value(x, [])
    return "".join(enc.out)
