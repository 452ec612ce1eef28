"""Ahead-of-time artifacts: compile, load, refuse tampered or stale ones, recompile on a
version change when the source is there, CLI and api entry points."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import ptc_compiler
from ptc_compiler import cli
from ptc_compiler.prelude import PreludeError, compile_to_dir, load_bundle
from ptc_compiler.prelude import artifact as art
from ptc_compiler.prelude.keys import host_key

CORE = '(ns lib.core "Core.")\n(defn double {:signature "(x :int) -> :int"} [x] (* 2 x))\n'
APP = "(ns lib.app {:deps [lib.core]})\n(defn quad [x] (lib.core/double (lib.core/double x)))\n"


@pytest.fixture
def sources(tmp_path: Path) -> Path:
    d = tmp_path / "src"
    d.mkdir()
    (d / "core.clj").write_text(CORE)
    (d / "app.clj").write_text(APP)
    return d


def _progress(log: list[tuple[str, str]]):  # type: ignore[no-untyped-def]
    return lambda done, total, ns, what: log.append((ns, what))


def test_compile_dir_writes_one_artifact_per_component_with_metadata(
    sources: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    log: list[tuple[str, str]] = []
    written = compile_to_dir([sources], out, progress=_progress(log))
    assert sorted(p.name for p in written) == ["lib.app.ptcc", "lib.core.ptcc"]
    assert log == [("lib.core", "compiled"), ("lib.app", "compiled")]  # dependencies first
    a = art.read(out / "lib.app.ptcc", host_key())
    h = a.header
    assert h["format"] == art.FORMAT and h["python_magic"] == art.python_magic()
    assert h["compiler"] == ptc_compiler.__version__
    assert set(h["deps"]) == {"lib.core"}
    meta = a.meta()
    assert [d.name for d in meta.definitions] == ["quad"]
    core_meta = art.read(out / "lib.core.ptcc", host_key()).meta()
    assert core_meta.definitions[0].signature == "(x :int) -> :int"
    assert core_meta.doc == "Core."


def test_artifacts_load_and_run_without_compiling(sources: Path, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out"
    compile_to_dir([sources], out)
    from ptc_compiler.prelude import load as load_mod

    def no_compile(*a: object, **k: object) -> None:
        raise AssertionError("artifacts must not be recompiled")

    monkeypatch.setattr(load_mod, "compile_component", no_compile)
    log: list[tuple[str, str]] = []
    b = load_bundle([out], cache_dir=False, progress=_progress(log), register=False)
    assert log == [("lib.core", "loaded"), ("lib.app", "loaded")]
    r = ptc_compiler.run("(lib.app/quad 5)", preludes=[out])
    assert r.ok and r.value == 20
    assert b.records["lib.app/quad"].ref == "lib.app/quad"


def test_tampered_artifact_is_refused_and_never_unmarshalled(
    sources: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "out"
    compile_to_dir([sources], out)
    path = out / "lib.core.ptcc"
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))

    def boom(*a: object) -> None:
        raise AssertionError("unmarshalled a tampered artifact")

    monkeypatch.setattr(art.marshal, "loads", boom)
    with pytest.raises(PreludeError) as info:
        load_bundle([out], cache_dir=False, register=False)
    assert info.value.code == "artifact_unauthenticated"  # its HMAC no longer matches
    assert "will not be executed" in info.value.message


def test_rehashed_artifact_with_swapped_payload_is_refused(sources: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    compile_to_dir([sources], out)
    raw = (out / "lib.core.ptcc").read_bytes()
    body = raw[:-32].replace(b"Core.", b"Evil.")  # the sidecar changes, its hash does not
    import hashlib

    (out / "lib.core.ptcc").write_bytes(body + hashlib.sha256(body).digest())
    with pytest.raises(PreludeError) as info:
        load_bundle([out], cache_dir=False, register=False)
    assert info.value.code == "artifact_unauthenticated"
    # the trailer is a keyed MAC: recomputing it needs the key, and the inner hashes are
    # still checked under it (a body edited and re-MACed without fixing them is corrupt)
    key = host_key()
    (out / "lib.core.ptcc").write_bytes(body + art._mac(key, body))
    with pytest.raises(PreludeError) as info:
        load_bundle([out], cache_dir=False, register=False)
    assert info.value.code == "artifact_corrupt"


def test_dependant_compiled_against_another_dependency_version_is_stale(
    sources: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    compile_to_dir([sources], out)
    (sources / "core.clj").write_text(CORE + "(defn extra [] 1)\n")
    out2 = tmp_path / "out2"
    compile_to_dir([sources / "core.clj"], out2)
    mixed = tmp_path / "mixed"
    mixed.mkdir()
    shutil.copy(out / "lib.app.ptcc", mixed)
    shutil.copy(out2 / "lib.core.ptcc", mixed)
    with pytest.raises(PreludeError) as info:
        load_bundle([mixed], cache_dir=False, register=False)
    assert info.value.code == "artifact_stale"
    assert "lib.core" in info.value.message


def test_changed_source_next_to_artifact_is_stale(sources: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    compile_to_dir([sources], out)
    (sources / "app.clj").write_text(APP + "(defn more [] 2)\n")
    with pytest.raises(PreludeError) as info:
        load_bundle([out / "lib.core.ptcc", out / "lib.app.ptcc"], cache_dir=False,
                    register=False)
    assert info.value.code == "artifact_stale"


def test_other_compiler_version_recompiles_from_source_or_fails_clearly(
    sources: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "out"
    compile_to_dir([sources], out)
    monkeypatch.setattr(art, "compiler_version", lambda: "999.0")
    log: list[tuple[str, str]] = []
    b = load_bundle([out], cache_dir=False, progress=_progress(log), register=False)
    assert log == [("lib.core", "compiled"), ("lib.app", "compiled")]
    assert "lib.app/quad" in b.exports
    shutil.rmtree(sources)  # no source any more
    with pytest.raises(PreludeError) as info:
        load_bundle([out], cache_dir=False, register=False)
    assert info.value.code == "artifact_version"
    assert "999.0" in info.value.message and "source is not available" in info.value.message


def test_not_an_artifact(tmp_path: Path) -> None:
    p = tmp_path / "x.ptcc"
    p.write_bytes(b"hello")
    with pytest.raises(PreludeError) as info:
        load_bundle([p], cache_dir=False)
    assert info.value.code == "artifact_format"


def test_cache_writes_atomically_and_ignores_damaged_entries(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    log: list[tuple[str, str]] = []
    load_bundle([CORE], cache_dir=cache, progress=_progress(log), register=False)
    [entry] = list(cache.glob("*.ptcc"))
    assert not list(cache.glob(".tmp-*"))
    entry.write_bytes(entry.read_bytes()[:-1] + b"\0")
    load_bundle([CORE], cache_dir=cache, progress=_progress(log), register=False)
    load_bundle([CORE], cache_dir=cache, progress=_progress(log), register=False)
    assert [w for _, w in log] == ["compiled", "compiled", "cached"]


def test_default_cache_dir_follows_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("PTC_PRELUDE_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert art.default_cache_dir() == tmp_path / "ptc" / "preludes"


def test_cli_compile_and_run_with_prelude(
    sources: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    assert cli.main(["compile", str(sources), "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert "[1/2] compiled lib.core" in err and "[2/2] compiled lib.app" in err
    prog = tmp_path / "p.clj"
    prog.write_text("(lib.app/quad 3)")
    assert cli.main(["run", str(prog), "--prelude", str(out)]) == 0
    assert capsys.readouterr().out.strip() == "12"
    assert cli.main(["run", "-e", "(lib.core/double 4)", "--prelude", str(sources / "core.clj")]) == 0
    assert capsys.readouterr().out.strip() == "8"
    assert cli.main(["run", "-e", "(lib.app/nope)", "--prelude", str(out)]) == 1
    assert "not a public export" in capsys.readouterr().err
    (out / "lib.core.ptcc").write_bytes(art.TAG + b"garbage")
    assert cli.main(["run", "-e", "1", "--prelude", str(out)]) == 1
    assert "artifact_corrupt" in capsys.readouterr().err
    # the program form of compile still works
    assert cli.main(["compile", "-e", "(+ 1 2)"]) == 0
    assert "def program" in capsys.readouterr().out


def test_example_library_compiles_and_runs(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[2]
    out = tmp_path / "out"
    compile_to_dir([root / "examples" / "preludes"], out)
    import json

    data = json.loads((root / "examples" / "orders.json").read_text())
    names = {1: "Ada", 2: "Grace", 3: "Alan", 4: "Edsger"}
    tools = {"get-customer": lambda a: {"name": names.get(a["id"])}}
    r = ptc_compiler.run(
        "[(orders.analytics/revenue data/orders) (count (orders.analytics/top-customers "
        "data/orders 2))]",
        preludes=[out], data=data, tools=tools,
    )
    assert r.ok, r.error
    assert r.value[1] == 2 and r.value[0] > 0
