"""The fast reader against the lark reader: same forms and spans, or it defers.

`read_fast` must never accept a source with a result different from the lark reader's
(`read_with_lark`, the grammar): for every input, either both produce identical forms —
compared with `==` and with a dump that includes every span, the type of every value and
`is_char` — or the fast path returns `None` and `read` gives the lark reader's answer.
Beyond that, the fast path is meant to handle every program the lark reader accepts, so
the tests also insist that it only defers on sources the lark reader rejects.

Inputs: hypothesis-generated programs (random nesting of every literal kind, qualified
symbols, keywords, strings with escapes, characters, regexes, #(), #{}, #_, quotes,
comments, commas and random separators, including no separator at all), the same
programs with random edits, and random junk over the reader's alphabet.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from importlib import resources
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ptc_compiler import fast_reader
from ptc_compiler.fast_reader import read_fast
from ptc_compiler.forms import Const, Form, ListForm, Span, VarQuote
from ptc_compiler.reader import MAX_DEPTH, MAX_INT_DIGITS, read, read_with_lark
from ptc_runtime.errors import ReadError
from tests.complexity import assert_linear


def fast(src: str) -> tuple[Form, ...] | None:
    return read_fast(src, MAX_DEPTH, MAX_INT_DIGITS)


def dump(forms: tuple[Form, ...]) -> list[tuple[Any, ...]]:
    """Every form in preorder with its type, span, scalar (as repr, so 1 != True != 1.0)."""
    out: list[tuple[Any, ...]] = []
    stack: list[Form] = list(reversed(forms))
    while stack:
        form = stack.pop()
        row: tuple[Any, ...] = (type(form).__name__, form.span)
        items = getattr(form, "items", None)
        if items is not None:
            row += (len(items),)
            stack.extend(reversed(items))
        elif isinstance(form, Const):
            row += (repr(form.value), type(form.value).__name__, form.is_char)
        elif isinstance(form, VarQuote):
            row += (form.symbol.name, form.symbol.ns, form.symbol.span)
        else:
            row += tuple(repr(getattr(form, name)) for name in form.__slots__ if name != "span")
        out.append(row)
    return out


def check(src: str) -> str:
    """Compare the readers on `src`; returns "same" (both accept) or "rejected"."""
    try:
        want = read_with_lark(src)
    except ReadError as err:
        # The fast path may defer or not; `read` must give exactly the lark error.
        with pytest.raises(ReadError) as info:
            read(src)
        assert (info.value.code, info.value.message, info.value.line, info.value.column) == (
            err.code,
            err.message,
            err.line,
            err.column,
        )
        return "rejected"
    got = fast(src)
    assert got is not None, f"fast path deferred on an accepted program: {src!r}"
    assert got == want
    assert dump(got) == dump(want), src
    assert dump(read(src)) == dump(want)
    return "same"


# ---------------------------------------------------------------- generators
#
# `valid` programs are well-formed by construction (apart from an occasional nested #()),
# `noisy` ones mix in near-misses: odd maps, dangling #_, bad numbers, keywords and
# characters, no separator between tokens, form feeds, unsupported syntax.

_LETTERS = "abcxyzABZ"
_SYM_REST = "abcxyzABZ019+-*/<>=?!_%.&'"

short_digits = st.text("0123456789", min_size=1, max_size=4)
valid_integer = st.builds(
    lambda sign, text: sign + text.lstrip("0") or "0",
    st.sampled_from(["", "-"]),
    short_digits | st.text("123456789", min_size=98, max_size=100),
)
any_integer = st.tuples(
    st.sampled_from(["", "-"]), short_digits | st.text("0123456789", min_size=99, max_size=102)
).map("".join)


def _float(exponents: list[str]) -> st.SearchStrategy[str]:
    return st.builds(
        lambda sign, whole, fraction, exponent: sign + whole + fraction + exponent,
        st.sampled_from(["", "-"]),
        st.text("0123456789", min_size=1, max_size=3),
        st.sampled_from([".5", ".25", ".0", ".000"]),
        st.sampled_from(exponents),
    ) | st.builds(
        lambda whole, exponent: whole + exponent,
        st.text("0123456789", min_size=1, max_size=3),
        st.sampled_from(["e3", "E-2", "e+10"]),
    )


valid_float = _float(["", "e3", "E-2", "e+10"])
any_float = _float(["", "e3", "e", "E+", "M", "."])
valid_symbol = st.builds(
    lambda first, rest: first + rest,
    st.sampled_from(list(_LETTERS + "+-*/<>=?!_%.&")),
    st.text(_SYM_REST, max_size=7),
).filter(lambda text: not re.match(r"-[0-9]|[-+]?\.[0-9]", text))  # not number-like
any_symbol = st.text(_SYM_REST, min_size=1, max_size=8)
words = st.sampled_from(
    [
        "nil", "true", "false", "nil?", "true-ish", "-", "->>", "/", "%", "%&", "&", "*1",
        "data/x", "tool/a.b", "clojure.string/join", "a/b/c", "clojure.core//", "a/", "/a",
        ".indexOf", "java.util.Date.", "inc'", "+5", "-x", "Math/abs", "str/join",
    ]
)  # fmt: skip
valid_keyword = st.text(_LETTERS + "019+-*<>=?!_", min_size=1, max_size=6).map(lambda t: ":" + t)
any_keyword = st.text(_LETTERS + "019+-*<>=?!_./:é", max_size=6).map(lambda t: ":" + t)
string_body = st.lists(
    st.sampled_from(
        ["a", "Z", " ", "é", "✓", "\\n", "\\t", "\\r", '\\"', "\\\\", "\\q", "\\u0041", "\n"]
    ),
    max_size=8,
).map("".join)
string = string_body.map(lambda body: f'"{body}"')
regex = string_body.map(lambda body: f'#"{body}"')
valid_char = st.sampled_from(
    [
        "\\a", "\\r", "\\n", "\\newline", "\\space", "\\tab", "\\return", "\\backspace",
        "\\formfeed", "\\(", "\\)", "\\\\", '\\"', "\\é", "\\;", "\\,", "\\{", "\\7",
    ]
)  # fmt: skip
special = st.sampled_from(["##Inf", "##-Inf", "##NaN"])
valid_quoted = st.one_of(
    valid_symbol, words, st.sampled_from(["-1", "-25", ".5", "+.5", "-.5", "*1"])
).map(lambda text: "'" + text)
valid_var_quote = (
    st.one_of(valid_symbol, words)
    .filter(lambda text: text not in ("nil", "true", "false"))
    .map(lambda text: "#'" + text)
)
near_misses = st.sampled_from(
    [
        "1/3", "7N", "1.5M", "0xFF", "2r101", "010", "1.", ".5", "-.5", "1a", "@x", "^x", "~x",
        "`x", "#inst", "#?(:clj 1)", "héllo", "a:b", "a#b", "\\ab", "\\spaces", "\\u0041",
        "##Infinity", "##nan", "#'nil", "#'1", "'(a)", "':a", '"a\\', "\\", "#", "a\ud800",
        "#(f #(g))", "{:a}", "#_", ")", "]", "(", "\f", "\u00a0", "\x00", ":", "::a",
    ]
)  # fmt: skip

valid_atom = st.one_of(
    valid_integer,
    valid_float,
    valid_symbol,
    words,
    valid_keyword,
    string,
    regex,
    valid_char,
    special,
    valid_quoted,
    valid_var_quote,
)
noisy_atom = st.one_of(
    valid_atom,
    any_integer,
    any_float,
    any_symbol,
    any_keyword,
    st.one_of(valid_symbol, words, any_integer, any_keyword).map(lambda text: "'" + text),
    st.one_of(valid_symbol, words, any_integer).map(lambda text: "#'" + text),
    near_misses,
)

valid_separator = st.sampled_from(
    [" ", " ", " ", "\n", ", ", "\t", "\r\n", " ; comment ) \n", ";;\n", "\n\n  ", ",,"]
)
any_separator = valid_separator | st.sampled_from(["", "", "\f", "\u00a0", ";"])

_CLOSERS = {"(": ")", "[": "]", "{": "}", "#{": "}", "#(": ")"}


def _join(parts: list[str], seps: list[str]) -> str:
    out = []
    for index, part in enumerate(parts):
        out.append(part)
        out.append(seps[index % len(seps)])
    return "".join(out)


def _forms(
    atom: st.SearchStrategy[str], separator: st.SearchStrategy[str], noisy: bool
) -> st.SearchStrategy[str]:
    """One form (in noisy mode: anything); a collection's items may carry `#_ ` prefixes."""

    def item(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        # A form, possibly preceded by discarded forms: `#_ a #_ b x` or `#_ #_ a b x`.
        dropped = st.lists(children, max_size=2)
        return st.builds(
            lambda drop, form, sep, chained: (
                ("#_ " * len(drop) + " ".join(drop) + sep if chained else "")
                + ("".join(f"#_ {d}{sep}" for d in drop) if not chained else "")
                + form
            ),
            dropped,
            children,
            separator,
            st.booleans(),
        )

    def collection(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        return st.builds(
            lambda opener, items, seps, discards: (
                (opener if noisy or opener != "#(" or "#(" not in "".join(items) else "(")
                + "#_ " * discards
                + _join(items if noisy or opener != "{" else items[: len(items) // 2 * 2], seps)
                + _CLOSERS[opener]
            ),
            st.sampled_from(["(", "(", "[", "{", "{", "#{", "#("]),
            st.lists(item(children) if noisy else st.one_of(children, item(children)), max_size=6),
            st.lists(separator, min_size=1, max_size=3),
            st.sampled_from([0, 0, 0, 0, 1, 2]) if noisy else st.just(0),
        )

    return st.recursive(atom, collection, max_leaves=30)


def _program(form: st.SearchStrategy[str], separator: st.SearchStrategy[str]) -> Any:
    return st.builds(
        lambda head, forms, seps: head + _join(forms, seps),
        separator | st.just(""),
        st.lists(form, max_size=6),
        st.lists(separator, min_size=1, max_size=4),
    )


valid_program = _program(_forms(valid_atom, valid_separator, False), valid_separator)
noisy_program = _program(_forms(noisy_atom, any_separator, True), any_separator)
program = valid_program | noisy_program


@st.composite
def edited(draw: st.DrawFn) -> str:
    """A generated program with a few characters inserted, deleted or replaced."""
    text = list(draw(program))
    for _ in range(draw(st.integers(1, 4))):
        pos = draw(st.integers(0, len(text)))
        op = draw(st.sampled_from(["insert", "delete", "replace"]))
        char = draw(st.sampled_from(list("()[]{}#_'\"\\;:, \n@^`~é\u00a0\x00-.1a/")))
        if op == "insert":
            text.insert(pos, char)
        elif text and pos < len(text):
            if op == "delete":
                del text[pos]
            else:
                text[pos] = char
    return "".join(text)


junk = st.text(
    st.sampled_from(list("()[]{}#_'\"\\;:,@^`~ \n\t\r-+.019axz/%&*?!<>=é\u00a0\x00\x0c"))
)


#: Multiplies every example count, e.g. PTC_READER_EXAMPLES=20 for a long soak.
_SCALE = int(os.environ.get("PTC_READER_EXAMPLES", "1"))


def examples(count: int) -> settings:
    return settings(
        max_examples=count * _SCALE,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    )


@examples(1000)
@given(program)
def test_generated_programs(src: str) -> None:
    check(src)


@examples(600)
@given(edited())
def test_edited_programs(src: str) -> None:
    check(src)


@examples(600)
@given(junk)
def test_junk(src: str) -> None:
    check(src)


@examples(300)
@given(st.text())
def test_any_text(src: str) -> None:
    check(src)


def test_generators_reach_both_outcomes() -> None:
    """Generated programs are mostly accepted, so the comparison is not vacuous."""
    outcomes: dict[tuple[str, str], int] = {}

    @examples(200)
    @given(st.sampled_from(["valid", "noisy"]), st.data())
    def run(kind: str, data: st.DataObject) -> None:
        src = data.draw(valid_program if kind == "valid" else noisy_program)
        outcome = (kind, check(src))
        outcomes[outcome] = outcomes.get(outcome, 0) + 1

    run()
    valid_same = outcomes.get(("valid", "same"), 0)
    assert valid_same > 10 * outcomes.get(("valid", "rejected"), 0), outcomes
    assert outcomes.get(("noisy", "same"), 0) > 0, outcomes
    assert outcomes.get(("noisy", "rejected"), 0) > 0, outcomes


# ---------------------------------------------------------------- hand-picked cases

CASES = [
    "", " ", "\n", ";; only a comment", "a\r\nb", "(f\n x)", '"x\ny" z', '"a\nb\nc"\n  (q)',
    '["a"b]', "[\\a\\b]", "\\(", "#_abc 1", "#_#_ a b c", "#'abc", "#'a/b", "'a(b)", "a'b",
    "#_ [#_ x] y", "{:a 1 #_ :b}", "#(f #{%})", "(" * 64 + ")" * 64, "1e3", "-0", "-0.0",
    "00", "0.5", "1" * 100, "1" * 101, "#'nil", "##NaN", "(a]", "(#_)", "x #_", ")",
    "{:a}", "#(#())", "a\ud800b", '"\ud800"', "é", '"é" x', "\\é y", ":a/b", "a:b",
    "nil?", "1.5x", "#_\n;c\nx", "(a ; c )\n b)", "x,y,,z", "'nil", "#'-1", "'-1",
    r'"\u00e9"', r'"\u00E9\n"', r'"\u00e"', r'"\ud83d\ude00"', r'"\ud83d"', r'"\ude00"',
    r'"\ud83d\u0041"', r'"\\u0041"', r"\u00e9", r"\u00e9x", r"\o101", r"\o400", r"\o8",
    r"\ud800", r"[\u0041 \o7 \u \o]", r'#"\u00e9"',
]  # fmt: skip


@pytest.mark.parametrize("src", CASES)
def test_cases(src: str) -> None:
    check(src)


def test_nan_is_the_same_object() -> None:
    (got,) = fast("##NaN") or ()
    (want,) = read_with_lark("##NaN")
    assert got == want


@pytest.mark.parametrize("name", ["THIRTY_LINES", "LOOP_SUM"])
def test_benchmark_programs_take_the_fast_path(name: str) -> None:
    from benchmarks import programs

    src = getattr(programs, name).replace("{n}", "10")
    assert fast(src) is not None
    check(src)


# ---------------------------------------------------------------- bounded


@pytest.mark.parametrize(
    "make",
    [
        pytest.param(lambda n: "(" * n + ")" * n, id="deep"),
        pytest.param(lambda n: "1" * (2 * n) + "x", id="long-bad-number"),
        pytest.param(lambda n: "1" * (2 * n), id="long-number"),
        pytest.param(lambda n: "#_" * (2 * n), id="discards"),
        pytest.param(lambda n: '"' + "\\a" * (2 * n), id="unclosed-string"),
        pytest.param(lambda n: "#" * (2 * n), id="hashes"),
        pytest.param(lambda n: ")" * (2 * n), id="closers"),
        pytest.param(lambda n: "(a " * 64 + "b" + ")" * 64 + " x" * (n // 2), id="wide"),
        pytest.param(lambda n: "[]" * n, id="many-empty"),
        pytest.param(lambda n: "a" * (2 * n) + "é", id="long-bad-symbol"),
    ],
)
def test_fast_path_is_linear(make: Callable[[int], str]) -> None:
    # Large enough that allocator and cache effects of small inputs do not dominate; the
    # deep case reaches MAX_DEPTH at the larger size, where the reader stops early.
    def job(n: int) -> Callable[[], object]:
        src = make(n)
        return lambda: fast(src)

    assert_linear(job, 50_000)


def test_large_program() -> None:
    from benchmarks.programs import THIRTY_LINES

    src = THIRTY_LINES * (100_000 // len(THIRTY_LINES) + 1)
    got = fast(src)
    assert got is not None
    assert dump(got) == dump(read_with_lark(src))


def test_depth_limit() -> None:
    assert fast("(" * MAX_DEPTH + ")" * MAX_DEPTH) is not None
    assert fast("(" * (MAX_DEPTH + 1) + ")" * (MAX_DEPTH + 1)) is None
    assert isinstance(read("[" * MAX_DEPTH + "]" * MAX_DEPTH)[0], type(read("[]")[0]))
    assert read("(" * MAX_DEPTH + ")" * MAX_DEPTH)[0].span == Span(1, 1, 1, 2 * MAX_DEPTH + 1)
    assert isinstance(read("()")[0], ListForm)


# ---------------------------------------------------------------- same terminals


def _grammar_definitions() -> dict[str, str]:
    text = resources.files("ptc_compiler").joinpath("grammar/ptc_lisp.lark").read_text("utf-8")
    return {
        m.group(1): m.group(2).strip()
        for m in re.finditer(r"^([A-Z_]+)(?:\.-?\d+)?: (.*)$", text, re.MULTILINE)
    }


def test_terminals_match_the_grammar() -> None:
    """The fast path spells the grammar's terminals the same; a grammar edit fails here."""
    fr = fast_reader
    expected = {
        "_BOUNDARY": f"/{fr._BOUNDARY}/",
        "_NOT_NUMBER": f"/{fr._NOT_NUMBER}/",
        "_SYM_FIRST": f"/{fr._SYM_FIRST}/",
        "_SYM_REST": f"/{fr._SYM_REST}/",
        "_STRING_BODY": f"/{fr._STRING_BODY}/",
        "NUMBER": f"/{fr._NUMBER_RE}/ _BOUNDARY",
        "SPECIAL_FLOAT": f"/{fr._SPECIAL_FLOAT_RE}/ _BOUNDARY",
        "CHAR": f"/{fr._CHAR_RE}/ _BOUNDARY",
        "KEYWORD": f"/{fr._KEYWORD_RE}/ _BOUNDARY",
        # Composed or spelled inline in fast_reader._TOKEN.
        "SYMBOL": "_NOT_NUMBER _SYM_FIRST _SYM_REST* _BOUNDARY",
        "QUOTED_SYMBOL": '"\'" _SYM_FIRST _SYM_REST* _BOUNDARY',
        "VAR_QUOTE": '"#\'" _NOT_NUMBER _SYM_FIRST _SYM_REST* _BOUNDARY',
        "STRING": '"\\"" _STRING_BODY "\\""',
        "REGEX": '"#\\"" _STRING_BODY "\\""          // same escapes as STRING',
        "_IGNORED": "/(?:[ \\t\\r\\n,]|;[^\\n]*)+/",
        "LPAR": '"("',
        "RPAR": '")"',
        "LBRACK": '"["',
        "RBRACK": '"]"',
        "LBRACE": '"{"',
        "RBRACE": '"}"',
        "HASH_LBRACE": '"#{"',
        "HASH_LPAR": '"#("',
        "DISCARD": '"#_"',
        # Whatever else is token-shaped: the catch-all, the lark reader decides.
        "BAD_TOKEN": "_TOKEN_CHAR+",
        "_TOKEN_CHAR": "/" + fr._BOUNDARY[3:-1] + "/",
    }
    assert _grammar_definitions() == expected


def test_fast_constructors_are_in_use() -> None:
    assert fast_reader._FAST
