"""`ptc fuzz ...`: hands over to the fuzz campaigns of a source checkout.

The campaigns (the `fuzz` package: generators, the Clojure differential, the sharded runner)
are development tools and are not part of the wheel. Where the project is installed editable
from a checkout (``pip install -e '.[fuzz]'``), `fuzz` is importable and ``ptc fuzz ...`` is
``python -m fuzz ...``; anywhere else it says so and exits with status 2.
"""

from __future__ import annotations

import importlib
import sys
from typing import TextIO

NOT_INSTALLED = (
    "ptc fuzz: the fuzz campaigns are not installed. They live in a source checkout of "
    "ptc-compiler: run `python -m fuzz ...` from its root, or install it editable "
    "(`pip install -e '.[fuzz]'`) to use `ptc fuzz ...`."
)


def main_fuzz(argv: list[str], out: TextIO | None = None) -> int:
    """Entry point of ``ptc fuzz``; `argv` excludes the ``fuzz`` word itself."""
    out = out or sys.stdout
    try:
        cli = importlib.import_module("fuzz.cli")
    except ModuleNotFoundError as exc:
        if exc.name not in ("fuzz", "fuzz.cli"):  # the campaigns are there; a dependency is not
            print(f"ptc fuzz: the campaigns need {exc.name!r}, which is not installed: "
                  "pip install -e '.[fuzz]'", file=out)  # fmt: skip
            return 2
        cli = None
    if cli is None or not getattr(cli, "PTC_FUZZ_CLI", False):  # absent, or another `fuzz`
        print(NOT_INSTALLED, file=out)
        return 2
    code: int = cli.main(argv, out, prog="ptc fuzz")
    return code
