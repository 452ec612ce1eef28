"""Regex values: Java-style patterns run on the `regex` package with a time budget.

`compile_regex(source)` validates a pattern, translates the few Java spellings the
`regex` package reads differently, and returns an opaque `Regex` that prints as
`#"source"`. Compilation is bounded before the engine sees the pattern (the engine
expands counted repetitions, so `(?:(?:a{1000}){1000}){1000}` would allocate without
end): at most `MAX_PATTERN_BYTES` of source, groups nested at most
`MAX_REGEX_NESTING` deep, and an estimated expansion (every atom weighted by the
product of the counted repetitions around it) of at most `MAX_REGEX_EXPANSION`.
Each bound fails with `regex_too_complex` naming the limit and its value.

Every match operation goes through the methods here. They search the *whole* subject
(no limit cuts data silently) and give each engine call a time budget
(`MATCH_TIMEOUT_S` plus `MATCH_TIMEOUT_PER_MIB_S` per MiB of subject, clamped by the
run deadline). An exceeded budget is `runtime_error` "Regex complexity limit
exceeded" (catastrophic backtracking), or the run's own `timeout` when the deadline is
what ran out. `finditer` gives the budget to the rest of the subject, renews it while
matches keep coming, and checks the run's deadline and cancel token every 64 matches.

Java syntax accepted as is by `regex`: `\\d \\w \\s \\b`, lookarounds, `(?<name>...)`,
possessive and lazy quantifiers, inline flags, `\\p{...}`. Translated: `\\z` (absolute
end, `regex`'s `\\Z`), `\\Z` (end or before a final newline) and `\\Q...\\E` (the text
between taken literally; an unclosed `\\Q` quotes to the end, as in Java).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any, Final, NoReturn

import regex as _regex

from ptc_runtime.errors import LimitExceeded, PtcError

#: Longest pattern source, in UTF-8 bytes.
MAX_PATTERN_BYTES: Final = 256
#: Deepest nesting of groups in a pattern.
MAX_REGEX_NESTING: Final = 32
#: Largest estimated expansion of a pattern: each atom counts the product of the
#: counted repetitions (`{n}`, `{n,m}`) around it, so `(?:a{100}){100}` is 10,000.
MAX_REGEX_EXPANSION: Final = 100_000
#: Base time one engine call may take before it counts as catastrophic backtracking.
MATCH_TIMEOUT_S: Final = 0.25
#: Extra time per MiB of subject, so a linear scan of a long text is not mistaken
#: for backtracking.
MATCH_TIMEOUT_PER_MIB_S: Final = 0.5
#: Matches `finditer` yields between two checks of the deadline and cancel token.
_CHECK_EVERY: Final = 64

_COMPLEXITY = "Regex complexity limit exceeded (ReDoS protection)"
_HINT = "simplify the pattern: avoid nested or overlapping repetition like (a+)+"


class Regex:
    """A compiled pattern; equality is by source text."""

    __slots__ = ("compiled", "source")

    def __init__(self, source: str, compiled: Any) -> None:
        self.source = source
        self.compiled = compiled

    def __eq__(self, other: object) -> bool:
        return type(other) is Regex and other.source == self.source

    def __hash__(self) -> int:
        return hash(("Regex", self.source))

    def __repr__(self) -> str:
        return '#"' + self.source + '"'

    @property
    def groups(self) -> int:
        """Number of capture groups."""
        return int(self.compiled.groups)

    def search(self, s: str) -> Any:
        """First match in `s`, or None."""
        return _guarded(lambda t: self.compiled.search(s, timeout=t), len(s))

    def fullmatch(self, s: str) -> Any:
        """A match of the whole of `s`, or None."""
        return _guarded(lambda t: self.compiled.fullmatch(s, timeout=t), len(s))

    def finditer(self, s: str) -> Iterator[Any]:
        """All non-overlapping matches in `s`, as Java's `Matcher.find` sees them: after
        an empty match the next search starts one character later, after a non-empty
        one at its end.

        The engine's own iterator does the scanning (one C call per match). Its time
        budget covers the rest of the subject; when it runs out after the iterator made
        progress, a fresh iterator resumes where Java would search next, so only a stretch
        with no match at all for a whole budget counts as catastrophic backtracking."""
        n = len(s)
        pos = 0  # where Java's next search starts
        count = 0
        while pos <= n:
            budget, by_deadline = _budget(n - pos)
            it = self.compiled.finditer(s, pos, timeout=budget)
            progressed = False
            restart = False
            while True:
                try:
                    m = next(it, None)
                except TimeoutError:
                    if progressed:
                        _check_run()
                        restart = True
                        break
                    _timed_out(by_deadline)
                except RecursionError:
                    raise PtcError("runtime_error", _COMPLEXITY) from None
                if m is None:
                    return
                start, stop = m.span()
                if start < pos:
                    # Python's rule (a non-empty match where an empty one just was) differs
                    # from Java's here: search again from where Java would.
                    restart = True
                    break
                progressed = True
                pos = stop + 1 if stop == start else stop
                count += 1
                if count % _CHECK_EVERY == 0:
                    _check_run()
                yield m
            if not restart:
                return


def _context() -> Any:
    from ptc_runtime.context import current

    try:
        return current()
    except PtcError:
        return None


def _check_run() -> None:
    ctx = _context()
    if ctx is not None:
        ctx.check_time()


def _budget(chars: int) -> tuple[float, bool]:
    """Seconds one engine call on `chars` characters may run, and whether the run
    deadline (not the fixed budget) is what bounds it."""
    own = MATCH_TIMEOUT_S + MATCH_TIMEOUT_PER_MIB_S * chars / 1_048_576
    ctx = _context()
    if ctx is None or ctx.deadline is None:
        return own, False
    left = ctx.deadline - time.monotonic()
    if left < own:
        return max(0.001, left), True
    return own, False


def _timed_out(by_deadline: bool) -> NoReturn:
    """Raise for an engine call that ran out of time: the run's own timeout when the
    deadline bounded it, else the complexity error (catastrophic backtracking)."""
    if by_deadline:
        _check_run()
        raise LimitExceeded("timeout", "execution exceeded its deadline", kind="timeout")
    raise PtcError("runtime_error", _COMPLEXITY, hint=_HINT)


def _guarded(call: Any, chars: int) -> Any:
    budget, by_deadline = _budget(chars)
    try:
        return call(budget)
    except TimeoutError:
        _timed_out(by_deadline)
    except RecursionError:
        raise PtcError("runtime_error", _COMPLEXITY) from None


def translate(source: str) -> str:
    """The `regex`-package spelling of Java pattern `source`."""
    out: list[str] = []
    i = 0
    n = len(source)
    in_class = False
    while i < n:
        ch = source[i]
        if ch == "\\" and i + 1 < n:
            nxt = source[i + 1]
            if nxt == "Q":
                end = source.find("\\E", i + 2)
                stop = n if end < 0 else end
                out.append(_regex.escape(source[i + 2 : stop]))
                i = n if end < 0 else end + 2
                continue
            if not in_class and nxt == "z":
                out.append("\\Z")
            elif not in_class and nxt == "Z":
                out.append("(?=\\n?\\Z)")
            else:
                out.append(source[i : i + 2])
            i += 2
            continue
        if ch == "[" and not in_class:
            in_class = True
            out.append(ch)
            i += 1
            # A leading ']' (or '^]') is a literal member, as in Java.
            if i < n and source[i] == "^":
                out.append("^")
                i += 1
            if i < n and source[i] == "]":
                out.append("\\]")
                i += 1
            continue
        if ch == "]" and in_class:
            in_class = False
        out.append(ch)
        i += 1
    return "".join(out)


def compile_regex(source: str) -> Regex:
    """Compile `source`, or raise PtcError naming the problem (never a Python message)."""
    if len(source.encode("utf-8", "surrogatepass")) > MAX_PATTERN_BYTES:
        raise PtcError(
            "runtime_error",
            f"regex pattern exceeds {MAX_PATTERN_BYTES} bytes (limit regex pattern bytes)",
        )
    translated = translate(source)
    check_complexity(translated)
    try:
        compiled = _regex.compile(translated)
    except _regex.error as exc:
        pos = getattr(exc, "pos", None)
        where = f" at position {pos}" if pos is not None else ""
        raise PtcError("invalid_regex", f"Invalid regex{where}: {exc.msg}") from None
    except (RecursionError, OverflowError, ValueError):
        raise PtcError("invalid_regex", "Invalid regex: pattern too complex") from None
    return Regex(source, compiled)


def _too_complex(limit: str, what: str) -> PtcError:
    return PtcError(
        "regex_too_complex",
        f"regex {limit} limit exceeded: {what}",
        hint="use smaller counted repetitions ({n}, {n,m}) and less nesting",
    )


def _counted(p: str, i: int) -> tuple[int, int] | None:
    """The weight factor and end index of a counted quantifier `{n}`, `{n,}` or `{n,m}`
    starting at `p[i]` (a `{`), or None when the brace is not a quantifier."""
    j = p.find("}", i + 1)
    if j < 0:
        return None
    body = p[i + 1 : j]
    lo, comma, hi = body.partition(",")
    if not lo and comma and hi:  # `{,m}`: the engine reads it as `{0,m}`
        lo = "0"
    if not lo.isdigit() or not lo.isascii() or (hi and not (hi.isdigit() and hi.isascii())):
        return None
    # Digits are at most 256 bytes long; cap the number before int() so it stays small.
    big = MAX_REGEX_EXPANSION + 1
    n_lo = int(lo) if len(lo) <= 7 else big
    n_hi = (int(hi) if len(hi) <= 7 else big) if hi else (n_lo + 1 if comma else n_lo)
    return max(1, n_lo, n_hi), j + 1


def _group_content(p: str, i: int) -> int:
    """Index where the content of the group opened at `p[i]` begins, or minus the index
    after it for a content-less inline flag group such as `(?i)`."""
    n = len(p)
    if i + 1 >= n or p[i + 1] != "?":
        return i + 1
    c = p[i + 2 : i + 3]
    if c in (":", "=", "!", ">", "|"):
        return i + 3
    if c == "<" and p[i + 3 : i + 4] in ("=", "!"):
        return i + 4
    if c in ("<", "'") or (c == "P" and p[i + 3 : i + 4] == "<"):
        end = p.find("'" if c == "'" else ">", i + 3)
        return n if end < 0 else end + 1
    j = i + 2
    while j < n and p[j] not in ":)":
        j += 1
    if j < n and p[j] == ":":
        return j + 1
    return -(j + 1)


def check_complexity(p: str) -> None:
    """Refuse a (translated) pattern whose groups nest deeper than `MAX_REGEX_NESTING`
    or whose estimated expansion exceeds `MAX_REGEX_EXPANSION`.

    A linear scan: each atom (a character, an escape, a class, a group) has a weight;
    a counted quantifier multiplies the weight of the atom before it; a group's weight
    is the sum of its contents. This over-estimates alternatives (they are summed),
    which is the safe side."""
    # one frame per open group: [total weight, weight of the last atom]
    stack: list[list[int]] = [[0, 0]]
    i = 0
    n = len(p)
    cap = MAX_REGEX_EXPANSION
    while i < n:
        ch = p[i]
        frame = stack[-1]
        if ch == "\\":
            j = i + 2
            if j <= n and p[i + 1 : j] in ("p", "P", "x", "N") and j < n and p[j] == "{":
                end = p.find("}", j)
                j = n if end < 0 else end + 1
            frame[0] += 1
            frame[1] = 1
            i = j
        elif ch == "[":
            j = i + 1
            if j < n and p[j] == "^":
                j += 1
            if j < n and p[j] == "]":
                j += 1
            depth = 1
            while j < n and depth:
                c = p[j]
                if c == "\\":
                    j += 2
                    continue
                if c == "[":
                    depth += 1
                elif c == "]":
                    depth -= 1
                j += 1
            frame[0] += 1
            frame[1] = 1
            i = j
        elif ch == "(":
            i = _group_content(p, i)
            if i < 0:  # an inline flag group `(?i)`: no content, no weight
                i = -i
                continue
            stack.append([0, 0])
            if len(stack) - 1 > MAX_REGEX_NESTING:
                raise _too_complex(
                    "nesting", f"groups nested deeper than {MAX_REGEX_NESTING} levels"
                )
        elif ch == ")":
            if len(stack) > 1:
                inner = stack.pop()
                frame = stack[-1]
                frame[0] += inner[0]
                frame[1] = inner[0]
            i += 1
        elif ch == "{" and (q := _counted(p, i)) is not None:
            factor, i = q
            frame[0] += frame[1] * (factor - 1)
            frame[1] *= factor
            if frame[0] > cap or frame[1] > cap:
                raise _too_complex(
                    "expansion", f"counted repetitions expand the pattern past {cap:,} units"
                )
            if i < n and p[i] in "?+":
                i += 1
        elif ch in "*+?":
            i += 1
            if i < n and p[i] in "?+":
                i += 1
        else:
            if ch != "|":
                frame[0] += 1
                frame[1] = 1
            i += 1
        if stack[-1][0] > cap:
            raise _too_complex(
                "expansion", f"counted repetitions expand the pattern past {cap:,} units"
            )
    total = sum(f[0] for f in stack)
    if total > cap:
        raise _too_complex(
            "expansion", f"counted repetitions expand the pattern past {cap:,} units"
        )
