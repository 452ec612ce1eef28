"""PRE-01 ... PRE-05 of agent-design §1.11.8."""

from __future__ import annotations

from prelude_helpers import compile_error, env, failure, ok

from ptc_compiler.prelude import compile_component


def test_pre_01_ns_directive_and_docstring_parsed_form_before_ns_rejected() -> None:
    c = compile_component('(ns crm "Customer tools." {:visibility :discoverable})\n(defn f [] 1)')
    assert (c.meta.ns, c.meta.doc, c.meta.visibility) == ("crm", "Customer tools.", "discoverable")
    err = compile_error(["(defn f [] 1)\n(ns crm)"], "missing_namespace")
    assert "must start with (ns" in err.message
    compile_error(['(ns crm)\n(ns crm)'], "duplicate_namespace")
    compile_error(["(ns Crm)"], "invalid_namespace")
    compile_error(["(ns crm) (println 1)"], "invalid_form")


def test_pre_02_public_callable_private_unreachable_and_hidden() -> None:
    e = env('(ns crm "CRM")\n(defn- secret [] 41)\n(defn answer [] (inc (secret)))')
    assert ok(e, "(crm/answer)") == 42
    r = failure(e, "(crm/secret)")
    assert r.error is not None and r.error.code == "unbound_var"
    assert "not a public export" in r.error.message
    assert ok(e, '(dir "crm")') == ["crm/answer"]
    assert ok(e, '(apropos "secret")') == []
    assert ok(e, "(export-meta crm/secret)") is None


def test_pre_03_discoverable_hidden_from_prompt_but_callable_and_in_dir() -> None:
    e = env(
        '(ns cap "Capabilities" {:visibility :discoverable})\n(defn hidden [] :h)\n'
        '(defn shown {:visibility :prompt} [] :s)'
    )
    assert ok(e, "(cap/hidden)") == "h"  # the projection: a keyword is its name
    assert ok(e, '(dir "cap")') == ["cap/hidden", "cap/shown"]
    api = e.render_api()
    assert "(cap/shown)" in api and "cap/hidden" not in api
    refs = [x["ref"] for x in e.inventory().to_json(prompt_only=True)["exports"]]
    assert refs == ["cap/shown"]
    assert ok(e, "(:visibility (export-meta cap/hidden))") == "discoverable"


def test_pre_04_signature_arity_grammar_and_variadic_are_compile_errors() -> None:
    compile_error(['(ns a) (defn f {:signature "(x :int) -> :int"} [x y] x)'], "invalid_signature")
    compile_error(['(ns a) (defn f {:signature "(x :int -> :int"} [x] x)'], "invalid_signature")
    compile_error(['(ns a) (defn f {:signature "(x :int) -> :int"} [x & more] x)'],
                  "invalid_signature")
    compile_error(['(ns a) (defn f {:effect :delete} [x] x)'], "invalid_effect")
    compile_error(['(ns a) (defn f {:visibility :secret} [x] x)'], "invalid_visibility")
    compile_error(['(ns a) (defn f {:requires ["x"]} [x] x)'], "invalid_requires")
    compile_error(['(ns a) (defn f {"doc" "x"} [x] x)'], "invalid_metadata")


def test_pre_05_signed_input_before_body_output_after_fail_not_validated() -> None:
    calls: list[object] = []

    def record(args: dict[str, object]) -> int:
        calls.append(args)
        return 1

    e = env(
        '(ns m)\n'
        '(defn inc-id {:signature "(x {id :int}) -> :int"} [x] (tool/record {}) (:id x))\n'
        '(defn bad-out {:signature "() -> :int"} [] "oops")\n'
        '(defn early {:signature "(x :int) -> :string"} [x] (when (> x 0) (return x)) "no")\n'
        '(defn failing {:signature "() -> :int"} [] (fail {:why "x"}))',
        tools={"record": record},
    )
    r = failure(e, '(m/inc-id {:id "7"})')
    assert r.error is not None and r.error.code == "contract_violation"
    assert "m/inc-id" in r.error.message and "input" in r.error.message
    assert "x.id" in r.error.message
    assert calls == []  # the body never ran
    assert ok(e, "(m/inc-id {:id 7})") == 7 and len(calls) == 1
    r = failure(e, "(m/bad-out)")
    assert r.error is not None and "m/bad-out output" in r.error.message
    r = failure(e, "(m/early 5)")  # a (return v) inside an export is its validated result
    assert r.error is not None and "m/early output" in r.error.message
    assert ok(e, "(m/early 0)") == "no"
    r = e.run("(m/failing)")
    assert r.outcome == "fail" and r.value == {"why": "x"}
