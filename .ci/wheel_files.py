"""Check that a built wheel holds every file of the package trees in the checkout.

    python .ci/wheel_files.py ROOT WHEEL

The package trees are `ptc_compiler/`, `ptc_agent/` and `runtime/ptc_runtime/` (installed
as `ptc_runtime/`). Every file in them that is not a bytecode cache must be in the wheel:
Python modules and the data they load at run time alike (grammars, preludes, `py.typed`).
A symlink in a package tree is an error too: some build paths drop it.
Exit status 1 lists what is missing.
"""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

TREES = {
    "ptc_compiler": "ptc_compiler",
    "ptc_agent": "ptc_agent",
    "runtime/ptc_runtime": "ptc_runtime",
}


def _tree_files(root: Path, src: str) -> list[Path]:
    """The files of one tree: git's view (tracked or not ignored) in a checkout, else all."""
    try:
        out = subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard", "--", src],
            cwd=root, capture_output=True, text=True, check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return sorted((root / src).rglob("*"))
    return sorted(root / line for line in out.splitlines() if line and (root / line).exists())


def expected_files(root: Path) -> tuple[set[str], list[str]]:
    """(the wheel paths the checkout's package trees should give, the symlinks found)."""
    expected: set[str] = set()
    links: list[str] = []
    for src, dest in TREES.items():
        base = root / src
        for path in _tree_files(root, src):
            rel = path.relative_to(base)
            if "__pycache__" in rel.parts or path.suffix in (".pyc", ".pyo"):
                continue
            if path.is_symlink():
                links.append(str(path.relative_to(root)))
            elif path.is_file():
                expected.add(f"{dest}/{rel.as_posix()}")
    return expected, links


def main(argv: list[str]) -> int:
    root, wheel = Path(argv[0]), Path(argv[1])
    expected, links = expected_files(root)
    with zipfile.ZipFile(wheel) as zf:
        present = set(zf.namelist())
    missing = sorted(expected - present)
    for link in links:
        print(f"wheel_files: symlink in a package tree: {link}", file=sys.stderr)
    for name in missing:
        print(f"wheel_files: missing from {wheel.name}: {name}", file=sys.stderr)
    if links or missing:
        return 1
    print(f"wheel_files: {wheel.name} holds all {len(expected)} package files")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
