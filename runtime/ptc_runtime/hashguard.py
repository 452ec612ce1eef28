"""Bounds on hash collisions in map keys and set elements (hash flooding).

CPython hashes an integer to its residue modulo 2^61-1 (`sys.hash_info.modulus`), and an
integral float to the hash of the integer it equals: every multiple of 2^61-1 hashes to
0, so `(set (map (partial * 2305843009213693951) (range 60000)))` would make one C-level
set build compare every element with every other (over a minute, which no deadline can
interrupt in-process). Strings and keywords are hashed with Python's per-process random
key and cannot be collided at will; small numbers (magnitude below 2^61-1) hash to
themselves and never collide with each other.

Two checks keep collisions bounded:

* `check_keys`: before a builtin hashes many keys in one call (`set`, `into`, `distinct`,
  `frequencies`, `group-by`, `zipmap`, `hash-map`, ...), the keys that are numbers of
  magnitude 2^61-1 or more (only those can collide) are grouped by hash; more than
  `MAX_SAME_HASH` distinct numbers sharing one hash fail the run (`hash_collision_limit`).
  The common case (no big numbers) costs one C-level `min`/`max` over the numbers.
* `collided`: keys Python cannot hash itself (vectors, maps, sets, booleans: `EqKey`)
  use a hash that looks at a bounded part of the value (`equality.hash_value`), so
  different values can share it; each such pair met in a lookup is counted, and a run
  meeting more than `MAX_COLLISIONS` fails, with the deadline and cancel checked every
  `CHECK_EVERY` collisions.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from typing import Final

from ptc_runtime.errors import LimitExceeded

#: Numbers of smaller magnitude hash to themselves (no two collide).
MODULUS: Final = sys.hash_info.modulus
#: Distinct big numbers sharing one hash that a single build may hold.
MAX_SAME_HASH: Final = 64
#: Hash collisions between distinct structured keys that one run may meet.
MAX_COLLISIONS: Final = 20_000
#: How often (in collisions) the deadline and cancel token are checked.
CHECK_EVERY: Final = 256

_COUNTER: Final = "hashguard.collisions"


def _flood(who: str) -> LimitExceeded:
    return LimitExceeded(
        "hash_collision_limit",
        f"{who}: more than {MAX_SAME_HASH} distinct numbers with the same hash as keys "
        f"(the hash collision limit)",
        hint="numbers of magnitude 2^61-1 or more that differ by multiples of it collide",
    )


def check_keys(keys: Sequence[object], who: str, types: Iterable[type] | None = None) -> None:
    """Fail when `keys` hold more than `MAX_SAME_HASH` distinct big numbers of one hash.

    `types`: the set of the keys' types, when the caller has it.
    """
    kinds = set(map(type, keys)) if types is None else set(types)
    if int not in kinds and float not in kinds:
        return
    if kinds == {int}:
        nums: Sequence[object] = keys
    else:
        nums = [x for x in keys if type(x) is int or type(x) is float]
        if not nums:
            return
    lo = min(nums)  # type: ignore[type-var]
    hi = max(nums)  # type: ignore[type-var]
    if -MODULUS < lo and hi < MODULUS:  # type: ignore[operator]  # (NaN fails: slow path)
        return
    _check_big(nums, who)


def check_pairs(pairs: Iterable[object], who: str) -> None:
    """`check_keys` of the keys of `[k v]` entries (`into {}`, `hash-map`)."""
    keys = [p[0] for p in pairs if type(p) is list and len(p) == 2]
    if keys:
        check_keys(keys, who)


def _check_big(nums: Sequence[object], who: str) -> None:
    by_hash: dict[int, list[int]] = {}
    for x in nums:
        if -MODULUS < x < MODULUS:  # type: ignore[operator]
            continue
        if type(x) is float:
            if x != x or x in (float("inf"), float("-inf")):
                continue  # NaN hashes by identity, the infinities to fixed values
        n = int(x)  # type: ignore[call-overload]  # a float: equal to this int, hashed as it
        # the hash is a small int (it hashes to itself): this dict cannot be flooded
        by_hash.setdefault(hash(n), []).append(n)
    for group in by_hash.values():
        if len(group) > MAX_SAME_HASH:
            # bytes hash with Python's random key: counting distinct values is safe
            distinct = {n.to_bytes((n.bit_length() + 8) // 8, "little", signed=True)
                        for n in group}
            if len(distinct) > MAX_SAME_HASH:
                raise _flood(who)


def collided() -> None:
    """Two different structured keys with one hash met in a lookup: count it for the run."""
    from ptc_runtime import context

    try:
        ctx = context.current()
    except Exception:  # outside a run: nothing to count against
        return
    n = ctx.options.get(_COUNTER, 0) + 1
    ctx.options[_COUNTER] = n
    if n % CHECK_EVERY == 0:
        ctx.check_time()
        if n > MAX_COLLISIONS:
            raise LimitExceeded(
                "hash_collision_limit",
                f"more than {MAX_COLLISIONS} hash collisions between distinct map keys or "
                f"set elements in one run (the hash collision limit)",
                hint="keys that are long vectors or big maps alike in their first items "
                "collide; key by a shorter value",
            )
