"""Shrink a failing PTC-Lisp program while it keeps failing the same way.

The program is read into a tree of forms (a small reader that knows strings, characters,
comments, reader prefixes and the four brackets), and each round proposes every one-step
reduction: drop a top-level form, replace a form by one of its sub-forms or by `nil`/`0`,
drop one element of a collection or argument of a call. A caller's `still_fails` judges a
whole round's candidates at once (the Clojure differential runs them in one JVM batch);
the smallest that still fails becomes the program, until a round finds none.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

OPEN = {"(": ")", "[": "]", "{": "}", "#{": "}", "#(": ")"}
PREFIXES = ("#'", "'", "@", "`", "~@", "~", "^")
MAX_CANDIDATES = 160  # per round, smallest first: one JVM batch stays a few seconds


@dataclass(frozen=True, slots=True)
class Form:
    """An atom (`kids` None) or a bracketed form; `prefix` is a reader prefix like `'`."""

    prefix: str
    text: str  # the atom's text, or the opening bracket
    kids: tuple[Form, ...] | None = None

    def show(self) -> str:
        """Source text of the form."""
        if self.kids is None:
            return self.prefix + self.text
        inner = " ".join(k.show() for k in self.kids)
        return f"{self.prefix}{self.text}{inner}{OPEN[self.text]}"


def read(src: str) -> list[Form]:
    """Top-level forms of `src`; ValueError when its brackets do not balance."""
    pos = 0
    n = len(src)

    def skip() -> None:
        nonlocal pos
        while pos < n:
            if src[pos] in " \t\r\n,":
                pos += 1
            elif src[pos] == ";":
                while pos < n and src[pos] != "\n":
                    pos += 1
            else:
                return

    def form() -> Form:
        nonlocal pos
        prefix = ""
        while (p := next((p for p in PREFIXES if src.startswith(p, pos)), None)) is not None:
            prefix += p
            pos += len(p)
        opener = next((o for o in ("#{", "#(", "(", "[", "{") if src.startswith(o, pos)), None)
        if opener is not None:
            pos += len(opener)
            kids: list[Form] = []
            while True:
                skip()
                if pos >= n:
                    raise ValueError("unbalanced")
                if src[pos] in ")]}":
                    if src[pos] != OPEN[opener]:
                        raise ValueError("mismatched")
                    pos += 1
                    return Form(prefix, opener, tuple(kids))
                kids.append(form())
        start = pos
        if src.startswith("#\"", pos) or src[pos] == '"':
            pos += 2 if src[pos] == "#" else 1
            while pos < n and src[pos] != '"':
                pos += 2 if src[pos] == "\\" else 1
            pos += 1
        elif src[pos] == "\\":
            pos += 2
            while pos < n and src[pos].isalnum():
                pos += 1
        else:
            while pos < n and src[pos] not in " \t\r\n,;()[]{}\"":
                pos += 1
        if pos == start:
            raise ValueError(f"unexpected {src[pos]!r}")
        return Form(prefix, src[start:pos])

    out: list[Form] = []
    while True:
        skip()
        if pos >= n:
            return out
        out.append(form())


def show(forms: list[Form]) -> str:
    """Source text of top-level forms, one a line."""
    return "\n".join(f.show() for f in forms)


def _variants(f: Form) -> Iterator[Form]:
    """Every one-step reduction of `f`."""
    if f.kids is None:
        return
    yield Form("", "nil")
    yield Form("", "0")
    for k in f.kids:
        yield k
    head = 1 if f.text in ("(", "#(") else 0  # keep a call's operator
    step = 2 if f.text == "{" else 1  # a map loses a whole entry
    for i in range(head, len(f.kids), step):
        yield Form(f.prefix, f.text, f.kids[:i] + f.kids[i + step :])
    for i, k in enumerate(f.kids):
        for v in _variants(k):
            yield Form(f.prefix, f.text, (*f.kids[:i], v, *f.kids[i + 1 :]))


def candidates(forms: list[Form]) -> list[str]:
    """The distinct one-step reductions of a program, smallest first."""
    out: set[str] = set()
    if len(forms) > 1:
        out |= {show(forms[:i] + forms[i + 1 :]) for i in range(len(forms))}
    for i, f in enumerate(forms):
        for v in _variants(f):
            out.add(show([*forms[:i], v, *forms[i + 1 :]]))
    return sorted(out, key=lambda s: (len(s), s))[:MAX_CANDIDATES]


def minimize(
    src: str, still_fails: Callable[[list[str]], list[bool]], rounds: int = 20
) -> tuple[str, int]:
    """The smallest reduction of `src` found that still fails, and how many were tried."""
    try:
        forms = read(src)
    except ValueError:
        return src, 0
    best, tried = src, 0
    for _ in range(rounds):
        batch = [c for c in candidates(forms) if len(c) < len(best)]
        if not batch:
            break
        tried += len(batch)
        kept = [c for c, bad in zip(batch, still_fails(batch), strict=True) if bad]
        if not kept:
            break
        best = kept[0]
        forms = read(best)
    return best, tried
