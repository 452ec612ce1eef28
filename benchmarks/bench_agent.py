"""Agent loop: host overhead per turn, everything except the model call.

    python -m benchmarks.bench_agent [--quick] [--turns N] [--repeat R] [--growth]

A recorded run (replay fixtures, recorded once from a scripted model) of N turns: each
turn the model answers with a different 20-line PTC-Lisp program (a read tool call, two
`defn`s, filter/map/reduce and a summary map), which the loop evaluates in the mission and
observes; the last turn returns. The replay provider answers every request from the
fixtures, so no network is involved.

Measured with the calling thread's CPU time (`time.thread_time`: the whole loop runs on
it), so other load on the machine does not count. Time spent inside the provider's
`request` (hashing the request and finding the recorded answer, i.e. "the model call") is
measured the same way and subtracted. Reported per turn, median of the repeats:

* amortised: (run - provider) / N, run setup (workflow and mission environments) included;
* marginal: the same for N turns minus 2 turns, divided by N - 2: the cost of one more turn.

`--growth` compares the amortised cost per turn of 8- and 128-turn runs: the loop sends
each message to the host once and measures the transcript incrementally, so a long
transcript should not make a turn dearer.

The same run is then replayed with an isolated mission (`HostLimits(mission_mode=
"isolated")`, from the same fixture: the model sees identical requests in both modes, or
the replay would fail). There the program runs in a worker process and the host's tool
calls on pool threads, so the comparison uses the host *process* CPU (`time.process_time`,
all threads) for both modes, minus the provider, and reports the worker's CPU
(`RUSAGE_CHILDREN`, collected when the mission's worker is stopped at the end of the run)
separately. The marginal figures exclude the worker's start-up (once per mission and run).

Target (issue #7): at most 5 ms per turn. Programs are compiled on every turn (each is
new), as they are for a real model; the agent preludes come from the prelude cache.
"""

from __future__ import annotations

import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from ptc_agent import run_outcome
from ptc_agent.host import AgentHost
from ptc_agent.providers import ReplayProvider, Request, Response, ScriptedProvider
from ptc_agent.run_limits import HostLimits
from ptc_compiler.tools import Tool

QUICK = True
TARGET_MS = 5.0

PROGRAM = """(def orders-{i} (tool/list-orders {{:status "any"}}))
(defn paid-total-{i} [xs]
  (->> xs
       (filter #(= (:status %) "paid"))
       (map :amount)
       (reduce + 0.0)))
(defn by-region-{i} [xs]
  (reduce (fn [acc o]
            (assoc acc (:region o) (+ (get acc (:region o) 0) (:amount o))))
          {{}}
          xs))
(let [paid (paid-total-{i} orders-{i})
      regions (by-region-{i} orders-{i})
      top (->> regions
               (sort-by val >)
               (take 3))]
  {{:turn {i}
   :paid paid
   :regions (count regions)
   :top (vec top)}})"""

ORDERS = [
    {"id": n, "status": ("paid", "open", "refunded")[n % 3], "amount": 10.0 + n,
     "region": ("EU", "US", "APAC", "LATAM")[n % 4]}
    for n in range(40)
]


def _list_orders(args):  # type: ignore[no-untyped-def]  # untyped: receives the args map
    return ORDERS


TOOLS = {"list-orders": Tool(_list_orders, effect="read", doc="All orders.")}


def _call(program: str, i: int) -> dict[str, Any]:
    return {"content": "", "tool_calls": [
        {"id": f"call_{i}", "name": "run_ptc_lisp", "args": {"program": program}}]}


def script(turns: int) -> list[dict[str, Any]]:
    items = [_call(PROGRAM.format(i=i), i) for i in range(turns - 1)]
    items.append(_call("(return (:paid *1))", turns))
    return items


class TimedProvider:
    """Wraps a provider; adds the CPU time spent inside `request` to `spent`."""

    def __init__(self, inner: ReplayProvider) -> None:
        self.inner = inner
        self.spent = 0.0

    def request(self, request: Request) -> Response:
        t0 = time.thread_time()
        try:
            return self.inner.request(request)
        finally:
            self.spent += time.thread_time() - t0

    def close(self) -> None:
        self.inner.close()


def record(turns: int, path: Path) -> None:
    """Record the fixture of an N-turn run from the scripted model."""
    recorder = ReplayProvider(path, mode="record", inner=ScriptedProvider(script(turns)))
    out = run_outcome("Report the paid total.", model=recorder, tools=TOOLS,
                      config={"max_turns": turns})
    assert out.ok, out


class _EvalClock:
    """CPU time inside the host's `kernel-eval` (compiling and running the model programs)."""

    spent = 0.0
    original = AgentHost.kernel_eval

    @classmethod
    def install(cls) -> None:
        def timed(host: AgentHost, args: Any) -> dict[str, Any]:
            t0 = time.thread_time()
            try:
                return cls.original(host, args)
            finally:
                cls.spent += time.thread_time() - t0

        AgentHost.kernel_eval = timed  # type: ignore[method-assign,assignment]


def one_run(turns: int, path: Path) -> tuple[float, float]:
    """(host CPU seconds of one replayed run without the provider, of which evaluation)."""
    provider = TimedProvider(ReplayProvider(path))
    evaluation = _EvalClock.spent
    t0 = time.thread_time()
    out = run_outcome("Report the paid total.", model=provider, tools=TOOLS,
                      config={"max_turns": turns})
    total = time.thread_time() - t0
    assert out.ok and out.evaluations == turns, out
    return total - provider.spent, _EvalClock.spent - evaluation


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def mode_run(turns: int, path: Path, mode: str) -> tuple[float, float]:
    """(host process CPU seconds without the provider, worker CPU seconds) of one run."""
    provider = TimedProvider(ReplayProvider(path))
    limits = HostLimits(mission_mode=mode)  # type: ignore[arg-type]
    c0, t0 = _children_cpu(), time.process_time()
    out = run_outcome("Report the paid total.", model=provider, tools=TOOLS,
                      config={"max_turns": turns}, limits=limits)
    host = time.process_time() - t0 - provider.spent
    assert out.ok and out.evaluations == turns, out
    return host, _children_cpu() - c0


def compare_modes(turns: int, repeat: int) -> dict[str, tuple[float, float, float, float]]:
    """Per mode, ms per turn (medians, runs of the two modes alternating): (amortised host,
    marginal host, amortised worker, marginal worker)."""
    with tempfile.TemporaryDirectory() as tmp:
        long_path, short_path = Path(tmp) / "long.jsonl", Path(tmp) / "short.jsonl"
        record(turns, long_path)
        record(2, short_path)
        runs: dict[str, tuple[list[tuple[float, float]], list[tuple[float, float]]]] = {
            m: ([], []) for m in MODES
        }
        for mode in MODES:  # warm
            mode_run(turns, long_path, mode)
        for _ in range(repeat):
            for mode in MODES:
                runs[mode][0].append(mode_run(turns, long_path, mode))
                runs[mode][1].append(mode_run(2, short_path, mode))
    out = {}
    for mode, (longs, shorts) in runs.items():
        lh, lw = (statistics.median(x[i] for x in longs) for i in (0, 1))
        sh, sw = (statistics.median(x[i] for x in shorts) for i in (0, 1))
        out[mode] = (lh * 1000 / turns, (lh - sh) * 1000 / (turns - 2),
                     lw * 1000 / turns, (lw - sw) * 1000 / (turns - 2))
    return out


MODES = ("in-process", "isolated")


def measure(turns: int, repeat: int) -> tuple[float, float, float]:
    """Medians over `repeat` runs, ms per turn: (amortised, marginal, evaluation)."""
    _EvalClock.install()
    with tempfile.TemporaryDirectory() as tmp:
        long_path, short_path = Path(tmp) / "long.jsonl", Path(tmp) / "short.jsonl"
        record(turns, long_path)
        record(2, short_path)
        one_run(turns, long_path)  # warm: prelude cache, imports
        longs = [one_run(turns, long_path) for _ in range(repeat)]
        shorts = [one_run(2, short_path)[0] for _ in range(repeat)]
    long_s = statistics.median(t for t, _ in longs)
    eval_s = statistics.median(e for _, e in longs)
    short_s = statistics.median(shorts)
    return long_s * 1000 / turns, (long_s - short_s) * 1000 / (turns - 2), eval_s * 1000 / turns


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    quick = "--quick" in args
    turns = int(args[args.index("--turns") + 1]) if "--turns" in args else (6 if quick else 20)
    repeat = int(args[args.index("--repeat") + 1]) if "--repeat" in args else (3 if quick else 9)
    if turns < 3:
        raise SystemExit("--turns must be at least 3")
    if "--growth" in args:
        short, long_ = (measure(n, repeat) for n in (8, 128))
        print(f"agent loop, amortised host CPU per turn, median of {repeat}:")
        print(f"    8 turns: {short[0]:7.2f} ms   (evaluation {short[2]:.2f} ms)")
        print(f"  128 turns: {long_[0]:7.2f} ms   (evaluation {long_[2]:.2f} ms)")
        print(f"  ratio 128/8: {long_[0] / short[0]:.2f}")
        return
    amortised, marginal, evaluation = measure(turns, repeat)
    lines = len(PROGRAM.splitlines())
    print(f"agent loop, {turns} turns of a {lines}-line program, median of {repeat} "
          f"(thread CPU, provider excluded)")
    print(f"  amortised per turn: {amortised:7.2f} ms   (setup included)")
    print(f"  of which evaluation:{evaluation:7.2f} ms   (compiling and running the program)")
    print(f"  marginal per turn:  {marginal:7.2f} ms   (target <= {TARGET_MS} ms: "
          f"{'met' if marginal <= TARGET_MS else 'NOT met'})")
    modes = compare_modes(turns, repeat)
    print(f"by mission mode, host process CPU (all threads, provider excluded) and worker "
          f"CPU, ms per turn, median of {repeat}:")
    print(f"  {'mode':<11} {'host amortised':>15} {'host marginal':>14} "
          f"{'worker amortised':>17} {'worker marginal':>16}")
    for mode, (ha, hm, wa, wm) in modes.items():
        print(f"  {mode:<11} {ha:15.2f} {hm:14.2f} {wa:17.2f} {wm:16.2f}")
    iso, inp = modes["isolated"], modes["in-process"]
    print(f"  isolated extra host CPU per turn (marginal): {iso[1] - inp[1]:.2f} ms")


if __name__ == "__main__":
    main()
