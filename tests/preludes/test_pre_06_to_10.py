"""PRE-06 ... PRE-10 of agent-design §1.11.8."""

from __future__ import annotations

import pytest
from prelude_helpers import compile_error, env, failure, ok

from ptc_compiler.prelude import PreludeError


def test_pre_06_forward_and_mutual_recursion_and_same_helper_name_in_two_namespaces() -> None:
    e = env(
        "(ns a)\n(defn ev? [n] (if (zero? n) true (od? (dec n))))\n"
        "(defn od? [n] (if (zero? n) false (ev? (dec n))))\n"
        "(defn uses-later [] (later 2))\n(defn- later [x] (* x 10))\n"
        "(defn- helper [] :a)\n(defn who [] (helper))",
        "(ns b)\n(defn- helper [] :b)\n(defn who [] (helper))",
    )
    assert ok(e, "[(a/ev? 10) (a/od? 7) (a/ev? 7)]") == [True, True, False]
    assert ok(e, "(a/uses-later)") == 20
    assert ok(e, "[(a/who) (b/who)]") == [
        ok(e, ":a"),
        ok(e, ":b"),
    ]


def test_pre_07_only_declared_direct_dependencies_are_visible() -> None:
    base = "(ns base)\n(defn one [] 1)"
    mid = "(ns mid {:deps [base]})\n(defn two [] (+ (base/one) 1))"
    top_ok = "(ns top {:deps [mid]})\n(defn three [] (+ (mid/two) 1))"
    assert ok(env(base, mid, top_ok), "(top/three)") == 3
    # base is only a transitive dependency of top: not visible
    err = compile_error([base, mid, "(ns top {:deps [mid]})\n(defn x [] (base/one))"],
                        "unknown_namespace")
    assert "base" in err.message and "direct dependencies" in err.message
    # not declared at all
    compile_error([base, "(ns other)\n(defn x [] (base/one))"], "unknown_namespace")
    # declared but missing
    compile_error(["(ns other {:deps [nowhere]})\n(defn x [] 1)"], "unknown_dependency")
    # cycles and self-references
    compile_error(["(ns p {:deps [q]}) (defn f [] 1)", "(ns q {:deps [p]}) (defn g [] 1)"],
                  "dependency_cycle")
    compile_error(["(ns p) (defn f [] 1) (defn g [] (p/f))"], "qualified_self_reference")
    # private names of a dependency, and arity of dependency calls
    compile_error([base + "\n(defn- hidden [] 0)", "(ns u {:deps [base]}) (defn f [] (base/hidden))"],
                  "unbound_var")
    compile_error([base, "(ns u {:deps [base]}) (defn f [] (base/one 1))"], "arity_error")


def test_pre_08_transitive_tool_requirements_and_attach_failure() -> None:
    core = "(ns svc)\n(defn- fetch [id] (tool/get-user {:id id}))\n(defn user [id] (fetch id))"
    app = "(ns app {:deps [svc]})\n(defn name-of [id] (:name (svc/user id)))\n(defn pure [] 1)"
    tools = {"get-user": lambda a: {"name": f"u{a['id']}"}}
    e = env(core, app, tools=tools)
    recs = e.bundle.records
    assert recs["svc/user"].requires == ("tool:get-user",)
    assert recs["app/name-of"].requires == ("tool:get-user",)
    assert recs["app/pure"].requires == ()
    assert recs["app/name-of"].effect == "unknown" and recs["app/pure"].effect == "read"
    assert ok(e, "(app/name-of 3)") == "u3"
    with pytest.raises(PreludeError) as info:
        env(core, app)  # get-user not granted
    assert info.value.code == "missing_tool"
    assert "app/name-of requires tool:get-user" in info.value.message
    # declared :requires only adds
    e2 = env('(ns x) (defn f {:requires ["tool:audit"] :effect :write} [] 1)',
             tools={"audit": lambda a: None})
    assert e2.bundle.records["x/f"].requires == ("tool:audit",)
    assert e2.bundle.records["x/f"].effect == "write"


@pytest.mark.parametrize("ns", ["tool", "data", "ptc.core", "clojure.core", "str", "java.time"])
def test_pre_09_reserved_namespaces_cannot_be_declared(ns: str) -> None:
    compile_error([f"(ns {ns})\n(defn f [] 1)"], "reserved_namespace")


def test_pre_09_programs_cannot_define_into_protected_namespaces() -> None:
    e = env("(ns crm)\n(defn f [] 1)")
    for program in ("(def crm/f 2)", "(defn crm/g [] 2)", "(def tool/x 1)", "(def str/join 1)"):
        r = failure(e, program)
        assert r.error is not None and r.error.code == "protected_namespace", program
    assert ok(e, "(crm/f)") == 1
    compile_error(["(ns crm)\n(defn other/f [] 1)"], "protected_namespace")


def test_pre_10_unbound_symbols_in_prelude_bodies_are_compile_errors() -> None:
    err = compile_error(["(ns a)\n(defn f [x] (+ x y))"], "unbound_var")
    assert "y" in err.message and err.line == 2
    compile_error(["(ns a)\n(defn f [x] (or x fallback))"], "unbound_var")
    compile_error(["(ns a)\n(defn f [x] (def y 1))"], "invalid_form")
    compile_error(["(ns a)\n(defn f [x] x)\n(defn f [y] y)"], "duplicate_ref")


def test_pre_10_program_calls_of_unknown_exports_fail_before_running() -> None:
    e = env("(ns crm)\n(defn f [] 1)")
    r = failure(e, '(println "ran") (crm/nope)')
    assert r.output == "" and r.error is not None and r.error.code == "unbound_var"
