"""Prelude artifacts are authenticated code: nothing on disk runs unless this host made it.

An artifact holds marshalled code, so loading one executes it. The attacks: a crafted
artifact with every hash recomputed (format 1 had only SHA-256s), an entry planted at the
predictable cache name of a source the host passes, a cache directory others can write,
and a key file others can read. Each must end as a typed `PreludeError` with the canary
untouched, or (for a planted cache entry) be ignored so that the host's own source runs.
Loading happens on the host in both modes, so the Environment cases run in both.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from ptc_compiler.prelude import Environment, PreludeError, compile_to_dir, keys, load_bundle
from ptc_compiler.prelude import artifact as art

CORE = '(ns lib.core "Core.")\n(defn double [x] (* 2 x))\n'
OTHER = '(ns lib.core "Core.")\n(defn double [x] (* 3 x))\n'
ATTACKER_KEY = b"an attacker's own key, 32 bytes!"


@pytest.fixture(autouse=True)
def _private(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("PTC_PRELUDE_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv(keys.KEY_FILE_ENV, raising=False)
    yield


@pytest.fixture
def canary(tmp_path: Path) -> Path:
    path = tmp_path / "canary.txt"
    path.write_text("canary-intact")
    return path


def _evil_code(canary: Path) -> object:
    """A component module that, when executed, overwrites the canary."""
    src = f"open({str(canary)!r}, 'w').write('owned')\ndef program():\n    pass\n"
    return compile(src, "<evil>", "exec")


def _legit(tmp_path: Path) -> art.Artifact:
    out = tmp_path / "legit"
    src = tmp_path / "src"
    src.mkdir(exist_ok=True)
    (src / "core.clj").write_text(CORE)
    compile_to_dir([src / "core.clj"], out)
    return art.read(out / "lib.core.ptcc", keys.host_key())


def _crafted(tmp_path: Path, canary: Path, trailer: str) -> Path:
    """An artifact with the legit header and metadata but evil code, every inner hash
    recomputed, and a trailer: 'sha256' (format 1's check) or 'attacker' (an HMAC under
    the attacker's key)."""
    legit = _legit(tmp_path)
    data = art.build(legit.meta(), _evil_code(canary), legit.deps, ATTACKER_KEY)  # type: ignore[arg-type]
    body = data[:-32]
    if trailer == "sha256":
        data = body + hashlib.sha256(body).digest()
    d = tmp_path / f"crafted-{trailer}"
    d.mkdir()
    path = d / "lib.core.ptcc"
    path.write_bytes(data)
    return path


@pytest.mark.parametrize("trailer", ["sha256", "attacker"])
@pytest.mark.parametrize("mode", ["in-process", "isolated"])
def test_a_crafted_artifact_with_recomputed_hashes_never_runs(
    tmp_path: Path, canary: Path, trailer: str, mode: str
) -> None:
    path = _crafted(tmp_path, canary, trailer)
    with pytest.raises(PreludeError) as info:
        Environment([path], cache_dir=False, mode=mode)  # type: ignore[arg-type]
    assert info.value.code == "artifact_unauthenticated"
    assert "will not be executed" in info.value.message
    assert canary.read_text() == "canary-intact"


def test_the_artifact_check_comes_before_any_unmarshalling(
    tmp_path: Path, canary: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _crafted(tmp_path, canary, "sha256")

    def boom(*a: object) -> None:
        raise AssertionError("unmarshalled an unauthenticated artifact")

    monkeypatch.setattr(art.marshal, "loads", boom)
    with pytest.raises(PreludeError):
        load_bundle([path], cache_dir=False, register=False)


@pytest.mark.parametrize("mode", ["in-process", "isolated"])
def test_an_entry_planted_at_the_cache_name_is_ignored(
    tmp_path: Path, canary: Path, mode: str
) -> None:
    """The host passes source; whatever sits at its predictable cache name is not run:
    forged entries fail the HMAC, and a genuine entry of *another* source (this host's
    own, copied there) fails the source check. The source is compiled and runs."""
    cache = tmp_path / "cache"
    load_bundle([OTHER], cache_dir=cache, register=False)  # a genuine entry of OTHER
    [other_entry] = list(cache.glob("*.ptcc"))
    chash = art.component_hash(hashlib.sha256(CORE.encode()).hexdigest(), {})
    legit = _legit(tmp_path)
    name = cache / f"lib.core-{art.cache_key(legit.component_hash)[:32]}{art.SUFFIX}"
    forged = art.build(legit.meta(), _evil_code(canary), {}, ATTACKER_KEY)  # type: ignore[arg-type]
    for planted in (forged, forged[:-32] + hashlib.sha256(forged[:-32]).digest()):
        name.write_bytes(planted)
        with Environment([CORE], cache_dir=cache, mode=mode) as env:  # type: ignore[arg-type]
            r = env.run("(lib.core/double 21)")
        assert r.error is None and r.value == 42, r.error
        assert canary.read_text() == "canary-intact"
        rebuilt = art.read(name, keys.host_key())  # the planted file was replaced
        assert rebuilt.header["source_sha256"] == hashlib.sha256(CORE.encode()).hexdigest()
    shutil.copy(other_entry, name)
    with Environment([CORE], cache_dir=cache, mode=mode) as env:  # type: ignore[arg-type]
        r = env.run("(lib.core/double 21)")
    assert r.error is None and r.value == 42, r.error  # OTHER would give 63
    assert chash == legit.component_hash


def test_a_cache_directory_others_can_write_is_fixed_or_refused(tmp_path: Path) -> None:
    cache = tmp_path / "shared-cache"
    cache.mkdir()
    os.chmod(cache, 0o777)
    load_bundle([CORE], cache_dir=cache, register=False)  # ours: the write bits go
    assert (cache.stat().st_mode & 0o777) == 0o755
    if hasattr(os, "geteuid") and os.geteuid() == 0:  # someone else's: refused
        theirs = tmp_path / "their-cache"
        theirs.mkdir()
        os.chmod(theirs, 0o777)
        os.chown(theirs, 65534, 65534)
        with pytest.raises(PreludeError) as info:
            load_bundle([CORE], cache_dir=theirs, register=False)
        assert info.value.code == "prelude_cache_insecure"
        assert "owned by uid 65534" in info.value.message


def test_a_cache_inside_a_directory_anyone_can_write_is_refused(tmp_path: Path) -> None:
    open_dir = tmp_path / "open"
    open_dir.mkdir()
    os.chmod(open_dir, 0o777)  # no sticky bit: anyone could swap the cache directory
    with pytest.raises(PreludeError) as info:
        load_bundle([CORE], cache_dir=open_dir / "cache", register=False)
    assert info.value.code == "prelude_cache_insecure"
    assert "writable by anyone" in info.value.message
    os.chmod(open_dir, 0o1777)  # sticky, as /tmp: others cannot rename what is ours
    load_bundle([CORE], cache_dir=open_dir / "cache2", register=False)


def test_a_new_cache_and_key_are_private(tmp_path: Path) -> None:
    cache = tmp_path / "new" / "cache"
    load_bundle([CORE], cache_dir=cache, register=False)
    assert (cache.stat().st_mode & 0o777) == 0o700
    key_file = keys.default_key_file()
    assert key_file == tmp_path / "config" / "ptc" / "prelude.key"
    assert (key_file.stat().st_mode & 0o777) == 0o600
    assert (key_file.parent.stat().st_mode & 0o777) == 0o700
    assert len(keys.host_key()) == keys.KEY_BYTES


def test_a_key_file_others_can_read_is_refused() -> None:
    keys.host_key()  # creates it
    key_file = keys.default_key_file()
    os.chmod(key_file, 0o644)
    with pytest.raises(PreludeError) as info:
        load_bundle([CORE], register=False)  # the cache needs the key
    assert info.value.code == "prelude_key_insecure"
    os.chmod(key_file, 0o600)
    load_bundle([CORE], register=False)


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs chown")
def test_a_key_file_of_another_user_is_refused(tmp_path: Path) -> None:
    key_file = tmp_path / "their.key"
    key_file.write_text(os.urandom(32).hex())
    os.chmod(key_file, 0o600)
    os.chown(key_file, 65534, 65534)
    with pytest.raises(PreludeError) as info:
        keys.read_key_file(key_file)
    assert info.value.code == "prelude_key_insecure"


def test_a_symlinked_key_file_is_refused(tmp_path: Path) -> None:
    real = tmp_path / "real.key"
    real.write_text(os.urandom(32).hex())
    os.chmod(real, 0o600)
    link = tmp_path / "link.key"
    link.symlink_to(real)
    with pytest.raises(PreludeError) as info:
        keys.read_key_file(link)
    assert info.value.code == "prelude_key_unreadable"


def test_artifacts_of_another_key_need_that_key(tmp_path: Path) -> None:
    src = tmp_path / "core.clj"
    src.write_text(CORE)
    out = tmp_path / "out"
    build_key = os.urandom(32)
    compile_to_dir([src], out, key=build_key)
    with pytest.raises(PreludeError) as info:
        load_bundle([out / "lib.core.ptcc"], cache_dir=False, register=False)
    assert info.value.code == "artifact_unauthenticated"
    bundle = load_bundle([out / "lib.core.ptcc"], cache_dir=False, register=False, key=build_key)
    assert "lib.core/double" in bundle.exports
    key_file = tmp_path / "build.key"
    key_file.write_text(build_key.hex())
    os.chmod(key_file, 0o600)
    os.environ[keys.KEY_FILE_ENV] = str(key_file)
    try:
        with Environment([out / "lib.core.ptcc"], cache_dir=False) as env:
            assert env.run("(lib.core/double 4)").value == 8
    finally:
        del os.environ[keys.KEY_FILE_ENV]


def test_a_format_1_artifact_gets_a_clear_error(tmp_path: Path) -> None:
    legit = _legit(tmp_path)
    old = (tmp_path / "legit" / "lib.core.ptcc").read_bytes()
    body = b"PTCPRELUDE\x00\x01" + old[len(art.TAG) : -32]
    path = tmp_path / "old.ptcc"
    path.write_bytes(body + hashlib.sha256(body).digest())
    with pytest.raises(PreludeError) as info:
        load_bundle([path], cache_dir=False, register=False)
    assert info.value.code == "artifact_version"
    assert "older artifact format" in info.value.message and info.value.hint
    assert legit.header["format"] == art.FORMAT == "ptc-prelude-artifact/2"


def test_a_short_explicit_key_is_refused() -> None:
    with pytest.raises(PreludeError) as info:
        load_bundle([CORE], register=False, key=b"short")
    assert info.value.code == "prelude_key_invalid"
