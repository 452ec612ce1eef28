"""The public `ptc_compiler.run` carries the run contract's `cwd` and image output entries,
in both modes (the same as `Runtime.run` with a `RunRequest`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import ptc_compiler
from ptc_runtime.images import ImageAttachment, OutputImage, PtcImage
from ptc_runtime.seam import OutputText

SHOT = PtcImage("/srv/shots/a.png", ImageAttachment("att-1", 640, 480))
MODES = ["in-process", "isolated"]


@pytest.mark.parametrize("mode", MODES)
def test_image_entries_reach_the_public_result(mode: str) -> None:
    r = ptc_compiler.run(
        '(let [i (tool/shot {})] (println "before") (inspect i) (println "after") 1)',
        tools={"shot": lambda _args: SHOT},
        mode=mode,
        timeout_ms=10_000,
    )
    assert r.ok, r.error
    assert r.output == "before\nafter\n"
    assert r.entries == (
        OutputText("before\n"),
        OutputImage(SHOT.attachment),
        OutputText("after\n"),
    )


@pytest.mark.parametrize("mode", MODES)
def test_a_failed_run_keeps_its_entries(mode: str) -> None:
    r = ptc_compiler.run('(println "x") (fail "no")', mode=mode, timeout_ms=10_000)
    assert not r.ok and r.entries == (OutputText("x\n"),)


def test_cwd_is_validated(tmp_path: Path) -> None:
    assert ptc_compiler.run("1", cwd=str(tmp_path)).ok
    with pytest.raises((ValueError, TypeError)):
        ptc_compiler.run("1", cwd=str(tmp_path / "missing"))


def test_cwd_reaches_the_spec(tmp_path: Path) -> None:
    from ptc_compiler import api

    seen: list[Any] = []
    rt = api.runtime("in-process")
    real = rt.run

    def spy(spec: Any) -> Any:
        seen.append(spec.cwd)
        return real(spec)

    rt.run = spy  # type: ignore[method-assign]
    assert ptc_compiler.run("1", runtime=rt, cwd=str(tmp_path)).ok
    assert seen == [str(tmp_path.resolve())]
