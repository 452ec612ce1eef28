"""The conformance EDN reader and the comparison rule, on Clojure-printed text."""

from __future__ import annotations

import math

import edn
import pytest
from compare import same

import ptc_compiler
from ptc_runtime.values import keyword

READS = [
    pytest.param("nil", None, id="nil"),
    pytest.param("[true false]", [True, False], id="bools"),
    pytest.param("-42", -42, id="int"),
    pytest.param("12345678901234567890N", 12345678901234567890, id="bigint"),
    pytest.param("2.5E-3", 0.0025, id="float-exp"),
    pytest.param("1.5M", 1.5, id="bigdec"),
    pytest.param("5/2", 2.5, id="ratio"),
    pytest.param('"a\\"b\\n\\u00e9"', 'a"b\né', id="string-escapes"),
    pytest.param("\\a", edn.Char("a"), id="char"),
    pytest.param("\\newline", edn.Char("\n"), id="char-named"),
    pytest.param(":a/b", edn.Kw("a/b"), id="keyword"),
    pytest.param("(1 (2))", [1, [2]], id="list"),
    pytest.param("{:a 1, \"b\" [2]}", edn.EdnMap(((edn.Kw("a"), 1), ("b", [2]))), id="map"),
    pytest.param("#{1 2}", edn.EdnSet((1, 2)), id="set"),
    pytest.param('#"\\d+"', edn.Re("\\d+"), id="regex"),
    pytest.param("#'conformance.p1/x", edn.Var("x"), id="var"),
    pytest.param("#object[clojure.core$inc 0x1 \"x\"]", edn.Tagged(
        "object", [edn.Sym("clojure.core$inc"), edn.Sym("0x1"), "x"]), id="tagged"),
]


@pytest.mark.parametrize(("text", "want"), READS)
def test_read(text: str, want: object) -> None:
    assert edn.read(text) == want


def test_special_floats() -> None:
    inf, ninf, nan = edn.read("[##Inf ##-Inf ##NaN]")  # type: ignore[misc]
    assert inf == math.inf and ninf == -math.inf and math.isnan(nan)


SAME = [
    pytest.param("[1 2.0]", "[1.0 2]", True, id="int-float-one-value"),
    pytest.param("(1 2)", "[1 2]", True, id="list-vector-sequential"),
    pytest.param("{:a 1, :b 2}", "{:b 2 :a 1}", True, id="map-unordered"),
    pytest.param("#{3 1 2}", "#{1 2 3}", True, id="set-unordered"),
    pytest.param("\\a", '"a"', True, id="char-is-string"),
    pytest.param("##NaN", "##NaN", True, id="nan-agrees"),
    pytest.param("true", "1", False, id="bool-not-number"),
    pytest.param(":a", '"a"', False, id="keyword-not-string"),
    pytest.param("0.30000000000000004", "0.3", False, id="floats-exact"),
    pytest.param("nil", "[]", False, id="nil-not-empty"),
    pytest.param("{1 :a}", "{1 :a 2 :b}", False, id="map-extra-entry"),
]


@pytest.mark.parametrize(("clojure", "ours", "want"), SAME)
def test_same(clojure: str, ours: str, want: bool) -> None:
    result = ptc_compiler.run(ours, native=True)
    assert result.ok, result.error
    assert same(edn.read(clojure), result.value) is want


def test_keyword_values() -> None:
    assert same(edn.read("[:a :b]"), [keyword("a"), keyword("b")])
