"""Step and deadline accounting for the callbacks builtins call in their loops.

A compiled fn pulls its own step at entry, so a loop of `map` over one is
charged by the fn itself. A builtin used as a value (`str`, a keyword, `(comp ...)`,
`(partial ...)`, a set or a map as a function) charges nothing itself: without help
`(map str (range 10000000))` would run past its deadline and ignore a cancel. So every
builtin that calls a callback per element gets it from `metered_fn` (or runs its loop
through `map_each` / `fold_each`), which charges one step per call of a callback that
does not charge itself, exactly, and checks the step budget, the deadline and the cancel
token every chunk of calls. The chunk adapts to the cost of a call (as the fuel chunks of
generated code do), so a slow callback is checked about every 10 ms and a cheap one costs
one check per few thousand calls.

A metered callable holds its run's context: it is made for one builtin invocation and
never stored (combinators such as `comp` build plain closures, metered where they are
used in a loop).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from functools import partial, reduce
from types import FunctionType
from typing import Any, Final

from ptc_runtime import context
from ptc_runtime.collections import PVec, as_fn

#: Compiled PTC code (programs and preludes) has a file name starting with this.
GENERATED_PREFIX: Final = "<ptc"
#: First chunk of calls between checks, and the largest.
FIRST_CHUNK: Final = 16
MAX_CHUNK: Final = 4_096
#: A chunk slower than this makes the next one 8 times smaller; one faster than
#: `FAST_S` lets it double.
SLOW_S: Final = 0.01
FAST_S: Final = 0.001
#: Up to this many calls are charged without reading the clock (the caller is itself a
#: call that was charged, or a step of generated code that checks the deadline).
SMALL: Final = 32


def self_charging(fn: object) -> bool:
    """Whether calling `fn` charges its own step (a compiled PTC fn)."""
    return type(fn) is FunctionType and fn.__code__.co_filename.startswith(GENERATED_PREFIX)


#: The run's context variable (`context.current()` without its error for no run).
_CURRENT: Final = context._current
_run: Final = partial(_CURRENT.get, None)


class Meter:
    """Charges calls to one run's context, checking its limits every chunk."""

    __slots__ = ("ctx", "last", "mark", "size")

    def __init__(self, ctx: context.RunContext) -> None:
        self.ctx = ctx
        self.size = FIRST_CHUNK
        self.last = time.monotonic()
        self.mark = self._mark()

    def _mark(self) -> int:
        ctx = self.ctx
        return min(ctx.steps_used + self.size, ctx.max_steps + 1)

    def tick(self) -> None:
        """A chunk is used up: check the budget, deadline and cancel; size the next."""
        ctx = self.ctx
        if ctx.steps_used > ctx.max_steps:
            ctx.over_budget()
        now = time.monotonic()
        ctx.check_time(now)
        took = now - self.last
        if took > SLOW_S:
            self.size = max(1, self.size // 8)
        elif took < FAST_S and self.size < MAX_CHUNK:
            self.size *= 2
        self.last = now
        self.mark = self._mark()

    def allow(self, wanted: int) -> int:
        """Charge up to `wanted` calls about to be made (at least 1) and return how many."""
        ctx = self.ctx
        n = min(wanted, self.size, max(1, ctx.max_steps + 1 - ctx.steps_used))
        ctx.steps_used += n
        if ctx.steps_used >= self.mark:
            self.tick()
        return n


def metered_fn(f: object, who: str = "call") -> Callable[..., Any]:
    """`as_fn(f)`, charging one step per call unless it charges itself (see module doc)."""
    fn = as_fn(f, who)
    if self_charging(fn):
        return fn
    ctx = _run()
    if ctx is None:
        return fn
    return metered(fn, ctx)


def metered(fn: Callable[..., Any], ctx: context.RunContext) -> Callable[..., Any]:
    """`fn` charging one step per call to `ctx`, checking its limits every chunk."""
    meter = Meter(ctx)

    def metered_call(*args: Any) -> Any:
        used = ctx.steps_used + 1
        ctx.steps_used = used
        if used >= meter.mark:
            meter.tick()
        return fn(*args)

    return metered_call


def map_each(fn: Callable[..., Any], items: Sequence[Any]) -> list[Any]:
    """`[fn(x) for x in items]`, charged as `metered_fn` would, per chunk (C-level `map`
    within a chunk, so the common case pays one check per few thousand calls)."""
    if type(fn) is FunctionType and fn.__code__.co_filename.startswith(GENERATED_PREFIX):
        return list(map(fn, items))  # a compiled fn: it charges itself
    ctx = _run()
    if ctx is None:
        return list(map(fn, items))
    n = len(items)
    if n <= SMALL:  # (called from generated code, which checks the deadline)
        used = ctx.steps_used + n
        ctx.steps_used = used
        if used > ctx.max_steps:
            ctx.over_budget()
        return list(map(fn, items))
    meter = Meter(ctx)
    out: list[Any] = []
    flat = _flat(items)
    i = 0
    while i < n:
        k = meter.allow(n - i)
        out += map(fn, flat[i : i + k])
        i += k
    return out


def map_many(fn: Callable[..., Any], seqs: Sequence[Sequence[Any]]) -> list[Any]:
    """`[fn(*xs) for xs in zip(*seqs)]`, charged as `map_each`."""
    n = min(map(len, seqs)) if seqs else 0
    if self_charging(fn):
        return list(map(fn, *seqs))
    ctx = _run()
    if ctx is None:
        return list(map(fn, *seqs))
    meter = Meter(ctx)
    out: list[Any] = []
    flats = [_flat(s) for s in seqs]
    i = 0
    while i < n:
        k = meter.allow(n - i)
        out += map(fn, *[s[i : i + k] for s in flats])
        i += k
    return out


def fold_each(fn: Callable[..., Any], acc: Any, items: Sequence[Any], start: int = 0) -> Any:
    """`functools.reduce(fn, items[start:], acc)`, charged as `map_each`."""
    if self_charging(fn):
        return reduce(fn, items[start:] if start else items, acc)
    ctx = _run()
    if ctx is None:
        return reduce(fn, items[start:] if start else items, acc)
    n = len(items)
    if n - start <= SMALL:
        _charge_small(ctx, n - start)
        return reduce(fn, items[start:] if start else items, acc)
    meter = Meter(ctx)
    flat = _flat(items)
    i = start
    while i < n:
        k = meter.allow(n - i)
        acc = reduce(fn, flat[i : i + k], acc)
        i += k
    return acc


def select_each(fn: Callable[..., Any], items: Sequence[Any], truthy: bool) -> list[Any]:
    """The items for which `fn` is truthy (`truthy`) or falsy, charged as `map_each`."""
    vals = map_each(fn, items)
    if truthy:
        return [x for x, v in zip(items, vals, strict=True) if v is not None and v is not False]
    return [x for x, v in zip(items, vals, strict=True) if v is None or v is False]


def charge_calls(n: int) -> None:
    """Charge `n` callback calls a fused fast path made without calling (the generic
    code would have called a builtin `n` times: `(update-vals groups count)`)."""
    ctx = _run()
    if ctx is not None and n:
        _charge_small(ctx, n)


def _flat(items: Sequence[Any]) -> Sequence[Any]:
    """What slices of `items` are cut from: a vector's buffer (slicing a `PVec` copies
    all of it first), which holds the vector's items at the same indexes."""
    return items.buf if type(items) is PVec else items


def _charge_small(ctx: context.RunContext, n: int) -> None:
    used = ctx.steps_used + n
    ctx.steps_used = used
    if used > ctx.max_steps:
        ctx.over_budget()
