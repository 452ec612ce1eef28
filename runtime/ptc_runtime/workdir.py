"""The working directory of a run (`RunRequest.cwd`, run contract: `PtcRunSpec.cwd`).

PTC-Lisp programs have no filesystem access, so the directory does not change what a
program can do: it is the absolute directory of the execution world that the run
reports in its `RunSpec`, and against which the host may read paths (image
descriptors carry absolute paths). `resolve_cwd` turns a caller's choice into that
absolute, existing directory or refuses it.
"""

from __future__ import annotations

import os
from typing import Final

#: The directory of a run that names none.
DEFAULT_CWD: Final = "/"


def resolve_cwd(cwd: object) -> str:
    """The absolute, normalised directory for `cwd` (None: `DEFAULT_CWD`).

    A relative path is taken from the host process's current directory. Raises
    `TypeError` for a non-string and `ValueError` for an empty path, a NUL byte, or a
    path that is not an existing directory (caller misuse, before anything runs)."""
    if cwd is None:
        return DEFAULT_CWD
    if isinstance(cwd, os.PathLike):
        cwd = os.fspath(cwd)
    if not isinstance(cwd, str):
        raise TypeError("cwd must be a string path or None")
    if not cwd or "\x00" in cwd:
        raise ValueError("cwd must be a non-empty path without NUL characters")
    path = os.path.realpath(os.path.abspath(cwd))
    if not os.path.isdir(path):
        raise ValueError(f"cwd {cwd[:200]!r} is not an existing directory")
    return path
