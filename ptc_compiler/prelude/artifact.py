"""Compiled prelude artifacts: header + canonical-JSON sidecar + marshalled code, authenticated.

Layout (all integers big-endian):

    b"PTCPRELUDE\\x00\\x02"            format tag ptc-prelude-artifact/2
    u32 len, header JSON           format, python magic, compiler version, runtime ABI,
                                   namespace, deps with their component hashes, source
                                   SHA-256, component hash, sidecar and payload SHA-256
    u32 len, sidecar JSON          `ComponentMeta` (exports, signatures, docs, facts, sources)
    u64 len, payload               marshal.dumps(code)
    32 bytes                       HMAC-SHA256 under the host's prelude key over everything above

`parse` checks the tag, then the HMAC (`keys.host_key`: an artifact someone without the key
wrote or edited, even with every hash recomputed, is refused), then the framing and the
header's own sidecar/payload hashes; `Artifact.code()` refuses a different Python or
compiler/runtime version and only then unmarshals. The header binds the code to the source
it was compiled from (`source_sha256`, `component_hash`) under the same HMAC, so the cache
(`load.py`) can check that an entry is the compilation of the source it is asked for.
Format 1 artifacts (a plain SHA-256 trailer) are refused with `artifact_version`.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import importlib.util
import json
import marshal
import os
import struct
import tempfile
from dataclasses import dataclass
from pathlib import Path
from types import CodeType
from typing import Any

from ptc_compiler.prelude.component import ComponentMeta, PreludeError

TAG = b"PTCPRELUDE\x00\x02"
FORMAT = "ptc-prelude-artifact/2"
#: The tag of format 1 (unauthenticated: refused with a clear error).
OLD_TAGS = (b"PTCPRELUDE\x00\x01",)
SUFFIX = ".ptcc"
MAX_ARTIFACT_BYTES = 16 * 1024 * 1024


def canonical_json(value: object) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def python_magic() -> str:
    return importlib.util.MAGIC_NUMBER.hex()


def compiler_version() -> str:
    from ptc_compiler import __version__

    return __version__


@functools.lru_cache(maxsize=1)
def runtime_abi() -> str:
    """Hash of the names generated code may use (helpers, builtins, and the step-budget
    globals the runtime provides each module, `FUEL` and `CREDIT`): their table is the ABI."""
    from ptc_compiler.lower.check import FUEL_GLOBALS
    from ptc_runtime.builtins import BUILTINS
    from ptc_runtime.rt import HELPERS

    names = sorted(HELPERS) + sorted(f"{s.py_name}={s.name}" for s in BUILTINS.values())
    names += [f"global {name}" for name in FUEL_GLOBALS]
    # The step-budget protocol: a refill takes the module's credit iterator and returns
    # only the next fuel chunk (an artifact built for another protocol must not load).
    names.append("FUEL = rt_refill(FUEL, CREDIT[, due])")
    return hashlib.sha256("\n".join(names).encode()).hexdigest()[:32]


def component_hash(source_sha256: str, dep_hashes: dict[str, str]) -> str:
    """Merkle hash of a component: its source and its dependencies' component hashes."""
    return hashlib.sha256(
        canonical_json({"source": source_sha256, "deps": dict(sorted(dep_hashes.items()))})
    ).hexdigest()


def cache_key(chash: str) -> str:
    """Cache file key: the component hash under this Python, compiler and runtime ABI."""
    return hashlib.sha256(
        canonical_json([chash, python_magic(), compiler_version(), runtime_abi()])
    ).hexdigest()


@dataclass(frozen=True)
class Artifact:
    header: dict[str, Any]
    sidecar: bytes
    payload: bytes
    digest: str  # SHA-256 of the whole file
    path: str = ""

    @property
    def ns(self) -> str:
        return str(self.header["ns"])

    @property
    def deps(self) -> dict[str, str]:
        return dict(self.header["deps"])

    @property
    def component_hash(self) -> str:
        return str(self.header["component_hash"])

    def meta(self) -> ComponentMeta:
        return ComponentMeta.from_json(json.loads(self.sidecar))

    def version_problem(self) -> str | None:
        """Why this artifact cannot run here (other Python / compiler / runtime), or None."""
        h = self.header
        if h.get("python_magic") != python_magic():
            return "it was compiled for another Python version"
        if h.get("compiler") != compiler_version():
            return f"it was compiled by ptc-compiler {h.get('compiler')}, not {compiler_version()}"
        if h.get("abi") != runtime_abi():
            return "it was compiled against another runtime (helper/builtin table changed)"
        return None

    def code(self) -> CodeType:
        """The component's code object; only after every check passed."""
        problem = self.version_problem()
        if problem is not None:
            raise PreludeError(
                "artifact_version",
                f"cannot load {self.path or self.ns}: {problem}",
                component=self.ns,
            )
        try:
            code = marshal.loads(self.payload)
        except (ValueError, EOFError, TypeError):
            raise _tampered(self.path, "payload does not unmarshal") from None
        if not isinstance(code, CodeType):
            raise _tampered(self.path, "payload is not a code object")
        return code


def _tampered(path: str, why: str) -> PreludeError:
    return PreludeError(
        "artifact_corrupt",
        f"refusing artifact {path or '(bytes)'}: {why}; it was modified or damaged after "
        "compilation and will not be executed",
        hint="recompile it from source with: ptc compile SOURCES -o DIR",
    )


def build(meta: ComponentMeta, code: CodeType, dep_hashes: dict[str, str], key: bytes) -> bytes:
    """The bytes of an artifact for a compiled component, authenticated under `key`."""
    sidecar = canonical_json(meta.to_json())
    payload = marshal.dumps(code)
    header = {
        "format": FORMAT,
        "python_magic": python_magic(),
        "compiler": compiler_version(),
        "abi": runtime_abi(),
        "ns": meta.ns,
        "deps": dict(sorted(dep_hashes.items())),
        "source_sha256": meta.source_hash,
        "component_hash": component_hash(meta.source_hash, dep_hashes),
        "sidecar_sha256": hashlib.sha256(sidecar).hexdigest(),
        "payload_sha256": hashlib.sha256(payload).hexdigest(),
    }
    head = canonical_json(header)
    body = b"".join(
        [
            TAG,
            struct.pack(">I", len(head)),
            head,
            struct.pack(">I", len(sidecar)),
            sidecar,
            struct.pack(">Q", len(payload)),
            payload,
        ]
    )
    return body + _mac(key, body)


def _mac(key: bytes, body: bytes) -> bytes:
    return hmac.new(key, body, hashlib.sha256).digest()


def parse(data: bytes, key: bytes, path: str = "") -> Artifact:
    """Check the tag, the HMAC under `key`, the framing and hashes; never unmarshals (see
    `Artifact.code`)."""
    if len(data) > MAX_ARTIFACT_BYTES:
        raise _tampered(path, "file is larger than any artifact")
    if data.startswith(OLD_TAGS):
        raise PreludeError(
            "artifact_version",
            f"cannot load {path or 'data'}: it is in an older artifact format "
            f"(unauthenticated), not {FORMAT}",
            hint="recompile it with this ptc-compiler: ptc compile SOURCES -o DIR",
        )
    if not data.startswith(TAG):
        raise PreludeError(
            "artifact_format",
            f"{path or 'data'} is not a ptc prelude artifact ({FORMAT})",
            hint="compile preludes with: ptc compile SOURCES -o DIR",
        )
    if len(data) < len(TAG) + 32:
        raise _tampered(path, "file is truncated")
    body, digest = data[:-32], data[-32:]
    if not hmac.compare_digest(_mac(key, body), digest):
        raise PreludeError(
            "artifact_unauthenticated",
            f"refusing artifact {path or '(bytes)'}: it is not authenticated by this host's "
            "prelude key (compiled under another key, or modified after compilation); it "
            "will not be executed",
            hint="recompile it here (ptc compile SOURCES -o DIR), or load it with the key "
            "it was compiled with (PTC_PRELUDE_KEY_FILE or key=)",
        )
    try:
        pos = len(TAG)
        (n,) = struct.unpack_from(">I", body, pos)
        head = body[pos + 4 : pos + 4 + n]
        pos += 4 + n
        (n,) = struct.unpack_from(">I", body, pos)
        sidecar = body[pos + 4 : pos + 4 + n]
        pos += 4 + n
        (n,) = struct.unpack_from(">Q", body, pos)
        payload = body[pos + 8 : pos + 8 + n]
        if pos + 8 + n != len(body):
            raise ValueError("trailing bytes")
        header = json.loads(head)
    except (struct.error, ValueError):
        raise _tampered(path, "its framing is invalid") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise _tampered(path, "unknown header format")
    if hashlib.sha256(sidecar).hexdigest() != header.get("sidecar_sha256"):
        raise _tampered(path, "metadata hash mismatch")
    if hashlib.sha256(payload).hexdigest() != header.get("payload_sha256"):
        raise _tampered(path, "code hash mismatch")
    return Artifact(header, sidecar, payload, hashlib.sha256(data).hexdigest(), path)


def read(path: str | Path, key: bytes) -> Artifact:
    """The artifact in file `path`, checked under `key` (see `parse`)."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise PreludeError("artifact_unreadable", f"cannot read {p}: {exc.strerror}") from None
    return parse(data, key, str(p))


def write_atomic(path: Path, data: bytes) -> None:
    """Write `data` to `path` through a temporary file and a rename (never half-written)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=SUFFIX, dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def default_cache_dir() -> Path:
    """`$PTC_PRELUDE_CACHE`, else `$XDG_CACHE_HOME/ptc/preludes`, else `~/.cache/ptc/preludes`."""
    explicit = os.environ.get("PTC_PRELUDE_CACHE")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "ptc" / "preludes"
