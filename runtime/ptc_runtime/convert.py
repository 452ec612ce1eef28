"""Crossing the host boundary: host data in, tool arguments and JSON results out.

* `from_host`: Python/JSON values (tool results, `data/` values) into PTC values.
  Valid dicts and lists are used as they are (checked, never copied); only the parts
  that need converting (tuples, boolean keys, sets, dict subclasses) are rebuilt.
* `to_tool_args`: the normalisation of a tool's argument map.
* `to_json_value`: a PTC value as plain JSON-able Python for the public result.

Java temporal values leave as their canonical text (`"2024-01-31"`); host data
never contains them.

All three walk values with an explicit stack, so nesting depth is not limited by
Python's recursion limit.
"""

from __future__ import annotations

import datetime
import json
import math
import operator
from collections.abc import Callable, Sequence
from functools import partial
from gc import get_referents
from itertools import chain, compress
from typing import Any, Final

from ptc_runtime.collections import EqKey, PMap, PSet, PVec, kind_name, to_key
from ptc_runtime.context import Records
from ptc_runtime.errors import PtcError
from ptc_runtime.host_value import TOOL_ARGS, python_type, to_host
from ptc_runtime.printer import pr_str
from ptc_runtime.records import current_registry, register, revoke
from ptc_runtime.temporal import Temporal
from ptc_runtime.values import Keyword, SymbolRef

_SCALARS: Final = (type(None), bool, int, float, str, Keyword)

# Container kinds of the walker.
_VEC: Final = 0
_MAP: Final = 1
_SET: Final = 2

#: Classify a value: (kind, children) for containers, (-1, converted) for leaves.
#: Map children are (key, output key, value) triples.
Opener = Callable[[object], tuple[int, Any]]
#: Build a container from (kind, original, converted children, changed?).
Closer = Callable[[int, object, list[Any], bool], object]


def _walk(root: object, open_: Opener, close: Closer) -> object:
    """Rebuild `root` bottom-up without recursion.

    A frame is [kind, original, child iterator, converted children, changed, map key].
    `changed` records whether any converted child (or output key) differs from the
    original, so `close` can hand back the original untouched. A container met again
    inside itself (host data holding itself) is an error: the walk would never end.
    """
    kind, payload = open_(root)
    if kind < 0:
        return payload
    stack: list[list[Any]] = [[kind, root, iter(payload), [], False, None]]
    open_ids = {id(root)}  # the containers on the stack (each alive: the stack holds it)
    while True:
        frame = stack[-1]
        item: Any = next(frame[2], _END)
        if item is _END:
            stack.pop()
            open_ids.discard(id(frame[1]))
            value = close(frame[0], frame[1], frame[3], frame[4])
            if not stack:
                return value
            _attach(stack[-1], value, frame[1])
            continue
        if frame[0] == _MAP:
            key, out_key, child = item
            frame[5] = out_key
            if out_key is not key:
                frame[4] = True
        else:
            child = item
        ckind, cpayload = open_(child)
        if ckind < 0:
            _attach(frame, cpayload, child)
        else:
            if id(child) in open_ids:
                raise PtcError("tool_error", "host data holds itself (a cycle)")
            open_ids.add(id(child))
            stack.append([ckind, child, iter(cpayload), [], False, None])


_END: Final = object()


def _attach(frame: list[Any], value: object, original: object) -> None:
    if value is not original:
        frame[4] = True
    if frame[0] == _MAP:
        frame[3].append((frame[5], value))
    else:
        frame[3].append(value)


# ---------------------------------------------------------------- from_host


def _host_key(k: object) -> object:
    t = type(k)
    if t is str or t is int or t is float or t is Keyword or k is None:
        return k
    if t is bool:
        return EqKey(k)
    if t is tuple:
        return to_key(from_host(list(k)))  # type: ignore[call-overload]
    raise PtcError("tool_error", f"unsupported map key in host data: {_host_kind(k)}")


def _host_kind(x: object) -> str:
    k = kind_name(x)
    return "unsupported value" if k in ("unknown", "function") else k


def unsupported_part(x: object, limit: int = 1_000_000) -> str | None:
    """Where host data holds a value with no PTC form, and what it is, for messages:
    `at ["orders" 0 "placed"]: a datetime.datetime`; None when every part has one (or
    after `limit` parts: the walk is only for the message)."""
    stack: list[tuple[object, tuple[str, ...]]] = [(x, ())]
    seen = 0
    opened: set[int] = set()  # each container once: shared parts and cycles end the walk
    while stack and seen < limit:
        value, where = stack.pop()
        seen += 1
        if type(value) not in _SCALARS:
            if id(value) in opened:
                continue
            opened.add(id(value))
        place = f"at [{' '.join(where)}]" if where else "at the top"
        try:
            kind, payload = _host_open(value)
        except PtcError:
            hint = (
                " (pass datetimes as ISO 8601 strings)"
                if isinstance(value, datetime.date | datetime.time)
                else ""
            )
            return f"{place}: a {python_type(value)}{hint}"
        if kind < 0 or kind == _SET:
            continue
        items: list[tuple[object, object]] = []
        if isinstance(value, dict):
            for key, child in value.items():
                try:
                    _host_key(key)
                except PtcError:
                    return f"{place}: a map key that is a {python_type(key)}"
                items.append((key, child))
        elif kind == _MAP:
            items = [(k, c) for k, _, c in payload]
        else:
            items = list(enumerate(payload))
        for key, child in reversed(items):
            try:
                shown = json.dumps(key) if type(key) is str else repr(key)
            except ValueError:
                shown = "?"
            stack.append((child, (*where, shown[:40])))
    return None


def _host_open(x: object) -> tuple[int, Any]:
    t = type(x)
    if t in _SCALARS or t is PVec or t is PMap or t is PSet or t is SymbolRef:
        return -1, x
    if t is list or t is tuple:
        if len(x) >= _RUNS_FROM:  # type: ignore[arg-type]
            odd = _odd_positions(x)  # type: ignore[arg-type]
            if odd is not None:
                # walked as a map from positions: only these items are opened
                return _MAP, ((i, i, x[i]) for i in odd)  # type: ignore[index]
        return _VEC, x
    if isinstance(x, dict):
        return _MAP, ((k, _host_key(k), v) for k, v in x.items())
    if isinstance(x, (set, frozenset)):
        return _SET, x
    if isinstance(x, list):
        return _VEC, x
    raise PtcError("tool_error", f"host data contains an {_host_kind(x)}")


def _host_close(kind: int, orig: object, children: list[Any], changed: bool) -> object:
    if kind == _VEC:
        return orig if not changed and type(orig) is list else children
    if kind == _MAP:
        t = type(orig)
        if t is dict:
            return dict(children) if changed else orig
        if t is list or t is tuple:  # a long one: its odd items by position
            if not changed and t is list:
                return orig
            out = list(orig)  # type: ignore[call-overload]
            for i, v in children:
                out[i] = v
            return out
        return dict(children)
    return PSet.from_iterable(children)


def _odd_positions(items: list[object] | tuple[object, ...]) -> list[int] | None:
    """The positions of `items` in runs that the scan does not find plain, in order; None
    when that is most of them.

    One odd value in a long list of records would otherwise send every record through
    the walk, a Python-level step per value (a tuple in 100,000 orders: ~12 times the
    scan). Plain runs are kept as they are, which is what the walk makes of them, and
    cannot fail, so the output and the first error are the walk's. Blocks of `_BLOCK`
    items are scanned, then the runs of `_RUN` items of a block that is not plain: at
    most two scans per item and a call per run. The items of odd runs are scanned again
    when the walk opens them, so nested long lists cost one more scan per level of them.
    """
    odd: list[int] = []
    n = len(items)
    for lo in range(0, n, _BLOCK):
        hi = min(lo + _BLOCK, n)
        if _plain_run(items, lo, hi):
            continue
        for start in range(lo, hi, _RUN):
            end = min(start + _RUN, hi)
            if not _plain_run(items, start, end):
                odd.extend(range(start, end))
        if len(odd) * 2 > hi:
            return None  # mostly odd so far: walking all costs about the same
    return odd


def _plain_run(items: list[object] | tuple[object, ...], lo: int, hi: int) -> bool:
    run = items[lo:hi]
    try:
        return _is_plain(run if type(run) is list else list(run))
    except Exception:  # see from_host
        return False


#: Lists and tuples this long are scanned in blocks before the walk opens them.
_RUNS_FROM: Final = 128
_BLOCK: Final = 1024
_RUN: Final = 32


def from_host(x: object, records: Records | None = None) -> object:
    """Host data as a PTC value; unsupported host types raise `tool_error`.

    JSON-shaped data (dicts with string keys, lists, scalars) is returned as the very same
    object after one quick scan; only other shapes are rebuilt. The record lists the scan
    finds in such data are registered in `records` (by default the running program's;
    see `ptc_runtime.records`).
    """
    t = type(x)
    if t in _SCALARS:
        return x
    if records is None:
        records = current_registry()
    found: list[list[object]] | None = None if records is None else []
    # lists the scan finds no record list, when some are registered: a host may hand the
    # same list again after changing it (a tool's cache), see `records.revoke`
    unproven: list[Sequence[list[object]]] | None = [] if records else None
    try:
        plain = _is_plain(x, found, unproven)
    except Exception:  # a host class's metaclass whose __hash__ fails: the walk says why
        plain = False
    if unproven:
        revoke(records, unproven)  # type: ignore[arg-type]
    if plain:
        if found:
            register(records, found)  # type: ignore[arg-type]
        return x
    try:
        return _walk(x, _host_open, _host_close)
    except (PtcError, RecursionError, MemoryError):
        raise
    except Exception:
        # a host object's own method (a dict subclass's items, a key's __hash__) raised:
        # the host's bug, reported as typed without its text (it may hold a repr)
        raise PtcError(
            "tool_error", "host data could not be read: one of its values raised an error when read"
        ) from None


_PLAIN_VALUES: Final = frozenset({str, int, float, bool, type(None)})


def _is_plain(
    root: object,
    records: list[list[object]] | None = None,
    unproven: list[Sequence[list[object]]] | None = None,
) -> bool:
    """True when `root` is JSON-shaped: usable as a PTC value without any change.

    This scans every value of tool results and run data, so it works level by level with
    C-level iteration (`map(type, ...)`): all dicts of one level, then all lists,
    descending only where a level holds containers. Nesting is bounded by `_MAX_LEVELS`.
    The keys and values of a level's dicts come from `_str_keyed_values` when it can
    vouch for the keys, else from one type pass over every key. The containers of the
    next level are gathered per group (the dicts' values, the lists' items): a group that
    holds only dicts or only lists (a list of records, a map of lists) is taken whole,
    without a second look at each element's type, and a single such list is used as it is
    (it is only read). A long list of records among few lists is scanned a block at a time
    instead (`_record_values`), its values' containers joining the level below its
    items.

    `records` (if given) receives the lists of a level whose items are all dicts: when
    the scan returns True, each of those dicts was found to have only `str` keys (at the
    next level), so these are record lists (`ptc_runtime.records`). `unproven` (if given)
    receives the lists of every level whose items are not all dicts, in groups: none of
    them is proven a record list (some may still be, a level's items are typed together).
    """
    dicts: Sequence[dict[object, object]] = ()
    lists: Sequence[list[object]] = ()
    if type(root) is dict:
        dicts = (root,)
    elif type(root) is list:
        lists = (root,)
    else:
        return False
    later_dicts: list[Sequence[Any]] = []
    later_lists: list[Sequence[Any]] = []
    for _ in range(_MAX_LEVELS):
        value_kinds: set[type] = set()
        item_kinds: set[type] = set()
        values = None
        if dicts:
            values = _str_keyed_values(dicts)
            if values is not None:
                value_kinds = set(map(type, values))
            elif set(map(type, chain.from_iterable(dicts))) - _STR_ONLY:
                return False
            else:  # the values listed below only where containers remain
                value_kinds = set(map(type, chain.from_iterable(map(dict.values, dicts))))
        record_kinds: set[type] = set()
        record_values: list[list[object]] = []
        # the rest of a list `_record_values` gave up on, by id: (the rest, the list)
        tails: dict[int, tuple[list[object], list[object]]] = {}
        if lists and len(lists) <= _FEW_LISTS:
            other: list[list[object]] = []
            for items in lists:
                if len(items) < _RECORD_BLOCK:
                    other.append(items)
                    continue
                end = _record_values(items, record_kinds, record_values)
                if end == len(items):
                    if records is not None:
                        records.append(items)
                else:
                    rest = items[end:]
                    tails[id(rest)] = (rest, items)
                    other.append(rest)
            lists = other
        if lists:
            item_kinds = set(map(type, chain.from_iterable(lists)))
            if unproven is not None and item_kinds != _ONLY_DICT:
                unproven.append(
                    [tails[id(x)][1] if id(x) in tails else x for x in lists] if tails else lists
                )
        kinds = value_kinds | item_kinds | record_kinds
        if kinds - _PLAIN_OR_CONTAINER:
            return False
        # the containers found a level further down by `_record_values` join this level's
        # finds at the next level, where the scan alone would have found them too
        next_dicts, next_lists = later_dicts, later_lists
        later_dicts, later_lists = [], []
        if record_values and not record_kinds.isdisjoint(_CONTAINERS):
            _gather(record_kinds, _joined(record_values), later_dicts, later_lists)  # type: ignore[arg-type]
        if dict not in kinds and list not in kinds and not next_dicts and not later_dicts:
            if not next_lists and not later_lists:
                return True  # only scalars below: done (the last level is never listed)
        if dicts and not value_kinds.isdisjoint(_CONTAINERS):
            if values is None:
                values = _dict_values(dicts)
            _gather(value_kinds, values, next_dicts, next_lists)
        if lists and not item_kinds.isdisjoint(_CONTAINERS):
            if records is not None and item_kinds == _ONLY_DICT:
                if tails:  # a rest stands for its whole list (its first items are records)
                    records += [tails[id(x)][1] if id(x) in tails else x for x in lists]
                else:
                    records += lists
            items = lists[0] if len(lists) == 1 else list(chain.from_iterable(lists))
            _gather(item_kinds, items, next_dicts, next_lists)
        dicts = _joined(next_dicts)
        lists = _joined(next_lists)
    return False


def _record_values(items: Sequence[object], kinds: set[type], values: list[list[object]]) -> int:
    """How many of the first of `items` (a long list) are exact dicts with only `str`
    keys, checked a block at a time: the types of their values are added to `kinds`, and
    their values to `values` (a list per block; only blocks with containers among them).

    What the level-by-level scan finds for the list's items and, one level down, for
    their keys and values, but a block of `_RECORD_BLOCK` items at a time: the items'
    types, `_str_keyed_values` and the values' types are taken while the block's dicts
    are in the processor's cache (over a whole long list each pass reads every dict from
    memory again). The caller looks into the values' containers where the level scan
    would, and gives the items from the first block that is not such (a non-dict, a key
    that may not be a `str`) to the level scan.
    """
    step = _RECORD_BLOCK
    for lo in range(0, len(items), step):
        block = items[lo : lo + step]
        if set(map(type, block)) != _ONLY_DICT:
            return lo
        found = _str_keyed_values(block)  # type: ignore[arg-type]
        if found is None:
            return lo  # the level scan looks at every key
        block_kinds = set(map(type, found))
        kinds |= block_kinds
        if not block_kinds.isdisjoint(_CONTAINERS):
            values.append(found)  # only these are looked into again
    return len(items)


def _str_keyed_values(dicts: Sequence[dict[object, object]]) -> list[object] | None:
    """The values of all `dicts` (exact dicts) when every key is exactly a `str`, in one
    C call and without touching a key; None when this cannot tell (then the caller checks
    each key's type).

    CPython keeps a dict's keys in a "unicode" table only while every key is an exact
    `str` (inserting any other key converts the table), and the collector's traversal of
    such a dict visits only its values: `str` keys cannot form cycles. Any other table is
    traversed key and value, even when only `str` keys are left in it. So
    `gc.get_referents` of the dicts yields exactly their values when it yields as many
    objects as the dicts hold entries; a dict with any other key (a `str` subclass too)
    adds its keys and the counts differ.
    Only exact dicts get here, whose traversal is C code: no host code runs, no key is
    hashed or compared. `_REFERENTS_SEE_KEYS` checks this behaviour once at import (on
    another interpreter the keys are checked one by one as before). Besides the key
    check this saves the two objects `chain(map(dict.values, ...))` makes per dict.
    """
    if not _REFERENTS_SEE_KEYS:
        return None
    try:
        values = get_referents(*dicts)
    except Exception:  # the host's audit hook ("gc.get_referents" event) may refuse it
        return None
    if len(values) != sum(map(len, dicts)):
        return None  # some dict has a key table of another kind (maybe all str keys)
    return values


def _referents_see_keys() -> bool:
    """Whether `gc.get_referents` behaves as `_str_keyed_values` relies on here: every
    value of a dict with only exact `str` keys (immortal, atomic and container values
    alike, in a plain, a formerly mixed and an instance dict), and more objects than
    entries for dicts with any other key."""

    class _Sub(str):
        pass

    class _Obj:
        pass

    odd: list[object] = [None, True, False, 0, 1, 2**70, 1.5, "", "s", (), (1,), b"", int, [], {}]
    plain = {f"k{i}": v for i, v in enumerate(odd)}
    obj = _Obj()
    obj.__dict__.update(a=None, b=1, c=())
    mixed: dict[object, object] = {1: None}
    del mixed[1]
    mixed["a"] = 2
    str_keyed: list[dict[str, object]] = [plain, obj.__dict__]
    for d in str_keyed:
        got = get_referents(d)
        if len(got) != len(d) or not all(map(operator.is_, got, d.values())):
            return False
    keys: list[object] = [1, True, None, 1.5, (), _Sub("a"), b"", int, Keyword("a")]
    for key in keys:
        for other in ({key: None}, {"a": 1, key: ()}, {key: 0, "a": "b"}):
            if len(get_referents(other)) <= len(other):
                return False
    # a table that held another key may stay general with only str keys: more objects
    # than entries is safe (the caller checks each key), fewer would hide a value
    return len(get_referents(mixed)) >= len(mixed)


def _dict_values(dicts: Sequence[dict[object, object]]) -> list[object]:
    return list(chain.from_iterable(map(dict.values, dicts)))


def _gather(
    kinds: set[type], items: Sequence[Any], dicts: list[Sequence[Any]], lists: list[Sequence[Any]]
) -> None:
    """Add the dicts and the lists among `items` (whose types are `kinds`) to the next
    level's groups."""
    if kinds == _ONLY_DICT:
        dicts.append(items)
    elif kinds == _ONLY_LIST:
        lists.append(items)
    else:
        types = list(map(type, items))
        if dict in kinds:
            dicts.append(list(compress(items, map(_IS_DICT, types))))
        if list in kinds:
            lists.append(list(compress(items, map(_IS_LIST, types))))


def _joined(groups: list[Sequence[Any]]) -> Sequence[Any]:
    """The elements of `groups` as one sequence (the one group itself when there is one)."""
    if len(groups) == 1:
        return groups[0]
    return list(chain.from_iterable(groups))


_MAX_LEVELS: Final = 10_000
#: At most this many lists of a level are tried as lists of records (`_record_values`),
#: each when it is `_RECORD_BLOCK` items or longer; many lists are scanned together.
_FEW_LISTS: Final = 8
#: Records scanned at a time (`_record_values`): their dicts stay in the cache.
_RECORD_BLOCK: Final = 1024
_IS_DICT: Final = partial(operator.is_, dict)
_IS_LIST: Final = partial(operator.is_, list)
_STR_ONLY: Final = frozenset({str})
_PLAIN_OR_CONTAINER: Final = _PLAIN_VALUES | {dict, list}
_CONTAINERS: Final = frozenset({dict, list})
_ONLY_DICT: Final = frozenset({dict})
_ONLY_LIST: Final = frozenset({list})


def _probe_referents() -> bool:
    try:
        return _referents_see_keys()
    except Exception:  # refused by an audit hook: keys are checked one by one
        return False


_REFERENTS_SEE_KEYS: Final = _probe_referents()


# ---------------------------------------------------------------- to_tool_args


def to_tool_args(x: object, what: str = "the tool arguments", cap: int = 8 * 262_144) -> object:
    """Normalise tool arguments: string keys with `_` for `-`, keyword values as names.

    The arguments must be lossless JSON (`ptc_runtime.host_value.TOOL_ARGS`): a set, a
    function, NaN or two keys that normalise to the same text is `invalid_tool_args`
    naming the path; `cap` bounds the walk (the exact byte cap is checked after)."""
    return to_host(x, cap, what, TOOL_ARGS)


# ---------------------------------------------------------------- to_json_value


def _json_key(k: object) -> str:
    k = k.value if type(k) is EqKey else k
    t = type(k)
    if t is Keyword:
        return k.name  # type: ignore[attr-defined, no-any-return]
    if t is str:
        return k  # type: ignore[return-value]
    if t is int:
        return str(k)
    if t is float and math.isfinite(k):  # type: ignore[arg-type]
        return pr_str(k)
    if isinstance(k, Temporal):
        return str(k)
    raise PtcError(
        "invalid_output",
        f"a {kind_name(k)} map key cannot be encoded as JSON",
        kind="invalid-output",
    )


def _json_open(x: object) -> tuple[int, Any]:
    t = type(x)
    if t is Keyword:
        return -1, x.name  # type: ignore[attr-defined]
    if t is float:
        if not math.isfinite(x):  # type: ignore[arg-type]
            raise PtcError(
                "invalid_output",
                "NaN and infinities cannot be encoded as JSON",
                kind="invalid-output",
            )
        return -1, x
    if t in _SCALARS:
        return -1, x
    if t is list or t is PVec:
        return _VEC, x
    if t is dict or t is PMap:
        return _MAP, ((k, _json_key(k), v) for k, v in x.items())  # type: ignore[attr-defined]
    if t is PSet:
        return _SET, x.m.values()  # type: ignore[attr-defined]
    if t is SymbolRef:
        return -1, x.name  # type: ignore[attr-defined]
    if isinstance(x, Temporal):
        return -1, str(x)  # Java canonical text
    raise PtcError(
        "invalid_output", f"a {kind_name(x)} cannot be encoded as JSON", kind="invalid-output"
    )


def _json_close(kind: int, orig: object, children: list[Any], changed: bool) -> object:
    if kind == _MAP:
        out: dict[str, object] = {}
        for k, v in children:
            if k in out:
                raise PtcError(
                    "invalid_output",
                    f"two map keys are both encoded as the JSON key {k!s}",
                    kind="invalid-output",
                )
            out[k] = v
        return out
    return children


def to_json_value(x: object) -> object:
    """`x` as plain JSON-able Python (dict/list/str/int/float/bool/None)."""
    return _walk(x, _json_open, _json_close)
