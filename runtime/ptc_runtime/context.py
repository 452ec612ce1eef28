"""The state of one run, reachable from builtins through a context variable.

A `RunContext` holds what a run may touch: its step budget and deadline, its cancel
token, captured output, the data and tools it was granted, and the user namespace.
Builtins that need it (`println`, tool calls, `pmap`) call `current()`; the executor
installs the context for the duration of the run (`contextvars`, so any thread works
and parallel workers copy it).
"""

from __future__ import annotations

import contextvars
import sys
import threading
import time
import weakref
from collections.abc import Callable, Iterator, Mapping, MutableSequence
from dataclasses import dataclass, field
from itertools import islice, repeat
from operator import countOf, length_hint
from typing import Any, NoReturn

from ptc_runtime.errors import Aborted, LimitExceeded, PtcError
from ptc_runtime.images import PtcImage, entry_bytes

DEFAULT_MAX_STEPS = 10_000_000
DEFAULT_TIMEOUT_MS = 1_000
DEFAULT_MAX_OUTPUT_BYTES = 1_000_000
DEFAULT_PRINT_LINE_CHARS = 2_000
#: Steps handed to generated code between checks of the budget, deadline and cancel token
#: (at most; see `charge` for how the chunk adapts). A refill costs about a microsecond, so
#: in a tight loop (tens of ns a pass) this size keeps it near a quarter of a ns per pass.
FUEL_CHUNK = 4_000
#: A chunk that took longer than this makes the next one smaller (see `charge`).
SLOW_CHUNK_S = 0.01
#: Only a chunk that took less than this lets the next one grow: a full chunk is handed
#: out only while passes are cheap (under ~0.25 us each at full size), so it lasts about
#: a millisecond and the deadline is checked that often.
FAST_CHUNK_S = 0.001

#: What generated code pulls a step from. Fuel is a countdown *iterator*
#: (`itertools.repeat(None, n)`), not an integer: one step is one pull, which CPython
#: does without any integer arithmetic or a store to the globals dict —
#: `for t0 in FUEL: break` at a fn entry or `for` element, and the `for` over FUEL that
#: drives a `loop` body (a `recur` is a plain `continue`). A pull that finds the chunk
#: empty lands in the `for`'s `else`, which calls `rt_refill` (see `RunContext.refill`).
Fuel = Iterator[None]

#: The loop-entry credits (the global `CREDIT`). The `for` driving a `loop` pulls a step
#: for the first pass too, which the step budget does not charge (only the back-edges cost):
#: a `loop` entry first takes a credit, `for t0 in CREDIT: break`, and the runtime gives
#: the credits taken back when it accounts the pulled steps (`refill`, `settle`). A credit
#: iterator starts at `CREDITS` and never runs out; it stays the module's `CREDIT` for
#: good (generated code never rebinds it, so it needs no `global` declaration, and a refill
#: is a plain `FUEL = rt_refill(FUEL, CREDIT)`). How far each one had been taken at its last
#: accounting is kept here, process-wide, because a linked prelude's module (and so its
#: `CREDIT`) serves many runs: credits taken are counted once, by whichever run accounts them.
Credit = Iterator[None]
CREDITS = sys.maxsize
_REPEAT = type(repeat(None, 0))
#: `itertools.repeat`'s own length method: what `operator.length_hint` ends up calling,
#: without its generic lookup (a refill runs every chunk of a tight loop).
_left = _REPEAT.__length_hint__
_credit_seen: dict[int, tuple[Credit, int]] = {}
_credit_lock = threading.Lock()


def fresh_credit() -> Credit:
    """A credit iterator nothing was taken from (see `Credit`)."""
    return repeat(None, CREDITS)


def credits_taken(credit: object, *, retire: bool = False) -> int:
    """The loop entries credited on `credit` since its last accounting (0 for anything but
    a credit iterator: generated code never passes one, and it must not lower a charge).
    `retire`: the iterator goes out of use (its module's run ended); forget it."""
    if type(credit) is not _REPEAT:
        return 0
    key = id(credit)
    with _credit_lock:  # parallel workers and concurrent runs share prelude modules
        now = _left(credit)
        seen = _credit_seen.get(key)
        before = seen[1] if seen is not None and seen[0] is credit else CREDITS
        if retire:
            _credit_seen.pop(key, None)
        else:
            _credit_seen[key] = (credit, now)
    return before - now


def idle_fuel() -> Fuel:
    """A full chunk for a module between runs (a linked prelude's exports): who spent it is
    only known at its refill, which charges the run calling at that moment."""
    return repeat(None, FUEL_CHUNK)


class SharedRunState:
    """What a run shares with its parallel workers (guarded by `lock`)."""

    __slots__ = ("fuel_lock", "live_workers", "lock", "tool_calls")

    def __init__(self) -> None:
        self.lock = threading.Lock()
        #: Held while a refill or settle accounts a chunk (`RunContext.refill`).
        self.fuel_lock = threading.Lock()
        self.live_workers = 0
        self.tool_calls = 0


class CancelToken:
    """Thread-safe cancellation flag; `cancel()` makes the run fail with kind `abort`."""

    def __init__(self) -> None:
        self._event = threading.Event()

    def cancel(self) -> None:
        self._event.set()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()


class Records(dict[int, list[Any]]):
    """A run's record lists (see `ptc_runtime.records`): id -> the list, held."""

    __slots__ = ("bound",)
    #: `records.register` prunes when a registry holds this many lists (then at twice
    #: the number left).
    FIRST_BOUND = 64

    def __init__(self) -> None:
        super().__init__()
        self.bound = self.FIRST_BOUND


@dataclass
class RunContext:
    """Everything one run may read or write; never shared between runs."""

    max_steps: int = DEFAULT_MAX_STEPS
    deadline: float | None = None  # time.monotonic() value, None = no deadline
    cancel: CancelToken | None = None
    data: Mapping[Any, Any] = field(default_factory=dict)
    tools: Mapping[str, Callable[..., Any]] = field(default_factory=dict)
    ns: dict[str, Any] = field(default_factory=dict)  # user namespace: name -> value
    #: The user vars as generated code names them, `v0_<m>` -> value and `f0_<m>` -> what
    #: calling it calls: the `__builtins__` of the run's module (`ptc_runtime.uservars`).
    nsc: dict[str, Any] = field(default_factory=dict)
    history: tuple[Any, Any, Any] = (None, None, None)
    max_output_bytes: int = DEFAULT_MAX_OUTPUT_BYTES
    print_line_chars: int = DEFAULT_PRINT_LINE_CHARS
    output: list[str | PtcImage] = field(default_factory=list)  # text and image entries
    output_bytes: int = 0
    steps_used: int = 0
    tool_calls: int = 0
    #: Fuel chunks handed out and not yet refilled: id -> (the iterator, its size). Shared
    #: with parallel workers (they pull from the same module globals).
    fuel_out: dict[int, tuple[Fuel, int]] = field(default_factory=dict)
    #: Chunks refilled (empty, accounted): id -> (the iterator, the chunk handed out in its
    #: place). A pmap worker may still hold one (read from the module's `FUEL` just before
    #: another worker's refill, or stored back there late): its refill then goes on with
    #: the chunk in use now. Shared with parallel workers; pruned in `refill`.
    fuel_retired: dict[int, tuple[Fuel, Fuel]] = field(default_factory=dict)
    retired_bound: int = 256
    chunk: int = 50  # current chunk size: starts small, adapts to the cost of iterations
    last_refuel: float = 0.0
    #: Calls a tool with normalised arguments; set by the seam (in-process or worker proxy).
    tool_invoker: Callable[[str, object], object] | None = None
    #: Shared by a run and its pmap/pcalls workers: live workers, tool-call count, lock.
    shared: SharedRunState = field(default_factory=lambda: SharedRunState())
    #: Free-form settings of the seam (limits, host event loop) read by builtins.
    options: dict[str, Any] = field(default_factory=dict)
    #: The run's last large `group-by` (`builtins.grouped.Grouping`): later plucks of a
    #: field from its groups read every item once, in input order.
    grouping: Any = None
    #: Host lists proven to hold only maps with string keys (`ptc_runtime.records`),
    #: registered by `convert.from_host`; shared with parallel workers.
    records: Records = field(default_factory=Records)
    #: The environment's earlier modules (`state.Environment.modules`: weak references to
    #: their `program` functions, whose globals are the modules'), None for none kept.
    modules: MutableSequence[weakref.ReferenceType[Any]] | None = None
    #: While a run executes a module that has earlier modules beside it: the globals of
    #: all of them. Their fns (a session's `defn`s, an initializer's) can be called in
    #: this run, so they pull from the run's one chunk and credit iterator: a refill hands
    #: its new chunk to every one of them (`link`). Shared with parallel workers.
    linked: list[dict[str, Any]] | None = None

    def invoke_tool(self, name: str, args: object) -> object:
        """Call tool `name` with normalised JSON-like `args` through the run's invoker."""
        if self.tool_invoker is not None:
            return self.tool_invoker(name, args)
        fn = self.tools.get(name)
        if fn is None:
            raise PtcError("unknown_tool", f"Unknown tool: {name}")
        self.tool_calls += 1
        try:
            invoke = getattr(fn, "__ptc_invoke__", None)
            return invoke(args) if callable(invoke) else fn(args)
        except PtcError as err:
            from ptc_runtime.bindings import as_called

            named = as_called(None, name, fn, err)
            if named is err:
                raise
            raise named from None
        except Exception as exc:  # the host's tool failed: its type only, text to the log
            from ptc_runtime.bindings import host_failure

            raise host_failure(None, name, exc) from None

    def link(self, module: dict[str, Any]) -> None:
        """Before `module` (a generated module's globals, `FUEL` and `CREDIT` set) runs:
        the earlier modules still alive take its chunk and credit iterator, so every step
        and loop credit of the run, in whichever module, comes from one chunk and one
        credit iterator, accounted exactly as in a single module (a module kept its own
        `FUEL` otherwise: a chunk of an earlier run, counted by no one)."""
        mods = self.modules
        if not mods:
            return
        kept = []
        linked: list[dict[str, Any]] = []
        for ref in mods:
            program = ref()
            if program is not None:  # a dead one went with its module's fns
                kept.append(ref)
                linked.append(program.__globals__)
        mods[:] = kept
        if not linked:
            return
        for g in linked:
            g["FUEL"] = module["FUEL"]
            g["CREDIT"] = module["CREDIT"]
        linked.append(module)
        self.linked = linked

    def unlink(self, module: dict[str, Any]) -> None:
        """After `module` ran (and was settled): it joins the earlier modules (while its
        `program`, and so its globals, lives: its fns may be kept by the environment)."""
        self.linked = None
        program = module.get("program")
        if self.modules is not None and program is not None:
            self.modules.append(weakref.ref(program))

    def first_fuel(self) -> Fuel:
        """The initial fuel chunk for a run's generated code (the global `FUEL`)."""
        self.last_refuel = time.monotonic()
        return self._hand_out(min(self.chunk, self.max_steps))

    def _hand_out(self, n: int) -> Fuel:
        fuel = repeat(None, n)
        self.fuel_out[id(fuel)] = (fuel, n)
        return fuel

    def _spent(self, fuel: Fuel) -> int:
        """Steps pulled from `fuel` since it was handed out; forgets it."""
        entry = self.fuel_out.pop(id(fuel), None)
        given = entry[1] if entry is not None and entry[0] is fuel else FUEL_CHUNK
        spent = given - length_hint(fuel)
        return spent if spent > 0 else 0

    def refill(self, fuel: Fuel, credit: Credit, due: int = 1) -> Fuel:
        """A pull found its chunk empty: account, check the limits, hand out a new chunk
        (generated code: `FUEL = rt_refill(FUEL, CREDIT[, due])`).

        `fuel` is the global `FUEL` now (the pull may have been from an older chunk a `loop`
        still held, if a call in its body refilled meanwhile): its pulled steps are
        charged, plus `due`, less the loop entries credited on `credit` (the module's
        `CREDIT`; its entries' first passes were pulled from `fuel`, or will be from the
        new chunk: see below). A check (`for t0 in FUEL: break`) passes `due=1`: its step
        was not taken from any chunk. A `loop` passes `due=0`: it pulls its step again
        from the new chunk, which therefore must not be empty — unless that pull is a
        loop's first pass, whose credit is already counted here: then `left` is at least
        1 whenever the run is still within its budget, so the same test holds.

        A chunk is accounted only once it is empty (nothing can be pulled from it after),
        under the run's `fuel_lock`, and remembered with the chunk handed out in its
        place (`fuel_retired`). So when `fuel` is not empty (the held chunk was refilled
        by a call in the loop's body, or by a pmap worker meanwhile) the step is taken
        from it and it is handed back as it is; when it was refilled already (a worker
        read it just before, or stored it back late), the refill goes on with the chunk
        in use now: every chunk is charged once, for all its steps, whichever threads
        pulled them.

        The accounting is `charge` written out for speed (a tight loop refills every few
        thousand steps, so each call and attribute read here is part of its guard cost).
        """
        out = self.fuel_out
        with self.shared.fuel_lock:
            entry = out.get(id(fuel))
            if entry is None or entry[0] is not fuel:
                fuel, entry = self._in_use(fuel)
            if entry is not None:
                # steps left: the loop pulls its step from it, a check's is taken here
                if _left(fuel) and (not due or countOf(islice(fuel, 1), None)):  # type: ignore[arg-type]
                    return fuel
                del out[id(fuel)]
                spent = entry[1]  # empty: all its steps were pulled
            else:  # a chunk of no run here (a prelude's between runs): a full one
                spent = FUEL_CHUNK - (_left(fuel) if type(fuel) is _REPEAT else length_hint(fuel))
            credited = credits_taken(credit) if type(credit) is _REPEAT else 0
            used = self.steps_used + (spent if spent > 0 else 0) + due - credited
            self.steps_used = used
            left = self.max_steps - used
            if left < 0 or (left == 0 and due == 0):  # over, or a loop's next pass would be
                if left == 0:
                    self.steps_used = used + 1
                self._retire(fuel, repeat(None, 0), 0)  # a late refill of it fails too
                self.over_budget()
            try:
                chunk = self.next_chunk()
            except PtcError:
                self._retire(fuel, repeat(None, 0), 0)
                raise
            n = chunk if chunk < left else left
            new = repeat(None, n)
            out[id(new)] = (new, n)
            if self.shared.live_workers:  # only a worker can pass a refilled chunk later
                retired = self.fuel_retired
                retired[id(fuel)] = (fuel, new)
                if len(retired) > self.retired_bound:
                    self._prune()
            linked = self.linked
            if linked is not None:  # every module of the run pulls from the new chunk
                for module in linked:
                    module["FUEL"] = new
        return new

    def _in_use(self, fuel: Fuel) -> tuple[Fuel, tuple[Fuel, int] | None]:
        """The chunk handed out in place of `fuel` (through any refills since), with its
        entry; `fuel` and None for a chunk this run never handed out."""
        retired = self.fuel_retired
        out = self.fuel_out
        while True:
            r = retired.get(id(fuel))
            if r is None or r[0] is not fuel:
                return fuel, None
            fuel = r[1]
            entry = out.get(id(fuel))
            if entry is not None and entry[0] is fuel:
                return fuel, entry

    def _retire(self, fuel: Fuel, new: Fuel, n: int) -> None:
        self.fuel_out[id(new)] = (new, n)
        self.fuel_retired[id(fuel)] = (fuel, new)

    def _prune(self) -> None:
        """Forget the refilled chunks nothing but this table refers to any more (oldest
        first, so a chunk whose predecessor goes is seen without it)."""
        retired = self.fuel_retired
        keys = list(retired)
        for key in reversed(keys):  # newest first: a successor's successor is final already
            fuel, new = retired[key]
            after = retired.get(id(new))
            if after is not None and after[0] is new:  # skip the refilled ones between
                retired[key] = (fuel, after[1])
        fuel = new = after = None  # type: ignore[assignment]  # (counted below otherwise)
        for key in keys:
            entry = retired[key]
            # the table's tuple and getrefcount's argument: no module, frame or other
            # entry holds it, so no refill can be passed it again
            if sys.getrefcount(entry[0]) <= 2:
                del retired[key]
        self.retired_bound = max(256, 4 * len(retired))

    def settle(self, fuel: object, credit: object) -> None:
        """At the end of a run: count the steps pulled from its last chunk, less the loop
        entries credited since the last accounting (never raises).

        `fuel` may be a chunk refilled already (stored back late by a worker): the one in
        use in its place is counted. A chunk this run no longer knows (a refill took it and
        failed) was accounted there, and so were the credits on `credit`.
        """
        credited = credits_taken(credit, retire=True)
        with self.shared.fuel_lock:
            entry = self.fuel_out.get(id(fuel))
            if entry is None or entry[0] is not fuel:
                fuel, entry = self._in_use(fuel)  # type: ignore[arg-type]
            if entry is not None:
                self.steps_used += self._spent(fuel) - credited

    def charge(self, steps: int) -> int:
        """Account `steps` and check deadline and cancel; return the next fuel chunk.

        The chunk adapts: when the last one took longer than `SLOW_CHUNK_S` (expensive
        iterations, e.g. each allocating a big vector), the next is 8 times smaller, so the
        deadline and cancel token are checked within about one slow iteration; when it took
        less than `FAST_CHUNK_S`, the next doubles, up to `FUEL_CHUNK`.
        """
        self.steps_used += steps
        if self.steps_used > self.max_steps:
            self.over_budget()
        return min(self.next_chunk(), self.max_steps - self.steps_used)

    def next_chunk(self) -> int:
        """Check deadline and cancel, and size the next chunk by how long the last took
        (see `charge`)."""
        now = time.monotonic()
        self.check_time(now)
        chunk = self.chunk
        took = now - self.last_refuel
        if took > SLOW_CHUNK_S:
            chunk = self.chunk = max(1, chunk // 8)
        elif chunk < FUEL_CHUNK and took < FAST_CHUNK_S:
            chunk = self.chunk = min(FUEL_CHUNK, chunk * 2)
        self.last_refuel = now
        return chunk

    def over_budget(self) -> NoReturn:
        """Fail the run: its step budget is spent."""
        raise LimitExceeded(
            "step_limit_exceeded",
            f"step budget of {self.max_steps} steps exhausted",
            kind="timeout",
            hint="each recur, for/doseq element and function call costs one step",
        )

    def check_time(self, now: float | None = None) -> None:
        """Fail the run if its deadline passed (`now`: a fresh `time.monotonic()`, if the
        caller has one) or it was cancelled."""
        if self.cancel is not None and self.cancel.cancelled:
            raise Aborted("abort", "run cancelled")
        if self.deadline is not None and (time.monotonic() if now is None else now) > self.deadline:
            raise LimitExceeded("timeout", "execution exceeded its deadline", kind="timeout")

    def emit(self, text: str | PtcImage) -> None:
        """Append captured output (a text line or an image entry), enforcing the total
        output budget (an image counts the bytes of its descriptor)."""
        if type(text) is str:
            size = len(text.encode("utf-8", "surrogatepass"))
        else:
            size = entry_bytes(text)  # type: ignore[arg-type]
        if self.output_bytes + size > self.max_output_bytes:
            raise LimitExceeded(
                "output_limit",
                f"output exceeded {self.max_output_bytes} bytes",
                kind="output-limit",
            )
        self.output_bytes += size
        self.output.append(text)


_current: contextvars.ContextVar[RunContext] = contextvars.ContextVar("ptc_run_context")


def current() -> RunContext:
    """The context of the run executing on this thread."""
    try:
        return _current.get()
    except LookupError:
        raise PtcError("runtime_error", "no program is running") from None


def install(ctx: RunContext) -> contextvars.Token[RunContext]:
    """Make `ctx` current; pass the token to `uninstall` when the run ends."""
    return _current.set(ctx)


def uninstall(token: contextvars.Token[RunContext]) -> None:
    _current.reset(token)


def emit_line(text: str) -> None:
    """`println`: capture one line (cut to the line cap, with a suffix saying so)."""
    ctx = current()
    cap = ctx.print_line_chars
    if len(text) > cap:
        text = f"{text[:cap]}... ({cap}/{len(text)} chars)"
    ctx.emit(text + "\n")
