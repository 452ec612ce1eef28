"""The shipped agent library and its install model (seed 001, "Install the library").

The library is a set of PTC-Lisp preludes (`preludes/*.clj`), one namespace each, with
declared dependencies. A workflow selects what it needs in the seed's manifest shape:

    [{"id": "my.agent", "path": "agent.clj", "dependencies": ["agent.core"]},
     {"library": "agent.core"}]

A `{"library": name}` entry selects a shipped library together with its dependency
closure (`agent.core` brings `agent.feedback`, `agent.native`, `agent.prompt`,
`agent.retry`, `kernel`, `llm`, `result` and `workflow.event`; `agent.main` brings
`agent.core`). A local component names its prelude file, and the manifest repeats the
dependencies its `ns` declares, each of which must be selected: a local component built on
`agent.core` must therefore select `{"library": "agent.core"}` as well.

`resolve_components` checks a component list and returns a `Selection` (the prelude items
of the workflow bundle); every problem is a `ManifestError` naming the file and the place
(`components[0].dependencies[1]`). Missions select libraries the same way in
`Mission(preludes=[...])`, among `MISSION_LIBRARIES`.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from ptc_compiler.prelude import PreludeError, read_header

PRELUDE_DIR: Final = Path(__file__).parent / "preludes"
#: The shipped libraries: namespace -> source, dependencies before dependants.
SHIPPED: Final[dict[str, Path]] = {
    "kernel": PRELUDE_DIR / "kernel.clj",
    "llm": PRELUDE_DIR / "llm.clj",
    "result": PRELUDE_DIR / "result.clj",
    "workflow.event": PRELUDE_DIR / "workflow_event.clj",
    "runtime": PRELUDE_DIR / "runtime.clj",
    "cap": PRELUDE_DIR / "cap.clj",
    "agent.native": PRELUDE_DIR / "agent_native.clj",
    "agent.feedback": PRELUDE_DIR / "agent_feedback.clj",
    "agent.prompt": PRELUDE_DIR / "agent_prompt.clj",
    "agent.retry": PRELUDE_DIR / "agent_retry.clj",
    "agent.core": PRELUDE_DIR / "agent_core.clj",
    "agent.main": PRELUDE_DIR / "agent_main.clj",
}
#: Libraries a mission may select: their host routes are granted to every mission.
MISSION_LIBRARIES: Final = ("cap", "result", "runtime")
COMPONENT_ID: Final = re.compile(r"[a-z][a-z0-9._-]{0,127}")
LOCAL_KEYS: Final = frozenset({"id", "path", "dependencies"})


class ManifestError(ValueError):
    """A component selection that cannot be installed.

    `code` names the problem (`invalid_component`, `unknown_library`, `duplicate_component`,
    `library_id_collision`, `component_not_found`, `namespace_mismatch`,
    `dependency_mismatch`, `missing_dependency`, `dependency_cycle`), `where` the place in
    the manifest (`components[0].dependencies[1]`), `manifest` the file (or the argument).
    """

    def __init__(self, code: str, manifest: str, where: str, problem: str) -> None:
        super().__init__(f"{manifest}: {where}: {problem}")
        self.code = code
        self.manifest = manifest
        self.where = where
        self.problem = problem


@functools.cache
def shipped_deps(ns: str) -> tuple[str, ...]:
    """The dependencies a shipped library's `ns` declares."""
    return tuple(read_header(SHIPPED[ns].read_text(encoding="utf-8"), str(SHIPPED[ns])).deps)


def library_closure(names: Sequence[str]) -> tuple[str, ...]:
    """`names` and every library they depend on, in `SHIPPED` order (dependencies first)."""
    wanted: set[str] = set()
    stack = list(names)
    while stack:
        ns = stack.pop()
        if ns not in wanted:
            wanted.add(ns)
            stack.extend(shipped_deps(ns))
    return tuple(ns for ns in SHIPPED if ns in wanted)


@dataclass(frozen=True)
class Selection:
    """A resolved component selection: shipped libraries (closure) and local sources."""

    libraries: tuple[str, ...]
    local: tuple[tuple[str, Path], ...]  # (id, source file)

    @property
    def namespaces(self) -> tuple[str, ...]:
        return self.libraries + tuple(cid for cid, _ in self.local)

    def items(self) -> list[str | Path]:
        """The prelude items of the bundle (`load_bundle`), libraries first."""
        items: list[str | Path] = [SHIPPED[ns] for ns in self.libraries]
        return items + [path for _, path in self.local]


def _local_entry(item: str | Path, base: Path | None, at: str, manifest: str) -> dict[str, Any]:
    """A prelude file given as a path: its component entry, read from its `ns`."""
    path = Path(item)
    if base is not None and not path.is_absolute():
        path = base / path
    try:
        header = read_header(path.read_text(encoding="utf-8"), str(path))
    except (OSError, UnicodeDecodeError):
        raise ManifestError(
            "component_not_found", manifest, at, f"cannot read {str(item)[:200]}"
        ) from None
    except PreludeError as exc:
        raise ManifestError("invalid_component", manifest, at, str(exc)) from None
    return {"id": header.ns, "path": str(path), "dependencies": list(header.deps)}


def resolve_components(
    entries: Sequence[Any], *, base: Path | None = None, manifest: str = "components"
) -> Selection:
    """Check a workflow's component list and resolve it (see the module docstring).

    `entries`: `{"library": name}` maps, local `{"id", "path", "dependencies"}` maps, or a
    prelude file path (its `ns` gives the id and dependencies). Relative paths are relative
    to `base`. `manifest` names the list in errors (a file path, or the argument name).
    """
    if isinstance(entries, str | bytes | Mapping) or not isinstance(entries, Sequence):
        raise ManifestError("invalid_component", manifest, "components", "must be a list")
    libraries: list[str] = []
    local: dict[str, tuple[int, Path, list[str]]] = {}
    seen: dict[str, int] = {}
    for i, raw in enumerate(entries):
        at = f"components[{i}]"
        entry = _local_entry(raw, base, at, manifest) if isinstance(raw, str | Path) else raw
        if not isinstance(entry, Mapping):
            raise ManifestError(
                "invalid_component", manifest, at, "must be an object: {library} or {id, path}"
            )
        if "library" in entry:
            name = entry["library"]
            if set(entry) != {"library"}:
                raise ManifestError(
                    "invalid_component", manifest, at, "a library entry has only the key library"
                )
            if not isinstance(name, str) or name not in SHIPPED:
                shown = repr(name)[:64]
                raise ManifestError(
                    "unknown_library",
                    manifest,
                    f"{at}.library",
                    f"{shown} is not a shipped library (one of {', '.join(SHIPPED)})",
                )
            if name in seen:
                raise ManifestError(
                    "duplicate_component", manifest, at, f"{name} is already selected"
                )
            seen[name] = i
            libraries.append(name)
            continue
        cid, path, deps = _check_local(entry, at, base, manifest)
        if cid in seen:
            raise ManifestError("duplicate_component", manifest, at, f"{cid} is already selected")
        seen[cid] = i
        local[cid] = (i, path, deps)
    closure = library_closure(libraries)
    for i, _, deps in local.values():
        for k, dep in enumerate(deps):
            if dep not in closure and dep not in local:
                hint = f'; add {{"library": "{dep}"}}' if dep in SHIPPED else ""
                raise ManifestError(
                    "missing_dependency",
                    manifest,
                    f"components[{i}].dependencies[{k}]",
                    f"{dep} is neither selected nor provided by a selected library{hint}",
                )
    _check_acyclic(local, manifest)
    order = _local_order(local)
    return Selection(closure, tuple((cid, local[cid][1]) for cid in order))


def _check_local(
    entry: Mapping[str, Any], at: str, base: Path | None, manifest: str
) -> tuple[str, Path, list[str]]:
    extra = sorted(str(k) for k in entry if k not in LOCAL_KEYS)
    if extra:
        raise ManifestError(
            "invalid_component", manifest, f"{at}.{extra[0][:64]}", "is not a component key"
        )
    cid = entry.get("id")
    if not isinstance(cid, str) or not COMPONENT_ID.fullmatch(cid):
        raise ManifestError(
            "invalid_component", manifest, f"{at}.id", "must match [a-z][a-z0-9._-]{0,127}"
        )
    if cid in SHIPPED:
        raise ManifestError(
            "library_id_collision",
            manifest,
            f"{at}.id",
            f'{cid} is a shipped library; select it with {{"library": "{cid}"}}',
        )
    raw_path = entry.get("path")
    if not isinstance(raw_path, str) or not raw_path:
        raise ManifestError("invalid_component", manifest, f"{at}.path", "must be a file path")
    path = Path(raw_path)
    if base is not None and not path.is_absolute():
        path = base / path
    deps = entry.get("dependencies", [])
    if not isinstance(deps, list) or not all(isinstance(d, str) for d in deps):
        raise ManifestError(
            "invalid_component", manifest, f"{at}.dependencies", "must be a list of ids"
        )
    if len(set(deps)) != len(deps):
        raise ManifestError(
            "invalid_component", manifest, f"{at}.dependencies", "names a dependency twice"
        )
    try:
        source = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        raise ManifestError(
            "component_not_found", manifest, f"{at}.path", f"cannot read {raw_path[:200]}"
        ) from None
    try:
        header = read_header(source, str(path))
    except PreludeError as exc:
        raise ManifestError("invalid_component", manifest, f"{at}.path", str(exc)) from None
    if header.ns != cid:
        raise ManifestError(
            "namespace_mismatch",
            manifest,
            f"{at}.id",
            f"is {cid} but {raw_path[:200]} declares (ns {header.ns})",
        )
    if sorted(header.deps) != sorted(deps):
        declared = " ".join(sorted(header.deps)) or "none"
        raise ManifestError(
            "dependency_mismatch",
            manifest,
            f"{at}.dependencies",
            f"must list what (ns {cid}) declares in :deps: {declared}",
        )
    return cid, path, list(deps)


def _check_acyclic(local: Mapping[str, tuple[int, Path, list[str]]], manifest: str) -> None:
    state: dict[str, int] = {}  # 1 visiting, 2 done

    def visit(cid: str, trail: list[str]) -> None:
        if state.get(cid) == 2:
            return
        if state.get(cid) == 1:
            cycle = " -> ".join([*trail[trail.index(cid) :], cid])
            i = local[cid][0]
            raise ManifestError(
                "dependency_cycle", manifest, f"components[{i}].dependencies", f"cycle {cycle}"
            )
        state[cid] = 1
        for dep in local[cid][2]:
            if dep in local:
                visit(dep, [*trail, cid])
        state[cid] = 2

    for cid in local:
        visit(cid, [])


def _local_order(local: Mapping[str, tuple[int, Path, list[str]]]) -> list[str]:
    out: list[str] = []

    def visit(cid: str) -> None:
        if cid in out:
            return
        for dep in local[cid][2]:
            if dep in local:
                visit(dep)
        out.append(cid)

    for cid in local:
        visit(cid)
    return out


def mission_items(preludes: Sequence[Any], where: str = "Mission.preludes") -> list[Any]:
    """A mission's prelude items with `{"library": name}` selections resolved to the
    shipped sources (with their dependencies); other items pass through unchanged."""
    out: list[Any] = []
    selected: set[str] = set()
    for i, item in enumerate(preludes):
        if not isinstance(item, Mapping):
            out.append(item)
            continue
        name = item.get("library")
        if set(item) != {"library"} or name not in MISSION_LIBRARIES:
            raise ManifestError(
                "unknown_library",
                where,
                f"[{i}]",
                f'a mission selects {{"library": name}} among {", ".join(MISSION_LIBRARIES)}',
            )
        for ns in library_closure([name]):
            if ns not in selected:
                selected.add(ns)
                out.append(SHIPPED[ns])
    return out


__all__ = [
    "MISSION_LIBRARIES",
    "SHIPPED",
    "ManifestError",
    "Selection",
    "library_closure",
    "mission_items",
    "resolve_components",
]
