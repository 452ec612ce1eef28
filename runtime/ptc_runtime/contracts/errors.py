"""Signature errors: parse/conversion failures and bounded structured validation errors.

A `ValidationError` never contains a submitted value: only the contract path, a kind code,
the expected type word and the *kind* of the value found. All these bounds are
applied where the error is built, so every consumer sees bounded data.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final, Literal

from ptc_runtime.errors import PtcError

MAX_ERRORS: Final = 16
MAX_PATH_SEGMENTS: Final = 32
MAX_SEGMENT_BYTES: Final = 256
MAX_MESSAGE_BYTES: Final = 512
MAX_RENDERED_BYTES: Final = 4096

ErrorKind = Literal["type", "missing", "ambiguous", "unexpected"]
Side = Literal["input", "output"]


def cut_utf8(text: str, limit: int) -> str:
    """`text` cut to at most `limit` UTF-8 bytes, at a character boundary."""
    if len(text) * 4 <= limit:
        return text
    raw = text.encode("utf-8", "surrogatepass")
    if len(raw) <= limit:
        return text
    return raw[:limit].decode("utf-8", "ignore")


class ErrorPath(tuple[str | int, ...]):
    """A contract path: string segments are declared names, ints are list indices.

    A tuple that also compares equal to a list of the same segments, so both
    ``e.path == ("items", 2)`` and ``e.path == ["items", 2]`` hold.
    """

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, list):
            return tuple.__eq__(self, tuple(other))
        return tuple.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    __hash__ = tuple.__hash__

    def __repr__(self) -> str:
        return repr(list(self))


def bounded_path(segments: Iterable[str | int]) -> ErrorPath:
    """The first 32 segments, each string segment cut to 256 UTF-8 bytes."""
    out: list[str | int] = []
    for seg in segments:
        if len(out) == MAX_PATH_SEGMENTS:
            break
        out.append(cut_utf8(seg, MAX_SEGMENT_BYTES) if isinstance(seg, str) else seg)
    return ErrorPath(out)


def path_text(path: Sequence[str | int]) -> str:
    """Neutral notation: ``["items", 2, "id"]`` -> ``items[2].id``; the root is ``""``."""
    parts: list[str] = []
    for seg in path:
        if isinstance(seg, int):
            parts.append(f"[{seg}]")
        elif parts:
            parts.append("." + seg)
        else:
            parts.append(seg)
    return "".join(parts)


@dataclass(frozen=True, slots=True)
class ValidationError:
    """One contract violation. `kind` is the stable code; `message` is rendering."""

    path: ErrorPath
    kind: ErrorKind
    expected: str
    got: str
    message: str

    @property
    def code(self) -> ErrorKind:
        """Alias of `kind` (the stable error code)."""
        return self.kind

    @property
    def path_text(self) -> str:
        """The path in neutral notation (``items[2].id``)."""
        return path_text(self.path)

    def render(self, ref: str = "", side: Side | None = None) -> str:
        """``<ref> <side> <path>: <message>``, cut to 4 096 UTF-8 bytes."""
        head = " ".join(p for p in (ref, side or "", self.path_text) if p)
        text = f"{head}: {self.message}" if head else self.message
        return cut_utf8(text, MAX_RENDERED_BYTES)

    def as_dict(self) -> dict[str, object]:
        """JSON-shaped form (path as a list)."""
        return {
            "path": list(self.path),
            "kind": self.kind,
            "expected": self.expected,
            "got": self.got,
            "message": self.message,
        }


def make_error(
    path: Iterable[str | int], kind: ErrorKind, expected: str, got: str, message: str
) -> ValidationError:
    """Build a bounded `ValidationError`."""
    return ValidationError(
        bounded_path(path), kind, expected, got, cut_utf8(message, MAX_MESSAGE_BYTES)
    )


class SignatureError(PtcError):
    """A malformed signature (parse time), with the 1-based line/column and what was expected."""

    def __init__(
        self,
        message: str,
        *,
        line: int | None = None,
        column: int | None = None,
        expected: tuple[str, ...] = (),
        code: str = "invalid_signature",
    ) -> None:
        where = f" at line {line}, column {column}" if line is not None else ""
        super().__init__(code, message + where, line=line, column=column)
        self.expected = expected


class SchemaConversionError(PtcError):
    """A JSON Schema outside the supported subset; `path` names the property path."""

    def __init__(self, message: str, path: Sequence[str | int] = ()) -> None:
        self.path = bounded_path(path)
        where = path_text(self.path)
        super().__init__("unsupported_schema", f"{where or '<root>'}: {message}")


class NormalizationError(PtcError):
    """Two keys of one map normalise to the same public name."""

    def __init__(self, message: str, path: Sequence[str | int] = ()) -> None:
        self.path = bounded_path(path)
        where = path_text(self.path)
        super().__init__("key_collision", f"{where or '<root>'}: {message}")


class ContractViolation(PtcError):
    """A failed input or output validation, ready to be raised at a call boundary.

    The message is the headline (the first error, rendered); `errors` holds all (≤ 16).
    """

    def __init__(self, errors: Sequence[ValidationError], *, ref: str = "", side: Side) -> None:
        self.errors = tuple(errors)
        self.side = side
        self.ref = ref
        head = self.errors[0].render(ref, side) if self.errors else f"{ref} {side}: invalid"
        more = len(self.errors) - 1
        if more > 0:
            head = f"{head} (and {more} more)"
        super().__init__("contract_violation", head)
        self.report = "\n".join(e.render(ref, side) for e in self.errors)
