"""Helpers the generated code calls (as globals named `rt_<name>`).

Generated code has no attribute access and no builtins, so everything it cannot
say with a Python operator it says by calling one of these. They are the only
door from a program to the run's state (`context.current()`): the user
namespace, data, tools and the step budget. `HELPERS` is the complete table;
the executor copies it into each run's globals.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from types import BuiltinFunctionType, FunctionType
from typing import Any, Final

from ptc_runtime import context, hashguard
from ptc_runtime.builtins.grouped import HELPERS as GROUPED_HELPERS
from ptc_runtime.collections import PSet, as_fn, seq_items, to_key
from ptc_runtime.contracts.calls import signed
from ptc_runtime.contracts.data import from_text as contract_from_text
from ptc_runtime.convert import from_host, to_tool_args
from ptc_runtime.destructure import HELPERS as DESTRUCTURE_HELPERS
from ptc_runtime.errors import FailSignal, PtcError, ReturnSignal
from ptc_runtime.fast.fieldformat import HELPERS as FIELD_FORMAT_HELPERS
from ptc_runtime.fast.filtered_groups import HELPERS as FILTERED_GROUPS_HELPERS
from ptc_runtime.fast.group_sums import HELPERS as GROUP_SUMS_HELPERS
from ptc_runtime.fast.pathmap import HELPERS as PATH_MAP_HELPERS
from ptc_runtime.fast.sequences import HELPERS as SEQUENCE_HELPERS
from ptc_runtime.fast.transient import HELPERS as TRANSIENT_HELPERS
from ptc_runtime.fastops import HELPERS as FAST_HELPERS
from ptc_runtime.fieldfilter import HELPERS as FIELD_FILTER_HELPERS
from ptc_runtime.images import PtcImage
from ptc_runtime.limits import measure
from ptc_runtime.lookup import (
    get_flexible,
    get_path,
    get_path1,
    get_path2,
    get_path3,
    get_path4,
    get_path5,
    get_path_or2,
    get_path_or3,
    get_path_or4,
    get_path_or5,
)
from ptc_runtime.prelude import HELPERS as PRELUDE_HELPERS
from ptc_runtime.printer import pr_str
from ptc_runtime.regexp import compile_regex
from ptc_runtime.values import Keyword, SymbolRef, VarRef, keyword

_MISSING: Final = object()
_PLAIN_CALLABLES: Final = (FunctionType, BuiltinFunctionType)


def refill(fuel: context.Fuel, credit: context.Credit, due: int = 1) -> context.Fuel:
    """A pull found the fuel chunk empty: account (less the loop entries credited on the
    module's `credit`), check limits, hand out the next chunk."""
    return context.current().refill(fuel, credit, due)


def kw(name: str) -> object:
    return keyword(name)


def kws(*names: str) -> tuple[object, ...]:
    """The keywords `names` name, in order: a module's keyword constants, made at once
    (generated code: `kA, kB, ... = rt_kws('a', 'b', ...)`)."""
    return tuple(map(keyword, names))


def symref(name: str) -> SymbolRef:
    return SymbolRef(name)


def special_float(text: str) -> float:
    return float(text)


def regex(source: str) -> object:
    return compile_regex(source)


def kget(m: object, k: object, default: object = None) -> object:
    """`(:k m)`: exact key first, then its string spelling (tool data), then the rest of
    the flexible variants — the same order as `lookup.get_flexible`, two dict probes for
    the common cases."""
    if type(m) is dict:
        v = m.get(k, _MISSING)
        if v is not _MISSING:
            return v
        if type(k) is Keyword:
            v = m.get(k.name, _MISSING)
            if v is not _MISSING:
                return v
    return get_flexible(m, k, default)


def kfield(m: object, k: object, name: str, default: object = None) -> object:
    """`(:k m)`, `(:k m d)`, `(get m :k)`, `(get m :k d)` for a keyword `k` whose `name`
    has no `-` (the compiler passes the name next to the hoisted keyword).

    For such a keyword a flexible read of a dict finds the exact key, else the string
    spelling, else nothing (`lookup.find_key` tries the `_` spellings only for names with
    `-`), so on a dict it is two C-level probes and no further search. The name probe runs
    first as the default of the exact one: both are side-effect free and the exact key
    still wins. Anything else (persistent maps, vectors, nil...) reads through
    `get_flexible` like `kget`.
    """
    if type(m) is dict:
        return m.get(k, m.get(name, default))
    return get_flexible(m, k, default)


def kfield_dash(
    m: object, k: object, name: str, alt_kw: object, alt: str, default: object = None
) -> object:
    """`(:k m)`, `(:k m d)`, `(get m :k)`, `(get m :k d)` for a keyword `k` whose `name` has
    `-` (the compiler passes the name, the keyword of its `_` spelling `alt`, interned with
    the module's constants, and `alt`).

    On a dict: the exact key, else the spellings `lookup.find_key` tries after it, in its
    order: the string `name`, the keyword `alt_kw`, the string `alt` (tool data often spells
    `:user-id` as "user_id"): C-level probes, no search (`rt_kget` went through
    `get_flexible` and `find_key`, three frames). That `alt_kw` is interned here changes no
    read: a keyword no map held before cannot be a key of one. Anything else reads through
    `get_flexible`.
    """
    if type(m) is dict:
        v = m.get(k, _MISSING)
        if v is _MISSING:
            return m.get(name, m.get(alt_kw, m.get(alt, default)))
        return v
    return get_flexible(m, k, default)


def kfield_other(m: object, key: object, default: object = None) -> object:
    """The getter of an element that is not a plain dict in a loop whose element is read
    by constant keywords (`t = rt_dget if rt_type(x) is rt_dict else rt_kother`, then each
    read `t(x, k, t(x, 'name', default))`; see `rules_paths.keyword_getter` in the compiler).

    For a dict that is `kfield`'s two probes. For anything else the inner call, given the
    name string, hands its default on untouched, and the outer one, given the keyword,
    reads flexibly with it: exactly `kfield(m, k, name, default)`.
    """
    if type(key) is str:
        return default
    return get_flexible(m, key, default)


def call(f: object, *args: object) -> object:
    """Call any PTC callable: fns and builtins directly, keywords/maps/sets as functions."""
    if type(f) in _PLAIN_CALLABLES:
        return f(*args)  # type: ignore[operator]
    return as_fn(f)(*args)


def map_lit(*kvs: object) -> dict[object, object]:
    """A map literal whose keys need wrapping (booleans, collections) or are computed."""
    if len(kvs) > 2 * hashguard.MAX_SAME_HASH:  # many computed keys hashed in one call
        hashguard.check_keys(kvs[::2], "map literal")
    out: dict[object, object] = {}
    for i in range(0, len(kvs), 2):
        out[to_key(kvs[i])] = kvs[i + 1]
    return out


def set_lit(*items: object) -> PSet:
    return PSet.from_iterable(items)


def iter_coll(coll: object) -> Iterable[object]:
    """Elements `for`/`doseq` visit: maps give `[k v]` entries, strings characters."""
    return seq_items(coll, "for")


def rest_args(args: tuple[object, ...]) -> list[object] | None:
    """A variadic `& rest` parameter: a vector, or nil when no argument was given."""
    return list(args) if args else None


def multi_arity(label: str, *fns: Callable[..., object]) -> Callable[..., object]:
    """One callable dispatching on argument count to the arities of a multi-arity fn."""
    fixed: dict[int, Callable[..., object]] = {}
    variadic: tuple[int, Callable[..., object]] | None = None
    for f in fns:
        code = f.__code__
        if code.co_flags & 0x04:  # CO_VARARGS
            variadic = (code.co_argcount, f)
        else:
            fixed[code.co_argcount] = f
    counts = sorted(fixed)
    expected = " or ".join(str(c) for c in counts)
    if variadic is not None:
        expected = (expected + " or " if expected else "") + f"{variadic[0]} or more"

    def dispatch(*args: object) -> object:
        f = fixed.get(len(args))
        if f is None:
            if variadic is None or len(args) < variadic[0]:
                raise PtcError(
                    "arity_error",
                    f"{label}: wrong number of arguments ({len(args)}), expected {expected}",
                )
            f = variadic[1]
        return f(*args)

    dispatch.__name__ = fns[0].__name__.rsplit("_a", 1)[0]
    return dispatch


def def_(name: str, value: object) -> VarRef:
    """`(def name value)`: bind in the user namespace (and its call table)."""
    ctx = context.current()
    ctx.ns[name] = value
    ctx.nsc[name] = callable_for(name, value)
    return VarRef(name)


def var(name: str) -> VarRef:
    return VarRef(name)


def callable_for(name: str, value: object) -> Callable[..., object]:
    """What `(name args...)` calls when `name` is a user definition holding `value`."""
    if type(value) in _PLAIN_CALLABLES:
        return value  # type: ignore[return-value]
    try:
        return as_fn(value)
    except PtcError:
        kind = pr_str(value) if value is None or isinstance(value, bool | int | float) else None

        def not_callable(*args: object) -> object:
            shown = kind if kind is not None else "a value that is not a function"
            raise PtcError("not_callable", f"not callable: {name} is {shown}")

        return not_callable


def uget_lenient(name: str) -> object:
    """A user definition, or nil when not defined (bare `or` operands, `(def x (or x ...))`)."""
    return context.current().ns.get(name)


def data(key: str) -> object:
    """`data/<key>` with flexible lookup; nil when absent."""
    return get_flexible(context.current().data, key)


def history(n: int) -> object:
    return context.current().history[n - 1]


def tool(name: str, arg: object) -> object:
    """`(tool/name arg)`: normalise the argument map and call the host through the run's
    invoker (in-process bindings or the isolated worker's proxy); the result is PTC data."""
    ctx = context.current()
    if arg is None:
        arg = {}
    if not isinstance(arg, Mapping) and not hasattr(arg, "items"):
        raise PtcError(
            "invalid_tool_args",
            f"tool/{name} takes one map of named arguments",
            hint=f"call it as (tool/{name} {{:key value}})",
        )
    limits = ctx.options.get("limits")
    cap = 8 * (limits.tool_arg_bytes if limits is not None else 262_144)
    if measure(arg, cap) > cap:  # bounded: refuse huge or heavily shared arguments first
        raise PtcError(
            "invalid_tool_args", f"arguments of tool/{name} are too large", kind="protocol"
        )
    args = to_tool_args(arg, f"the arguments of tool/{name}", cap)
    ctx.check_time()
    result = ctx.invoke_tool(name, args)
    return result if type(result) is PtcImage else from_host(result)


def toolfn(name: str) -> Callable[..., object]:
    """`tool/name` used as a value: a one-argument callable."""

    def call_tool(arg: object = None) -> object:
        return tool(name, arg)

    call_tool.__name__ = "tool/" + name
    return call_tool


def return_(value: object) -> object:
    raise ReturnSignal(value)


def fail(value: object) -> object:
    raise FailSignal(value)


def is_nan(x: object) -> bool:
    return type(x) is float and math.isnan(x)


HELPERS: Final[dict[str, Any]] = {
    "rt_refill": refill,
    "rt_kw": kw,
    "rt_kws": kws,
    "rt_symref": symref,
    "rt_special_float": special_float,
    "rt_regex": regex,
    "rt_kget": kget,
    "rt_kfield": kfield,
    "rt_kdash": kfield_dash,
    "rt_get_path": get_path,
    "rt_get_path1": get_path1,
    "rt_get_path2": get_path2,
    "rt_get_path3": get_path3,
    "rt_get_path4": get_path4,
    "rt_get_path5": get_path5,
    "rt_get_path_or2": get_path_or2,
    "rt_get_path_or3": get_path_or3,
    "rt_get_path_or4": get_path_or4,
    "rt_get_path_or5": get_path_or5,
    "rt_call": call,
    "rt_map": map_lit,
    "rt_set": set_lit,
    "rt_iter": iter_coll,
    "rt_rest_args": rest_args,
    "rt_multi_arity": multi_arity,
    "rt_def": def_,
    "rt_var": var,
    "rt_uget_lenient": uget_lenient,
    "rt_data": data,
    "rt_history": history,
    "rt_tool": tool,
    "rt_toolfn": toolfn,
    "rt_return_": return_,
    "rt_fail": fail,
    **{"rt_" + name: fn for name, fn in DESTRUCTURE_HELPERS.items()},
    **FAST_HELPERS,
    **FIELD_FILTER_HELPERS,
    **FIELD_FORMAT_HELPERS,
    **GROUPED_HELPERS,
    **FILTERED_GROUPS_HELPERS,
    **GROUP_SUMS_HELPERS,
    **TRANSIENT_HELPERS,
    **SEQUENCE_HELPERS,
    **PATH_MAP_HELPERS,
    **PRELUDE_HELPERS,
    "rt_contract": contract_from_text,
    "rt_signed": signed,
    # Numeric fast paths of compiled code test `rt_type(x) is rt_int` (bool excluded) and
    # `rt_type(x) is rt_float` (see `emit.number_test` and `rules_operators.same_type_arith`).
    "rt_type": type,
    "rt_int": int,
    "rt_float": float,
    # A collecting loop (`for`, `map`/`mapv` with a literal fn) adds each element with
    # `rt_append(acc, x)` (see `emit.collect_item`): the C method descriptor, no frame.
    "rt_append": list.append,
    # Keyword reads of a loop element (`rules_paths.keyword_getter` in the compiler): the
    # getter is chosen once per element, `rt_dget` (C, no frame) or `rt_kother`.
    "rt_dget": dict.get,
    "rt_dict": dict,
    "rt_kother": kfield_other,
}
