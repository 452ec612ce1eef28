"""Hot loops written out per case from one template, compiled when first used.

Some of the runtime's fast paths are fastest as a loop or comprehension with everything
inline: the number of fields read (`fieldformat`), the comparison kept (`==` or `!=`,
`fast.filtered_groups`), what is added per element (`fast.group_sums`). A call
per element, or one generic loop taking the varying part as an argument, is measurably
slower, so each case is its own function. Rather than write the cases out by hand, a
module keeps one template per family and makes the cases from it with `define`; a table
of them (`Cases`) makes each on its first use, so importing the module compiles nothing
(all of `fieldformat`'s at once took 2.5 ms, against 0.3 ms for the whole module's
import from its cached bytecode).

Only the module's own constant text is compiled: the templates and the names put into
them are fixed in the module's source; no program input, host data or anything else
from outside ever reaches `compile` (a case's key only picks which of the fixed texts).
Each case gets the filename `<module:name>`, so a traceback through it says where it
was made.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, Generic, TypeVar

K = TypeVar("K")
F = TypeVar("F")


def define(source: str, module: str, name: str, namespace: dict[str, Any]) -> Any:
    """The function `name` that `source` (the text of a `def name(...)`, made from a
    template in `module`'s own source, never from program input) defines, compiled under
    the filename `<module:name>` with `namespace` (that module's globals) as its globals."""
    code = compile(source, f"<{module}:{name}>", "exec")
    made: dict[str, Any] = {}
    exec(code, namespace, made)  # only `module`'s constant text: see the module docstring
    return made[name]


class Cases(Generic[K, F]):
    """A table of cases by key (`keys`: the ones there are, in order; iterating gives
    the cases), each made by `make(key)` the first time it is looked up and kept (two
    threads making one case at once is harmless: either function is the case)."""

    __slots__ = ("_keys", "_made", "_make")

    def __init__(self, make: Callable[[K], F], keys: Sequence[K]) -> None:
        self._make = make
        self._keys = tuple(keys)
        self._made: dict[K, F] = {}

    def __getitem__(self, key: K) -> F:
        try:
            return self._made[key]
        except KeyError:
            if key not in self._keys:
                raise
        made = self._made[key] = self._make(key)
        return made

    def get(self, key: K, default: F | None = None) -> F | None:
        """The case `key`, or `default` where there is none."""
        return self[key] if key in self._keys else default

    def __setitem__(self, key: K, case: F) -> None:
        # a stand-in for a case (tests wrap one to interleave a worker's pulls)
        if key not in self._keys:
            raise KeyError(key)
        self._made[key] = case

    def __iter__(self) -> Iterator[F]:
        return (self[k] for k in self._keys)

    def __len__(self) -> int:
        return len(self._keys)
