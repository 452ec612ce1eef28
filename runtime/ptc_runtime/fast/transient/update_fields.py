"""`(reduce (fn [acc x] (-> acc (update-in [k (:f x) ...] f a) ...)) m coll)` as one
call (`rt_t_update_fields`): the loop's steps and updates, with the prefix walks
memoized per element fields and runs of `+`/`-`/`inc`/`dec` on numbers added inline.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Sequence
from itertools import compress, islice, repeat
from operator import countOf, getitem, itemgetter, length_hint, not_
from typing import Any, Final

from ptc_runtime import context
from ptc_runtime.collections import PMap
from ptc_runtime.errors import PtcError
from ptc_runtime.fast.transient.owned import (
    MISSING,
    NO_MAP,
    Owned,
    adopt,
    owned_child,
    release,
    t_begin,
)
from ptc_runtime.fast.transient.update_in import in_place_update_in, leaf_key, walk_owned
from ptc_runtime.fastops import add2 as _add2
from ptc_runtime.fastops import dec1 as _dec1
from ptc_runtime.fastops import inc1 as _inc1
from ptc_runtime.fastops import sub2 as _sub2
from ptc_runtime.lookup import NOT_FOUND, find_key, get_flexible
from ptc_runtime.records import is_records
from ptc_runtime.values import Keyword

#: `dict.get` as a two-argument function of any item (the items are dicts where used).
_dict_get: Final[Callable[[Any, object], Any]] = dict.get


#: One update of `t_update_fields`: the path's last key, the update fn (a fast helper
#: of `fastops`), its argument count after the old value (0 or 1), the index of the
#: field that is its argument (-1: `arg` is), `arg`, and the `update-in`'s line and
#: column (where its errors are placed).
FieldUpdate = tuple[Any, Callable[..., Any], int, int, Any, int, int]
#: Consecutive updates of `t_update_fields` whose paths share all keys but the last: the
#: prefix (constant keys, None where an element's field goes), the indexes of the fields
#: that fill those places in order, and the updates.
FieldGroup = tuple[tuple[Any, ...], tuple[int, ...], tuple[FieldUpdate, ...]]
_REPEAT: Final = type(repeat(None, 0))
_NO_HEAD: Final = (None, False)
_left: Final = _REPEAT.__length_hint__


def t_update_fields(
    m: Any,
    items: Sequence[object],
    kws: tuple[Keyword, ...],
    names: tuple[str, ...],
    groups: tuple[FieldGroup, ...],
    fresh: bool,
    fuel: context.Fuel,
    credit: context.Credit,
) -> tuple[context.Fuel, Any]:
    """`(reduce (fn [acc x] (-> acc (update-in [k (:f x) ...] f a) ...)) m coll)`, the
    whole loop in one call: each path holds constant string/keyword keys and fields of
    the element (`kws`, spelled `names`: keywords without `-`), its last key a constant;
    each update fn is a fast helper of `fastops` (pure: it never calls back into the
    program), with no argument or one, a constant or a field. `items` are `coll`'s
    elements (`t_items`, called where a bad collection fails), `fresh` tells that `m` is
    a new `{}`, and the fuel chunk to continue with is handed back (as `t_assoc_fields`).

    Steps. The loop pulls a step per element, then runs the body. Here the elements
    whose steps are still in the chunk run first and their steps are pulled after: the
    updates neither pull steps nor have effects, and an update that fails pulls the
    steps up to its element only, so the count, and the element where an exhausted
    budget or an update fails, are the loop's. (Running ahead of the pulls is not
    observable: the accumulator a failed run leaves is never seen, as no form catches
    an error.) An empty chunk is refilled where the loop would, charging the element.

    Updates. The element's fields are read for a part at a time (reads cannot fail or
    have effects; on a record list straight by their string spelling, see
    `ptc_runtime.records`). Each group's prefix walk is memoized by the element's
    fields in it: (the map at the prefix's end, the key each update found there), under
    the same rules as `Owned.paths` (strings and keywords only, exact or name probes,
    every level owned; all dropped when a map is released or the accumulator replaced).
    A memoized update of an int/float by `+`/`-`/`inc`/`dec` is done inline, exactly
    what the fast helper computes (as `t_update_in2k`); any other update runs what the
    loop runs (`in_place_update_in`, or the fn on the memoized leaf), its error placed
    at its `update-in`.
    """
    run = _FieldsRun(m, t_begin(m) if fresh else t_begin(), len(groups), kws, names)
    module = sys._getframe(1).f_globals  # the caller's `FUEL` (see `fieldfilter`)
    if module.get("FUEL") is not fuel:
        module = {"FUEL": fuel}
    run.records = is_records(items)
    # one group whose updates are all `+`/`-`/`inc`/`dec`
    inline = len(groups) == 1 and all(u[1] in _DELTA for u in groups[0][2])
    n = len(items)
    i = 0
    while i < n:
        chunk = module["FUEL"]  # now: a parallel worker may have refilled it
        left = _left(chunk) if type(chunk) is _REPEAT else length_hint(chunk)
        if left:
            want = left if left < n - i else n - i
            due = True  # the part's steps are pulled after it ran
        else:  # the loop's pull found the chunk empty: refill, charging this element
            module["FUEL"] = context.current().refill(chunk, credit)
            want, due = 1, False
        run.part = items[i : i + want] if i or want < n else items
        run.cols = [None] * len(kws)
        run.size = want
        run.done = 0
        try:
            if inline:
                run.inline(groups[0])
            else:
                run.general(groups)
        except BaseException:
            if due:
                _pull(module, credit, run.done + 1)  # the steps up to the failing element
            raise
        if due:
            _pull(module, credit, want)
        i += want
    return module["FUEL"], run.m


#: The fast helpers `t_update_fields` applies inline, each as the number added to an
#: int/float of the argument's type (`inc`: an int's 1; `-`: the argument negated, exact
#: for ints and floats: IEEE subtraction is addition of the negation): None = the argument.
_DELTA: Final[dict[Callable[..., Any], int | None]] = {_add2: None, _sub2: -1, _inc1: 1, _dec1: -1}


#: Elements `_FieldsRun.inline` runs one at a time before it tries bare additions again.
_ONE_BY_ONE: Final = 256
_first: Final = itemgetter(0)


def _uniform(values: Sequence[Any]) -> type | None:
    """The type of all of `values` when they have one (None for none or several)."""
    kinds = set(map(type, values))
    return kinds.pop() if len(kinds) == 1 else None


class _FieldsRun:
    """The state of one `t_update_fields` call: the accumulator `m`, its ownership table,
    a memo per group, the accumulator they were walked from, the current part's field
    columns and size, and the element of it running (for the steps when one fails)."""

    __slots__ = (
        "cols",
        "done",
        "epoch",
        "heads",
        "hits",
        "kinds",
        "kws",
        "m",
        "memos",
        "mixed",
        "names",
        "owned",
        "part",
        "records",
        "size",
        "token",
        "walked",
    )

    def __init__(
        self, m: Any, owned: Owned, groups: int, kws: tuple[Keyword, ...], names: tuple[str, ...]
    ) -> None:
        self.kws = kws
        self.names = names
        self.records = False
        self.part: Sequence[Any] = ()
        # the types the leaves of all memoized walks hold (None: no walk yet), unless
        # `mixed` (see `bare`)
        self.kinds: tuple[type, ...] | None = None
        self.mixed = False
        self.m = m
        self.owned = owned
        self.token: dict[tuple[object, ...], list[Any]] = {}
        owned.paths = self.token  # a release replaces it (see `release`): memos void
        self.memos: list[dict[Any, tuple[Any, ...]]] = [{} for _ in range(groups)]
        # the walks `prewalks` shares: by the fields but the last of the one group
        self.heads: dict[Any, tuple[Any, bool]] = {}
        self.hits: list[Any] = []  # the memoized walks of a part (`streamed`)
        self.walked = m
        self.cols: list[list[Any] | None] = []
        self.size = 0
        self.done = 0
        self.epoch = 0  # counts `forget`s

    def col(self, f: int) -> list[Any]:
        """Field `f` of the current part's elements, read once per part."""
        col = self.cols[f]
        if col is None:
            k, name = self.kws[f], self.names[f]
            if self.records:
                col = list(map(_dict_get, self.part, repeat(name)))
            else:
                col = [
                    x.get(k, x.get(name)) if type(x) is dict else get_flexible(x, k)
                    for x in self.part
                ]
            self.cols[f] = col
        return col

    def keys(self, fidx: tuple[int, ...]) -> Sequence[Any]:
        """The memo keys of a group over the current part: its fields' values (one
        field: the value, several: their tuple)."""
        if not fidx:
            return [()] * self.size
        if self.records and all(self.cols[f] is None for f in fidx):
            try:  # straight from the maps when they all hold the fields
                return list(map(itemgetter(*(self.names[f] for f in fidx)), self.part))
            except KeyError:
                pass
        if len(fidx) == 1:
            return self.col(fidx[0])
        return list(zip(*(self.col(f) for f in fidx), strict=True))

    def deltas(self, u: FieldUpdate) -> tuple[Sequence[Any] | None, Any]:
        """What an inline update adds over the current part (see `_DELTA`): a column,
        or None and the one number every element adds (for another fn, a value of no
        number type: never added inline)."""
        if u[1] not in _DELTA:
            return None, MISSING
        sign = _DELTA[u[1]]
        if not u[2]:  # inc/dec
            return None, sign
        if u[3] < 0:  # a constant argument
            a = u[4]
            return None, a if sign is None or not (type(a) is int or type(a) is float) else -a
        col = self.col(u[3])
        if sign is None:
            return col, None
        return [-a if type(a) is int or type(a) is float else a for a in col], None

    def inline(self, group: FieldGroup) -> None:
        """The part's elements for one group of `+`/`-`/`inc`/`dec` updates.

        Stretches of elements whose walks are all memoized, each adding numbers of one
        type (int or float) to leaves that all hold that type, run as bare additions:
        such an addition keeps the leaf's type, so the leaves stay what was checked, and
        it cannot fail. Each leaf still gets its numbers in element order. Elements
        after a stretch run one at a time (`one_by_one`), for a while."""
        cols = [self.deltas(u) for u in group[2]]
        kinds: list[type | None] = []
        for col, d in cols:
            kind = type(d) if col is None else _uniform(col)
            kinds.append(kind if kind is int or kind is float else None)
        get = self.memos[0].get
        if self.streamed(group, kinds, get) and self.bare((), self.hits, cols, kinds, 0, self.size):
            # every walk memoized, its leaves of the kinds added: one stretch, the keys
            # streamed into the lookups (a list of them costs as much again)
            return
        keys = self.keys(group[1])
        n = len(keys)
        try:
            hits = list(map(get, keys)) if None not in kinds else None
        except TypeError:  # a collection as a key: never memoized
            hits = None
        if hits is None:
            self.one_by_one(0, group, keys, cols, 0, n)
            return
        if None in hits:  # walks first taken in this part: memoized ahead where they can be
            self.prewalks(group, dict.fromkeys(compress(keys, map(not_, hits))))
            hits = list(map(get, keys))
        epoch = self.epoch
        pos = 0
        while pos < n:
            if self.epoch != epoch:  # walks were dropped: look the rest up again
                hits[pos:] = map(get, keys[pos:])
                epoch = self.epoch
            end = pos  # the stretch of memoized walks from `pos`
            while True:
                try:
                    end = hits.index(None, end)
                except ValueError:
                    end = n
                    break
                hit = get(keys[end])  # not memoized when looked up, maybe since
                if hit is None:
                    break
                hits[end] = hit
                end += 1
            if end > pos and self.bare(keys, hits, cols, kinds, pos, end):
                pos = end
            else:
                stop = min(n, max(end, pos + _ONE_BY_ONE))
                self.one_by_one(0, group, keys, cols, pos, stop)
                pos = stop

    def streamed(
        self, group: FieldGroup, kinds: list[type | None], get: Callable[[Any], Any]
    ) -> bool:
        """Whether the memo keys of the part's elements (a record list's, read straight
        from the maps) all have memoized walks whose leaves hold `kinds` (see `bare`),
        once the walks first taken in the part are memoized ahead (`prewalks`, for
        their elements only); those walks are then `hits`."""
        fidx = group[1]
        if not self.records or not fidx or None in kinds or self.mixed:
            return False
        if self.kinds != tuple(kinds) or any(self.cols[f] is not None for f in fidx):
            return False
        getter = itemgetter(*(self.names[f] for f in fidx))
        part = self.part
        try:
            hits = list(map(get, map(getter, part)))
        except (KeyError, TypeError):  # a field missing, a collection as a key
            return False
        if None in hits:
            missing: list[int] = []
            i = -1
            while True:
                try:
                    i = hits.index(None, i + 1)
                except ValueError:
                    break
                missing.append(i)
            epoch = self.epoch
            self.prewalks(group, dict.fromkeys(getter(part[i]) for i in missing))
            if self.epoch != epoch:  # walks were dropped
                return False
            for i in missing:
                hits[i] = get(getter(part[i]))
            if None in hits:
                return False
        self.hits = hits
        return True

    def bare(
        self,
        keys: Sequence[Any],
        hits: list[Any],
        cols: list[tuple[Sequence[Any] | None, Any]],
        kinds: list[type | None],
        pos: int,
        end: int,
    ) -> bool:
        """Run elements `pos` to `end` of the part, all memoized (`hits`), as bare
        additions if their leaves hold the types added (see `inline`); whether it did."""
        if self.mixed or self.kinds != tuple(kinds):
            # check the leaves of these walks (else all leaves hold `self.kinds`: each
            # was checked when its walk was memoized, and since then only changed by
            # additions that keep the type, or `mixed` would be set)
            get = self.memos[0].get
            entries: list[Any] = list(map(get, dict.fromkeys(islice(keys, pos, end))))
            maps = list(map(_first, entries))
            for u, kind in enumerate(kinds, 1):
                if _uniform(list(map(getitem, maps, map(itemgetter(u), entries)))) is not kind:
                    return False
        its = [repeat(d) if col is None else islice(col, pos, end) for col, d in cols]
        if len(cols) > 2:
            for hit, *adds in zip(islice(hits, pos, end), *its, strict=False):
                cur = hit[0]
                for f, a in zip(hit[1:], adds, strict=True):
                    cur[f] += a
            return True
        it1 = its[0]
        if len(cols) == 1:
            for (cur, f), a in zip(islice(hits, pos, end), it1, strict=False):
                cur[f] += a
        else:
            it2 = its[1]
            for (cur, f, g), a, b in zip(islice(hits, pos, end), it1, it2, strict=False):
                cur[f] += a
                cur[g] += b
        return True

    def one_by_one(
        self,
        g: int,
        group: FieldGroup,
        keys: Sequence[Any],
        cols: list[tuple[Sequence[Any] | None, Any]],
        start: int,
        stop: int,
    ) -> None:
        """Elements `start` to `stop` of the part one at a time for group `g`: memoized
        walks with the inline additions where the types allow, else as the loop runs
        them."""
        ups = group[2]
        get = self.memos[g].get
        for j in range(start, stop):
            self.done = j
            key = keys[j]
            try:
                hit = get(key)
            except TypeError:  # a collection as a key: never memoized
                hit = None
            if hit is None:
                self.miss(g, group, key, j)
                continue
            cur = hit[0]
            for u, (col, d), found in zip(ups, cols, hit[1:], strict=True):
                a = d if col is None else col[j]
                old = cur[found]
                if (to := type(old)) is type(a) and (to is int or to is float):
                    cur[found] = old + a
                else:
                    self.apply(cur, found, u, j)

    def general(self, groups: tuple[FieldGroup, ...]) -> None:
        """The part's elements for any groups and update fns, each element's groups in
        order (two groups may reach one leaf)."""
        plan = [
            (g, group, self.memos[g].get, self.keys(group[1]), [self.deltas(u) for u in group[2]])
            for g, group in enumerate(groups)
        ]
        for j in range(self.size):
            self.done = j
            for g, group, get, keys, cols in plan:  # `one_by_one` of one element
                key = keys[j]
                try:
                    hit = get(key)
                except TypeError:  # a collection as a key: never memoized
                    hit = None
                if hit is None:
                    self.miss(g, group, key, j)
                    continue
                cur = hit[0]
                for u, (col, d), found in zip(group[2], cols, hit[1:], strict=True):
                    a = d if col is None else col[j]
                    old = cur[found]
                    if (to := type(old)) is type(a) and (to is int or to is float):
                        cur[found] = old + a
                    else:
                        self.apply(cur, found, u, j)

    def apply(self, cur: dict[Any, Any], found: object, u: FieldUpdate, j: int) -> None:
        """Update `u` of element `j` on a memoized leaf: the last step of
        `in_place_update_in`, its error placed at the `update-in`."""
        _k, fn, nargs, af, arg, line, col = u
        owned = self.owned
        old = cur[found]
        args = () if not nargs else (self.col(af)[j] if af >= 0 else arg,)
        self.mixed = True  # the leaf may hold anything now
        try:
            if type(old) is dict and id(old) in owned:
                release(owned, old)  # handed to the update fn
            cur[found] = fn(old, *args)
        except PtcError as err:
            err.at(line, col)
            raise
        if owned.paths is not self.token:  # released: the memos are void
            self.forget()

    def miss(self, g: int, group: FieldGroup, key: Any, j: int) -> None:
        """Element `j`'s updates of group `g`, whose walk is not memoized, as the loop
        runs them; then its memo entry, if `Owned.paths` would keep one.

        The prefix is walked once, adopting its levels (what the first update adopts
        anyway, as in `t_update_in2`); when every level is a map, each update is the
        last step of `in_place_update_in` from the map at its end, else the updates
        run `in_place_update_in` from the accumulator."""
        ups = group[2]
        path = self.path(group, key)
        owned = self.owned
        cur, memo = self.walk(path)
        m = self.m
        if cur is None or not memo:
            self.mixed = True  # a leaf no memoized walk notes may be one that one does
        if cur is None:
            for u in ups:
                last, fn, nargs, af, arg, line, col = u
                args = () if not nargs else (self.col(af)[j] if af >= 0 else arg,)
                try:
                    m = in_place_update_in(owned, "update-in", m, [*path, last], fn, args)
                except PtcError as err:
                    err.at(line, col)
                    raise
                self.m = m
            memo = False
        else:
            entry: list[Any] = [cur]
            for u in ups:
                k, fn, nargs, af, arg, line, col = u
                found, old = leaf_key(cur, k)
                if cur is owned.plain and found not in cur:
                    owned.plain = NO_MAP  # a new key of any kind: see `Owned`
                args = () if not nargs else (self.col(af)[j] if af >= 0 else arg,)
                try:
                    if type(old) is dict and id(old) in owned:
                        release(owned, old)  # handed to the update fn
                    cur[found] = fn(old, *args)
                except PtcError as err:
                    err.at(line, col)
                    raise
                entry.append(found)
        if owned.paths is not self.token or m is not self.walked:
            self.forget()  # a map was released, or the accumulator replaced
            self.walked = m
            if owned.paths is not self.token:
                return
        if memo:
            self.remember(g, key, entry)

    def walk(
        self, path: list[Any], near: dict[tuple[Any, ...], tuple[Any, bool]] | None = None
    ) -> tuple[Any, bool]:
        """The map at the end of `path` from the accumulator, adopting the levels on the
        way (as `t_update_in2`), or None when a level is missing or not a map; and
        whether `Owned.paths` would memoize the walk (string and keyword keys, each found
        as it is or by its name). `near` keeps the walks of all but the last key, for
        walks one after another with nothing changing the maps but their adoption (which
        leaves a map adopted where it is)."""
        owned = self.owned
        m = self.m
        t = type(m)
        cur: Any = None
        memo = True
        if t is dict or t is PMap:
            if t is not dict or id(m) not in owned:
                m = self.m = adopt(owned, m)
            cur = m
            if near is not None and len(path) > 1:
                head = tuple(path[:-1])
                try:
                    got = near.get(head)
                except TypeError:  # a collection as a key
                    near = None
                else:
                    if got is None:
                        got = near[head] = self.walk(path[:-1])
                    cur, memo = got
                    if cur is None:
                        return None, memo
                    path = path[-1:]
            cur, walked = walk_owned(owned, cur, path)
            memo = memo and walked
        return cur, memo

    def prewalks(self, group: FieldGroup, fresh: Iterable[Any]) -> None:
        """`prewalk` of each of `fresh` (memo keys of the one group), in order.

        When the prefix ends in a field (the common `[:k (:a x) :k2 (:b x)]`), the walk
        of all but that field is shared by the keys with the same other fields (`near`),
        and the last level and the leaves are read here, as `walk_owned` and `prewalk`
        read them; a level or leaf they would look up otherwise goes to `prewalk`. The
        shared walks (`heads`, by those other fields) hold as long as the memoized walks
        do (`forget` drops both)."""
        prefix, fidx, ups = group
        near: dict[tuple[Any, ...], tuple[Any, bool]] = {}
        if len(prefix) < 2 or prefix[-1] is not None:
            for key in fresh:
                self.prewalk(group, key, near)
            return
        owned = self.owned
        several = len(fidx) > 1
        heads = self.heads
        for key in fresh:
            try:
                got = heads.get(key[:-1] if several else ())
            except TypeError:  # a collection as a key
                got = None
            if got is None:
                self.prewalk(group, key, near)
                got = near.get(tuple(self.path(group, key)[:-1]), _NO_HEAD)
                if got is not _NO_HEAD:
                    heads[key[:-1] if several else ()] = got
                continue
            cur, walked = got
            if cur is None or not walked:
                continue
            # the last level (`walk_owned`)
            last = key[-1] if several else key
            tk = type(last)
            nxt: Any = cur.get(last, MISSING) if tk is str or tk is Keyword else MISSING
            if nxt is not MISSING:
                pass
            elif tk is Keyword and (nxt := cur.get(last.name, MISSING)) is not MISSING:
                last = last.name
            else:
                self.prewalk(group, key, near)
                continue
            nxt = owned_child(owned, cur, last, nxt)
            if nxt is None:
                continue
            # the leaves (`prewalk`)
            entry: list[Any] = [nxt]
            for u in ups:
                k = u[0]
                if k in nxt:
                    entry.append(k)
                elif type(k) is Keyword and k.name in nxt:
                    entry.append(k.name)
                else:
                    entry = []
                    break
            if entry:
                self.remember(0, key, entry)
            else:  # a leaf found by a search, or missing
                self.prewalk(group, key, near)

    def prewalk(
        self, group: FieldGroup, key: Any, near: dict[tuple[Any, ...], tuple[Any, bool]]
    ) -> None:
        """Memoize the walk of `key` (of the one group) ahead of its element when its
        path and every leaf exist: it only adopts levels, which the element's updates
        do anyway (and which no one sees if an earlier element fails)."""
        path = self.path(group, key)
        cur, memo = self.walk(path, near)
        if self.owned.paths is not self.token or self.m is not self.walked:
            self.forget()
            self.walked = self.m
        if cur is None or not memo:
            return
        entry: list[Any] = [cur]
        for u in group[2]:
            k = u[0]
            if k in cur:
                found: object = k
            elif type(k) is Keyword and k.name in cur:
                found = k.name
            else:
                found = find_key(cur, k)
                if found is NOT_FOUND:
                    return  # the update adds the leaf: left to it
            entry.append(found)
        self.remember(0, key, entry)

    def remember(self, g: int, key: Any, entry: list[Any]) -> None:
        """Memoize `entry` (the map at a walk's end, the keys of its leaves)."""
        self.memos[g][key] = tuple(entry)
        cur = entry[0]
        kinds = tuple(map(type, map(cur.__getitem__, islice(entry, 1, None))))
        if self.kinds is None:
            self.kinds = kinds
        elif kinds != self.kinds:
            self.mixed = True

    @staticmethod
    def path(group: FieldGroup, key: Any) -> list[Any]:
        """A group's prefix for an element whose fields there are `key` (see `keys`)."""
        prefix, fidx, _ups = group
        path = list(prefix)
        if fidx:
            i = 0
            for v in key if len(fidx) > 1 else (key,):
                i = path.index(None, i)
                path[i] = v
                i += 1
        return path

    def forget(self) -> None:
        """Drop every memoized walk (a map was released or the accumulator replaced)."""
        for memo in self.memos:
            memo.clear()
        self.heads.clear()
        self.owned.paths = self.token
        self.epoch += 1
        self.kinds = None
        self.mixed = False


def _pull(module: dict[str, Any], credit: context.Credit, steps: int) -> None:
    """Pull `steps` steps from the module's `FUEL`, as many loop passes would (a chunk
    a parallel worker emptied meanwhile is refilled, as their pulls would)."""
    while steps:
        chunk = module["FUEL"]
        left = _left(chunk) if type(chunk) is _REPEAT else length_hint(chunk)
        if left:
            steps -= countOf(islice(chunk, left if left < steps else steps), None)
        else:
            module["FUEL"] = context.current().refill(chunk, credit)
            steps -= 1
