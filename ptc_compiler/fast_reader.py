"""Fast path of the reader: source text -> Forms for well-formed programs, else `None`.

`reader.read` calls `read_fast` first and falls back to the lark reader whenever it
returns `None`. The lark grammar (`ptc_compiler/grammar/ptc_lisp.lark`) stays the definition of the
language and the only source of diagnostics; this module only has to be *faithful*:
for every source the lark reader accepts it builds the same forms with the same spans,
and for everything else (a syntax error, a limit, anything it does not recognise) it
gives up without saying why. It never raises `ReadError`.

How: one compiled regular expression whose alternatives are the grammar's terminals,
spelled exactly as in the grammar (same token boundaries), plus a catch-all for any
other character. `finditer` walks the whole source, so every character belongs to
exactly one match and nothing is searched twice. Collections are built with an explicit
stack (no recursion), so the cost is linear in the source and bounded by `max_depth`.

Why the terminals can be tried in any order: at any position at most one of the
priority-0 terminals of the grammar can match (they differ in their first one or two
characters, and the ones that share a first character — `-` numbers and symbols, the
`#` dispatches — are told apart by the next one), and the contextual lexer only ever
excludes closing brackets, which nothing else matches. `BAD_TOKEN` (priority -1) wins
only where none of them matches, which is exactly where the catch-all fires here.
Line and column are counted the way lark counts them: only `\\n` starts a line, and
columns are 1-based code-point offsets from the last `\\n`.

Forms are frozen slotted dataclasses; building them through their generated
`__init__` (one `object.__setattr__` per field) cost as much as all the rest of the
reading. Here they are created with `object.__new__` and their slots filled directly,
which gives identical objects; `_fast_constructors_ok` checks at import that the
classes still have exactly the fields this relies on and otherwise falls back to the
ordinary constructors.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Callable
from typing import Any, Final

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

# ---------------------------------------------------------------- the token pattern

# The grammar's terminals, spelled exactly as in ptc_compiler/grammar/ptc_lisp.lark
# (a test compares).
_BOUNDARY: Final = r"""(?![^\s\x00-\x1f\x7f,;"@^`~()\[\]{}\\])"""
_NOT_NUMBER: Final = r"(?!-[0-9]|[-+]?\.[0-9])"
_SYM_FIRST: Final = r"[A-Za-z+\-*\/<>=?!_%.&]"
_SYM_REST: Final = r"[A-Za-z0-9+\-*\/<>=?!_%.&']"
_STRING_BODY: Final = r"""[^"\\]*(?:\\[^\r\n][^"\\]*)*"""
_NUMBER_RE: Final = r"-?[0-9]+(?:\.[0-9]+(?:[eE][+-]?[0-9]+)?|[eE][+-]?[0-9]+)?"
_SPECIAL_FLOAT_RE: Final = r"##(?:Inf|-Inf|NaN)"
_CHAR_RE: Final = (
    r"\\(?:newline|space|tab|return|backspace|formfeed|u[0-9a-fA-F]{4}|o[0-7]{1,3}|[^\r\n])"
)
_KEYWORD_RE: Final = r":[A-Za-z0-9+\-*<>=?!_]+"
_SYM: Final = f"{_SYM_FIRST}{_SYM_REST}*"

#: Group number -> meaning. The group numbers are the `lastindex` of a match.
_SPACE, _NEWLINE, _COMMENT, _SYMBOL, _OPEN, _CLOSE, _KEYWORD, _NUMBER = range(1, 9)
_STRING, _CHAR, _REGEX, _QUOTED, _VAR_QUOTE, _SPECIAL, _DISCARD, _OTHER = range(9, 17)

# Blanks in front of a token are part of its match (one match per token, not two); the
# blanks group itself only matches what no token follows (the end of the text).
_TOKEN: Final = re.compile(
    r"[ \t\r,]*(?:"
    + "|".join(
        [
            r"([ \t\r,]+)",  # _IGNORED, split so that line breaks can be counted
            r"(\n)",
            r"(;[^\n]*)",
            f"({_NOT_NUMBER}{_SYM}){_BOUNDARY}",  # SYMBOL
            r"([(\[{]|#[({])",  # LPAR LBRACK LBRACE HASH_LPAR HASH_LBRACE
            r"([)\]}])",  # RPAR RBRACK RBRACE
            f"({_KEYWORD_RE}){_BOUNDARY}",
            f"({_NUMBER_RE}){_BOUNDARY}",
            f'("{_STRING_BODY}")',  # STRING
            f"({_CHAR_RE}){_BOUNDARY}",
            f'(#"{_STRING_BODY}")',  # REGEX
            f"('{_SYM}){_BOUNDARY}",  # QUOTED_SYMBOL
            f"(#'{_NOT_NUMBER}{_SYM}){_BOUNDARY}",  # VAR_QUOTE
            f"({_SPECIAL_FLOAT_RE}){_BOUNDARY}",
            r"(#_)",  # DISCARD
            r"([\s\S])",  # anything else, BAD_TOKEN included: the lark reader decides
        ]
    )
    + ")"
)

_CLOSER_OF: Final = {"(": ")", "[": "]", "{": "}", "#{": "}", "#(": ")"}
_WORDS: Final[dict[str, bool | None]] = {"nil": None, "true": True, "false": False}
_SPECIAL_FLOATS: Final = {"##Inf": math.inf, "##-Inf": -math.inf, "##NaN": math.nan}
_CHAR_NAMES: Final = {
    "newline": "\n",
    "space": " ",
    "tab": "\t",
    "return": "\r",
    "backspace": "\b",
    "formfeed": "\f",
}
_ESCAPES: Final = {"\\": "\\", '"': '"', "n": "\n", "t": "\t", "r": "\r"}
_ESCAPE_PAIR: Final = re.compile(r"\\(.)", re.DOTALL)


def _unescape(body: str) -> str:
    if "\\" not in body:
        return body
    return _ESCAPE_PAIR.sub(lambda m: _ESCAPES.get(m.group(1), m.group()), body)


_STRING_PAIR: Final = re.compile(r"\\(?:u([0-9a-fA-F]{4})|(.))", re.DOTALL)


def decode_string(body: str) -> str | None:
    r"""The value of a string literal's body, as Clojure reads it: `\\ \" \n \t \r` and
    `\uXXXX` (exactly four hex digits; a surrogate pair of two escapes is one code point)
    decode, any other backslash pair is kept verbatim. None when a `\u` escape is half
    of a surrogate pair on its own (no string may hold one)."""
    if "\\" not in body:
        return body
    if "\\u" not in body:
        return _unescape(body)
    out: list[str] = []
    last = 0
    pending = -1  # a high surrogate waiting for its low half: its end offset in body
    high = 0
    for m in _STRING_PAIR.finditer(body):
        start, stop = m.span()
        hexits = m.group(1)
        code = -1 if hexits is None else int(hexits, 16)
        if pending >= 0:
            if start != pending or not 0xDC00 <= code <= 0xDFFF:
                return None
            out.append(chr(0x10000 + ((high - 0xD800) << 10) + (code - 0xDC00)))
            pending = -1
            last = stop
            continue
        out.append(body[last:start])
        last = stop
        if code < 0:
            pair = m.group(2)
            out.append(_ESCAPES.get(pair, "\\" + pair))
        elif 0xD800 <= code <= 0xDBFF:
            pending, high = stop, code
        elif 0xDC00 <= code <= 0xDFFF:
            return None
        else:
            out.append(chr(code))
    if pending >= 0:
        return None
    out.append(body[last:])
    return "".join(out)


def char_value(name: str) -> str | None:
    """The one-character string of a character literal without its backslash: a name
    (`newline` ...), `uXXXX` (hex), `oNNN` (octal, at most 377), or the character itself.
    None for a surrogate half or an octal value above 377."""
    named = _CHAR_NAMES.get(name)
    if named is not None:
        return named
    if len(name) == 5 and name[0] == "u":
        code = int(name[1:], 16)
        return None if 0xD800 <= code <= 0xDFFF else chr(code)
    if len(name) > 1 and name[0] == "o":
        code = int(name[1:], 8)
        return None if code > 0o377 else chr(code)
    return name


# ---------------------------------------------------------------- fast constructors

_FIELDS: Final[dict[type, tuple[str, ...]]] = {
    Span: ("line", "col", "end_line", "end_col"),
    Const: ("value", "span", "is_char"),
    KeywordForm: ("name", "span"),
    Symbol: ("name", "ns", "span"),
    ListForm: ("items", "span"),
    VectorForm: ("items", "span"),
    MapForm: ("items", "span"),
    SetForm: ("items", "span"),
    ShortFn: ("items", "span"),
    RegexForm: ("source", "span"),
    VarQuote: ("symbol", "span"),
    Quote: ("text", "span"),
}


def _fast_constructors_ok() -> bool:
    """True if every form class is a frozen slotted dataclass with exactly `_FIELDS`."""
    for cls, names in _FIELDS.items():
        if not dataclasses.is_dataclass(cls) or hasattr(cls, "__post_init__"):
            return False
        if tuple(f.name for f in dataclasses.fields(cls)) != names:
            return False
        if getattr(cls, "__slots__", None) != names:
            return False
    return True


_Setter = Callable[[object, object], None]


def _setters(cls: type) -> tuple[_Setter, ...]:
    slots: dict[str, Any] = dict(vars(cls))
    return tuple(slots[name].__set__ for name in _FIELDS[cls])


_FAST: Final = _fast_constructors_ok()

if _FAST:
    _new: Callable[[type], Any] = object.__new__
    _s_line, _s_col, _s_end_line, _s_end_col = _setters(Span)
    _c_value, _c_span, _c_is_char = _setters(Const)
    _y_name, _y_ns, _y_span = _setters(Symbol)
    _k_name, _k_span = _setters(KeywordForm)
    _l_items, _l_span = _setters(ListForm)
    _v_items, _v_span = _setters(VectorForm)
    _m_items, _m_span = _setters(MapForm)
    _e_items, _e_span = _setters(SetForm)
    _f_items, _f_span = _setters(ShortFn)

    def _mk_span(line: int, col: int, end_line: int, end_col: int) -> Span:
        span: Span = _new(Span)
        _s_line(span, line)
        _s_col(span, col)
        _s_end_line(span, end_line)
        _s_end_col(span, end_col)
        return span

    def _mk_const(value: bool | int | float | str | None, span: Span) -> Const:
        const: Const = _new(Const)
        _c_value(const, value)
        _c_span(const, span)
        _c_is_char(const, False)
        return const

    def _mk_symbol(name: str, ns: str | None, span: Span) -> Symbol:
        symbol: Symbol = _new(Symbol)
        _y_name(symbol, name)
        _y_ns(symbol, ns)
        _y_span(symbol, span)
        return symbol

    def _mk_keyword(name: str, span: Span) -> KeywordForm:
        keyword: KeywordForm = _new(KeywordForm)
        _k_name(keyword, name)
        _k_span(keyword, span)
        return keyword

    def _mk_list(items: tuple[Form, ...], span: Span) -> ListForm:
        form: ListForm = _new(ListForm)
        _l_items(form, items)
        _l_span(form, span)
        return form

    def _mk_vector(items: tuple[Form, ...], span: Span) -> VectorForm:
        form: VectorForm = _new(VectorForm)
        _v_items(form, items)
        _v_span(form, span)
        return form

    def _mk_map(items: tuple[Form, ...], span: Span) -> MapForm:
        form: MapForm = _new(MapForm)
        _m_items(form, items)
        _m_span(form, span)
        return form

    def _mk_set(items: tuple[Form, ...], span: Span) -> SetForm:
        form: SetForm = _new(SetForm)
        _e_items(form, items)
        _e_span(form, span)
        return form

    def _mk_short_fn(items: tuple[Form, ...], span: Span) -> ShortFn:
        form: ShortFn = _new(ShortFn)
        _f_items(form, items)
        _f_span(form, span)
        return form

else:  # pragma: no cover - only if forms.py changes shape

    def _mk_span(line: int, col: int, end_line: int, end_col: int) -> Span:
        return Span(line, col, end_line, end_col)

    def _mk_const(value: bool | int | float | str | None, span: Span) -> Const:
        return Const(value, span)

    def _mk_symbol(name: str, ns: str | None, span: Span) -> Symbol:
        return Symbol(name, ns, span)

    def _mk_keyword(name: str, span: Span) -> KeywordForm:
        return KeywordForm(name, span)

    def _mk_list(items: tuple[Form, ...], span: Span) -> ListForm:
        return ListForm(items, span)

    def _mk_vector(items: tuple[Form, ...], span: Span) -> VectorForm:
        return VectorForm(items, span)

    def _mk_map(items: tuple[Form, ...], span: Span) -> MapForm:
        return MapForm(items, span)

    def _mk_set(items: tuple[Form, ...], span: Span) -> SetForm:
        return SetForm(items, span)

    def _mk_short_fn(items: tuple[Form, ...], span: Span) -> ShortFn:
        return ShortFn(items, span)


_MAKE_COLL: Final[dict[str, Callable[[tuple[Form, ...], Span], Form]]] = {
    "(": _mk_list,
    "[": _mk_vector,
    "{": _mk_map,
    "#{": _mk_set,
    "#(": _mk_short_fn,
}


def _symbol(text: str, span: Span) -> Symbol:
    slash = text.find("/")
    if 0 < slash < len(text) - 1:
        return _mk_symbol(text[slash + 1 :], text[:slash], span)
    return _mk_symbol(text, None, span)


# ---------------------------------------------------------------- the reader


def read_fast(source: str, max_depth: int, max_int_digits: int) -> tuple[Form, ...] | None:
    """The forms of `source`, or `None` if the lark reader must decide (e.g. any error).

    `max_depth` is the most collections open at once; an integer literal has at most
    `max_int_digits` digits. The caller checks the program size and name count.
    """
    items: list[Form] = []  # forms of the innermost open collection (or the top level)
    discards = 0  # pending `#_` in `items`, each drops the next form completed there
    # One entry per open collection: the enclosing items and discards, the opener and
    # its position.
    stack: list[tuple[list[Form], int, str, int, int]] = []
    in_short_fn = False
    line = 1
    line_start = 0  # offset of the first character of the current line
    form: Form
    for match in _TOKEN.finditer(source):
        kind = match.lastindex
        if kind == _SPACE or kind == _COMMENT:
            continue
        if kind == _NEWLINE:
            line += 1
            line_start = match.end()
            continue
        start, end = match.span(kind)  # type: ignore[arg-type]  # every alternative is a group
        col = start - line_start + 1
        if kind == _SYMBOL:
            text = match[kind]
            span = _mk_span(line, col, line, end - line_start + 1)
            if text in _WORDS:
                form = _mk_const(_WORDS[text], span)
            elif "/" in text:
                form = _symbol(text, span)
            else:
                form = _mk_symbol(text, None, span)
        elif kind == _OPEN:
            if len(stack) >= max_depth:
                return None
            text = match[kind]
            if text == "#(":
                if in_short_fn:
                    return None
                in_short_fn = True
            stack.append((items, discards, text, line, col))
            items = []
            discards = 0
            continue
        elif kind == _CLOSE:
            if not stack or discards:
                return None
            parent, discards, opener, open_line, open_col = stack.pop()
            if _CLOSER_OF[opener] != match[kind]:
                return None
            if opener == "{" and len(items) % 2:
                return None
            if opener == "#(":
                in_short_fn = False
            form = _MAKE_COLL[opener](
                tuple(items), _mk_span(open_line, open_col, line, end - line_start + 1)
            )
            items = parent
        elif kind == _KEYWORD:
            form = _mk_keyword(match[kind][1:], _mk_span(line, col, line, end - line_start + 1))
        elif kind == _NUMBER:
            text = match[kind]
            span = _mk_span(line, col, line, end - line_start + 1)
            if "." in text or "e" in text or "E" in text:
                form = _mk_const(float(text), span)
            else:
                digits = end - start - (text[0] == "-")
                if digits > 1 and (digits > max_int_digits or text[-digits] == "0"):
                    return None
                form = _mk_const(int(text), span)
        elif kind == _STRING or kind == _REGEX:
            text = match[kind]
            start_line = line
            newlines = text.count("\n")
            if newlines:
                line += newlines
                line_start = start + text.rfind("\n") + 1
            span = _mk_span(start_line, col, line, end - line_start + 1)
            if kind == _STRING:
                value = decode_string(text[1:-1])
                if value is None:
                    return None
                form = _mk_const(value, span)
            else:
                form = RegexForm(_unescape(text[2:-1]), span)
        elif kind == _CHAR:
            name = match[kind][1:]
            span = _mk_span(line, col, line, end - line_start + 1)
            char = char_value(name)
            if char is None:
                return None
            form = Const(char, span, is_char=True)
        elif kind == _QUOTED:
            form = Quote(match[kind][1:], _mk_span(line, col, line, end - line_start + 1))
        elif kind == _VAR_QUOTE:
            text = match[kind][2:]
            if text in _WORDS:
                return None
            end_col = end - line_start + 1
            inner = _symbol(text, _mk_span(line, col + 2, line, end_col))
            form = VarQuote(inner, _mk_span(line, col, line, end_col))
        elif kind == _SPECIAL:
            span = _mk_span(line, col, line, end - line_start + 1)
            form = _mk_const(_SPECIAL_FLOATS[match[kind]], span)
        elif kind == _DISCARD:
            discards += 1
            continue
        else:  # _OTHER: an error or something only the grammar knows
            return None
        if discards:
            discards -= 1
        else:
            items.append(form)
    if stack or discards:
        return None
    return tuple(items)
