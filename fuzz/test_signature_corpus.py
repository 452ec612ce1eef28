"""The checked-in corpus of signature error outputs still matches what the code produces.

A difference means an error code, contract path or message changed: if that is intended,
regenerate with ``ptc fuzz signature-corpus --write`` and review the diff of
`fuzz/corpus/signature_errors.jsonl`.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from fuzz import cli, signature_corpus


def test_corpus_matches_the_code() -> None:
    kept = signature_corpus.PATH.read_text(encoding="utf-8").splitlines()
    now = signature_corpus.lines()
    for i, (a, b) in enumerate(zip(kept, now, strict=False)):
        assert a == b, (f"line {i + 1} of {signature_corpus.PATH.name} changed; "
                        "intended? ptc fuzz signature-corpus --write")
    assert len(kept) == len(now)


def test_corpus_covers_parse_and_validation_errors() -> None:
    cases = [json.loads(line) for line in signature_corpus.lines()]
    parse = [c for c in cases if "parse_error" in c]
    checked = [c for c in cases if "errors" in c]
    assert len(parse) == len(signature_corpus.MALFORMED)
    assert all(c["parse_error"] is not None for c in parse), "every malformed one is refused"
    assert {c["side"] for c in checked} == {"input", "output"}
    codes = {e["code"] for c in checked for e in c["errors"]}
    assert {"type", "missing"} <= codes
    assert any(len(e["path"]) >= 2 for c in checked for e in c["errors"]), "nested paths"
    assert all(c["headline"].startswith("tool/t ") for c in checked)


def test_the_command_compares() -> None:
    out = io.StringIO()
    assert cli.main(["signature-corpus"], out) == 0
    assert "matches" in out.getvalue()


def test_a_changed_corpus_fails_until_regenerated(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "c.jsonl"
    lines = signature_corpus.lines()
    path.write_text("\n".join([lines[0].replace("column", "col"), *lines[1:]]) + "\n")
    monkeypatch.setattr(signature_corpus, "PATH", path)
    out = io.StringIO()
    assert signature_corpus.main([], out) == 1
    assert "line 1 differs" in out.getvalue() and "--write" in out.getvalue()
    assert signature_corpus.main(["--write"], io.StringIO()) == 0
    assert signature_corpus.main([], io.StringIO()) == 0
