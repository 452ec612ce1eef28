"""Signature text -> `Signature` (syntax: docs/signatures.md).

The grammar lives in `ptc_compiler/grammar/signature.lark`; lark's LALR parser builds the
IR directly through an inline transformer. Two checks run outside the grammar: the nesting
bound (a linear pre-scan, so even 100 000 brackets are rejected at once and no recursion ever
runs deep) and duplicate names per scope after `-` -> `_` normalisation.
"""

from __future__ import annotations

import functools
import re
from importlib.resources import files
from typing import Final

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from ptc_runtime.contracts.errors import SignatureError
from ptc_runtime.contracts.types import (
    MAX_DEPTH,
    Field,
    ListOf,
    MapOf,
    Prim,
    PrimName,
    Signature,
    SigType,
    norm_name,
)

_BRACKETS: Final = re.compile(r"[\[\]{}]")
_TYPE_WORD: Final = re.compile(r":[^\s,()\[\]{}?]*")

#: How lark's terminal names read in an error message.
_TERMINALS: Final[dict[str, str]] = {
    "NAME": "a name",
    "PRIM": "a type",
    "ARROW": "'->'",
    "LPAR": "'('",
    "RPAR": "')'",
    "LSQB": "'['",
    "RBRACKET": "']'",
    "RBRACKET_OPT": "']?'",
    "LBRACE": "'{'",
    "RBRACE": "'}'",
    "RBRACE_OPT": "'}?'",
    "COMMA": "','",
    "$END": "end of signature",
}


Children = list[object]  # `list` is shadowed inside `_Build` (a grammar rule name)


class _Build(Transformer[Token, object]):
    """Inline LALR callbacks: tokens and children in, IR nodes out."""

    def PRIM(self, tok: Token) -> Prim:  # lark dispatches on terminal names
        text = str(tok)
        optional = text.endswith("?")
        word = text[1:-1] if optional else text[1:]
        name: PrimName = "bool" if word == "boolean" else word  # type: ignore[assignment]
        return Prim(name, optional)

    def list(self, children: Children) -> ListOf:
        item, close = children
        assert isinstance(item, Prim | ListOf | MapOf) and isinstance(close, Token)
        return ListOf(item, close.type == "RBRACKET_OPT")

    def field(self, children: Children) -> tuple[Token, SigType]:
        name, typ = children
        assert isinstance(name, Token) and isinstance(typ, Prim | ListOf | MapOf)
        return (name, typ)

    param = field

    def map(self, children: Children) -> MapOf:
        close = children[-1]
        assert isinstance(close, Token)
        pairs = [c for c in children[:-1] if c is not None]
        return MapOf(_unique(pairs, "field"), close.type == "RBRACE_OPT")

    def params(self, children: Children) -> tuple[Field, ...]:
        return _unique(children, "parameter")

    def full(self, children: Children) -> Signature:
        params, _arrow, output = children
        assert isinstance(output, Prim | ListOf | MapOf)
        return Signature(params if isinstance(params, tuple) else (), output)

    def start(self, children: Children) -> Signature:
        (only,) = children
        if isinstance(only, Signature):
            return only
        assert isinstance(only, Prim | ListOf | MapOf)
        return Signature((), only)


def _unique(pairs: list[object], what: str) -> tuple[Field, ...]:
    """Fields of one scope; a name that repeats after `-` -> `_` normalisation is an error."""
    seen: dict[str, str] = {}
    out: list[Field] = []
    for pair in pairs:
        assert isinstance(pair, tuple)
        tok, typ = pair
        key = norm_name(str(tok))
        if key in seen:
            first = seen[key]
            also = "" if first == str(tok) else f" (same as '{_show(first)}' after - -> _)"
            raise SignatureError(
                f"duplicate {what} name '{_show(str(tok))}'{also}",
                line=tok.line,
                column=tok.column,
            )
        seen[key] = str(tok)
        out.append(Field(str(tok), typ))
    return tuple(out)


def _grammar() -> str:
    return files("ptc_compiler").joinpath("grammar/signature.lark").read_text("utf-8")


@functools.cache
def _parser() -> Lark:
    """The LALR parser building the IR inline (no parse tree)."""
    return Lark(_grammar(), parser="lalr", transformer=_Build(), maybe_placeholders=True)


@functools.cache
def _tree_parser() -> Lark:
    """A tree-building twin, used only to report exactly what is acceptable at an error."""
    return Lark(_grammar(), parser="lalr", maybe_placeholders=True)


def _acceptable(text: str, pos: int, fallback: set[str] | frozenset[str]) -> tuple[str, ...]:
    """The terminals the grammar accepts after `text[:pos]` (precise, unlike LALR's error set)."""
    try:
        ip = _tree_parser().parse_interactive(text[:pos])
        ip.exhaust_lexer()
        names: set[str] | frozenset[str] = ip.accepts()  # type: ignore[no-untyped-call]
    except UnexpectedInput:
        names = fallback
    return _expected(names)


def _show(text: str, limit: int = 40) -> str:
    """A short, printable excerpt of signature text for an error message."""
    text = text if len(text) <= limit else text[: limit - 3] + "..."
    return "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in text)


def _line_col(text: str, pos: int) -> tuple[int, int]:
    line = text.count("\n", 0, pos) + 1
    return line, pos - (text.rfind("\n", 0, pos) + 1) + 1


def _check_depth(text: str) -> None:
    """Reject nesting deeper than `MAX_DEPTH` before the parser sees the text."""
    level = 0
    for m in _BRACKETS.finditer(text):
        if m.group() in "[{":
            level += 1
            if level > MAX_DEPTH:
                line, col = _line_col(text, m.start())
                raise SignatureError(
                    f"types nested deeper than {MAX_DEPTH} levels", line=line, column=col
                )
        else:
            level -= 1


def _expected(names: set[str] | frozenset[str]) -> tuple[str, ...]:
    return tuple(sorted({_TERMINALS.get(n, n) for n in names}))


def _from_lark(text: str, exc: UnexpectedInput) -> SignatureError:
    """Turn a lark failure into a message naming the position and what was expected."""
    line, col = exc.line, exc.column
    if isinstance(exc, UnexpectedCharacters):
        pos = exc.pos_in_stream or 0
        expected = _acceptable(text, pos, exc.allowed or set())
        if text[pos] == ":":
            m = _TYPE_WORD.match(text, pos)
            word = m.group() if m else ":"
            msg = f"unknown type '{_show(word)}'"
        elif text[pos] == "?" and pos > 0 and text[pos - 1] in " \t\r\n":
            msg = "'?' must directly follow its type (no whitespace before it)"
        else:
            msg = f"unexpected character '{_show(text[pos])}'"
    elif isinstance(exc, UnexpectedToken):
        tok = exc.token
        start = len(text) if tok.type == "$END" else tok.start_pos or 0
        expected = _acceptable(text, start, exc.expected)
        if tok.type == "$END":
            msg = "unexpected end of signature"
            line, col = _line_col(text, len(text))
        else:
            msg = f"unexpected '{_show(str(tok))}'"
    elif isinstance(exc, UnexpectedEOF):
        expected = _expected(set(exc.expected))
        msg = "unexpected end of signature"
        line, col = _line_col(text, len(text))
    else:  # pragma: no cover - lark has no other UnexpectedInput subclasses
        expected, msg = (), "malformed signature"
    if expected:
        msg += ", expected " + " or ".join(expected)
    return SignatureError(msg, line=line, column=col, expected=expected)


@functools.lru_cache(maxsize=1024)
def _parse_text(text: str) -> Signature:
    _check_depth(text)
    try:
        tree = _parser().parse(text)
    except UnexpectedInput as exc:
        raise _from_lark(text, exc) from None
    assert isinstance(tree, Signature)
    return tree


def parse(text: object) -> Signature:
    """Parse signature text; raises `SignatureError` naming the line, column and expectation."""
    if not isinstance(text, str):
        raise SignatureError("a signature must be a string")
    return _parse_text(text)


def parse_type(text: object) -> SigType:
    """Parse a bare type (a constant's `{:type ...}`); a parameter list is an error."""
    sig = parse(text)
    assert isinstance(text, str)
    if sig.params or text.lstrip(" \t\r\n").startswith("("):
        raise SignatureError("a type cannot have a parameter list")
    return sig.output
