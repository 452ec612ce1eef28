"""The host's prelude key, and the ownership checks on the files that carry trust.

A compiled prelude artifact holds marshalled code: loading it runs it. Every artifact is
therefore authenticated with an HMAC-SHA256 under a key only the host has (`artifact.py`),
so an artifact someone else wrote (or one edited and rehashed) is refused before anything
in it is unmarshalled.

Where the key comes from, first match wins:

1. an explicit `key=` argument (`load_bundle`, `compile_to_dir`, `Environment`): bytes, or
   text, at least `MIN_KEY_BYTES` long;
2. the file named by `$PTC_PRELUDE_KEY_FILE`;
3. the per-user key file `$XDG_CONFIG_HOME/ptc/prelude.key` (else
   `~/.config/ptc/prelude.key`), created on first use with 32 random bytes (as hex),
   mode 0600, in a directory created 0700.

A key file must be a regular file owned by the current user and readable by no one else
(mode 0600 or stricter), or it is refused (`prelude_key_insecure`). Share one key file
between the machine that runs `ptc compile` and the hosts that load its artifacts.

The prelude cache directory must likewise be writable by no one else: it is created 0700,
an existing one of the user's own loses any group/other write bits, and one owned by
someone else, or inside a directory anyone may write to without the sticky bit, is refused
(`prelude_cache_insecure`).
"""

from __future__ import annotations

import binascii
import os
import stat
from pathlib import Path

from ptc_compiler.prelude.component import PreludeError

#: Shortest key accepted (an HMAC key shorter than this is guessable).
MIN_KEY_BYTES = 16
#: Bytes of a generated key.
KEY_BYTES = 32
#: Largest key file read.
MAX_KEY_FILE_BYTES = 4096
KEY_FILE_ENV = "PTC_PRELUDE_KEY_FILE"

Key = bytes | str


def default_key_file() -> Path:
    """`$PTC_PRELUDE_KEY_FILE`, else `$XDG_CONFIG_HOME/ptc/prelude.key`, else
    `~/.config/ptc/prelude.key`."""
    explicit = os.environ.get(KEY_FILE_ENV)
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "ptc" / "prelude.key"


def host_key(key: Key | None = None) -> bytes:
    """The key that authenticates prelude artifacts (see the module docstring)."""
    if key is not None:
        raw = key.encode("utf-8") if isinstance(key, str) else bytes(key)
        if len(raw) < MIN_KEY_BYTES:
            raise PreludeError(
                "prelude_key_invalid",
                f"a prelude key must be at least {MIN_KEY_BYTES} bytes, got {len(raw)}",
            )
        return raw
    path = default_key_file()
    if not path.exists() and not os.environ.get(KEY_FILE_ENV):
        _create_key_file(path)
    return read_key_file(path)


def read_key_file(path: Path) -> bytes:
    """The key in `path`: hex text (as generated) or at least `MIN_KEY_BYTES` raw bytes,
    after checking the file is the user's own and private."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise PreludeError(
            "prelude_key_unreadable",
            f"cannot read the prelude key file {path}: {exc.strerror}",
            hint=f"create it (or unset {KEY_FILE_ENV} to use the per-user default)",
        ) from None
    try:
        st = os.fstat(fd)
        problem = _insecure(st, private=True)
        if problem is not None:
            raise PreludeError(
                "prelude_key_insecure",
                f"refusing the prelude key file {path}: {problem}",
                hint=f"chmod 600 {path} (it must be owned by the user loading preludes)",
            )
        data = os.read(fd, MAX_KEY_FILE_BYTES + 1)
    finally:
        os.close(fd)
    if len(data) > MAX_KEY_FILE_BYTES:
        raise PreludeError("prelude_key_invalid", f"the prelude key file {path} is too large")
    text = data.strip()
    try:
        raw = binascii.unhexlify(text)
    except (binascii.Error, ValueError):
        raw = text
    if len(raw) < MIN_KEY_BYTES:
        raise PreludeError(
            "prelude_key_invalid",
            f"the prelude key in {path} is shorter than {MIN_KEY_BYTES} bytes",
        )
    return raw


def _create_key_file(path: Path) -> None:
    """A fresh random key at `path` (0600; its directory 0700); a concurrent creator wins."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return
    except OSError as exc:
        raise PreludeError(
            "prelude_key_unreadable",
            f"cannot create the prelude key file {path}: {exc.strerror}",
            hint=f"set {KEY_FILE_ENV} to a key file you own (mode 600), or pass key=",
        ) from None
    try:
        os.write(fd, os.urandom(KEY_BYTES).hex().encode("ascii") + b"\n")
    finally:
        os.close(fd)


def _insecure(st: os.stat_result, *, private: bool) -> str | None:
    """Why a file or directory with status `st` cannot be trusted, or None. `private`:
    nobody else may read it either (a key); otherwise nobody else may write it."""
    uid = os.geteuid() if hasattr(os, "geteuid") else None
    if uid is not None and st.st_uid != uid:
        return f"it is owned by uid {st.st_uid}, not by the current user ({uid})"
    if private and not stat.S_ISREG(st.st_mode):
        return "it is not a regular file"
    mask = 0o077 if private else 0o022
    if hasattr(os, "geteuid") and st.st_mode & mask:
        who = "readable or writable" if private else "writable"
        return f"it is {who} by others (mode {stat.S_IMODE(st.st_mode):o})"
    return None


def secure_cache_dir(path: Path) -> Path:
    """Create the cache directory `path` (0700) if needed, and make sure no one else can
    write to it: one of the user's own that group or others may write is fixed (their
    write bits removed); one owned by someone else, or inside a directory anyone may
    write to without the sticky bit (they could swap the whole directory), is refused."""
    try:
        path.mkdir(parents=True, exist_ok=True, mode=0o700)
        st = os.stat(path)
        parent = os.stat(path.resolve().parent)
    except OSError as exc:
        raise PreludeError(
            "prelude_cache_unusable", f"cannot use the prelude cache {path}: {exc.strerror}"
        ) from None
    problem = None if stat.S_ISDIR(st.st_mode) else "it is not a directory"
    problem = problem or _insecure(st, private=False)
    if problem is not None and stat.S_ISDIR(st.st_mode) and _owned(st):
        try:  # our own directory with group/other write: take the bits away
            os.chmod(path, stat.S_IMODE(st.st_mode) & ~0o022)
            problem = None
        except OSError:
            pass
    if (
        problem is None
        and hasattr(os, "geteuid")
        and parent.st_mode & 0o002
        and not parent.st_mode & stat.S_ISVTX
    ):
        problem = "its parent directory is writable by anyone"
    if problem is not None:
        raise PreludeError(
            "prelude_cache_insecure",
            f"refusing the prelude cache {path}: {problem}",
            hint="use a cache directory only you can write, set PTC_PRELUDE_CACHE, "
            "or pass cache_dir=False",
        )
    return path


def _owned(st: os.stat_result) -> bool:
    return not hasattr(os, "geteuid") or st.st_uid == os.geteuid()
