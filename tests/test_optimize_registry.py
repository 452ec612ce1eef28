"""The optimiser's rule registry: every rule is declared completely, `optimize=False` is
the one switch, and `disabled` leaves out exactly the rules named."""

from __future__ import annotations

import pytest

import ptc_compiler
from ptc_compiler import optimize
from ptc_compiler.optimize import registry
from ptc_runtime.builtins import BUILTINS

CHAIN = "(:c (:b (:a data/m)))"
DATA = {"m": {"a": {"b": {"c": 7}}}}


def test_every_rule_is_declared_completely() -> None:
    rules = optimize.registered()
    assert len(rules) >= 20
    assert len({r.name for r in rules}) == len(rules)
    for r in rules:
        assert r.rewrites and r.pattern, r.name
        assert r.agrees_with, r.name
        for name in r.agrees_with:  # the general functions the rule must agree with
            assert name in BUILTINS, (r.name, name)
        if r.stage in ("call", "args"):
            assert r.heads and r.lower is not None, r.name
        if r.stage == "ir":
            assert r.lower is not None, r.name


def test_optimize_false_is_the_one_switch() -> None:
    fast = ptc_compiler.compile(CHAIN)
    plain = ptc_compiler.compile(CHAIN, optimize=False)
    assert "rt_get_path3" in fast.python_source
    assert "rt_get_path" not in plain.python_source and "rt_call" in plain.python_source
    assert plain.rules.enabled == frozenset()
    assert fast.rules.enabled == {r.name for r in optimize.registered()}
    for mode in ("in-process", "isolated"):
        a = ptc_compiler.run(CHAIN, data=DATA, mode=mode)
        b = ptc_compiler.run(CHAIN, data=DATA, mode=mode, optimize=False)
        assert (a.ok, a.value, a.steps) == (b.ok, b.value, b.steps) == (True, 7, 0)
    assert fast.run(data=DATA).value == plain.run(data=DATA).value == 7


def test_disabled_leaves_out_the_rules_named() -> None:
    with optimize.disabled("read-chain"):
        prog = ptc_compiler.compile(CHAIN + " ; no chain")
    assert "read-chain" not in prog.rules.enabled and "keyword-read" in prog.rules.enabled
    assert "rt_get_path3" not in prog.python_source
    assert ptc_compiler.compile(CHAIN + " ; chain").rules.enabled == {
        r.name for r in optimize.registered()
    }
    with pytest.raises(ValueError, match="unknown optimiser rules: no-such-rule"):
        with optimize.disabled("no-such-rule"):
            pass


def test_applications_are_counted() -> None:
    before = optimize.fired().get("read-chain", 0)
    ptc_compiler.compile(CHAIN + " ; counted")
    assert optimize.fired()["read-chain"] == before + 1


def test_a_rule_is_declared_once() -> None:
    rule = optimize.registered()[0]
    with pytest.raises(ValueError, match="declared twice"):
        registry.declare(rule)


def test_optimize_must_be_a_bool() -> None:
    with pytest.raises(TypeError, match="optimize must be a bool"):
        ptc_compiler.run("1", optimize="no")
