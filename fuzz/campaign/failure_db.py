"""The one failure database of every campaign: an SQLite file the parent process writes.

Workers only return findings; the parent records them, so any number of local processes or
cluster workers share one database without locking between them. A finding is keyed by
(campaign, bucket, case): rerunning a campaign adds only what is new, and `first_run` says
when a bucket was first seen (a report marks buckets new to this run).
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterable
from pathlib import Path

from fuzz.campaign.model import Finding, Outcome

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    campaign TEXT NOT NULL, options TEXT NOT NULL, started REAL NOT NULL,
    seconds REAL NOT NULL, jobs INTEGER NOT NULL, scheduler TEXT,
    cases INTEGER NOT NULL, findings INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS findings (
    campaign TEXT NOT NULL, bucket TEXT NOT NULL, case_id TEXT NOT NULL,
    family TEXT NOT NULL, program TEXT NOT NULL, detail TEXT NOT NULL,
    first_run INTEGER NOT NULL, last_run INTEGER NOT NULL,
    PRIMARY KEY (campaign, bucket, case_id)
);
"""


class FailureDB:
    """Open (or create) the database at `path`."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.conn = sqlite3.connect(str(path))
        self.conn.executescript(SCHEMA)

    def close(self) -> None:
        """Close the connection."""
        self.conn.close()

    def known_buckets(self, campaign: str) -> set[str]:
        """Buckets of `campaign` recorded by earlier runs."""
        rows = self.conn.execute("SELECT DISTINCT bucket FROM findings WHERE campaign = ?",
                                 (campaign,))  # fmt: skip
        return {r[0] for r in rows}

    def record(
        self,
        outcome: Outcome,
        options: dict[str, object],
        minimized: dict[str, Finding] | None = None,
    ) -> int:
        """Store a run and its findings (and each bucket's minimized program, under its
        case id with " minimized" appended); the run's id."""
        findings = outcome.findings
        with self.conn:
            cur = self.conn.execute(
                "INSERT INTO runs (campaign, options, started, seconds, jobs, scheduler, cases,"
                " findings) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (outcome.campaign, json.dumps(options, sort_keys=True, default=str),
                 time.time() - outcome.seconds, outcome.seconds, outcome.jobs,
                 outcome.scheduler, outcome.cases, len(findings)),
            )  # fmt: skip
            run_id = int(cur.lastrowid or 0)
            self._add(outcome.campaign, findings, run_id)
            shrunk = [Finding(f"{f.case} minimized", f.family, f.bucket, f.program, f.detail)
                      for f in (minimized or {}).values()]  # fmt: skip
            self._add(outcome.campaign, shrunk, run_id)
        return run_id

    def _add(self, campaign: str, findings: Iterable[Finding], run_id: int) -> None:
        self.conn.executemany(
            "INSERT INTO findings VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT"
            " (campaign, bucket, case_id) DO UPDATE SET last_run = excluded.last_run",
            [(campaign, f.bucket, f.case, f.family, f.program, f.detail, run_id, run_id)
             for f in findings],
        )  # fmt: skip

    def findings(self, campaign: str) -> list[Finding]:
        """Every finding ever recorded for `campaign`, by bucket then case."""
        rows = self.conn.execute(
            "SELECT case_id, family, bucket, program, detail FROM findings WHERE campaign = ?"
            " ORDER BY bucket, case_id", (campaign,))  # fmt: skip
        return [Finding(*r) for r in rows]
