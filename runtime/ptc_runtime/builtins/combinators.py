"""Function combinators: `apply comp partial complement constantly every-pred some-fn
fnil juxt`.

Every function argument may be any PTC callable (`as_fn`: fns, builtins, keywords,
sets, maps) and is checked when the combinator is built, so `(comp nil)` fails where it
is written. The functions built here print as `#function[<combinator>]`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from ptc_runtime.builtins.registry import BuiltinSpec, declare, wrong_count
from ptc_runtime.collections import as_fn, seq_items

DECLS: list[BuiltinSpec] = []

F = TypeVar("F", bound=Callable[..., object])


def _named(name: str, fn: F) -> F:
    fn.__dict__["ptc_name"] = name
    return fn


@declare(
    DECLS,
    "apply",
    variadic_min=2,
    doc="Call f with the leading args followed by the items of the last coll.",
)
def apply(f: object, arg: object, *more: object) -> object:
    fn = as_fn(f, "apply")
    if not more:
        return fn(*seq_items(arg, "apply"))
    return fn(arg, *more[:-1], *seq_items(more[-1], "apply"))


@declare(DECLS, "comp", variadic_min=0, doc="Right-to-left composition; (comp) is identity.")
def comp(*fs: object) -> Callable[..., object]:
    fns = [as_fn(f, "comp") for f in reversed(fs)]
    if not fns:
        return _named("identity", lambda x: x)
    if len(fns) == 1:
        return fns[0]
    first, rest = fns[0], fns[1:]

    def composed(*args: object) -> object:
        v = first(*args)
        for g in rest:
            v = g(v)
        return v

    return _named("comp", composed)


@declare(DECLS, "partial", variadic_min=1, doc="f with the given leading arguments fixed.")
def partial(f: object, *fixed: object) -> Callable[..., object]:
    fn = as_fn(f, "partial")
    if not fixed:
        return fn

    def partially(*args: object) -> object:
        return fn(*fixed, *args)

    return _named("partial", partially)


@declare(DECLS, "complement", arities=(1,), doc="A function returning the negated truth of f.")
def complement(f: object) -> Callable[..., bool]:
    fn = as_fn(f, "complement")

    def negated(*args: object) -> bool:
        v = fn(*args)
        return v is None or v is False

    return _named("complement", negated)


@declare(DECLS, "constantly", arities=(1,), doc="A function that ignores its arguments, returns x.")
def constantly(x: object) -> Callable[..., object]:
    def constant(*_args: object) -> object:
        return x

    return _named("constantly", constant)


@declare(
    DECLS,
    "every-pred",
    variadic_min=1,
    doc="A predicate: true when every pred holds for every argument.",
)
def every_pred(p: object, *ps: object) -> Callable[..., bool]:
    preds = [as_fn(q, "every-pred") for q in (p, *ps)]

    def every(*args: object) -> bool:
        for q in preds:
            for a in args:
                v = q(a)
                if v is None or v is False:
                    return False
        return True

    return _named("every-pred", every)


@declare(
    DECLS,
    "some-fn",
    variadic_min=1,
    doc="A function returning the first truthy (f x) over its fns and arguments, else nil.",
)
def some_fn(f: object, *fs: object) -> Callable[..., object]:
    fns = [as_fn(g, "some-fn") for g in (f, *fs)]

    def some(*args: object) -> object:
        last: object = None
        for g in fns:
            for a in args:
                last = g(a)
                if last is not None and last is not False:
                    return last
        return last

    return _named("some-fn", some)


@declare(
    DECLS,
    "fnil",
    arities=(2, 3, 4),
    doc="f with nil first (second, third) arguments replaced by the given defaults.",
)
def fnil(f: object, *defaults: object) -> Callable[..., object]:
    n = len(defaults)
    if n > 3:  # `*defaults` takes any count; the registry says 2, 3 or 4 arguments
        raise wrong_count("fnil", n + 1, "2 or 3 or 4")
    fn = as_fn(f, "fnil")

    def patched(*args: object) -> object:
        if not args:
            return fn()
        fixed: list[Any] = list(args)
        for i in range(min(n, len(fixed))):
            if fixed[i] is None:
                fixed[i] = defaults[i]
        return fn(*fixed)

    return _named("fnil", patched)


@declare(
    DECLS,
    "juxt",
    variadic_min=1,
    doc="A function returning the vector of each f applied to the arguments.",
)
def juxt(f: object, *fs: object) -> Callable[..., list[object]]:
    fns = [as_fn(g, "juxt") for g in (f, *fs)]

    def juxtaposed(*args: object) -> list[object]:
        return [g(*args) for g in fns]

    return _named("juxt", juxtaposed)
