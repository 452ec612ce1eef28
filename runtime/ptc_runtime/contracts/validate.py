"""Validation of runtime values against signature types.

Each type compiles once into two plain closures:

* ``ok(v) -> bool`` — the fast path, allocation-free for valid values;
* ``collect(v, path, out)`` — run only when ``ok`` failed: appends bounded `ValidationError`s
  depth-first in declaration order and stops (via `_Full`) once 16 are recorded.

The closures need only the standard library and `ptc_runtime` at call time, so the runtime can
be handed them without importing the compiler. Validation never converts or mutates a value.
"""

from __future__ import annotations

import datetime as _dt
import math
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence, Set
from typing import Final, cast

from ptc_runtime.contracts.errors import MAX_ERRORS, ErrorKind, ValidationError, make_error
from ptc_runtime.contracts.types import (
    Field,
    ListOf,
    Prim,
    SigType,
    Validator,
    type_word,
)
from ptc_runtime.values import Keyword, keyword

Ok = Callable[[object], bool]
Path = list[str | int]
Collect = Callable[[object, Path, list[ValidationError]], None]

_VECTOR_TYPES: tuple[type, ...] = (list, tuple)
_SET_TYPES: tuple[type, ...] = (Set,)
try:  # the persistent collections may not exist yet in every build of the runtime
    from ptc_runtime import collections as _rc

    _VECTOR_TYPES += tuple(t for t in (getattr(_rc, "PVec", None),) if isinstance(t, type))
    _SET_TYPES += tuple(t for t in (getattr(_rc, "PSet", None),) if isinstance(t, type))
except ImportError:  # pragma: no cover - depends on the runtime build
    pass

#: Up to this many `-`/`_` in a name, a field is found by probing every alias spelling;
#: beyond it (2^n spellings), by scanning the map's keys once.
_MAX_PROBE_SEPARATORS: Final = 2


class _Full(Exception):  # a control signal, not an error
    """Raised once `MAX_ERRORS` errors are recorded: the rest is never computed."""


# ---------------------------------------------------------------- value kinds


def is_map(v: object) -> bool:
    """Any `Mapping` is a PTC map."""
    return type(v) is dict or isinstance(v, Mapping)


def is_vector(v: object) -> bool:
    """A list/tuple/runtime vector or other sequence; never a string, bytes, map or set."""
    if type(v) is list or isinstance(v, _VECTOR_TYPES):
        return True
    return (
        isinstance(v, Sequence)
        and not isinstance(v, str | bytes | bytearray)
        and not isinstance(v, Mapping)
    )


def is_set(v: object) -> bool:
    return isinstance(v, _SET_TYPES)


def is_aware_datetime(v: object) -> bool:
    """A `datetime` whose tzinfo yields an offset (a `date` or naive datetime is not)."""
    if not isinstance(v, _dt.datetime):
        return False
    try:
        return v.utcoffset() is not None
    except Exception:  # a broken tzinfo is simply not an offset
        return False


def kind_of(v: object) -> str:
    """The kind word for `got`: never the value itself."""
    if v is None:
        return "nil"
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int"
    if isinstance(v, float):
        return "float"
    if isinstance(v, str):
        return "string"
    if isinstance(v, Keyword):
        return "keyword"
    if isinstance(v, _dt.datetime):
        return "datetime"
    if isinstance(v, _dt.date):
        return "date"
    if is_map(v):
        return "map"
    if is_set(v):
        return "set"
    if is_vector(v):
        return "list"
    if callable(v):
        return "function"
    return "unknown"


def key_text(k: object) -> str | None:
    """The text a map key is matched by: a keyword's name, a string itself, else None."""
    if isinstance(k, str):
        return k
    if isinstance(k, Keyword):
        return k.name
    return None


def printed_key(k: object) -> str:
    """A closed-map extra key as a path segment: its text, or a neutral printed form."""
    text = key_text(k)
    if text is not None:
        return text
    if k is None:
        return "nil"
    if isinstance(k, bool):
        return "true" if k else "false"
    if isinstance(k, int | float):
        return repr(k)
    return "<" + kind_of(k) + ">"


# ---------------------------------------------------------------- primitives


def _is_string(v: object) -> bool:
    return type(v) is str or isinstance(v, str)


def _is_int(v: object) -> bool:
    return type(v) is int or (isinstance(v, int) and not isinstance(v, bool))


def _is_float(v: object) -> bool:
    t = type(v)
    if t is float:
        return math.isfinite(v)  # type: ignore[arg-type]
    if t is int:
        return True
    if isinstance(v, bool):
        return False
    if isinstance(v, float):
        return math.isfinite(v)
    return isinstance(v, int)


def _is_bool(v: object) -> bool:
    return v is True or v is False


def _is_keyword(v: object) -> bool:
    return isinstance(v, Keyword)


def _is_any(v: object) -> bool:
    return True


_PRIM_OK: Final[dict[str, Ok]] = {
    "string": _is_string,
    "int": _is_int,
    "float": _is_float,
    "bool": _is_bool,
    "keyword": _is_keyword,
    "datetime": is_aware_datetime,
    "map": is_map,
    "any": _is_any,
}


def _note(v: object, expected: str) -> str:
    """Extra wording for a value of the right kind that still fails (never the value)."""
    if expected == "float" and isinstance(v, float):
        return " (not finite)"
    if expected == "datetime" and isinstance(v, _dt.datetime):
        return " without offset"
    return ""


def _record(
    out: list[ValidationError],
    path: Path,
    kind: ErrorKind,
    expected: str,
    got: str,
    message: str,
) -> None:
    out.append(make_error(path, kind, expected, got, message))
    if len(out) >= MAX_ERRORS:
        raise _Full


def _type_error(
    out: list[ValidationError], path: Path, v: object, expected: str, optional: bool
) -> None:
    got = kind_of(v)
    want = f"{expected} or nil" if optional else expected
    _record(out, path, "type", expected, got, f"expected {want}, got {got}{_note(v, expected)}")


# ---------------------------------------------------------------- compilation


def _compile(t: SigType) -> tuple[Ok, Collect]:
    if isinstance(t, Prim):
        return _compile_prim(t)
    if isinstance(t, ListOf):
        return _compile_list(t)
    return _compile_map(t.fields, optional=t.optional, closed=t.closed, what="field")


def _compile_prim(t: Prim) -> tuple[Ok, Collect]:
    base = _PRIM_OK[t.name]
    name, optional = t.name, t.optional
    ok: Ok = base
    if optional and name != "any":

        def ok(v: object) -> bool:
            return v is None or base(v)

    def collect(v: object, path: Path, out: list[ValidationError]) -> None:
        if not ok(v):
            _type_error(out, path, v, name, optional)

    return ok, collect


def _compile_list(t: ListOf) -> tuple[Ok, Collect]:
    item_ok, item_collect = _compile(t.item)
    optional = t.optional
    any_item = isinstance(t.item, Prim) and t.item.name == "any"

    def ok(v: object) -> bool:
        if v is None:
            return optional
        if type(v) is not list and not is_vector(v):
            return False
        if any_item:
            return True
        for x in cast("Iterable[object]", v):
            if not item_ok(x):
                return False
        return True

    def collect(v: object, path: Path, out: list[ValidationError]) -> None:
        if v is None and optional:
            return
        if type(v) is not list and not is_vector(v):
            _type_error(out, path, v, "list", optional)
            return
        for i, x in enumerate(cast("Iterable[object]", v)):
            if not item_ok(x):
                path.append(i)
                item_collect(x, path, out)
                path.pop()

    return ok, collect


def _spellings(name: str) -> tuple[Hashable, ...] | None:
    """Every key (string and keyword) whose text normalises like `name`, or None if too many."""
    pub = name.replace("-", "_")
    parts = pub.split("_")
    if len(parts) - 1 > _MAX_PROBE_SEPARATORS:
        return None
    texts = [parts[0]]
    for part in parts[1:]:
        texts = [t + sep + part for t in texts for sep in ("_", "-")]
    return (*texts, *(keyword(t) for t in texts))


class _Slot:
    """A compiled field: how to find its keys, and its value's validators."""

    __slots__ = ("collect", "name", "ok", "optional", "probe", "public", "word")

    def __init__(self, f: Field) -> None:
        self.name = f.name
        self.public = f.name.replace("-", "_")
        self.probe = _spellings(f.name)
        self.ok, self.collect = _compile(f.type)
        self.optional = f.type.optional
        self.word = type_word(f.type)


def _scan_index(m: Mapping[object, object]) -> dict[str, list[object]]:
    """Public text -> keys of `m` having it (used for names with many separators)."""
    index: dict[str, list[object]] = {}
    for k in m:
        text = key_text(k)
        if text is not None:
            index.setdefault(text.replace("-", "_"), []).append(k)
    return index


def _find(
    m: Mapping[object, object], slot: _Slot, index: dict[str, list[object]] | None
) -> list[object]:
    """The keys of `m` matching the field of `slot`."""
    if slot.probe is not None:
        return [k for k in slot.probe if k in m]
    assert index is not None
    return index.get(slot.public, [])


def _compile_map(
    fields: tuple[Field, ...], *, optional: bool, closed: bool, what: str
) -> tuple[Ok, Collect]:
    slots = tuple(_Slot(f) for f in fields)
    needs_index = any(s.probe is None for s in slots)
    missing_msg = f"missing required {what}"

    def ok(v: object) -> bool:
        if v is None:
            return optional
        if type(v) is not dict and not isinstance(v, Mapping):
            return False
        index = _scan_index(v) if needs_index else None
        consumed = 0
        for s in slots:
            probe = s.probe
            if probe is not None:
                hit: object = None
                n = 0
                for k in probe:
                    if k in v:
                        n += 1
                        hit = k
            else:
                keys = index.get(s.public, []) if index is not None else []
                n = len(keys)
                hit = keys[0] if keys else None
            if n == 1:
                if not s.ok(v[hit]):
                    return False
            elif n > 1 or not s.optional:
                return False
            consumed += n
        return not closed or consumed == len(v)

    def collect(v: object, path: Path, out: list[ValidationError]) -> None:
        if v is None and optional:
            return
        if not is_map(v):
            _type_error(out, path, v, "map", optional)
            return
        assert isinstance(v, Mapping)
        index = _scan_index(v) if needs_index else None
        consumed: set[object] = set()
        for s in slots:
            keys = _find(v, s, index)
            consumed.update(keys)
            path.append(s.name)
            if len(keys) > 1:
                msg = "several keys match this " + what
                _record(out, path, "ambiguous", s.word, "ambiguous", msg)
            elif keys:
                value = v[keys[0]]
                if not s.ok(value):
                    s.collect(value, path, out)
            elif not s.optional:
                _record(out, path, "missing", s.word, "missing", missing_msg)
            path.pop()
        if closed:
            extras = sorted(
                ((printed_key(k), kind_of(v[k])) for k in v if k not in consumed),
                key=lambda pair: pair[0],
            )
            for text, got in extras:
                path.append(text)
                _record(out, path, "unexpected", "nothing", got, "unexpected field")
                path.pop()

    return ok, collect


def _entry(ok: Ok, collect: Collect) -> Validator:
    def check(v: object) -> list[ValidationError]:
        if ok(v):
            return []
        out: list[ValidationError] = []
        try:
            collect(v, [], out)
        except _Full:
            pass
        return out

    return check


def compile_type(t: SigType) -> Validator:
    """A validator for values of type `t` (the output side): value -> errors ([] = valid)."""
    return _entry(*_compile(t))


def compile_input(params: tuple[Field, ...]) -> Validator:
    """A validator for the map of named arguments: an open map whose fields are the params."""
    return _entry(*_compile_map(params, optional=False, closed=False, what="argument"))
