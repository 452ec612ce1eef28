"""Analyzer: forms -> IR for every special form, and every analysis error."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

import pytest

from ptc_compiler import ir
from ptc_compiler.analyzer import AnalysisEnv, analyze
from ptc_compiler.reader import read
from ptc_compiler.signatures import parse as parse_signature
from ptc_runtime.builtins import BUILTINS
from ptc_runtime.builtins.registry import BuiltinSpec, Group
from ptc_runtime.contracts.data import to_text
from ptc_runtime.errors import AnalysisError
from ptc_runtime.values import SymbolRef, keyword


def _fake(name: str, *groups: Group, bare: bool = True) -> BuiltinSpec:
    return BuiltinSpec(
        name=name,
        fn=lambda *a: None,
        arities=(),
        doc="fake",
        variadic_min=0,
        groups=groups or ("core",),
        bare=bare,
    )


_EXTRA = [
    _fake("join", "core", "string"),
    _fake("split", "core", "string"),
    _fake("upper-case", "core", "string"),
    _fake("union", "core", "set"),
    _fake("postwalk", "core", "walk"),
    _fake("re-find", "core", "regex"),
    _fake("json/parse-string", "json", bare=False),
    _fake("Math/abs", "java", bare=False),
    _fake("Integer/parseInt", "java", bare=False),
    _fake("LocalDate/parse", "java", bare=False),
    _fake("System/currentTimeMillis", "java", bare=False),
    _fake("Double/NaN", "java", bare=False),
    _fake(".indexOf", "java", bare=False),
    _fake("java.util.Date.", "java", bare=False),
    _fake("apply"),
    _fake("juxt"),
    _fake("doc"),
    _fake("dir"),
    _fake("repeat"),
    _fake("cycle"),
    _fake("iterate"),
    _fake("seq"),
    _fake("filter"),
    _fake("first"),
    _fake("find"),
]

REGISTRY: Mapping[str, BuiltinSpec] = MappingProxyType(
    {**BUILTINS, **{s.name: s for s in _EXTRA if s.name not in BUILTINS}}
)
ENV = AnalysisEnv(builtins=REGISTRY, tools=frozenset({"search", "fetch"}))


def body(src: str, env: AnalysisEnv = ENV) -> ir.Node:
    return analyze(read(src), env).body


def fails(src: str, env: AnalysisEnv = ENV) -> AnalysisError:
    with pytest.raises(AnalysisError) as info:
        analyze(read(src), env)
    return info.value


def C(v: object) -> ir.Const:
    return ir.Const(v)  # type: ignore[arg-type]


def K(name: str) -> ir.Const:
    return ir.Const(keyword(name))


def L(ident: str) -> ir.Local:
    return ir.Local(ident)


def B(name: str) -> ir.BuiltinRef:
    return ir.BuiltinRef(name)


def call(fn: ir.Node, *args: ir.Node) -> ir.Call:
    return ir.Call(fn, args)


NIL = C(None)

# --- exact IR for the simple forms -------------------------------------------------

EXACT = [
    pytest.param("", NIL, id="empty-program"),
    pytest.param("1 2", ir.Do((C(1), C(2))), id="implicit-do"),
    pytest.param(":a", K("a"), id="keyword"),
    pytest.param("'foo", C(SymbolRef("foo")), id="quote-shorthand"),
    pytest.param("(quote a/b)", C(SymbolRef("a/b")), id="quote"),
    pytest.param("(comment (undefined-thing) 1)", NIL, id="comment"),
    pytest.param('#"\\d+"', ir.RegexLit("\\d+"), id="regex"),
    pytest.param("[1 :a]", ir.VectorLit((C(1), K("a"))), id="vector"),
    pytest.param("{:a 1}", ir.MapLit(((K("a"), C(1)),)), id="map"),
    pytest.param("#{1 2}", ir.SetLit((C(1), C(2))), id="set"),
    pytest.param(
        "{true 1 1 2 1.5 3}",
        ir.MapLit(((C(True), C(1)), (C(1), C(2)), (C(1.5), C(3)))),
        id="bool-and-number-keys-distinct",
    ),
    pytest.param("(do)", NIL, id="do-empty"),
    pytest.param("(do 1 2)", ir.Do((C(1), C(2))), id="do"),
    pytest.param("(if 1 2)", ir.If(C(1), C(2), NIL), id="if-no-else"),
    pytest.param("(if 1 2 3)", ir.If(C(1), C(2), C(3)), id="if"),
    pytest.param("(if-not 1 2)", ir.If(C(1), NIL, C(2)), id="if-not"),
    pytest.param("(if-not 1 2 3)", ir.If(C(1), C(3), C(2)), id="if-not-else"),
    pytest.param("(when 1 2 3)", ir.If(C(1), ir.Do((C(2), C(3))), NIL), id="when"),
    pytest.param("(when 1)", ir.If(C(1), NIL, NIL), id="when-empty-body"),
    pytest.param("(when-not 1 2)", ir.If(C(1), NIL, C(2)), id="when-not"),
    pytest.param("(cond)", NIL, id="cond-empty"),
    pytest.param("(cond 1 2 :else 3)", ir.If(C(1), C(2), C(3)), id="cond-else"),
    pytest.param("(cond 1 2 nil 4)", ir.If(C(1), C(2), ir.If(NIL, C(4), NIL)), id="cond"),
    pytest.param("(cond 1 2 3 4)", ir.If(C(1), C(2), C(4)), id="cond-truthy-last-test"),
    pytest.param("(and)", C(True), id="and-empty"),
    pytest.param("(and 1)", C(1), id="and-one"),
    pytest.param("(and 1 2)", ir.And((C(1), C(2))), id="and"),
    pytest.param("(or)", NIL, id="or-empty"),
    pytest.param("(or 1 2)", ir.Or((C(1), C(2))), id="or"),
    pytest.param(
        "(or nope 1)", ir.Or((ir.UserRef("nope", lenient=True), C(1))), id="or-lenient-bare-symbol"
    ),
    pytest.param("(return 1)", ir.Return(C(1)), id="return"),
    pytest.param("(fail {:a 1})", ir.Fail(ir.MapLit(((K("a"), C(1)),))), id="fail"),
    pytest.param("(let [x 1] x)", ir.Let((("v1_x", C(1)),), L("v1_x")), id="let"),
    pytest.param("(let [] 1)", C(1), id="let-empty"),
    pytest.param(
        "(let [x 1 y x] y)",
        ir.Let((("v1_x", C(1)), ("v2_y", L("v1_x"))), L("v2_y")),
        id="let-sequential",
    ),
    pytest.param(
        "(let [user-id 1] user-id)",
        ir.Let((("v1_user_id", C(1)),), L("v1_user_id")),
        id="ident-sanitized",
    ),
    pytest.param(
        "(let [x 1] (let [x 2] x))",
        ir.Let((("v1_x", C(1)),), ir.Let((("v2_x", C(2)),), L("v2_x"))),
        id="shadowing",
    ),
    pytest.param(
        "(loop [i 0] (if i (recur 1) i))",
        ir.Loop((("v1_i", C(0)),), ir.If(L("v1_i"), ir.Recur((C(1),)), L("v1_i"))),
        id="loop-recur",
    ),
    pytest.param("(fn [x] x)", ir.Fn((ir.FnArity(("v1_x",), None, L("v1_x")),)), id="fn"),
    pytest.param("(fn [& xs] xs)", ir.Fn((ir.FnArity((), "v1_xs", L("v1_xs")),)), id="fn-rest"),
    pytest.param(
        "(fn f [x] (f x))",
        ir.Fn((ir.FnArity(("v2_x",), None, call(L("v1_f"), L("v2_x"))),), "v1_f", "f"),
        id="fn-named-self",
    ),
    pytest.param(
        "(fn [x] (recur 1))",
        ir.Fn((ir.FnArity(("v1_x",), None, ir.Recur((C(1),))),)),
        id="fn-recur",
    ),
    pytest.param(
        "(fn ([x y] 2) ([x] 1) ([x y & z] 3))",
        ir.Fn(
            (
                ir.FnArity(("v3_x",), None, C(1)),
                ir.FnArity(("v1_x", "v2_y"), None, C(2)),
                ir.FnArity(("v4_x", "v5_y"), "v6_z", C(3)),
            )
        ),
        id="fn-multi-arity-sorted",
    ),
    pytest.param("(def x 1)", ir.Def("x", C(1)), id="def"),
    pytest.param('(def x "doc" 1)', ir.Def("x", C(1), doc="doc"), id="def-doc"),
    pytest.param("(defonce x 1)", ir.Def("x", C(1), once=True), id="defonce"),
    pytest.param("(def x 1) x", ir.Do((ir.Def("x", C(1)), ir.UserRef("x"))), id="def-then-use"),
    pytest.param(
        "(def x (or x 1))",
        ir.Def("x", ir.Or((ir.UserRef("x", lenient=True), C(1)))),
        id="def-self-or",
    ),
    pytest.param(
        "(def x (inc x))",
        ir.Def("x", call(B("inc"), ir.UserRef("x", lenient=True))),
        id="def-self-lenient",
    ),
    pytest.param(
        "(def inc (inc 1))",
        ir.Def("inc", call(B("inc"), C(1))),
        id="def-builtin-name-self-is-builtin",
    ),
    pytest.param(
        "(do (def x 1)) x", ir.Do((ir.Def("x", C(1)), ir.UserRef("x"))), id="def-in-do-visible"
    ),
    pytest.param(
        "(let [a 1] (def x a)) x",
        ir.Do((ir.Let((("v1_a", C(1)),), ir.Def("x", L("v1_a"))), ir.UserRef("x"))),
        id="def-in-let-visible",
    ),
    pytest.param(
        "(when 1 (def x 1)) x",
        ir.Do((ir.If(C(1), ir.Def("x", C(1)), C(None)), ir.UserRef("x"))),
        id="def-in-when-visible",
    ),
    pytest.param(
        '(defn f "d" [x] x)',
        ir.Def(
            "f", ir.Fn((ir.FnArity(("v1_x",), None, L("v1_x")),), None, "f", None, "d"), doc="d"
        ),
        id="defn-doc",
    ),
    pytest.param(
        '(defn f {:signature "(x :int) -> :int" :doc "d"} [x] x)',
        ir.Def(
            "f",
            ir.Fn(
                (ir.FnArity(("v1_x",), None, L("v1_x")),),
                None,
                "f",
                "(x :int) -> :int",
                "d",
                contract=to_text(parse_signature("(x :int) -> :int")),
            ),
            doc="d",
        ),
        id="defn-attr-map",
    ),
    pytest.param(
        "(defn f [n] (f n))",
        ir.Def(
            "f", ir.Fn((ir.FnArity(("v1_n",), None, call(ir.UserRef("f"), L("v1_n"))),), None, "f")
        ),
        id="defn-self-call",
    ),
    pytest.param(
        "(defn f ([] (f 1)) ([x] x))",
        ir.Def(
            "f",
            ir.Fn(
                (
                    ir.FnArity((), None, call(ir.UserRef("f"), C(1))),
                    ir.FnArity(("v1_x",), None, L("v1_x")),
                ),
                None,
                "f",
            ),
        ),
        id="defn-multi-arity",
    ),
    pytest.param(
        "#(+ % %2)",
        ir.Fn((ir.FnArity(("v1_p1", "v2_p2"), None, call(B("+"), L("v1_p1"), L("v2_p2"))),)),
        id="short-fn",
    ),
    pytest.param(
        "#(%2)",
        ir.Fn((ir.FnArity(("v2_p1", "v1_p2"), None, call(L("v1_p2"))),)),
        id="short-fn-missing-first",
    ),
    pytest.param(
        "#(vector %1 %&)",
        ir.Fn((ir.FnArity(("v1_p1",), "v2_rest", call(B("vector"), L("v1_p1"), L("v2_rest"))),)),
        id="short-fn-rest",
    ),
    pytest.param(
        "#(42)", ir.Fn((ir.FnArity((), None, call(C(42))),)), id="short-fn-literal-called"
    ),
    pytest.param("#()", ir.Fn((ir.FnArity((), None, NIL),)), id="short-fn-empty"),
    pytest.param(
        "#(when % 1)",
        ir.Fn((ir.FnArity(("v1_p1",), None, ir.If(L("v1_p1"), C(1), NIL)),)),
        id="short-fn-special-head",
    ),
    pytest.param("(-> 1 inc (+ 2))", call(B("+"), call(B("inc"), C(1)), C(2)), id="thread-first"),
    pytest.param("(->> 1 inc (+ 2))", call(B("+"), C(2), call(B("inc"), C(1))), id="thread-last"),
    pytest.param("(-> {:a 1} :a)", call(K("a"), ir.MapLit(((K("a"), C(1)),))), id="thread-keyword"),
    pytest.param("(-> 1 (return))", ir.Return(C(1)), id="thread-special-head"),
    pytest.param("(-> 1 (if 2))", ir.If(C(1), C(2), NIL), id="thread-into-if"),
    pytest.param(
        "(as-> 1 v (+ v 1) (* v 2))",
        ir.Let(
            (("v1_v", C(1)), ("v2_v", call(B("+"), L("v1_v"), C(1)))), call(B("*"), L("v2_v"), C(2))
        ),
        id="as-thread",
    ),
    pytest.param("(as-> 1 v)", C(1), id="as-thread-no-steps"),
    pytest.param("(:k {:k 1})", call(K("k"), ir.MapLit(((K("k"), C(1)),))), id="keyword-call"),
    pytest.param("data/user-id", ir.DataRef("user-id"), id="data-ref"),
    pytest.param("tool/search", ir.ToolRef("search"), id="tool-ref"),
    pytest.param("*1", ir.HistoryRef(1), id="history"),
    pytest.param("#'inc", B("inc"), id="var-quote"),
    pytest.param("(tool/search)", ir.ToolCall("search", None), id="tool-call-no-args"),
    pytest.param(
        "(tool/search {:q 1})",
        ir.ToolCall("search", ir.MapLit(((K("q"), C(1)),))),
        id="tool-call-map",
    ),
    pytest.param(
        "(tool/search :q 1 :n 2)",
        ir.ToolCall("search", ir.MapLit(((K("q"), C(1)), (K("n"), C(2))))),
        id="tool-call-keyword-pairs",
    ),
    pytest.param(
        "(let [m {}] (tool/search m))",
        ir.Let((("v1_m", ir.MapLit(())),), ir.ToolCall("search", L("v1_m"))),
        id="tool-call-expr-arg",
    ),
    pytest.param("(str/join [])", call(B("join"), ir.VectorLit(())), id="ns-str"),
    pytest.param("clojure.string/join", B("join"), id="ns-clojure-string"),
    pytest.param("string/join", B("join"), id="ns-string"),
    pytest.param("set/union", B("union"), id="ns-set"),
    pytest.param("clojure.set/union", B("union"), id="ns-clojure-set"),
    pytest.param("walk/postwalk", B("postwalk"), id="ns-walk"),
    pytest.param("regex/re-find", B("re-find"), id="ns-regex"),
    pytest.param("json/parse-string", B("json/parse-string"), id="ns-json"),
    pytest.param("core/map", B("map"), id="ns-core"),
    pytest.param(
        "(def map 1) clojure.core/map",
        ir.Do((ir.Def("map", C(1)), B("map"))),
        id="ns-core-bypasses-defs",
    ),
    pytest.param(
        "(let [inc 1] clojure.core/inc)",
        ir.Let((("v1_inc", C(1)),), B("inc")),
        id="ns-core-bypasses-locals",
    ),
    pytest.param(
        "(def map 1) map", ir.Do((ir.Def("map", C(1)), ir.UserRef("map"))), id="def-shadows-builtin"
    ),
    pytest.param("(Math/abs -1)", call(B("Math/abs"), C(-1)), id="java-static"),
    pytest.param("Integer/parseInt", B("Integer/parseInt"), id="java-static-value"),
    pytest.param("java.time.LocalDate/parse", B("LocalDate/parse"), id="java-canonical-class"),
    pytest.param(
        "(System/currentTimeMillis)", call(B("System/currentTimeMillis")), id="java-system"
    ),
    pytest.param("Double/POSITIVE_INFINITY", ir.Const(float("inf")), id="java-constant-folded"),
    pytest.param('(.indexOf "ab" "b")', call(B(".indexOf"), C("ab"), C("b")), id="java-method"),
    pytest.param("(java.util.Date.)", call(B("java.util.Date.")), id="java-constructor"),
    pytest.param("(doc str/join)", call(B("doc"), C("str/join")), id="doc-auto-quote"),
    pytest.param("(doc map)", call(B("doc"), C("map")), id="doc-auto-quote-bare"),
    pytest.param(
        "(let [x 1] (doc x))",
        ir.Let((("v1_x", C(1)),), call(B("doc"), L("v1_x"))),
        id="doc-local-not-quoted",
    ),
    pytest.param("(apply + [1])", call(B("apply"), B("+"), ir.VectorLit((C(1),))), id="apply"),
    pytest.param("(juxt inc)", call(B("juxt"), B("inc")), id="juxt"),
    pytest.param("(range 3)", call(B("range"), C(3)), id="range-bounded"),
    pytest.param("(repeat 2 :x)", call(B("repeat"), C(2), K("x")), id="repeat-bounded"),
    pytest.param(
        "(let [when inc] (when 1))",
        ir.Let((("v1_when", B("inc")),), call(L("v1_when"), C(1))),
        id="local-shadows-macro",
    ),
    pytest.param(
        "(let [if inc] (if 1 2))",
        ir.Let((("v1_if", B("inc")),), ir.If(C(1), C(2), NIL)),
        id="if-never-shadowed",
    ),
    pytest.param(
        "((fn [x] x) 1)",
        call(ir.Fn((ir.FnArity(("v1_x",), None, L("v1_x")),)), C(1)),
        id="call-any-head",
    ),
]


@pytest.mark.parametrize(("src", "want"), EXACT)
def test_exact_ir(src: str, want: ir.Node) -> None:
    assert body(src) == want


# --- shapes of desugared forms ------------------------------------------------------


def test_case_desugars_to_let_and_equality_chain() -> None:
    node = body("(case 1 1 :a (2 3) :b :c)")
    eq = B("=")
    assert node == ir.Let(
        (("v1_case", C(1)),),
        ir.If(
            call(eq, L("v1_case"), C(1)),
            K("a"),
            ir.If(
                ir.Or((call(eq, L("v1_case"), C(2)), call(eq, L("v1_case"), C(3)))), K("b"), K("c")
            ),
        ),
    )


def test_case_without_default_is_nil() -> None:
    node = body('(case "x" "y" 1)')
    assert isinstance(node, ir.Let) and isinstance(node.body, ir.If)
    assert node.body.else_ == NIL


def test_condp() -> None:
    node = body("(condp = 1 2 :two :other)")
    assert node == ir.Let(
        (("v1_pred", B("=")), ("v2_condp", C(1))),
        ir.If(call(L("v1_pred"), C(2), L("v2_condp")), K("two"), K("other")),
    )


@pytest.mark.parametrize(
    ("src", "test"),
    [
        pytest.param("(if-let [x 1] x 2)", L("v1_x"), id="if-let"),
        pytest.param("(when-let [x 1] x)", L("v1_x"), id="when-let"),
        pytest.param("(if-some [x 1] x)", call(B("some?"), L("v1_x")), id="if-some-no-else"),
        pytest.param("(when-some [x 1] x)", call(B("some?"), L("v1_x")), id="when-some"),
    ],
)
def test_if_let_family(src: str, test: ir.Node) -> None:
    node = body(src)
    assert isinstance(node, ir.Let) and node.bindings == (("v1_x", C(1)),)
    assert isinstance(node.body, ir.If) and node.body.test == test
    assert node.body.then == L("v1_x")


def test_if_let_destructures_and_else_does_not_see_binding() -> None:
    node = body("(let [a 0] (if-let [[a] [1]] a a))")
    assert isinstance(node, ir.Let)
    inner = node.body
    assert isinstance(inner, ir.Let) and isinstance(inner.body, ir.If)
    then, else_ = inner.body.then, inner.body.else_
    assert else_ == L("v1_a")
    assert isinstance(then, ir.Let) and then.body == L("v4_a")


def test_when_first() -> None:
    node = body("(when-first [x [1]] x)")
    assert node == ir.Let(
        (("v1_seq", ir.RtCall("ds_seq", (ir.VectorLit((C(1),)),))),),
        ir.If(
            L("v1_seq"),
            ir.Let((("v2_x", ir.RtCall("ds_nth", (L("v1_seq"), C(0)))),), L("v2_x")),
            NIL,
        ),
    )


def test_vector_destructuring() -> None:
    node = body("(let [[a [b] & more :as all] [1]] [a b more all])")
    assert isinstance(node, ir.Let)
    names = [name for name, _ in node.bindings]
    assert names == ["v1_vec", "v2_a", "v3_vec", "v4_b", "v5_more", "v6_all"]
    values = dict(node.bindings)
    assert values["v2_a"] == ir.RtCall("ds_nth", (L("v1_vec"), C(0)))
    assert values["v3_vec"] == ir.RtCall(
        "ds_check_vec", (ir.RtCall("ds_nth", (L("v1_vec"), C(1))),)
    )
    assert values["v5_more"] == ir.RtCall("ds_rest", (L("v1_vec"), C(2)))
    assert values["v6_all"] == L("v1_vec")


def test_map_destructuring() -> None:
    node = body('(let [{:keys [a :b] :strs [c] d "dd" :or {a 1 d (inc 2)} :as m} {}] [a b c d m])')
    assert isinstance(node, ir.Let)
    values = dict(node.bindings)
    assert values["v1_map"] == ir.RtCall("ds_check_map", (ir.MapLit(()),))
    assert values["v2_m"] == L("v1_map")
    assert values["v3_a"] == ir.RtCall("ds_get_or", (L("v1_map"), K("a"), C(1)))
    assert values["v4_b"] == ir.RtCall("ds_get", (L("v1_map"), K("b")))
    assert values["v5_c"] == ir.RtCall("ds_get", (L("v1_map"), C("c")))
    assert values["v6_d"] == ir.If(
        ir.RtCall("ds_has", (L("v1_map"), C("dd"))),
        ir.RtCall("ds_get", (L("v1_map"), C("dd"))),
        call(B("inc"), C(2)),
    )


def test_nested_map_pattern_and_rest_map() -> None:
    node = body("(let [{{:keys [z]} :addr} {} [x & {:keys [k]}] []] [z k])")
    assert isinstance(node, ir.Let)
    helpers = [v.helper for _, v in node.bindings if isinstance(v, ir.RtCall)]
    assert helpers == [
        "ds_check_map",
        "ds_check_map",
        "ds_get",
        "ds_check_vec",
        "ds_nth",
        "ds_check_map",
        "ds_get",
    ]
    rest_map = [v for _, v in node.bindings if isinstance(v, ir.RtCall)][5]
    assert rest_map.args[0] == ir.RtCall("ds_rest_map", (L("v4_vec"), C(1)))


def test_fn_param_destructuring() -> None:
    node = body("(fn [[a] & {:keys [k]}] [a k])")
    assert isinstance(node, ir.Fn)
    (arity,) = node.arities
    assert arity.params == ("v1_arg",) and arity.rest == "v2_rest"
    assert isinstance(arity.body, ir.Let)
    assert arity.body.bindings[0] == ("v3_vec", ir.RtCall("ds_check_vec", (L("v1_arg"),)))
    rest_map = ir.RtCall("ds_rest_map", (L("v2_rest"), C(0)))
    assert ("v5_map", ir.RtCall("ds_check_map", (rest_map,))) in arity.body.bindings


def test_loop_with_destructuring() -> None:
    node = body("(loop [[a & r] [1 2] n a] (if r (recur r (+ n a)) n))")
    assert isinstance(node, ir.Let)
    loop = node.body
    assert isinstance(loop, ir.Loop)
    assert len(loop.bindings) == 2
    assert isinstance(loop.body, ir.Let)
    # the init `n a` sees the outer destructured `a`
    outer = dict(node.bindings)
    assert outer["v9_n"] == L("v3_a")
    assert loop.bindings == (("v5_loop", L("v1_init")), ("v10_n", L("v9_n")))


def test_for_with_modifiers() -> None:
    node = body("(for [x [1 2] :when x :let [[y] [x]] :while y z [3]] [x y z])")
    assert isinstance(node, ir.For) and node.collect
    kinds = [type(c).__name__ for c in node.clauses]
    assert kinds == ["ForBind", "ForWhen", "ForLet", "ForWhile", "ForBind"]


def test_doseq_destructuring_binding() -> None:
    node = body("(doseq [[k v] {:a 1}] (println k v))")
    assert isinstance(node, ir.For) and not node.collect
    assert isinstance(node.clauses[0], ir.ForBind) and node.clauses[0].ident == "v1_item"
    assert isinstance(node.clauses[1], ir.ForLet)


def test_cond_thread() -> None:
    node = body("(cond-> 1 true inc false (+ 2))")
    assert node == ir.Let(
        (
            ("v1_cond", C(1)),
            ("v2_cond", ir.If(C(True), call(B("inc"), L("v1_cond")), L("v1_cond"))),
            ("v3_cond", ir.If(C(False), call(B("+"), L("v2_cond"), C(2)), L("v2_cond"))),
        ),
        L("v3_cond"),
    )


def test_cond_thread_last() -> None:
    node = body("(cond->> 1 true (+ 2))")
    assert isinstance(node, ir.Let)
    assert node.bindings[1][1] == ir.If(C(True), call(B("+"), C(2), L("v1_cond")), L("v1_cond"))


def test_some_thread() -> None:
    node = body("(some->> 1 (+ 2) inc)")
    nilp = B("nil?")
    assert node == ir.Let(
        (("v1_some", C(1)),),
        ir.If(
            call(nilp, L("v1_some")),
            NIL,
            ir.Let(
                (("v2_some", call(B("+"), C(2), L("v1_some"))),),
                ir.If(call(nilp, L("v2_some")), NIL, call(B("inc"), L("v2_some"))),
            ),
        ),
    )


def test_recur_in_thread_tail() -> None:
    node = body("(loop [x 1] (-> x (recur)))")
    assert node == ir.Loop((("v1_x", C(1)),), ir.Recur((L("v1_x"),)))


def test_recur_inside_short_fn() -> None:
    node = body("#(if % (recur nil) 1)")
    assert isinstance(node, ir.Fn)


def test_program_facts() -> None:
    prog = analyze(
        read("(def a data/x) (defn f [] (tool/search)) (when 1 (def b 2)) tool/fetch"), ENV
    )
    # a def in a nested body is known from then on, as in Clojure; one in a fn body is not
    assert prog.defines == frozenset({"a", "f", "b"})
    assert prog.tools == frozenset({"search", "fetch"})
    assert prog.data_keys == frozenset({"x"})


def test_user_names_from_env() -> None:
    env = AnalysisEnv(user_names=frozenset({"seen"}), builtins=REGISTRY)
    assert body("seen", env) == ir.UserRef("seen")


def test_tools_not_checked_when_none() -> None:
    env = AnalysisEnv(builtins=REGISTRY)
    assert body("(tool/anything)", env) == ir.ToolCall("anything", None)


# --- errors -------------------------------------------------------------------------

ERRORS = [
    # (source, code, line, column, hint substring or None)
    pytest.param("()", "invalid_form", 1, 1, None, id="empty-list"),
    pytest.param("(if)", "invalid_arity", 1, 1, None, id="if-arity"),
    pytest.param("(if 1 2 3 4)", "invalid_arity", 1, 1, None, id="if-too-many"),
    pytest.param("(if-not 1)", "invalid_arity", 1, 1, None, id="if-not-arity"),
    pytest.param("(when)", "invalid_arity", 1, 1, None, id="when-arity"),
    pytest.param("(cond 1)", "invalid_cond_form", 1, 1, ":else", id="cond-odd"),
    pytest.param("(case)", "invalid_form", 1, 1, None, id="case-empty"),
    pytest.param("(case 1 x 2)", "invalid_form", 1, 9, "cond", id="case-symbol-constant"),
    pytest.param("(case 1 [x] 2)", "invalid_form", 1, 9, None, id="case-vector-of-a-symbol"),
    pytest.param("(case 1 {:a (f)} 2)", "invalid_form", 1, 9, None, id="case-map-of-a-call"),
    pytest.param("(case 1 () 2)", "invalid_form", 1, 9, None, id="case-empty-group"),
    pytest.param("(case 1 ((1)) 2)", "invalid_form", 1, 10, None, id="case-nested-group"),
    pytest.param("(condp = 1)", "invalid_arity", 1, 1, None, id="condp-arity"),
    pytest.param("(condp = 1 2 :>>)", "invalid_form", 1, 14, None, id="condp-arrow-without-fn"),
    pytest.param("(let)", "invalid_arity", 1, 1, None, id="let-no-vector"),
    pytest.param("(let x 1)", "invalid_form", 1, 6, None, id="let-not-vector"),
    pytest.param("(let [x] x)", "invalid_form", 1, 6, None, id="let-odd"),
    pytest.param("(let [1 2] 3)", "invalid_form", 1, 7, None, id="let-bad-pattern"),
    pytest.param("(let [a/b 1] 3)", "invalid_form", 1, 7, None, id="let-qualified"),
    pytest.param("(let [.x 1] 3)", "invalid_form", 1, 7, None, id="let-java-method"),
    pytest.param("(let [% 1] 3)", "invalid_placeholder", 1, 7, None, id="let-placeholder"),
    pytest.param("(let [[a &] 1] a)", "invalid_form", 1, 10, None, id="amp-without-pattern"),
    pytest.param("(let [[& a b] 1] a)", "invalid_form", 1, 12, None, id="amp-two-patterns"),
    pytest.param("(let [[a :as] 1] a)", "invalid_form", 1, 10, None, id="vector-as-missing"),
    pytest.param("(let [[a :or] 1] a)", "unsupported_pattern", 1, 10, None, id="vector-bad-kw"),
    pytest.param("(let [{:syms [a]} 1] a)", "unsupported_pattern", 1, 8, None, id="map-syms"),
    pytest.param("(let [{:keys a} 1] a)", "invalid_form", 1, 14, None, id="map-keys-not-vector"),
    pytest.param("(let [{:keys [1]} 1] 1)", "unsupported_pattern", 1, 15, None, id="map-keys-bad"),
    pytest.param("(let [{:or [a 1] :keys [a]} 1] a)", "invalid_form", 1, 12, None, id="map-or-bad"),
    pytest.param("(if-let [x] 1)", "invalid_form", 1, 9, None, id="if-let-one-form"),
    pytest.param("(if-let [x 1 y 2] 1)", "invalid_form", 1, 9, None, id="if-let-two-pairs"),
    pytest.param("(if-let [x 1])", "invalid_arity", 1, 1, None, id="if-let-no-then"),
    pytest.param("(when-let x 1)", "invalid_form", 1, 1, None, id="when-let-no-vector"),
    pytest.param("(fn)", "invalid_arity", 1, 1, None, id="fn-empty"),
    pytest.param("(fn x)", "invalid_arity", 1, 1, None, id="fn-name-only"),
    pytest.param("(fn 1)", "invalid_form", 1, 5, None, id="fn-bad-params"),
    pytest.param("(fn [& a b] 1)", "invalid_form", 1, 6, None, id="fn-amp"),
    pytest.param("(fn ([x] 1) ([y] 2))", "invalid_form", 1, 13, None, id="fn-duplicate-arity"),
    pytest.param("(fn ([& x] 1) ([& y] 2))", "invalid_form", 1, 1, None, id="fn-two-variadic"),
    pytest.param(
        "(fn ([a b c] 1) ([& y] 2))", "invalid_form", 1, 1, None, id="fn-fixed-above-variadic"
    ),
    pytest.param("(def)", "invalid_arity", 1, 1, None, id="def-empty"),
    pytest.param("(def x)", "invalid_arity", 1, 1, "value", id="def-no-value"),
    pytest.param("(def 1 2)", "invalid_form", 1, 6, None, id="def-not-symbol"),
    pytest.param("(def [a] 2)", "invalid_form", 1, 6, "let", id="def-destructure"),
    pytest.param("(def a/b 2)", "invalid_form", 1, 6, None, id="def-qualified"),
    pytest.param("(def .length 2)", "invalid_form", 1, 6, None, id="def-java-member"),
    pytest.param("(def x 1 2 3)", "invalid_arity", 1, 1, None, id="def-too-many"),
    pytest.param("(defn f)", "invalid_arity", 1, 1, None, id="defn-no-params"),
    pytest.param("(defn)", "invalid_arity", 1, 1, None, id="defn-empty"),
    pytest.param('(defn f "doc")', "invalid_arity", 1, 1, None, id="defn-doc-only"),
    pytest.param(
        "(defn f {:signature 1} [x] x)", "invalid_form", 1, 21, None, id="defn-attr-not-string"
    ),
    pytest.param(
        "(loop [x 1] (+ 1 (recur 2)))", "invalid_form", 1, 18, "last", id="recur-not-tail"
    ),
    pytest.param("(recur 1)", "invalid_form", 1, 1, None, id="recur-no-target"),
    pytest.param("(loop [x 1] (recur 1 2))", "arity_error", 1, 13, None, id="recur-count"),
    pytest.param("(fn [x & r] (recur 1))", "arity_error", 1, 13, None, id="recur-fn-count"),
    pytest.param(
        "(loop [x 1] (for [y [1]] (recur y)))", "invalid_form", 1, 26, None, id="recur-in-for"
    ),
    pytest.param(
        "(loop [x 1] (do (recur 1) 2))", "invalid_form", 1, 17, None, id="recur-not-last-in-do"
    ),
    pytest.param(
        "(loop [x 1] (and (recur 1) 2))", "invalid_form", 1, 18, None, id="recur-in-and-not-last"
    ),
    pytest.param(
        "(loop [x 1] (let [y (recur 1)] y))", "invalid_form", 1, 21, None, id="recur-in-binding"
    ),
    pytest.param("#(recur 1 2)", "arity_error", 1, 1, None, id="recur-short-fn-count"),
    pytest.param("(for [x [1]])", "invalid_arity", 1, 1, None, id="for-no-body"),
    pytest.param("(for x 1)", "invalid_form", 1, 1, None, id="for-no-vector"),
    pytest.param("(for [] 1)", "invalid_form", 1, 6, None, id="for-empty-bindings"),
    pytest.param("(for [:when 1] 1)", "invalid_form", 1, 7, None, id="for-modifier-first"),
    pytest.param("(for [x [1] :until 1] 1)", "invalid_form", 1, 13, None, id="for-unknown-mod"),
    pytest.param("(for [x [1] :when] 1)", "invalid_form", 1, 13, None, id="for-mod-no-value"),
    pytest.param("(for [x [1] :let y] 1)", "invalid_form", 1, 18, None, id="for-let-not-vector"),
    pytest.param("(for [x] 1)", "invalid_form", 1, 7, None, id="for-odd"),
    pytest.param("(doseq [x 5] 1)", "invalid_arity", 1, 11, None, id="doseq-number-coll"),
    pytest.param("(for [x :a] 1)", "invalid_arity", 1, 9, None, id="for-keyword-coll"),
    pytest.param("(->)", "invalid_thread_form", 1, 1, None, id="thread-empty"),
    pytest.param("(->>)", "invalid_thread_form", 1, 1, None, id="thread-last-empty"),
    pytest.param("(cond-> 1 true)", "invalid_thread_form", 1, 1, None, id="cond-thread-odd"),
    pytest.param("(as-> 1 [x] x)", "invalid_thread_form", 1, 9, None, id="as-thread-bad-name"),
    pytest.param("(as-> 1)", "invalid_thread_form", 1, 1, None, id="as-thread-no-name"),
    pytest.param("(some->)", "invalid_thread_form", 1, 1, None, id="some-thread-empty"),
    pytest.param("(-> 1 nil)", "not_callable", 1, 7, None, id="thread-nil-step"),
    pytest.param("(return)", "invalid_arity", 1, 1, None, id="return-arity"),
    pytest.param("(fail 1 2)", "invalid_arity", 1, 1, None, id="fail-arity"),
    pytest.param("(quote)", "invalid_arity", 1, 1, None, id="quote-arity"),
    pytest.param("(quote 1)", "invalid_form", 1, 8, None, id="quote-non-symbol"),
    pytest.param("(quote nil)", "invalid_form", 1, 8, None, id="quote-nil"),
    pytest.param("%", "invalid_placeholder", 1, 1, "#(", id="placeholder-outside"),
    pytest.param("(fn [x] %2)", "invalid_placeholder", 1, 9, None, id="placeholder-in-fn"),
    pytest.param("#(+ %21 1)", "invalid_form", 1, 5, None, id="placeholder-above-20"),
    pytest.param("{:a 1 :a 2}", "duplicate_key", 1, 7, None, id="duplicate-map-key"),
    pytest.param("#{1 1}", "duplicate_key", 1, 5, None, id="duplicate-set-element"),
    pytest.param("{[1 :a] 1 [1 :a] 2}", "duplicate_key", 1, 11, None, id="duplicate-vector-key"),
    pytest.param("(tool/search :q 1 :q 2)", "duplicate_key", 1, 19, None, id="duplicate-tool-arg"),
    pytest.param("nope", "unbound_var", 1, 1, None, id="unbound"),
    pytest.param("(do 1\n  (nope 2))", "unbound_var", 2, 4, None, id="unbound-position"),
    pytest.param("(fn [] (def y 1)) y", "unbound_var", 1, 19, None, id="def-in-fn-not-visible"),
    pytest.param("(defn- f [] 1)", "unbound_var", 1, 2, "component source", id="defn-private"),
    pytest.param("(ns foo)", "unbound_var", 1, 2, "component source", id="ns"),
    pytest.param("(map when [1])", "unbound_var", 1, 6, "special form", id="special-as-value"),
    pytest.param("return", "unbound_var", 1, 1, "(return ...)", id="return-bare"),
    pytest.param('(printf "x")', "unbound_var", 1, 2, "println", id="printf"),
    pytest.param('(spit "f" 1)', "unbound_var", 1, 2, "file I/O", id="spit"),
    pytest.param('(slurp "f")', "unbound_var", 1, 2, "file I/O", id="slurp"),
    pytest.param("(require 'x)", "unbound_var", 1, 2, "namespace loading", id="require"),
    pytest.param("(import 'x)", "unbound_var", 1, 2, "Java", id="import"),
    pytest.param("(try 1 (catch e 2))", "unbound_var", 1, 2, "fail", id="try"),
    pytest.param("(throw 1)", "unbound_var", 1, 2, "fail", id="throw"),
    pytest.param("(get-in {} [] user_name)", "unbound_var", 1, 15, "user-name", id="underscore"),
    pytest.param("(fliter odd? [1])", "unbound_var", 1, 2, "Did you mean: filter", id="typo"),
    pytest.param("(range)", "invalid_arity", 1, 1, "bound", id="range-infinite"),
    pytest.param("(repeat 1)", "invalid_arity", 1, 1, "count", id="repeat-infinite"),
    pytest.param("(cycle [1])", "invalid_arity", 1, 1, None, id="cycle-infinite"),
    pytest.param("(iterate inc)", "invalid_arity", 1, 1, None, id="iterate-infinite"),
    pytest.param("(apply inc)", "invalid_arity", 1, 1, "apply", id="apply-arity"),
    pytest.param("(juxt)", "invalid_arity", 1, 1, None, id="juxt-arity"),
    pytest.param("(tool/nope)", "unknown_tool", 1, 2, None, id="unknown-tool"),
    pytest.param("(if false tool/nope 1)", "unknown_tool", 1, 11, None, id="unknown-tool-ref"),
    pytest.param(
        '(tool/search "q")',
        "invalid_tool_args",
        1,
        14,
        "tool/search {:key",
        id="tool-positional-string",
    ),
    pytest.param(
        "(tool/search 5)", "invalid_tool_args", 1, 14, "number 5", id="tool-positional-number"
    ),
    pytest.param(
        "(tool/search [1])", "invalid_tool_args", 1, 14, None, id="tool-positional-vector"
    ),
    pytest.param("(tool/search :q)", "invalid_tool_args", 1, 14, None, id="tool-odd-pairs"),
    pytest.param(
        "(tool/search :q 1 2 3)", "invalid_tool_args", 1, 19, None, id="tool-pair-not-keyword"
    ),
    pytest.param("(tool/search {} {})", "invalid_tool_args", 1, 17, None, id="tool-two-args"),
    pytest.param("(data/x)", "not_callable", 1, 2, "without parentheses", id="data-called"),
    pytest.param("(nil 1)", "not_callable", 1, 2, None, id="nil-called"),
    pytest.param("(. s length)", "invalid_form", 1, 1, None, id="dot-form"),
    pytest.param("(str/title-case 1)", "invalid_form", 1, 2, None, id="unknown-ns-member"),
    pytest.param(
        "(cheshire.core/parse-string 1)", "invalid_form", 1, 2, None, id="unknown-namespace"
    ),
    pytest.param("(foo/bar 1)", "invalid_form", 1, 2, None, id="unknown-namespace-plain"),
    pytest.param("(Math/log 1)", "unsupported_java_member", 1, 2, None, id="java-member"),
    pytest.param(
        "(String/valueOf 1)", "unsupported_java_member", 1, 2, None, id="java-member-known-class"
    ),
    pytest.param(
        '(java.io.File/exists "x")', "unsupported_java_class", 1, 2, None, id="java-class"
    ),
    pytest.param("(Thread/sleep 1)", "unsupported_java_class", 1, 2, None, id="java-class-short"),
    pytest.param(
        '(.toUpperCase "x")', "unsupported_java_member", 1, 2, None, id="java-method-unknown"
    ),
    pytest.param('(String. "x")', "unsupported_java_class", 1, 2, None, id="java-constructor"),
    pytest.param('#"[a-"', "invalid_form", 1, 1, None, id="bad-regex"),
]


@pytest.mark.parametrize(("src", "code", "line", "column", "hint"), ERRORS)
def test_errors(src: str, code: str, line: int, column: int, hint: str | None) -> None:
    err = fails(src)
    assert (err.code, err.line, err.column) == (code, line, column), err.message
    if hint is not None:
        assert err.hint is not None and hint in err.hint, err.hint


def test_unknown_tool_messages() -> None:
    err = fails("(tool/nope)")
    assert err.message == "Unknown tool: nope. Available tools: fetch, search"
    err = fails("(tool/nope)", AnalysisEnv(builtins=REGISTRY, tools=frozenset()))
    assert err.message == "Unknown tool: nope. No tools available."


def test_namespace_messages() -> None:
    err = fails("(str/title-case 1)")
    assert err.message.startswith("title-case is not available. String functions: ")
    assert "join" in err.message
    err = fails("(cheshire.core/parse-string 1)")
    assert "unknown namespace cheshire.core/" in err.message
    assert "json/parse-string" in err.message


def test_dot_form_message() -> None:
    assert fails("(. s length)").message == (
        "(. obj method) syntax is not supported. Use (.method obj) instead."
    )


def test_empty_list_message() -> None:
    assert fails("()").message == "Empty list is not a valid expression"


# --- speed --------------------------------------------------------------------------

THIRTY_LINES = """
(defn score [order]
  (let [{:keys [amount status items]} order
        base (if (= status "paid") amount 0)]
    (+ base (* 0.1 (count items)))))
(defn summarize [orders]
  (let [paid (filter #(= (:status %) "paid") orders)
        total (reduce + 0 (map :amount paid))]
    {:count (count paid)
     :total total
     :avg (if (pos? (count paid)) (/ total (count paid)) 0)}))
(def threshold 100)
(let [orders data/orders
      big (filter #(> (:amount %) threshold) orders)
      scores (map score big)
      best (loop [xs scores best 0]
             (if (empty? xs)
               best
               (recur (rest xs) (max best (first xs)))))
      by-status (reduce (fn [acc o]
                          (assoc acc (:status o) (inc (get acc (:status o) 0))))
                        {}
                        orders)]
  (println "orders:" (count orders))
  (tool/search {:q (str "n" (count big))})
  (->> big (map :id) (filter some?) (into []))
  (case (count big) 0 :none (1 2) :few :many)
  {:summary (summarize orders)
   :best best
   :by-status by-status
   :labels (for [o big :when (> (:amount o) 200)] (str "order-" (:id o)))})
"""


def test_thirty_line_program_analyzes_deterministically() -> None:
    # The compile benchmark's program: it must analyze, and to the same IR every time
    # (the compile cache and AOT artifacts rely on analysis being a pure function).
    forms = read(THIRTY_LINES)
    first = analyze(forms, ENV)
    assert analyze(read(THIRTY_LINES), ENV) == first
