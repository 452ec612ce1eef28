"""`ptc_runtime.fast` holds the runtime helpers that exist only for the optimiser's rewrites:
no general builtin imports it, so with the optimiser off none of it can run."""

from __future__ import annotations

import ast
from pathlib import Path

import ptc_runtime

RUNTIME = Path(ptc_runtime.__file__).resolve().parent


def _imports(path: Path) -> set[str]:
    """Every module `path` imports, anywhere in it (`from x import y` counts `x` and `x.y`)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module is not None and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def test_no_general_builtin_imports_the_fast_package() -> None:
    builtins = sorted((RUNTIME / "builtins").glob("*.py"))
    assert len(builtins) > 20
    for path in builtins:
        fast = {m for m in _imports(path) if m == "ptc_runtime.fast" or m.startswith("ptc_runtime.fast.")}
        assert not fast, f"{path.name} imports {sorted(fast)}"


def test_the_check_sees_an_import_of_the_package(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text("def f():\n    from ptc_runtime.fast import pathmap\n    return pathmap\n")
    assert "ptc_runtime.fast" in _imports(probe)


def test_the_fast_package_holds_the_rewrite_helpers() -> None:
    names = {p.stem for p in (RUNTIME / "fast").glob("*.py")} | {
        p.name for p in (RUNTIME / "fast").iterdir() if p.is_dir() and p.name != "__pycache__"
    }
    assert {"fieldformat", "pathmap", "unrolled", "filtered_groups", "group_sums", "transient"} <= names
