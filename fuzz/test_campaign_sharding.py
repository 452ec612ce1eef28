"""Campaigns spread over processes or a dask cluster give the single-process result.

Each campaign runs a small plan three ways: here (one process), on a local pool of 2
processes, and on a dask LocalCluster of 2 worker processes on 127.0.0.1; cases, families
and findings (with their programs) must be equal. The signature run uses the demo
properties (`fuzz/campaign/demo_properties.py`), one of which fails, so equal findings are
not equal emptiness. The CLI tests check the progress line, the closing table, the failure
database and the HTML report.
"""

from __future__ import annotations

import io
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest

from fuzz import cli
from fuzz.campaign import engine, targets
from fuzz.campaign.model import Finding, Outcome

PLANS: dict[str, dict[str, Any]] = {
    "host-data": {"cases": 24, "seed": 100, "shard_size": 6},
    "bad-args": {"calls": 60, "seed": 3, "only": ["nth", "subs"], "shard_size": 12},
    "signatures": {"examples": 40, "seed": 5, "shard_size": 20,
                   "module": "fuzz.campaign.demo_properties"},
}  # fmt: skip
CLOJURE = {"programs": 12, "seeds": [20261130], "shard_size": 6}


def _run(campaign: str, opts: dict[str, Any], **kw: Any) -> Outcome:
    return engine.run_plan(campaign, targets.PLANS[campaign](opts), **kw)


def _clojure_or_skip() -> None:
    from fuzz import clojure_diff

    if clojure_diff.clojure_command() is None:
        if os.environ.get("CI") == "true":
            pytest.fail(clojure_diff.clojure_required(), pytrace=False)
        pytest.skip(clojure_diff.clojure_required())


@pytest.fixture(scope="module")
def serial() -> dict[str, Outcome]:
    return {name: _run(name, opts) for name, opts in PLANS.items()}


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None) as c:  # fmt: skip
        yield str(c.scheduler_address)


def test_plans_do_not_depend_on_jobs() -> None:
    for name, opts in PLANS.items():
        assert list(targets.PLANS[name](opts)) == list(targets.PLANS[name](dict(opts)))
    shards = list(targets.PLANS["host-data"](PLANS["host-data"]))
    assert [(s["start"], s["stop"]) for s in shards] == [(100, 106), (106, 112), (112, 118), (118, 124)]


def test_bad_args_shards_pack_small_builtins_and_keep_case_ids() -> None:
    # `abs` and `inc` have fewer calls than a shard: one shard holds both; the cases and
    # findings do not depend on the shard size.
    opts = {"seed": 0, "only": ["abs", "inc", "nth"], "calls": 400}
    [big] = list(targets.PLANS["bad-args"](opts))
    assert sorted(seg[1] for seg in big["segments"]) == ["abs", "inc", "nth"]
    assert [seg[0] for seg in big["segments"]] == sorted(seg[0] for seg in big["segments"])
    assert big["cases"] == 400 and sum(s[3] - s[2] for s in big["segments"]) == 400
    small = _run("bad-args", {**opts, "shard_size": 70})
    assert len(small.shards) == 6
    assert small.fingerprint() == engine.run_plan("bad-args", [big]).fingerprint()
    assert small.families.keys() == {"abs", "inc", "nth"}


def test_serial_results_are_real(serial: dict[str, Outcome]) -> None:
    assert serial["host-data"].cases == 24
    assert serial["bad-args"].cases == 60
    assert set(serial["bad-args"].families) <= {"nth", "subs"}
    sig = serial["signatures"]
    assert sig.families["holds"] == 40
    # the failing property in each of its 2 shards, shrunk to its minimal example
    assert [(f.case, f.family, f.program) for f in sig.findings] == [
        ("breaks/r0", "breaks", "-1"), ("breaks/r1", "breaks", "-1")]


def test_two_local_jobs_equal_one(serial: dict[str, Outcome]) -> None:
    for name, opts in PLANS.items():
        spread = _run(name, opts, jobs=2)
        assert spread.jobs == 2
        assert spread.fingerprint() == serial[name].fingerprint(), name


def test_dask_cluster_equals_one_process(serial: dict[str, Outcome], cluster: str) -> None:
    assert cluster.startswith("tcp://127.0.0.1:")
    for name, opts in PLANS.items():
        remote = _run(name, opts, scheduler=cluster)
        assert remote.scheduler == cluster and remote.jobs == 2
        assert remote.fingerprint() == serial[name].fingerprint(), name
        workers = {s.worker for s in remote.shards}
        assert all(w.split(":")[-1] != str(os.getpid()) for w in workers), "ran on the workers"


def test_clojure_differential_on_a_cluster(cluster: str) -> None:
    _clojure_or_skip()
    here = _run("clojure", CLOJURE)
    assert here.cases == 12 and not here.notes
    assert _run("clojure", CLOJURE, scheduler=cluster).fingerprint() == here.fingerprint()


def test_a_clojure_disagreement_is_minimized() -> None:
    # float `rem` is a documented difference: (rem 1.0E21 3) is 1.0 here, 0.0 in Clojure
    _clojure_or_skip()
    program = '(let [xs [1 2 3] m {:a (count xs)}]\n  [(:a m) (rem 1.0E21 3) (str "x")])'
    [spec] = targets.plan_minimize_clojure(
        [Finding("s0-00001", "let", "values differ (let)", program, "")])
    [found] = engine.run_plan("clojure-minimize", [spec]).findings
    assert found.program == "(rem 1.0E21 3)"
    assert "clojure: 0.0" in found.detail and "ours:    1.0" in found.detail


def test_a_shard_that_cannot_run_is_a_setup_note() -> None:
    spec = {"campaign": "bad-args", "index": 0, "cases": 1, "seed": 0,
            "segments": [[0, "nope", 0, 1]]}  # fmt: skip
    [shard] = engine.run_plan("bad-args", [spec]).shards
    assert shard.cases == 0 and shard.note == "bad-args: builtin nope is not target 0 here"
    spec = {"campaign": "host-data", "index": 0, "cases": 1, "start": "x", "stop": 1}
    [shard] = engine.run_plan("host-data", [spec]).shards
    assert shard.cases == 0 and shard.note.startswith("shard 0 failed: ValueError")


def test_time_budget_stops_an_endless_plan() -> None:
    opts = {"seed": 0, "shard_size": 2}  # no count: endless
    out = _run("host-data", opts, minutes=0.02)
    assert out.stopped_early and out.cases > 0
    assert [s.index for s in out.shards] == list(range(len(out.shards)))


def test_cli_progress_table_db_and_report(tmp_path: Path) -> None:
    out = io.StringIO()
    rc = cli.main(["signatures", "--properties-module", "fuzz.campaign.demo_properties",
                             "--examples", "30", "--seed", "1", "--jobs", "2",
                             "--db", str(tmp_path)], out)  # fmt: skip
    text = out.getvalue()
    assert rc == 1
    assert "cases/s" in text and "failures 1" in text and "left" in text
    assert "bucket breaks: AssertionError" in text and "    -1" in text
    with sqlite3.connect(tmp_path / "failures.sqlite") as db:
        assert db.execute("SELECT family, program FROM findings").fetchall() == [("breaks", "-1")]
        assert db.execute("SELECT count(*) FROM runs").fetchone() == (1,)
    html = (tmp_path / "report-signatures.html").read_text()
    assert "breaks" in html and "<b>new</b>" in html
    svg = ElementTree.fromstring(html[html.index("<svg") : html.index("</svg>") + 6])
    lines = svg.findall("{http://www.w3.org/2000/svg}polyline")
    assert len(lines) == 2 and all(len(p.get("points", "").split()) >= 2 for p in lines)
    out2 = io.StringIO()
    cli.main(["signatures", "--properties-module", "fuzz.campaign.demo_properties",
                        "--examples", "30", "--seed", "1", "--jobs", "1", "--quiet",
                        "--db", str(tmp_path)], out2)  # fmt: skip
    assert "[new]" not in out2.getvalue(), "a bucket seen before is not new"
    assert "cases/s  failures" not in out2.getvalue().split("family")[0].split("\n", 1)[1]


def test_cli_host_data_and_bad_args_exit_zero_when_clean(tmp_path: Path) -> None:
    for argv in (["host-data", "--cases", "10"], ["bad-args", "--calls", "20", "--only", "inc"]):
        out = io.StringIO()
        assert cli.main([*argv, "--jobs", "1", "--db", str(tmp_path)], out) == 0, out.getvalue()
        assert "total" in out.getvalue()


def test_an_unreachable_scheduler_is_a_setup_error(tmp_path: Path) -> None:
    dask = pytest.importorskip("dask")
    out = io.StringIO()
    with dask.config.set({"distributed.comm.timeouts.connect": "2s"}):
        rc = cli.main(["host-data", "--cases", "4", "--scheduler", "tcp://127.0.0.1:9",
                                 "--db", str(tmp_path)], out)  # fmt: skip
    assert rc == 2 and "cannot use scheduler tcp://127.0.0.1:9" in out.getvalue()
