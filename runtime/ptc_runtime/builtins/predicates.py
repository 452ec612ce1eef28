"""Logic and predicates: `not identity boolean`, type/shape and numeric predicates.

Predicates never raise on an unexpected kind: `(pos? nil)` is false,
except `empty?`, which needs a collection or string.
"""

from __future__ import annotations

from ptc_runtime.builtins.registry import BuiltinSpec, declare
from ptc_runtime.collections import EqKey, PMap, PSet, PVec, kind_name
from ptc_runtime.errors import PtcError
from ptc_runtime.values import Keyword

DECLS: list[BuiltinSpec] = []


@declare(DECLS, "not", arities=(1,), doc="True if x is nil or false.")
def not_(x: object) -> bool:
    return x is None or x is False


@declare(DECLS, "identity", arities=(1,), doc="Returns x.")
def identity(x: object) -> object:
    return x


@declare(DECLS, "boolean", arities=(1,), doc="False for nil and false, true for anything else.")
def boolean(x: object) -> bool:
    return x is not None and x is not False


@declare(DECLS, "nil?", arities=(1,), doc="True if x is nil.")
def is_nil(x: object) -> bool:
    return x is None


@declare(DECLS, "some?", arities=(1,), doc="True if x is not nil.")
def is_some(x: object) -> bool:
    return x is not None


@declare(DECLS, "true?", arities=(1,), doc="True if x is exactly true.")
def is_true(x: object) -> bool:
    return x is True


@declare(DECLS, "false?", arities=(1,), doc="True if x is exactly false.")
def is_false(x: object) -> bool:
    return x is False


@declare(DECLS, "boolean?", arities=(1,), doc="True if x is true or false.")
def is_boolean(x: object) -> bool:
    return type(x) is bool


@declare(DECLS, "number?", arities=(1,), doc="True if x is an integer or a float (incl. ##NaN).")
def is_number(x: object) -> bool:
    t = type(x)
    return t is int or t is float


@declare(DECLS, "int?", arities=(1,), doc="True if x is an integer.")
def is_int(x: object) -> bool:
    return type(x) is int


@declare(DECLS, "integer?", arities=(1,), doc="True if x is an integer.")
def is_integer(x: object) -> bool:
    return type(x) is int


@declare(DECLS, "float?", arities=(1,), doc="True if x is a float.")
def is_float(x: object) -> bool:
    return type(x) is float


@declare(DECLS, "double?", arities=(1,), doc="True if x is a float.")
def is_double(x: object) -> bool:
    return type(x) is float


@declare(DECLS, "string?", arities=(1,), doc="True if x is a string.")
def is_string(x: object) -> bool:
    return type(x) is str


@declare(DECLS, "keyword?", arities=(1,), doc="True if x is a keyword.")
def is_keyword(x: object) -> bool:
    return type(x) is Keyword


@declare(DECLS, "vector?", arities=(1,), doc="True if x is a vector.")
def is_vector(x: object) -> bool:
    t = type(x)
    return t is list or t is PVec


@declare(DECLS, "map?", arities=(1,), doc="True if x is a map.")
def is_map(x: object) -> bool:
    t = type(x)
    return t is dict or t is PMap


@declare(DECLS, "set?", arities=(1,), groups=("core", "set"), doc="True if x is a set.")
def is_set(x: object) -> bool:
    return type(x) is PSet


@declare(DECLS, "fn?", arities=(1,), doc="True if x is a function (not a keyword, map or set).")
def is_fn(x: object) -> bool:
    t = type(x)
    if t is Keyword or t is PSet or t is EqKey or isinstance(x, type):
        return False
    return callable(x) and kind_name(x) == "function"


@declare(DECLS, "coll?", arities=(1,), doc="True if x is a vector, map or set.")
def is_coll(x: object) -> bool:
    t = type(x)
    return t is list or t is dict or t is PVec or t is PMap or t is PSet


@declare(DECLS, "zero?", arities=(1,), doc="True if x is a number equal to zero.")
def is_zero(x: object) -> bool:
    t = type(x)
    return (t is int or t is float) and x == 0


@declare(DECLS, "pos?", arities=(1,), doc="True if x is a number greater than zero.")
def is_pos(x: object) -> bool:
    t = type(x)
    return (t is int or t is float) and x > 0  # type: ignore[operator]


@declare(DECLS, "neg?", arities=(1,), doc="True if x is a number less than zero.")
def is_neg(x: object) -> bool:
    t = type(x)
    return (t is int or t is float) and x < 0  # type: ignore[operator]


def _whole(x: object) -> int | None:
    t = type(x)
    if t is int:
        return x  # type: ignore[return-value]
    if t is float and x.is_integer():  # type: ignore[attr-defined]
        return int(x)  # type: ignore[call-overload, no-any-return]
    return None


@declare(DECLS, "even?", arities=(1,), doc="True if x is an even whole number.")
def is_even(x: object) -> bool:
    n = _whole(x)
    return n is not None and n % 2 == 0


@declare(DECLS, "odd?", arities=(1,), doc="True if x is an odd whole number.")
def is_odd(x: object) -> bool:
    n = _whole(x)
    return n is not None and n % 2 == 1


@declare(DECLS, "empty?", arities=(1,), doc="True for nil and an empty collection or string.")
def is_empty(x: object) -> bool:
    if x is None:
        return True
    t = type(x)
    if t is list or t is dict or t is str or t is PVec or t is PMap or t is PSet:
        return len(x) == 0  # type: ignore[arg-type]
    raise PtcError("type_error", f"empty?: expected a collection or string, got {kind_name(x)}")
