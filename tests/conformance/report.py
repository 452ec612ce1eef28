"""Triage report for the conformance suite: failing program ids grouped by likely cause.

    .venv/bin/python tests/conformance/report.py [--verbose]

Uses the cached Clojure results (running the oracle when needed) and prints timings, then
the failures grouped as "undefined X" (a builtin not written yet), "our error <code>",
"value differs" and "error only in Clojure". ``--verbose`` adds each program, both results.
"""

from __future__ import annotations

import re
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import edn
from compare import canon_edn, canon_ptc, same
from suite import clojure_command, load_divergences, load_programs, run_oracle

import ptc_compiler

_UNDEFINED = re.compile(
    r"undefined (?:variable|symbol)[: ]+([^\s(]+)|(\S+) is not available|interop error: (\S+) is not supp"
)


def main() -> int:
    verbose = "--verbose" in sys.argv
    programs = load_programs()
    divergences = load_divergences()
    command = clojure_command()
    if command is None:
        print("Clojure 1.11 is required: apt-get install clojure")
        return 2
    started = time.monotonic()
    oracle, elapsed = run_oracle(programs, command)
    print(f"clojure batch: {elapsed or time.monotonic() - started:.1f}s"
          f"{' (cached)' if not elapsed else ''} for {len(programs)} programs")
    groups: dict[str, list[str]] = defaultdict(list)
    details: dict[str, str] = {}
    started = time.monotonic()
    for p in programs:
        r = ptc_compiler.run(p.source, timeout_ms=10_000, native=True)
        c = oracle[p.id]
        d = divergences.get(p.id)
        if d is not None:
            ok = (r.error is not None and r.error.code == d.ptc_error) if d.ptc_error else (
                r.ok and canon_edn(edn.read(d.ptc or "nil")) == canon_ptc(r.value)
                and (d.output is None or r.output == d.output))
            if not ok:
                groups["documented divergence not met"].append(p.id)
            continue
        if c.status == "error":
            if r.ok:
                groups["error only in Clojure"].append(p.id)
                details[p.id] = ptc_compiler.pr_str(r.value)
            continue
        if not r.ok:
            assert r.error is not None
            m = _UNDEFINED.search(r.error.message)
            missing = m and next(g for g in m.groups() if g)
            cause = f"missing {missing}" if missing else f"our error {r.error.code}"
            groups[cause].append(p.id)
            details[p.id] = f"{r.error.code}: {r.error.message}"
        elif not same(edn.read(c.payload), r.value):
            groups["value differs"].append(p.id)
            details[p.id] = ptc_compiler.pr_str(r.value)
        elif r.output != c.output:
            groups["printed output differs"].append(p.id)
            details[p.id] = repr(r.output)
    print(f"our side: {time.monotonic() - started:.1f}s")
    total = sum(len(v) for v in groups.values())
    print(f"{total} failing of {len(programs)}")
    by_id = {p.id: p for p in programs}
    for cause, ids in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        print(f"\n## {cause} ({len(ids)})\n  " + " ".join(ids))
        if verbose:
            for pid in ids:
                c = oracle[pid]
                print(f"  - {pid}: {by_id[pid].source!r}\n      clojure: {c.status} {c.payload}"
                      f"{' out=' + repr(c.output) if c.output else ''}\n"
                      f"      ours:    {details.get(pid, '')}")
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
