"""Every builtin called with every kind of bad argument, and the check of what comes back.

The promise of issue 3 item 5: bad data of any kind gets a signal value (`nil`, `false`,
`""` ... as target §13 lists) or a typed error, never a Python exception, a Python repr
or a traceback in a message, and every error names the place (line:column).

`POOL` holds argument expressions of every kind a program can make, as PTC-Lisp source.
`targets()` lists each registry builtin under every spelling a program can use (its
name as the registry writes it, and `str/...`, `set/...`, `walk/...`, `regex/...` for
its namespace groups); `arg_counts` gives the argument counts to sweep (accepted ones
up to 3, and one refused count). `calls` generates the calls: every combination for
small counts, a seeded sample otherwise. `check` runs one call inline on line 1, with
its arguments bound by a `let` and the call on line 2, and (for up to one argument and
the refused count) through `apply`, which reaches the builtin's function without the
call site's checks and lowering; it returns what is wrong with the outcomes (an empty
list when the promise holds).

Used by `tests/test_bad_args_sweep.py` (a CI-sized sample) and `ptc fuzz bad-args`
(the campaign: every combination up to two arguments, a sample for three).
"""

from __future__ import annotations

import itertools
import random
import sys
import time
import warnings
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Final, TextIO

from ptc_compiler import run
from ptc_runtime.builtins import BUILTINS
from ptc_runtime.builtins.registry import BuiltinSpec
from ptc_runtime.printer import pr_str


@dataclass(frozen=True, slots=True)
class Arg:
    """One argument expression of the pool."""

    label: str  # short name in reports
    src: str  # PTC-Lisp source text; evaluates without error on its own
    fn: bool = False  # a callable: an error raised inside it is located in its body


#: Argument expressions of every kind a program can make. Not in the pool, and why:
#: `(range)` and other infinite sequences are refused before the program runs (DIV-02:
#: sequences are finite), so no builtin can receive one; atoms and other mutable state
#: do not exist (DIV-05); `:ns/k` is a reader error (DIV-13); `#'x` reads the var's
#: value, so the var itself is reached through `(def ...)`, which returns it.
POOL: Final[tuple[Arg, ...]] = (
    Arg("nil", "nil"),
    Arg("true", "true"),
    Arg("false", "false"),
    Arg("0", "0"),
    Arg("-1", "-1"),
    Arg("1", "1"),
    Arg("3", "3"),
    Arg("huge", "99999999999999999999"),
    Arg("-huge", "-99999999999999999999"),
    Arg("2^63", "9223372036854775808"),
    Arg("1.5", "1.5"),
    Arg("-2.5", "-2.5"),
    Arg("-0.0", "-0.0"),
    Arg("1e308", "1.0e308"),
    Arg("NaN", "##NaN"),
    Arg("Inf", "##Inf"),
    Arg("-Inf", "##-Inf"),
    Arg('""', '""'),
    Arg('"abc"', '"abc"'),
    Arg('"12"', '"12"'),
    Arg("unicode", '"h\u00e9llo e\u0301 \U0001f389 \u4e2d"'),
    Arg("blank", '" \\n\\t "'),
    Arg('"2024-01-31"', '"2024-01-31"'),
    Arg(":k", ":k"),
    Arg("'sym", "'sym"),
    Arg("\\a", "\\a"),
    Arg("[]", "[]"),
    Arg("[1 2]", "[1 2]"),
    Arg("[nil]", "[nil]"),
    Arg("(list 1 2)", "(list 1 2)"),
    Arg("{}", "{}"),
    Arg("{:a 1}", "{:a 1}"),
    Arg('{"a" 1}', '{"a" 1}'),
    Arg("{nil nil}", "{nil nil :b [1]}"),
    Arg("#{}", "#{}"),
    Arg("#{1}", "#{1}"),
    Arg("nested", '[[1] {:a [2]} #{"x"}]'),
    Arg("mixed", '[1 "a" :k nil 2.5]'),
    Arg("records", '[{:a 1 :b "x"} {:a 2} {"a" 3}]'),
    Arg("range1000", "(range 1000)"),
    Arg("deep", "(reduce (fn [a _] [a]) [] (range 1000))"),
    Arg("deep-map", "(reduce (fn [a _] {:a a}) {} (range 300))"),
    Arg("long-str", '(apply str (repeat 5000 "ab"))'),
    Arg("regex-chars", '"a.*[(\\\\"'),
    Arg("inc", "inc", fn=True),
    Arg("identity-fn", "(fn [x] x)", fn=True),
    Arg("#(+ %1 %2)", "#(+ %1 %2)", fn=True),
    Arg("failing-fn", "(fn [& _] (/ 1 0))", fn=True),
    Arg("regex", '#"a+"'),
    Arg("var", "(def v 1)"),
    Arg("LocalDate", '(LocalDate/parse "2024-01-31")'),
    Arg("Instant", '(Instant/parse "2024-01-01T00:00:00Z")'),
    Arg("Date", "(java.util.Date. 0)"),
    Arg(
        "Duration",
        (
            '(Duration/between (Instant/parse "2024-01-01T00:00:00Z")'
            ' (Instant/parse "2024-01-02T00:00:00Z"))'
        ),
    ),
)

_BY_LABEL: Final = {a.label: a for a in POOL}

#: Namespace prefixes of the registry groups a program can write before a name.
GROUP_PREFIX: Final = {"string": "str", "set": "set", "walk": "walk", "regex": "regex"}

#: Error codes a program may legitimately get (target §10.2 and the runtime's own).
KNOWN_CODES: Final = frozenset(
    {
        "type_error", "arithmetic_error", "arity_error", "not_callable",
        "destructure_error", "runtime_error", "loop_limit_exceeded", "timeout",
        "memory_exceeded", "pmap_error", "pcalls_error", "parallel_capacity_exceeded",
        "java_type_error", "java_domain_error", "invalid_java_string", "invalid_java_value",
        "invalid_keyword", "invalid_regex", "invalid_arity", "invalid_form", "unbound_var",
        "fail", "program_too_complex", "recursion_limit", "step_limit_exceeded", "output_limit", "invalid_output",
        "unsupported_java_member", "unsupported_java_class", "java_arity_error",
        "unsupported_method",
    }
)  # fmt: skip

#: Python phrasing that must never reach a message (exception names, reprs, type names).
LEAKS: Final = (
    "Traceback", "NoneType", "object at 0x", " at 0x", "<class", "<function", "<built-in",
    "<lambda>", "<locals>", "builtins.", "__", "'dict'", "'list'", "'str'", "'int'",
    "'float'", "'tuple'", "'bool'", "'set'", "'frozenset'", "TypeError", "KeyError",
    "ValueError", "AttributeError", "IndexError", "ZeroDivisionError", "RecursionError",
    "OverflowError", "StopIteration", "NotImplemented", "int() ", "float() ", "str() ",
    "unsupported operand", "not subscriptable", "not iterable", "object is not",
    "has no attribute", "positional argument", "keyword argument", "takes no",
    "must be str,", "must be str or", "must be int,", "must be real number", "invalid literal", "codec",
    "PVec", "PMap", "PSet", "Keyword(", "SymbolRef", "EqKey", "ptc_runtime", "ptc_compiler",
    ".py", "self.", "math domain error", "math range error", "substring not found",
    "list index", "tuple index", "string index", "out of range float", "bad operand",
    "can't multiply", "can only concatenate", "unhashable", "'<' not supported",
    "argument must be", "expected string or bytes",
)  # fmt: skip

#: The message the executor gives any stray Python TypeError: typed, but it names neither
#: the builtin nor the argument, so the sweep reports it as a finding as well.
VAGUE: Final = "wrong type of argument"

#: Characters of a value printed for the leak check: `(interpose deep long-str)` is cheap to
#: build (20 000 references to one 1000-deep vector) and 20 million characters to print.
PRINT_LIMIT: Final = 20_000
#: Address space of a campaign process, so a runaway value fails there, not the machine.
CAMPAIGN_MEMORY_BYTES: Final = 6 * 1024**3

TIMEOUT_MS: Final = 2_000
MAX_STEPS: Final = 200_000


@dataclass(frozen=True, slots=True)
class Target:
    """One builtin under one spelling a program can write."""

    spec: BuiltinSpec
    spelling: str
    primary: bool  # the registry's own spelling (aliases are swept more thinly)


def targets() -> list[Target]:
    """Every registry builtin under every spelling, registry order."""
    out: list[Target] = []
    for name, spec in BUILTINS.items():
        spellings: list[str] = []
        if spec.bare or "/" in name or name.startswith(".") or name.endswith("."):
            spellings.append(name)
        for group in spec.groups:
            prefix = GROUP_PREFIX.get(group)
            if prefix is not None and "/" not in name:
                spellings.append(f"{prefix}/{name}")
        for i, s in enumerate(spellings):
            out.append(Target(spec, s, primary=i == 0))
    return out


def arg_counts(spec: BuiltinSpec) -> tuple[list[int], list[int]]:
    """The accepted argument counts to sweep (up to 3; variadic: min, min+1, min+2) and
    the refused counts from 0 to one past the largest fixed count."""
    counts = {a for a in spec.arities if a <= 3}
    if spec.variadic_min is not None:
        counts |= {spec.variadic_min, spec.variadic_min + 1, spec.variadic_min + 2}
    top = max([*counts, *spec.arities]) + 1
    return sorted(counts), [n for n in range(top + 1) if not spec.accepts(n)]


#: The argument rows of a refused count: the same kind in every position, for a few kinds
#: (a number, a collection, a map, a fn), so a count check cannot hide behind a type check.
REFUSED_KINDS: Final = ("1", "[1 2]", "{:a 1}", "inc")


def calls(
    n: int, rng: random.Random | None = None, sample: int | None = None
) -> Iterator[tuple[Arg, ...]]:
    """Argument tuples of length `n`: all combinations when `sample` is None, else
    `sample` tuples drawn by `rng` (every pool entry at least once per position first)."""
    if sample is None:
        yield from itertools.product(POOL, repeat=n)
        return
    assert rng is not None
    if n == 0:
        yield ()
        return
    # each position sees every kind once, in shuffled order, before the random draws
    columns = [rng.sample(POOL, len(POOL)) for _ in range(n)]
    seen = 0
    for row in zip(*columns, strict=True):
        if seen >= sample:
            return
        yield row
        seen += 1
    while seen < sample:
        yield tuple(rng.choice(POOL) for _ in range(n))
        seen += 1


@dataclass(frozen=True, slots=True)
class Problem:
    """One broken promise: the program, what went wrong and what came back."""

    source: str
    kind: str  # "raised", "internal_error", "unknown_code", "no_position", ...
    detail: str

    def render(self) -> str:
        """One line for a report."""
        return f"[{self.kind}] {self.source!r}: {self.detail}"


def sources(target: Target, args: Sequence[Arg]) -> tuple[str, str, str]:
    """The call inline on line 1; with its arguments bound by a `let` (line 1) and the
    call on line 2, column 3; and through `apply` on line 2, column 3 (no static check
    of the count, no call-site lowering: the builtin's own function gets the arguments)."""
    inline = "(" + " ".join([target.spelling, *(a.src for a in args)]) + ")"
    names = [f"a{i}" for i in range(len(args))]
    binds = " ".join(f"{nm} {a.src}" for nm, a in zip(names, args, strict=True))
    nested = f"(let [{binds}]\n  (" + " ".join([target.spelling, *names]) + "))"
    applied = f"(let [{binds}]\n  (apply {target.spelling} [" + " ".join(names) + "]))"
    return inline, nested, applied


def leak_in(text: str) -> str | None:
    """The first Python phrase found in `text`, or None."""
    for phrase in LEAKS:
        if phrase in text:
            return phrase
    return None


def check_source(src: str, line: int, column: int | None, has_fn: bool) -> list[Problem]:
    """Run `src` and list what breaks the promise; the call is at `line`:`column`
    (`column` None: anywhere on `line`). With a callable argument an error may also be
    located inside that callable (it is on line 1)."""
    out: list[Problem] = []
    try:
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            res = run(src, timeout_ms=TIMEOUT_MS, max_steps=MAX_STEPS, native=True)
    except BaseException as exc:  # the host must never see one
        if isinstance(exc, KeyboardInterrupt):
            raise
        return [Problem(src, "raised", f"{type(exc).__name__}: {str(exc)[:200]}")]
    for w in seen:  # a host running with warnings as errors would have failed
        out.append(Problem(src, "warning", f"{w.category.__name__}: {str(w.message)[:200]}"))
    printed = leak_in(res.output[:4000])  # println/doc output is shown to the model too
    if printed is not None:
        out.append(Problem(src, "output_leak", f"{printed!r} in {res.output[:200]}"))
    if res.ok:
        try:
            text = pr_str(res.value, limit=PRINT_LIMIT)
        except Exception as exc:  # any failure to print is the finding
            return [Problem(src, "unprintable", f"{type(exc).__name__}: {str(exc)[:200]}")]
        leak = leak_in(text[:4000])  # no pool string holds a phrase of LEAKS
        if leak is not None:
            out.append(Problem(src, "value_leak", f"{leak!r} in {text[:200]}"))
        return out
    err = res.error
    if err is None:
        return [Problem(src, "no_error", "ok is False without an error")]
    where = f"{err.code}: {err.message}"
    if err.code == "internal_error":
        out.append(Problem(src, "internal_error", err.message))
    elif err.code not in KNOWN_CODES:
        out.append(Problem(src, "unknown_code", where))
    leak = leak_in(err.message) or (leak_in(err.hint) if err.hint else None)
    if leak is not None:
        out.append(Problem(src, "message_leak", f"{leak!r} in {where}"))
    if err.message.strip() == VAGUE:
        out.append(Problem(src, "vague", where))
    if err.code == "fail":  # a `(fail v)` reached from a pool fn: no position is owed
        return out
    if err.line is None or err.column is None:
        out.append(Problem(src, "no_position", where))
    elif err.code not in ("timeout", "memory_exceeded"):
        here = (err.line, err.column)
        inside_fn = has_fn and err.line == 1
        if not inside_fn and (err.line != line or (column is not None and err.column != column)):
            out.append(Problem(src, "wrong_position", f"{here} for {where}"))
    return out


def check(target: Target, args: Sequence[Arg], *, applied: bool = False) -> list[Problem]:
    """The forms of one call (see `sources`; the `apply` form when `applied`), with their
    problems."""
    inline, nested, through_apply = sources(target, args)
    has_fn = any(a.fn for a in args)
    found = check_source(inline, 1, None if has_fn else 1, has_fn)
    found += check_source(nested, 2, 3, has_fn)
    if applied:
        found += check_source(through_apply, 2, 3, has_fn)
    return found


# ---------------------------------------------------------------- the campaign


@dataclass
class Sweep:
    """What a sweep did: calls made and problems by builtin."""

    calls: int = 0
    problems: list[Problem] = field(default_factory=list)
    by_builtin: Counter[str] = field(default_factory=Counter)
    by_kind: Counter[str] = field(default_factory=Counter)


def target_calls(
    target: Target, full_up_to: int, sample: int, seed: int
) -> Iterator[tuple[Arg, ...]]:
    """The argument rows of one target: every combination for counts <= `full_up_to`
    (aliases: for counts <= 1; they reach the same function), `sample` draws seeded by
    `seed` and the spelling for larger counts, and each refused count (primary only)."""
    rng = random.Random(f"{seed}/{target.spelling}")
    counts, refused = arg_counts(target.spec)
    for n in counts:
        if n <= full_up_to and (target.primary or n <= 1):
            yield from calls(n)
        else:
            yield from calls(n, rng, sample)
    if target.primary:
        for n in refused:
            for k in REFUSED_KINDS if n else REFUSED_KINDS[:1]:
                yield (_BY_LABEL[k],) * n


def count_calls(target: Target, full_up_to: int, sample: int) -> int:
    """How many rows `target_calls` gives for `target` (without drawing them)."""
    counts, refused = arg_counts(target.spec)
    total = 0
    for n in counts:
        if n <= full_up_to and (target.primary or n <= 1):
            total += len(POOL) ** n
        else:
            total += sample if n else 1
    if target.primary:
        total += sum(len(REFUSED_KINDS) if n else 1 for n in refused)
    return total


def applied(target: Target, row: Sequence[Arg]) -> bool:
    """Whether `check` also makes the call through `apply` (up to one argument and the
    refused counts: enough to reach every function unchecked, at a third of the cost)."""
    return len(row) <= 1 or not target.spec.accepts(len(row))


def plan(
    full_up_to: int, sample: int, seed: int, only: Sequence[str] = ()
) -> Iterator[tuple[Target, tuple[Arg, ...]]]:
    """The calls of a sweep: `target_calls` of every target (of the `only` names)."""
    for target in targets():
        if only and target.spec.name not in only and target.spelling not in only:
            continue
        yield from ((target, row) for row in target_calls(target, full_up_to, sample, seed))


def sweep(
    full_up_to: int,
    sample: int,
    seed: int,
    *,
    max_calls: int | None = None,
    only: Sequence[str] = (),
    out: TextIO | None = None,
) -> Sweep:
    """Run `plan(...)` (at most `max_calls` calls), printing progress to `out`."""
    result = Sweep()
    start = time.perf_counter()
    last = None
    for target, row in plan(full_up_to, sample, seed, only):
        if max_calls is not None and result.calls >= max_calls:
            break
        found = check(target, row, applied=applied(target, row))
        result.calls += 1
        for p in found:
            result.problems.append(p)
            result.by_builtin[target.spelling] += 1
            result.by_kind[p.kind] += 1
        if out is not None and target.spelling != last:
            last = target.spelling
            stamp = time.strftime("%M:%S", time.gmtime(time.perf_counter() - start))
            print(f"[{stamp}] {result.calls:>8} calls, {len(result.problems):>6} problems,"
                  f" at {target.spelling}", file=out, flush=True)  # fmt: skip
    return result


def report(result: Sweep, out: TextIO, per_builtin: int = 3) -> None:
    """A summary: problems by kind, and the first few programs of each builtin."""
    print(f"\n{result.calls} calls (each run inline and nested in a let), "
          f"{len(result.problems)} problems", file=out)  # fmt: skip
    for kind, n in result.by_kind.most_common():
        print(f"  {kind:<16} {n}", file=out)
    shown: Counter[str] = Counter()
    for p in result.problems:
        head = p.source.split(" ", 1)[0].lstrip("(")
        if p.source.startswith("(let"):
            head = p.source.split("\n  (", 1)[1].split(" ", 1)[0].rstrip(")")
        if shown[head] < per_builtin:
            shown[head] += 1
            print("  " + p.render()[:400], file=out)


def cap_campaign_memory() -> None:
    """Cap this process's address space (and so its children's) at `CAMPAIGN_MEMORY_BYTES`."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        if soft == resource.RLIM_INFINITY or soft > CAMPAIGN_MEMORY_BYTES:
            resource.setrlimit(resource.RLIMIT_AS, (CAMPAIGN_MEMORY_BYTES, hard))
    except (ImportError, ValueError, OSError):  # not on this platform: run without the cap
        pass


def main_campaign(calls_budget: int | None, seed: int, only: Sequence[str], out: TextIO) -> int:
    """`ptc fuzz bad-args`: the full sweep (every combination up to two arguments, 200
    seeded draws for three), or its first `calls_budget` calls. Exit 0 when no problem."""
    cap_campaign_memory()
    print(f"bad-args sweep: {len(targets())} spellings of {len(BUILTINS)} builtins, "
          f"{len(POOL)} argument kinds, seed {seed}", file=out, flush=True)  # fmt: skip
    result = sweep(2, 200, seed, max_calls=calls_budget, only=only, out=out)
    report(result, out)
    return 0 if not result.problems else 1


if __name__ == "__main__":
    sys.exit(main_campaign(None, 0, sys.argv[1:], sys.stdout))
