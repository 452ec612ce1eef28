"""Reader: source text -> Forms with spans, and every ReadError (target §3).

Every test runs against three readers (the autouse `reader` fixture): `read` (fast path
with lark fallback), `read_with_lark` (the grammar alone) and `fast-only`, which takes
the fast path's forms and insists that whenever the fast path defers, the lark reader
rejects the source (so the fast path handles every accepted program itself).
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable, Iterator

import pytest
from timebounds import Clock, assert_prompt  # tests/timebounds.py

from ptc_compiler import reader
from ptc_compiler.fast_reader import read_fast
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


def _fast_only(src: str) -> tuple[Form, ...]:
    if read_fast(src, reader.MAX_DEPTH, reader.MAX_INT_DIGITS) is None:
        reader.read_with_lark(src)  # must raise: the fast path defers only on errors
        pytest.fail(f"fast path deferred on a program the lark reader accepts: {src[:80]!r}")
    return reader.read(src)  # same size and name checks; takes the fast path again


Reader = Callable[[str], tuple[Form, ...]]
READERS: dict[str, Reader] = {
    "read": reader.read,
    "lark": reader.read_with_lark,
    "fast-only": _fast_only,
}
_current: list[Reader] = [reader.read]


@pytest.fixture(autouse=True, params=list(READERS))
def _reader(request: pytest.FixtureRequest) -> Iterator[None]:
    _current[0] = READERS[request.param]
    yield
    _current[0] = reader.read


def read(src: str) -> tuple[Form, ...]:
    return _current[0](src)


def one(src: str) -> Form:
    forms = read(src)
    assert len(forms) == 1, forms
    return forms[0]


def sym(name: str, ns: str | None = None) -> Symbol:
    return Symbol(name, ns)


def kw(name: str) -> KeywordForm:
    return KeywordForm(name)


# ---------------------------------------------------------------- literals

LITERALS = [
    pytest.param("0", Const(0), id="zero"),
    pytest.param("42", Const(42), id="int"),
    pytest.param("-7", Const(-7), id="negative-int"),
    pytest.param("9" * 100, Const(int("9" * 100)), id="int-100-digits"),
    pytest.param("-" + "9" * 100, Const(-int("9" * 100)), id="negative-int-100-digits"),
    pytest.param("1.5", Const(1.5), id="float"),
    pytest.param("-0.25", Const(-0.25), id="negative-float"),
    pytest.param("1e3", Const(1000.0), id="float-exponent"),
    pytest.param("2.5E-2", Const(0.025), id="float-fraction-exponent"),
    pytest.param("1e+2", Const(100.0), id="float-exponent-plus"),
    pytest.param("##Inf", Const(math.inf), id="inf"),
    pytest.param("##-Inf", Const(-math.inf), id="minus-inf"),
    pytest.param("nil", Const(None), id="nil"),
    pytest.param("true", Const(True), id="true"),
    pytest.param("false", Const(False), id="false"),
    pytest.param('"hi"', Const("hi"), id="string"),
    pytest.param('""', Const(""), id="empty-string"),
    pytest.param(r'"a\"b\\c"', Const('a"b\\c'), id="string-quote-backslash"),
    pytest.param(r'"\n\t\r"', Const("\n\t\r"), id="string-decoded-escapes"),
    pytest.param(r'"a\qb"', Const("a\\qb"), id="string-other-pair-verbatim"),
    pytest.param(r'"\d+\u0041"', Const("\\d+A"), id="string-unicode-escape"),
    pytest.param(r'"\u00e9\u00E9x"', Const("ééx"), id="string-unicode-escape-hex-case"),
    pytest.param(r'"\u00a"', Const("\\u00a"), id="string-short-unicode-verbatim"),
    pytest.param(r'"\\u0041"', Const("\\u0041"), id="string-escaped-backslash-u"),
    pytest.param(r'"\ud83d\ude00"', Const("\U0001f600"), id="string-surrogate-pair"),
    pytest.param(r'"\u005c\u0022"', Const('\\"'), id="string-unicode-backslash-quote"),
    pytest.param('"two\nlines"', Const("two\nlines"), id="string-raw-newline"),
    pytest.param('"ünï ✓ \u00a0"', Const("ünï ✓ \u00a0"), id="string-unicode-nbsp-ok"),
    pytest.param("\\a", Const("a"), id="char"),
    pytest.param("\\r", Const("r"), id="char-r-is-letter"),
    pytest.param("\\newline", Const("\n"), id="char-newline"),
    pytest.param("\\space", Const(" "), id="char-space"),
    pytest.param("\\tab", Const("\t"), id="char-tab"),
    pytest.param("\\u00e9", Const("é"), id="char-unicode"),
    pytest.param("\\u0041", Const("A"), id="char-unicode-ascii"),
    pytest.param("\\o101", Const("A"), id="char-octal"),
    pytest.param("\\o7", Const("\x07"), id="char-octal-one-digit"),
    pytest.param("\\u", Const("u"), id="char-u"),
    pytest.param("\\o", Const("o"), id="char-o"),
    pytest.param("\\return", Const("\r"), id="char-return"),
    pytest.param("\\backspace", Const("\b"), id="char-backspace"),
    pytest.param("\\formfeed", Const("\f"), id="char-formfeed"),
    pytest.param("\\(", Const("("), id="char-paren"),
    pytest.param("\\\\", Const("\\"), id="char-backslash"),
    pytest.param('\\"', Const('"'), id="char-quote"),
    pytest.param("\\é", Const("é"), id="char-unicode"),
    pytest.param(":a", kw("a"), id="keyword"),
    pytest.param(":user-id", kw("user-id"), id="keyword-dash"),
    pytest.param(":1", kw("1"), id="keyword-digit-first"),
    pytest.param(":big?", kw("big?"), id="keyword-question"),
    pytest.param(":a+-*<>=?!_", kw("a+-*<>=?!_"), id="keyword-all-chars"),
    pytest.param("foo", sym("foo"), id="symbol"),
    pytest.param("nil?", sym("nil?"), id="symbol-nil-prefix"),
    pytest.param("true-ish", sym("true-ish"), id="symbol-true-prefix"),
    pytest.param("inc'", sym("inc'"), id="symbol-prime"),
    pytest.param("+5", sym("+5"), id="plus-digit-is-symbol"),
    pytest.param("-", sym("-"), id="minus"),
    pytest.param("->>", sym("->>"), id="thread-last"),
    pytest.param("-x", sym("-x"), id="minus-letter"),
    pytest.param("/", sym("/"), id="slash-alone"),
    pytest.param("%", sym("%"), id="placeholder"),
    pytest.param("%&", sym("%&"), id="rest-placeholder"),
    pytest.param("&", sym("&"), id="ampersand"),
    pytest.param("*1", sym("*1"), id="history-1"),
    pytest.param("*3", sym("*3"), id="history-3"),
    pytest.param("data/x", sym("x", "data"), id="qualified-data"),
    pytest.param("tool/list-orders", sym("list-orders", "tool"), id="qualified-tool"),
    pytest.param("tool/a.b", sym("a.b", "tool"), id="qualified-tool-dotted"),
    pytest.param("str/join", sym("join", "str"), id="qualified-str"),
    pytest.param("clojure.string/join", sym("join", "clojure.string"), id="qualified-clj"),
    pytest.param("Math/abs", sym("abs", "Math"), id="qualified-math"),
    pytest.param("a/b/c", sym("b/c", "a"), id="split-first-slash"),
    pytest.param("clojure.core//", sym("/", "clojure.core"), id="qualified-slash"),
    pytest.param("a/", sym("a/"), id="trailing-slash-unsplit"),
    pytest.param("/a", sym("/a"), id="leading-slash-unsplit"),
    pytest.param("java.util.Date.", sym("java.util.Date."), id="constructor"),
    pytest.param(".indexOf", sym(".indexOf"), id="method"),
    pytest.param("'github", Quote("github"), id="quote"),
    pytest.param("'nil", Quote("nil"), id="quote-nil"),
    pytest.param("'-1", Quote("-1"), id="quote-minus-one"),
    pytest.param("'*1", Quote("*1"), id="quote-history"),
    pytest.param("'str/join", Quote("str/join"), id="quote-qualified"),
    pytest.param("#'limit", VarQuote(sym("limit")), id="var-quote"),
    pytest.param("#'data/x", VarQuote(sym("x", "data")), id="var-quote-qualified"),
    pytest.param('#"\\d+"', RegexForm("\\d+"), id="regex-keeps-d"),
    pytest.param('#"\\\\d"', RegexForm("\\d"), id="regex-double-backslash"),
    pytest.param('#"a\\nb"', RegexForm("a\nb"), id="regex-newline-escape"),
    pytest.param('#"\\""', RegexForm('"'), id="regex-quote"),
]


@pytest.mark.parametrize(("src", "want"), LITERALS)
def test_literal(src: str, want: Form) -> None:
    got = one(src)
    assert got == want
    assert type(got.value if isinstance(got, Const) else got) is type(
        want.value if isinstance(want, Const) else want
    )


def test_nan() -> None:
    got = one("##NaN")
    assert isinstance(got, Const) and isinstance(got.value, float) and math.isnan(got.value)


@pytest.mark.parametrize(
    ("src", "is_char"),
    [
        pytest.param("\\a", True, id="char"),
        pytest.param("\\space", True, id="named-char"),
        pytest.param('"a"', False, id="string"),
    ],
)
def test_is_char(src: str, is_char: bool) -> None:
    got = one(src)
    assert isinstance(got, Const) and got.is_char is is_char


def test_booleans_are_not_ints() -> None:
    assert one("true").value is True  # type: ignore[union-attr]
    assert type(one("1").value) is int  # type: ignore[union-attr]


# ---------------------------------------------------------------- collections

COLLECTIONS = [
    pytest.param("()", ListForm(()), id="empty-list"),
    pytest.param("(+ 1 2)", ListForm((sym("+"), Const(1), Const(2))), id="list"),
    pytest.param("[]", VectorForm(()), id="empty-vector"),
    pytest.param("[1 [2]]", VectorForm((Const(1), VectorForm((Const(2),)))), id="nested-vector"),
    pytest.param("{}", MapForm(()), id="empty-map"),
    pytest.param("{:a 1, :b 2}", MapForm((kw("a"), Const(1), kw("b"), Const(2))), id="map-commas"),
    pytest.param("#{}", SetForm(()), id="empty-set"),
    pytest.param("#{1 2}", SetForm((Const(1), Const(2))), id="set"),
    pytest.param("#(inc %)", ShortFn((sym("inc"), sym("%"))), id="short-fn"),
    pytest.param("#()", ShortFn(()), id="empty-short-fn"),
    pytest.param("#(f #{%})", ShortFn((sym("f"), SetForm((sym("%"),)))), id="set-in-short-fn"),
    pytest.param("(a,b)", ListForm((sym("a"), sym("b"))), id="comma-whitespace"),
    pytest.param("(a ; note )\n b)", ListForm((sym("a"), sym("b"))), id="comment"),
    pytest.param("(f\r\n\tx)", ListForm((sym("f"), sym("x"))), id="crlf-tab"),
    pytest.param('["a"b]', VectorForm((Const("a"), sym("b"))), id="string-then-symbol"),
    pytest.param("[\\a\\b]", VectorForm((Const("a"), Const("b"))), id="chars-backslash-ends"),
    pytest.param("[\\ab]", None, id="chars-need-boundary"),
]


@pytest.mark.parametrize(("src", "want"), COLLECTIONS)
def test_collection(src: str, want: Form | None) -> None:
    if want is None:
        with pytest.raises(ReadError):
            read(src)
    else:
        assert one(src) == want


DISCARDS = [
    pytest.param("#_ 1 2", (Const(2),), id="top-level"),
    pytest.param("#_1", (), id="only-discard"),
    pytest.param("[1 #_ 2 3]", (VectorForm((Const(1), Const(3))),), id="in-vector"),
    pytest.param("[1 #_ #_ 2 3 4]", (VectorForm((Const(1), Const(4))),), id="nested-two"),
    pytest.param("#_ #_ #_ a b c d", (sym("d"),), id="nested-three"),
    pytest.param("{:a 1 #_ :b}", (MapForm((kw("a"), Const(1))),), id="keeps-map-even"),
    pytest.param("(f #_(g (h)) x)", (ListForm((sym("f"), sym("x"))),), id="drops-whole-form"),
    pytest.param("[#_ #_ 1 2]", (VectorForm(()),), id="leaves-empty"),
]


@pytest.mark.parametrize(("src", "want"), DISCARDS)
def test_discard(src: str, want: tuple[Form, ...]) -> None:
    assert read(src) == want


# ---------------------------------------------------------------- spans

SPANS = [
    pytest.param("foo", [Span(1, 1, 1, 4)], id="symbol"),
    pytest.param("  42", [Span(1, 3, 1, 5)], id="int-indented"),
    pytest.param("a\n  :k", [Span(1, 1, 1, 2), Span(2, 3, 2, 5)], id="second-line"),
    pytest.param('"x\ny"', [Span(1, 1, 2, 3)], id="multiline-string"),
    pytest.param("(f\n x)", [Span(1, 1, 2, 4)], id="multiline-list"),
    pytest.param('é "é" x', [Span(1, 1, 1, 2)], id="code-points"),
    pytest.param('"é" x', [Span(1, 1, 1, 4), Span(1, 5, 1, 6)], id="code-point-columns"),
    pytest.param("#{1}", [Span(1, 1, 1, 5)], id="set"),
    pytest.param("#(x)", [Span(1, 1, 1, 5)], id="short-fn"),
    pytest.param("#'v", [Span(1, 1, 1, 4)], id="var-quote"),
    pytest.param("'q", [Span(1, 1, 1, 3)], id="quote"),
    pytest.param('#"r"', [Span(1, 1, 1, 5)], id="regex"),
    pytest.param("\\space", [Span(1, 1, 1, 7)], id="char"),
    pytest.param("a\r\nb", [Span(1, 1, 1, 2), Span(2, 1, 2, 2)], id="crlf"),
    pytest.param("; c\n#_ x y", [Span(2, 6, 2, 7)], id="after-comment-and-discard"),
]


@pytest.mark.parametrize(("src", "want"), SPANS)
def test_spans(src: str, want: list[Span]) -> None:
    if src.startswith("é "):
        with pytest.raises(ReadError):  # symbols are ASCII-only
            read(src)
        return
    assert [form.span for form in read(src)] == want


def test_nested_spans() -> None:
    (form,) = read("(let [x 1]\n  {:a x})")
    assert isinstance(form, ListForm)
    assert form.span == Span(1, 1, 2, 10)
    let, vec, m = form.items
    assert let.span == Span(1, 2, 1, 5)
    assert vec.span == Span(1, 6, 1, 11)
    assert isinstance(vec, VectorForm) and vec.items[1].span == Span(1, 9, 1, 10)
    assert m.span == Span(2, 3, 2, 9)
    assert isinstance(m, MapForm) and m.items[0].span == Span(2, 4, 2, 6)


def test_var_quote_symbol_span() -> None:
    form = one("#'abc")
    assert isinstance(form, VarQuote)
    assert form.symbol.span == Span(1, 3, 1, 6)


# ---------------------------------------------------------------- errors

ERRORS = [
    # delimiters
    pytest.param("(a", "unclosed list at line 1, column 1", 1, 1, id="unclosed-list"),
    pytest.param("[1 2", "unclosed vector at line 1, column 1", 1, 1, id="unclosed-vector"),
    pytest.param("{:a", "unclosed map at line 1, column 1", 1, 1, id="unclosed-map"),
    pytest.param("x #{", "unclosed set at line 1, column 3", 1, 3, id="unclosed-set"),
    pytest.param("#(", "unclosed anonymous function #() at line 1", 1, 1, id="unclosed-fn"),
    pytest.param(
        "(a\n  (b c)\n  [d", "unclosed vector at line 3, column 3", 3, 3, id="unclosed-innermost"
    ),
    pytest.param(
        "(a))",
        "unbalanced parentheses: 1 extra ')' (first at line 1, column 4)",
        1,
        4,
        id="surplus-paren",
    ),
    pytest.param(
        "(a)\n\n(b) )  ) c",
        "unbalanced parentheses: 2 extra ')' (first at line 3, column 5)",
        3,
        5,
        id="surplus-two",
    ),
    pytest.param("]", "unbalanced brackets: 1 extra ']'", 1, 1, id="surplus-bracket"),
    pytest.param(
        ") ]",
        "unbalanced delimiters: 2 extra closing delimiters (first ')'",
        1,
        1,
        id="surplus-mixed",
    ),
    pytest.param(') "abc', "unclosed string at line 1, column 3", 1, 3, id="later-hard-error-wins"),
    pytest.param(") (", "unclosed list at line 1, column 3", 1, 3, id="later-unclosed-wins"),
    pytest.param(
        "(a]",
        "syntax error: unexpected ']' at line 1, column 3, expected ')' to "
        "close the list at line 1, column 1",
        1,
        3,
        id="mismatched",
    ),
    pytest.param(
        "[(a])", "unexpected ']' at line 1, column 4, expected ')'", 1, 4, id="mismatched-nested"
    ),
    pytest.param(
        "(#_)",
        "syntax error: unexpected ')' at line 1, column 4, expected a form",
        1,
        4,
        id="discard-without-form",
    ),
    pytest.param(
        "x #_",
        "unexpected end of input at line 1, column 5, expected a form",
        1,
        5,
        id="discard-at-end",
    ),
    pytest.param(
        "{:a 1 :b}", "Map literal requires even number of forms, got 3", 1, 1, id="odd-map"
    ),
    pytest.param(
        "[{:a}]", "Map literal requires even number of forms, got 1", 1, 2, id="odd-map-nested"
    ),
    pytest.param(
        "#(map #(inc %) %)",
        "Nested #() anonymous functions are not allowed",
        1,
        7,
        id="nested-short-fn",
    ),
    pytest.param(
        "#(f [#(g)])",
        "Nested #() anonymous functions are not allowed",
        1,
        6,
        id="nested-short-fn-deep",
    ),
    # strings and characters
    pytest.param('(str "abc', "unclosed string at line 1, column 6", 1, 6, id="unclosed-string"),
    pytest.param('"a\\\nb"', "unclosed string at line 1, column 1", 1, 1, id="backslash-newline"),
    pytest.param('"a\\', "unclosed string at line 1, column 1", 1, 1, id="backslash-eof"),
    pytest.param('#"ab', "unclosed regex literal at line 1, column 1", 1, 1, id="unclosed-regex"),
    pytest.param("\\", "character literal", 1, 1, id="backslash-at-eof"),
    pytest.param(
        "\\spaces",
        "invalid character literal \\spaces at line 1, column 1",
        1,
        1,
        id="char-name-needs-boundary",
    ),
    pytest.param("\\ab", "invalid character literal \\ab", 1, 1, id="char-two-letters"),
    pytest.param("\\u004", "invalid character literal \\u004", 1, 1, id="char-unicode-short"),
    pytest.param("\\u00411", "invalid character literal \\u00411", 1, 1, id="char-unicode-long"),
    pytest.param("\\ud800", "invalid character literal \\ud800", 1, 1, id="char-surrogate"),
    pytest.param("\\o400", "invalid character literal \\o400", 1, 1, id="char-octal-above-377"),
    pytest.param("\\o8", "invalid character literal \\o8", 1, 1, id="char-octal-bad-digit"),
    pytest.param(r'"\ud800"', "invalid unicode escape", 1, 1, id="string-lone-high-surrogate"),
    pytest.param(r'"\udc00x"', "invalid unicode escape", 1, 1, id="string-lone-low-surrogate"),
    pytest.param(r'"\ud83dx\ude00"', "invalid unicode escape", 1, 1, id="string-split-pair"),
    # numbers
    pytest.param("1" * 101, "integer literal exceeds 100 digit limit", 1, 1, id="int-101-digits"),
    pytest.param("1/3", "unsupported number literal 1/3", 1, 1, id="ratio"),
    pytest.param("1.5M", "unsupported number literal 1.5M", 1, 1, id="bigdecimal"),
    pytest.param("7N", "unsupported number literal 7N", 1, 1, id="bigint"),
    pytest.param("0xFF", "unsupported number literal 0xFF", 1, 1, id="hex"),
    pytest.param("2r101", "unsupported number literal 2r101", 1, 1, id="radix"),
    pytest.param("010", "unsupported number literal 010", 1, 1, id="octal"),
    pytest.param("1.", "unsupported number literal 1.", 1, 1, id="trailing-dot"),
    pytest.param(".5", "unsupported number literal .5", 1, 1, id="leading-dot"),
    pytest.param("-.5", "unsupported number literal -.5", 1, 1, id="minus-leading-dot"),
    pytest.param(
        "(+ 1 1a)", "invalid number literal 1a at line 1, column 6", 1, 6, id="number-letter"
    ),
    pytest.param("-1x", "invalid number literal -1x", 1, 1, id="minus-number-letter"),
    pytest.param("1e", "invalid number literal 1e", 1, 1, id="bare-exponent"),
    # keywords and symbols
    pytest.param(":a/b", "namespaced keywords are not supported", 1, 1, id="ns-keyword"),
    pytest.param("::x", "namespaced keywords are not supported", 1, 1, id="auto-keyword"),
    pytest.param(":", "could not parse keyword", 1, 1, id="bare-colon"),
    pytest.param(":a.b", "could not parse keyword :a.b", 1, 1, id="dotted-keyword"),
    pytest.param(":é", "could not parse keyword", 1, 1, id="non-ascii-keyword"),
    pytest.param(
        "héllo",
        "invalid symbol héllo at line 1, column 1: symbols are ASCII-only",
        1,
        1,
        id="non-ascii-symbol",
    ),
    pytest.param("a:b", "invalid symbol a:b", 1, 1, id="colon-in-symbol"),
    pytest.param("a#b", "invalid symbol a#b", 1, 1, id="hash-in-symbol"),
    # rejected syntax (target §3.9)
    pytest.param(
        "@x",
        "deref syntax (@var) is not supported. Atoms and refs are not available",
        1,
        1,
        id="deref",
    ),
    pytest.param("(f @a)", "deref syntax", 1, 4, id="deref-inside"),
    pytest.param(
        "^:private x", "could not parse expression at line 1, column 1", 1, 1, id="metadata"
    ),
    pytest.param("^{:a 1} x", "metadata (^) is not supported", 1, 1, id="metadata-map"),
    pytest.param("`x", "could not parse expression at line 1, column 1", 1, 1, id="syntax-quote"),
    pytest.param("(~x)", "could not parse expression at line 1, column 2", 1, 2, id="unquote"),
    pytest.param("~@xs", "unquote", 1, 1, id="unquote-splicing"),
    pytest.param('#inst "2024"', "could not parse expression at line 1, column 1", 1, 1, id="inst"),
    pytest.param('#uuid "x"', "tagged literals like #uuid are not supported", 1, 1, id="uuid"),
    pytest.param(
        "#?(:clj 1)", "reader conditionals (#?) are not supported", 1, 1, id="reader-conditional"
    ),
    pytest.param("#?@(:clj [1])", "reader conditionals", 1, 1, id="reader-conditional-splice"),
    pytest.param("##Infinity", "unknown symbolic value ##Infinity", 1, 1, id="bad-special"),
    pytest.param("#[1]", "unknown dispatch syntax", 1, 1, id="bad-dispatch"),
    pytest.param("'(1 2)", "quoted collections are not supported", 1, 1, id="quoted-list"),
    pytest.param("'[a]", "only quoted symbols like 'github are allowed", 1, 1, id="quoted-vector"),
    pytest.param("'{:a 1}", "quoted collections are not supported", 1, 1, id="quoted-map"),
    pytest.param("':a", "only quoted symbols like 'github are allowed", 1, 1, id="quoted-keyword"),
    pytest.param("'1", "only quoted symbols", 1, 1, id="quoted-number"),
    pytest.param("#'nil", "#' must be followed by a symbol", 1, 1, id="var-quote-nil"),
    pytest.param("#'1", "#' must be followed by a symbol", 1, 1, id="var-quote-number"),
    # whitespace and junk
    pytest.param("(a\fb)", "unexpected character U+000C at line 1, column 3", 1, 3, id="form-feed"),
    pytest.param("a\u00a0b", "U+00A0 (no-break space) at line 1, column 2", 1, 2, id="nbsp"),
    pytest.param("\u3000", "U+3000", 1, 1, id="ideographic-space"),
    pytest.param("x\x00", "unexpected character U+0000 at line 1, column 2", 1, 2, id="nul"),
    pytest.param("\n\n   \x07", "at line 3, column 4", 3, 4, id="bell-position"),
]


@pytest.mark.parametrize(("src", "message", "line", "column"), ERRORS)
def test_error(src: str, message: str, line: int, column: int) -> None:
    with pytest.raises(ReadError) as info:
        read(src)
    err = info.value
    assert err.code == "parse_error"
    assert message in err.message
    assert (err.line, err.column) == (line, column)


@pytest.mark.parametrize(
    ("src", "hint"),
    [
        pytest.param('"a\\\nb"', "backslash", id="backslash-newline-hint"),
        pytest.param('"abc', None, id="plain-unclosed"),
    ],
)
def test_unclosed_string_hint(src: str, hint: str | None) -> None:
    with pytest.raises(ReadError) as info:
        read(src)
    assert (info.value.hint is None) if hint is None else (hint in (info.value.hint or ""))


# ---------------------------------------------------------------- limits

DEPTH_OK = "(" * 64 + ")" * 64


def test_nesting_64_is_fine() -> None:
    assert isinstance(one(DEPTH_OK), ListForm)
    assert isinstance(one("[" * 32 + "{:a " * 31 + "1" + "}" * 31 + "]" * 32), VectorForm)


@pytest.mark.parametrize(
    ("src", "column"),
    [
        pytest.param("(" * 65 + ")" * 65, 65, id="depth-65"),
        pytest.param("(" * 100_000 + ")" * 100_000, 65, id="depth-100k"),
        pytest.param("[" * 100_000, 65, id="depth-100k-unclosed"),
        pytest.param(" " + "#{" * 70, 2 + 64 * 2, id="depth-sets"),
    ],
)
def test_nesting_limit(src: str, column: int) -> None:
    with pytest.raises(ReadError) as info:
        read(src)
    assert info.value.code == "parse_error"
    assert "nesting deeper than 64 levels" in info.value.message
    assert (info.value.line, info.value.column) == (1, column)


@pytest.mark.parametrize(
    ("src", "code"),
    [
        pytest.param("1" * 10_000, "parse_error", id="int-10k-digits"),
        pytest.param("-" + "1" * 5000, "parse_error", id="negative-int-5k-digits"),
        pytest.param('"' + "a" * (1 << 20) + '"', "program_too_large", id="string-1mb"),
        pytest.param("(" * (1 << 20), "program_too_large", id="parens-1mb"),
        pytest.param("é" * 500_001, "program_too_large", id="bytes-not-chars"),
        pytest.param(")" * 900_000, "parse_error", id="closers-900k"),
        pytest.param('"' + "\\a" * 400_000, "parse_error", id="backslashes-unclosed"),
        pytest.param("#" * 900_000, "parse_error", id="hashes"),
    ],
)
def test_limits(src: str, code: str) -> None:
    clock = Clock()
    with pytest.raises(ReadError) as info:
        read(src)
    assert info.value.code == code
    assert_prompt(clock, 2.0)  # CPU: linear in the input, whatever the load
    assert len(info.value.message) <= 512


def test_big_string_under_limit_reads() -> None:
    assert one('"' + "a" * 900_000 + '"') == Const("a" * 900_000)


def test_symbol_limit() -> None:
    names = " ".join(f"s{i}" for i in range(10_000))
    assert len(read(names)) == 10_000
    with pytest.raises(ReadError) as info:
        read(names + " :k")
    assert info.value.code == "symbol_limit_exceeded"
    assert info.value.line == 1


def test_symbol_limit_counts_repeats_once() -> None:
    assert len(read("(a b :a) " * 5_000)) == 5_000


def _junk(seed: int) -> str:
    rnd = random.Random(seed)
    kind = seed % 3
    if kind == 0:
        return bytes(rnd.randrange(256) for _ in range(rnd.randint(0, 300))).decode("latin-1")
    if kind == 1:
        alphabet = "()[]{}#_'\"\\;:,@^`~ \n\t-+.019axz/%&*?!<>=é\u00a0\x00\x0c"
        return "".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 60)))
    source = list(PROGRAM)
    for _ in range(rnd.randint(1, 5)):
        source.insert(rnd.randrange(len(source)), chr(rnd.randrange(0x80)))
    return "".join(source)


@pytest.mark.parametrize("seed", range(300))
def test_junk_is_a_clean_read_error(seed: int) -> None:
    src = _junk(seed)
    try:
        read(src)
    except ReadError as err:
        assert err.code == "parse_error"
        assert "Token(" not in err.message and "Tree(" not in err.message
        assert err.line is not None and err.column is not None


def test_lone_surrogate_is_a_clean_error() -> None:
    with pytest.raises(ReadError):
        read("a\ud800b")


# ---------------------------------------------------------------- a realistic program

PROGRAM = """\
;; Summarise open orders per customer and flag the big spenders.
(def threshold 500)

(defn order-total [order]
  (->> (:items order)
       (map (fn [{:keys [price qty]}] (* price qty)))
       (reduce + 0)))

(defn summarise [orders]
  (let [open-orders (filter #(= (:status %) "open") orders)
        by-customer (group-by :customer-id open-orders)]
    (for [[customer-id os] by-customer
          :let [total (reduce + (map order-total os))]
          :when (pos? total)]
      {:customer customer-id
       :orders (count os)
       :total total
       :big? (> total threshold)})))

(let [resp (tool/list-orders {:since "2024-01-01" :limit 100})
      orders (get resp :orders [])
      rows (summarise orders)
      big (filter :big? rows)]
  (println "customers:" (count rows) "big spenders:" (count big))
  (doseq [{:keys [customer total]} (sort-by :total > big)]
    (println (str/join " " [customer (format "%.2f" (double total))])))
  (if (empty? big)
    (fail {:reason "no big spenders" :checked (count rows)})
    (return {:big (mapv :customer big)
             :share (/ (count big) (max 1 (count rows)))})))
"""


def L(*items: Form) -> ListForm:
    return ListForm(items)


def V(*items: Form) -> VectorForm:
    return VectorForm(items)


def M(*items: Form) -> MapForm:
    return MapForm(items)


def s(name: str) -> Symbol:
    ns, _, rest = name.partition("/")
    return Symbol(rest, ns) if rest else Symbol(name)


def c(value: bool | int | float | str | None) -> Const:
    return Const(value)


def k(name: str) -> KeywordForm:
    return KeywordForm(name)


EXPECTED_PROGRAM = (
    L(s("def"), s("threshold"), c(500)),
    L(s("defn"), s("order-total"), V(s("order")),
      L(s("->>"), L(k("items"), s("order")),
        L(s("map"), L(s("fn"), V(M(k("keys"), V(s("price"), s("qty")))),
                      L(s("*"), s("price"), s("qty")))),
        L(s("reduce"), s("+"), c(0)))),
    L(s("defn"), s("summarise"), V(s("orders")),
      L(s("let"), V(s("open-orders"),
                    L(s("filter"), ShortFn((s("="), L(k("status"), s("%")), c("open"))),
                      s("orders")),
                    s("by-customer"), L(s("group-by"), k("customer-id"), s("open-orders"))),
        L(s("for"), V(V(s("customer-id"), s("os")), s("by-customer"),
                      k("let"), V(s("total"), L(s("reduce"), s("+"),
                                                L(s("map"), s("order-total"), s("os")))),
                      k("when"), L(s("pos?"), s("total"))),
          M(k("customer"), s("customer-id"),
            k("orders"), L(s("count"), s("os")),
            k("total"), s("total"),
            k("big?"), L(s(">"), s("total"), s("threshold")))))),
    L(s("let"), V(s("resp"), L(s("tool/list-orders"), M(k("since"), c("2024-01-01"),
                                                       k("limit"), c(100))),
                  s("orders"), L(s("get"), s("resp"), k("orders"), V()),
                  s("rows"), L(s("summarise"), s("orders")),
                  s("big"), L(s("filter"), k("big?"), s("rows"))),
      L(s("println"), c("customers:"), L(s("count"), s("rows")), c("big spenders:"),
        L(s("count"), s("big"))),
      L(s("doseq"), V(M(k("keys"), V(s("customer"), s("total"))),
                      L(s("sort-by"), k("total"), s(">"), s("big"))),
        L(s("println"), L(s("str/join"), c(" "),
                          V(s("customer"), L(s("format"), c("%.2f"),
                                             L(s("double"), s("total"))))))),
      L(s("if"), L(s("empty?"), s("big")),
        L(s("fail"), M(k("reason"), c("no big spenders"), k("checked"),
                       L(s("count"), s("rows")))),
        L(s("return"), M(k("big"), L(s("mapv"), k("customer"), s("big")),
                         k("share"), L(s("/"), L(s("count"), s("big")),
                                       L(s("max"), c(1), L(s("count"), s("rows")))))))),
)  # fmt: skip


def test_program_round_trips_to_forms() -> None:
    forms = read(PROGRAM)
    assert forms == EXPECTED_PROGRAM
    assert [form.span.line for form in forms] == [2, 4, 9, 20]
    assert forms[-1].span == Span(20, 1, 30, 61)
    let = forms[-1]
    assert isinstance(let, ListForm) and isinstance(let.items[1], VectorForm)
    tool_call = let.items[1].items[1]
    assert isinstance(tool_call, ListForm)
    assert tool_call.items[0] == Symbol("list-orders", "tool")
    assert tool_call.items[0].span == Span(20, 13, 20, 29)


def test_program_reads_fast() -> None:
    read(PROGRAM)
    times = []
    for _ in range(50):
        start = time.perf_counter()
        read(PROGRAM)
        times.append(time.perf_counter() - start)
    # Measured about 1.2 ms on the development machine; generous bound for slow CI.
    assert statistics.median(times) < 0.015
