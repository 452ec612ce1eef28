"""Bitwise builtins on arbitrary-precision integers: `bit-and` ... `bit-test`.

Shift counts and bit indexes must be non-negative integers (a type error otherwise,
never Java's masking). Results that would exceed `MAX_BITS` fail with
`memory_exceeded` before Python allocates them.
"""

from __future__ import annotations

from typing import Final

from ptc_runtime.builtins.registry import BuiltinSpec, declare, wrong_count
from ptc_runtime.collections import kind_name
from ptc_runtime.errors import PtcError

DECLS: list[BuiltinSpec] = []

#: Largest integer, in bits, a shift or bit operation may build.
MAX_BITS: Final = 1_000_000


def _int(who: str, x: object) -> int:
    if type(x) is int:
        return x
    raise PtcError("type_error", f"{who}: expected an integer, got {kind_name(x)}")


def _index(who: str, n: object) -> int:
    i = _int(who, n)
    if i < 0:
        raise PtcError("type_error", f"{who}: bit index must be non-negative, got {i}")
    if i > MAX_BITS:
        raise PtcError("memory_exceeded", f"{who}: bit index above the limit of {MAX_BITS}")
    return i


def _ints(who: str, xs: tuple[object, ...]) -> list[int]:
    if len(xs) < 2:  # Clojure's least count too; reached through apply or a fn value
        raise wrong_count(who, len(xs), "2 or more")
    return [_int(who, x) for x in xs]


@declare(DECLS, "bit-and", variadic_min=2, doc="Bitwise and of the integers.")
def bit_and(*xs: object) -> int:
    vals = _ints("bit-and", xs)
    acc = vals[0]
    for v in vals[1:]:
        acc &= v
    return acc


@declare(DECLS, "bit-or", variadic_min=2, doc="Bitwise or of the integers.")
def bit_or(*xs: object) -> int:
    vals = _ints("bit-or", xs)
    acc = vals[0]
    for v in vals[1:]:
        acc |= v
    return acc


@declare(DECLS, "bit-xor", variadic_min=2, doc="Bitwise exclusive or of the integers.")
def bit_xor(*xs: object) -> int:
    vals = _ints("bit-xor", xs)
    acc = vals[0]
    for v in vals[1:]:
        acc ^= v
    return acc


@declare(DECLS, "bit-and-not", variadic_min=2, doc="x and-not each following integer.")
def bit_and_not(*xs: object) -> int:
    vals = _ints("bit-and-not", xs)
    acc = vals[0]
    for v in vals[1:]:
        acc &= ~v
    return acc


@declare(DECLS, "bit-not", arities=(1,), doc="Two's-complement complement of x.")
def bit_not(x: object) -> int:
    return ~_int("bit-not", x)


@declare(DECLS, "bit-shift-left", arities=(2,), doc="x shifted left by n bits (no masking).")
def bit_shift_left(x: object, n: object) -> int:
    v = _int("bit-shift-left", x)
    k = _index("bit-shift-left", n)
    if v and v.bit_length() + k > MAX_BITS:
        raise PtcError("memory_exceeded", f"bit-shift-left: result above {MAX_BITS} bits")
    return v << k


@declare(DECLS, "bit-shift-right", arities=(2,), doc="x shifted right by n bits (arithmetic).")
def bit_shift_right(x: object, n: object) -> int:
    return _int("bit-shift-right", x) >> _index("bit-shift-right", n)


@declare(DECLS, "bit-set", arities=(2,), doc="x with bit n set.")
def bit_set(x: object, n: object) -> int:
    return _int("bit-set", x) | (1 << _index("bit-set", n))


@declare(DECLS, "bit-clear", arities=(2,), doc="x with bit n cleared.")
def bit_clear(x: object, n: object) -> int:
    return _int("bit-clear", x) & ~(1 << _index("bit-clear", n))


@declare(DECLS, "bit-flip", arities=(2,), doc="x with bit n flipped.")
def bit_flip(x: object, n: object) -> int:
    return _int("bit-flip", x) ^ (1 << _index("bit-flip", n))


@declare(DECLS, "bit-test", arities=(2,), doc="True if bit n of x is set.")
def bit_test(x: object, n: object) -> bool:
    return bool((_int("bit-test", x) >> _index("bit-test", n)) & 1)
