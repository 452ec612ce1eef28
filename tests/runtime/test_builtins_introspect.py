"""Introspection (target §7.7, §9.21), the generated docs and registry completeness."""

from __future__ import annotations

from pathlib import Path

import pytest
from builtin_cases import cases, outcome
from target_names import JAVA_SECTIONS, RUNTIME_SECTIONS

from ptc_compiler import run
from ptc_runtime.builtins import BUILTINS
from ptc_runtime.builtins.card import builtins_markdown, language_card

#: Sections that must be complete (the whole §8 Java surface included); others in progress.
OWNED = {
    "8.1",
    "8.2",
    "8.3",
    "8.4",
    "8.5",
    "9.1",
    "9.2",
    "9.5",
    "9.6",
    "9.14",
    "9.15",
    "9.20",
    "9.21",
}

INTROSPECT = [
    ("(doc str/join)", "nil"),
    ('(apropos "regex?")', '["regex?"]'),
    ('(apropos "")', "[]"),
    ("(apropos 1)", "!type_error"),
    ('(dir "json")', '["json/generate-string" "json/parse-lines" "json/parse-string"]'),
    ("(dir)", "[]"),
    ('(dir "nope")', "[]"),
    ('(export-meta "a/b")', "nil"),
    ("(source inc)", "nil"),
]


@cases(INTROSPECT)
def test_introspect(src: str, want: str) -> None:
    assert outcome(src) == want


def test_doc_prints_the_builtin() -> None:
    res = run("(doc str/join)")
    assert res.output.startswith("join (takes 1 or 2 argument(s))\n")
    assert "No documentation found for zzz" in run("(doc zzz)").output
    assert "Source not available for inc" in run("(source inc)").output


@pytest.mark.parametrize("section", sorted({**RUNTIME_SECTIONS, **JAVA_SECTIONS}))
def test_every_target_name_has_a_registry_entry(section: str) -> None:
    names = {**RUNTIME_SECTIONS, **JAVA_SECTIONS}[section]
    missing = [n for n in names if n not in BUILTINS]
    if missing and section not in OWNED:
        pytest.xfail(f"§{section} not complete yet: {' '.join(missing)}")
    assert missing == []


def test_docs_builtins_md_is_up_to_date() -> None:
    path = Path(__file__).resolve().parents[2] / "docs" / "builtins.md"
    assert path.read_text(encoding="utf-8") == builtins_markdown(), (
        "regenerate: python -m ptc_runtime.builtins.card --write docs/builtins.md"
    )


def test_language_card_lists_every_builtin_once() -> None:
    card = language_card()
    lines = [ln for ln in card.splitlines() if ln and not ln.startswith(("#", "PTC-Lisp"))]
    assert len(lines) == len(BUILTINS)
    assert "json/parse-string [1]: " in card
