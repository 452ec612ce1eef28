"""Collection literals, the duplicate-key check, and form text for messages."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING

from ptc_compiler import ir
from ptc_compiler.analyzer.scope import Ctx, error
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
    Symbol,
    VarQuote,
    VectorForm,
)

if TYPE_CHECKING:
    from ptc_compiler.analyzer.core import Analyzer

_SHOW_LIMIT = 40


def form_key(form: Form) -> Hashable:
    """A structural key: equal for forms that are written the same (spans ignored).

    Unlike form equality it keeps `true`, `1` and `1.0` apart, and it makes every
    `#"..."` and `#(...)` occurrence distinct. Collections compare as
    Clojure's reader compares them: maps and sets regardless of order, a list form equal
    to the vector form with the same items.
    """
    t = type(form)
    if t is KeywordForm:
        return form.name  # type: ignore[union-attr]
    if t is Const:
        value = form.value  # type: ignore[union-attr]
        return (type(value), value)
    if t is Symbol:
        return (t, form.text)  # type: ignore[union-attr]
    if t is ListForm or t is VectorForm:
        # one tag for both: Clojure's reader compares `(1 2)` and `[1 2]` as equal
        return (VectorForm, tuple([form_key(f) for f in form.items]))  # type: ignore[union-attr]
    if t is MapForm:
        # order-insensitive: `{:a 1 :b 2}` and `{:b 2 :a 1}` are one key
        items = form.items  # type: ignore[union-attr]
        pairs = zip(items[0::2], items[1::2], strict=False)
        return (t, frozenset([(form_key(k), form_key(v)) for k, v in pairs]))
    if t is SetForm:
        return (t, frozenset([form_key(f) for f in form.items]))  # type: ignore[union-attr]
    if t is Quote:
        return (t, form.text)  # type: ignore[union-attr]
    if t is VarQuote:
        return (t, form.symbol.text)  # type: ignore[union-attr]
    return (t, id(form))


def check_duplicates(forms: Sequence[Form], what: str) -> None:
    """Reject two structurally equal forms (`duplicate_key`), pointing at the second."""
    if len(forms) < 2:
        return
    seen: set[Hashable] = set()
    for f in forms:
        k = form_key(f)
        if k in seen:
            raise error(
                "duplicate_key",
                f"Duplicate {what}: {show(f)}",
                f.span,
                hint=f"each {what} may appear only once in a literal",
            )
        seen.add(k)


def map_lit(an: Analyzer, form: MapForm, ctx: Ctx) -> ir.Node:
    items = form.items
    keys = items[0::2]
    check_duplicates(keys, "key in map literal")
    expr = an.expr
    pairs = tuple([(expr(k, ctx), expr(v, ctx)) for k, v in zip(keys, items[1::2], strict=False)])
    return ir.MapLit(pairs, form.span)


def set_lit(an: Analyzer, form: SetForm, ctx: Ctx) -> ir.Node:
    check_duplicates(form.items, "element in set literal")
    return ir.SetLit(tuple([an.expr(f, ctx) for f in form.items]), form.span)


def _const_text(value: object) -> str:
    if value is None:
        return "nil"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, float):
        if value != value:
            return "##NaN"
        if value in (float("inf"), float("-inf")):
            return "##Inf" if value > 0 else "##-Inf"
    return str(value)


def show(form: Form) -> str:
    """Short source-like text of a form for messages (cut to a bounded length)."""
    text = _show(form)
    return text if len(text) <= _SHOW_LIMIT else text[: _SHOW_LIMIT - 3] + "..."


def _show(form: Form) -> str:
    t = type(form)
    if t is Const:
        return _const_text(form.value)  # type: ignore[union-attr]
    if t is KeywordForm:
        return ":" + form.name  # type: ignore[union-attr]
    if t is Symbol:
        return form.text  # type: ignore[union-attr]
    if t is Quote:
        return "'" + form.text  # type: ignore[union-attr]
    if t is VarQuote:
        return "#'" + form.symbol.text  # type: ignore[union-attr]
    if t is RegexForm:
        return '#"' + form.source + '"'  # type: ignore[union-attr]
    inner = " ".join(_show(f) for f in form.items[:8])  # type: ignore[union-attr]
    if len(form.items) > 8:  # type: ignore[union-attr]
        inner += " ..."
    if t is VectorForm:
        return f"[{inner}]"
    if t is MapForm:
        return "{" + inner + "}"
    if t is SetForm:
        return "#{" + inner + "}"
    if t is ShortFn:
        return f"#({inner})"
    return f"({inner})"


def describe(form: Form) -> str:
    """ "string \\"abc\\"", "number 5": the kind and text of a literal form."""
    t = type(form)
    if t is Const:
        value = form.value  # type: ignore[union-attr]
        if value is None:
            kind = "nil"
        elif isinstance(value, bool):
            kind = "boolean"
        elif isinstance(value, str):
            kind = "string"
        else:
            kind = "number"
    elif t is KeywordForm:
        kind = "keyword"
    elif t is VectorForm:
        kind = "vector"
    elif t is SetForm:
        kind = "set"
    elif t is MapForm:
        kind = "map"
    elif t is RegexForm:
        kind = "regex"
    elif t is Quote:
        kind = "symbol"
    else:
        kind = "form"
    return f"{kind} {show(form)}"
