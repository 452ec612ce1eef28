"""The run contract's types (in Python): request, spec, result, failure.

Plain data shared by the runtime (`ptc_runtime.runtime`), the result builders
(`ptc_runtime.completion`) and the isolated pool (`ptc_runtime.worker.pool`); this
module imports nothing else of the runtime, so every side can depend on it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import CodeType
from typing import Any, Final, Literal, Protocol

from ptc_runtime.bindings import BindingNamespace
from ptc_runtime.context import CancelToken
from ptc_runtime.errors import KINDS, PtcError, bound_message
from ptc_runtime.images import OutputImage, PtcImage

Kind = Literal[
    "exception",
    "timeout",
    "abort",
    "worker-exit",
    "invalid-output",
    "output-limit",
    "protocol",
    "sandbox-unavailable",
]
OutcomeName = Literal["value", "return", "fail", "error"]
Mode = Literal["in-process", "isolated"]


class _Unset:
    __slots__ = ()

    def __repr__(self) -> str:
        return "UNSET"


UNSET: Final = _Unset()


class _Missing:
    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"

    def __bool__(self) -> bool:
        return False


#: `RunResult.value` when the run produced no (projected) value: absent is not null.
MISSING: Final = _Missing()


@dataclass(frozen=True, slots=True)
class OutputText:
    """One captured text fragment (newlines kept); concatenate without separators."""

    text: str
    type: Literal["text"] = "text"


def output_entries(raw: list[str | PtcImage]) -> tuple[OutputText | OutputImage, ...]:
    """A run's captured output as result entries, in emission order."""
    return tuple(OutputText(t) if type(t) is str else OutputImage(t.attachment) for t in raw)  # type: ignore[union-attr]


@dataclass(frozen=True, slots=True)
class RunFailure:
    """Why a run failed: run-contract `kind`, bounded `message`, PTC `code`, position."""

    kind: Kind
    message: str
    code: str = "error"
    line: int | None = None
    column: int | None = None
    hint: str | None = None
    details: Mapping[str, str] | None = None

    def render(self) -> str:
        """One line for a model: ``code: message (line L, column C). Hint: ...``."""
        text = f"{self.code}: {self.message}"
        if self.line is not None:
            text += f" (line {self.line}, column {self.column})"
        if self.hint:
            text += f". Hint: {self.hint}"
        return bound_message(text, 2048)

    @classmethod
    def of(cls, err: PtcError, prefix: str = "") -> RunFailure:
        kind = err.kind if err.kind in KINDS else "exception"
        details = getattr(err, "details", None)
        return cls(
            kind,  # type: ignore[arg-type]
            bound_message(prefix + err.message, 1024),
            err.code,
            err.line,
            err.column,
            err.hint,
            details,
        )


@dataclass(frozen=True, slots=True)
class RunResult:
    """The outcome of one run; an error is a field, never an exception."""

    value: Any = MISSING
    output: tuple[OutputText | OutputImage, ...] = ()
    error: RunFailure | None = None
    outcome: OutcomeName = "value"
    fail_value: Any = MISSING
    steps: int = 0
    mode: Mode = "in-process"
    #: the completion (or fail value) as a PTC value (keywords, sets ...), unprojected:
    #: in-process the value itself; isolated, its native crossing (`worker.crossing`).
    native_value: Any = field(default=MISSING, repr=False, compare=False)

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def text(self) -> str:
        return "".join(o.text for o in self.output)


@dataclass(frozen=True, slots=True)
class RunRequest:
    """Caller inputs for one program (a `PtcRunRequest`)."""

    program: str
    bindings: tuple[BindingNamespace, ...] = ()
    data: Mapping[str, Any] | None = None
    timeout_ms: float | _Unset | None = UNSET  # UNSET: default; number: capped; None: none
    cancel: CancelToken | None = None
    state_owner: object | None = None
    discard_completion: bool = False
    max_steps: int | None = None  # None: the provider's default
    #: working directory (`str` or path-like); None: `workdir.DEFAULT_CWD`. Resolved to an
    #: absolute existing directory by `resolve` and reported as `RunSpec.cwd`.
    cwd: str | os.PathLike[str] | None = None


@dataclass(frozen=True, slots=True)
class RunSpec:
    """Fully resolved inputs: produced only by `Runtime.resolve`."""

    program: str
    bindings: tuple[BindingNamespace, ...]
    data: Mapping[str, Any] | None
    timeout_ms: float | None
    cancel: CancelToken | None
    state_owner: object | None
    discard_completion: bool
    max_steps: int
    cwd: str = "/"  # absolute directory (`workdir.resolve_cwd`); programs have no filesystem
    #: keep the unprojected value (the public `ptc_compiler.run`); isolated, the worker
    #: sends it in the native wire form of `ptc_runtime.worker.crossing`
    native: bool = False


class Compiled(Protocol):
    @property
    def code(self) -> CodeType: ...

    @property
    def fn_names(self) -> Mapping[str, str]: ...


Compiler = Callable[[str, "frozenset[str] | None", "frozenset[str]"], Compiled]
