"""The builtins: every domain module's declarations merged into `BUILTINS`.

`BUILTINS` maps each canonical PTC name to its `BuiltinSpec` (read-only). Function
values print as `#function[name]`: each implementation gets its PTC name as the
attribute `ptc_name` (the first name wins when one function serves two names).
"""

from __future__ import annotations

from collections.abc import Mapping

from ptc_runtime.builtins import (
    aggregation,
    arithmetic,
    bitwise,
    collections_,
    combinators,
    comparison,
    describe,
    format_,
    higher_order,
    images,
    introspect,
    java,
    java_time,
    json_,
    maps,
    math_,
    ordering,
    output,
    parallel,
    positional,
    predicates,
    regex_,
    sequences,
    sets,
    slicing,
    strings,
    strings_core,
    strings_extra,
    types_,
    walk,
)
from ptc_runtime.builtins.registry import BuiltinSpec, build

BUILTINS: Mapping[str, BuiltinSpec] = build(
    [
        arithmetic.DECLS,
        comparison.DECLS,
        predicates.DECLS,
        collections_.DECLS,
        sequences.DECLS,
        strings_core.DECLS,
        output.DECLS,
        images.DECLS,
        parallel.DECLS,
        math_.DECLS,
        bitwise.DECLS,
        types_.DECLS,
        regex_.DECLS,
        strings.DECLS,
        strings_extra.DECLS,
        format_.DECLS,
        json_.DECLS,
        ordering.DECLS,
        aggregation.DECLS,
        combinators.DECLS,
        introspect.DECLS,
        describe.DECLS,
        positional.DECLS,
        slicing.DECLS,
        java.DECLS,
        java_time.DECLS,
        higher_order.DECLS,
        maps.DECLS,
        sets.DECLS,
        walk.DECLS,
    ]
)

for _spec in BUILTINS.values():
    if "ptc_name" not in getattr(_spec.fn, "__dict__", {"ptc_name": None}):
        _spec.fn.__dict__["ptc_name"] = _spec.name

__all__ = ["BUILTINS"]
