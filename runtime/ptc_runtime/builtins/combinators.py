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
from ptc_runtime.errors import PtcError

DECLS: list[BuiltinSpec] = []

F = TypeVar("F", bound=Callable[..., object])


def _named(name: str, fn: F) -> F:
    fn.__dict__["ptc_name"] = name
    return fn


def _late_fn(f: object, who: str) -> Callable[..., Any]:
    """`f` as a callable for a combinator to call later.

    As in Clojure, building `(juxt 5 inc)` or `(comp nil f)` succeeds: a value that is not
    callable fails with `not_callable` when the built function calls it, not before
    (so `(-> x (juxt f g))`, which threads `x` in as the first function, builds a fn)."""
    try:
        return as_fn(f, who)
    except PtcError as exc:
        error = exc

    def not_callable(*_args: object) -> object:
        raise PtcError(error.code, error.message, hint=error.hint)

    return not_callable


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
    fns = [_late_fn(f, "comp") for f in reversed(fs)]
    if not fns:
        return _named("identity", lambda x: x)
    if len(fns) == 1:  # `(comp f)` is f itself, as in Clojure
        return fns[0] if callable(fs[0]) else fs[0]  # type: ignore[return-value]
    first, rest = fns[0], fns[1:]

    def composed(*args: object) -> object:
        v = first(*args)
        for g in rest:
            v = g(v)
        return v

    return _named("comp", composed)


@declare(DECLS, "partial", variadic_min=1, doc="f with the given leading arguments fixed.")
def partial(f: object, *fixed: object) -> Callable[..., object]:
    if not fixed:  # `(partial f)` is f itself, as in Clojure
        return f if not callable(f) else as_fn(f, "partial")  # type: ignore[return-value]
    fn = _late_fn(f, "partial")

    def partially(*args: object) -> object:
        return fn(*fixed, *args)

    return _named("partial", partially)


@declare(DECLS, "complement", arities=(1,), doc="A function returning the negated truth of f.")
def complement(f: object) -> Callable[..., bool]:
    fn = _late_fn(f, "complement")

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
    preds = [_late_fn(q, "every-pred") for q in (p, *ps)]

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
    fns = [_late_fn(g, "some-fn") for g in (f, *fs)]

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
    if n == 0:  # `(fnil f)` with no default: Clojure has no such arity
        raise wrong_count("fnil", 1, "2 or 3 or 4")
    if n > 3:  # `*defaults` takes any count; the registry says 2, 3 or 4 arguments
        raise wrong_count("fnil", n + 1, "2 or 3 or 4")
    fn = _late_fn(f, "fnil")

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
    fns = [_late_fn(g, "juxt") for g in (f, *fs)]

    def juxtaposed(*args: object) -> list[object]:
        return [g(*args) for g in fns]

    return _named("juxt", juxtaposed)
