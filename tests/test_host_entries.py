"""The public entries hosts built on the compiler use (the agent library among them)."""

from __future__ import annotations

import pytest

import ptc_compiler
from ptc_compiler.prelude import PreludeError, read_header, source_hash
from ptc_runtime.host_api import PtcError


def test_top_level_heads_names_each_forms_operator() -> None:
    heads = ptc_compiler.top_level_heads('(def x 1) (return x) 3 [:a] (str/join "," []) ()')
    assert heads == ("def", "return", None, None, None, None)
    assert ptc_compiler.top_level_heads("") == ()
    assert ptc_compiler.top_level_heads("  (fail {:reason :x}) ; done") == ("fail",)


def test_top_level_heads_reports_bad_syntax_with_its_place() -> None:
    with pytest.raises(PtcError) as info:
        ptc_compiler.top_level_heads("(return\n  (+ 1 2)")
    assert info.value.code == "parse_error" and info.value.line is not None


def test_read_header_reads_the_namespace_without_compiling() -> None:
    # the body does not analyse (an unbound name): the header alone is read and checked
    source = '(ns orders "Order analytics." {:deps [money] :visibility :discoverable})\n' \
             "(defn total [o] (no-such-fn o))"
    header = read_header(source, "orders.clj")
    assert (header.ns, header.doc, header.visibility, header.deps) == (
        "orders", "Order analytics.", "discoverable", ("money",))
    assert source_hash(source) == source_hash(source) != source_hash(source + " ")


@pytest.mark.parametrize(("source", "code"), [
    ("(defn f [] 1)", "missing_namespace"),
    ("(ns Bad)", "invalid_namespace"),
    ("(ns data)", "reserved_namespace"),
    ("(ns a {:deps [a]})", "dependency_cycle"),
    ("(ns a {:colour :red})", "invalid_metadata"),
])
def test_read_header_errors_name_the_component(source: str, code: str) -> None:
    with pytest.raises(PreludeError) as info:
        read_header(source, "lib.clj")
    assert info.value.code == code
    assert "lib.clj" in info.value.message or info.value.component is not None
