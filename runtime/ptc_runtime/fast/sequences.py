"""Helpers of the rewrites of sequence functions into loops (`inline-hof`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from ptc_runtime.collections import seq_items


def seq_of(coll: object, who: str) -> Sequence[object]:
    """The elements `who` (`map`, `filter`, ...) visits in `coll`, failing as that builtin
    does on a value that is not a collection (a loop made of the call fails the same)."""
    if coll is None:
        return []  # (a loop iterates a list, not the empty tuple `seq_items` gives)
    return seq_items(coll, who)


HELPERS: Final[dict[str, Any]] = {"rt_seq_of": seq_of}
