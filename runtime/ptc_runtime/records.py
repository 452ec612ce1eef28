"""Record lists: host lists the data scan proved to hold only string-keyed maps.

`convert.from_host` scans host data before a run uses it (`_is_plain`). A list whose items
the scan found to be all exact dicts, each with only exact `str` keys (a "record list":
the usual list of JSON objects from a tool or `data/`), is registered on the run's
`RunContext.records` by identity, with a reference so its id cannot be reused while
listed. Bulk readers of a keyword field over such a list may then read the field's
string spelling directly: a flexible read of `:k` (`lookup.find_key`) probes the keyword
first, which can never be a key of such a map (keywords are equal only to themselves),
so the string `"k"` is what it finds. For a name with `-` the read goes on to the `_`
spelling when `"k-x"` is missing; readers take the direct path only when every item holds
the name itself and otherwise fall back to the general path.

Why the proof stays true for the whole run: host data is only read (programs never
mutate it: `transient.Owned` writes only into containers its loop created, copying
anything else first), and a host changing its data while a run reads it would already
void the scan itself. A host may hand the same list again, changed (a tool returning
its cache): its new scan then revokes it (`revoke`: every list of a level whose items
are not all maps is dropped from the registry), before it registers what it proves.
Lists built from record lists by the runtime (`filter_field`'s output: a subset of the
same dicts) are registered too. Nothing carries over to another run: the next run scans
its data again.

The registry is pruned when it has grown (`register`): a list only the registry still
holds is dropped, so tool results a program let go of are not kept alive by it.
"""

from __future__ import annotations

from collections.abc import Iterable
from sys import getrefcount
from typing import Any, Final

from ptc_runtime import context
from ptc_runtime.context import Records

#: Lists shorter than this are not registered: a bulk read of a few items gains nothing.
MIN_LEN: Final = 16

_current = context._current


def _refs(registry: dict[int, list[Any]], key: int) -> int:
    items = registry.get(key)
    return 0 if items is None else getrefcount(items)


#: `_refs` of a list nothing but its registry holds.
_ONLY_REGISTRY: Final = _refs({0: []}, 0)


def current_registry() -> Records | None:
    """The running program's registry, None outside a run."""
    ctx = _current.get(None)
    return None if ctx is None else ctx.records


def register(registry: Records, lists: Iterable[list[Any]]) -> None:
    """Add `lists` (each proven a record list) to `registry`; when it has grown to its
    bound, drop the lists nothing else holds any more (tool results a program let go of
    are not kept alive by it) and set the bound to twice what is left."""
    for items in lists:
        if len(items) >= MIN_LEN:
            registry[id(items)] = items
    if len(registry) >= registry.bound:
        # over a copy of the keys, each looked up again: a parallel worker may register
        # or prune meanwhile
        for key in list(registry):
            if _refs(registry, key) == _ONLY_REGISTRY:
                registry.pop(key, None)
        registry.bound = max(Records.FIRST_BOUND, 2 * len(registry))


def revoke(registry: Records, groups: Iterable[Iterable[list[Any]]]) -> None:
    """Drop from `registry` the lists of `groups` it holds: a later scan of them (the
    host handed one again, changed since) no longer proves them record lists."""
    for lists in groups:
        # ids of live lists: the registry's entry under one is that very list
        for key in registry.keys() & set(map(id, lists)):
            registry.pop(key, None)


def is_records(items: object) -> bool:
    """True when `items` is a record list registered in the running program."""
    ctx = _current.get(None)
    if ctx is None:
        return False
    return ctx.records.get(id(items)) is items


def add_derived(items: list[Any]) -> None:
    """Register `items`, a list of items taken from a record list (some of them, each
    as it is)."""
    if len(items) >= MIN_LEN:
        ctx = _current.get(None)
        if ctx is not None:
            register(ctx.records, (items,))
