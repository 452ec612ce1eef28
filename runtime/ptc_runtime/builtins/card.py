"""The language card and `docs/builtins.md`, generated from the registry.

`language_card()` is the compact model-visible list (names, arities, one-line docs,
grouped by domain); `builtins_markdown()` is the contributor reference. Regenerate
the docs with `python -m ptc_runtime.builtins.card --write docs/builtins.md`; a test
fails when the file is stale.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from typing import Final

from ptc_runtime.builtins.registry import BuiltinSpec

#: Domain title of each declaring module (by module name), in card order.
DOMAINS: Final[Mapping[str, str]] = {
    "arithmetic": "Arithmetic",
    "math_": "Arithmetic",
    "bitwise": "Bitwise",
    "comparison": "Comparison",
    "predicates": "Logic and predicates",
    "types_": "Logic and predicates",
    "collections_": "Collections",
    "sequences": "Sequences",
    "strings_core": "Strings",
    "strings": "Strings",
    "format_": "Strings",
    "regex_": "Regex",
    "json_": "JSON",
    "describe": "Introspection",
    "introspect": "Introspection",
    "output": "Output",
    "java": "Java interop",
    "java_time": "Java interop",
}
_OTHER: Final = "Other"


def arity_text(spec: BuiltinSpec) -> str:
    """`2`, `1|2`, `0+`, or `value` for a constant."""
    parts = [str(a) for a in spec.arities]
    if spec.variadic_min is not None:
        parts.append(f"{spec.variadic_min}+")
    return "|".join(parts) if parts else "value"


def domain_of(spec: BuiltinSpec) -> str:
    """The card section of a builtin: Java names first, then the declaring module."""
    if "java" in spec.groups:
        return "Java interop"
    module = getattr(spec.fn, "__module__", "") or ""
    return DOMAINS.get(module.rsplit(".", 1)[-1], _OTHER)


def _sections(builtins: Mapping[str, BuiltinSpec]) -> dict[str, list[BuiltinSpec]]:
    order = list(dict.fromkeys([*DOMAINS.values(), _OTHER]))
    out: dict[str, list[BuiltinSpec]] = {title: [] for title in order}
    for spec in builtins.values():
        out[domain_of(spec)].append(spec)
    return {t: sorted(specs, key=lambda s: s.name) for t, specs in out.items() if specs}


def _registry() -> Mapping[str, BuiltinSpec]:
    from ptc_runtime.builtins import BUILTINS

    return BUILTINS


def language_card(builtins: Mapping[str, BuiltinSpec] | None = None) -> str:
    """The model-visible builtin list: one line per builtin, grouped by domain."""
    lines = ["PTC-Lisp builtins (name [argument counts]: description)"]
    for title, specs in _sections(builtins or _registry()).items():
        lines.append("")
        lines.append(f"## {title}")
        lines.extend(f"{s.name} [{arity_text(s)}]: {s.doc}" for s in specs)
    return "\n".join(lines) + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def builtins_markdown(builtins: Mapping[str, BuiltinSpec] | None = None) -> str:
    """`docs/builtins.md`: every builtin with arities, namespaces and doc."""
    registry = builtins or _registry()
    lines = [
        "# Builtins",
        "",
        "Generated from the builtin registry by "
        "`python -m ptc_runtime.builtins.card --write docs/builtins.md`; do not edit.",
        "",
        f"{len(registry)} entries. Arities: `1|2` means one or two arguments, `2+` two or "
        "more, `value` a constant.",
    ]
    for title, specs in _sections(registry).items():
        lines += ["", f"## {title}", "", "| Name | Arities | Namespaces | Description |"]
        lines.append("|---|---|---|---|")
        for s in specs:
            groups = ", ".join(g for g in s.groups if g != "core" or s.bare) or "-"
            lines.append(
                f"| `{_cell(s.name)}` | {_cell(arity_text(s))} | {groups} | {_cell(s.doc)} |"
            )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ptc_runtime.builtins.card")
    parser.add_argument("--write", metavar="PATH", help="write docs/builtins.md to PATH")
    parser.add_argument("--card", action="store_true", help="print the language card")
    args = parser.parse_args(argv)
    if args.write:
        with open(args.write, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(builtins_markdown())
    if args.card or not args.write:
        sys.stdout.write(language_card())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
