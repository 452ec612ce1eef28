"""The four campaigns as plans of shards and a function that runs one shard.

Every plan is a deterministic function of the campaign's options (seeds, counts, shard size),
never of how many processes run it: a shard fixes its own cases (a seed and a slice of that
seed's programs, a builtin and a slice of its calls, a range of host-data seeds, a property
with an example seed), so the merged result of a campaign is the same for any `--jobs` and on
any cluster. A plan may be endless (no count given): the runner's time budget stops it.

* ``clojure``: programs of `fuzz/strategies/clojure_programs.py` against Clojure 1.11, one
  batch per shard sent to the process's long-lived JVM (`fuzz/clojure_diff.py`).
* ``bad-args``: every builtin with every kind of bad argument (`fuzz/strategies/bad_args.py`).
* ``host-data``: host values of every Python shape (`fuzz/strategies/host_data.py`).
* ``signatures``: the hypothesis properties of `fuzz/properties.py`.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import itertools
import os
import random
import re
import socket
import time
import traceback
from collections.abc import Callable, Iterator
from typing import Any

from fuzz.campaign.model import Finding, ShardResult, ShardSpec

CAMPAIGNS = ("clojure", "bad-args", "host-data", "signatures")

#: Cases per shard, by campaign: big enough that a shard's fixed cost (a JVM start for the
#: Clojure differential) is small beside its cases, small enough for a live progress line.
SHARD_SIZE = {"clojure": 200, "bad-args": 1000, "host-data": 40, "signatures": 200}


def _worker() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def _numbers(text: str) -> str:
    """`text` with its numbers as N: buckets group findings that differ only in values."""
    return re.sub(r"\d+", "N", text)


def _head(source: str) -> str:
    """The operator of a program's last top-level form (the generated program's family)."""
    last = source.strip().rsplit("\n(", 1)[-1].lstrip("(")
    head = re.split(r"[\s()\[\]{}]", last, maxsplit=1)[0]
    return head or "atom"


def _slices(total: int, size: int) -> Iterator[tuple[int, int]]:
    for start in range(0, total, size):
        yield start, min(start + size, total)


# ---------------------------------------------------------------- clojure


def plan_clojure(opts: dict[str, Any]) -> Iterator[ShardSpec]:
    """Shards of (seed, slice of that seed's programs); seeds endless when none are given."""
    size = int(opts.get("shard_size") or SHARD_SIZE["clojure"])
    programs = int(opts.get("programs", 1000))
    seeds = opts.get("seeds")
    index = itertools.count()
    for seed in seeds if seeds is not None else itertools.count():
        for start, stop in _slices(programs, size):
            yield {"campaign": "clojure", "index": next(index), "cases": stop - start,
                   "seed": int(seed), "start": start, "stop": stop}  # fmt: skip


def _clojure_kind(clojure: str, ours: str) -> str:
    """How the two sides disagree (a bucket is this and the program's family)."""
    if clojure.startswith("error ") and not ours.startswith("error "):
        return "clojure errors, we return a value"
    if ours.startswith("error ") and not clojure.startswith("error "):
        code = ours[len("error ") :].split(":", 1)[0]
        return f"we fail with {code}, Clojure returns a value"
    if "(printed" in clojure or "(printed" in ours:
        return "printed output differs"
    return "values differ"


def _clojure_bucket(clojure: str, ours: str, family: str) -> str:
    return f"{_clojure_kind(clojure, ours)} ({family})"


#: Our error codes that mean the program may not end: Clojure, which has no budget, would
#: hang on it, so the minimizer never sends such a reduction to the JVM.
_ENDLESS = ("step_limit_exceeded", "timeout", "memory_exceeded")


def _may_not_end(source: str) -> bool:
    import ptc_compiler

    r = ptc_compiler.run(source, timeout_ms=2_000, max_steps=100_000)
    return r.error is not None and (r.error.code in _ENDLESS or "infinite" in r.error.message)


def run_minimize_clojure(spec: ShardSpec) -> ShardResult:
    """Shrink one disagreement while it stays in its kind of disagreement; the finding is
    the smallest program found (`cases`: the reductions tried)."""
    from fuzz import clojure_diff
    from fuzz.campaign.minimize import minimize

    out = ShardResult("clojure-minimize", int(spec["index"]), worker=_worker())
    command = clojure_diff.clojure_command()
    if command is None:
        out.note = clojure_diff.clojure_required()
        return out
    kind = str(spec["kind"])
    oracle = clojure_diff.server(command)

    def still_fails(batch: list[str]) -> list[bool]:
        live = [(f"m{i:04d}", c) for i, c in enumerate(batch) if not _may_not_end(c)]
        try:
            outcomes, _ = clojure_diff.run_programs(live, command, oracle=oracle)
        except RuntimeError:  # the JVM batch itself failed: keep what we have
            return [False] * len(batch)
        bad = {o.source for o in outcomes
               if not o.agree and _clojure_kind(o.clojure, o.ours) == kind}  # fmt: skip
        return [c in bad for c in batch]

    small, tried = minimize(str(spec["program"]), still_fails)
    [o], _ = clojure_diff.run_programs([("min", small)], command, oracle=oracle)
    out.cases = tried
    out.findings.append(Finding(str(spec["case"]), str(spec["family"]), str(spec["bucket"]),
                                small, f"clojure: {o.clojure}\nours:    {o.ours}"))  # fmt: skip
    return out


def plan_minimize_clojure(findings: list[Finding]) -> Iterator[ShardSpec]:
    """One shard per bucket: its smallest program, to be shrunk further."""
    first: dict[str, Finding] = {}
    for f in findings:
        if f.bucket not in first or len(f.program) < len(first[f.bucket].program):
            first[f.bucket] = f
    for index, f in enumerate(sorted(first.values(), key=lambda f: f.bucket)):
        yield {"campaign": "clojure-minimize", "index": index, "cases": None, "case": f.case,
               "family": f.family, "bucket": f.bucket, "program": f.program,
               "kind": f.bucket.rsplit(" (", 1)[0]}  # fmt: skip


def run_clojure(spec: ShardSpec) -> ShardResult:
    """Run one seed slice here and in one Clojure JVM; every disagreement is a finding."""
    from fuzz import clojure_diff

    out = ShardResult("clojure", int(spec["index"]), worker=_worker())
    command = clojure_diff.clojure_command()
    if command is None:
        out.note = clojure_diff.clojure_required()
        return out
    seed, start, stop = int(spec["seed"]), int(spec["start"]), int(spec["stop"])
    programs = clojure_diff.seed_slice(seed, start, stop)
    outcomes, _ = clojure_diff.run_programs(programs, command,
                                            oracle=clojure_diff.server(command))  # fmt: skip
    for o in outcomes:
        family = _head(o.source)
        out.families[family] += 1
        if not o.agree:
            out.findings.append(Finding(o.id, family, _clojure_bucket(o.clojure, o.ours, family),
                                        o.source, f"clojure: {o.clojure}\nours:    {o.ours}"))  # fmt: skip
    out.cases = len(outcomes)
    return out


# ---------------------------------------------------------------- bad-args


def plan_bad_args(opts: dict[str, Any]) -> Iterator[ShardSpec]:
    """Shards of about `shard_size` consecutive calls of the sweep (registry order, at most
    `calls`); a shard holds segments (target, spelling, first call, end), several builtins'
    calls when they are few, so no shard is a fraction of a second of work."""
    from fuzz.strategies import bad_args

    size = int(opts.get("shard_size") or SHARD_SIZE["bad-args"])
    seed = int(opts.get("seed", 0))
    only = list(opts.get("only") or ())
    budget = opts.get("calls")
    left = None if budget is None else int(budget)
    index = itertools.count()
    segments: list[list[Any]] = []
    filled = 0

    def shard() -> ShardSpec:
        return {"campaign": "bad-args", "index": next(index), "cases": filled, "seed": seed,
                "segments": segments}  # fmt: skip

    for t_index, target in enumerate(bad_args.targets()):
        if only and target.spec.name not in only and target.spelling not in only:
            continue
        total = bad_args.count_calls(target, 2, 200)
        start = 0
        while start < total and (left is None or left > 0):
            stop = min(total, start + size - filled)
            if left is not None:
                stop = min(stop, start + left)
                left -= stop - start
            segments.append([t_index, target.spelling, start, stop])
            filled += stop - start
            start = stop
            if filled >= size:
                yield shard()
                segments, filled = [], 0
    if segments:
        yield shard()


def run_bad_args(spec: ShardSpec) -> ShardResult:
    """The calls of a shard's segments; each broken promise is a finding."""
    from fuzz.strategies import bad_args

    out = ShardResult("bad-args", int(spec["index"]), worker=_worker())
    every = _bad_args_targets()
    for t_index, spelling, start, stop in spec["segments"]:
        target = every[int(t_index)] if int(t_index) < len(every) else None
        if target is None or target.spelling != spelling:  # a worker on another checkout
            out.note = f"bad-args: builtin {spelling} is not target {t_index} here"
            return out
        rows = itertools.islice(bad_args.target_calls(target, 2, 200, int(spec["seed"])),
                                int(start), int(stop))  # fmt: skip
        family = target.spec.name
        for i, row in enumerate(rows, int(start)):
            for p in bad_args.check(target, row, applied=bad_args.applied(target, row)):
                out.findings.append(Finding(f"{target.spelling}#{i:05d}", family,
                                            f"{p.kind} ({family})", p.source, p.detail))  # fmt: skip
            out.cases += 1
            out.families[family] += 1
    return out


@functools.cache
def _bad_args_targets() -> list[Any]:
    from fuzz.strategies import bad_args

    return bad_args.targets()


# ---------------------------------------------------------------- host-data


def plan_host_data(opts: dict[str, Any]) -> Iterator[ShardSpec]:
    """Shards of consecutive case seeds from `seed`; endless when `cases` is None."""
    size = int(opts.get("shard_size") or SHARD_SIZE["host-data"])
    first = int(opts.get("seed", 0))
    cases = opts.get("cases")
    for index in itertools.count():
        start = first + index * size
        stop = start + size
        if cases is not None:
            stop = min(stop, first + int(cases))
            if start >= stop:
                return
        yield {"campaign": "host-data", "index": index, "cases": stop - start,
               "start": start, "stop": stop}  # fmt: skip


def _host_case(seed: int) -> tuple[str, str]:
    """The family (the program's operator) and program of case `seed`, drawn as
    `check_case` draws them."""
    from fuzz.strategies import host_data

    rng = random.Random(seed)
    host_data.host_value(rng)
    src = rng.choice(host_data.PROGRAMS)
    return (_head(src) if src.startswith("(") else src), src


def run_host_data(spec: ShardSpec) -> ShardResult:
    """Cases `start`..`stop` of the host-data campaign; each problem is a finding."""
    from fuzz.strategies import host_data

    out = ShardResult("host-data", int(spec["index"]), worker=_worker())
    for seed in range(int(spec["start"]), int(spec["stop"])):
        family, src = _host_case(seed)
        out.families[family] += 1
        out.cases += 1
        for problem in host_data.check_case(seed):
            what = problem.split(f"{src!r}: ", 1)[-1]
            kind = _numbers(":".join(what.split(":", 2)[:2]))[:80]
            out.findings.append(Finding(f"seed {seed}", family, kind,
                                        f"seed {seed}: {src}", what))  # fmt: skip
    return out


# ---------------------------------------------------------------- signatures


def _example_seed(seed: int, prop: str, rnd: int) -> int:
    digest = hashlib.sha256(f"{seed}/{prop}/{rnd}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def plan_signatures(opts: dict[str, Any]) -> Iterator[ShardSpec]:
    """Rounds of one shard per property; `examples` per property (endless when None).

    With a `seed`, each shard has its own example seed (derived from seed, property and
    round) and no example database: the run is reproducible. Without one, shards draw fresh
    examples and share the hypothesis example database under `db`, so a failure found by
    one process is replayed first by every later shard of that property.
    """
    module = importlib.import_module(str(opts.get("module") or "fuzz.properties"))
    names = [p.name for p in module.PROPERTIES]
    wanted = list(opts.get("properties") or names)
    batch = int(opts.get("shard_size") or SHARD_SIZE["signatures"])
    examples = opts.get("examples")
    seed = opts.get("seed")
    index = itertools.count()
    for rnd in itertools.count():
        left_any = False
        for name in wanted:
            n = batch
            if examples is not None:
                n = min(batch, int(examples) - rnd * batch)
                if n <= 0:
                    continue
            left_any = True
            yield {"campaign": "signatures", "index": next(index), "cases": n,
                   "module": opts.get("module") or "fuzz.properties", "property": name,
                   "round": rnd, "db": opts.get("db"),
                   "seed": None if seed is None else _example_seed(int(seed), name, rnd)}  # fmt: skip
        if not left_any:
            return


def run_signatures(spec: ShardSpec) -> ShardResult:
    """`cases` examples of one property under hypothesis; a falsified property is a finding
    whose program is the shrunk (minimal) example."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import seed as fix_seed
    from hypothesis.database import DirectoryBasedExampleDatabase

    out = ShardResult("signatures", int(spec["index"]), worker=_worker())
    module = importlib.import_module(str(spec["module"]))
    prop = next(p for p in module.PROPERTIES if p.name == spec["property"])
    count = [0]
    last: list[Any] = [None]

    def body(arg: Any) -> None:
        count[0] += 1
        last[0] = arg  # hypothesis runs the shrunk example last: this is the minimal one
        prop.check(arg)

    seeded = spec.get("seed") is not None
    database = None
    if not seeded and spec.get("db"):
        database = DirectoryBasedExampleDatabase(os.path.join(str(spec["db"]), "signatures"))
    test: Callable[[], None] = given(prop.strategy)(body)
    test = settings(max_examples=int(spec["cases"]), deadline=None, database=database,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
                    print_blob=False)(test)  # fmt: skip
    if seeded:
        test = fix_seed(int(spec["seed"]))(test)
    try:
        test()
    except Exception as exc:  # a falsified property; the example is the shrunk one
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0][:200]
        bucket = f"{prop.name}: {type(exc).__name__}: {_numbers(first)[:80]}"
        out.findings.append(Finding(f"{prop.name}/r{spec['round']}", prop.name, bucket,
                                    repr(last[0])[:4000], f"{type(exc).__name__}: {first}"))  # fmt: skip
    out.cases = count[0]
    out.families[prop.name] += count[0]
    return out


PLANS: dict[str, Callable[[dict[str, Any]], Iterator[ShardSpec]]] = {
    "clojure": plan_clojure,
    "bad-args": plan_bad_args,
    "host-data": plan_host_data,
    "signatures": plan_signatures,
}
RUNNERS: dict[str, Callable[[ShardSpec], ShardResult]] = {
    "clojure": run_clojure,
    "bad-args": run_bad_args,
    "host-data": run_host_data,
    "signatures": run_signatures,
    "clojure-minimize": run_minimize_clojure,
}


def run_shard(spec: ShardSpec) -> dict[str, Any]:
    """Run one shard (in whatever process this is) and return its result as plain data."""
    t0 = time.perf_counter()
    try:
        result = RUNNERS[str(spec["campaign"])](spec)
    except Exception as exc:  # the shard could not run (a JVM that failed, a bad checkout)
        where = traceback.extract_tb(exc.__traceback__)[-1]
        result = ShardResult(str(spec["campaign"]), int(spec["index"]), worker=_worker(),
                             note=f"shard {spec['index']} failed: {type(exc).__name__}: "
                                  f"{str(exc)[:300]} ({where.filename}:{where.lineno})")  # fmt: skip
    result.seconds = time.perf_counter() - t0
    return result.to_dict()
