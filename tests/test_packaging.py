"""Packaging invariants: the runtime stands alone; the grammar ships as package data."""

from __future__ import annotations

import importlib.resources
import pkgutil
import subprocess
import sys
import textwrap
from pathlib import Path

import ptc_runtime


def test_runtime_never_imports_compiler_or_lark() -> None:
    modules = sorted(
        m.name for m in pkgutil.walk_packages(ptc_runtime.__path__, prefix="ptc_runtime.")
    )
    script = textwrap.dedent(
        f"""
        import importlib, sys
        for name in {modules!r}:
            if name.endswith("__main__"):
                continue
            importlib.import_module(name)
        bad = sorted(m for m in sys.modules if m.split(".")[0] in ("ptc_compiler", "lark"))
        print(",".join(bad))
        """
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", out.stdout
    assert len(modules) > 10


def test_runtime_sources_do_not_mention_the_compiler() -> None:
    root = Path(ptc_runtime.__file__).parent
    for path in root.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "import ptc_compiler" not in text and "from ptc_compiler" not in text, path
        assert "import lark" not in text and "from lark" not in text, path


def test_grammars_load_through_importlib_resources() -> None:
    grammar = importlib.resources.files("ptc_compiler").joinpath("grammar/ptc_lisp.lark")
    assert "start" in grammar.read_text(encoding="utf-8") or grammar.is_file()


def test_py_typed_markers_exist() -> None:
    import ptc_compiler

    for pkg in (ptc_compiler, ptc_runtime):
        assert (Path(pkg.__file__).parent / "py.typed").is_file()
