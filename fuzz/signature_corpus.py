"""The corpus of signature error outputs: what a fixed set of signatures and values produce.

Each line of `fuzz/corpus/signature_errors.jsonl` is one case: a signature and either the
error its parsing raises (code, message) or a value checked on one side, with every
validation error (code, contract path, message) and the headline a caller sees. The CI test
(`fuzz/test_signature_corpus.py`) recomputes the corpus and compares it line by line, so a
change to an error's code, path or wording is seen in review; regenerating the file is a
deliberate step: ``ptc fuzz signature-corpus --write`` (or ``python -m fuzz.signature_corpus
--write``).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

from ptc_compiler import signatures as sigs
from ptc_runtime.contracts.errors import ContractViolation
from ptc_runtime.errors import PtcError

PATH = Path(__file__).resolve().parent / "corpus" / "signature_errors.jsonl"

#: Signatures of every type word and shape: scalars, optionals, lists, maps, nesting.
SIGNATURES: tuple[str, ...] = (
    "(x :int) -> :int",
    "(q :string) -> {items [:string]}",
    "(query :string, cursor :string?) -> :any",
    "(status :keyword, at :datetime?) -> {tags [:keyword], at :datetime}",
    "(n :float, flag :bool) -> [:float]",
    "() -> {a :int}",
    "{a [:int?]}",
    "{c {d :bool}, a [:string]}",
    "{order-count :int, st :keyword, items [{at :datetime}]}",
    "(id :int) -> {user {name :string, tags [:string], age :int?}}",
    "(rows [{id :int, qty :int}]) -> :map",
    "() -> [[:int]]",
)

#: Values of every JSON shape, good for some signatures and bad for others.
VALUES: tuple[Any, ...] = (
    None,
    1,
    -7,
    1.5,
    True,
    "x",
    "2024-01-31T10:00:00Z",
    [],
    [1, "a", None],
    [[1, 2], [3, "x"]],
    {},
    {"a": 1},
    {"a": "x", "b": 2},
    {"x": 1},
    {"x": "1"},
    {"q": "s", "items": ["a", 2]},
    {"items": ["a", None], "extra": True},
    {"query": 3, "cursor": None},
    {"status": "open", "at": "yesterday"},
    {"tags": ["a"], "at": 5},
    {"n": "1.0", "flag": 0},
    {"c": {"d": "yes"}, "a": [1]},
    {"order-count": "3", "st": 1, "items": [{"at": 1}, {}]},
    {"user": {"name": 1, "tags": [None], "age": "old"}},
    {"rows": [{"id": 1, "qty": "2"}, {"id": None}]},
    {"id": 1.5},
)

#: Signatures that must not parse, each a different mistake.
MALFORMED: tuple[str, ...] = (
    "",
    "(x :int",
    "(x :int) ->",
    "(x :int) -> :integr",
    "(x) -> :int",
    "(x :int, x :string) -> :int",
    "{a :int, a :string}",
    "(x :int) => :int",
    "[:int :string]",
    "{a}",
    "(x :int,) -> :int",
    "(:int x) -> :int",
    "-> :int",
    "{a :int} extra",
)


def _errors(errors: list[Any]) -> list[dict[str, Any]]:
    return [{"code": e.code, "path": list(e.path), "message": e.message} for e in errors]


def cases() -> Iterator[dict[str, Any]]:
    """Every case of the corpus, in file order."""
    for text in MALFORMED:
        try:
            sigs.parse(text)
        except PtcError as exc:
            yield {"signature": text, "parse_error": {"code": exc.code, "message": exc.message}}
        else:
            yield {"signature": text, "parse_error": None}
    for text in SIGNATURES:
        sig = sigs.parse(text)
        for side in ("output", "input"):
            if side == "input" and not sig.params:
                continue
            for value in VALUES:
                found = (sigs.validate_output(sig, value) if side == "output"
                         else sigs.validate_input(sig, value))  # fmt: skip
                if not found:
                    continue
                headline = str(ContractViolation(found, ref="tool/t", side=side).message)
                yield {"signature": text, "side": side, "value": value,
                       "errors": _errors(found), "headline": headline}  # fmt: skip


def lines() -> list[str]:
    """The corpus as the file's lines."""
    return [json.dumps(c, ensure_ascii=False) for c in cases()]


def main(argv: list[str], out: TextIO) -> int:
    """Compare the corpus with the file (exit 1 when they differ), or `--write` it."""
    now = lines()
    if "--write" in argv:
        PATH.parent.mkdir(parents=True, exist_ok=True)
        PATH.write_text("\n".join(now) + "\n", encoding="utf-8")
        print(f"wrote {len(now)} cases to {PATH}", file=out)
        return 0
    kept = PATH.read_text(encoding="utf-8").splitlines() if PATH.exists() else []
    if kept == now:
        print(f"{len(now)} cases: the corpus matches {PATH}", file=out)
        return 0
    for i, (a, b) in enumerate(zip(kept, now, strict=False)):
        if a != b:
            print(f"line {i + 1} differs:\n  kept: {a}\n  now:  {b}", file=out)
            break
    else:
        print(f"{len(kept)} cases kept, {len(now)} now", file=out)
    print("if the change is intended: ptc fuzz signature-corpus --write", file=out)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:], sys.stdout))
