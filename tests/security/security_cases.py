"""The attack table of the security suite (sandbox-design §1 and §3).

Each `Attack` is a hostile program, the failure kinds it may end with, and whether it
is a "benign look-alike" that must simply work (then `value` is the expected JSON
completion). Every case runs in both modes and must also leave the host unharmed
(see test_security.py). `skip_in_process` marks the few attacks whose in-process
bound depends on a builtin that is not yet bounded (the isolated worker is killed at
the deadline instead); the reason names the module.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

EXC = ("exception",)
TIME = ("timeout",)
LIMITED = ("exception", "timeout", "output-limit", "worker-exit")


@dataclass(frozen=True)
class Attack:
    id: str
    category: str
    program: str
    kinds: tuple[str, ...] = EXC  # acceptable failure kinds; () = must succeed
    value: Any = None  # expected value for benign cases (kinds == ())
    code: str | None = None  # expected error code, when it is contract
    seconds: float = 4.0  # wall-clock bound for the whole run
    skip_in_process: str | None = None
    timeout_ms: int = 1000
    may_succeed: bool = False  # a defused attack may also just complete (bounded)


CASES: list[Attack] = []


def add(cat: str, id_: str, program: str, kinds: tuple[str, ...] = EXC, **kw: Any) -> None:
    CASES.append(Attack(f"{cat}:{id_}", cat, program, kinds, **kw))


def ok(cat: str, id_: str, program: str, value: Any, **kw: Any) -> None:
    CASES.append(Attack(f"{cat}:{id_}", cat, program, (), value, **kw))


DAG64 = "(reduce (fn [a _] [a a]) [] (range 64))"
CHAIN = "(reduce (fn [a _] [a]) [] (range 200000))"

# ---------------------------------------------------------------- 1. object-graph escapes
G = "escape"
for i, prog in enumerate(
    [
        '(. "" __class__)',
        '(.__class__ "")',
        '(.. "" __class__ __mro__)',
        "(.-__globals__ (fn [] 1))",
        "(. (fn [] 1) __globals__)",
        "(.__subclasses__ (.__base__ (.__class__ [])))",
        "(.__init__ {})",
        "(.__reduce__ [1 2])",
        '(.__reduce_ex__ "x" 2)',
        '(.getattr "x" "__class__")',
        '(.format "{0.__class__.__mro__}" "x")',
        '(.format_map "{x.__class__}" {:x 1})',
        "(.__dict__ tool/echo)",
        "(.gi_frame (map inc [1]))",
        "(.f_back (fn [] 1))",
        "(.__code__ (fn [] 1))",
        "(.co_code (fn [] 1))",
        "(.__closure__ (let [x 1] (fn [] x)))",
        "(.__globals__ println)",
        "(.__self__ println)",
        "(.__builtins__ str)",
        "(.mro (type 1))",
        '(Class/forName "java.lang.Runtime")',
        "(java.lang.Runtime/getRuntime)",
        '(.exec (java.lang.Runtime/getRuntime) "id")',
        '(java.io.File. "/etc/passwd")',
        '(new java.io.File "/")',
        '(System/getenv "PTC_SECURITY_SECRET")',
        '(System/getProperty "user.home")',
        "(System/exit 1)",
        "(import (quote os))",
        "(require (quote clojure.java.shell))",
        '(clojure.java.shell/sh "id")',
        "(eval (quote (+ 1 2)))",
        '(load-string "(+ 1 2)")',
        '(read-string "(+ 1 2)")',
        '(slurp "/etc/passwd")',
        '(spit "/tmp/ptc-owned" "x")',
        '(os/system "id")',
        '(builtins/open "/etc/passwd")',
        '(__import__ "os")',
        '(getattr "" "__class__")',
        "(vars)",
        "(globals)",
        "(locals)",
        "(Math/__class__ 1)",
        "(Math/_sqrt 4)",
        '(String/format "{0.__class__}" 1)',
        "(resolve (quote println))",
        "(ns-publics (quote user))",
        "(var-get (var println))",
        "(alter-var-root (var println) (fn [_] 1))",
        "(set! *warn-on-reflection* true)",
        "(intern (quote user) (quote x) 1)",
        "(Thread/sleep 100000)",
        "(future (loop [] (recur)))",
        "(agent 1)",
        "(atom 1)",
        '(json/__class__ "x")',
    ]
):
    add(G, f"e{i:02d}", prog, LIMITED if "Thread/sleep" in prog else EXC)

ok(G, "type-is-data", "(type 1)", "number")

# ---------------------------------------------------------------- 2. names and lookalikes
G = "names"
ok(G, "dunder-builtins", "(def __builtins__ 1) __builtins__", 1)
ok(G, "dunder-import", "(def __import__ (fn [x] x)) (__import__ 2)", 2)
ok(G, "dunder-class", "(let [__class__ 3] __class__)", 3)
ok(G, "py-none-true", "(let [None 1 True 2 False 3] [None True False])", [1, 2, 3])
ok(
    G,
    "py-keywords",
    "(let [lambda 1 class 2 import 3 def_ 4] [lambda class import def_])",
    [1, 2, 3, 4],
)
ok(G, "fuel-local", "(let [FUEL 5] FUEL)", 5)
ok(G, "credit-local", "(let [CREDIT 5] (loop [i CREDIT] (if (< i 9) (recur (inc i)) i)))", 9)
ok(G, "ns-names", "(def NS 1) (def NSC 2) [NS NSC]", [1, 2])
ok(G, "helper-name", "(def rt_refill (fn [] 0)) (rt_refill)", 0)
ok(G, "pull-name", "(def t0 7) (let [t0 (loop [i 0] (if (< i 3) (recur (inc i)) t0))] t0)", 7)
ok(G, "helper-tool", "(let [rt_tool 7] rt_tool)", 7)
ok(G, "builtin-pyname", "(defn b_println [x] x) (b_println 4)", 4)
ok(
    G,
    "temp-names",
    "(def t1 1) (def k1 2) (def v1_x 3) (def f1_g 4) [t1 k1 v1_x f1_g]",
    [1, 2, 3, 4],
)
ok(G, "program-name", "(def program 9) program", 9)
ok(G, "globals-name", "(def globals 1) (def exec 2) [globals exec]", [1, 2])
add(G, "fuel-def-loop", "(def FUEL 1000000000) (loop [] (recur))", TIME)
add(G, "fuel-let-loop", "(let [FUEL 1000000000] (loop [] (recur)))", TIME)
add(G, "refill-shadow-loop", "(defn rt_refill [f d] (repeat 9 nil)) (loop [] (recur))", TIME)
add(G, "fuel-param", "(defn f [FUEL] (f FUEL)) (f 100000000)", TIME)
# Loop entries are free: an endless run of them still needs a back-edge, which costs.
add(G, "credit-def-loop", "(def CREDIT (range 9)) (loop [i 0] (recur (loop [j i] (inc j))))", TIME)
add(G, "credit-param", "(defn f [CREDIT] (loop [] (recur))) (f 1)", TIME)
add(G, "fullwidth-eval", "(ｅｖａｌ 1)")
add(G, "math-bold-eval", "(𝐞𝐯𝐚𝐥 1)")
add(G, "script-e-eval", "(ℯval 1)")
add(G, "fullwidth-def", "(def ｅｖａｌ 1) ｅｖａｌ")
add(G, "nfkc-import", '(__ｉｍｐｏｒｔ__ "os")')
add(G, "zero-width", "(def a\u200bb 1) ab")
add(G, "rtl-override", "(def \u202eevil 1) evil")
add(G, "unbound-dunder", "(__subclasses__)")
add(G, "dotted-symbol", '(os.system "id")')
add(G, "slash-symbol", "(sys/modules)")
add(G, "py-attr-symbol", "(str.__class__)")
add(G, "recur-helper", "(rt_iter [1 2])")

# ---------------------------------------------------------------- 3. format strings
G = "format"
ok(G, "brace-field", '(format "{0.__class__}" 1)', "{0.__class__}")
ok(G, "brace-globals", '(format "{0.__globals__[os]}" println)', "{0.__globals__[os]}")
ok(G, "percent-mapping", '(str (format "%s" "%(x)s"))', "%(x)s")
ok(G, "str-braces", '(str "{0.__class__}" 1)', "{0.__class__}1")
add(G, "percent-named", '(format "%(x)s" {:x 1})')
add(G, "huge-width", '(format "%1000000000d" 1)')
add(G, "huge-precision", '(format "%.1000000000f" 1.0)')
add(G, "width-star", '(format "%*d" 100000000 1)')
add(G, "many-placeholders", '(apply format (apply str (repeat 100000 "%s")) (range 10))')
ok(G, "fn-no-repr", '(format "%s" (fn [x] x))', "#function[fn]")
ok(G, "builtin-no-repr", "(str println)", "#function[println]")
ok(G, "pr-fn-no-repr", "(pr-str [inc (fn [] 1)])", "[#function[inc] #function[fn]]")
ok(G, "format-fstring", '(format "{x!r:>{w}}" 1)', "{x!r:>{w}}")
add(G, "format-dollar", '(format "%2$s" 1)')

# ---------------------------------------------------------------- 4. tool and data abuse
G = "tools"
add(G, "ungranted", '(tool/rm {:path "/"})', code="unknown_tool")
add(G, "dunder-tool", "(tool/__init__ {})", code="unknown_tool")
add(G, "dunder-class-tool", "(tool/__dict__ {})", code="unknown_tool")
ok(G, "exact-dunder-name", "(tool/__class__ {:x 1})", "ok")
add(G, "fn-arg", "(tool/echo {:f (fn [] 1)})", ("protocol",), code="invalid_tool_args")
add(G, "nan-arg", "(tool/echo {:x ##NaN})", ("protocol",))
add(G, "inf-arg", "(tool/echo {:x ##Inf})", ("protocol",))
add(G, "huge-arg", '(tool/echo {:x (apply str (repeat 300000 "x"))})', ("protocol",))
add(G, "dag-arg", f"(tool/echo {{:x {DAG64}}})", ("protocol",))
add(G, "ambiguous-args", '(tool/echo {"a-b" 1 :a_b 2})', ("protocol",), code="invalid_tool_args")
add(G, "positional", "(tool/echo 1 2 3)")
add(G, "call-budget", "(doseq [i (range 1000)] (tool/echo {:i i}))", code="tool_call_limit")
add(G, "call-budget-pmap", "(pmap (fn [i] (tool/echo {:i i})) (range 400))", code=None)
add(G, "tool-raises", "(tool/boom {})", code="tool_error")
add(G, "tool-nan-result", "(tool/nan {})")
add(G, "tool-object-result", "(tool/obj {})")
add(G, "tool-huge-result", "(tool/big {})", code="tool_result_too_large")
ok(G, "tool-as-value", "(map tool/echo [{:a 1}])", [{"a": 1}])
ok(G, "data-dunder", "data/__class__", None)
ok(G, "data-globals", "(get data/row :__globals__)", None)
ok(G, "data-dict-key", '(get data/row "__dict__")', None)
ok(G, "data-ok", "(:n data/row)", 1)
add(G, "data-call", "(data/row :n)", ("exception",))
# tool arguments are lossless JSON: a function key or a set is refused, never spelled out
add(G, "tool-in-map-key", "(tool/echo {(fn [] 1) 1})", ("protocol",), code="invalid_tool_args")
add(G, "tool-set-collision", "(tool/echo {:s #{1 1.0}})", ("protocol",), code="invalid_tool_args")

# ---------------------------------------------------------------- 5. CPU
G = "cpu"
add(G, "loop", "(loop [] (recur))", TIME)
add(G, "loop-count", "(loop [i 0] (recur (inc i)))", TIME)
add(G, "self-recur-fn", "(defn f [x] (recur x)) (f 1)", TIME)
add(G, "deep-recursion", "(defn f [x] (inc (f x))) (f 1)", TIME)
add(
    G,
    "mutual-recursion",
    "(declare g) (defn f [x] (g x)) (defn g [x] (f x)) (f 1)",
    ("timeout", "exception"),
)
add(G, "nested-for", "(count (for [a (range 10000) b (range 10000)] 1))", TIME)
add(G, "doseq-big", "(doseq [a (range 10000) b (range 10000)] nil)", TIME)
add(
    G,
    "reduce-big",
    "(reduce + (range 10000000))",
    ("timeout", "exception"),
    may_succeed=True,
    seconds=6.0,
)
add(G, "fib", "(defn fib [n] (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2))))) (fib 40)", TIME)
add(
    G,
    "big-pow",
    "(loop [x 3] (recur (* x x)))",
    ("timeout", "exception"),
)
add(
    G,
    "factorial",
    "(reduce * (range 1 300000))",
    ("timeout", "exception"),
)
add(
    G,
    "sort-huge",
    "(count (sort (range 10000000)))",
    ("timeout", "exception"),
    may_succeed=True,
    seconds=8.0,
)
add(G, "map-of-fns", "(loop [f inc] (recur (comp f inc)))", ("timeout", "exception"))
add(G, "iterate-unbounded", "(iterate inc 0)", EXC)
add(G, "cycle-unbounded", "(cycle [1])", EXC)
add(G, "range-unbounded", "(range)", EXC)
add(G, "repeat-unbounded", "(repeat 1)", EXC)
add(G, "while-true", "(while true nil)", LIMITED)
add(G, "pmap-loop", "(pmap (fn [_] (loop [] (recur))) [1 2 3])", TIME)
add(G, "pcalls-loop", "(pcalls (fn [] (loop [] (recur))) (fn [] 1))", TIME)
add(
    G,
    "pmap-nested-bomb",
    "(pmap (fn [x] (pmap (fn [y] (pmap inc (range 100))) (range 100))) (range 100))",
    ("exception", "timeout"),
)

# ---------------------------------------------------------------- 6. memory
G = "memory"
add(G, "range-huge", "(count (range 1000000000))", LIMITED)
add(G, "repeat-huge", '(count (repeat 1000000000 "x"))', LIMITED)
add(G, "str-doubling", '(loop [s "x"] (recur (str s s)))', LIMITED)
add(
    G,
    "vec-doubling",
    "(loop [v [1]] (recur (into v v)))",
    LIMITED,
)
add(
    G,
    "concat-doubling",
    "(loop [v [1]] (recur (vec (concat v v))))",
    LIMITED,
)
add(G, "bit-shift", "(bit-shift-left 1 100000000)", LIMITED)
add(G, "bit-shift-loop", "(loop [x 1] (recur (bit-shift-left x 62)))", LIMITED)
add(G, "apply-str", '(count (apply str (repeat 100000000 "xxxxxxxxxx")))', LIMITED)
add(G, "join-huge", '(count (str/join "," (repeat 100000000 "xx")))', LIMITED)
add(
    G,
    "dag-count",
    f"(count (flatten {DAG64}))",
    LIMITED,
)
add(G, "dag-str", f"(count (str {DAG64}))", LIMITED)
add(G, "dag-prstr", f"(count (pr-str {DAG64}))", LIMITED)
add(G, "dag-json", f"(count (json/generate-string {DAG64}))", LIMITED)
add(
    G,
    "dag-eq",
    f"(= {DAG64} (reduce (fn [a _] [a a]) [] (range 64)))",
    LIMITED,
    may_succeed=True,  # pairs are compared once: this is quick and true
)
add(G, "dag-result", DAG64, ("output-limit",))
add(G, "dag-set", f"(count #{{{DAG64} 1}})", LIMITED, may_succeed=True)
add(G, "chain-result", CHAIN, ("output-limit", "timeout", "exception", "invalid-output"))
add(G, "chain-set", f"(count (conj #{{}} {CHAIN}))", LIMITED, may_succeed=True)
add(G, "chain-map-key", f"(count (assoc {{}} {CHAIN} 1))", LIMITED, may_succeed=True)
add(G, "chain-str", f"(count (str {CHAIN}))", LIMITED, may_succeed=True)
add(G, "format-width-loop", '(loop [s ""] (recur (format "%10000s" s)))', LIMITED)
add(G, "big-int-str", "(str (reduce * (range 1 5000)))", LIMITED)
add(G, "big-int-digits", "(count (str (bit-shift-left 1 20000)))", LIMITED)
add(
    G,
    "big-int-result",
    "(reduce * (range 1 5000))",
    ("invalid-output", "output-limit", "exception"),
)
add(G, "frequencies-huge", "(count (frequencies (range 20000000)))", LIMITED)
add(G, "vec-range", "(loop [acc []] (recur (conj acc (vec (range 100000)))))", LIMITED)
add(G, "map-growth", "(loop [m {} i 0] (recur (assoc m i (range 1000)) (inc i)))", LIMITED)
add(G, "pow-huge", "(Math/pow 10 1000000)", (*LIMITED, "invalid-output"))
add(
    G,
    "repeat-str-nested",
    '(count (apply str (repeat 100000 (apply str (repeat 100000 "x")))))',
    LIMITED,
)

# ---------------------------------------------------------------- 7. output floods
G = "output"
add(G, "println-loop", '(loop [] (println "spam") (recur))', ("output-limit", "timeout"))
add(G, "doseq-println", "(doseq [i (range 1000000)] (println i))", ("output-limit", "timeout"))
ok(G, "long-line-cut", '(do (println (apply str (repeat 5000 "x"))) 1)', 1)
add(
    G,
    "println-dag",
    f"(println {DAG64})",
    ("output-limit", "exception", "timeout"),
    may_succeed=True,
)
add(
    G,
    "println-chain",
    f"(println {CHAIN})",
    ("output-limit", "exception", "timeout"),
    may_succeed=True,
)
add(
    G,
    "pmap-println",
    "(pmap (fn [i] (doseq [_ (range 100000)] (println i))) (range 8))",
    ("output-limit", "timeout"),
)
add(G, "huge-result-string", '(apply str (repeat 200000 "xxxxxxxxxx"))', ("output-limit",))
add(G, "huge-result-vec", "(vec (range 2000000))", ("output-limit", "timeout"))
add(G, "nan-result", "##NaN", ("invalid-output",))
add(G, "fn-result", "(fn [] 1)", ("invalid-output",))
add(G, "surrogate-result", '(str "\\ud800")', ("invalid-output", "exception"))
add(G, "key-collision-result", '{:a 1 "a" 2}', ("invalid-output",))
add(G, "regex-result", '#"a+"', ("invalid-output",))
# one value shape at the host: exactly these kinds, in both modes
add(G, "vec-3m-result", "(vec (range 3000000))", ("output-limit",), timeout_ms=10_000)
add(G, "bigint-result", "(bit-shift-left 1 20000)", ("invalid-output",))
add(G, "set-result", "{:ids #{1 2}}", ("invalid-output",))
add(G, "deep-result", "(reduce (fn [a _] [a]) 1 (range 600))", ("invalid-output",))
add(G, "inf-nested-result", "{:a [{:b (/ 1.0 0.0)}]}", ("invalid-output",))
add(G, "vector-key-result", "{[1 2] 3}", ("invalid-output",))
add(G, "dag-fail-value", f"(fail {DAG64})", ("exception",))

# ---------------------------------------------------------------- 8. regex
G = "regex"
A40 = '(apply str (concat (repeat 40 "a") ["b"]))'
add(G, "alt-plus", f'(re-find #"(a|aa)+$" {A40})', ("exception", "timeout"), may_succeed=True)
add(G, "nested-star", f'(re-matches #"(a*)*$" {A40})', ("exception", "timeout"), may_succeed=True)
add(G, "nested-plus", f'(re-matches #"(a+)+$" {A40})', ("exception", "timeout"), may_succeed=True)
add(
    G,
    "counted-nest",
    f'(re-matches #"(a{{1,100}}){{1,100}}$" {A40})',
    ("exception", "timeout"),
    may_succeed=True,
)
add(
    G,
    "backref-blowup",
    f'(re-matches #"(a*)*\\\\1$" {A40})',
    ("exception", "timeout"),
    may_succeed=True,
)
add(
    G,
    "re-seq-huge",
    '(count (re-seq #"a" (apply str (repeat 10000000 "a"))))',
    ("exception", "timeout", "output-limit"),
    may_succeed=True,  # bounded by the deadline, checked between matches
)
add(G, "long-pattern", '(re-pattern (apply str (repeat 100000 "a")))', ("exception", "timeout"))
add(
    G,
    "re-pattern-bomb",
    '(re-find (re-pattern "(x+x+)+y") (apply str (repeat 5000 "x")))',
    ("exception", "timeout"),
    may_succeed=True,
)
add(
    G,
    "replace-bomb",
    '(str/replace (apply str (repeat 5000 "a")) #"(a|a)+$" "b")',
    ("exception", "timeout"),
    may_succeed=True,
)
add(
    G,
    "split-bomb",
    '(str/split (apply str (repeat 5000 "a")) #"(a|aa)+c")',
    ("exception", "timeout"),
    may_succeed=True,
)

# ---------------------------------------------------------------- 9. source nesting
G = "nesting"
add(G, "parens", "(" * 100000 + ")" * 100000)
add(G, "vectors", "[" * 100000 + "]" * 100000)
add(G, "maps", "{:a " * 50000 + "1" + "}" * 50000)
add(G, "quotes", "'" * 100000 + "x")
add(G, "unclosed", "(" * 100000)
add(G, "threading", "(-> 1 " + "inc " * 50000 + ")", ("exception", "timeout"), seconds=8.0)
add(G, "cond", "(cond " + "false 1 " * 30000 + ":else 2)", ("exception", "timeout"), seconds=8.0)
add(G, "let-nest", "(let [a 1] " * 3000 + "a" + ")" * 3000)
add(G, "fn-nest", "(fn [] " * 3000 + "1" + ")" * 3000)
add(G, "anon-nest", "#(" * 1000 + "%" + ")" * 1000)
add(G, "if-nest", "(if true " * 5000 + "1" + " 2)" * 5000)
add(G, "do-nest", "(do " * 5000 + "1" + ")" * 5000)
add(
    G,
    "and-chain",
    "(and " + "true " * 50000 + ")",
    ("exception", "timeout"),
    seconds=8.0,
    may_succeed=True,
)

# ---------------------------------------------------------------- 9b. compile time
# Compiling runs on the host in both modes: every pass is linear in the source, and the
# compile budget (Limits.compile_timeout_ms, compile_nodes) fails the rest with
# `compile_limit`. Each case must finish compiling (and running) or fail typed, quickly.
G = "compile"


def _nest(n: int, shape: str) -> str:
    body = "x"
    for i in range(n):
        body = shape.format(body=body, i=i)
    return f"(let [x 1] {body})"


COMPILED = ("exception", "timeout")
for shape_id, shape in {
    "if-doseq": "(if (> x {i}) (doseq [y [1 2]] {body}) 0)",
    "when-doseq": "(when (> x {i}) (doseq [y [1 2]] {body}))",
    "when-map-fn": "(when (> x {i}) (map (fn [x] {body}) [1 2]))",
    "if-for": "(if (> x {i}) (for [x [1 2]] {body}) 0)",
    "map-fn-if": "(map (fn [x] (if (> x {i}) {body} 0)) [1 2])",
}.items():
    # 18 levels: within CPython's nested blocks, once minutes of lowering (2.5x a level)
    add(G, f"{shape_id}-18", _nest(18, shape), COMPILED, may_succeed=True, seconds=6.0)
    # 20 levels (a 560-byte program): past the block limit, a program error at once
    add(G, f"{shape_id}-20", _nest(20, shape), code="program_too_complex", seconds=6.0)
add(
    G,
    "numeric-fn-nest",
    _nest(40, "((fn [p{i}] (+ p{i} {body})) {i})"),
    COMPILED,
    may_succeed=True,
    seconds=6.0,
)
add(
    G,
    "numeric-fn-capture-nest",
    "".join(f"((fn [p{i}] (+ " + " ".join(f"p{j}" for j in range(i + 1)) + " " for i in range(20))
    + "0"
    + f")) {1})" * 20,
    COMPILED,
    may_succeed=True,
    seconds=6.0,
)
# flat programs whose expansions once took 10-35 s (quadratic lowering)
add(
    G,
    "cond->-50000",
    "(cond-> 1 " + "true inc " * 50000 + ")",
    COMPILED,
    may_succeed=True,
    seconds=10.0,
)
add(G, "let-50000", "(let [" + "a 1 " * 50000 + "] a)", COMPILED, may_succeed=True, seconds=10.0)
add(
    G,
    "as->-30000",
    "(as-> 1 x " + "(inc x) " * 30000 + ")",
    COMPILED,
    may_succeed=True,
    seconds=10.0,
)
add(
    G,
    "loops-in-let",
    "(let ["
    + " ".join(f"a{i} (loop [i 0] (if (< i 3) (recur (inc i)) i))" for i in range(20000))
    + "] a0)",
    COMPILED,
    may_succeed=True,
    seconds=10.0,
)
# past the node budget (1,000,000): half a million calls analyzed and lowered
add(G, "node-budget", "[" + "(inc 1) " * 120000 + "]", COMPILED, may_succeed=True, seconds=10.0)
# CPython's 20 nested blocks: a program error with line:column, not internal_error
add(
    G,
    "loops-25",
    "(loop [i0 0] " + "".join(f"(loop [i{k} 0] " for k in range(1, 25)) + "1" + ")" * 25,
    code="program_too_complex",
)
add(
    G,
    "for-25",
    "(for [" + " ".join(f"a{k} [1]" for k in range(25)) + "] 1)",
    code="program_too_complex",
)
add(
    G,
    "doseq-25",
    "(doseq [" + " ".join(f"a{k} [1]" for k in range(25)) + "] 1)",
    code="program_too_complex",
)
ok(G, "for-19", "(for [" + " ".join(f"a{k} [1]" for k in range(19)) + "] 1)", [1])
# macros nest what they expand to as deep as the source is long
add(G, "thread-first-50000", "(-> 1 " + "inc " * 50000 + ")", code="program_too_complex")
add(G, "thread-last-50000", "(->> 1 " + "(+ 1) " * 50000 + ")", code="program_too_complex")
add(G, "some-thread-50000", "(some-> 1 " + "inc " * 50000 + ")", code="program_too_complex")
add(G, "thread-900", "(-> 1 " + "inc " * 900 + ")", code="program_too_complex")
add(G, "calls-3000", "(inc " * 3000 + "1" + ")" * 3000, code="parse_error")
ok(G, "calls-60", "(inc " * 60 + "1" + ")" * 60, 61)

# ---------------------------------------------------------------- 10. huge literals
G = "literals"
add(G, "int-digits", "9" * 100000)
add(G, "int-5000", "9" * 5000, ("exception", "invalid-output"))
add(G, "float-exp", "1e99999999", ("exception", "invalid-output"))
add(G, "string-2mb", '"' + "x" * 2_000_000 + '"', seconds=8.0)
add(G, "program-2mb", "(do " + "1 " * 1_000_000 + ")", seconds=8.0)
add(
    G,
    "many-keywords",
    "[" + " ".join(f":k{i}" for i in range(200000)) + "]",
    ("exception", "output-limit", "timeout"),
    seconds=8.0,
)
add(G, "hex-huge", "0x" + "f" * 100000)
add(G, "ratio", "1/0")
add(G, "char-bomb", "\\" + "u" * 100000)
add(G, "regex-literal-huge", '#"' + "(a)" * 100000 + '"')

# ---------------------------------------------------------------- 11. cross-run leaks (each
# program runs after a prior run that defined `leak` in a one-shot environment)
G = "leaks"
add(G, "def-not-visible", "leak", code="unbound_var")
add(G, "history-not-visible", "(or *1 *2 *3 :clean)", kinds=(), value="clean")
ok(G, "ns-fresh", "(def x 1) x", 1)
add(
    G,
    "lenient-lookup",
    "(def y (or leak :fresh)) (if (= y :fresh) (fail :x) y)",
    kinds=("exception",),
)
ok(G, "pmap-def-discarded", "(do (pmap (fn [x] (def pm x)) [1 2]) 1)", 1)
add(G, "pmap-def-discarded-2", "(pmap (fn [x] (def pm2 x)) [1]) pm2", code="unbound_var")
add(G, "pmap-return", "(pmap (fn [x] (return x)) [1 2])")
add(G, "pmap-fail", "(pcalls (fn [] (fail :no)))")
ok(G, "fail-discards", "(def z 1) z", 1)
ok(G, "output-fresh", '(do (println "a") 1)', 1)


CATEGORIES = sorted({c.category for c in CASES})
