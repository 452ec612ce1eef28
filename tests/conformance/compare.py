"""Structural comparison of a Clojure result (read by `edn`) with a PTC value.

Both sides are turned into a *canonical form*, a hashable tree, and the trees are compared
with ``==``. The rule, precisely:

* ``nil``, booleans, strings and keywords compare by kind and content. A Clojure character
  equals the one-character string (decision 25). A boolean never equals a number.
* Numbers compare by value, ignoring integer/float (decision 4): ``1``, ``1.0`` and ``1N``
  are one value. Floats compare exactly (no tolerance), except that ``##NaN`` equals
  ``##NaN`` here (both sides agreeing on NaN is agreement). Ratios never occur in PTC;
  the EDN reader turns one into the float quotient.
* Lists, vectors and (lazy) sequences are all *sequential* and compare element-wise in order.
* Maps compare as unordered sets of (key, value) pairs; sets as unordered sets of elements,
  both under this same rule. Map/set printing order is never compared.
* A Clojure symbol equals a PTC symbol reference of the same name; a var ``#'user/x``
  equals ``#'x``; a regex compares by pattern source. Anything else (functions, Java
  objects) is opaque: it only equals another opaque value of the same description,
  so a program must not return one.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence

import edn

from ptc_compiler import RunResult, pr_str
from ptc_runtime.collections import PSet, from_key
from ptc_runtime.regexp import Regex
from ptc_runtime.values import Keyword, SymbolRef, VarRef

Canon = Hashable


def _num(x: int | float) -> Canon:
    if isinstance(x, float):
        if math.isnan(x):
            return ("nan",)
        if math.isfinite(x) and x.is_integer():
            return ("num", int(x))
    return ("num", x)


def canon_edn(v: object) -> Canon:
    """Canonical form of a value read from Clojure's output."""
    if v is None or v is True or v is False:
        return ("atom", v)
    if isinstance(v, int | float):
        return _num(v)
    if isinstance(v, str):
        return ("str", v)
    if isinstance(v, edn.Char):
        return ("str", v.c)
    if isinstance(v, edn.Kw):
        return ("kw", v.name)
    if isinstance(v, edn.Sym):
        return ("sym", v.name)
    if isinstance(v, list):
        return ("seq", tuple(canon_edn(x) for x in v))
    if isinstance(v, edn.EdnMap):
        return ("map", frozenset((canon_edn(k), canon_edn(x)) for k, x in v.pairs))
    if isinstance(v, edn.EdnSet):
        return ("set", frozenset(canon_edn(x) for x in v.items))
    if isinstance(v, edn.Re):
        return ("re", v.source)
    if isinstance(v, edn.Var):
        return ("var", v.name)
    if isinstance(v, edn.Tagged):
        return ("opaque", v.tag)
    raise TypeError(f"unexpected EDN value {v!r}")


def canon_ptc(v: object) -> Canon:
    """Canonical form of a value our runtime returned."""
    if v is None or v is True or v is False:
        return ("atom", v)
    if isinstance(v, int | float):
        return _num(v)
    if isinstance(v, str):
        return ("str", v)
    if isinstance(v, Keyword):
        return ("kw", v.name)
    if isinstance(v, SymbolRef):
        return ("sym", v.name)
    if isinstance(v, VarRef):
        return ("var", v.name)
    if isinstance(v, Regex):
        return ("re", v.source)
    if isinstance(v, PSet):
        return ("set", frozenset(canon_ptc(x) for x in v))
    if isinstance(v, Mapping):
        return ("map", frozenset((canon_ptc(from_key(k)), canon_ptc(x)) for k, x in v.items()))
    if isinstance(v, Sequence):
        return ("seq", tuple(canon_ptc(x) for x in v))
    return ("opaque", "object")


def describe_ours(result: RunResult) -> str:
    """Our result as a line of a disagreement report: the value as PTC prints it (and what
    the program printed), or the error's code and message."""
    if result.ok:
        text = pr_str(result.value)
        return text if not result.output else f"{text}   (printed {result.output!r})"
    err = result.error
    assert err is not None
    return f"error {err.code}: {err.message}"


def same(clojure_value: object, ptc_value: object) -> bool:
    """True when the Clojure result and our value agree under the rule above."""
    return canon_edn(clojure_value) == canon_ptc(ptc_value)
