"""What a shard is and what it gives back, as plain data that crosses any process boundary.

A shard is a JSON-shaped dict naming its campaign, its index in the campaign's plan and the
parameters that fix its cases (seeds, slices). Running it gives a `ShardResult`; both travel
between processes (a local pool, a dask cluster) as plain dicts, so a worker needs nothing
of the parent but this checkout.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any

#: A shard as it is sent to a worker: {"campaign": str, "index": int, "cases": int | None, ...}.
ShardSpec = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Finding:
    """One failing case: where it came from, which bucket it falls in, and the program."""

    case: str  # stable case id within the campaign ("s0-00012", "abs#17", "seed 42")
    family: str  # what kind of case this is (generator family, builtin, property)
    bucket: str  # the failure's class: findings of one bucket are one bug, most likely
    program: str  # the failing program (or example), as a person would rerun it
    detail: str  # what went wrong, one or a few lines

    def sort_key(self) -> tuple[str, str, str]:
        """Order of findings in a result: independent of how the campaign was split."""
        return (self.case, self.bucket, self.detail)


@dataclass(slots=True)
class ShardResult:
    """What one shard did."""

    campaign: str
    index: int
    cases: int = 0
    families: Counter[str] = field(default_factory=Counter)  # cases per family
    findings: list[Finding] = field(default_factory=list)
    seconds: float = 0.0
    worker: str = ""
    note: str = ""  # a setup problem that stopped the shard ("" when it ran)

    def to_dict(self) -> dict[str, Any]:
        """Plain data (crosses to the parent process, pickled or as JSON)."""
        d = asdict(self)
        d["families"] = dict(self.families)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> ShardResult:
        """The inverse of `to_dict`."""
        return cls(
            campaign=str(d["campaign"]),
            index=int(d["index"]),
            cases=int(d["cases"]),
            families=Counter({str(k): int(v) for k, v in d["families"].items()}),
            findings=[Finding(**f) for f in d["findings"]],
            seconds=float(d["seconds"]),
            worker=str(d.get("worker", "")),
            note=str(d.get("note", "")),
        )


@dataclass(slots=True)
class Outcome:
    """A whole campaign run: the merged shards, in plan order."""

    campaign: str
    shards: list[ShardResult]
    seconds: float
    jobs: int
    scheduler: str | None
    timeline: list[tuple[float, int, int]]  # (seconds since start, cases done, findings so far)
    stopped_early: bool = False  # the time budget ended the plan before its end

    @property
    def cases(self) -> int:
        """Cases run in all shards."""
        return sum(s.cases for s in self.shards)

    @property
    def families(self) -> Counter[str]:
        """Cases per family over all shards."""
        total: Counter[str] = Counter()
        for s in self.shards:
            total.update(s.families)
        return total

    @property
    def findings(self) -> list[Finding]:
        """Every finding, in case order (the same for any number of jobs or workers)."""
        return sorted((f for s in self.shards for f in s.findings), key=Finding.sort_key)

    @property
    def notes(self) -> list[str]:
        """Setup problems reported by shards (deduplicated, in shard order)."""
        seen: dict[str, None] = {}
        for s in self.shards:
            if s.note:
                seen.setdefault(s.note, None)
        return list(seen)

    def fingerprint(self) -> tuple[int, dict[str, int], list[tuple[str, str, str, str, str]]]:
        """What must not depend on how the run was spread: cases, families, findings."""
        return (
            self.cases,
            dict(sorted(self.families.items())),
            [(f.case, f.family, f.bucket, f.program, f.detail) for f in self.findings],
        )
