"""A run's completion crossing the worker boundary as PTC data, not its JSON projection.

The public isolated result is the completion's JSON projection. A host that needs the value
as the program built it (the agent loop: keywords, sets, vars and keyword or vector map keys
are visible to the model and to its workflow) asks for the *native* crossing (`native` in the
run message). The worker then encodes the completion, and a `fail` value, with `encode`;
the host rebuilds it with `decode`. The wire form is JSON, so it travels under the same
framing and byte caps as every other message, and the host validates it like all worker
traffic (anything malformed is a `ProtocolError`).

Wire form: numbers, strings, booleans and null are themselves; vectors (and lists) are
arrays; a map whose keys are all strings is an object, with a key starting with `~` escaped
by one more `~`. Everything else is an object with exactly one tag key:

| tag | value |
|---|---|
| `~k`, `~s`, `~v` | keyword, quoted symbol, var (`#'name`): the name |
| `~S` | set: its elements |
| `~m` | other map: `[key, value]` pairs (keys are decoded as map keys) |
| `~f` | a float JSON cannot spell: `"nan"`, `"inf"`, `"-inf"` |
| `~l` | anything else (a function, a regex, a date): `[printed text, workflow text]` |

Functions and other executable or host values never cross: they become `Label`s, inert
text (`#function[name]`); a date crosses as a label that prints as the date and whose
workflow text is its canonical text. Nesting deeper than `MAX_DEPTH` is not encoded
(`TooDeep`); the worker then sends the JSON projection instead.
"""

from __future__ import annotations

import math
from typing import Any, Final

from ptc_runtime.collections import EqKey, PMap, PSet, PVec, kind_name, to_key
from ptc_runtime.printer import pr_str
from ptc_runtime.temporal import Temporal
from ptc_runtime.values import Keyword, SymbolRef, VarRef, keyword

#: PTC nesting levels the native form carries (each adds up to three JSON levels; the
#: host's JSON parser must stay well inside Python's recursion limit).
MAX_DEPTH: Final = 128
#: Characters of a label at most.
LABEL_CHARS: Final = 128
_TAGS: Final = frozenset({"~k", "~s", "~v", "~S", "~m", "~f", "~l"})


class TooDeep(Exception):
    """The value nests deeper than `MAX_DEPTH`: it has no native wire form."""


class MalformedValue(ValueError):
    """A wire value that `encode` cannot have produced (untrusted worker traffic)."""


class Label:
    """An inert stand-in for a value that does not cross (a function, a regex, a date).

    `text` is how the value prints (`#function[inc]`); `data` is the text a trusted
    workflow receives instead of it (the same label, or a date's canonical text)."""

    __slots__ = ("data", "text")

    def __init__(self, text: str, data: str) -> None:
        self.text = text
        self.data = data

    def __eq__(self, other: object) -> bool:
        return type(other) is Label and other.text == self.text and other.data == self.data

    def __hash__(self) -> int:
        return hash(("Label", self.text, self.data))

    def __repr__(self) -> str:
        return self.text

    __str__ = __repr__


def label_of(x: object) -> Label:
    """The label of a leaf that is not data (functions, vars, regexes, dates, others)."""
    if isinstance(x, Temporal):
        return Label(pr_str(x, LABEL_CHARS), str(x))
    kind = kind_name(x)
    text = pr_str(x, LABEL_CHARS)
    if kind in ("function", "var", "regex"):
        return Label(text, text)
    return Label(text, f"#<{kind}>")


# ---------------------------------------------------------------- worker side


def encode(value: object) -> object:
    """`value` in the native wire form (module doc); raises `TooDeep`."""
    return _enc(value, 0)


def _enc(x: object, depth: int) -> object:
    t = type(x)
    if t is str or t is int or t is bool or x is None:
        return x
    if t is float:
        return x if math.isfinite(x) else {"~f": repr(x)}  # type: ignore[arg-type]
    if t is EqKey:
        return _enc(x.value, depth)  # type: ignore[attr-defined]
    if t is Keyword:
        return {"~k": x.name}  # type: ignore[attr-defined]
    if t is SymbolRef:
        return {"~s": x.name}  # type: ignore[attr-defined]
    if t is VarRef:
        return {"~v": x.name}  # type: ignore[attr-defined]
    if depth >= MAX_DEPTH:
        raise TooDeep
    if t is list or t is PVec or t is tuple:
        return [_enc(v, depth + 1) for v in x]  # type: ignore[attr-defined]
    if t is dict or t is PMap:
        items = x.items()  # type: ignore[attr-defined]
        if all(type(k) is str for k in x):  # type: ignore[attr-defined]
            return {("~" + k if k[:1] == "~" else k): _enc(v, depth + 1) for k, v in items}
        return {"~m": [[_enc(k, depth + 1), _enc(v, depth + 1)] for k, v in items]}
    if t is PSet:
        return {"~S": [_enc(v, depth + 1) for v in x.m.values()]}  # type: ignore[attr-defined]
    lab = label_of(x)
    return {"~l": [lab.text, lab.data]}


# ---------------------------------------------------------------- host side


def decode(wire: object) -> object:
    """The PTC value of a native wire value; raises `MalformedValue`."""
    try:
        return _dec(wire, 0)
    except RecursionError:
        raise MalformedValue("a value nested too deeply") from None


def _dec(w: object, depth: int) -> object:
    t = type(w)
    if t is str or t is int or t is bool or w is None:
        return w
    if t is float:
        if not math.isfinite(w):  # type: ignore[arg-type]
            raise MalformedValue("a non-finite number outside its tag")
        return w
    if depth > MAX_DEPTH + 1:
        raise MalformedValue("a value nested deeper than the native form allows")
    if t is list:
        return [_dec(v, depth + 1) for v in w]  # type: ignore[attr-defined]
    if t is not dict:
        raise MalformedValue("an unknown value type")
    d: dict[str, Any] = w  # type: ignore[assignment]
    if len(d) == 1:
        tag, body = next(iter(d.items()))
        if tag in _TAGS:
            return _tagged(tag, body, depth)
    out: dict[object, object] = {}
    for k, v in d.items():
        if k[:1] == "~":
            if k[:2] != "~~":
                raise MalformedValue("an unescaped map key")
            k = k[1:]
        out[k] = _dec(v, depth + 1)
    return out


def _name(body: object) -> str:
    if type(body) is not str:
        raise MalformedValue("a name that is not a string")
    return body


def _tagged(tag: str, body: object, depth: int) -> object:
    if tag == "~k":
        return keyword(_name(body))
    if tag == "~s":
        return SymbolRef(_name(body))
    if tag == "~v":
        return VarRef(_name(body))
    if tag == "~f":
        if body not in ("nan", "inf", "-inf"):
            raise MalformedValue("an unknown float")
        return float(str(body))
    if tag == "~l":
        if (
            type(body) is not list
            or len(body) != 2
            or not all(type(s) is str and len(s) <= 4 * LABEL_CHARS for s in body)
        ):
            raise MalformedValue("a malformed label")
        return Label(body[0], body[1])
    if type(body) is not list:
        raise MalformedValue("a malformed collection")
    if tag == "~S":
        return PSet.from_iterable(_dec(v, depth + 1) for v in body)
    out: dict[object, object] = {}
    for pair in body:
        if type(pair) is not list or len(pair) != 2:
            raise MalformedValue("a malformed map entry")
        out[to_key(_dec(pair[0], depth + 1))] = _dec(pair[1], depth + 1)
    return out


__all__ = ["MAX_DEPTH", "Label", "MalformedValue", "TooDeep", "decode", "encode", "label_of"]
