"""Binding rules of the run contract: portable namespace and error-class names, a
member-name property that cannot collide, member names the reader can call, and the
text a failing host function may show the program (both modes)."""

from __future__ import annotations

import logging
from typing import Any

import pytest

import ptc_compiler
from ptc_runtime.bindings import BindingErrorClass, BindingNamespace, BindingRejection

MODES = ["in-process", "isolated"]


@pytest.mark.parametrize(
    "name",
    [
        # Python keywords, soft keywords included
        "class", "def", "lambda", "None", "async", "match", "case", "type", "_",
        # JavaScript reserved words and fixed globals
        "let", "function", "typeof", "undefined", "const", "this", "NaN",
        # backend-owned globals and dunder names
        "inspect", "console", "Image", "__dsh_main__", "__x__",
        # not identifiers
        "$tools", "a-b", "1x", "ñ", "", "tool.x",
        # the language's own namespaces
        "data", "str", "json",
    ],
)  # fmt: skip
def test_namespace_names_that_are_not_portable_are_refused(name: str) -> None:
    with pytest.raises(ValueError):
        BindingNamespace(name, {})


@pytest.mark.parametrize("name", ["tool", "search", "my_ns", "Tools2", "_private", "__x"])
def test_portable_namespace_names_are_accepted(name: str) -> None:
    assert BindingNamespace(name, {}).name == name


@pytest.mark.parametrize(
    "name", ["class", "def", "match", "let", "Image", "console", "__Err__", "Bad-Name", "1E"]
)
def test_error_class_names_follow_the_same_rule(name: str) -> None:
    with pytest.raises(ValueError):
        BindingErrorClass(name, "member")


@pytest.mark.parametrize(
    "prop", ["name", "message", "stack", "cause", "code", "kind", "error_class", "__proto__"]
)
def test_a_member_name_property_that_would_collide_is_refused(prop: str) -> None:
    with pytest.raises(ValueError):
        BindingErrorClass("ToolError", prop)


@pytest.mark.parametrize("prop", ["member", "tool_name", "member name", "____"])
def test_other_member_name_properties_are_accepted(prop: str) -> None:
    assert BindingErrorClass("ToolError", prop).member_name_property == prop


@pytest.mark.parametrize("member", ["héllo", "名前", "a b", "x:y", "a/b", "tab\t", "ｅｖａｌ"])
def test_member_names_the_reader_cannot_call_are_refused_at_construction(member: str) -> None:
    with pytest.raises(ValueError, match="cannot be called from PTC-Lisp"):
        BindingNamespace("tool", {member: lambda a: 1})


@pytest.mark.parametrize("mode", MODES)
def test_every_accepted_member_shape_is_callable(mode: str) -> None:
    members = ["get-user", "a.b", "__class__", "x?", "ok!", "v2", "*star*", "it's"]
    ns = BindingNamespace("tool", {m: (lambda a, m=m: m) for m in members})
    program = "[" + " ".join(f"(tool/{m} {{}})" for m in members) + "]"
    r = ptc_compiler.run(program, bindings=[ns], mode=mode)  # type: ignore[arg-type]
    assert r.error is None, r.error
    assert r.value == members


def _read_file(args: Any) -> Any:
    with open("/tmp/ptc-no-such-dir-7f3a/secret-name.txt") as f:
        return f.read()


def _lookup(args: Any) -> Any:
    return {}["zz"]


def _refuse(args: Any) -> Any:
    raise BindingRejection("quota used up for today")


NS = BindingNamespace(
    "files",
    {"read": _read_file, "lookup": _lookup, "refuse": _refuse},
    error_class=BindingErrorClass("FileError", "member"),
)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    ("member", "kind"), [("read", "FileNotFoundError"), ("lookup", "KeyError")]
)
def test_a_failing_host_function_shows_its_type_only(
    mode: str, member: str, kind: str, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="ptc_runtime.tools"):
        r = ptc_compiler.run(f"(files/{member} {{}})", bindings=[NS], mode=mode)  # type: ignore[arg-type]
    assert r.error is not None
    assert r.error.code == "tool_error"
    msg = r.error.message
    assert msg == f"FileError: files/{member} rejected: the host function raised {kind}"
    assert "/tmp" not in msg and "secret" not in msg and "zz" not in msg and "Errno" not in msg
    assert r.error.details == {"error_class": "FileError", "member": member}
    # the host keeps the detail, in its log
    logged = "\n".join(
        rec.getMessage() + str(rec.exc_info and rec.exc_info[1]) for rec in caplog.records
    )
    assert f"files/{member}" in logged
    assert ("secret-name.txt" if member == "read" else "zz") in logged


@pytest.mark.parametrize("mode", MODES)
def test_a_deliberate_rejection_shows_its_text(mode: str) -> None:
    r = ptc_compiler.run("(files/refuse {})", bindings=[NS], mode=mode)  # type: ignore[arg-type]
    assert r.error is not None
    assert r.error.message == "FileError: files/refuse rejected: quota used up for today"


@pytest.mark.parametrize("mode", MODES)
def test_a_plain_tool_failure_is_path_free_too(mode: str) -> None:
    r = ptc_compiler.run("(tool/read {})", tools={"read": _read_file}, mode=mode)  # type: ignore[arg-type]
    assert r.error is not None
    assert r.error.message == "tool/read failed: the host function raised FileNotFoundError"
