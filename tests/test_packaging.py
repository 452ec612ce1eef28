"""Packaging invariants: the runtime stands alone; every data file ships in the wheel."""

from __future__ import annotations

import importlib.resources
import pkgutil
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import ptc_runtime

ROOT = Path(__file__).resolve().parent.parent


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


def test_package_trees_hold_no_symlinks() -> None:
    # a symlinked directory is dropped by the sdist -> wheel path (the grammars once were)
    for tree in (ROOT / "ptc_compiler", ROOT / "ptc_agent", ROOT / "runtime" / "ptc_runtime"):
        links = [p for p in tree.rglob("*") if p.is_symlink()]
        assert links == [], links


def test_the_wheel_built_from_the_sdist_holds_and_loads_every_data_file(tmp_path: Path) -> None:
    """`python -m build` (sdist, then the wheel from it): every package file is in the wheel,
    and what loads data at run time (reader grammar, signature grammar, prelude compile) works
    from the unpacked wheel alone."""
    dist = tmp_path / "dist"
    subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(dist), str(ROOT)],
        check=True, capture_output=True, timeout=600,
    )
    (wheel,) = dist.glob("*.whl")
    (sdist,) = dist.glob("*.tar.gz")
    check = subprocess.run(
        [sys.executable, str(ROOT / ".ci" / "wheel_files.py"), str(ROOT), str(wheel)],
        capture_output=True, text=True, timeout=120,
    )
    assert check.returncode == 0, check.stderr
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        zf.extractall(site)
    for data in ("ptc_compiler/grammar/ptc_lisp.lark", "ptc_compiler/grammar/signature.lark",
                 "ptc_compiler/py.typed", "ptc_runtime/py.typed"):
        assert data in names, data
    prelude = tmp_path / "p.clj"
    prelude.write_text(
        '(ns t.util "Helpers." {:visibility :discoverable})\n'
        '(defn twice "Twice x." {:signature "(x :int) -> :int"} [x] (* 2 x))\n'
    )
    script = textwrap.dedent(
        f"""
        import sys
        sys.path.insert(0, {str(site)!r})
        import ptc_compiler, ptc_runtime
        from ptc_compiler import signatures
        from ptc_compiler.prelude import compile_to_dir
        assert ptc_compiler.__file__.startswith({str(site)!r}), ptc_compiler.__file__
        assert ptc_runtime.__file__.startswith({str(site)!r}), ptc_runtime.__file__
        res = ptc_compiler.run("(let [x 1] (+ x")
        assert res.error is not None and res.error.code == "parse_error", res
        signatures.parse("(q :string) -> [:int]")
        written = compile_to_dir([{str(prelude)!r}], {str(tmp_path / "out")!r})
        res = ptc_compiler.run("(t.util/twice 21)", preludes=[{str(tmp_path / "out")!r}])
        assert res.ok and res.value == 42, res
        print("ok", len(written))
        """
    )
    out = subprocess.run(
        [sys.executable, "-I", "-c", script], capture_output=True, text=True, timeout=300,
        cwd=tmp_path,
    )
    assert out.returncode == 0 and out.stdout.startswith("ok"), out.stderr
    assert sdist.stat().st_size > 0
