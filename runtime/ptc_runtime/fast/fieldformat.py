"""`(map (fn [x] (str "id-" (:a x) "," (:b x))) coll)` in one call (`rt_map_str_fields`).

The lowering turns a collecting loop (`map`/`mapv` with a literal one-parameter fn, a
one-binding `for`) whose body is a `str` of string literals and keyword reads of the
element (`(:k x)`, `(get x :k)`) into this helper:
the literals are a `%` format, as `rules_operators.str_format` makes it, and every
element's text is made in a comprehension (an f-string of the format's literal pieces
and the fields) instead of the interpreter's loop, a keyword getter and a `str_formatN`
call per element.

The text is `str`'s: a part that Python's `str` prints as `str` does (a string of at
most `_SHORT` characters, an int, a float where `repr` is Java's text:
`strings_core.str_format`'s test) or nil (`""`) is formatted at once; a part needing
more (a boolean, a keyword, a collection, a long string, another float) makes the
comprehension stop (`_Odd`), and that stretch of elements is done one element at a time
by `strings_core.str_format` itself. An int over the interpreter's digit limit makes
Python's `str` raise `ValueError` and is done the same way; when a host lifted that limit
(or raised it far), ints could make a text over `str`'s bound, so every element goes
through `str_format`.

Steps: one per element from the same fuel chunks, as the loop takes them
(`fieldfilter.fuel_parts` pulls the same way). The texts of the elements whose steps are
in the chunk are made first, then those steps are pulled: reading fields and formatting
such parts cannot fail and has no effects, so doing it before the pull is invisible (a
parallel worker may take some of the steps meanwhile: only the texts of the steps pulled
are kept). An element done one at a time pulls its step first, then makes its text, so a
`str` error comes with the loop's step count; it is stamped with the position of the
`str` call (`line`, `column`), where the loop raises it. An empty chunk refills exactly
where the loop would, charging the element's step. The chunk is the calling module's
`FUEL` as it is now (see `fieldfilter`); the caller rebinds `FUEL` to the one handed back.

Record lists (`ptc_runtime.records`) are read by the string spelling (`r['k']`; a
record without the field sends the rest of the call to `r.get('k', r.get('k_alt'))`,
the `_` spelling of a name with `-` next, as a flexible read of a record finds it);
other collections as `rt.kfield` reads for names without `-` (a dict's keyword, then its
string spelling, anything else through `lookup.get_flexible`), and as `rt.kfield_dash`
reads (the loop's `rt_kdash`: four dict probes) when a name has `-`.

`rt_map_str_fields_ds` is the same for an element destructured by a map pattern
(`(fn [{:keys [a b]}] (str a "," b))`): each element is checked as the pattern checks it
(`destructure.check_map`, its error stamped with the pattern's position) before its
text is made. A record list's maps all pass; elsewhere a stretch is done at once only
when all its elements are exact dicts.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from functools import lru_cache, partial
from itertools import islice, repeat
from operator import countOf, length_hint
from typing import Any, Final

from ptc_runtime import context
from ptc_runtime.builtins.strings_core import (
    _SHORT,
    MAX_PRINT_CHARS,
    _literal_pieces,
    str_format,
)
from ptc_runtime.collections import seq_items
from ptc_runtime.destructure import check_map, get_key
from ptc_runtime.errors import PtcError
from ptc_runtime.fast.unrolled import Cases, define
from ptc_runtime.lookup import get_flexible
from ptc_runtime.records import is_records
from ptc_runtime.values import Keyword, keyword

_REPEAT: Final = type(repeat(None, 0))
#: A chunk's steps left (`itertools.repeat`'s own length method, as `context` reads it).
_left: Final = _REPEAT.__length_hint__
#: `dict.get` (a dict's keyword, then its string spelling, as `rt.kfield` reads it), typed
#: for the comprehensions (whose tests narrow what they give).
_dget: Final[Callable[..., Any]] = dict.get
_MISSING: Final = object()
_DICTS: Final = {dict}


class _Flexible:
    """No element's type: `_TEXTS` then reads every element through `_kdash`."""


def _kdash(m: object, k: object, name: str, alt_kw: object, alt: str) -> Any:
    # `rt.kfield_dash` (rt imports this module): on a dict the exact key, then the
    # spellings `lookup.find_key` tries after it, in its order (for a name without `-`,
    # `alt_kw`/`alt` are `k`/`name` again); anything else read flexibly
    if type(m) is dict:
        v = m.get(k, _MISSING)
        if v is _MISSING:
            return m.get(name, m.get(alt_kw, m.get(alt)))
        return v
    return get_flexible(m, k)


class _Odd(Exception):
    """A part `%s` does not print as `str` does: the stretch goes element by element."""


def _blank(x: object) -> str:
    # nil prints as nothing; anything else that failed the inline test is odd
    if x is None:
        return ""
    raise _Odd


def map_str_fields(
    coll: object,
    fmt: str,
    line: int,
    column: int,
    fuel: context.Fuel,
    credit: context.Credit,
    *keys: Keyword,
) -> tuple[context.Fuel, list[str]]:
    """The vector `(map (fn [x] (str ...)) coll)` gives, where the `str` is `fmt` (its
    literals, `%` doubled, and `%s` for each field read in order) with the fields `keys`
    of each element, and the fuel chunk to continue with (see the module docstring)."""
    module = sys._getframe(1).f_globals
    if module.get("FUEL") is not fuel:  # a direct call: the chunk is kept here
        module = {"FUEL": fuel}
    return _map_texts(coll, fmt, (line, column), None, module, credit, keys)


def map_str_fields_ds(
    coll: object,
    fmt: str,
    line: int,
    column: int,
    pattern_line: int,
    pattern_column: int,
    fuel: context.Fuel,
    credit: context.Credit,
    *keys: Keyword,
) -> tuple[context.Fuel, list[str]]:
    """`map_str_fields` where each element is first destructured by a map pattern
    `{:keys [...]}` (`(fn [{:keys [a b]}] (str a "," b))`): `destructure.check_map`
    (a map or nil, else its error at the pattern's position), then the reads of
    `destructure.get_key`, which on a dict are `rt.kfield`'s."""
    module = sys._getframe(1).f_globals
    if module.get("FUEL") is not fuel:  # a direct call: the chunk is kept here
        module = {"FUEL": fuel}
    pattern = (pattern_line, pattern_column)
    return _map_texts(coll, fmt, (line, column), pattern, module, credit, keys)


def _map_texts(
    coll: object,
    fmt: str,
    at: tuple[int, int],
    pattern: tuple[int, int] | None,
    module: dict[str, Any],
    credit: context.Credit,
    keys: tuple[Keyword, ...],
) -> tuple[context.Fuel, list[str]]:
    items: Sequence[Any] = seq_items(coll, "for")
    # a long format is not kept (the caches would hold up to 256 of them)
    if len(fmt) <= 1024:
        pieces, names, plain, alts = _shape(fmt, keys)
    else:
        pieces, names, plain, alts = _fields_shape(_literal_pieces.__wrapped__(fmt), keys)
    fast: Texts | None = None
    records = is_records(items)
    if _ints_fit(fmt, len(keys)):
        if records:
            fast = _RECORD_TEXTS[len(keys)]
        else:
            fast = _TEXTS[len(keys)]
            if type(items) is not list:  # slicing a vector per stretch would copy it
                items = list(items)
    # a pattern's check passes every map of a record list; elsewhere only a stretch of
    # exact dicts (whose reads `_TEXTS` makes as `get_key` does) is done at once
    checked = pattern is not None and not records
    out: list[str] = []
    n = len(items)
    i = 0
    while i < n:
        fuel = module["FUEL"]  # the chunk now: a parallel worker may have refilled it
        left = _left(fuel) if type(fuel) is _REPEAT else length_hint(fuel)
        stop = i + 1
        if left and fast is not None:
            j = i + left if left < n - i else n
            part = items[i:j] if i or j < n else items
            try:
                if checked and set(map(type, part)) != _DICTS:
                    raise _Odd
                texts = fast(part, pieces, keys, names, plain, alts)
            except KeyError:  # a record without a field: the rest by `get` (nil if absent)
                fast = _RECORD_GETS[len(keys)]
                continue
            except (_Odd, ValueError):  # ValueError: an int over the digit limit
                stop = j
            else:
                m = countOf(islice(fuel, j - i), None)
                out += texts if m == j - i else texts[:m]
                i += m
                continue
        while i < stop:  # one element at a time: its step, then its text
            fuel = module["FUEL"]
            if not countOf(islice(fuel, 1), None):  # the loop's pull found it empty
                module["FUEL"] = context.current().refill(fuel, credit)
            x = items[i]
            try:
                if pattern is None:
                    parts = [get_flexible(x, k) for k in keys]
                else:
                    try:
                        x = check_map(x)
                    except PtcError as err:  # where the loop raises it: at the pattern
                        err.at(*pattern)
                        raise
                    parts = [get_key(x, k) for k in keys]
                out.append(str_format(fmt, *parts))
            except PtcError as err:  # where the loop raises it: at the `str` call
                err.at(*at)
                raise
            i += 1
    return module["FUEL"], out


@lru_cache(maxsize=256)
def _shape(fmt: str, keys: tuple[Keyword, ...]) -> tuple[Pieces, Names, type, Alts]:
    """`_fields_shape` of the text around each `%s` of `fmt`, made once per format and
    keywords."""
    return _fields_shape(_literal_pieces(fmt), keys)


def _fields_shape(pieces: Pieces, keys: tuple[Keyword, ...]) -> tuple[Pieces, Names, type, Alts]:
    """What a call needs besides its elements: the format's `pieces`, the keywords'
    names, the type whose reads are `rt.kfield`'s two probes (`dict`; with a name with `-`
    none, `_Flexible`: every read of a stretch is then `_kdash`, the loop's `rt_kdash`),
    and each name's `_` spelling as a keyword and a string."""
    names = tuple(k.name for k in keys)
    plain: type = dict if all("-" not in name for name in names) else _Flexible
    alts = tuple(x for n in names for x in (keyword(n.replace("-", "_")), n.replace("-", "_")))
    return pieces, names, plain, alts


def _ints_fit(fmt: str, parts: int) -> bool:
    """True when no text of `parts` fast parts can exceed `str`'s bound: strings have at
    most `_SHORT` characters, ints at most the interpreter's digit limit (if it is on)."""
    digits = sys.get_int_max_str_digits()
    return 0 < digits and len(fmt) + parts * max(digits + 1, _SHORT) <= MAX_PRINT_CHARS


# The comprehensions, one per number of fields: an f-string of the literal pieces and
# the fields (`%` with a constant format compiles to the same; with the format in a
# variable it parses it per element and packs a tuple, measured 15 % slower), each
# field's test inline as in `strings_core.str_format1`..`4`. Record lists: the string
# spelling is the only key a keyword read can find (a subscript: 3 % faster than `get`).
# Anything else: `rt.kfield`'s read.

Pieces = tuple[str, ...]
Keys = tuple[Any, ...]
Names = tuple[str, ...]
# The texts of a stretch of elements: (elements, the format's literal pieces, the
# keywords, their names, the type of the elements read by two probes (`dict`, or
# `_Flexible` when a name has `-`), and each keyword's `_` spelling as a keyword and a
# name, for `_kdash`).
Alts = tuple[Any, ...]
#: The texts of a stretch (see above).
Texts = Callable[[Any, Pieces, Keys, Names, type, Alts], list[str]]

#: The most fields a `str` may read for `rt_map_str_fields` (the compiler asks).
MAX_FIELDS: Final = 4

# Each family's comprehensions are made from one template (`unrolled`: a loop taking
# the number of fields as an argument is slower than one with them inline). The
# template's text is this module's own: nothing from a program reaches `compile`.
# A field's letter `a`..`d` names its name (and `ka` its keyword, `ja`/`aa` its `_`
# spelling as a keyword and a string); its value is `x`, `y`, `z`, `w`.
_LETTERS: Final = "abcd"
_VALUES: Final = "xyzw"
#: A field's part of the f-string: its value `v`, read by `read`, where Python's `str`
#: prints it as `str` does (see `_blank`).
_PART: Final = """{{
            {v} if ((t := type({v} := {read})) is str and len({v}) <= _SHORT) or t is int
            or (t is float and (1e-3 <= {v} < 1e7 or -1e7 < {v} <= -1e-3 or {v} == 0))
            else _blank({v})
        !s}}"""
#: Per family: each unpacked argument with the names it binds per field, and a field's
#: read of the element `r`.
_FAMILIES: Final = {
    # a record list: the string spelling by subscript
    "_records": ((("names", "{a}"),), "r[{a}]"),
    # a record list where some record lacks a field: by `get`, then its `_` spelling
    "_record_gets": ((("names", "{a}"), ("alts", "_j{a}, {a}{a}")), "r.get({a}, r.get({a}{a}))"),
    # anything else: `rt.kfield`'s two probes, or `_kdash` (a name with `-`, no dict)
    "_texts": (
        (("keys", "k{a}"), ("names", "{a}"), ("alts", "j{a}, {a}{a}")),
        """(
                _dget(r, k{a}, _dget(r, {a})) if type(r) is plain
                else _kdash(r, k{a}, {a}, j{a}, {a}{a})
            )""",
    ),
}


def _source(family: str, fields: int) -> str:
    """The text of `family`'s comprehension of `fields` fields (`_texts2`, ...)."""
    unpacks, read = _FAMILIES[family]
    letters = _LETTERS[:fields]
    lines = [
        f"def {family}{fields}(part, pieces, keys, names, plain, alts):",
        "    " + ", ".join(f"p{i}" for i in range(fields + 1)) + " = pieces",
    ]
    for arg, binds in unpacks:
        targets = ", ".join(binds.format(a=a) for a in letters)
        lines.append(f"    {targets}{',' if fields == 1 and ',' not in binds else ''} = {arg}")
    text = "".join(
        _PART.format(v=v, read=read.format(a=a)) + f"{{p{i + 1}}}"
        for i, (a, v) in enumerate(zip(letters, _VALUES[:fields], strict=True))
    )
    lines += ['    return [f"""{p0}' + text + '"""', "        for r in part", "    ]"]
    return "\n".join(lines) + "\n"


def _comprehension(family: str, fields: int) -> Texts:
    """`family`'s comprehension of `fields` fields (at 0 the one of 1, never called: the
    compiler asks for at least one field)."""
    fields = max(fields, 1)
    made: Texts = define(_source(family, fields), __name__, f"{family}{fields}", globals())
    return made


#: By number of fields (1 to `MAX_FIELDS`), each made on its first use.
_RECORD_TEXTS: Final[Cases[int, Texts]] = Cases(
    partial(_comprehension, "_records"), range(MAX_FIELDS + 1)
)
_RECORD_GETS: Final[Cases[int, Texts]] = Cases(
    partial(_comprehension, "_record_gets"), range(MAX_FIELDS + 1)
)
_TEXTS: Final[Cases[int, Texts]] = Cases(partial(_comprehension, "_texts"), range(MAX_FIELDS + 1))


HELPERS: Final[dict[str, Any]] = {
    "rt_map_str_fields": map_str_fields,
    "rt_map_str_fields_ds": map_str_fields_ds,
}
