"""Host binding namespaces besides `tool/`: programs call `ns/member`, in both modes."""

from __future__ import annotations

from typing import Any

import pytest

import ptc_compiler
from ptc_runtime.bindings import BindingErrorClass, BindingNamespace, BindingRejection


def _web(args: dict[str, Any]) -> list[str]:
    if args.get("q") == "bad":
        raise BindingRejection("query refused")
    return [f"hit:{args['q']}"]


BINDINGS = [
    BindingNamespace(
        "search", {"web": _web}, error_class=BindingErrorClass("SearchError", "member")
    ),
    BindingNamespace("tool", {"count": lambda a: 3}),
]


@pytest.mark.parametrize("mode", ["in-process", "isolated"])
def test_program_calls_members_of_several_namespaces(mode: str) -> None:
    result = ptc_compiler.run(
        '[(search/web {:q "x"}) (tool/count) (map search/web [{:q "y"}])]',
        bindings=BINDINGS,
        mode=mode,  # type: ignore[arg-type]
    )
    assert result.error is None, result.error
    assert result.value == [["hit:x"], 3, [["hit:y"]]]


def test_unknown_member_is_a_static_error_and_nothing_runs() -> None:
    calls: list[object] = []
    bindings = [BindingNamespace("search", {"web": lambda a: calls.append(a)})]
    result = ptc_compiler.run('(search/web {:q 1}) (search/images {})', bindings=bindings)
    assert result.error is not None and result.error.code == "unknown_tool"
    assert "search/images" in result.error.message
    assert calls == []


def test_rejection_names_the_error_class_and_member() -> None:
    result = ptc_compiler.run('(search/web {:q "bad"})', bindings=BINDINGS)
    assert result.error is not None
    assert "SearchError" in result.error.message and "search/web" in result.error.message


def test_a_namespace_not_granted_is_not_callable() -> None:
    result = ptc_compiler.run("(search/web {})", bindings=[BindingNamespace("tool", {})])
    assert result.error is not None and result.error.code == "invalid_form"


@pytest.mark.parametrize("name", ["data", "json", "clojure.core", "1st"])
def test_reserved_or_malformed_namespace_names_are_refused(name: str) -> None:
    with pytest.raises(ValueError):
        BindingNamespace(name, {})
