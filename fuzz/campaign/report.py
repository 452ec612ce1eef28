"""What a person reads after a campaign: the closing table and an HTML report with a plot.

Per family: cases and failures. Per bucket (one class of failure): how many cases fell in
it and its smallest failing program (fewest characters; the first in case order on a tie),
the one to start debugging from. For the signature properties that program is the example
hypothesis shrank. The HTML file draws cases/s and failures over time as inline SVG made
here, so no plotting package is needed.
"""

from __future__ import annotations

import html
import itertools
import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from fuzz.campaign.model import Finding, Outcome

FAMILY_ROWS = 30  # the table shows the largest families; the rest are summed in one row


@dataclass(frozen=True, slots=True)
class Bucket:
    """One class of failure in a run."""

    name: str
    count: int
    smallest: Finding
    new: bool  # not seen by an earlier run recorded in the failure database
    minimized: Finding | None = None  # `smallest` shrunk further, where the campaign can


Minimized = dict[str, Finding]  # bucket -> its minimized program


def buckets(
    outcome: Outcome, known: set[str] | None = None, minimized: Minimized | None = None
) -> list[Bucket]:
    """The run's buckets, largest first."""
    by: dict[str, list[Finding]] = {}
    for f in outcome.findings:
        by.setdefault(f.bucket, []).append(f)
    out = [Bucket(name, len(fs), min(fs, key=lambda f: len(f.program)),
                  known is not None and name not in known, (minimized or {}).get(name))
           for name, fs in by.items()]  # fmt: skip
    return sorted(out, key=lambda b: (-b.count, b.name))


def _family_rows(outcome: Outcome) -> list[tuple[str, int, int]]:
    failed = Counter(f.family for f in outcome.findings)
    rows = [(fam, n, failed[fam]) for fam, n in outcome.families.items()]
    rows.sort(key=lambda r: (-r[2], -r[1], r[0]))
    if len(rows) > FAMILY_ROWS:
        rest = rows[FAMILY_ROWS - 1 :]
        rows = [*rows[: FAMILY_ROWS - 1],
                (f"({len(rest)} more families)", sum(r[1] for r in rest), sum(r[2] for r in rest))]  # fmt: skip
    return rows


def print_table(
    outcome: Outcome,
    out: TextIO,
    known: set[str] | None = None,
    minimized: Minimized | None = None,
) -> None:
    """The closing table: families, buckets with their smallest program, totals."""
    rows = _family_rows(outcome)
    width = max([len("family"), *(len(r[0]) for r in rows)])
    print("", file=out)
    print(f"{'family':<{width}}  {'cases':>9}  {'failures':>8}", file=out)
    print(f"{'-' * width}  {'-' * 9}  {'-' * 8}", file=out)
    for fam, n, bad in rows:
        print(f"{fam:<{width}}  {n:>9}  {bad:>8}", file=out)
    rate = outcome.cases / outcome.seconds if outcome.seconds > 0 else 0.0
    print(f"{'total':<{width}}  {outcome.cases:>9}  {len(outcome.findings):>8}", file=out)
    where = f"scheduler {outcome.scheduler}" if outcome.scheduler else "local"
    print(f"{outcome.seconds:.1f} s, {rate:.1f} cases/s, {outcome.jobs} jobs ({where})"
          + (", stopped by the time budget" if outcome.stopped_early else ""), file=out)  # fmt: skip
    for note in outcome.notes:
        print(f"setup: {note}", file=out)
    for b in buckets(outcome, known, minimized):
        mark = " [new]" if b.new else ""
        shown, how = (b.minimized, "minimized") if b.minimized else (b.smallest, "smallest")
        print(f"\nbucket {b.name}: {b.count} cases{mark}; {how} ({shown.case}):", file=out)
        for line in shown.program.splitlines()[:12]:
            print(f"    {line[:200]}", file=out)
        for line in shown.detail.splitlines()[:3]:
            print(f"  {line[:300]}", file=out)


def _svg(outcome: Outcome, width: int = 720, height: int = 240) -> str:
    """Throughput (cases/s between consecutive shard ends) and failures over time."""
    pts = [(0.0, 0, 0), *outcome.timeline]
    if len(pts) < 2:
        return "<p>(no shard finished: nothing to plot)</p>"
    t_max = max(pts[-1][0], 1e-9)
    rates: list[tuple[float, float]] = []
    for (t0, c0, _), (t1, c1, _) in itertools.pairwise(pts):
        rates.append((t1, (c1 - c0) / (t1 - t0) if t1 > t0 else 0.0))
    # smooth over a few shards: one shard's end time is noisy on a busy machine
    k = max(1, len(rates) // 40)
    smooth = [(t, sum(r for _, r in rates[max(0, i - k) : i + 1]) / len(rates[max(0, i - k) : i + 1]))
              for i, (t, _) in enumerate(rates)]  # fmt: skip
    r_max = max([r for _, r in smooth] + [1e-9])
    f_max = max(pts[-1][2], 1)
    pad, w, h = 48, width - 96, height - 64

    def x(t: float) -> float:
        return pad + w * t / t_max

    def y(v: float, top: float) -> float:
        return 16 + h - h * v / top

    rate_line = " ".join(f"{x(t):.1f},{y(r, r_max):.1f}" for t, r in smooth)
    fail_line = " ".join(f"{x(t):.1f},{y(f, f_max):.1f}" for t, _, f in pts)
    return f"""<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}"
 font-family="sans-serif" font-size="11">
<rect x="{pad}" y="16" width="{w}" height="{h}" fill="none" stroke="#bbb"/>
<polyline points="{rate_line}" fill="none" stroke="#1f77b4" stroke-width="2"/>
<polyline points="{fail_line}" fill="none" stroke="#d62728" stroke-width="2"/>
<text x="{pad - 4}" y="22" text-anchor="end" fill="#1f77b4">{r_max:.0f}</text>
<text x="{pad - 4}" y="{16 + h}" text-anchor="end" fill="#1f77b4">0</text>
<text x="{pad + w + 4}" y="22" fill="#d62728">{f_max}</text>
<text x="{pad + w + 4}" y="{16 + h}" fill="#d62728">0</text>
<text x="{pad}" y="{height - 28}">0 s</text>
<text x="{pad + w}" y="{height - 28}" text-anchor="end">{t_max:.1f} s</text>
<text x="{pad}" y="{height - 10}" fill="#1f77b4">cases/s</text>
<text x="{pad + 70}" y="{height - 10}" fill="#d62728">failures (cumulative)</text>
</svg>"""


def write_html(outcome: Outcome, path: Path, options: dict[str, object],
               known: set[str] | None = None, minimized: Minimized | None = None) -> None:  # fmt: skip
    """The report as one self-contained HTML file."""
    e = html.escape
    rate = outcome.cases / outcome.seconds if outcome.seconds > 0 else 0.0
    fam_rows = "\n".join(f"<tr><td>{e(f)}</td><td>{n}</td><td>{bad}</td></tr>"
                         for f, n, bad in _family_rows(outcome))  # fmt: skip
    parts = []
    for b in buckets(outcome, known, minimized):
        new = " <b>new</b>" if b.new else ""
        if b.minimized is not None:
            parts.append(f"<h3>{e(b.name)}: {b.count} cases{new}</h3><p>minimized:</p>"
                         f"<pre>{e(b.minimized.program)}</pre>"
                         f"<pre class=detail>{e(b.minimized.detail)}</pre>")  # fmt: skip
            new = " (before minimizing)"
        parts.append(f"<h3>{e(b.name)}: {b.count} cases{new}</h3>"
                     f"<p>smallest failing program ({e(b.smallest.case)}, family "
                     f"{e(b.smallest.family)}):</p><pre>{e(b.smallest.program)}</pre>"
                     f"<pre class=detail>{e(b.smallest.detail)}</pre>")  # fmt: skip
    where = f"scheduler {outcome.scheduler}" if outcome.scheduler else "local processes"
    notes = "".join(f"<p class=note>setup: {e(n)}</p>" for n in outcome.notes)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"""<!doctype html>
<html><head><meta charset="utf-8"><title>ptc fuzz {e(outcome.campaign)}</title>
<style>body{{font-family:sans-serif;max-width:60em;margin:2em auto}}
table{{border-collapse:collapse}}td,th{{border:1px solid #ccc;padding:2px 8px;text-align:right}}
td:first-child{{text-align:left}}pre{{background:#f6f6f6;padding:6px;overflow-x:auto}}
pre.detail{{background:#fff4f4}}.note{{color:#a00}}</style></head><body>
<h1>ptc fuzz {e(outcome.campaign)}</h1>
<p>{outcome.cases} cases, {len(outcome.findings)} failures in {outcome.seconds:.1f} s
({rate:.1f} cases/s), {outcome.jobs} jobs on {e(where)}{", stopped by the time budget" if outcome.stopped_early else ""}.</p>
<p>options: <code>{e(json.dumps(options, sort_keys=True, default=str))}</code></p>
{notes}
<h2>Throughput and failures over time</h2>
{_svg(outcome)}
<h2>Families</h2>
<table><tr><th>family</th><th>cases</th><th>failures</th></tr>
{fam_rows}
</table>
<h2>Buckets</h2>
{"".join(parts) or "<p>No failure.</p>"}
</body></html>
""", encoding="utf-8")  # fmt: skip
