"""Reader: source text -> a tuple of Forms, or a `ReadError`.

Two paths, one language:

* The lark path (`read_with_lark`) is the definition. The grammar lives in
  `ptc_compiler/grammar/ptc_lisp.lark`; this module enforces what the grammar cannot say and words
  every diagnostic. It is the only place that explains what is wrong with a program.
* The fast path (`fast_reader.read_fast`) exists for speed: lark's lexer and parser
  take about 1.2 ms for a 30-line program, a third of the whole compile budget, while a
  hand-written tokenizer (one regular expression) with an explicit stack takes about a
  fifth of that. It accepts exactly what the grammar accepts, with the same forms and
  spans, and on anything else — any error, any limit — returns `None` without a word.

`read` tries the fast path and falls back to the lark path, so well-formed programs are
read fast and malformed ones get lark's diagnostics. Both paths share the size check
before and the name-count check after. tests/test_reader.py runs against both readers
and tests/test_fast_reader.py compares them on generated programs and junk.

The lark path: the LALR parser is built once per process (on first use, so a process
that reads only well-formed programs never builds it); its transformer turns each
terminal into a Form when the parser shifts it and each collection rule into a Form
when the parser reduces it, so no tree is ever built or walked recursively. While
feeding tokens to the parser, `_Reading` tracks the open brackets itself: that gives
the nesting limit (checked before the parser sees the 65th opener), the no-nested-`#()`
rule, and error messages that point at the opening bracket of an unclosed form or count
surplus closers.

Invariants: every Form carries a Span (1-based line and column in code points, end
exclusive); nothing is recursive, so any input — 100,000 nested brackets, a 10,000-digit
number, binary junk — ends in a Form tuple or a `ReadError`, and no lark exception
escapes. Messages quote at most a short piece of the source and no Python repr.
"""

from __future__ import annotations

import functools
import importlib.resources
import math
import re
import unicodedata
from collections.abc import Callable, Sequence
from types import SimpleNamespace
from typing import Any, Final, TypeAlias

from lark import Lark
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedToken

from ptc_compiler.fast_reader import char_value, decode_string, read_fast
from ptc_compiler.forms import (
    Const,
    Form,
    KeywordForm,
    ListForm,
    MapForm,
    Quote,
    RegexForm,
    SetForm,
    ShortFn,
    Span,
    Symbol,
    VarQuote,
    VectorForm,
)
from ptc_runtime.errors import ReadError

MAX_SOURCE_BYTES: Final = 1_000_000
MAX_NAMES: Final = 10_000
MAX_DEPTH: Final = 64
MAX_INT_DIGITS: Final = 100

_GRAMMAR: Final = "grammar/ptc_lisp.lark"

#: A lark `Token`. Lark types its positions `int | None`; its lexer always sets them.
_Tok: TypeAlias = Any
_PARSE_ERROR: Final = "parse_error"

#: Opening-bracket terminal -> (closing terminal, name of the form for messages).
_OPENERS: Final = {
    "LPAR": ("RPAR", "list"),
    "LBRACK": ("RBRACK", "vector"),
    "LBRACE": ("RBRACE", "map"),
    "HASH_LBRACE": ("RBRACE", "set"),
    "HASH_LPAR": ("RPAR", "anonymous function #()"),
}
_CLOSERS: Final = frozenset({"RPAR", "RBRACK", "RBRACE"})
_CLOSER_TEXT: Final = {"RPAR": ")", "RBRACK": "]", "RBRACE": "}"}
_CLOSER_GROUP: Final = {"RPAR": "parentheses", "RBRACK": "brackets", "RBRACE": "braces"}
_FORM_STARTS: Final = frozenset(
    {
        *_OPENERS,
        "NUMBER", "SPECIAL_FLOAT", "STRING", "REGEX", "CHAR", "KEYWORD", "SYMBOL",
        "QUOTED_SYMBOL", "VAR_QUOTE", "BAD_TOKEN", "DISCARD",
    }
)  # fmt: skip

_WORDS: Final[dict[str, bool | None]] = {"nil": None, "true": True, "false": False}
_SPECIAL_FLOATS: Final = {"##Inf": math.inf, "##-Inf": -math.inf, "##NaN": math.nan}
_ESCAPES: Final = {"\\": "\\", '"': '"', "n": "\n", "t": "\t", "r": "\r"}
_ESCAPE_PAIR: Final = re.compile(r"\\(.)", re.DOTALL)
_BACKSLASH_NEWLINE: Final = re.compile(r'"[^"\\]*(?:\\[^\r\n][^"\\]*)*\\[\r\n]')
_TOKEN_TAIL: Final = re.compile(r'[^\s\x00-\x1f\x7f,;"@^`~()\[\]{}]*')

#: Each surplus closer costs an exception inside lark; past this many, stop reading.
_MAX_SURPLUS: Final = 1000

#: A source of at most this many characters cannot hold more than MAX_NAMES distinct
#: names: any two names need a character between them.
_NAME_CHECK_FLOOR: Final = 2 * MAX_NAMES


def read(source: str) -> tuple[Form, ...]:
    """Read all top-level forms of `source`; raises `ReadError` on any malformed input.

    The fast path reads well-formed programs; anything else goes to the lark reader,
    which produces the error (or, for what the fast path does not handle, the forms).
    """
    _check_size(source)
    forms = read_fast(source, MAX_DEPTH, MAX_INT_DIGITS)
    if forms is None:
        forms = _Reading(source).run()
    if len(source) > _NAME_CHECK_FLOOR:
        _check_name_count(forms)
    return forms


def top_level_heads(source: str) -> tuple[str | None, ...]:
    """The operator of each top-level form of `source`, without analysing anything.

    For a call whose head is an unqualified symbol, `(return x)`, that symbol's name
    (`"return"`); `None` for any other form (a literal, a vector, a qualified head). Hosts use
    it to check the shape of a program (exactly one `(return ...)`, say) before compiling.
    Raises `ReadError` (a `PtcError`, code `parse_error` with line:column) as `read` does.

        top_level_heads("(def x 1) (return x) 3")  # ('def', 'return', None)
    """
    heads: list[str | None] = []
    for form in read(source):
        head = form.items[0] if isinstance(form, ListForm) and form.items else None
        heads.append(head.name if isinstance(head, Symbol) and head.ns is None else None)
    return tuple(heads)


def read_with_lark(source: str) -> tuple[Form, ...]:
    """`read` without the fast path: the reference reader, defined by the grammar."""
    _check_size(source)
    forms = _Reading(source).run()
    if len(source) > _NAME_CHECK_FLOOR:
        _check_name_count(forms)
    return forms


def _check_size(source: str) -> None:
    if len(source) * 4 > MAX_SOURCE_BYTES:
        size = len(source.encode("utf-8", "surrogatepass"))
        if size > MAX_SOURCE_BYTES:
            raise ReadError(
                "program_too_large",
                f"program is {size} bytes, more than the limit of {MAX_SOURCE_BYTES} bytes",
            )


# ---------------------------------------------------------------- the parse loop


class _Reading:
    """One call of `read`: the bracket stack and surplus closers live here, not globally."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.openers: list[_Tok] = []
        self.surplus: list[_Tok] = []

    def run(self) -> tuple[Form, ...]:
        try:
            return self._parse()
        except UnexpectedCharacters as err:
            raise self._bad_character(err.pos_in_stream or 0, err.line, err.column) from None
        except UnexpectedToken as err:
            raise self._unexpected(err.token, err.expected) from None
        except LarkError:
            raise _error("syntax error: could not parse the program") from None

    def _parse(self) -> tuple[Form, ...]:
        interactive: Any = _parser().parse_interactive(self.source)
        state = interactive.parser_state
        lexer = interactive.lexer_thread
        feed = state.feed_token
        openers = self.openers
        short_fns = 0
        while True:
            try:
                for tok in lexer.lex(state):
                    kind = tok.type
                    if kind in _OPENERS:
                        if len(openers) >= MAX_DEPTH:
                            raise _error(f"nesting deeper than {MAX_DEPTH} levels", tok)
                        if kind == "HASH_LPAR":
                            if short_fns:
                                raise _error("Nested #() anonymous functions are not allowed", tok)
                            short_fns += 1
                        openers.append(tok)
                    elif kind in _CLOSERS:
                        if not openers:
                            self.surplus.append(tok)
                            continue
                        if _OPENERS[openers[-1].type][0] != kind:
                            raise self._unexpected(tok, ())
                        feed(tok)
                        if openers.pop().type == "HASH_LPAR":
                            short_fns -= 1
                        continue
                    elif kind == "BAD_TOKEN":
                        raise _bad_token(tok, self.source)
                    feed(tok)
                break
            except UnexpectedToken as err:
                # The contextual lexer rejects a closer that no open form expects. With
                # nothing open, remember it and read on (the lexer has moved past it), so
                # that a later hard error wins over the count of surplus closers.
                if err.token.type in _CLOSERS and not openers:
                    self.surplus.append(err.token)
                    if len(self.surplus) < _MAX_SURPLUS:
                        continue
                    raise self._surplus_error() from None
                raise
        if openers:
            opener = openers[-1]
            raise _error(f"unclosed {_OPENERS[opener.type][1]}", opener)
        result: tuple[Form, ...] = interactive.feed_eof()
        if self.surplus:
            raise self._surplus_error()
        return result

    # ------------------------------------------------------------ error messages

    def _unexpected(self, tok: _Tok, expected: Sequence[str] | set[str]) -> ReadError:
        kind = tok.type
        if kind in _CLOSERS and self.openers:
            opener = self.openers[-1]
            want, name = _OPENERS[opener.type]
            if want != kind:
                return _error(
                    f"syntax error: unexpected '{_CLOSER_TEXT[kind]}' at line {tok.line}, "
                    f"column {tok.column}, expected '{_CLOSER_TEXT[want]}' to close the "
                    f"{name} at line {opener.line}, column {opener.column}",
                    tok,
                )
        if kind == "$END":
            line, column = _end_position(self.source)
            what = "end of input"
        else:
            line, column = tok.line, tok.column
            what = f"'{_show(str(tok.value))}'"
        return ReadError(
            _PARSE_ERROR,
            f"syntax error: unexpected {what} at line {line}, column {column}, "
            f"expected {_expected_text(expected)}",
            line=line,
            column=column,
        )

    def _bad_character(self, pos: int, line: int, column: int) -> ReadError:
        source = self.source
        char = source[pos]
        where = f"at line {line}, column {column}"
        message: str
        if char == '"':
            hint = None
            if _BACKSLASH_NEWLINE.match(source, pos):
                hint = r"a backslash cannot end a line inside a string; write \n for a newline"
            return ReadError(
                _PARSE_ERROR, f"unclosed string {where}", line=line, column=column, hint=hint
            )
        if char == "\\":
            tail = _TOKEN_TAIL.match(source, pos + 1)
            text = "\\" + (tail.group() if tail else "")
            if text == "\\":
                message = f"syntax error: a character literal \\ needs a character, {where}"
            else:
                message = f"invalid character literal {_show(text)} {where}"
        elif char == "@":
            message = (
                "deref syntax (@var) is not supported. Atoms and refs are not available "
                f"({where[3:]})"
            )
        elif char in _REJECTED_MACROS:
            message = f"syntax error: could not parse expression {where}: {_REJECTED_MACROS[char]}"
        elif char.isspace():
            message = (
                f"syntax error: unexpected character {_codepoint(char)} {where}: only space, "
                "tab, newline, carriage return and comma are whitespace"
            )
        else:
            message = f"syntax error: unexpected character {_describe_char(char)} {where}"
        return ReadError(_PARSE_ERROR, message, line=line, column=column)

    def _surplus_error(self) -> ReadError:
        first = self.surplus[0]
        count = len(self.surplus)
        quantity = f"at least {count}" if count >= _MAX_SURPLUS else str(count)
        closer = _CLOSER_TEXT[first.type]
        if all(tok.type == first.type for tok in self.surplus):
            what = f"{_CLOSER_GROUP[first.type]}: {quantity} extra '{closer}' (first"
        else:
            what = f"delimiters: {quantity} extra closing delimiters (first '{closer}'"
        return _error(f"unbalanced {what} at line {first.line}, column {first.column})", first)


_REJECTED_MACROS: Final = {
    "^": "metadata (^) is not supported",
    "`": "syntax quote (`) is not supported",
    "~": "unquote (~ and ~@) is not supported",
}


def _error(message: str, tok: _Tok | None = None) -> ReadError:
    """A parse error at `tok`; the message gains the position unless it names one."""
    if tok is None:
        return ReadError(_PARSE_ERROR, message)
    if " at line " not in message:
        message = f"{message} at line {tok.line}, column {tok.column}"
    return ReadError(_PARSE_ERROR, message, line=tok.line, column=tok.column)


def _expected_text(expected: Sequence[str] | set[str]) -> str:
    names: list[str] = []
    if any(name in _FORM_STARTS for name in expected):
        names.append("a form")
    names.extend(f"'{_CLOSER_TEXT[name]}'" for name in sorted(expected) if name in _CLOSERS)
    if not names:
        return "end of input"
    if len(names) == 1:
        return names[0]
    return "one of " + ", ".join(names)


def _end_position(source: str) -> tuple[int, int]:
    return source.count("\n") + 1, len(source) - source.rfind("\n")


def _codepoint(char: str) -> str:
    name = unicodedata.name(char, "")
    code = f"U+{ord(char):04X}"
    return f"{code} ({name.lower()})" if name else code


def _describe_char(char: str) -> str:
    return f"'{char}'" if char.isprintable() else _codepoint(char)


def _show(text: str, limit: int = 40) -> str:
    """Source text for a message: short, with unprintable characters spelled U+XXXX."""
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else f"U+{ord(ch):04X}" for ch in text)


# ---------------------------------------------------------------- bad tokens

_RATIO: Final = re.compile(r"-?[0-9]+/[0-9]+")
_RADIX: Final = re.compile(r"-?[0-9]+[rR][0-9A-Za-z]+")
_HEX: Final = re.compile(r"-?0[xX][0-9A-Fa-f]+")
_SUFFIXED: Final = re.compile(r"-?[0-9]+(?:\.[0-9]*)?(?:[eE][+-]?[0-9]+)?([MN])")
_TRAILING_DOT: Final = re.compile(r"-?[0-9]+\.")
_LEADING_DOT: Final = re.compile(r"[-+]?\.[0-9]")
_NUMBER_LIKE: Final = re.compile(r"-?[0-9]")


def _bad_token(tok: _Tok, source: str) -> ReadError:
    """The error for a token-shaped text that is no valid token; names the text."""
    text = str(tok.value)
    following = source[tok.end_pos : tok.end_pos + 1]
    where = f"at line {tok.line}, column {tok.column}"
    shown = _show(text)
    head = text[0]
    message: str
    if head == "'":
        if text == "'" and following in ("(", "[", "{"):
            message = (
                f"quoted collections are not supported ({where}); only quoted symbols "
                "like 'github are allowed"
            )
        else:
            message = (
                f"syntax error: cannot quote {shown} {where}; only quoted symbols like "
                "'github are allowed"
            )
    elif head == "#":
        message = _bad_dispatch(text, following, where)
    elif head == ":":
        if text.startswith("::") or "/" in text:
            message = f"namespaced keywords are not supported: {shown} {where}"
        else:
            message = f"could not parse keyword {shown} {where}"
    elif _NUMBER_LIKE.match(text) or _LEADING_DOT.match(text):
        message = _bad_number(text, where)
    elif not text.isascii():
        message = f"invalid symbol {shown} {where}: symbols are ASCII-only"
    else:
        message = f"invalid symbol {shown} {where}"
    return ReadError(_PARSE_ERROR, message, line=tok.line, column=tok.column)


def _bad_dispatch(text: str, following: str, where: str) -> str:
    shown = _show(text)
    if text == "#" and following == '"':
        return f"unclosed regex literal {where}"
    if text.startswith("#'"):
        return f"syntax error: #' must be followed by a symbol, got {shown} {where}"
    if text.startswith("##"):
        return f"unknown symbolic value {shown} {where}; use ##Inf, ##-Inf or ##NaN"
    if text.startswith("#?"):
        reason = "reader conditionals (#?) are not supported"
    elif text == "#":
        reason = "unknown dispatch syntax #"
    else:
        reason = f"tagged literals like {shown} are not supported"
    return f"syntax error: could not parse expression {where}: {reason}"


def _bad_number(text: str, where: str) -> str:
    reason: str
    if _RATIO.fullmatch(text):
        reason = "ratios are not supported; use (/ a b), which returns a float"
    elif _HEX.fullmatch(text):
        reason = "hexadecimal literals are not supported; write the decimal value"
    elif _RADIX.fullmatch(text):
        reason = "radix literals are not supported; write the decimal value"
    elif (suffixed := _SUFFIXED.fullmatch(text)) is not None:
        kind = "BigDecimal (M)" if suffixed.group(1) == "M" else "BigInt (N)"
        reason = f"{kind} literals are not supported; drop the suffix"
    elif _TRAILING_DOT.fullmatch(text):
        reason = f"write {text}0"
    elif _LEADING_DOT.match(text):
        reason = f"write {text.replace('.', '0.', 1)}"
    else:
        return f"invalid number literal {_show(text)} {where}"
    return f"unsupported number literal {_show(text)} {where}: {reason}"


# ---------------------------------------------------------------- terminals -> Forms


def _span(tok: _Tok) -> Span:
    return Span(tok.line, tok.column, tok.end_line, tok.end_column)


def _number(tok: _Tok) -> Const:
    text: str = tok.value
    if "." in text or "e" in text or "E" in text:
        return Const(float(text), _span(tok))
    digits = len(text) - (text[0] == "-")
    if digits > 1:
        if digits > MAX_INT_DIGITS:
            raise _error(f"integer literal exceeds {MAX_INT_DIGITS} digit limit", tok)
        if text[-digits] == "0":
            raise _error(
                f"unsupported number literal {_show(text)} at line {tok.line}, column "
                f"{tok.column}: octal literals are not supported; drop the leading zero",
                tok,
            )
    return Const(int(text), _span(tok))


def _special_float(tok: _Tok) -> Const:
    return Const(_SPECIAL_FLOATS[tok.value], _span(tok))


def _unescape(body: str) -> str:
    if "\\" not in body:
        return body
    return _ESCAPE_PAIR.sub(lambda m: _ESCAPES.get(m.group(1), m.group()), body)


def _string(tok: _Tok) -> Const:
    value = decode_string(tok.value[1:-1])
    if value is None:
        raise _error(
            "invalid unicode escape in a string: a surrogate half \\uD800-\\uDFFF must be "
            "followed or preceded by its other half",
            tok,
        )
    return Const(value, _span(tok))


def _regex(tok: _Tok) -> RegexForm:
    return RegexForm(_unescape(tok.value[2:-1]), _span(tok))


def _char(tok: _Tok) -> Const:
    name: str = tok.value[1:]
    value = char_value(name)
    if value is None:
        raise _error(
            f"invalid character literal {_show(tok.value)}: a surrogate half or an octal "
            "value above \\o377",
            tok,
        )
    return Const(value, _span(tok), is_char=True)


def _keyword(tok: _Tok) -> KeywordForm:
    return KeywordForm(tok.value[1:], _span(tok))


def _make_symbol(text: str, span: Span) -> Symbol:
    slash = text.find("/")
    if 0 < slash < len(text) - 1:
        return Symbol(text[slash + 1 :], text[:slash], span)
    return Symbol(text, None, span)


def _symbol(tok: _Tok) -> Symbol | Const:
    text: str = tok.value
    if text in _WORDS:
        return Const(_WORDS[text], _span(tok))
    return _make_symbol(text, _span(tok))


def _quoted_symbol(tok: _Tok) -> Quote:
    return Quote(tok.value[1:], _span(tok))


def _var_quote(tok: _Tok) -> VarQuote:
    text: str = tok.value[2:]
    if text in _WORDS:
        raise _error(f"syntax error: #' must be followed by a symbol, got {text}", tok)
    inner = Span(tok.line, tok.column + 2, tok.end_line, tok.end_column)
    return VarQuote(_make_symbol(text, inner), _span(tok))


def _bad_token_form(tok: _Tok) -> Form:
    # `read` rejects BAD_TOKEN before the parser shifts it; this only guards the grammar.
    raise _error(f"syntax error: could not parse {_show(str(tok.value))}", tok)


# ---------------------------------------------------------------- rules -> Forms


def _forms(children: list[Any]) -> list[Form]:
    """`forms: | forms form | forms discard`: append in place, skip discards."""
    if not children:
        return []
    forms: list[Form] = children[0]
    item = children[1]
    if item is not _DROPPED:
        forms.append(item)
    return forms


#: What the `discard` rule (`#_ form`) leaves in a sequence of forms.
_DROPPED: Final = object()


def _discard(children: list[Any]) -> object:
    return _DROPPED


def _coll_span(children: list[Any]) -> Span:
    first, last = children[0], children[-1]
    return Span(first.line, first.column, last.end_line, last.end_column)


def _list(children: list[Any]) -> ListForm:
    return ListForm(tuple(children[1]), _coll_span(children))


def _vector(children: list[Any]) -> VectorForm:
    return VectorForm(tuple(children[1]), _coll_span(children))


def _map(children: list[Any]) -> MapForm:
    items: list[Form] = children[1]
    if len(items) % 2:
        raise _error(f"Map literal requires even number of forms, got {len(items)}", children[0])
    return MapForm(tuple(items), _coll_span(children))


def _set(children: list[Any]) -> SetForm:
    return SetForm(tuple(children[1]), _coll_span(children))


def _short_fn(children: list[Any]) -> ShortFn:
    return ShortFn(tuple(children[1]), _coll_span(children))


def _start(children: list[Any]) -> tuple[Form, ...]:
    return tuple(children[0])


#: Grammar name -> callback: terminals (on shift) and rules (on reduce).
_CALLBACKS: Final[dict[str, Callable[..., object]]] = {
    "NUMBER": _number,
    "SPECIAL_FLOAT": _special_float,
    "STRING": _string,
    "REGEX": _regex,
    "CHAR": _char,
    "KEYWORD": _keyword,
    "SYMBOL": _symbol,
    "QUOTED_SYMBOL": _quoted_symbol,
    "VAR_QUOTE": _var_quote,
    "BAD_TOKEN": _bad_token_form,
    "list": _list,
    "vector": _vector,
    "map": _map,
    "set": _set,
    "short_fn": _short_fn,
    "forms": _forms,
    "discard": _discard,
    "start": _start,
}


@functools.cache
def _parser() -> Lark:
    """The LALR parser, built on first use (about 20 ms) and shared afterwards."""
    grammar = importlib.resources.files("ptc_compiler").joinpath(_GRAMMAR).read_text("utf-8")
    return Lark(
        grammar,
        parser="lalr",
        lexer="contextual",
        transformer=SimpleNamespace(**_CALLBACKS),
        maybe_placeholders=False,
    )


# ---------------------------------------------------------------- the name limit


def _check_name_count(forms: tuple[Form, ...]) -> None:
    """Raise `symbol_limit_exceeded` past MAX_NAMES distinct symbols and keywords."""
    names: set[str] = set()
    stack: list[Form] = list(reversed(forms))
    while stack:
        form = stack.pop()
        name: str | None = None
        if isinstance(form, Symbol):
            name = form.text
        elif isinstance(form, KeywordForm):
            name = ":" + form.name
        elif isinstance(form, Quote):
            name = form.text
        elif isinstance(form, VarQuote):
            name = form.symbol.text
        elif isinstance(form, ListForm | VectorForm | MapForm | SetForm | ShortFn):
            stack.extend(reversed(form.items))
        if name is not None and name not in names:
            names.add(name)
            if len(names) > MAX_NAMES:
                span = form.span
                raise ReadError(
                    "symbol_limit_exceeded",
                    f"program uses more than {MAX_NAMES} distinct symbols and keywords "
                    f"(limit reached at line {span.line}, column {span.col})",
                    line=span.line,
                    column=span.col,
                )
