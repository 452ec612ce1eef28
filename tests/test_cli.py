"""The `ptc` command line, run as a real subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def ptc(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ptc_compiler.cli", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=60,
    )


def test_run_expression_prints_value() -> None:
    out = ptc("run", "-e", '(str "n=" (count [1 2 3]))')
    assert out.returncode == 0 and out.stdout == '"n=3"\n'


def test_run_file_with_data(tmp_path: Path) -> None:
    (tmp_path / "p.clj").write_text("(reduce + (map :v data/items))")
    (tmp_path / "d.json").write_text(json.dumps({"items": [{"v": 1}, {"v": 2}]}))
    out = ptc("run", str(tmp_path / "p.clj"), "--data", str(tmp_path / "d.json"))
    assert out.returncode == 0 and out.stdout.strip() == "3"


def test_run_error_goes_to_stderr_with_position() -> None:
    out = ptc("run", "-e", "(+ 1\n (undefined-thing))")
    assert out.returncode == 1 and out.stdout == ""
    assert out.stderr.startswith("exception: unbound_var: ") and "(2:3)" in out.stderr


def test_compile_emits_python() -> None:
    out = ptc("compile", "-e", "(defn f [x] (* x 2))", "--emit", "python")
    assert out.returncode == 0 and "def program():" in out.stdout and "def f" in out.stdout


def test_check_reports_without_running(tmp_path: Path) -> None:
    out = ptc("check", "-e", '(println "side effect") (let [x] x)')
    assert out.returncode == 1 and "invalid_form" in out.stderr and "side effect" not in out.stdout
    ok = ptc("check", "-e", "(+ 1 2)")
    assert ok.returncode == 0


def test_demo_example_runs() -> None:
    out = ptc(
        "run",
        "examples/orders.clj",
        "--data",
        "examples/orders.json",
        "--tools",
        "examples/tools.py",
    )
    assert out.returncode == 0, out.stderr
    assert "paid orders:" in out.stdout and ":total-revenue" in out.stdout


def test_missing_file_is_a_clean_error() -> None:
    out = ptc("run", "/nonexistent/program.clj")
    assert out.returncode != 0 and "Traceback" not in out.stderr


def test_run_isolated_mode_prints_the_json_projection(tmp_path: Path) -> None:
    (tmp_path / "d.json").write_text(json.dumps({"items": [{"v": 1}, {"v": 2}]}))
    out = ptc(
        "run",
        "--mode",
        "isolated",
        "--data",
        str(tmp_path / "d.json"),
        "-e",
        '(println "hi") {:total (reduce + (map :v data/items)) :tag :done}',
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout == 'hi\n{"total" 3, "tag" "done"}\n'


def test_run_isolated_mode_reports_a_killed_worker_as_timeout() -> None:
    out = ptc("run", "--mode", "isolated", "--timeout-ms", "200", "-e", "(loop [] (recur))")
    assert out.returncode == 1 and out.stdout == ""
    assert out.stderr.startswith("timeout: ")


def test_run_dash_reads_stdin() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "ptc_compiler", "run", "-"],
        input='(str "from " "stdin")', capture_output=True, text=True, cwd=ROOT, timeout=60,
    )
    assert out.returncode == 0 and out.stdout == '"from stdin"\n'


def test_check_with_tools_refuses_a_tool_the_file_does_not_define() -> None:
    bad = ptc("check", "--tools", "examples/tools.py", "-e", "(tool/get-custmer {:id 1})")
    assert bad.returncode == 1
    assert "unknown_tool" in bad.stderr and "get-customer" in bad.stderr and "(1:2)" in bad.stderr
    good = ptc("check", "--tools", "examples/tools.py", "-e", "(tool/get-customer {:id 1})")
    assert good.returncode == 0 and good.stdout == "ok\n"
    # without --tools a tool's name is not checked
    assert ptc("check", "-e", "(tool/get-custmer {:id 1})").returncode == 0


def test_repl_reads_piped_lines_without_prompts() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "ptc_compiler", "repl", "--no-history"],
        input="(def n 4)\n(* n\n n)\n:quit\n(+ 1 1)\n",
        capture_output=True, text=True, cwd=ROOT, timeout=60,
    )
    assert out.returncode == 0 and out.stdout.splitlines() == ["#'n", "16"]
