"""Keyword constants: one `kA, kB, ... = rt_kws('a', 'b', ...)` statement per module."""

from __future__ import annotations

import ast

from ptc_compiler import api
from ptc_compiler.lower import lower
from ptc_runtime.rt import HELPERS
from ptc_runtime.values import keyword


def _module(source: str) -> ast.Module:
    return lower(api.compile(source).ir).module


def _keyword_statements(module: ast.Module) -> list[ast.Assign]:
    return [
        s
        for s in module.body
        if isinstance(s, ast.Assign)
        and isinstance(s.value, ast.Call)
        and isinstance(s.value.func, ast.Name)
        and s.value.func.id in ("rt_kws", "rt_kw")
    ]


def test_all_keywords_of_a_module_are_made_by_one_statement() -> None:
    source = "(defn f [m] (:b m)) {:a (f {:b 1}) :c [:a :b :d] :e (get {:x 1} :x)}"
    module = _module(source)
    (stmt,) = _keyword_statements(module)
    assert stmt.value.func.id == "rt_kws"  # type: ignore[attr-defined]
    (target,) = stmt.targets
    assert isinstance(target, ast.Tuple)
    names = [t.id for t in target.elts]  # type: ignore[attr-defined]
    spelled = [a.value for a in stmt.value.args]  # type: ignore[attr-defined]
    assert sorted(spelled) == ["a", "b", "c", "d", "e", "x"]  # each keyword once
    assert len(set(names)) == len(names) == len(spelled)
    # each name is bound to its own keyword: reads of the constants find the right values
    used = {n.id for n in ast.walk(module) if isinstance(n, ast.Name) and n.id in names}
    assert used == set(names)
    # before any function or `program()` that uses them
    assert module.body.index(stmt) < min(
        i for i, s in enumerate(module.body) if isinstance(s, ast.FunctionDef)
    )
    result = api.run(source, native=True)
    assert result.ok, result.error
    assert result.value == {
        keyword("a"): 1,
        keyword("c"): [keyword("a"), keyword("b"), keyword("d")],
        keyword("e"): 1,
    }


def test_one_keyword_and_none() -> None:
    (stmt,) = _keyword_statements(_module("(:a {:a 2})"))
    (target,) = stmt.targets
    assert isinstance(target, ast.Tuple) and len(target.elts) == 1
    assert [a.value for a in stmt.value.args] == ["a"]  # type: ignore[attr-defined]
    assert api.run("(:a {:a 2})").value == 2
    assert _keyword_statements(_module("(+ 1 2)")) == []


def test_rt_kws_gives_the_interned_keywords_in_order() -> None:
    kws = HELPERS["rt_kws"]
    assert kws("a", "b-c", "a") == (keyword("a"), keyword("b-c"), keyword("a"))
    assert kws("a")[0] is keyword("a")
    assert kws() == ()
