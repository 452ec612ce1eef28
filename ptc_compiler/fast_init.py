"""A faster `__init__` for the frozen slotted dataclasses the compiler builds by the hundred.

A frozen dataclass's generated `__init__` stores each field through
`object.__setattr__(self, name, value)` (a global lookup, an attribute lookup and a generic
call per field), because its own `__setattr__` refuses. A cold compile builds a few hundred
IR nodes and `Lowered` results, and those stores were about 2 % of it. The `__init__` made
here stores each field through its slot's own descriptor (`member.__set__`), the same
store without the detour; the class stays frozen (its `__setattr__` still refuses), and its
signature, defaults, equality, hashing and `repr` are the dataclass's.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

T = TypeVar("T", bound=type)


def fast_frozen_init(cls: T) -> T:
    """Give frozen slotted dataclass `cls` an equivalent `__init__` that fills its slots directly.

    Classes this does not fit (not a frozen slotted dataclass, or with `__post_init__`,
    `init=False` fields, keyword-only fields or default factories) are returned unchanged.
    """
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or "__slots__" not in vars(cls):
        return cls
    if hasattr(cls, "__post_init__"):
        return cls
    fields = dataclasses.fields(cls)
    namespace: dict[str, Any] = {}
    signature: list[str] = []
    body: list[str] = []
    for i, f in enumerate(fields):
        if not f.init or f.kw_only or f.default_factory is not dataclasses.MISSING:
            return cls
        namespace[f"_set{i}"] = vars(cls)[f.name].__set__
        if f.default is dataclasses.MISSING:
            signature.append(f.name)
        else:
            namespace[f"_default{i}"] = f.default
            signature.append(f"{f.name}=_default{i}")
        body.append(f"    _set{i}(self, {f.name})\n")
    source = f"def __init__(self, {', '.join(signature)}):\n{''.join(body) or '    pass'}\n"
    exec(source, namespace)  # a fixed template over the class's own field names
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    init.__doc__ = vars(cls)["__init__"].__doc__
    cls.__init__ = init  # type: ignore[misc]
    return cls
