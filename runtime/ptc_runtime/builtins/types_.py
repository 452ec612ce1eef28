"""Shape predicates, `type`, and the numeric predicates not in `predicates`.

Every predicate answers for every value and never raises.
Characters are one-code-point strings. There are no ratios,
decimals, symbols, sorted collections or map-entry objects, so those predicates are
constant `false`.
"""

from __future__ import annotations

import math
from typing import Final

from ptc_runtime.builtins.registry import BuiltinSpec, declare
from ptc_runtime.collections import EqKey, is_coll, is_map, is_set, is_vector
from ptc_runtime.regexp import Regex
from ptc_runtime.values import Keyword, SymbolRef, VarRef, keyword

DECLS: list[BuiltinSpec] = []


def is_java_object(x: object) -> bool:
    """True for the values of the Java surface (dates, instants, durations)."""
    return getattr(type(x), "java_class", None) is not None


def is_function(x: object) -> bool:
    """True for closures, builtins and Java callables: not keywords, maps, sets or data."""
    t = type(x)
    if t is Keyword or t is Regex or t is SymbolRef or t is VarRef or t is EqKey:
        return False
    if is_coll(x) or is_java_object(x):
        return False
    return callable(x)


def _const_false(name: str, doc: str) -> None:
    def always_false(x: object) -> bool:
        return False

    declare(DECLS, name, arities=(1,), doc=doc)(always_false)


_const_false("decimal?", "Always false: there are no decimals.")
_const_false("ratio?", "Always false: there are no ratios.")
_const_false("symbol?", "Always false: quoted symbols are inert references.")
_const_false("sorted?", "Always false: there are no sorted collections.")
_const_false("map-entry?", "Always false: map entries are plain 2-vectors.")


@declare(DECLS, "rational?", arities=(1,), doc="True if x is an integer (there are no ratios).")
def is_rational(x: object) -> bool:
    return type(x) is int


@declare(DECLS, "char?", arities=(1,), doc="True if x is a one-character string.")
def is_char(x: object) -> bool:
    return type(x) is str and len(x) == 1


@declare(DECLS, "ifn?", arities=(1,), doc="True if x is callable: fn, keyword, map, set, vector.")
def is_ifn(x: object) -> bool:
    return type(x) is Keyword or is_map(x) or is_set(x) or is_vector(x) or is_function(x)


@declare(DECLS, "sequential?", arities=(1,), doc="True if x is a vector.")
def is_sequential(x: object) -> bool:
    return is_vector(x)


@declare(DECLS, "seq?", arities=(1,), doc="True if x is a vector (there are no lists).")
def is_seq(x: object) -> bool:
    return is_vector(x)


@declare(DECLS, "associative?", arities=(1,), doc="True if x is a vector or a map.")
def is_associative(x: object) -> bool:
    return is_vector(x) or is_map(x)


@declare(DECLS, "counted?", arities=(1,), doc="True if x is a vector, map, set or string.")
def is_counted(x: object) -> bool:
    return is_coll(x) or type(x) is str


@declare(DECLS, "indexed?", arities=(1,), doc="True if x is a vector or a string.")
def is_indexed(x: object) -> bool:
    return is_vector(x) or type(x) is str


@declare(DECLS, "reversible?", arities=(1,), doc="True if x is a vector or a string.")
def is_reversible(x: object) -> bool:
    return is_vector(x) or type(x) is str


@declare(DECLS, "seqable?", arities=(1,), doc="True if x is a collection, a string or nil.")
def is_seqable(x: object) -> bool:
    return x is None or is_coll(x) or type(x) is str


@declare(DECLS, "pos-int?", arities=(1,), doc="True if x is an integer greater than zero.")
def is_pos_int(x: object) -> bool:
    return type(x) is int and x > 0


@declare(DECLS, "neg-int?", arities=(1,), doc="True if x is an integer less than zero.")
def is_neg_int(x: object) -> bool:
    return type(x) is int and x < 0


@declare(DECLS, "nat-int?", arities=(1,), doc="True if x is an integer >= 0.")
def is_nat_int(x: object) -> bool:
    return type(x) is int and x >= 0


@declare(DECLS, "infinite?", arities=(1,), doc="True if x is ##Inf or ##-Inf.")
def is_infinite(x: object) -> bool:
    return type(x) is float and math.isinf(x)


@declare(DECLS, "NaN?", arities=(1,), doc="True if x is ##NaN.")
def is_nan(x: object) -> bool:
    return type(x) is float and x != x


_TYPES: Final = {
    bool: keyword("boolean"),
    int: keyword("number"),
    float: keyword("number"),
    str: keyword("string"),
    Keyword: keyword("keyword"),
    Regex: keyword("regex"),
}


def type_keyword(x: object) -> Keyword | None:
    """The `type` of `x`: a keyword such as `:number`, or None for nil."""
    if x is None:
        return None
    found = _TYPES.get(type(x))
    if found is not None:
        return found
    if is_vector(x):
        return keyword("vector")
    if is_map(x):
        return keyword("map")
    if is_set(x):
        return keyword("set")
    if is_java_object(x):
        return keyword("java_object")
    if is_function(x):
        return keyword("function")
    return keyword("unknown")


@declare(
    DECLS,
    "type",
    arities=(1,),
    doc="Kind keyword of x (:number :string :map :vector :set :keyword ...); nil for nil.",
)
def type_(x: object) -> Keyword | None:
    return type_keyword(x)
