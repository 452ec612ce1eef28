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

import sys
import time
from collections.abc import Callable, Sequence
from functools import partial, reduce
from itertools import islice, repeat
from operator import countOf, length_hint
from types import FrameType, FunctionType
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


#: The fuel chunks generated code pulls its steps from (`context`).
_REPEAT: Final = type(repeat(None, 0))
_left: Final = _REPEAT.__length_hint__


def _module() -> dict[str, Any] | None:
    """The globals of the nearest generated code on this thread's stack (whose `FUEL` the
    run's steps are pulled from), or None when no program called (a host calling a
    builtin directly)."""
    f: FrameType | None = sys._getframe(2)
    while f is not None:
        if f.f_code.co_filename.startswith(GENERATED_PREFIX):
            g = f.f_globals
            return g if "FUEL" in g and "CREDIT" in g else None
        f = f.f_back
    return None


def _pull(ctx: context.RunContext, module: dict[str, Any], wanted: int) -> int:
    """Pull up to `wanted` steps (at least 1) from the module's fuel, as generated code
    pulls them: refilling an empty chunk (which charges the step, checks the budget,
    deadline and cancel token, and fails exactly where a loop of calls would)."""
    while True:
        fuel = module["FUEL"]  # the chunk now: a parallel worker may have refilled it
        left = _left(fuel) if type(fuel) is _REPEAT else length_hint(fuel)
        if left:
            # counted as taken: a parallel worker may pull from the same chunk meanwhile
            m = countOf(islice(fuel, left if left < wanted else wanted), None)
            if m:
                return m
            continue
        module["FUEL"] = ctx.refill(fuel, module["CREDIT"])
        return 1


class Meter:
    """Charges calls to one run, checking its limits every chunk.

    Called from a program, the steps are pulled from the program's own fuel stream (the
    chunks its loops and fn calls pull from), so a call costs one step exactly as a fn
    entry does: the budget fails at the same call however a builtin groups its charges,
    whichever path (a builtin's loop or a fused fast path) makes them, and a run that
    fails reports the same steps. The deadline and the cancel token are also checked
    every adaptive chunk of calls (a slow callback is checked about every 10 ms, sooner
    than the fuel's own chunks would). Without a program on the stack the steps are
    charged to the context directly."""

    __slots__ = ("count", "ctx", "last", "mark", "module", "size")

    def __init__(self, ctx: context.RunContext, module: dict[str, Any] | None) -> None:
        self.ctx = ctx
        self.module = module
        self.size = FIRST_CHUNK
        self.count = 0
        self.last = time.monotonic()
        self.mark = self._mark()

    def _mark(self) -> int:
        ctx = self.ctx
        return min(ctx.steps_used + self.size, ctx.max_steps + 1)

    def tick(self) -> None:
        """A chunk is used up: check the budget, deadline and cancel; size the next."""
        ctx = self.ctx
        if self.module is None and ctx.steps_used > ctx.max_steps:
            ctx.over_budget()
        now = time.monotonic()
        ctx.check_time(now)
        took = now - self.last
        if took > SLOW_S:
            self.size = max(1, self.size // 8)
        elif took < FAST_S and self.size < MAX_CHUNK:
            self.size *= 2
        self.last = now
        self.count = 0
        self.mark = self._mark()

    def allow(self, wanted: int) -> int:
        """Charge up to `wanted` calls about to be made (at least 1) and return how many."""
        module = self.module
        if module is not None:
            n = _pull(self.ctx, module, min(wanted, self.size - self.count))
            self.count += n
            if self.count >= self.size:
                self.tick()
            return n
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
    return _metered(fn, ctx, _module())


def metered(fn: Callable[..., Any], ctx: context.RunContext) -> Callable[..., Any]:
    """`fn` charging one step per call to `ctx`, checking its limits every chunk."""
    return _metered(fn, ctx, _module())


def _metered(
    fn: Callable[..., Any], ctx: context.RunContext, module: dict[str, Any] | None
) -> Callable[..., Any]:
    meter = Meter(ctx, module)
    if module is not None:
        refill = ctx.refill

        def pulling_call(*args: Any) -> Any:
            fuel = module["FUEL"]
            if next(fuel, 1):  # the chunk is empty (its items are None)
                module["FUEL"] = refill(fuel, module["CREDIT"])
            count = meter.count + 1
            meter.count = count
            if count >= meter.size:
                meter.tick()
            return fn(*args)

        return pulling_call

    def metered_call(*args: Any) -> Any:
        used = ctx.steps_used + 1
        ctx.steps_used = used
        if used >= meter.mark:
            meter.tick()
        return fn(*args)

    return metered_call


def map_each(fn: Callable[..., Any], items: Sequence[Any]) -> list[Any]:
    """`[fn(x) for x in items]`, charged as `metered_fn` would, per chunk (C-level `map`
    within a chunk, so the common case pays one check per few thousand calls).

    A chunk's calls are charged before they are made; if one fails, the calls after it
    are given back (`_unmade`), so the steps are those of the calls made, the failing one
    included, whatever the chunk's size."""
    if type(fn) is FunctionType and fn.__code__.co_filename.startswith(GENERATED_PREFIX):
        return list(map(fn, items))  # a compiled fn: it charges itself
    ctx = _run()
    if ctx is None:
        return list(map(fn, items))
    n = len(items)
    module = _module()
    if n <= SMALL:  # (called from generated code, which checks the deadline)
        _charge_small(ctx, module, n)
        it = iter(items)
        try:
            return list(map(fn, it))
        except BaseException:
            _unmade(ctx, it)
            raise
    meter = Meter(ctx, module)
    out: list[Any] = []
    flat = _flat(items)
    i = 0
    while i < n:
        k = meter.allow(n - i)
        it = iter(flat[i : i + k])
        try:
            out += map(fn, it)
        except BaseException:
            _unmade(ctx, it)
            raise
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
    meter = Meter(ctx, _module())
    out: list[Any] = []
    flats = [_flat(s) for s in seqs]
    i = 0
    while i < n:
        k = meter.allow(n - i)
        its = [iter(s[i : i + k]) for s in flats]
        try:
            out += map(fn, *its)
        except BaseException:
            _unmade(ctx, its[-1])  # `map` takes from each in turn, then calls
            raise
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
    module = _module()
    flat = _flat(items)
    if n - start <= SMALL:
        _charge_small(ctx, module, n - start)
        it = iter(flat[start:n] if start else flat[:n])
        try:
            return reduce(fn, it, acc)
        except BaseException:
            _unmade(ctx, it)
            raise
    meter = Meter(ctx, module)
    i = start
    while i < n:
        k = meter.allow(n - i)
        it = iter(flat[i : i + k])
        try:
            acc = reduce(fn, it, acc)
        except BaseException:
            _unmade(ctx, it)
            raise
        i += k
    return acc


def _unmade(ctx: context.RunContext, it: Any) -> None:
    """Give back the steps charged for the calls a failed chunk did not make: those of
    the items `it` (the chunk's iterator) still holds (the failing call took its item)."""
    ctx.steps_used -= length_hint(it)


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
    if ctx is not None and n > 0:
        _charge_small(ctx, _module(), n)


def _flat(items: Sequence[Any]) -> Sequence[Any]:
    """What slices of `items` are cut from: a vector's buffer (slicing a `PVec` copies
    all of it first), which holds the vector's items at the same indexes."""
    return items.buf if type(items) is PVec else items


def _charge_small(ctx: context.RunContext, module: dict[str, Any] | None, n: int) -> None:
    """Charge `n` calls at once (from the program's fuel, see `Meter`), without reading
    the clock unless a chunk runs out. Without a program on the stack, the count over
    the budget stops at the call that failed (one past the budget), as the fuel's does."""
    if module is not None:
        while n > 0:
            n -= _pull(ctx, module, n)
        return
    used = ctx.steps_used + n
    if used > ctx.max_steps:
        ctx.steps_used = max(ctx.steps_used, ctx.max_steps + 1)
        ctx.over_budget()
    ctx.steps_used = used
