"""`python -m benchmarks [--quick]`: run every benchmark module's `main()` in turn.

`--quick` (CI) is handed to the modules that declare `QUICK = True` (small sizes, one
repetition); the others run as they always do.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys

import benchmarks


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    quick = "--quick" in args
    if set(args) - {"--quick"}:
        raise SystemExit("usage: python -m benchmarks [--quick]")
    sys.argv[1:] = []  # modules that parse sys.argv see no foreign flags
    for info in sorted(pkgutil.iter_modules(benchmarks.__path__), key=lambda m: m.name):
        if info.name.startswith("bench_"):
            print(f"== {info.name}")
            module = importlib.import_module(f"benchmarks.{info.name}")
            if getattr(module, "QUICK", False):
                module.main(["--quick"] if quick else [])
            else:
                module.main()


if __name__ == "__main__":
    main()
