"""Whole programs through the public API: every special form, errors with positions, limits."""

from __future__ import annotations

import pytest

import ptc_compiler
from ptc_compiler import pr_str, run


def value_of(src: str, **kwargs: object) -> str:
    result = run(src, native=True, **kwargs)  # type: ignore[arg-type]
    assert result.error is None, result.error
    return pr_str(result.value)


PROGRAMS = [
    # do / if / when / cond / case / condp
    pytest.param("", "nil", id="empty-program"),
    pytest.param("1 2 3", "3", id="implicit-do"),
    pytest.param("(do)", "nil", id="do-empty"),
    pytest.param("(do 1 2)", "2", id="do"),
    pytest.param("(if 0 :t :f)", ":t", id="if-zero-truthy"),
    pytest.param('(if "" :t :f)', ":t", id="if-empty-string-truthy"),
    pytest.param("(if nil :t)", "nil", id="if-no-else"),
    pytest.param("(if-not false 1 2)", "1", id="if-not"),
    pytest.param("(when true 1 2)", "2", id="when"),
    pytest.param("(when false 1)", "nil", id="when-false"),
    pytest.param("(when-not false 5)", "5", id="when-not"),
    pytest.param("(cond false 1 nil 2 :else 3)", "3", id="cond-else"),
    pytest.param("(cond false 1)", "nil", id="cond-no-match"),
    pytest.param("(case 2 1 :one 2 :two :other)", ":two", id="case"),
    pytest.param("(case 9 1 :one :other)", ":other", id="case-default"),
    pytest.param("(case :b (:a :b) :ab :other)", ":ab", id="case-group"),
    pytest.param("(case 1.0 1 :one :other)", ":one", id="case-numeric-equality"),
    pytest.param("(case 5 1 :one)", "nil", id="case-no-match"),
    pytest.param("(condp = 2 1 :one 2 :two :none)", ":two", id="condp"),
    pytest.param("(condp < 50 10 :small 40 :medium :large)", ":small", id="condp-lt"),
    # :>> hands the predicate's value to the result fn (target GAP-S38; the Clojure campaign)
    pytest.param("(condp some [1 2] #{2} :>> inc :none)", "3", id="condp-arrow"),
    pytest.param("(condp some [1] #{5} :>> inc #{1} :one :none)", ":one", id="condp-arrow-miss"),
    pytest.param(
        "(condp get :b {:a 1} :>> inc {:b 10} :>> #(* 2 %) :none)", "20", id="condp-arrows"
    ),
    # let / destructuring
    pytest.param("(let [x 1 y (+ x 1)] [x y])", "[1 2]", id="let-sequential"),
    pytest.param("(let [x 1] (let [x 2] x))", "2", id="let-shadow"),
    pytest.param("(let [[a b & more] [1 2 3 4]] [a b more])", "[1 2 [3 4]]", id="destructure-vector"),
    pytest.param("(let [[a b] [1]] [a b])", "[1 nil]", id="destructure-short"),
    pytest.param("(let [[a [b c]] [1 [2 3]]] (+ a b c))", "6", id="destructure-nested"),
    pytest.param("(let [{:keys [a b]} {:a 1 :b 2}] (+ a b))", "3", id="destructure-keys"),
    pytest.param('(let [{:keys [user-id]} {"user_id" 7}] user-id)', "7", id="destructure-flexible"),
    pytest.param('(let [{:strs [a]} {"a" 5}] a)', "5", id="destructure-strs"),
    pytest.param("(let [{x :a} {:a 9}] x)", "9", id="destructure-rename"),
    pytest.param("(let [{:keys [a] :or {a 4}} {}] a)", "4", id="destructure-or"),
    pytest.param("(let [{:keys [a] :or {a 4}} {:a nil}] a)", "nil", id="destructure-or-present-nil"),
    pytest.param("(let [{:keys [a] :as m} {:a 1 :b 2}] [a (count m)])", "[1 2]", id="destructure-as"),
    pytest.param(
        "(let [{{:keys [zip]} :addr} {:addr {:zip \"1000\"}}] zip)", '"1000"', id="destructure-map-nested"
    ),
    pytest.param("((fn [& {:keys [a]}] a) :a 1)", "1", id="rest-map-pattern"),
    # if-let family
    pytest.param("(if-let [x 5] (inc x) :no)", "6", id="if-let"),
    pytest.param("(if-let [x nil] x :no)", ":no", id="if-let-nil"),
    pytest.param("(if-let [x false] x)", "nil", id="if-let-no-else"),
    pytest.param("(when-let [x 3] (* x x))", "9", id="when-let"),
    pytest.param("(if-some [x false] [x] :none)", "[false]", id="if-some-false-binds"),
    pytest.param("(when-some [x nil] :yes)", "nil", id="when-some"),
    pytest.param("(when-first [x [7 8]] x)", "7", id="when-first"),
    pytest.param("(when-first [x []] :yes)", "nil", id="when-first-empty"),
    # fn / defn / closures / multi-arity
    pytest.param("((fn [x] (* x 2)) 21)", "42", id="fn"),
    pytest.param("((fn [] ))", "nil", id="fn-empty-body"),
    pytest.param("((fn fact [n] (if (< n 2) 1 (* n (fact (dec n))))) 5)", "120", id="named-fn"),
    pytest.param("(defn add [a b] (+ a b)) (add 2 3)", "5", id="defn"),
    pytest.param('(defn greet "says hi" [n] (str "hi " n)) (greet "x")', '"hi x"', id="defn-doc"),
    pytest.param("(defn f ([] 0) ([x] x) ([x & r] (count r))) [(f) (f 1) (f 1 2 3)]", "[0 1 2]",
                 id="multi-arity-defn"),
    pytest.param("((fn ([x] :one) ([x y] :two)) 1 2)", ":two", id="multi-arity-fn"),
    pytest.param("(defn f [& xs] xs) (f)", "nil", id="empty-rest-is-nil"),
    pytest.param("(let [k 10 f (fn [x] (+ x k))] (f 1))", "11", id="closure"),
    pytest.param("(def fs (for [i [1 2 3]] (fn [] i))) (map (fn [f] (f)) fs)", "[1 2 3]",
                 id="closure-in-for-captures-value"),
    pytest.param(
        "(loop [i 0 acc []] (if (< i 3) (recur (inc i) (conj acc (fn [] i))) (map (fn [f] (f)) acc)))",
        "[0 1 2]",
        id="closure-in-loop-captures-value",
    ),
    pytest.param("(#(+ % %2) 1 2)", "3", id="short-fn"),
    pytest.param("(#(vector %1 %&) 1 2 3)", "[1 [2 3]]", id="short-fn-rest"),
    pytest.param("(map #(* % %) [1 2 3])", "[1 4 9]", id="short-fn-map"),
    # def / defonce
    pytest.param("(def x 1)", "#'x", id="def-returns-var"),
    pytest.param("(def x 1) (def x (inc x)) x", "2", id="redef"),
    pytest.param("(defonce c 0) (defonce c 5) c", "0", id="defonce"),
    pytest.param("(def x (or x 10)) x", "10", id="def-self-reference-first-turn"),
    pytest.param("(def map {:a 1}) (map :a)", "1", id="def-shadows-builtin"),
    pytest.param("(def m {:a 1}) (clojure.core/map inc [1])", "[2]", id="qualified-builtin"),
    pytest.param("(def inner 0) (defn f [] (def inner 5)) (f) inner", "5", id="def-inside-fn"),
    # loop / recur
    pytest.param("(loop [i 0 s 0] (if (< i 10) (recur (inc i) (+ s i)) s))", "45", id="loop"),
    pytest.param("(loop [[x & xs] [1 2 3] acc 0] (if x (recur xs (+ acc x)) acc))", "6",
                 id="loop-destructuring"),
    pytest.param("(defn cnt [n acc] (if (zero? n) acc (recur (dec n) (inc acc)))) (cnt 100000 0)",
                 "100000", id="fn-recur-deep"),
    pytest.param("(loop [x 1] (when (< x 5) (recur (* x 2))))", "nil", id="recur-in-when"),
    pytest.param("(loop [i 0] (cond (> i 3) i :else (recur (inc i))))", "4", id="recur-in-cond"),
    pytest.param("(loop [i 0] (and (< i 5) (recur (inc i))))", "false", id="recur-in-and"),
    # for / doseq
    pytest.param("(for [x [1 2 3 4] :when (even? x) :let [y (* x 10)]] y)", "[20 40]", id="for-when-let"),
    pytest.param("(for [x [1 2] y [:a :b]] [x y])", "[[1 :a] [1 :b] [2 :a] [2 :b]]", id="for-nested"),
    pytest.param("(for [x [1 2 3 4 1] :while (< x 3)] x)", "[1 2]", id="for-while"),
    pytest.param("(for [[k v] {:a 1 :b 2}] [v k])", "[[1 :a] [2 :b]]", id="for-map-entries"),
    pytest.param("(for [x []] x)", "[]", id="for-empty"),
    pytest.param("(doseq [x [1 2]] (println x))", "nil", id="doseq"),
    # and / or
    pytest.param("(and)", "true", id="and-empty"),
    pytest.param("(or)", "nil", id="or-empty"),
    pytest.param("(and 1 2 3)", "3", id="and-last"),
    pytest.param("(and 1 false 3)", "false", id="and-falsy"),
    pytest.param("(or nil false 7)", "7", id="or"),
    pytest.param("(or seen 5)", "5", id="or-lenient-undefined"),
    # threading
    pytest.param("(-> 1 inc (* 10))", "20", id="thread-first"),
    pytest.param("(->> [1 2 3] (map inc) (reduce +))", "9", id="thread-last"),
    pytest.param("(as-> 5 x (* x 2) (- x 1))", "9", id="as-thread"),
    pytest.param("(cond-> 1 true inc false (* 100))", "2", id="cond-thread"),
    pytest.param("(cond->> [1 2] true (map inc))", "[2 3]", id="cond-thread-last"),
    pytest.param("(some-> {:a {:b 1}} :a :b inc)", "2", id="some-thread"),
    pytest.param("(some-> {:a nil} :a inc)", "nil", id="some-thread-nil"),
    pytest.param("(some->> [1] (map inc))", "[2]", id="some-thread-last"),
    pytest.param("(-> {:a 1} :a)", "1", id="thread-keyword"),
    # quote, comment, collections, keywords, maps/sets as fns
    pytest.param("'foo", "'foo", id="quote"),
    pytest.param("(comment (this is ignored))", "nil", id="comment"),
    pytest.param("[1 [2 #{3}] {:a \"x\"}]", '[1 [2 #{3}] {:a "x"}]', id="literals"),
    pytest.param("(:a {:a 1})", "1", id="keyword-call"),
    pytest.param("(:b {:a 1} :dflt)", ":dflt", id="keyword-default"),
    pytest.param("({:a 1} :a)", "1", id="map-call"),
    pytest.param("(#{1 2} 2)", "2", id="set-call"),
    pytest.param('(:user-id {"user_id" 3})', "3", id="flexible-keyword"),
    pytest.param("(count {true :a 1 :b})", "2", id="true-and-1-distinct-keys"),
    pytest.param("(= 1 1.0)", "true", id="int-float-equal"),
    pytest.param("(= true 1)", "false", id="bool-not-number"),
    pytest.param("(/ 10 2)", "5.0", id="division-float"),
    pytest.param("123456789012345678901234567890", "123456789012345678901234567890", id="bigint"),
    pytest.param("[##Inf ##-Inf]", "[##Inf ##-Inf]", id="special-floats"),
    pytest.param("\\a", '"a"', id="char-is-string"),
    pytest.param("#_ 1 2", "2", id="discard"),
    pytest.param("(def v [1 2]) #'v", "[1 2]", id="var-quote"),
    pytest.param("(str :a-b)", '":a-b"', id="str-keyword"),
    pytest.param('(str "a" 1 nil 2.5)', '"a12.5"', id="str"),
]


@pytest.mark.parametrize(("src", "want"), PROGRAMS)
def test_program_value(src: str, want: str) -> None:
    assert value_of(src) == want


def test_return_ends_program() -> None:
    result = run("(return 1) 2")
    assert result.ok and result.value == 1 and result.outcome == "return"


def test_fail_is_a_language_failure() -> None:
    result = run('(fail {:reason "x"})')
    assert not result.ok and result.outcome == "fail" and result.error is not None
    assert result.error.code == "fail" and result.error.kind == "exception"


def test_println_output_in_order() -> None:
    result = run('(println "a" 1) (println [1 "b"]) (println) 7')
    assert result.output == 'a 1\n[1 "b"]\n\n' and result.value == 7


def test_data_and_tools() -> None:
    calls: list[object] = []

    def get_orders(args: dict[str, object]) -> list[dict[str, object]]:
        calls.append(args)
        return [{"id": 1, "amount": 5}, {"id": 2, "amount": 7}]

    result = run(
        '(let [xs (tool/get-orders {:status "paid" :max-hits 2})] (+ data/bonus (reduce + (map :amount xs))))',
        data={"bonus": 100},
        tools={"get-orders": get_orders},
    )
    assert result.value == 112
    assert calls == [{"status": "paid", "max_hits": 2}]


def test_tool_keyword_pairs_and_no_args() -> None:
    seen: list[object] = []
    result = run(
        "[(tool/t :a 1 :b-c :x) (tool/t)]",
        tools={"t": lambda a: seen.append(a) or len(seen)},
    )
    assert result.value == [1, 2]
    assert seen == [{"a": 1, "b_c": "x"}, {}]


def test_unknown_tool_is_static() -> None:
    calls: list[object] = []
    result = run("(tool/a {}) (tool/b {})", tools={"a": lambda x: calls.append(x)})
    assert result.error is not None and result.error.code == "unknown_tool"
    assert calls == []


ERRORS = [
    pytest.param("(", "parse_error", 1, 1, id="unclosed"),
    pytest.param("(+ 1 2))", "parse_error", 1, 8, id="extra-closer"),
    pytest.param("(foo 1)", "unbound_var", 1, 2, id="undefined-symbol"),
    pytest.param("(if)", "invalid_arity", 1, 1, id="if-arity"),
    pytest.param("()", "invalid_form", 1, 1, id="empty-list"),
    pytest.param("(loop [i 0] (inc (recur i)))", "invalid_form", 1, 18, id="recur-not-tail"),
    pytest.param("{:a 1 :a 2}", "duplicate_key", 1, 7, id="duplicate-key"),
    pytest.param("(+ 1\n   nil)", "type_error", 1, 1, id="type-error-position"),
    pytest.param("\n\n  (nil 1)", "not_callable", 3, 4, id="call-nil"),
    pytest.param("(defn f [x] x)\n(f 1 2)", "arity_error", 2, 1, id="user-fn-arity"),
    pytest.param("(inc 1 2)", "arity_error", 1, 1, id="builtin-arity"),
    pytest.param("(/ 1 0)", "arithmetic_error", 1, 1, id="div-zero"),
    pytest.param("(let [[a] {:a 1}] a)", "destructure_error", 1, 7, id="destructure-shape"),
    pytest.param("(when false (def q 1)) q", "unbound_var", 1, 24, id="def-in-branch-not-taken"),
    pytest.param("(range)", "invalid_arity", 1, 1, id="infinite-range"),
    pytest.param("(try 1 (catch Exception e 2))", "unbound_var", 1, 2, id="no-try"),
]


@pytest.mark.parametrize(("src", "code", "line", "col"), ERRORS)
def test_errors_name_code_and_position(src: str, code: str, line: int, col: int) -> None:
    result = run(src)
    assert result.error is not None, result
    assert (result.error.code, result.error.line, result.error.column) == (code, line, col)
    assert "Traceback" not in result.error.message and "0x" not in result.error.message


def test_step_budget_is_a_timeout() -> None:
    result = run("(loop [i 0] (recur (inc i)))", max_steps=10_000)
    assert result.error is not None and result.error.kind == "timeout"
    assert result.error.code == "step_limit_exceeded"


def test_deadline_is_a_timeout() -> None:
    result = run("(loop [i 0] (recur (inc i)))", timeout_ms=50, max_steps=10**12)
    assert result.error is not None and result.error.kind == "timeout"


def test_deep_recursion_fails_cleanly() -> None:
    result = run("(defn f [n] (+ 1 (f (inc n)))) (f 0)", timeout_ms=5000)
    assert result.error is not None and result.error.kind == "timeout"
    assert result.error.code == "recursion_limit"


@pytest.mark.parametrize(
    "src",
    [
        pytest.param("(" * 100_000, id="100k-open"),
        pytest.param("(" * 100_000 + ")" * 100_000, id="100k-balanced"),
        pytest.param("[" * 65 + "]" * 65, id="depth-65"),
        pytest.param("1" * 10_000, id="10k-digits"),
        pytest.param('"' + "x" * 1_000_001 + '"', id="1mb-string"),
        pytest.param("(->" + " inc" * 50_000 + ")", id="long-thread"),
        pytest.param("(cond" + " false 1" * 20_000 + ")", id="long-cond"),
    ],
)
def test_hostile_sources_fail_cleanly(src: str) -> None:
    result = run("0 " + src)
    if result.ok:
        return  # a long flat form may legitimately compile and run
    assert result.error is not None and result.error.kind in ("exception", "timeout")
    assert len(result.error.message) <= 512


def test_compile_is_cached_and_reusable() -> None:
    p1 = ptc_compiler.compile("(+ 1 2)")
    assert ptc_compiler.compile("(+ 1 2)") is p1
    assert p1.run().value == 3 and p1.run().value == 3
    assert "def program" in p1.python_source


def test_runs_do_not_share_definitions() -> None:
    assert run("(def secret 42) secret").value == 42
    result = run("secret")
    assert result.error is not None and result.error.code == "unbound_var"


def test_keyword_is_exported() -> None:
    assert run(":a", native=True).value is ptc_compiler.Keyword("a")
    assert run(":a", native=True).native is ptc_compiler.Keyword("a")
    assert run(":a").value == "a" and run(":a").native is None


LINEAR_REDUCE = [
    pytest.param("(reduce (fn [m i] (assoc m (str \"k\" i) i)) {} (range 3))", '{"k0" 0, "k1" 1, "k2" 2}', id="assoc"),
    pytest.param("(reduce (fn [m w] (update m w (fnil inc 0))) {} [\"a\" \"b\" \"a\"])", '{"a" 2, "b" 1}', id="update-fnil"),
    pytest.param("(reduce (fn [v x] (if (odd? x) (conj v x) v)) [] (range 6))", "[1 3 5]", id="conj-if"),
    pytest.param("(reduce (fn [m x] (assoc m :n (inc (get m :n 0)))) {} [1 2 3])", "{:n 3}", id="reads-acc"),
    pytest.param("(reduce (fn [m x] (assoc m x m)) {} [1 2])", "{1 {}, 2 {1 {}}}", id="escape-value-not-inlined"),
    pytest.param("(reduce (fn [m x] (assoc m x (fn [] m))) {} [1]) 0", "0", id="escape-closure-not-inlined"),
    pytest.param("(reduce (fn [m x] (assoc m :a x \"a\" (inc x))) {} [1])", '{:a 2}', id="one-logical-key"),
]


@pytest.mark.parametrize(("src", "want"), LINEAR_REDUCE)
def test_linear_reduce_matches_persistent_semantics(src: str, want: str) -> None:
    assert value_of(src) == want


def test_linear_reduce_keeps_intermediate_values_private() -> None:
    # Every intermediate map seen by a closure stays as it was when captured.
    src = "(let [snaps (reduce (fn [v x] (conj v {:x x})) [] [1 2])] snaps)"
    assert value_of(src) == "[{:x 1} {:x 2}]"
