"""`RunRequest.cwd`: resolved by `Runtime.resolve` to an absolute existing directory,
reported as `RunSpec.cwd`, refused when it is not one (both modes)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from ptc_compiler import api
from ptc_runtime.seam import RunRequest, Runtime
from ptc_runtime.workdir import DEFAULT_CWD


@pytest.fixture(scope="module", params=["in-process", "isolated"])
def runtime(request: pytest.FixtureRequest) -> Iterator[Runtime]:
    rt = api.runtime(request.param, pool_size=1)
    yield rt
    rt.close()


def test_an_omitted_cwd_is_the_default(runtime: Runtime) -> None:
    assert runtime.resolve(RunRequest("1")).cwd == DEFAULT_CWD == "/"


def test_a_directory_is_resolved_and_reported(runtime: Runtime, tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    spec = runtime.resolve(RunRequest("(+ 1 2)", cwd=str(tmp_path / "sub" / ".." / "sub")))
    assert spec.cwd == os.path.realpath(tmp_path / "sub")
    assert os.path.isabs(spec.cwd)
    assert runtime.resolve(RunRequest("1", cwd=tmp_path)).cwd == os.path.realpath(tmp_path)
    r = runtime.run(spec)
    assert r.error is None and r.value == 3


def test_a_relative_directory_is_made_absolute(
    runtime: Runtime, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "rel").mkdir()
    monkeypatch.chdir(tmp_path)
    assert runtime.resolve(RunRequest("1", cwd="rel")).cwd == os.path.realpath(tmp_path / "rel")


@pytest.mark.parametrize("bad", ["", "a\x00b", "/no/such/dir/ptc-7f3a"])
def test_a_bad_directory_is_refused(runtime: Runtime, bad: str) -> None:
    with pytest.raises(ValueError):
        runtime.resolve(RunRequest("1", cwd=bad))


def test_a_file_is_not_a_directory(runtime: Runtime, tmp_path: Path) -> None:
    f = tmp_path / "f.txt"
    f.write_text("x")
    with pytest.raises(ValueError, match="not an existing directory"):
        runtime.resolve(RunRequest("1", cwd=str(f)))


def test_a_non_string_is_refused(runtime: Runtime) -> None:
    with pytest.raises(TypeError):
        runtime.resolve(RunRequest("1", cwd=42))  # type: ignore[arg-type]
