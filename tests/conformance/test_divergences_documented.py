"""Every difference docs/divergences.md records is asserted by the conformance suite.

Each table row names conformance programs (its last column); the test fails for a row that
names none, for a named id that is no program, and for a program in divergences.toml that
no row names (a documented result nobody explains)."""

from __future__ import annotations

import re
from pathlib import Path

from suite import load_divergences, load_programs

DOC = Path(__file__).resolve().parents[2] / "docs" / "divergences.md"
_ID = re.compile(r"(?<![\w.-])[a-z]{1,4}-[a-z0-9.-]*[a-z0-9](?![\w-])")


def _rows() -> list[tuple[str, list[str]]]:
    rows = []
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if not line.startswith("|") or set(line) <= {"|", "-", " "}:
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        if cells[0] in ("Area",):
            continue
        rows.append((cells[0], _ID.findall(cells[-1])))
    return rows


def test_every_row_is_asserted_by_a_program() -> None:
    programs = {p.id for p in load_programs()}
    rows = _rows()
    assert len(rows) > 30
    unasserted = [area for area, ids in rows if not any(i in programs for i in ids)]
    assert unasserted == []
    unknown = sorted({i for _, ids in rows for i in ids} - programs)
    assert unknown == []


def test_every_documented_result_is_explained() -> None:
    named = {i for _, ids in _rows() for i in ids}
    assert sorted(set(load_divergences()) - named) == []
