"""Turning prelude sources and artifacts into a linked `Bundle`, with an on-disk cache.

`load_bundle(items)` accepts source text, `.clj` files, `.ptcc` artifacts and directories.
Components are handled dependencies first. A source is looked up in the cache (keyed by its
component hash, the Python magic, the compiler version and the runtime ABI) and compiled
only on a miss; an artifact is verified (the HMAC under the host's prelude key, see
`keys.py`, then the version) before its code is unmarshalled, and so is a cache entry, which
must moreover be the compilation of exactly the source asked for. The cache directory must
be the user's own and writable by no one else.
An artifact for another Python or compiler is recompiled from its source when that source is
available and unchanged, and refused otherwise; a tampered artifact, or one compiled against
a different version of a dependency, is refused with an error and never executed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import CodeType

from ptc_compiler.analyzer.env import ExportInfo
from ptc_compiler.prelude import artifact as art
from ptc_compiler.prelude import keys
from ptc_compiler.prelude.bundle import Bundle, link, topo_order
from ptc_compiler.prelude.component import ComponentMeta, compile_component
from ptc_compiler.prelude.header import PreludeError, read_header, source_hash

PreludeItem = str | Path
#: Where compiled artifacts are cached: a directory, `None`/`True` for the default
#: (`PTC_CACHE_DIR` or the user cache), `False` for no cache.
CacheDir = str | Path | bool | None
Progress = Callable[[int, int, str, str], None]  # (done, total, namespace, what)


class _KeyRing:
    """The host key, resolved on first need (a bundle of sources only, without a cache,
    never reads or creates a key file)."""

    def __init__(self, key: keys.Key | None) -> None:
        self._given = key
        self._key: bytes | None = None

    def get(self) -> bytes:
        if self._key is None:
            self._key = keys.host_key(self._given)
        return self._key


@dataclass
class _Unit:
    """One component on its way to linking."""

    ns: str
    deps: tuple[str, ...]
    source: str | None = None  # source text, when we have it
    origin: str = ""
    artifact: art.Artifact | None = None
    meta: ComponentMeta | None = None
    code: CodeType | None = None
    chash: str = ""


def _looks_like_source(item: str) -> bool:
    return item.lstrip().startswith(("(", ";")) or "\n" in item


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise PreludeError("prelude_unreadable", f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise PreludeError("prelude_unreadable", f"{path} is not UTF-8 text") from None


def expand(items: Iterable[PreludeItem]) -> list[tuple[str, str | Path]]:
    """("source", text-or-path) / ("artifact", path) entries; directories are walked."""
    out: list[tuple[str, str | Path]] = []
    for item in items:
        if isinstance(item, str) and _looks_like_source(item):
            out.append(("source", item))
            continue
        p = Path(item)
        if p.is_dir():
            artifacts = sorted(p.rglob("*" + art.SUFFIX))
            sources = sorted(p.rglob("*.clj"))
            if not artifacts and not sources:
                raise PreludeError("prelude_not_found", f"no .clj or {art.SUFFIX} files in {p}")
            out.extend(("artifact", a) for a in artifacts)
            out.extend(("source", s) for s in sources)
        elif p.suffix == art.SUFFIX:
            out.append(("artifact", p))
        elif p.exists():
            out.append(("source", p))
        else:
            raise PreludeError("prelude_not_found", f"prelude not found: {item}")
    return out


def _units(items: Iterable[PreludeItem], ring: _KeyRing) -> list[_Unit]:
    units: dict[str, _Unit] = {}
    for kind, item in expand(items):
        if kind == "artifact":
            a = art.read(item, ring.get())
            meta = a.meta()
            unit = _Unit(a.ns, meta.deps, artifact=a, meta=meta, origin=str(item))
            src = _artifact_source(a, meta, Path(item))
            if src is not None:
                unit.source = src
        else:
            text = _read_text(item) if isinstance(item, Path) else item
            origin = str(item) if isinstance(item, Path) else ""
            header = read_header(text, origin)
            unit = _Unit(header.ns, header.deps, source=text, origin=origin)
        prev = units.get(unit.ns)
        if prev is not None:
            # A directory holding both a source and its artifact: keep the artifact, with
            # the source as the fallback for recompilation.
            if prev.artifact is not None and unit.artifact is None:
                if unit.source is not None and prev.source is None:
                    prev.source = unit.source
                continue
            if unit.artifact is not None and prev.artifact is None:
                unit.source = unit.source or prev.source
                units[unit.ns] = unit
                continue
            raise PreludeError(
                "duplicate_namespace", f"namespace {unit.ns} is provided twice", component=unit.ns
            )
        units[unit.ns] = unit
    return list(units.values())


def _artifact_source(a: art.Artifact, meta: ComponentMeta, path: Path) -> str | None:
    """The artifact's source file, when it is next to it (by origin) and unchanged."""
    if not meta.origin:
        return None
    candidate = Path(meta.origin)
    if not candidate.is_absolute():
        candidate = path.parent / candidate
    try:
        text = candidate.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    if source_hash(text) != a.header.get("source_sha256"):
        raise PreludeError(
            "artifact_stale",
            f"artifact {path} is stale: its source {candidate} changed after compilation",
            component=a.ns,
            hint="recompile it (ptc compile) or load the source instead",
        )
    return text


def _order(units: list[_Unit]) -> list[_Unit]:
    stubs = [ComponentMeta(u.ns, None, "prompt", u.deps, "", ()) for u in units]
    by_ns = {u.ns: u for u in units}
    return [by_ns[m.ns] for m in topo_order(stubs)]


def _dep_exports(unit: _Unit, done: dict[str, _Unit]) -> dict[str, ExportInfo]:
    out: dict[str, ExportInfo] = {}
    for dep in unit.deps:
        meta = done[dep].meta
        assert meta is not None
        out.update(meta.export_infos())
    return out


def resolve_cache_dir(cache_dir: CacheDir) -> Path | None:
    """The directory a `cache_dir=` choice names (`None` when caching is off)."""
    if cache_dir is False:
        return None
    if cache_dir is None or cache_dir is True:
        return art.default_cache_dir()
    return Path(cache_dir)


def prepare(
    items: Sequence[PreludeItem],
    *,
    cache_dir: CacheDir = None,
    progress: Progress | None = None,
    recompile: bool = False,
    key: keys.Key | None = None,
) -> list[_Unit]:
    """Every component compiled or loaded (metadata + code), dependencies first."""
    ring = _KeyRing(key)
    cache = resolve_cache_dir(cache_dir)
    if cache is not None:
        keys.secure_cache_dir(cache)
    ordered = _order(_units(items, ring))
    done: dict[str, _Unit] = {}
    total = len(ordered)
    for i, unit in enumerate(ordered):
        dep_hashes = {d: done[d].chash for d in unit.deps}
        what = _prepare_one(unit, dep_hashes, done, cache, recompile, ring)
        done[unit.ns] = unit
        if progress is not None:
            progress(i + 1, total, unit.ns, what)
    return ordered


def _prepare_one(
    unit: _Unit,
    dep_hashes: dict[str, str],
    done: dict[str, _Unit],
    cache: Path | None,
    recompile: bool,
    ring: _KeyRing,
) -> str:
    a = unit.artifact
    if a is not None:
        if a.deps != dep_hashes:
            changed = sorted(d for d in set(a.deps) | set(dep_hashes)
                             if a.deps.get(d) != dep_hashes.get(d))
            raise PreludeError(
                "artifact_stale",
                f"artifact {a.path} was compiled against a different version of "
                f"{', '.join(changed)}; recompile it together with its dependencies",
                component=unit.ns,
            )
        problem = a.version_problem()
        if problem is None and not recompile:
            unit.meta, unit.code, unit.chash = a.meta(), a.code(), a.component_hash
            return "loaded"
        if unit.source is None:
            raise PreludeError(
                "artifact_version",
                f"cannot load {a.path}: {problem or 'recompilation requested'}, and its "
                "source is not available to recompile",
                component=unit.ns,
                hint="recompile it with this Python and ptc-compiler: ptc compile SOURCES -o DIR",
            )
    assert unit.source is not None
    shash = source_hash(unit.source)
    unit.chash = art.component_hash(shash, dep_hashes)
    cached_path = None
    if cache is not None:
        cached_path = cache / f"{unit.ns}-{art.cache_key(unit.chash)[:32]}{art.SUFFIX}"
        if not recompile and cached_path.exists():
            try:
                cached = art.read(cached_path, ring.get())
                if (
                    cached.component_hash == unit.chash
                    and cached.header.get("source_sha256") == shash
                    and cached.ns == unit.ns
                    and cached.version_problem() is None
                ):
                    unit.meta, unit.code = cached.meta(), cached.code()
                    return "cached"
            except PreludeError:
                pass  # a damaged, foreign or old cache entry is ignored and rebuilt
    compiled = compile_component(unit.source, _dep_exports(unit, done), origin=unit.origin)
    unit.meta, unit.code = compiled.meta, compiled.code
    if cached_path is not None:
        try:
            data = art.build(compiled.meta, compiled.code, dep_hashes, ring.get())
            art.write_atomic(cached_path, data)
        except OSError:
            pass  # the cache is an optimisation
    return "compiled"


def load_bundle(
    items: Sequence[PreludeItem],
    *,
    cache_dir: CacheDir = None,
    progress: Progress | None = None,
    register: bool = True,
    key: keys.Key | None = None,
) -> Bundle:
    """Compile or load `items` and link them into a `Bundle`. `key`: the prelude key that
    authenticates artifacts and cache entries (default: `keys.host_key`)."""
    units = prepare(items, cache_dir=cache_dir, progress=progress, key=key)
    pairs: list[tuple[ComponentMeta, CodeType]] = []
    for u in units:
        assert u.meta is not None and u.code is not None
        pairs.append((u.meta, u.code))
    return link(pairs, register=register)


def compile_to_dir(
    items: Sequence[PreludeItem],
    out_dir: str | Path,
    *,
    progress: Progress | None = None,
    key: keys.Key | None = None,
) -> list[Path]:
    """`ptc compile FILES_OR_DIR -o OUT`: one artifact per component, `<ns>.ptcc`,
    authenticated under `key` (default: `keys.host_key`)."""
    out = Path(out_dir)
    ring = _KeyRing(key)
    units = prepare(items, cache_dir=False, progress=progress, recompile=True, key=key)
    written = []
    hashes: dict[str, str] = {}
    for u in units:
        assert u.meta is not None and u.code is not None
        dep_hashes = {d: hashes[d] for d in u.deps}
        hashes[u.ns] = u.chash
        meta = u.meta
        if u.origin:
            meta = _relative_origin(meta, Path(u.origin), out)
        path = out / f"{u.ns}{art.SUFFIX}"
        art.write_atomic(path, art.build(meta, u.code, dep_hashes, ring.get()))
        written.append(path)
    return written


def _relative_origin(meta: ComponentMeta, origin: Path, out: Path) -> ComponentMeta:
    import os
    from dataclasses import replace

    try:
        rel = os.path.relpath(origin.resolve(), out.resolve())
    except ValueError:
        rel = str(origin.resolve())
    return replace(meta, origin=rel)


def bundle_fingerprint(items: Sequence[PreludeItem]) -> str:
    """A cheap identity of `items` (texts and paths with their mtimes) for in-process caches."""
    h = hashlib.sha256()
    for kind, item in expand(items):
        h.update(kind.encode() + b"\0")
        if isinstance(item, Path):
            st = item.stat()
            h.update(f"{item.resolve()}|{st.st_mtime_ns}|{st.st_size}".encode())
        else:
            h.update(item.encode("utf-8", "surrogatepass"))
        h.update(b"\0")
    return h.hexdigest()
