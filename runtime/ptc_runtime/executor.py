"""Run compiled code against a `RunContext` and turn every ending into an `Outcome`.

The generated module is executed in a fresh globals dict holding only the runtime
helpers, the builtins, the user namespace `NS` and the step-budget iterators (`FUEL`,
`CREDIT`); its `__builtins__` is the run's table of user vars under their mangled names
(`RunContext.nsc`, see `ptc_runtime.uservars`), nothing else. Failures are mapped back to
Lisp line:column through the positions lowering stamped on the code (3.11 `co_positions`).
Python exceptions that escape generated code are translated to typed, bounded program
errors; any other exception is our bug, reported as an internal error with an incident id
(the traceback goes to the host's log, never to the program or the model).
"""

from __future__ import annotations

import gc
import inspect
import logging
import re
import threading
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from types import CodeType, FunctionType, TracebackType
from typing import Any, Literal

from ptc_runtime import context, uservars
from ptc_runtime.builtins import BUILTINS
from ptc_runtime.errors import FailSignal, LimitExceeded, OutOfMemory, PtcError, ReturnSignal
from ptc_runtime.rt import HELPERS

log = logging.getLogger("ptc_runtime")

GENERATED_FILENAME = "<ptc>"

Status = Literal["value", "return", "fail", "error"]


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a run ended: its value (value/return/fail) or its error."""

    status: Status
    value: object = None
    error: PtcError | None = None


_BASE_GLOBALS: dict[str, Any] | None = None
_BUILTIN_NAMES: dict[str, str] = {}


def base_globals() -> dict[str, Any]:
    """Helpers and builtins every run's globals start from (built once)."""
    global _BASE_GLOBALS
    if _BASE_GLOBALS is None:
        g: dict[str, Any] = dict(HELPERS)
        g.update(uservars.HELPERS)
        for spec in BUILTINS.values():
            fn = spec.fn
            known = _BUILTIN_NAMES.get(fn.__name__)
            if (known is not None and not _is_alias(known) and not _is_alias(spec.name)
                    and type(fn) is FunctionType):
                # one fn under two builtin names (`map`/`mapv`, `filter`/`filterv`): the
                # second gets a copy of its own name (the same code, no extra call), so an
                # arity error names the builtin the program called, not the other one
                fn = _renamed(fn, spec.py_name, spec.name)
            g[spec.py_name] = fn
            # an alias (`inc'`, `.trim`, `Double/parseDouble`) is reported by its main name
            known = _BUILTIN_NAMES.get(fn.__name__)
            if known is None or _is_alias(known) >= _is_alias(spec.name):
                _BUILTIN_NAMES[fn.__name__] = spec.name
        _BASE_GLOBALS = g
    return _BASE_GLOBALS


def _renamed(fn: FunctionType, name: str, ptc_name: str) -> FunctionType:
    """`fn` under `name`: the same code object but for the name Python's errors show,
    printed as the builtin `ptc_name` (`#function[mapv]`)."""
    code = fn.__code__.replace(co_name=name, co_qualname=name)
    copy = FunctionType(code, fn.__globals__, name, fn.__defaults__, fn.__closure__)
    copy.__kwdefaults__ = fn.__kwdefaults__
    copy.__dict__.update(fn.__dict__)
    copy.__dict__["ptc_name"] = ptc_name
    return copy


def _is_alias(name: str) -> bool:
    return name.endswith("'") or name.startswith(".") or "/" in name


class _GcFreeze:
    """While programs run, the objects that existed before the first of them are frozen.

    A run's allocations trigger collections, and every full one traverses all tracked
    objects, the host's data included (100,000 order maps are ~200,000 objects): a
    program that builds a vector per order spent a third of its time there. `gc.freeze()`
    moves everything that exists at the start to the permanent generation, which no
    collection traverses; the run's own objects are collected as usual, so cyclic garbage
    a program makes is still reclaimed (memory limits hold). Freezing and unfreezing are
    O(1) list splices.

    Counted across threads: only the first of overlapping runs freezes and the last one
    unfreezes (freezing again at each start would also freeze cyclic garbage made in
    between, a set that could grow for as long as runs overlap; this way the frozen set
    is one snapshot). `gc.unfreeze()` puts the frozen objects in the oldest generation
    without counting them toward its next collection, so garbage frozen with them would
    stay for good (every run leaked its globals dict and the cycles of its error: 20 GB
    over a long sweep of failing programs). Hence the young generations are collected just
    before freezing (cost: the objects allocated since the last run; the host's older ones
    are not traversed), and a run makes its globals after the freeze. A host that froze
    objects itself keeps them frozen: seeing a frozen
    generation at the start of a run (a walk of it, `get_freeze_count`, so asked only
    while ours is not in place) turns the freeze off for the rest of the process. A host
    that calls `gc.freeze()` in another thread *during* a run gets its objects unfrozen
    when the runs end. The collector's enabled state is never touched.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._depth = 0
        self._ours = False
        self._host_freezes = False

    def start(self) -> None:
        with self._lock:
            if self._depth == 0 and not self._host_freezes:
                if gc.get_freeze_count():  # O(1) when nothing is frozen, the usual case
                    self._host_freezes = True
                else:
                    if gc.isenabled():  # a disabled collector is the host's choice
                        gc.collect(1)
                    gc.freeze()
                    self._ours = True
            self._depth += 1

    def end(self) -> None:
        with self._lock:
            self._depth -= 1
            if self._depth == 0 and self._ours:
                self._ours = False
                gc.unfreeze()


_gc_freeze = _GcFreeze()


def execute(code: CodeType, ctx: context.RunContext, fn_names: Mapping[str, str]) -> Outcome:
    """Execute a compiled program module in `ctx`; never raises for a program outcome."""
    _gc_freeze.start()  # first: the run's globals are young, collected once unreachable
    try:
        g = dict(base_globals())
        # User vars are read and called as plain names found in the run's table (the
        # environment's, shared by all its modules): see `ptc_runtime.uservars`.
        g["__builtins__"] = ctx.nsc
        g["NS"] = ctx.ns
        g["FUEL"] = ctx.first_fuel()
        g["CREDIT"] = context.fresh_credit()
        ctx.link(g)  # earlier modules of the environment pull from the same chunk
        token = context.install(ctx)
    except BaseException:
        _gc_freeze.end()
        raise
    try:
        exec(code, g)
        value = g["program"]()
        return Outcome("value", value)
    except ReturnSignal as signal:
        return Outcome("return", signal.value)
    except FailSignal as signal:
        return Outcome("fail", signal.value)
    except PtcError as err:
        return Outcome("error", error=locate(err, err.__traceback__))
    except RecursionError as exc:
        deep = LimitExceeded(
            "recursion_limit",
            "recursion too deep: the call depth budget was exhausted",
            kind="timeout",
            hint="use loop/recur or reduce instead of deep recursion",
        )
        return Outcome("error", error=locate(deep, exc.__traceback__))
    except MemoryError:
        return Outcome("error", error=OutOfMemory("memory_exceeded", "memory limit exceeded"))
    except Exception as exc:  # translate Python-level failures raised from generated code
        translated = translate(exc, fn_names)
        return Outcome("error", error=locate(translated, exc.__traceback__))
    finally:
        _gc_freeze.end()
        ctx.settle(g.get("FUEL"), g.get("CREDIT"))  # the steps of the last chunk count too
        ctx.unlink(g)
        context.uninstall(token)


# Python names a fn by its qualified name: a fn made in a factory (it captures locals) is
# `mk2.<locals>.f1_fn`; the last part is the generated name
_QUALIFIED = r"^(?:\w+\.<locals>\.)*"
_TAKES = re.compile(
    _QUALIFIED + r"(\w+)\(\) takes (?:from \d+ to )?(\d+) positional arguments? but (\d+)"
)
_MISSING = re.compile(_QUALIFIED + r"(\w+)\(\) missing (\d+) required positional argument")
_NOT_CALLABLE = re.compile(r"^'(\w+)' object is not callable")
# a keyword or a set called as a function with a wrong count: `(:k)`, `(apply :k [m d x])`,
# `(reduce :k [])` (reduce calls (f) on an empty coll); Python counts `self` in "takes"
_VALUE_CALL = re.compile(
    r"^(Keyword|PSet)\.__call__\(\) (?:missing|takes (?:from \d+ to )?\d+ positional "
    r"arguments but (\d+))"
)
#: What was called, and the counts it takes, by the Python name of its call: a keyword or
#: a set (`__call__`), or the fns `collections.as_fn` makes of a map or a vector.
_VALUE_KIND = {
    "Keyword": "a keyword called as a function takes 1 or 2 arguments",
    "PSet": "a set called as a function takes 1 argument",
    "map_as_fn": "a map called as a function takes 1 or 2 arguments",
    "vector_as_fn": "a vector called as a function takes 1 argument",
}
_PY_KIND = {
    "NoneType": "nil",
    "int": "number",
    "float": "number",
    "bool": "boolean",
    "str": "string",
    "list": "vector",
    "dict": "map",
}


def translate(exc: Exception, fn_names: Mapping[str, str]) -> PtcError:
    """A typed program error for a Python exception, or an internal error (our bug).

    An exception a parallel worker raised carries the prefix of its item
    (`ptc_prefix`, see `builtins.parallel.run_parallel`), as the worker's typed errors do."""
    err = _translate(exc, fn_names)
    prefix = getattr(exc, "ptc_prefix", None)
    if type(prefix) is str:
        err.message = prefix + err.message
    return err


def _translate(exc: Exception, fn_names: Mapping[str, str]) -> PtcError:
    in_program = _innermost_is_generated(exc.__traceback__)
    text = str(exc)
    if isinstance(exc, TypeError):
        m = _TAKES.match(text) or _MISSING.match(text)
        if m is not None:
            return _arity_error(m.group(1), text, fn_names, exc)
        m = _VALUE_CALL.match(text)
        if m is not None:
            got = int(m.group(2)) - 1 if m.group(2) else 0
            return PtcError("arity_error", f"{_VALUE_KIND[m.group(1)]}, got {got}")
        m = _NOT_CALLABLE.match(text)
        if m is not None:
            kind = _PY_KIND.get(m.group(1), "a value")
            return PtcError("not_callable", f"not callable: {kind}")
        return PtcError("type_error", "wrong type of argument")
    if isinstance(exc, NameError) and in_program:  # a user var not defined (yet)
        name = uservars.unmangle(getattr(exc, "name", None) or "")
        if name is not None:
            return PtcError("unbound_var", f"undefined variable: {name}")
    if isinstance(exc, KeyError) and in_program:
        name = exc.args[0] if exc.args and isinstance(exc.args[0], str) else "?"
        return PtcError("unbound_var", f"undefined variable: {name}")
    if isinstance(exc, ZeroDivisionError):
        return PtcError("arithmetic_error", "division by zero")
    if isinstance(exc, OverflowError):
        return PtcError("arithmetic_error", "number out of range")
    incident = uuid.uuid4().hex[:12]
    log.error("internal error %s", incident, exc_info=exc)
    return PtcError("internal_error", f"internal error (incident {incident})")


def _arity_error(
    py_name: str, text: str, fn_names: Mapping[str, str], exc: BaseException | None = None
) -> PtcError:
    """One code, `arity_error`, and one shape for every wrong count: builtins, user fns,
    values called as fns: `<name>: wrong number of arguments (<got>), expected <counts>`."""
    got_m = re.search(r"but (\d+) (?:was|were) given", text)
    got: int | None = int(got_m.group(1)) if got_m else None
    if py_name in fn_names:
        name = fn_names[py_name]
        takes = _TAKES.match(text)
        missing = _MISSING.match(text)
        fn = _callee(exc, py_name)
        expected = _expected_counts(fn) if fn is not None else None
        if expected is None and takes is not None:  # "takes [from 1 to] 2 ... but 3"
            low = re.search(r"takes from (\d+) to (\d+)", text)
            expected = (
                " or ".join(str(n) for n in range(int(low.group(1)), int(low.group(2)) + 1))
                if low
                else takes.group(2)
            )
        if got is None and missing is not None:
            if fn is None:  # the callee is gone (a fn value called in place)
                return PtcError(
                    "arity_error",
                    f"{name}: wrong number of arguments, {missing.group(2)} too few",
                )
            code = fn.__code__
            got = code.co_argcount - len(fn.__defaults__ or ()) - int(missing.group(2))
        return PtcError("arity_error", arity_message(name, got, expected))
    kind = _VALUE_KIND.get(py_name) if py_name.endswith("_as_fn") else None
    if kind is not None:
        return PtcError("arity_error", f"{kind}, got {got if got is not None else 0}")
    base_globals()
    bname = _BUILTIN_NAMES.get(py_name)
    if bname is not None:
        spec = BUILTINS[bname]
        return PtcError("arity_error", arity_message(bname, got, spec.arity_text()))
    return PtcError("arity_error", arity_message("fn", got, None))


def arity_message(name: str, got: int | None, expected: str | None) -> str:
    """`f: wrong number of arguments (1), expected 2`: the one shape of arity errors."""
    count = f" ({got})" if got is not None else ""
    tail = f", expected {expected}" if expected else ""
    return f"{name}: wrong number of arguments{count}{tail}"


def _callee(exc: BaseException | None, py_name: str) -> Any:
    """The generated function a wrong-count call named, found in the calling frames (by
    its name, or among their locals: a fn held by a `let` or handed to a builtin)."""
    tb = exc.__traceback__ if exc is not None else None
    frames = []
    while tb is not None:
        frames.append(tb.tb_frame)
        tb = tb.tb_next
    for frame in reversed(frames[-4:]):
        fn = frame.f_locals.get(py_name, frame.f_globals.get(py_name))
        if inspect.isfunction(fn) and fn.__name__ == py_name:
            return fn
        for value in list(frame.f_locals.values())[:64]:
            if inspect.isfunction(value) and value.__name__ == py_name:
                return value
    return None


def _expected_counts(fn: Any) -> str:
    code = fn.__code__
    most = code.co_argcount
    least = most - len(fn.__defaults__ or ())
    if code.co_flags & inspect.CO_VARARGS:
        return f"{least} or more"
    return " or ".join(str(n) for n in range(least, most + 1))


def _innermost_is_generated(tb: TracebackType | None) -> bool:
    last = None
    while tb is not None:
        last = tb
        tb = tb.tb_next
    return last is not None and last.tb_frame.f_code.co_filename == GENERATED_FILENAME


def locate(err: PtcError, tb: TracebackType | None) -> PtcError:
    """Attach the Lisp position of the innermost generated-code frame in `tb`."""
    if err.line is not None:
        return err
    found: tuple[int, int] | None = None
    while tb is not None:
        code = tb.tb_frame.f_code
        if code.co_filename == GENERATED_FILENAME:
            pos = _position(code, tb.tb_lasti)
            if pos is not None:
                found = pos
        tb = tb.tb_next
    if found is not None:
        err.at(found[0], found[1])
    return err


def _position(code: CodeType, lasti: int) -> tuple[int, int] | None:
    if lasti < 0:
        return None
    for i, (line, _end, col, _end_col) in enumerate(code.co_positions()):
        if i == lasti // 2:
            if line is None or col is None:
                return None
            return line, col + 1
    return None
