"""Randomized differential test of the optimiser's rules taken together.

Each random program (in the shapes the registered rules match, and near misses) runs
twice: as compiled, and compiled with no optimiser rule (`optimize=False`, the general
lowering). Every observable must agree: the value, the error (code, message,
line:column), the output and the step count (except under `pmap`, whose workers' step
counts are only exact when they do not interleave), and the host data must be left as it
was. The run goes through the registry rather than any rule's internals, and every
registered rule must have fired at least once on its programs: a rule the generator no
longer reaches fails here instead of going untested.

Each rule has its own differential test next to it; this one looks for what they miss
between them: one rule feeding another, odd data (nil, persistent maps, both key
spellings, `-`/`_` names, 1/1.0/true keys, NaN, huge ints, strings for numbers), budgets
that run out inside a fused form, forms inside fns, loops and `pmap`. The programs and
the check are in `fuzz/strategies/fastpaths.py`; `fuzz/test_fast_paths.py` runs more.
"""

from __future__ import annotations

import random

from fuzz.strategies.fastpaths import check
from ptc_compiler import optimize


def test_every_rule_agrees_with_the_general_lowering_and_fires() -> None:
    before = optimize.fired()
    for seed in range(8):
        rnd = random.Random(seed)
        for i in range(40):
            check(rnd, f"{seed}/{i}")
    after = optimize.fired()
    silent = [r.name for r in optimize.registered() if after.get(r.name, 0) <= before.get(r.name, 0)]
    assert not silent, f"rules that never fired: {silent}"
