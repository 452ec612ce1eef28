"""Builtin calls lowered to Python operators with exactly the builtin's semantics:
arithmetic, comparison and equality inline, same-type `+`/`-` in numeric code, and
`str` with literal parts as a format (`rt_str_formatN`).
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ptc_compiler import ir
from ptc_compiler.lower import scan
from ptc_compiler.lower.ctx import (
    call,
    helper,
    load,
    store,
)
from ptc_runtime.fastops import (
    STR_FORMAT_LITERAL,
    STR_FORMAT_PARTS,
    STR_FORMAT_UNROLLED,
)
from ptc_runtime.values import Keyword

if TYPE_CHECKING:
    from ptc_compiler.lower.emit import Emitter


def inline(
    e: Emitter, name: str, args: Sequence[ir.Node], exprs: list[ast.expr]
) -> ast.expr | None:
    """A Python operator with exactly the builtin's semantics, or None."""
    n = len(exprs)
    if name in ("=", "==", "not=") and n == 2:
        return inline_equality(name, args, exprs)
    numeric = e.cx.numeric
    if not all(scan.is_numeric(a, numeric) for a in args):
        return None
    if name in ARITH and n >= 2:
        return chain_binop(ARITH[name], exprs)
    if (name == "+" and n == 1) or (name == "*" and n == 1):
        return exprs[0]
    if name == "-" and n == 1:
        return ast.UnaryOp(ast.USub(), exprs[0])
    if name in ("inc", "dec") and n == 1:
        op: ast.operator = ast.Add() if name == "inc" else ast.Sub()
        return ast.BinOp(exprs[0], op, ast.Constant(1))
    # Python's `a < b < c` skips `c` once `a < b` is false; Clojure evaluates every argument
    # first, so `(< 2 1 (quot 1 0))` fails. A chain inlines only when the operands past the
    # second cannot fail nor do anything (`_inert`).
    chainable = n == 2 or all(_inert(x) for x in exprs[2:])
    if name in COMPARE and n >= 2 and chainable:
        return ast.Compare(exprs[0], [COMPARE[name]() for _ in exprs[1:]], exprs[1:])
    if name in ("=", "==") and n >= 2 and chainable:
        return ast.Compare(exprs[0], [ast.Eq() for _ in exprs[1:]], exprs[1:])
    if name in SIGN and n == 1:
        return ast.Compare(exprs[0], [SIGN[name]()], [ast.Constant(0)])
    return None


def _inert(x: ast.expr) -> bool:
    """A name, a literal, or `+`/`-` of such: on the proven numbers `inline` is given, its
    evaluation has no effect and cannot fail, so skipping it changes nothing."""
    if isinstance(x, (ast.Name, ast.Constant)):
        return True
    if isinstance(x, ast.BinOp) and isinstance(x.op, (ast.Add, ast.Sub)):
        return _inert(x.left) and _inert(x.right)
    if isinstance(x, ast.UnaryOp) and isinstance(x.op, ast.USub):
        return _inert(x.operand)
    return False


def same_type_arith(
    e: Emitter, op: type[ast.operator], fast: str, exprs: list[ast.expr]
) -> ast.expr:
    """`(+ a b)`/`(- a b)` with operands not proven numeric, in code that does arithmetic
    on known numbers (some local is numeric): the operator inline for two ints or two
    floats.

    `t1 + t2 if rt_type(t1 := a) is rt_type(t2 := b) is rt_int or rt_type(t1) is
    rt_type(t2) is rt_float else rt_add2(t1, t2)`: the operands run once each, left to
    right, inside the test; two ints or two floats add or subtract exactly as
    `rt_add2`/`rt_sub2` would (neither overflows nor fails), and every other pair
    (mixed, huge int and float, non-numbers) goes to the helper with its semantics and
    errors. The temporaries are compiler names (`check.finalize` admits `:=` only for
    those); a trivial operand (a name, a constant) is read again instead, and beside a
    number literal only the other operand's type is tested.
    """
    literal: type | None = None  # the type of a number literal operand
    tested: list[ast.expr] = []  # the other operands, as first evaluated
    used: list[ast.expr] = []
    again: list[ast.expr] = []
    for x in exprs:
        if isinstance(x, ast.Constant):
            literal = type(x.value)
            if literal is not int and literal is not float:  # never numbers: the helper
                return call(load(fast), exprs)
            used.append(ast.Constant(x.value))
            again.append(ast.Constant(x.value))
            continue
        name = x.id if isinstance(x, ast.Name) else e.cx.fresh()
        tested.append(x if isinstance(x, ast.Name) else ast.NamedExpr(store(name), x))
        used.append(load(name))
        again.append(load(name))
    if literal is not None:  # `rt_type(a) is rt_int` beside an int literal
        kind = load("rt_int" if literal is int else "rt_float")
        test: ast.expr = ast.Compare(call(load("rt_type"), tested), [ast.Is()], [kind])
    else:
        first, second = (call(load("rt_type"), [t]) for t in tested)
        ints = ast.Compare(first, [ast.Is(), ast.Is()], [second, load("rt_int")])
        types = [call(load("rt_type"), [load(u.id)]) for u in used]  # type: ignore[attr-defined]
        floats = ast.Compare(types[0], [ast.Is(), ast.Is()], [types[1], load("rt_float")])
        test = ast.BoolOp(ast.Or(), [ints, floats])
    return ast.IfExp(test, ast.BinOp(used[0], op(), used[1]), call(load(fast), again))


# `*` is not inlined even on numbers: an integer product is size-checked first
# (squaring in a loop would otherwise reach gigabyte integers); it goes to `rt_mul2`.
ARITH: dict[str, type[ast.operator]] = {"+": ast.Add, "-": ast.Sub}


COMPARE: dict[str, type[ast.cmpop]] = {"<": ast.Lt, ">": ast.Gt, "<=": ast.LtE, ">=": ast.GtE}


SIGN: dict[str, type[ast.cmpop]] = {"zero?": ast.Eq, "pos?": ast.Gt, "neg?": ast.Lt}


def chain_binop(op: type[ast.operator], exprs: list[ast.expr]) -> ast.expr:
    out = exprs[0]
    for e in exprs[1:]:
        out = ast.BinOp(out, op(), e)
    return out


def inline_equality(name: str, args: Sequence[ir.Node], exprs: list[ast.expr]) -> ast.expr | None:
    """`(= x :k)` and friends: identity or string equality when one side is such a literal.

    Safe because a keyword, nil or boolean equals only itself, and a string equals only
    an equal string (a keyword's `__eq__` is identity, so it never equals a `str`).
    """
    if isinstance(exprs[0], ast.Constant) and isinstance(exprs[1], ast.Constant):
        return None  # two literals: leave it to the builtin (and spare CPython's `is` warning)
    for i in (0, 1):
        a = args[i]
        if isinstance(a, ir.Const) and (
            a.value is None or type(a.value) is bool or isinstance(a.value, Keyword)
        ):
            if isinstance(exprs[1 - i], ast.Constant):
                # `0 is k1` (a keyword is a loaded name, not a Constant) makes CPython warn
                # at every compile, and a host running with warnings as errors would fail
                # the compile: a number or string literal against a keyword goes to the builtin
                return None
            op: ast.cmpop = ast.IsNot() if name == "not=" else ast.Is()
            return ast.Compare(exprs[1 - i], [op], [exprs[i]])
        if isinstance(a, ir.Const) and type(a.value) is str:
            op = ast.NotEq() if name == "not=" else ast.Eq()
            return ast.Compare(exprs[1 - i], [op], [exprs[i]])
    return None


def str_format(args: Sequence[ir.Node], exprs: list[ast.expr]) -> ast.expr | None:
    """`(str "id-" x ", " y)` as `rt_str_format2('id-%s, %s', x, y)`: the string literals go
    into a `%` format, so only the other parts are looked at per call (`strings_core.
    str_format`, the same text and errors as `str` of all the parts). Without literals,
    `(str x y)` to `(str w x y z)` as `rt_str_format2('%s%s', x, y)` ... and `(str x)` as
    `rt_str1(x)` (positional calls, cheaper than `b_str`'s); else None."""
    if len(args) == 1:
        a = args[0]
        return None if type(a) is ir.Const and type(a.value) is str else helper("str1", *exprs)
    if not 2 <= len(args) <= STR_FORMAT_PARTS:
        return None
    fmt: list[str] = []
    others: list[ast.expr] = []
    for a, e in zip(args, exprs, strict=True):
        if type(a) is ir.Const and type(a.value) is str and len(a.value) <= STR_FORMAT_LITERAL:
            fmt.append(a.value.replace("%", "%%"))
        else:
            fmt.append("%s")
            others.append(e)
    if not others:  # nothing but literals
        return None
    if len(others) == len(exprs) and (
        len(others) > STR_FORMAT_UNROLLED  # no literal: `b_str` is as fast with more parts
        or any(type(a) is ir.Const and type(a.value) is str for a in args)  # a long literal
    ):
        return None
    # up to `STR_FORMAT_UNROLLED` parts: a helper taking that many positional arguments
    name = f"str_format{len(others)}" if len(others) <= STR_FORMAT_UNROLLED else "str_format"
    return helper(name, ast.Constant("".join(fmt)), *others)
