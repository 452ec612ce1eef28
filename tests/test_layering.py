"""The package layering, read from the sources with `ast` (docs/design/architecture.md).

Three packages, one direction:

    ptc_runtime  <-  ptc_compiler  <-  ptc_agent

- `ptc_runtime` imports neither the compiler, nor lark, nor the agent library;
- `ptc_compiler` never imports `ptc_agent`, except the `ptc agent ...` hook of its CLI;
- `ptc_agent` imports only the public API of the other two: the modules of `PUBLIC_API`,
  and from each only the names of its `__all__`.

Every `import` counts, at module level or inside a function, so a lazy import cannot slip a
dependency past the rule.
"""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = {
    "ptc_runtime": ROOT / "runtime" / "ptc_runtime",
    "ptc_compiler": ROOT / "ptc_compiler",
    "ptc_agent": ROOT / "ptc_agent",
}

#: The public API the agent library may use: these modules, each through its `__all__`.
#: A new need is met by a public entry (documented, in `__all__`), never by reaching in.
PUBLIC_API = ("ptc_compiler", "ptc_compiler.prelude", "ptc_compiler.signatures",
              "ptc_runtime.host_api")

#: What a package must not import (top-level package names), and the allowed exceptions as
#: (file relative to the package, function) pairs.
FORBIDDEN = {
    "ptc_runtime": ({"ptc_compiler", "lark", "ptc_agent"}, set()),
    "ptc_compiler": ({"ptc_agent"}, {("cli.py", "cmd_agent")}),
}


@dataclass(frozen=True)
class Imported:
    """One imported module (and, for `from m import a, b`, the names) at a place."""

    file: str
    line: int
    function: str | None
    module: str
    names: tuple[str, ...]


def imports_of(source: str, file: str, package: str) -> Iterator[Imported]:
    """Every import in `source` with absolute module names (relative ones resolved)."""
    tree = ast.parse(source)
    for func, node in _walk(tree, None):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield Imported(file, node.lineno, func, alias.name, ())
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                base = (package + "." + file.removesuffix(".py").replace("/", ".")).split(".")
                base = base[: len(base) - node.level]
                module = ".".join([*base, module] if module else base)
            yield Imported(file, node.lineno, func, module, tuple(a.name for a in node.names))


def _walk(node: ast.AST, func: str | None) -> Iterator[tuple[str | None, ast.AST]]:
    for child in ast.iter_child_nodes(node):
        inner = func
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
            inner = child.name if func is None else func  # the outermost function names it
        yield inner, child
        yield from _walk(child, inner)


def package_imports(package: str) -> list[Imported]:
    root = PACKAGES[package]
    out: list[Imported] = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        out += imports_of(path.read_text(encoding="utf-8"), rel, package)
    return out


def layering_violations(package: str, found: list[Imported]) -> list[str]:
    """Imports of `package` that its rule forbids, each as `file:line: what`."""
    forbidden, allowed = FORBIDDEN[package]
    return [
        f"{i.file}:{i.line}: imports {i.module}"
        for i in found
        if i.module.split(".")[0] in forbidden and (i.file, i.function) not in allowed
    ]


def public_api_violations(found: list[Imported]) -> list[str]:
    """Imports of the agent library that reach past `PUBLIC_API`, each as `file:line: what`."""
    bad = []
    for i in found:
        if i.module.split(".")[0] not in ("ptc_compiler", "ptc_runtime"):
            continue
        if i.module not in PUBLIC_API:
            bad.append(f"{i.file}:{i.line}: imports the internal module {i.module}")
            continue
        exported = set(importlib.import_module(i.module).__all__)
        for name in i.names:
            if name not in exported:
                bad.append(f"{i.file}:{i.line}: {i.module}.{name} is not in its __all__")
    return bad


def test_the_agent_library_uses_only_the_public_api() -> None:
    found = package_imports("ptc_agent")
    assert public_api_violations(found) == []
    used = {i.module for i in found if i.module.split(".")[0] in ("ptc_compiler", "ptc_runtime")}
    assert used == set(PUBLIC_API)  # the declaration is exactly what is used: no stale entry


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_lower_layers_never_import_upper_ones(package: str) -> None:
    found = package_imports(package)
    assert len(found) > 20  # the walk saw the package
    assert layering_violations(package, found) == []


def test_the_compiler_reaches_the_agent_library_only_through_its_cli_hook() -> None:
    hooks = [i for i in package_imports("ptc_compiler") if i.module.split(".")[0] == "ptc_agent"]
    assert [(i.file, i.function, i.module) for i in hooks] == [
        ("cli.py", "cmd_agent", "ptc_agent.cli")
    ]


def test_every_public_module_declares_what_it_exports() -> None:
    for name in PUBLIC_API:
        module = importlib.import_module(name)
        exported = module.__all__
        assert exported and all(hasattr(module, n) for n in exported), name
        assert module.__doc__, name


# The checks themselves: each must catch what it is for, or the tests above prove nothing.

def test_the_public_api_check_catches_internal_modules_names_and_lazy_imports() -> None:
    source = (
        "from ptc_compiler.reader import read\n"
        "from ptc_compiler import Tool, _private\n"
        "def f():\n"
        "    import ptc_runtime.state\n"
        "from .trace import Trace\n"
        "import json\n"
    )
    found = list(imports_of(source, "providers/x.py", "ptc_agent"))
    assert found[-2].module == "ptc_agent.providers.trace"  # relative, resolved
    assert public_api_violations(found) == [
        "providers/x.py:1: imports the internal module ptc_compiler.reader",
        "providers/x.py:2: ptc_compiler._private is not in its __all__",
        "providers/x.py:4: imports the internal module ptc_runtime.state",
    ]


def test_the_layering_check_catches_lazy_imports_and_allows_only_the_hook() -> None:
    source = (
        "def cmd_agent():\n"
        "    from ptc_agent.cli import main_agent\n"
        "def other():\n"
        "    def inner():\n"
        "        import ptc_agent\n"
    )
    assert layering_violations("ptc_compiler", list(imports_of(source, "cli.py", "ptc_compiler"))) == [
        "cli.py:5: imports ptc_agent"
    ]
    runtime = list(imports_of("from lark import Lark\nimport ptc_compiler.api\n", "x.py", "ptc_runtime"))
    assert layering_violations("ptc_runtime", runtime) == [
        "x.py:1: imports lark",
        "x.py:2: imports ptc_compiler.api",
    ]


def test_ptc_agent_without_the_agent_library_says_how_to_install_it() -> None:
    script = (
        "import sys\n"
        "sys.modules['ptc_agent'] = None  # as if the package were not installed\n"
        "from ptc_compiler.cli import main\n"
        "raise SystemExit(main(['agent', 'run', 'x.json']))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert out.returncode == 2
    assert "ptc_agent" in out.stderr and "pip install 'ptc-compiler[agent]'" in out.stderr
    assert "Traceback" not in out.stderr
