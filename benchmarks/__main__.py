"""`python -m benchmarks`: run every benchmark module's `main()` in turn."""

from __future__ import annotations

import importlib
import pkgutil

import benchmarks


def main() -> None:
    for info in sorted(pkgutil.iter_modules(benchmarks.__path__), key=lambda m: m.name):
        if info.name.startswith("bench_"):
            print(f"== {info.name}")
            module = importlib.import_module(f"benchmarks.{info.name}")
            module.main()


if __name__ == "__main__":
    main()
