"""`ptc_compiler.run(source, preludes=[...])` and `compile(..., preludes=[...])`.

Environments are cached in-process by the identity of the prelude items (texts, paths with
their modification times) and of the tools, so repeated calls neither reload the bundle nor
recompile the program.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ptc_compiler.prelude.environment import Environment
from ptc_compiler.prelude.load import PreludeItem, bundle_fingerprint
from ptc_runtime.seam import Mode

_ENVS: OrderedDict[tuple[str, tuple[tuple[str, int], ...], str], Environment] = OrderedDict()
_LOCK = threading.Lock()
MAX_ENVIRONMENTS = 16


def environment_for(
    preludes: Sequence[PreludeItem],
    tools: Mapping[str, Callable[..., Any]] | None,
    mode: Mode = "in-process",
) -> Environment:
    """The cached environment of these preludes, tools and mode (created on first use)."""
    tools = dict(tools or {})
    key = (
        bundle_fingerprint(list(preludes)),
        tuple(sorted((n, id(f)) for n, f in tools.items())),
        mode,
    )
    with _LOCK:
        env = _ENVS.get(key)
        if env is not None:
            _ENVS.move_to_end(key)
            return env
    env = Environment(list(preludes), tools=tools, mode=mode)
    with _LOCK:
        _ENVS[key] = env
        while len(_ENVS) > MAX_ENVIRONMENTS:
            _ENVS.popitem(last=False)[1].close()
    return env


def check_prelude_options(
    options: Mapping[str, Any],
    allowed: frozenset[str] | set[str] = frozenset({"mode", "cancel", "state_owner", "native"}),
) -> Any:
    """The run's mode, after refusing the options a run with preludes does not take."""
    unknown = set(options) - set(allowed)
    if unknown:
        raise TypeError(
            f"run option(s) not available with preludes: {', '.join(sorted(unknown))}"
        )
    mode = options.get("mode", "in-process")
    if mode not in ("in-process", "isolated"):
        raise ValueError("mode must be 'in-process' or 'isolated'")
    return mode


def run_with_preludes(
    source: str,
    preludes: Sequence[PreludeItem],
    *,
    data: Mapping[str, Any] | None,
    tools: Mapping[str, Callable[..., Any]] | None,
    timeout_ms: float | None,
    max_steps: int,
    options: Mapping[str, Any],
) -> Any:
    mode = check_prelude_options(options)
    env = environment_for(preludes, tools, mode)
    return env.run(
        source,
        data=data,
        timeout_ms=timeout_ms,
        max_steps=max_steps,
        state_owner=options.get("state_owner"),
        cancel=options.get("cancel"),
        native=options.get("native", False) is True,
    )


def compile_with_preludes(
    source: str,
    preludes: Sequence[PreludeItem],
    tools: frozenset[str] | None,
    user_names: frozenset[str],
) -> Any:
    env = environment_for(preludes, None)
    if tools is not None:
        # Names only: an environment whose tools are these names (never called here).
        env = Environment(env.bundle, tools={t: _never for t in tools})
    return env.compile(source, user_names)


def _never(args: object) -> object:
    raise RuntimeError("compile-only environment")
