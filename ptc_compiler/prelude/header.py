"""Component headers: the leading `(ns name "doc"? {meta}?)` of a prelude source.

Reading a header is cheap (a read, no analysis): the loader orders a bundle by the
dependencies headers declare before it compiles anything, and hosts (the agent library's
installer) check a component's namespace and dependencies with `read_header` alone.
`PreludeError`, the error of every prelude stage, lives here because this is the leaf the
other prelude modules build on. Compilation of the definitions is `component`.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass

from ptc_compiler.analyzer.resolve import JAVA_CLASSES
from ptc_compiler.forms import Const, Form, KeywordForm, ListForm, MapForm, Span, Symbol, VectorForm
from ptc_compiler.reader import read
from ptc_runtime.builtins.registry import NAMESPACE_ALIASES
from ptc_runtime.errors import PtcError

NS_NAME = re.compile(r"[a-z][a-z0-9._-]{0,127}\Z")
RESERVED = frozenset({"tool", "data", "ptc.core", "user", *NAMESPACE_ALIASES})
VISIBILITIES = ("prompt", "discoverable")


class PreludeError(PtcError):
    """A prelude that cannot be compiled, loaded or attached (names the component)."""

    def __init__(
        self,
        code: str,
        message: str,
        *,
        component: str | None = None,
        line: int | None = None,
        column: int | None = None,
        hint: str | None = None,
    ) -> None:
        where = f"{component}: " if component else ""
        super().__init__(code, where + message, line=line, column=column, hint=hint)
        self.component = component


@dataclass(frozen=True)
class Header:
    """The first, cheap-to-read part of a component source: its namespace and deps."""

    ns: str
    doc: str | None
    visibility: str
    deps: tuple[str, ...]


def source_hash(source: str) -> str:
    """The SHA-256 hex digest of a component source: what artifacts and caches key on."""
    return hashlib.sha256(source.encode("utf-8", "surrogatepass")).hexdigest()


def prelude_error(
    code: str, message: str, span: Span | None, ns: str | None, hint: str | None = None
) -> PreludeError:
    """A `PreludeError` at `span` (when it has a position) in component `ns`."""
    line = span.line if span is not None and span.line > 0 else None
    col = span.col if span is not None and span.line > 0 else None
    return PreludeError(code, message, component=ns, line=line, column=col, hint=hint)


def read_source(source: str, origin: str) -> tuple[Form, ...]:
    """The forms of a component source; a read error becomes a `PreludeError` naming `origin`."""
    try:
        return read(source)
    except PtcError as exc:
        raise PreludeError(
            exc.code,
            exc.message,
            component=origin or None,
            line=exc.line,
            column=exc.column,
            hint=exc.hint,
        ) from None


def keyword_attr(form: Form, what: str, allowed: Sequence[str], ns: str | None) -> str:
    """The value of a keyword attribute (`:visibility :prompt`), one of `allowed`."""
    value: object = None
    if type(form) is KeywordForm:
        value = form.name
    elif type(form) is Const and isinstance(form.value, str):
        value = form.value
    if value not in allowed:
        raise prelude_error(
            f"invalid_{what}",
            f":{what} must be one of " + ", ".join(":" + a for a in allowed),
            form.span,
            ns,
        )
    assert isinstance(value, str)
    return value


def attr_pairs(form: MapForm, ns: str | None) -> list[tuple[str, Form]]:
    """The (name, value form) pairs of an attribute map whose keys must be keywords."""
    out = []
    for k, v in zip(form.items[0::2], form.items[1::2], strict=False):
        if type(k) is not KeywordForm:
            raise prelude_error(
                "invalid_metadata", "attribute map keys must be keywords", k.span, ns
            )
        out.append((k.name, v))
    return out


def parse_header(forms: Sequence[Form], origin: str = "") -> Header:
    """The leading `(ns name "doc"? {meta}?)` (PRE-01); checks the name and its deps."""
    first = forms[0] if forms else None
    if not (
        type(first) is ListForm
        and first.items
        and type(first.items[0]) is Symbol
        and first.items[0].text == "ns"
    ):
        raise prelude_error(
            "missing_namespace",
            'component source must start with (ns name "doc"? {meta}?)',
            None if first is None else first.span,
            origin or None,
            hint='put (ns my.library "What it offers.") first',
        )
    items = first.items[1:]
    if not items or type(items[0]) is not Symbol or items[0].ns is not None:
        raise prelude_error(
            "invalid_namespace", "ns expects a namespace name", first.span, origin or None
        )
    ns = items[0].name
    if not NS_NAME.match(ns):
        raise prelude_error(
            "invalid_namespace",
            f"invalid namespace name {ns[:60]}: use lower case letters, digits, '.', '-', '_'",
            items[0].span,
            origin or None,
        )
    if ns in RESERVED or ns.startswith("java.") or ns in {c.lower() for c in JAVA_CLASSES}:
        raise prelude_error(
            "reserved_namespace",
            f"namespace {ns} is reserved and cannot be declared",
            items[0].span,
            ns,
        )
    rest = list(items[1:])
    doc: str | None = None
    if rest and type(rest[0]) is Const and isinstance(rest[0].value, str):
        doc = rest[0].value
        rest.pop(0)
    visibility = "prompt"
    deps: list[str] = []
    if rest and type(rest[0]) is MapForm:
        for key, value in attr_pairs(rest.pop(0), ns):  # type: ignore[arg-type]
            if key == "visibility":
                visibility = keyword_attr(value, "visibility", VISIBILITIES, ns)
            elif key == "deps":
                deps = _deps(value, ns)
            elif key == "doc" and type(value) is Const and isinstance(value.value, str):
                doc = value.value
            else:
                raise prelude_error(
                    "invalid_metadata",
                    f"unknown ns attribute :{key} (allowed: :doc :visibility :deps)",
                    value.span,
                    ns,
                )
    if rest:
        raise prelude_error(
            "invalid_namespace", 'ns expects (ns name "doc"? {meta}?)', rest[0].span, ns
        )
    if ns in deps:
        raise prelude_error("dependency_cycle", f"{ns} depends on itself", first.span, ns)
    return Header(ns, doc, visibility, tuple(sorted(set(deps))))


def _deps(form: Form, ns: str) -> list[str]:
    if type(form) is not VectorForm:
        raise prelude_error(
            "invalid_metadata", ":deps must be a vector of namespace names", form.span, ns
        )
    out = []
    for item in form.items:
        if type(item) is Symbol and item.ns is None:
            out.append(item.name)
        elif type(item) is Const and isinstance(item.value, str):
            out.append(item.value)
        else:
            raise prelude_error(
                "invalid_metadata", ":deps entries must be namespace names", item.span, ns
            )
    return out


def read_header(source: str, origin: str = "") -> Header:
    """The header of a component source: its namespace, doc, visibility and dependencies.

    Reads only what it must to check the leading `(ns name "doc"? {meta}?)` form, without
    analysing or compiling anything. `origin` (a file name, say) names the component in a
    `PreludeError` (codes `missing_namespace`, `invalid_namespace`, `reserved_namespace`,
    `invalid_metadata`, `dependency_cycle`, or the reader's `parse_error` with line:column).

        read_header('(ns orders "Order analytics." {:deps [money]})').deps  # ('money',)
    """
    return parse_header(read_source(source, origin), origin)
