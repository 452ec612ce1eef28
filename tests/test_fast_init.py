"""`fast_frozen_init`: the faster `__init__` of IR nodes and `Lowered` behaves like the
dataclass's own (same parameters, defaults, errors; the instance stays frozen)."""

from __future__ import annotations

import dataclasses
import inspect
from dataclasses import dataclass, field

import pytest

from ptc_compiler import ir
from ptc_compiler.fast_init import fast_frozen_init
from ptc_compiler.lower.ctx import Lowered

CLASSES = [
    c
    for c in vars(ir).values()
    if isinstance(c, type) and c.__module__ == ir.__name__ and dataclasses.is_dataclass(c)
] + [Lowered]


def test_every_ir_node_class_has_it() -> None:
    assert len(CLASSES) > 30
    for cls in CLASSES:
        assert "_set0" in vars(cls)["__init__"].__code__.co_names, cls


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_fields_defaults_and_frozenness(cls: type) -> None:
    fields = dataclasses.fields(cls)
    values = {f.name: object() for f in fields}
    for obj in (cls(*values.values()), cls(**values)):
        assert all(getattr(obj, name) is value for name, value in values.items())
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(obj, fields[0].name, None)
    required = {f.name: values[f.name] for f in fields if f.default is dataclasses.MISSING}
    obj = cls(**required)
    for f in fields:
        expected = values[f.name] if f.name in required else f.default
        assert getattr(obj, f.name) is expected
    if required:
        with pytest.raises(TypeError):
            cls()
    with pytest.raises(TypeError):
        cls(*values.values(), object())
    with pytest.raises(TypeError):
        cls(**values, not_a_field=1)
    # the signature the dataclass declared
    params = list(inspect.signature(cls).parameters.values())
    assert [p.name for p in params] == [f.name for f in fields]
    assert [p.default for p in params] == [
        inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default for f in fields
    ]


def test_equality_and_replace_still_work() -> None:
    a = ir.Call(ir.BuiltinRef("+"), (ir.Const(1), ir.Const(2)))
    assert a == ir.Call(ir.BuiltinRef("+"), (ir.Const(1), ir.Const(2)))
    assert hash(a) == hash(ir.Call(ir.BuiltinRef("+"), (ir.Const(1), ir.Const(2))))
    b = dataclasses.replace(a, args=(ir.Const(3),))
    assert b.args == (ir.Const(3),) and b.fn is a.fn


def test_classes_it_does_not_fit_are_left_alone() -> None:
    @dataclass(frozen=True, slots=True)
    class WithPost:
        x: int

        def __post_init__(self) -> None:
            pass

    @dataclass(frozen=True, slots=True)
    class WithFactory:
        x: list[int] = field(default_factory=list)

    @dataclass(slots=True)
    class NotFrozen:
        x: int

    @dataclass(frozen=True)
    class NoSlots:
        x: int

    for cls in (WithPost, WithFactory, NotFrozen, NoSlots):
        before = vars(cls)["__init__"]
        assert fast_frozen_init(cls) is cls
        assert vars(cls)["__init__"] is before
