"""Randomized differential test of the lowering and runtime fast paths taken together.

Each random program (in the shapes the fast paths match, and near misses) runs twice: as
compiled, and with every fast path switched off -- the lowering rules (the field filter,
group-by told the plucked field, `str` with literals as a format, `(frequencies (mapcat
...))`, same-type `+`/`-` in numeric code, fast update fns, `(take n (sort ...))`, the
in-place linear reduce with its memo and plain-map shortcut), `(get-in m [...])` with a
literal path (its helper replaced by `get_in`), plucks (per-item flexible reads, no
remembered group-by columns), the raw counting of `frequencies` and the map-entry keys of
`sort-by`. Every observable must agree: the value, the error (code, message, line:column),
the output and the step count (except under `pmap`, whose workers' step counts are only
exact when they do not interleave), and the host data must be left as it was.

Each fast path has its own differential test next to it; this one looks for what they
miss between them: one fast path feeding another, odd data (nil, persistent maps, both
key spellings, `-`/`_` names, 1/1.0/true keys, NaN, huge ints, strings for numbers),
budgets that run out inside a fused form, forms inside fns, loops and `pmap`. The programs
and the check are in `fuzz/strategies/fastpaths.py`; `fuzz/test_fast_paths.py` runs more.
"""

from __future__ import annotations

import random

import pytest

from fuzz.strategies.fastpaths import check


@pytest.mark.parametrize("seed", range(8))
def test_fast_paths_agree_with_the_generic_code(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    rnd = random.Random(seed)
    for i in range(40):
        check(rnd, f"{seed}/{i}", monkeypatch)
