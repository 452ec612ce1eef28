"""User vars (`def`/`defn`) as generated code reads and calls them.

Generated code names a user var by a mangled identifier: `v0_<m>` for its value and
`f0_<m>` for what calling it calls (`rt.callable_for`), where `<m>` is the PTC name with
every character outside `[A-Za-z0-9]` written `_<hex code>_` (`my-fn?` -> `my_2d_fn_3f_`).
The mapping is injective, so two names never share an identifier, and the `v0_`/`f0_`
prefixes are no other name's: program locals are `v<n>_` and compiled fns `f<n>_` with
n >= 1, and no module global starts with them.

Those identifiers are not module globals. Each run's namespace table (`RunContext.nsc`,
the environment's, shared by every module run in it) is the `__builtins__` of the
generated module (`executor.execute`), and `rt_define` writes a var's two entries into it.
A reference is then a plain `LOAD_GLOBAL`: the module's globals never hold a mangled name,
so CPython finds it in the table, caching where (3.11's `LOAD_GLOBAL_BUILTIN`) until the
table gains or loses a key. A later `def` of the same name, in this run, in a later run
of the environment or in a module that ran earlier, replaces the entry every module reads:
calls always reach the current definition, with one dict read less than `NSC['name']`.
A name not (yet) defined is a `NameError` for the mangled identifier, which the executor
reports as `undefined variable: <name>`, exactly as the `KeyError` of a table lookup was.

The table holds nothing else, so every lookup CPython itself makes in a frame's builtins
(`__import__`, `__build_class__`, ...) still finds nothing, as with empty builtins.
"""

from __future__ import annotations

import functools
import re
from typing import Any, Final

from ptc_runtime import context
from ptc_runtime.rt import callable_for
from ptc_runtime.values import VarRef

#: Prefix of the identifier of a user var's value.
VALUE_PREFIX: Final = "v0_"
#: Prefix of the identifier of what calling a user var calls.
CALL_PREFIX: Final = "f0_"

_UNSAFE = re.compile(r"[^A-Za-z0-9]")
_ESCAPE = re.compile(r"_([0-9a-f]+)_")
_MANGLED = re.compile(r"[vf]0_((?:[A-Za-z0-9]|_[0-9a-f]+_)*)\Z")


def _escape(m: re.Match[str]) -> str:
    return f"_{ord(m.group()):x}_"


def mangle(name: str) -> str:
    """`name` as an identifier part: `[A-Za-z0-9]` kept, any other character `_<hex>_`."""
    if name.isascii() and name.isalnum():
        return name
    return _UNSAFE.sub(_escape, name)


def unmangle(ident: str) -> str | None:
    """The PTC name of a user var's identifier (`v0_<m>` or `f0_<m>`), else None."""
    m = _MANGLED.match(ident)
    if m is None:
        return None
    return _ESCAPE.sub(lambda e: chr(int(e.group(1), 16)), m.group(1))


@functools.lru_cache(maxsize=1024)
def _idents(name: str) -> tuple[str, str]:
    m = mangle(name)
    return VALUE_PREFIX + m, CALL_PREFIX + m


def define(name: str, value: object) -> VarRef:
    """`(def name value)`: bind `name` in the user namespace (`ns`) and the table generated
    code reads it from (`nsc`: its value and its callable, see the module docstring)."""
    ctx = context.current()
    ctx.ns[name] = value
    value_id, call_id = _idents(name)
    table = ctx.nsc
    table[value_id] = value
    table[call_id] = callable_for(name, value)
    return VarRef(name)


#: Helpers of programs (not of component modules: those have no user namespace), added to
#: the runtime's table by `executor.base_globals`.
HELPERS: Final[dict[str, Any]] = {"rt_define": define}
