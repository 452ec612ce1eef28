"""Random small programs valid in both PTC-Lisp and Clojure 1.11, for the differential campaign.

`generate(seed, n)` is deterministic per seed (`random.Random(seed)` only). Every expression is
built for a static type, written as a string:

    int float str kw bool          scalars ("float" is always a Java double on both sides)
    opt<T>                         T or nil
    vec<T>                         a real vector (conj appends, prints as [...])
    seq<T>                         a sequence (a lazy seq in Clojure, a vector here)
    set<T>  map<T>  smap<T>        a set; a keyword-keyed map; a string-keyed map
    rec  srec                      a record: a keyword-keyed / string-keyed map of fixed fields
    fn<A;B>  fn2<A;B;A>            a one-argument function; a reducing function
    entry<T>                       a [keyword T] map entry

The generator stays inside the common language instead of filtering results afterwards. What
it never builds, and why (decision numbers are docs/language-decisions.md, DIV numbers the
target's §13, all listed in docs/divergences.md):

* an int and a float in one `=`, set, map key, `distinct` or `frequencies` (decision 4): every
  equality and every hashed position gets operands of one static type, floats never hashed;
* a key read whose spelling differs from the stored key (decision 5): keyword maps are read with
  keywords, string maps with strings, keys never contain `-` or `_`;
* `/` of two integers anywhere but as the whole program's value, and never turned into a double
  (decision 26: ratios; Clojure's ratio->double goes through 16 decimal digits, one ulp off);
* integers beyond 2^63 (decision 27): `*` multiplies only literals and counts, and floats are
  clamped to ±1e6 before `int`/`long`/`Math/round` (which saturate at Long/MAX_VALUE);
* a seq or list printed with `str`/`pr-str`/`println`, `conj` onto a seq, `()`, `vector?` of
  a seq, partition groups used as vectors (DIV-25: no list type), `println` of a collection
  holding strings (§7.6);
* `nth`/`subs`/`subvec`/`pop` out of range (DIV-22, DIV-26): indexes are clamped with `min`
  or the 3-argument `nth`; `contains?` on vectors (DIV-27); `first`/`rest` on maps (DIV-29);
* `case`/`condp` without a default (§5.4 GAP-S37); `compare` of strings or keywords (§4.4);
* `symbol?`, `seq?`, `map-entry?` (DIV-19/25/49); non-strings to string functions (GAP-S139);
* anything over hash order (decision 6): keys/vals/sets/seq of a map are sorted or poured into a
  set before order could be seen; sequences of characters (decision 25);
* lazy or infinite sequences (decision 22: no `iterate`), `try` (decision 23), tools, time,
  randomness, and names that are not builtins here (`take-nth`, `letfn`, `dotimes`, `char`).

Beyond the core shapes, the `wide_*` families cover clojure.walk (postwalk, prewalk,
keywordize-keys, stringify-keys, postwalk-replace, prewalk-replace), set/select, subset? and
superset?, key/val, merge-with with several functions and maps, update/update-in with extra
arguments, assoc-in/update-in making new levels, get-in with defaults, compare by its sign,
bit operations, characters as one-character strings, str/escape, regex groups, re-pattern,
closures and functions returning functions, comp/partial/every-pred/some-fn of several
functions, some->>/cond->>, when-some, do, nested destructuring, doseq/for with :let :when
:while, and string-keyed records read with `get`. Further shapes they never build:

* a number key in postwalk-replace over values holding floats (decision 4), keyword
  replacements that collide with existing keys (which entry wins follows hash order past 8
  keys in Clojure, decision 6), keyword reads of string keys (decision 5);
* keywordize-keys of computed string keys (a string that is no keyword name stays a string
  here, decision 12); `key` of a plain vector (target GAP-S17: accepted here);
* a bare `#()` as a threading step (docs/divergences.md, §5.16); println inside a function a
  lazy sequence calls (Clojure prints as it realises chunks); `letfn`, `atom`,
  `sorted-map`, clojure.set's project/rename-keys/index/map-invert/join (not in the target).

Round 3 adds LLM-shaped dataset pipelines (`fuzz/strategies/llm_programs.py`, whose docstring
lists what they avoid), `low_frequency` for the rarer families, and depth 5-7 now and then.

Deliberate errors (integer division by zero, arithmetic on nil) are generated now and then:
an error on both sides is agreement.

`SWITCHES` names generator families that can be turned off; `DISABLED` lists those off by
default: each differs from Clojure by a divergence documented in docs/divergences.md (a
family that exposes a bug goes here too, until it is fixed).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from fuzz.strategies.llm_programs import llm_program

SWITCHES = frozenset({"if-let", "numeric-comparator-on-strings", "float-rem-edges",
                      "unicode-regex-classes", "join-string", "nil-nthrest"})
# Families that exposed a real bug and are off until it is fixed (name -> reason).
DISABLED: dict[str, str] = {
    "unicode-regex-classes":
        "documented divergence (docs/divergences.md, target §9.15): \\w \\s \\d and (?i) are"
        " Unicode-aware here, ASCII-only in Java: (re-seq #\"\\w+\" \"héllo\") [\"héllo\"] vs"
        " (\"h\" \"llo\")",
    "float-rem-edges":
        "documented divergence (docs/divergences.md, target §9 rem): float rem/mod is fmod here,"
        " n - d*(long)(n/d) in Clojure: (rem 1.0E21 3) 1.0 vs 0.0, (rem -1.5 0.75) -0.0 vs 0.0",
}

SCALARS = ("int", "float", "str", "kw", "bool")
HASHABLE = ("int", "str", "kw")  # set elements / map keys / distinct: never floats (decision 4)
SORTABLE = ("int", "float", "str", "kw")

REC_FIELDS: dict[str, str] = {
    "id": "int", "name": "str", "dept": "str", "price": "float", "qty": "int",
    "active": "bool", "tags": "vec<str>",
}
# :score is absent from some records: reading it gives opt<int>.
OPT_FIELDS: dict[str, str] = {"score": "int"}
KEYWORDS = ("a", "b", "c", "d", "x", "y", "total", "count", "low", "high", "eng", "ops")
MAP_KEYS = ("a", "b", "c", "d", "x", "y")
NAMES = ("ann", "bob", "cy", "dee", "eve", "fay", "gus")
DEPTS = ("eng", "ops", "sales")
TAGS = ("new", "vip", "old", "promo")
STRINGS = ("alpha", "Beta", "a,b,c", "  padded  ", "x y z", "", "hello world", "abc", "42",
           "one,two,,three", "MiXeD", "tab\tsep", "a-b-c", "zz", 'say "hi"', "back\\slash",
           "line1\nline2\n", "50% off", "a.b.c", "$1 (x)")
# Non-ASCII text of the Basic Multilingual Plane without combining marks (decision 15 indexes
# by code point, Java by UTF-16 unit: the same there). Whitespace beyond ASCII: U+2003 is Java
# whitespace (trimmed), U+00A0 is not.
UNICODE_STRINGS = ("héllo wörld", "Straße", "ΟΔΟΣ οδός", "ǅemal", "\u2003em\u2003", "\u00a0nb\u00a0",
                   "naïve café", "ÅSA-öl")
FLOATS = ("0.5", "1.5", "2.25", "0.1", "0.2", "3.75", "-1.5", "10.0", "100.5", "2.675", "1.0E-3",
          "0.3", "1234567.0", "12345678.9", "1.0E-4", "0.001", "-0.0", "2.5", "-2.5", "1.0E21",
          "0.35", "9.995")

# Literal arguments, as source text (kept out of f-string expressions).
REPLACE_MATCH = ('"a"', '","', '#"[aeiou]"', '#"\\s+"', '"l"')
REPLACE_WITH = ('"_"', '""', '"XY"')
KEYWORD_NAMES = ('"total"', '"abc"', '"x1"')
SUBSTRINGS = ('"a"', '""', '"ab"', '" "', '","')
MODERATE_FLOATS = tuple(f for f in FLOATS if f not in ("-0.0", "1.0E21"))
DOUBLE_TEXTS = ('"1.5"', '"42"', '"-0.25"', '"1e3"', '"x"', '"1.0E-4"')
LONG_TEXTS = ('"12"', '"-3"', '"x"', '"1.5"', '""', '"007"')
FORMATS_NUM = ('"%d"', '"%5d|"', '"%-5d|"', '"%05d"', '"%x"', '"%o"', '"%,d"', '"%+d"', '"%s%%"')
FORMATS_FLOAT = ('"%.0f"', '"%.1f"', '"%.3f"', '"%e"', '"%.2e"', '"%10.4f|"', '"%-8.2f|"', '"%f"',
                 '"%s"')
GROUP_REGEXES = ('#"([a-z])([a-z])"', '#"(a)"')
GROUP_REPLACEMENTS = ('"$2$1"', '"<$1>"')
INDEX_SUBS = ('"a"', '","', '"z"', '""')
JOIN_SEPS = ('', '", " ', '"-" ')
SPLIT_REGEXES = ('#","', '#" "', '#"\\s+"', '#"b"')
# Character-keyed maps for str/escape: no \n \t \s \b \o \u (special or prefixes in readers).
ESCAPES = ('{\\a "4" \\e "3"}', '{\\space "_" \\l "L"}', '{\\c nil \\x "X" \\z "Z"}',
           '{\\" "\'" \\, ";"}')
# Regexes with groups, matched against ASCII literals (classes spelled out: target §9.15).
GROUP_FIND = ('#"([a-z]+)([0-9]*)"', '#"([a-z])(x)?"', '#"(a|b)+"', '#"([A-Z])([a-z]+)"')
GROUP_MATCH = ('#"([a-z]+)"', '#"([a-z]+) ([a-z]+)"', '#"(.*),(.*)"', '#"([A-Za-z]+)([0-9]*)"',
               '#"(a)?bc"')
GROUP_SEQ = ('#"([a-z]+)([0-9]*)"', '#"([a-z])([a-z])"', '#"(l+)"')
PATTERN_TEXTS = ('"[a-z]+"', '(str "[" "aeiou" "]+")', '"a.c"', '"(?:ab)+"', '"\\\\Q.\\\\E"',
                 '(str "\\\\Q" "$1 (" "\\\\E")')


def kind(t: str) -> str:
    """The constructor of a type: ``vec`` for ``vec<int>``, ``int`` for ``int``."""
    return t.split("<", 1)[0]


def args_of(t: str) -> list[str]:
    """The parameters of a type: ``["int", "str"]`` for ``fn<int;str>``."""
    if "<" not in t:
        return []
    inner, parts, depth, cur = t[t.index("<") + 1 : -1], [], 0, ""
    for ch in inner:
        if ch == ";" and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        depth += (ch == "<") - (ch == ">")
        cur += ch
    parts.append(cur)
    return parts


def elem(t: str) -> str:
    """The single parameter of ``vec<T>``, ``seq<T>``, ``opt<T>``, ... ."""
    return args_of(t)[0]


def is_coll(t: str) -> bool:
    """Sequential: usable wherever a sequence is expected, in order."""
    return kind(t) in ("vec", "seq")


@dataclass
class Env:
    """Locals in scope (name -> type) and the context the expression is generated in."""

    names: list[tuple[str, str]] = field(default_factory=list)

    def bind(self, name: str, t: str) -> Env:
        """This scope plus `name` of type `t`."""
        return Env([*self.names, (name, t)])

    def of(self, t: str) -> list[str]:
        """The locals of type `t`."""
        return [n for n, nt in self.names if nt == t]


class Gen:
    """One program generator; all choices come from `rng`."""

    def __init__(self, rng: random.Random, disabled: frozenset[str] | None = None) -> None:
        self.rng = rng
        self.disabled = frozenset(DISABLED) if disabled is None else disabled
        self.counter = 0

    # ------------------------------------------------------------------ helpers

    def on(self, family: str) -> bool:
        """Whether switch `family` is on (see `SWITCHES`)."""
        assert family in SWITCHES, family
        return family not in self.disabled

    def fresh(self, base: str) -> str:
        self.counter += 1
        return f"{base}{self.counter}"

    def pick(self, options: list[Callable[[], str]]) -> str:
        return self.rng.choice(options)()

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def int_lit(self) -> str:
        r = self.rng.random()
        if r < 0.6:
            return str(self.rng.randint(0, 10))
        if r < 0.85:
            return str(self.rng.randint(-20, 100))
        return str(self.rng.randint(-5000, 5000))

    def small_int(self, env: Env) -> str:
        """An int of bounded size: a literal, a count, or a small local (for `*`)."""
        opts: list[Callable[[], str]] = [lambda: str(self.rng.randint(-9, 12))]
        colls = [n for n, t in env.names if is_coll(t) or kind(t) in ("set", "map", "str")]
        if colls:
            opts.append(lambda: f"(count {self.rng.choice(colls)})")
        return self.pick(opts)

    def str_lit(self) -> str:
        return _quote(self.rng.choice(UNICODE_STRINGS if self.chance(0.15) else STRINGS))

    # ------------------------------------------------------------------ dispatch

    def gen(self, t: str, d: int, env: Env) -> str:
        """An expression of type `t` with nesting budget `d`."""
        k = kind(t)
        local = env.of(t)
        if local and self.chance(0.35 if d > 0 else 0.7):
            return self.rng.choice(local)
        if d <= 0:
            return self.leaf(t, env)
        if self.chance(0.07) and k not in ("fn", "fn2"):
            return self.control(t, d, env)
        method = getattr(self, "g_" + k)
        result: str = method(t, d, env)
        return result

    def leaf(self, t: str, env: Env) -> str:
        k = kind(t)
        if k == "int":
            return self.int_lit()
        if k == "float":
            return self.rng.choice(FLOATS)
        if k == "str":
            return self.str_lit()
        if k == "kw":
            return ":" + self.rng.choice(KEYWORDS)
        if k == "bool":
            return self.rng.choice(("true", "false"))
        if k == "opt":
            return "nil" if self.chance(0.3) else self.leaf(elem(t), env)
        if k in ("vec", "seq"):
            return self.vec_lit(elem(t), env, 0)
        if k == "set":
            return self.set_lit(elem(t))
        if k == "map":
            return self.map_lit(elem(t), env, 0)
        if k == "smap":
            return self.smap_lit(elem(t), env, 0)
        if k == "rec":
            return self.rec_lit()
        if k == "srec":
            return self.srec_lit()
        if k == "entry":
            return f"[:{self.rng.choice(MAP_KEYS)} {self.leaf(elem(t), env)}]"
        return self.gen(t, 1, env)  # functions: their bodies need a budget

    # ------------------------------------------------------------------ literals

    def vec_lit(self, et: str, env: Env, d: int) -> str:
        n = self.rng.choice((0, 1, 2, 3, 3, 4, 5))
        if et == "rec":
            return self.recs_lit()
        if et == "srec":
            return "[" + " ".join(self.srec_lit() for _ in range(n)) + "]"
        return "[" + " ".join(self.gen(et, d - 1, env) if d > 0 else self.leaf(et, env)
                              for _ in range(n)) + "]"

    def set_lit(self, et: str) -> str:
        pool: list[str]
        if et == "int":
            pool = [str(i) for i in self.rng.sample(range(-5, 20), 5)]
        elif et == "str":
            pool = ['"' + s + '"' for s in (*NAMES, *DEPTS)]
        else:
            pool = [":" + k for k in KEYWORDS]
        return "#{" + " ".join(self.rng.sample(pool, self.rng.randint(0, 4))) + "}"

    def map_lit(self, vt: str, env: Env, d: int) -> str:
        ks = self.rng.sample(MAP_KEYS, self.rng.randint(0, 4))
        body = (self.gen(vt, d - 1, env) if d > 0 else self.leaf(vt, env) for _ in ks)
        return "{" + " ".join(f":{k} {v}" for k, v in zip(ks, body, strict=True)) + "}"

    def smap_lit(self, vt: str, env: Env, d: int) -> str:
        ks = self.rng.sample(MAP_KEYS, self.rng.randint(0, 4))
        body = (self.gen(vt, d - 1, env) if d > 0 else self.leaf(vt, env) for _ in ks)
        return "{" + " ".join(f'"{k}" {v}' for k, v in zip(ks, body, strict=True)) + "}"

    def rec_fields(self) -> list[tuple[str, str]]:
        r = self.rng
        tags = " ".join(f'"{t}"' for t in r.sample(TAGS, r.randint(0, 2)))
        fields = [
            ("id", str(r.randint(1, 99))), ("name", f'"{r.choice(NAMES)}"'),
            ("dept", f'"{r.choice(DEPTS)}"'), ("price", r.choice(FLOATS[:10])),
            ("qty", str(r.randint(0, 12))), ("active", r.choice(("true", "false"))),
            ("tags", f"[{tags}]"),
        ]
        if r.random() < 0.5:
            fields.append(("score", str(r.randint(0, 100))))
        return fields

    def rec_lit(self) -> str:
        return "{" + " ".join(f":{k} {v}" for k, v in self.rec_fields()) + "}"

    def srec_lit(self) -> str:
        return "{" + " ".join(f'"{k}" {v}' for k, v in self.rec_fields()) + "}"

    def recs_lit(self) -> str:
        n = self.rng.choice((0, 2, 3, 4, 5, 6))
        return "[" + "\n   ".join(self.rec_lit() for _ in range(n)) + "]"

    # ------------------------------------------------------------------ control forms

    def control(self, t: str, d: int, env: Env) -> str:
        r = self.rng.random()
        g = self.gen
        if r < 0.3:
            return f"(if {g('bool', d - 1, env)} {g(t, d - 1, env)} {g(t, d - 1, env)})"
        if r < 0.55:
            bt = self.rng.choice(("int", "str", "vec<int>", "rec", "float", "map<int>"))
            name = self.fresh(self.rng.choice(("x", "v", "n", "tmp")))
            init = g(bt, d - 1, env)
            return f"(let [{name} {init}]\n  {g(t, d - 1, env.bind(name, bt))})"
        if r < 0.7:
            return (f"(cond {g('bool', d - 1, env)} {g(t, d - 1, env)}\n"
                    f"      {g('bool', d - 1, env)} {g(t, d - 1, env)}\n"
                    f"      :else {g(t, d - 1, env)})")
        if r < 0.8:
            keys = self.rng.sample(("eng", "ops", "sales"), 2)
            return (f"(case {g('str', d - 1, env)} \"{keys[0]}\" {g(t, d - 1, env)} "
                    f"\"{keys[1]}\" {g(t, d - 1, env)} {g(t, d - 1, env)})")
        if r < 0.9 and self.on("if-let"):
            name = self.fresh("found")
            inner = self.rng.choice(("int", "str"))
            src = g(f"opt<{inner}>", d - 1, env)
            form = self.rng.choice(("if-let", "if-some"))
            return f"({form} [{name} {src}] {g(t, d - 1, env.bind(name, inner))} {g(t, d - 1, env)})"
        if t == "opt<int>" or t == "opt<str>":
            name = self.fresh("w")
            inner = elem(t)
            form = self.rng.choice(("when-let", "when-some"))
            return f"({form} [{name} {g(t, d - 1, env)}] {g(inner, d - 1, env.bind(name, inner))})"
        if self.chance(0.2):  # a do body: the first value is dropped, its errors are not
            return f"(do {g(self.rng.choice(('int', 'str', 'vec<int>')), d - 1, env)} {g(t, d - 1, env)})"
        return f"(if-not {g('bool', d - 1, env)} {g(t, d - 1, env)} {g(t, d - 1, env)})"

    # ------------------------------------------------------------------ scalars

    def g_int(self, t: str, d: int, env: Env) -> str:
        g, r = self.gen, self.rng
        c = d - 1
        colls = r.choice(("vec<int>", "seq<int>", "vec<str>", "vec<rec>", "set<kw>", "map<int>",
                          "str", "seq<rec>", "smap<int>"))
        opts: list[Callable[[], str]] = [
            lambda: f"({r.choice(('+', '-'))} {g('int', c, env)} {g('int', c, env)})",
            lambda: f"(+ {g('int', c, env)} {g('int', c, env)} {g('int', c, env)})",
            lambda: f"(* {self.small_int(env)} {self.small_int(env)})",
            lambda: f"({r.choice(('inc', 'dec', 'abs', '-'))} {g('int', c, env)})",
            lambda: f"({r.choice(('quot', 'rem', 'mod'))} {g('int', c, env)} "
                    f"{r.choice(('2', '3', '7', '-4', '10'))})",
            lambda: f"({r.choice(('max', 'min'))} {g('int', c, env)} {g('int', c, env)})",
            lambda: f"(count {g(colls, c, env)})",
            lambda: f"(reduce + 0 {g(r.choice(('vec<int>', 'seq<int>')), c, env)})",
            lambda: f"(reduce + {g('vec<int>', c, env)})",
            lambda: f"(apply + {g('seq<int>', c, env)})",
            lambda: f"(or {g('opt<int>', c, env)} {g('int', c, env)})",
            lambda: f"(nth {g('vec<int>', c, env)} {r.randint(0, 4)} {g('int', c, env)})",
            lambda: f"(get {g('map<int>', c, env)} :{r.choice(MAP_KEYS)} {g('int', c, env)})",
            lambda: f"(count (filter {g('fn<int;bool>', c, env)} {g('seq<int>', c, env)}))",
            lambda: f"(:{r.choice(('qty', 'id'))} {g('rec', c, env)})",
            lambda: f"(get {g('srec', c, env)} \"{r.choice(('qty', 'id'))}\")",
            lambda: f"(compare {g('int', c, env)} {g('int', c, env)})",
            lambda: f"({r.choice(('bit-and', 'bit-or', 'bit-xor'))} {g('int', c, env)} "
                    f"{g('int', c, env)})",
            lambda: f"(reduce {g('fn2<int;int;int>', c, env)} {g('int', c, env)} "
                    f"{g('seq<int>', c, env)})",
            lambda: f"(reduce {g('fn2<int;rec;int>', c, env)} 0 {g('vec<rec>', c, env)})",
            self.loop_int(c, env),
            lambda: f"(get-in {g('map<map<int>>', c, env)} [:{r.choice(MAP_KEYS)} "
                    f":{r.choice(MAP_KEYS)}] {g('int', c, env)})",
            lambda: f"(count (str {g('int', c, env)}))",
            lambda: f"(->> {g('vec<rec>', c, env)} (map :qty) (reduce + 0))",
            lambda: f"(apply max {g('int', c, env)} {g('seq<int>', c, env)})",
            lambda: f"({g('fn<int;int>', c, env)} {g('int', c, env)})",
            lambda: f"(int {self.clamped_float(c, env)})",
            lambda: f"({r.choice(('quot', 'rem', 'mod'))} {g('int', c, env)} {g('int', c, env)})",
            lambda: f"(Math/round {self.clamped_float(c, env)})",
            lambda: f"(Math/abs {g('int', c, env)})",
            lambda: "(count (str/split {1} {0}))".format(*self.regex_on(SPLIT_REGEXES, c, env)),
            lambda: f"(or (str/last-index-of {g('str', c, env)} {r.choice(INDEX_SUBS)}) -1)",
            lambda: f"(or (str/index-of {g('str', c, env)} {r.choice(INDEX_SUBS)} {r.randint(0, 14)}) -1)",
            lambda: f"(:qty (apply {r.choice(('max-key', 'min-key'))} :qty {g('rec', c, env)} {g('seq<rec>', c, env)}))",
            lambda: f"(apply {r.choice(('max-key', 'min-key'))} {r.choice(('-', 'abs', '#(mod % 3)'))} {g('int', c, env)} {g('seq<int>', c, env)})",
            lambda: f"(let [[a b & more] {g('seq<int>', c, env)}] (+ (or a 0) (or b 0) (count more)))",
            lambda: f"(let [{{:keys [qty id] :or {{qty 0}} :as r}} {g('opt<rec>', c, env)}] (+ qty (count r)))",
            lambda: f"(count (filter #{{\\a \\e \\i \\o \\u}} {g('str', c, env)}))",
            lambda: f"(reduce + (vals (frequencies {g('str', c, env)})))",
            lambda: f"(count (partition-by {g('fn<int;bool>', c, env)} {g('seq<int>', c, env)}))",
            lambda: f"(condp = {g('int', c, env)} 1 10 2 20 {g('int', c, env)})",
            lambda: f"(case {g('int', c, env)} (1 2 3) 100 (4 5) 200 {g('int', c, env)})",
            lambda: f"(case {g(r.choice(('kw', 'str', 'opt<int>')), c, env)} :a 1 \"abc\" 2 nil 3 (:x :y) 4 5 6 {g('int', c, env)})",
            lambda: f"(condp {r.choice(('<', '>', '<=', '='))} {g('int', c, env)} 0 -1 10 1 {g('int', c, env)})",
            lambda: f"(or (some-> {g('opt<int>', c, env)} inc) 0)",
            lambda: f"(cond-> {g('int', c, env)} {g('bool', c, env)} inc {g('bool', c, env)} (- 10))",
            lambda: f"(as-> {g('int', c, env)} n (+ n 1) (max n {g('int', c, env)}))",
            lambda: f"(-> {g('int', c, env)} (+ 2) (- {g('int', c, env)}) abs)",
            lambda: f"(or (when-first [w {g('seq<int>', c, env)}] (inc w)) 0)",
            lambda: f"(bit-shift-left {r.randint(0, 50)} {r.randint(0, 8)})",
            lambda: f"(long {self.clamped_float(c, env)})",
            *self.wide_int(c, env),
        ]
        if self.chance(0.03):  # deliberate error cases: both sides must fail
            return r.choice((f"(quot {g('int', c, env)} 0)", f"(mod {g('int', c, env)} 0)",
                             f"(+ 1 (get {g('map<int>', c, env)} :zz))", "(/ 1 0)"))
        return self.pick(opts)

    def clamped_float(self, c: int, env: Env) -> str:
        """A float kept within ±1e6, for float->integer conversions.

        (Math/round 1.0E21) is Long/MAX_VALUE on both sides, and arithmetic on it overflows in
        Clojure only (decision 27: integers are unbounded here).
        """
        return f"(max -1.0E6 (min 1.0E6 {self.gen('float', c, env)}))"

    def loop_int(self, c: int, env: Env) -> Callable[[], str]:
        def make() -> str:
            i, acc = self.fresh("i"), self.fresh("acc")
            body_env = env.bind(i, "int").bind(acc, "int")
            n = self.rng.randint(0, 8)
            step = self.gen("int", min(c, 1), body_env)
            return (f"(loop [{i} 0 {acc} {self.gen('int', 0, env)}]\n"
                    f"  (if (< {i} {n}) (recur (inc {i}) (+ {acc} {step})) {acc}))")
        return make

    def g_float(self, t: str, d: int, env: Env) -> str:
        g, r = self.gen, self.rng
        c = d - 1
        num: Callable[[], str] = lambda: g(r.choice(("int", "float")), c, env)  # noqa: E731
        opts: list[Callable[[], str]] = [
            lambda: f"({r.choice(('+', '-'))} {g('float', c, env)} {num()})",
            lambda: f"({r.choice(('+', '-'))} {num()} {g('float', c, env)})",
            lambda: f"(* {g('float', c, env)} {self.small_int(env)})",
            lambda: f"(* {g('float', c, env)} {r.choice(FLOATS)})",
            lambda: f"(/ {num()} {r.choice(('2.0', '4.0', '0.5', '3.0', '-8.0'))})",
            lambda: f"(/ {g('float', c, env)} {r.choice(('2', '3', '10'))})",
            lambda: f"(double {g('int', c, env)})",
            lambda: f"({r.choice(('max', 'min'))} {g('float', c, env)} {g('float', c, env)})",
            lambda: f"({r.choice(('inc', 'dec', 'abs', '-'))} {g('float', c, env)})",
            lambda: f"({r.choice(('rem', 'mod'))} {self.rem_float(c, env)} {r.choice(('2', '0.75'))})",
            lambda: f"(:price {g('rec', c, env)})",
            lambda: f"(reduce + 0.0 (map :price {g('vec<rec>', c, env)}))",
            lambda: f"(->> {g('vec<rec>', c, env)} (filter {g('fn<rec;bool>', c, env)}) "
                    f"(map #(* (:price %) (:qty %))) (reduce + 0.0))",
            lambda: f"(reduce + 0.0 {g('seq<float>', c, env)})",
            lambda: f"(or (:price {g('opt<rec>', c, env)}) {g('float', c, env)})",
            lambda: f"(get {g('srec', c, env)} \"price\")",
            lambda: f"({g('fn<float;float>', c, env)} {g('float', c, env)})",
            lambda: f"({r.choice(('rem', 'mod'))} {self.rem_float(c, env)} {r.choice(('-2', '-0.75', '1.5', '3'))})",
            lambda: f"({r.choice(('rem', 'mod'))} {self.rem_dividend('int', c, env)} {r.choice(('-2.5', '0.75', '4.0'))})",
            lambda: f"(Math/{r.choice(('floor', 'ceil', 'sqrt', 'abs'))} {g('float', c, env)})",
            lambda: f"(Math/pow {g('float', c, env)} {r.choice(('2', '0.5', '3', '-1'))})",
            lambda: f"(Math/{r.choice(('max', 'min'))} {g('float', c, env)} {g('float', c, env)})",
            # No (double (/ a b)) of integers: Clojure turns the ratio into a double through a
            # 16-digit decimal, one ulp off the quotient (decision 26: no ratios here).
            lambda: f"(let [xs {g('seq<float>', c, env)}] (if (seq xs) (/ (reduce + xs) (count xs)) 0.0))",
            lambda: f"(or (parse-double {r.choice(DOUBLE_TEXTS)}) -1.0)",
        ]
        if self.chance(0.03):
            return r.choice(("(/ 1.0 0)", f"(+ {g('float', c, env)} nil)"))
        return self.pick(opts)

    def rem_float(self, c: int, env: Env) -> str:
        """A float dividend for rem/mod: any float, or with the switch off a moderate literal.

        Clojure computes a float rem as n - d*(long)(n/d) in doubles; ours is the exact fmod.
        They differ for huge quotients ((rem 1.0E21 3): 0.0 vs 1.0) and on a zero result's
        sign ((rem -1.5 0.75): 0.0 vs -0.0), so with the switch off dividends are moderate and
        not negative.
        """
        return self.rem_dividend("float", c, env)

    def rem_dividend(self, t: str, c: int, env: Env) -> str:
        """See `rem_float`: a dividend of type `t` for a float rem/mod."""
        if self.on("float-rem-edges"):
            return self.gen(t, c, env)
        if t == "float":
            return "(abs " + self.rng.choice(MODERATE_FLOATS) + ")"
        return f"(abs {self.gen(t, c, env)})"

    def g_str(self, t: str, d: int, env: Env) -> str:
        g, r = self.gen, self.rng
        c = d - 1
        printable: Callable[[], str] = lambda: g(r.choice(("int", "float", "str", "kw", "bool", "opt<str>",  # noqa: E731
                                        "vec<int>", "vec<str>", "opt<int>")), c, env)
        s: Callable[[], str] = lambda: g("str", c, env)  # noqa: E731
        opts: list[Callable[[], str]] = [
            lambda: f"(str {printable()} {printable()})",
            lambda: f"(str {printable()} \"-\" {printable()} {printable()})",
            lambda: f"(str {printable()})",
            lambda: f"(let [s {s()}] (subs s (min {r.randint(0, 4)} (count s))))",
            lambda: f"(let [s {s()}] (subs s 0 (min {r.randint(0, 6)} (count s))))",
            lambda: f"({r.choice(('str/upper-case', 'str/lower-case', 'str/trim', 'str/triml', 'str/trimr', 'str/capitalize', 'clojure.string/reverse', 'str/trim-newline'))} {s()})",
            lambda: f"(str/join {r.choice(JOIN_SEPS)}"
                    f"{g(r.choice(('vec<str>', 'seq<str>', 'seq<int>', 'vec<kw>')), c, env)})",
            lambda: "(str/replace {1} {0} {2})".format(*self.regex_on(REPLACE_MATCH, c, env), r.choice(REPLACE_WITH)),
            lambda: f"(name {g('kw', c, env)})",
            lambda: f"(:{r.choice(('name', 'dept'))} {g('rec', c, env)})",
            lambda: f"(get {g('srec', c, env)} \"name\")",
            lambda: f"(or {g('opt<str>', c, env)} {s()})",
            lambda: f"(apply str {g('seq<str>', c, env)})",
            lambda: f"(apply str (interpose \", \" {g('seq<str>', c, env)}))",
            lambda: f"(pr-str {g(r.choice(('int', 'str', 'kw', 'float', 'vec<str>', 'vec<int>', 'bool')), c, env)})",
            lambda: f"(format \"{r.choice(('%s=%d', '%s: %d items', '[%s] %5d'))}\" {s()} {g('int', c, env)})",
            lambda: f"(format \"{r.choice(('%.2f', '%.1f', '%8.3f', 'total %.2f'))}\" {g('float', c, env)})",
            lambda: f"(format \"%s|%s\" {g('kw', c, env)} {g('str', c, env)})",
            lambda: f"({g('fn<str;str>', c, env)} {s()})",
            lambda: f"(nth {g('vec<str>', c, env)} {r.randint(0, 3)} {s()})",
            lambda: f"(str/join \",\" (sort {g('seq<str>', c, env)}))",
            lambda: f"(str/join \" \" (map name (sort {g('seq<kw>', c, env)})))",
            lambda: f"(format {r.choice(FORMATS_NUM)} {g('int', c, env)})",
            lambda: f"(format {r.choice(FORMATS_FLOAT)} {g('float', c, env)})",
            lambda: f"(str {g('float', c, env)})",
            lambda: f"(apply str (reverse {s()}))",
            lambda: f"(apply str (sort {s()}))",
            lambda: f"(apply str (distinct {s()}))",
            lambda: f"(str (first {s()}) (last {s()}))",
            lambda: f"(str/replace {s()} {r.choice(GROUP_REGEXES)} {r.choice(GROUP_REPLACEMENTS)})",
            lambda: f"(str/replace {s()} #\"[aeiou]\" {r.choice(('str/upper-case', '(fn [m] (str m m))'))})",
            lambda: "(str/replace-first {1} {0} {2})".format(*self.regex_on(REPLACE_MATCH, c, env), r.choice(REPLACE_WITH)),
            lambda: f"(pr-str {g(r.choice(('opt<str>', 'opt<int>', 'vec<vec<int>>', 'rec')), c, env)})",
            lambda: f"(str {g(r.choice(('vec<vec<int>>', 'vec<kw>', 'vec<float>', 'rec', 'opt<rec>')), c, env)})",
            lambda: f"(str/join \",\" (map (fn [[k v]] (str (name k) \"=\" v)) (sort-by key {g('map<int>', c, env)})))",
            lambda: f"(subs {s()} 0 0)",
            lambda: f"(str/join (interpose {r.choice(SUBSTRINGS)} {g('vec<str>', c, env)}))",
            lambda: f"(str/lower-case (str {g('kw', c, env)}))",
            lambda: f"(str/join {r.choice(JOIN_SEPS)}{s()})" if self.on("join-string") else f"(str/join {r.choice(JOIN_SEPS)}(seq {s()}))",
            lambda: f"(let [{{a :a b :b :or {{b {g('str', 0, env)}}}}} {g('map<str>', c, env)}] (str a b))",
            lambda: f"(if-some [v {g('opt<str>', c, env)}] (str/upper-case v) \"none\")",
            *self.wide_str(c, env),
        ]
        return self.pick(opts)

    def g_kw(self, t: str, d: int, env: Env) -> str:
        g, r = self.gen, self.rng
        c = d - 1
        opts: list[Callable[[], str]] = [
            lambda: f"(keyword {r.choice(KEYWORD_NAMES)})",
            lambda: f"(keyword {g('kw', c, env)})",
            lambda: (f"(let [n {g('int', c, env)}] (cond (< n 5) :low (< n 50) :mid :else :high))"),
            lambda: f"(if {g('bool', c, env)} {g('kw', c, env)} {g('kw', c, env)})",
            lambda: f"(or (first (sort {g('seq<kw>', c, env)})) :none)",
            lambda: f"(case {g('int', c, env)} 0 :zero 1 :one :many)",
            lambda: f"(get {{:a :x :b :y}} {g('kw', c, env)} :z)",
            lambda: (f"(or (some->> (seq (sort-by key {g('map<int>', c, env)})) (apply max-key val) key) "
                     f":none)"),
            # key of a plain vector is accepted here (target GAP-S17), a ClassCastException there
            lambda: (lambda e: f"(if-let [{e} (find {g('map<int>', c, env)} :{r.choice(MAP_KEYS)})] (key {e}) :none)")(self.fresh("e")),
        ]
        return self.pick(opts)

    def g_bool(self, t: str, d: int, env: Env) -> str:
        g, r = self.gen, self.rng
        c = d - 1
        eqt = r.choice(("int", "str", "kw", "bool", "vec<int>", "map<int>", "set<kw>", "float",
                        "opt<int>", "rec"))
        num: Callable[[], str] = lambda: g(r.choice(("int", "float", "int")), c, env)  # noqa: E731
        opts: list[Callable[[], str]] = [
            lambda: f"({r.choice(('=', 'not='))} {g(eqt, c, env)} {g(eqt, c, env)})",
            lambda: f"({r.choice(('<', '>', '<=', '>='))} {num()} {num()})",
            lambda: f"(< {g('int', c, env)} {g('int', c, env)} {g('int', c, env)})",
            lambda: f"({r.choice(('zero?', 'pos?', 'neg?'))} {num()})",
            lambda: f"({r.choice(('even?', 'odd?'))} {g('int', c, env)})",
            lambda: f"(not {g('bool', c, env)})",
            lambda: f"({r.choice(('and', 'or'))} {g('bool', c, env)} {g('bool', c, env)})",
            lambda: f"(empty? {g(r.choice(('vec<int>', 'seq<str>', 'map<int>', 'str', 'set<int>')), c, env)})",
            lambda: f"(contains? {g('map<int>', c, env)} :{r.choice(MAP_KEYS)})",
            lambda: f"(contains? {g('set<str>', c, env)} {g('str', c, env)})",
            lambda: f"({r.choice(('some?', 'nil?'))} {g(r.choice(('opt<int>', 'opt<str>')), c, env)})",
            lambda: f"({r.choice(('str/includes?', 'str/starts-with?', 'str/ends-with?'))} "
                    f"{g('str', c, env)} {r.choice(SUBSTRINGS)})",
            lambda: f"(str/blank? {g('str', c, env)})",
            lambda: f"({r.choice(('every?', 'not-any?', 'not-every?'))} {g('fn<int;bool>', c, env)} "
                    f"{g('seq<int>', c, env)})",
            lambda: f"(boolean (some {g('fn<rec;bool>', c, env)} {g('vec<rec>', c, env)}))",
            lambda: f"(:active {g('rec', c, env)})",
            lambda: f"({r.choice(('string?', 'keyword?', 'number?', 'map?', 'vector?', 'int?', 'float?', 'boolean?', 'set?', 'coll?'))} "
                    f"{g(r.choice(('int', 'str', 'kw', 'float', 'vec<int>', 'map<int>', 'bool', 'set<int>')), c, env)})",
            lambda: f"({g('fn<int;bool>', c, env)} {g('int', c, env)})",
            lambda: f"(distinct? {g('int', c, env)} {g('int', c, env)})",
            lambda: f"(true? {g('bool', c, env)})",
            *self.wide_bool(c, env),
        ]
        return self.pick(opts)

    def g_opt(self, t: str, d: int, env: Env) -> str:
        g, r = self.gen, self.rng
        c = d - 1
        e = elem(t)
        opts: list[Callable[[], str]] = [lambda: "nil", lambda: g(e, c, env)]
        if e == "int":
            opts += [
                lambda: f"(first {g('seq<int>', c, env)})",
                lambda: f"(last {g('vec<int>', c, env)})",
                lambda: f"(get {g('map<int>', c, env)} :{r.choice(MAP_KEYS)})",
                lambda: f"(:{r.choice(MAP_KEYS)} {g('map<int>', c, env)})",
                lambda: f"({g('map<int>', c, env)} :{r.choice(MAP_KEYS)})",
                lambda: f"(get {g('smap<int>', c, env)} \"{r.choice(MAP_KEYS)}\")",
                lambda: f"(:score {g('rec', c, env)})",
                lambda: f"(get {g('vec<int>', c, env)} {r.randint(0, 4)})",
                lambda: f"(parse-long {r.choice(LONG_TEXTS)})",
                lambda: f"(str/index-of {g('str', c, env)} {r.choice(INDEX_SUBS)})",
                lambda: f"(some {g('fn<int;opt<int>>', c, env)} {g('seq<int>', c, env)})",
                lambda: f"(when (pos? {g('int', c, env)}) {g('int', c, env)})",
                lambda: f"(first (keep {g('fn<int;opt<int>>', c, env)} {g('seq<int>', c, env)}))",
            ]
        elif e == "str":
            opts += [
                lambda: f"(first {g('seq<str>', c, env)})",
                lambda: f"(get {g('smap<str>', c, env)} \"{r.choice(MAP_KEYS)}\")",
                lambda: f"(some #{{\"eng\" \"ops\"}} {g('seq<str>', c, env)})",
                lambda: f"(re-find #\"[a-z]+\" {g('str', c, env)})",
                lambda: f"(second (str/split {g('str', c, env)} #\",\"))",
                lambda: f"(not-empty {g('str', c, env)})",
                lambda: f"(:name (first {g('seq<rec>', c, env)}))",
            ]
        elif e == "rec":
            opts += [
                lambda: f"(first {g('seq<rec>', c, env)})",
                lambda: f"(first (filter {g('fn<rec;bool>', c, env)} {g('vec<rec>', c, env)}))",
                lambda: f"(last (sort-by :{r.choice(('id', 'price', 'qty'))} {g('vec<rec>', c, env)}))",
            ]
        return self.pick(opts)

    # ------------------------------------------------------------------ collections

    def g_vec(self, t: str, d: int, env: Env) -> str:
        g, r = self.gen, self.rng
        c = d - 1
        e = elem(t)
        srcs = ("int", "str", "rec", "kw", "float")
        opts: list[Callable[[], str]] = [
            lambda: self.vec_lit(e, env, c),
            lambda: f"(vec {g(f'seq<{e}>', c, env)})",
            lambda: f"(into [] {g(f'seq<{e}>', c, env)})",
            lambda: f"(conj {g(t, c, env)} {g(e, c, env)})",
            lambda: (lambda a: f"(mapv {g(f'fn<{a};{e}>', c, env)} {g(f'seq<{a}>', c, env)})")(r.choice(srcs)),
            lambda: f"(filterv {g(f'fn<{e};bool>', c, env)} {g(t, c, env)})",
            lambda: f"(let [v {g(t, c, env)}] (subvec v 0 (min {r.randint(0, 4)} (count v))))",
            lambda: f"(reduce conj {g(t, c, env)} {g(f'seq<{e}>', c, env)})",
            lambda: f"(assoc {g(t, c, env)} 0 {g(e, c, env)})",
        ]
        if e in SORTABLE:
            opts.append(lambda: f"(vec (sort {g(f'seq<{e}>', c, env)}))")
        if e == "kw":
            opts.append(lambda: f"(vec (sort (keys {g('map<int>', c, env)})))")
        if e == "str":
            opts += [
                lambda: "(str/split {1} {0})".format(*self.regex_on(SPLIT_REGEXES, c, env)),
                lambda: "(vec (re-seq {} {}))".format(*self.regex_on((self.class_regex(),), c, env)),
                lambda: f"(mapv :name {g('vec<rec>', c, env)})",
                lambda: f"(:tags {g('rec', c, env)})",
                lambda: f"(vec (sort (keys {g('smap<int>', c, env)})))",
                lambda: f"(vec (re-seq #\"[a-z]+\" {g('str', c, env)}))",
            ]
        if e == "int":
            opts += [
                lambda: f"(vec (range {r.randint(-2, 3)} {r.randint(0, 9)}))",
                lambda: f"(mapv #(mod (* % {r.randint(3, 31)}) {r.randint(5, 97)}) (range {r.randint(10, 300)}))",
                lambda: f"(vec (range {r.randint(0, 10)} {r.randint(-3, 3)} {r.choice(('-1', '-2', '2', '3'))}))",
                lambda: f"(mapv :qty {g('vec<rec>', c, env)})",
                lambda: f"(vec (sort (vals {g('map<int>', c, env)})))",
                lambda: f"(vec (sort > {g('seq<int>', c, env)}))",
            ]
        if e == "float":
            opts.append(lambda: f"(mapv :price {g('vec<rec>', c, env)})")
        if e == "rec":
            opts += [
                lambda: f"(vec (sort-by :{r.choice(('id', 'qty', 'price', 'name'))} {g('vec<rec>', c, env)}))",
                self.built_recs,
                lambda: f"(mapv #(update % :qty {r.choice(('inc', 'dec'))}) {g('vec<rec>', c, env)})",
                lambda: f"(mapv #(assoc % :price {g('float', 0, env)}) {g('vec<rec>', c, env)})",
                lambda: f"(filterv {g('fn<rec;bool>', c, env)} {g('vec<rec>', c, env)})",
            ]
        if e.startswith("vec<"):
            ie = elem(e)
            opts += [lambda: f"(mapv vec (partition-all {r.randint(1, 3)} {g(f'seq<{ie}>', c, env)}))"]
        if e == "rec":
            opts.append(lambda: f"(walk/keywordize-keys {g('vec<srec>', c, env)})")
        if e == "srec":
            opts += [lambda: f"(walk/stringify-keys {g('vec<rec>', c, env)})",
                     self.built_srecs,
                     lambda: f"(vec {self.srec_pipeline(c, env)})"]
        if e.startswith("entry<"):
            opts = [lambda: f"(vec (sort-by key {g(f'map<{elem(e)}>', c, env)}))"]
        return self.pick(opts)

    def g_seq(self, t: str, d: int, env: Env) -> str:
        g, r = self.gen, self.rng
        c = d - 1
        e = elem(t)
        same: Callable[[], str] = lambda: g(r.choice((t, f"vec<{e}>")), c, env)  # noqa: E731
        n: Callable[[], str] = lambda: r.choice(("0", "1", "2", "3", "5", str(r.randint(0, 4))))  # noqa: E731
        srcs = ("int", "str", "rec", "kw", "float")
        if self.chance(0.03):  # nil punning: sequence functions take nil as empty
            return r.choice(("nil", "(seq [])", "(next [0])", "(get {} :zz)", "(not-empty [])"))
        opts: list[Callable[[], str]] = [
            lambda: g(f"vec<{e}>", c, env),
            lambda: (lambda a: f"(map {g(f'fn<{a};{e}>', c, env)} {g(f'seq<{a}>', c, env)})")(r.choice(srcs)),
            lambda: f"({r.choice(('filter', 'remove'))} {g(f'fn<{e};bool>', c, env)} {same()})",
            lambda: f"({r.choice(('take', 'drop', 'take-last', 'drop-last'))} {n()} {same()})",
            lambda: f"({r.choice(('take-while', 'drop-while'))} {g(f'fn<{e};bool>', c, env)} {same()})",
            lambda: f"(reverse {same()})",
            lambda: f"(concat {same()} {same()})",
            lambda: f"(rest {same()})",
            lambda: f"(cons {g(e, c, env)} {same()})",
            lambda: f"(interleave {same()} {same()})",
            lambda: f"(interpose {g(e, c, env)} {same()})",
            lambda: f"(keep {g(f'fn<{e};opt<{e}>>', c, env)} {same()})" if e in ("int", "str") else g(t, c, env),
            lambda: self.for_form(t, c, env),
            lambda: f"(mapcat {g(f'fn<{e};vec<{e}>>', c, env)} {same()})",
            lambda: f"(map-indexed (fn [i x] {g(e, c, env.bind('i', 'int').bind('x', e))}) {same()})",
            lambda: f"(butlast {same()})",
            # (nthrest nil n) is nil in Clojure, [] here: a nil source only with the switch on.
            lambda: f"(nthrest {same() if self.on('nil-nthrest') else '(vec ' + same() + ')'} {n()})",
            lambda: f"(dedupe {same()})",
        ]
        if e in SORTABLE:
            opts += [lambda: f"(sort {same()})", lambda: f"(sort > {same()})" if e in ("int", "float") else f"(sort {same()})"]
        if e in HASHABLE:
            opts += [lambda: f"(distinct {same()})", lambda: f"(sort (set {same()}))"]
        if e == "int":
            opts += [
                lambda: f"(range {r.randint(0, 8)})",
                lambda: f"(range {r.randint(-3, 3)} {r.randint(0, 10)} {r.randint(1, 3)})",
                lambda: f"(keep-indexed (fn [i x] (when (even? i) (+ i x))) {same()})",
                lambda: f"(map + {same()} {same()})",
                lambda: f"(map count {g('seq<str>', c, env)})",
                lambda: f"(sort (vals {g('smap<int>', c, env)}))",
                lambda: f"(map :qty {g('seq<rec>', c, env)})",
                lambda: f"(keep :score {g('seq<rec>', c, env)})",
                lambda: f"(map (fnil inc 0) (map :score {g('seq<rec>', c, env)}))",
                lambda: f"(let [[a [b c] & more] [{g('int', c, env)} {g('vec<int>', c, env)} {g('int', c, env)}]] (remove nil? [a b c (count more)]))",
                lambda: f"(loop [[x & xs] {same()} acc nil] (if x (recur xs (cons (* x 2) acc)) acc))",
                lambda: f"(map #(get % \"qty\") {g('vec<srec>', c, env)})",
                lambda: f"(flatten {g('vec<vec<int>>', c, env)})",
                lambda: f"(map (fn [[k v]] (+ v (count (name k)))) (sort-by key {g('map<int>', c, env)}))",
                lambda: f"(map second (sort-by first {g('map<int>', c, env)}))",
                lambda: f"(sort {r.choice(('>', '<', '#(compare %2 %1)', '(comp - compare)'))} {same()})",
                lambda: f"(sort-by {r.choice(('-', 'abs', '#(mod % 3)', 'identity'))} {same()})",
                lambda: f"(map-indexed + {same()})",
                lambda: f"(first (split-with {g('fn<int;bool>', c, env)} {same()}))",
                lambda: f"(second (split-at {r.randint(-1, 4)} {same()}))",
                lambda: f"(apply concat (partition {r.randint(1, 3)} {r.randint(1, 3)} [0 0] {same()}))",
                lambda: f"(map (fn [[a b]] (+ a (or b 0))) (partition-all 2 {same()}))",
                lambda: f"(reductions + {same()})",
                lambda: f"(sort (map count (vals (group-by {g('fn<int;kw>', c, env)} {same()}))))",
                lambda: f"(sort (map second (frequencies {same()})))",
                lambda: f"(replace {{1 100 2 200}} {g('vec<int>', c, env)})",
                lambda: f"(loop [xs {same()} acc []] (if (seq xs) (recur (rest xs) (conj acc (* 2 (first xs)))) acc))",
                lambda: f"(repeat {r.randint(0, 3)} {g('int', c, env)})",
                lambda: f"(nthnext {same()} {r.randint(0, 3)})",
                lambda: f"(map {r.choice(('max', 'min', '-', '+'))} {same()} {same()} {same()})",
            ]
        if e == "str":
            opts += [
                lambda: f"(map :name {g('seq<rec>', c, env)})",
                lambda: f"(distinct (mapcat :tags {g('vec<rec>', c, env)}))",
                lambda: f"(sort (keys {g('smap<int>', c, env)}))",
                lambda: f"(map #(get % \"name\") {g('vec<srec>', c, env)})",
                lambda: f"(map str {g('seq<int>', c, env)} {g('seq<kw>', c, env)})",
                lambda: f"(sort-by count {same()})",
                lambda: f"(sort-by {r.choice(('str/lower-case', 'identity'))} {self.str_comparator()} {same()})",
                lambda: f"(sort-by count {r.choice(('>', '<', 'compare'))} {same()})",
                lambda: f"(remove str/blank? (str/split-lines {g('str', c, env)}))",
                lambda: f"(map str/trim (str/split {g('str', c, env)} #\",\"))",
                lambda: f"(keep not-empty {same()})",
                lambda: f"(map (comp str/capitalize name) {g('seq<kw>', c, env)})",
            ]
        if e == "rec":
            opts += [self.pipeline(c, env)] * 4
            opts += [
                lambda: f"(sort-by :score {same()})",
                lambda: f"(sort-by :score {self.num_comparator()} {same()})",
                lambda: f"(sort-by :tags {same()})",
                lambda: f"(filter :score {same()})",
                lambda: f"(sort-by {r.choice(('(juxt :dept :qty)', '(juxt (comp - :qty) :id)', ':name'))} {same()})",
                lambda: f"(sort-by :price {r.choice(('>', '<', '#(compare %2 %1)'))} {same()})",
                lambda: f"(sort-by :id (map #(dissoc % :score) {same()}))",
                lambda: f"(map #(assoc % :qty (count (:tags %))) {same()})",
            ]
            opts += [
                lambda: f"(sort-by {g('fn<rec;int>', c, env)} {same()})",
                lambda: f"(sort-by :{r.choice(('id', 'qty', 'price'))} > {same()})",
                lambda: f"(sort-by (juxt :dept :id) {same()})",
                lambda: f"(filter :active {same()})",
            ]
        if e == "kw":
            opts += [lambda: f"(sort (keys {g('map<int>', c, env)}))",
                     lambda: f"(sort (keys {g('map<str>', c, env)}))"]
        if e.startswith("vec<") or e.startswith("seq<"):
            ie = elem(e)
            # partition's groups are seqs in Clojure (vectors here, DIV-25): for vec<T>
            # elements they are made vectors, so vector?/conj/str see the same thing.
            w: Callable[[str], str] = (lambda x: f"(map vec {x})") if e.startswith("vec<") else (lambda x: x)
            opts += [lambda: w(f"(partition-all {r.randint(1, 3)} {g(f'seq<{ie}>', c, env)})"),
                     lambda: w(f"(partition {r.randint(1, 3)} {g(f'seq<{ie}>', c, env)})"),
                     lambda: w(f"(partition {r.randint(1, 3)} {r.randint(1, 3)} {g(f'seq<{ie}>', c, env)})")]
        opts += self.wide_seq(t, c, env)
        return self.pick(opts)

    def class_regex(self) -> str:
        """A regex with a character class; \\w \\s \\d only while `unicode-regex-classes` is on."""
        pool = ['#"[a-z]+"', '#"[A-Za-z]+"', '#"[0-9]+"', '#"[^ ,]+"', '#"[a-z]+?"', '#"(?:ab|a)c?"']
        if self.on("unicode-regex-classes"):
            pool += ['#"\\w+"', '#"\\d+"', '#"\\S+"', '#"(?i)[a-zé]+"']
        return self.rng.choice(pool)

    def regex_on(self, pool: tuple[str, ...], c: int, env: Env) -> tuple[str, str]:
        """A regex from `pool` and a subject string for it.

        A class like \\s or \\w gets an ASCII literal subject while `unicode-regex-classes`
        is off (Java's classes are ASCII-only, ours Unicode-aware).
        """
        regex = self.rng.choice(pool)
        if "\\" in regex and not self.on("unicode-regex-classes"):
            return regex, self.str_lit_ascii()
        return regex, self.gen("str", c, env)

    def str_lit_ascii(self) -> str:
        """A literal from the ASCII pool."""
        return _quote(self.rng.choice(STRINGS))

    def num_comparator(self) -> str:
        """A comparator over nil-able numbers: `>`/`<` throw on nil in Clojure (switch)."""
        ok = ["compare", "#(compare %2 %1)"]
        if self.on("numeric-comparator-on-strings"):
            ok += [">", "<"]
        return self.rng.choice(ok)

    def str_comparator(self) -> str:
        """A comparator for strings; `>`/`<` only while the switch is on (Clojure: an error)."""
        ok = ["compare", "#(compare %2 %1)"]
        if self.on("numeric-comparator-on-strings"):
            ok += [">", "<"]
        return self.rng.choice(ok)

    def for_form(self, t: str, c: int, env: Env) -> str:
        g, r = self.gen, self.rng
        e = elem(t)
        src = r.choice(("int", "rec", "str", e)) if e in SCALARS or e == "rec" else e
        x = self.fresh("x")
        inner = env.bind(x, src)
        binds = f"{x} {g(f'vec<{src}>', c, env)}"
        if self.chance(0.4):
            y = self.fresh("y")
            binds += f" :let [{y} {g('int', c - 1, inner)}]"
            inner = inner.bind(y, "int")
        if self.chance(0.25):
            binds += f" :while {g('bool', c - 1, inner)}"
        if self.chance(0.5):
            binds += f" :when {g('bool', c - 1, inner)}"
        if self.chance(0.2):
            z = self.fresh("z")
            binds += f" {z} {g('vec<int>', 0, env)}"
            inner = inner.bind(z, "int")
        return f"(for [{binds}]\n  {g(e, c, inner)})"

    def pipeline(self, c: int, env: Env) -> Callable[[], str]:
        """A ->> chain over records, the shape LLM-written programs take most."""
        def make() -> str:
            g, r = self.gen, self.rng
            steps = []
            for _ in range(r.randint(1, 3)):
                steps.append(r.choice((
                    f"(filter {g('fn<rec;bool>', c, env)})",
                    f"(remove {g('fn<rec;bool>', c, env)})",
                    f"(sort-by :{r.choice(('id', 'qty', 'price', 'name'))})",
                    f"(take {r.randint(0, 4)})",
                    f"(drop {r.randint(0, 2)})",
                    f"(map #(update % :qty {r.choice(('inc', 'dec', '(fn [q] (* q 2))'))}))",
                    "(filter :active)",
                    f"(filter #(= (:dept %) \"{r.choice(DEPTS)}\"))",
                    "(reverse)",
                )))
            return f"(->> {g('vec<rec>', c, env)}\n     " + "\n     ".join(steps) + ")"
        return make

    def built_srecs(self) -> str:
        """Many string-keyed records built from a range (JSON-shaped data read with get)."""
        r = self.rng
        n = r.choice((5, 9, 17, 40, 120))
        k = r.randint(3, 13)
        score = r.choice(("", f" \"score\" (when (odd? i) (mod i {k}))"))
        return (f"(mapv (fn [i] {{\"id\" i \"name\" (nth [\"ann\" \"bob\" \"cy\"] (mod i 3))"
                f" \"dept\" (nth [\"eng\" \"ops\" \"sales\"] (mod (* i 7) 3)) \"price\" (* 0.5 (mod i {k}))"
                f" \"qty\" (mod (* i {k}) 11) \"active\" (even? (quot i 2)) \"tags\" (if (zero? (mod i 4)) [\"vip\"] [])"
                f"{score}}}) (range {n}))")

    def srec_pipeline(self, c: int, env: Env) -> str:
        """A ->> chain over string-keyed records, each step reading fields with get."""
        g, r = self.gen, self.rng
        steps = []
        for _ in range(r.randint(1, 3)):
            steps.append(r.choice((
                f"(filter #(> (get % \"qty\") {r.randint(0, 8)}))",
                "(filter #(get % \"active\"))",
                f"(remove #(= (get % \"dept\") \"{r.choice(DEPTS)}\"))",
                f"(sort-by #(get % \"{r.choice(('id', 'qty', 'price', 'name'))}\"))",
                "(sort-by #(get % \"qty\") >)",
                f"(take {r.randint(0, 5)})",
                "(map #(update % \"qty\" inc))",
                "(map #(assoc % \"total\" (* (get % \"price\") (get % \"qty\"))))",
                "(filter #(seq (get % \"tags\")))",
                "(sort-by (juxt #(get % \"dept\") #(get % \"id\")))",
            )))
        return f"(->> {g('vec<srec>', c, env)}\n     " + "\n     ".join(steps) + ")"

    def built_recs(self) -> str:
        """Many records built from a range: sizes where a runtime may switch representations."""
        r = self.rng
        n = r.choice((8, 9, 17, 33, 64, 120))
        k = r.randint(3, 13)
        score = r.choice(("", f" :score (when (odd? i) (mod i {k}))"))
        return (f"(mapv (fn [i] {{:id i :name (nth [\"ann\" \"bob\" \"cy\"] (mod i 3))"
                f" :dept (nth [\"eng\" \"ops\" \"sales\"] (mod (* i 7) 3)) :price (* 0.25 (mod i {k}))"
                f" :qty (mod (* i {k}) 11) :active (even? (quot i 2)) :tags (if (zero? (mod i 4)) [\"vip\"] [])"
                f"{score}}}) (range {n}))")

    def g_set(self, t: str, d: int, env: Env) -> str:
        g, r = self.gen, self.rng
        c = d - 1
        e = elem(t)
        opts: list[Callable[[], str]] = [
            lambda: self.set_lit(e),
            lambda: f"(set {g(f'seq<{e}>', c, env)})",
            lambda: f"(into #{{}} {g(f'seq<{e}>', c, env)})",
            lambda: f"(conj {g(t, c, env)} {g(e, c, env)})",
            lambda: f"(disj {g(t, c, env)} {g(e, c, env)})",
            lambda: f"({r.choice(('clojure.set/union', 'clojure.set/intersection', 'clojure.set/difference'))} "
                    f"{g(t, c, env)} {g(t, c, env)})",
        ]
        if e == "kw":
            opts.append(lambda: f"(set (keys {g('map<int>', c, env)}))")
        if e == "str":
            opts += [lambda: f"(set (map :dept {g('vec<rec>', c, env)}))",
                     lambda: f"(set (mapcat :tags {g('vec<rec>', c, env)}))"]
        if e == "int":
            opts.append(lambda: f"(set (vals {g('map<int>', c, env)}))")
            opts.append(lambda: f"(set (map val {g('map<int>', c, env)}))")
        if e == "kw":
            opts.append(lambda: f"(set (map key {g('map<int>', c, env)}))")
        opts += [lambda: f"(set/select {g(f'fn<{e};bool>', c, env)} {g(t, c, env)})",
                 lambda: f"(into {g(t, c, env)} {g(t, c, env)})"]
        return self.pick(opts)

    def g_map(self, t: str, d: int, env: Env) -> str:
        g, r = self.gen, self.rng
        c = d - 1
        v = elem(t)
        k: Callable[[], str] = lambda: ":" + r.choice(MAP_KEYS)  # noqa: E731
        opts: list[Callable[[], str]] = [
            lambda: self.map_lit(v, env, c),
            lambda: f"(assoc {g(t, c, env)} {k()} {g(v, c, env)})",
            lambda: f"(dissoc {g(t, c, env)} {k()})",
            lambda: f"(merge {g(t, c, env)} {g(t, c, env)})",
            lambda: f"(select-keys {g(t, c, env)} [{k()} {k()}])",
            lambda: f"(zipmap {g('vec<kw>', c, env)} {g(f'seq<{v}>', c, env)})",
            lambda: f"(into {{}} (map (fn [[k v]] [k {g(v, c, env.bind('v', v))}]) {g(t, c, env)}))",
            lambda: f"(reduce-kv (fn [m k v] (assoc m k {g(v, c, env.bind('v', v))})) {{}} {g(t, c, env)})",
            lambda: f"(update-vals {g(f'map<{v}>', c, env)} {g(f'fn<{v};{v}>', c, env)})",
            lambda: f"(into {g(t, c, env)} {g(f'vec<entry<{v}>>', c, env)})",
        ]
        if v in ("int", "float"):
            opts += [
                lambda: f"(merge-with + {g(t, c, env)} {g(t, c, env)})",
                lambda: f"(update {g(t, c, env)} {k()} (fnil {r.choice(('inc', 'dec', '-'))} {g(v, 0, env)}))",
                lambda: f"(update {g(t, c, env)} {k()} (fnil + 0) {g(v, c, env)})",
            ]
        if v == "int":
            opts += [
                lambda: f"(reduce (fn [m i] (assoc m (keyword (str \"k\" (mod i {r.randint(5, 90)}))) i)) {g(t, c, env)} (range {r.randint(5, 200)}))",
                lambda: f"(frequencies {g('seq<kw>', c, env)})",
                lambda: f"(reduce (fn [acc w] (update acc w (fnil inc 0))) {{}} {g('seq<kw>', c, env)})",
                lambda: f"(update-vals (group-by {g('fn<int;kw>', c, env)} {g('seq<int>', c, env)}) count)",
            ]
        if v.startswith("map<"):
            iv = elem(v)
            opts += [
                lambda: f"(assoc-in {g(t, c, env)} [{k()} {k()}] {g(iv, c, env)})",
                lambda: f"(update-in {g(t, c, env)} [{k()} {k()}] (fnil {r.choice(('inc', 'dec'))} 0))"
                if iv == "int" else f"(assoc-in {g(t, c, env)} [{k()} {k()}] {g(iv, c, env)})",
            ]
        if v.startswith("vec<"):
            opts += [lambda: f"(group-by {g(f'fn<{elem(v)};kw>', c, env)} {g(f'seq<{elem(v)}>', c, env)})"]
        opts += self.wide_map(t, c, env)
        return self.pick(opts)

    def g_smap(self, t: str, d: int, env: Env) -> str:
        g, r = self.gen, self.rng
        c = d - 1
        v = elem(t)
        k: Callable[[], str] = lambda: '"' + r.choice(MAP_KEYS) + '"'  # noqa: E731
        opts: list[Callable[[], str]] = [
            lambda: self.smap_lit(v, env, c),
            lambda: f"(assoc {g(t, c, env)} {k()} {g(v, c, env)})",
            lambda: f"(dissoc {g(t, c, env)} {k()})",
            lambda: f"(merge {g(t, c, env)} {g(t, c, env)})",
            lambda: f"(update-keys {g(f'map<{v}>', c, env)} name)",
        ]
        if v == "int":
            opts += [
                lambda: f"(frequencies {g('seq<str>', c, env)})",
                lambda: f"(frequencies (map :dept {g('vec<rec>', c, env)}))",
                lambda: f"(update-vals (group-by :dept {g('vec<rec>', c, env)}) count)",
                lambda: f"(update-vals (group-by :dept {g('vec<rec>', c, env)}) #(reduce + (map :qty %)))",
                lambda: f"(reduce (fn [acc r] (update acc (:dept r) (fnil + 0) (:qty r))) {{}} {g('vec<rec>', c, env)})",
                lambda: f"(into {{}} (map (juxt :name :qty) {g('seq<rec>', c, env)}))",
            ]
        if v == "vec<rec>":
            opts += [lambda: f"(group-by :{r.choice(('dept', 'name'))} {g('seq<rec>', c, env)})"]
        if v == "float":
            opts += [lambda: f"(update-vals (group-by :dept {g('vec<rec>', c, env)}) #(reduce + 0.0 (map :price %)))"]
        opts += self.wide_smap(t, c, env)
        return self.pick(opts)

    def g_rec(self, t: str, d: int, env: Env) -> str:
        g, r = self.gen, self.rng
        c = d - 1
        opts: list[Callable[[], str]] = [
            self.rec_lit,
            lambda: f"(update {g('rec', c, env)} :qty {r.choice(('inc', 'dec', '(fnil inc 0)'))})",
            lambda: f"(assoc {g('rec', c, env)} :price {g('float', c, env)})",
            lambda: f"(assoc {g('rec', c, env)} :active {g('bool', c, env)})",
            lambda: f"(update {g('rec', c, env)} :name str/upper-case)",
            lambda: f"(update {g('rec', c, env)} :tags conj {g('str', c, env)})",
            lambda: f"(merge {g('rec', c, env)} {{:qty {g('int', c, env)}}})",
            lambda: f"(or (first {g('seq<rec>', c, env)}) {self.rec_lit()})",
            lambda: f"(dissoc {g('rec', c, env)} :score)",
            *self.wide_rec(c, env),
        ]
        return self.pick(opts)

    def g_obj(self, t: str, d: int, env: Env) -> str:
        """A value only returned, never consumed: shapes with no static type of their own."""
        g, r = self.gen, self.rng
        c = d - 1
        recs: Callable[[], str] = lambda: g(r.choice(OBJ_SOURCES), c, env)  # noqa: E731
        ints: Callable[[], str] = lambda: g("seq<int>", c, env)  # noqa: E731
        opts: list[Callable[[], str]] = [
            lambda: f"(group-by :score {recs()})",
            lambda: f"(frequencies (map :score {recs()}))",
            lambda: f"(into {{}} (map (juxt :id :score) {recs()}))",
            lambda: f"(group-by {r.choice(('even?', 'pos?', '#(mod % 3)'))} {ints()})",
            lambda: f"(zipmap (range {r.randint(0, 4)}) {g('seq<str>', c, env)})",
            lambda: f"(frequencies {ints()})",
            lambda: f"(apply map vector (cons [1 2] {g('vec<vec<int>>', c, env)}))",
            lambda: f"(reductions {r.choice(('+', 'max', '-'))} {ints()})",
            lambda: f"(reductions + {g('int', c, env)} {ints()})",
            lambda: f"(tree-seq vector? seq {g('vec<vec<int>>', c, env)})",
            lambda: f"(find {g('map<int>', c, env)} :{r.choice(MAP_KEYS)})",
            lambda: f"(split-at {r.randint(-1, 4)} {ints()})",
            lambda: f"(split-with {g('fn<int;bool>', c, env)} {ints()})",
            lambda: f"(select-keys {g('rec', c, env)} [:id :zz :score])",
            lambda: f"((juxt :id :name :score) {g('rec', c, env)})",
            lambda: f"((some-fn :score :qty) {g('rec', c, env)})",
            lambda: f"(merge-with into {g('map<vec<int>>', c, env)} {g('map<vec<int>>', c, env)})",
            lambda: f"(sort {g('vec<vec<int>>', c, env)})",
            lambda: f"(sort (map even? {ints()}))",
            lambda: f"(map (juxt identity {g('fn<int;int>', c, env)}) {ints()})",
            lambda: f"(get-in {g('rec', c, env)} [:tags {r.randint(0, 2)}])",
            lambda: f"(assoc-in {g('rec', c, env)} [:tags 0] {g('str', c, env)})",
            lambda: f"(update-in {g('rec', c, env)} [:tags] conj {g('str', c, env)})",
            lambda: f"(assoc {g('map<int>', c, env)} :a {g('int', c, env)} :b {g('int', c, env)})",
            lambda: f"(dissoc {g('map<int>', c, env)} :a :b)",
            lambda: f"(empty {g(r.choice(('vec<int>', 'map<int>', 'set<kw>')), c, env)})",
            lambda: f"(not-empty {g(r.choice(('vec<int>', 'map<int>', 'str')), c, env)})",
            lambda: f"(let [{{:keys [a b] :as m}} {g('map<int>', c, env)}] [a b (count m)])",
            lambda: f"(when-let [[a b] (seq {ints()})] [b a])",
            lambda: f"(if-some [x {r.choice(('false', 'nil', '0'))}] [:some x] :none)",
            lambda: f"(mapv (fn [[k v]] [v k]) (sort-by key {g('map<int>', c, env)}))",
            lambda: f"(interleave {ints()} {g('seq<kw>', c, env)})",
            lambda: f"(map vector {ints()} {g('seq<str>', c, env)})",
            lambda: f"(partition-by {g('fn<int;bool>', c, env)} {ints()})",
            lambda: f"(let [xs {ints()}] (when (seq xs) (apply {r.choice(('max-key', 'min-key'))} {r.choice(('-', 'abs', '#(mod % 2)'))} xs)))",
            lambda: f"(let [xs {g('seq<str>', c, env)}] (when (seq xs) (apply {r.choice(('max-key', 'min-key'))} count xs)))",
            lambda: f"(->> {recs()} (group-by :dept) (map (fn [[d rs]] [d (count rs) (reduce + (map :qty rs))])) (sort-by first))",
            lambda: f"(->> {recs()} (map :tags) (apply concat) frequencies)",
            lambda: f"(->> {recs()} (filter :active) (map #(select-keys % [:id :price])) (sort-by :price))",
            lambda: f"(for [[d rs] (sort-by key (group-by :dept {recs()}))] {{:dept d :n (count rs) :max (apply max (map :qty rs))}})",
            lambda: f"(reduce (fn [m {{:keys [dept qty]}}] (update m dept (fnil conj []) qty)) {{}} {recs()})",
            lambda: f"(update-vals (group-by :dept {recs()}) #(mapv :id %))",
            lambda: f"(into {{}} (filter (fn [[k v]] (even? v)) {g('map<int>', c, env)}))",
            *self.wide_obj(c, env),
        ]
        return self.pick(opts)

    def g_srec(self, t: str, d: int, env: Env) -> str:
        if self.chance(0.15):
            return f"(walk/stringify-keys {self.gen('rec', d - 1, env)})"
        if self.chance(0.1):
            return f"(update {self.gen('srec', d - 1, env)} \"qty\" + {self.gen('int', d - 1, env)} 1)"
        return self.srec_lit() if self.chance(0.7) else (
            f"(assoc {self.gen('srec', d - 1, env)} \"qty\" {self.gen('int', d - 1, env)})")

    def g_entry(self, t: str, d: int, env: Env) -> str:
        return f"[:{self.rng.choice(MAP_KEYS)} {self.gen(elem(t), d - 1, env)}]"

    # ------------------------------------------------------------------ functions

    def g_fn(self, t: str, d: int, env: Env) -> str:
        a, b = args_of(t)
        r = self.rng
        if d >= 2 and self.chance(0.1):
            made = self.composed_fn(a, b, d, env)
            if made is not None:
                return made
        named = self.named_fns(a, b)
        if named and self.chance(0.35):
            return r.choice(named)
        if a == "rec" and self.chance(0.5):
            fields = [f for f, ft in REC_FIELDS.items() if ft == b]
            if fields and self.chance(0.6):
                return ":" + r.choice(fields)
            picks = r.sample(sorted(REC_FIELDS), 2)
            body_env = env
            for f in picks:
                body_env = body_env.bind(f, REC_FIELDS[f])
            return f"(fn [{{:keys [{' '.join(picks)}]}}] {self.gen(b, d - 1, body_env)})"
        if a == "srec" and self.chance(0.5):
            picks = r.sample(sorted(REC_FIELDS), 2)
            body_env = env
            for f in picks:
                body_env = body_env.bind(f, REC_FIELDS[f])
            return f"(fn [{{:strs [{' '.join(picks)}]}}] {self.gen(b, d - 1, body_env)})"
        if b == "bool" and a in HASHABLE and self.chance(0.15):
            return f"(comp boolean {self.set_lit(a)})"
        if self.chance(0.4):
            # The argument is generated under a placeholder name: a body holding a #() of its
            # own cannot be a #() (Clojure has no nested #()), so it becomes a plain fn.
            arg = self.fresh("ARG") + "__"
            body = self.gen(b, d - 1, env.bind(arg, a))
            if arg in body and body != arg:
                if "#(" in body:
                    x = self.fresh("p")
                    return f"(fn [{x}] {body.replace(arg, x)})"
                body = body.replace(arg, "%")
                return f"#({body[1:-1]})" if _one_form(body) else f"#(identity {body})"
        if self.chance(0.15) and named:
            return f"(comp {r.choice(named)} identity)"
        x = self.fresh(r.choice(("x", "item", "v")))
        return f"(fn [{x}] {self.gen(b, d - 1, env.bind(x, a))})"

    def named_fns(self, a: str, b: str) -> list[str]:
        table: dict[tuple[str, str], list[str]] = {
            ("int", "int"): ["inc", "dec", "-", "abs", "(partial + 10)", "(partial - 5)", "#(* 2 %)",
                             "(comp inc inc)", "(fn [n] (quot n 2))", "#(mod % 3)"],
            ("float", "float"): ["inc", "-", "abs", "#(* % 2)", "(partial + 0.5)"],
            ("int", "bool"): ["even?", "odd?", "pos?", "neg?", "zero?", "#(> % 3)",
                              "(complement even?)", "(every-pred pos? odd?)", "#(< 2 % 8)"],
            ("str", "str"): ["str/upper-case", "str/lower-case", "str/trim", "str/capitalize",
                             "#(str % \"!\")", "(partial str \"x-\")", "(fnil str/trim \"\")"],
            ("str", "bool"): ["str/blank?", "#(str/includes? % \"a\")", "#(> (count %) 3)",
                              "(complement str/blank?)", "(comp boolean #{\"eng\" \"ops\"})"],
            ("str", "int"): ["count", "#(count (str/trim %))"],
            ("kw", "str"): ["name", "str"],
            ("kw", "bool"): ["keyword?", "(comp boolean #{:a :b :eng})", "#(= % :a)"],
            ("int", "str"): ["str", "#(str \"n\" %)", "pr-str"],
            ("int", "kw"): ["#(if (even? %) :even :odd)", "(fn [n] (if (> n 5) :big :small))"],
            ("int", "opt<int>"): ["#(when (even? %) %)", "(fn [n] (when (pos? n) (* n 2)))"],
            ("str", "opt<str>"): ["not-empty", "#(re-find #\"[a-z]+\" %)"],
            ("rec", "bool"): [":active", "#(> (:qty %) 3)", "(comp pos? :qty)",
                              "#(= \"eng\" (:dept %))", "(fn [{:keys [price]}] (< price 2.0))",
                              "(comp boolean :score)", "(every-pred :active #(pos? (:qty %)))"],
            ("rec", "int"): [":qty", ":id", "#(* (:qty %) 2)", "(comp count :tags)",
                             "(fn [r] (get r :score 0))"],
            ("rec", "str"): [":name", ":dept", "(comp str/upper-case :name)", "#(str (:name %) \"@\" (:dept %))"],
            ("rec", "kw"): ["#(keyword (:dept %))", "#(if (:active %) :on :off)"],
            ("rec", "rec"): ["identity", "#(update % :qty inc)", "#(assoc % :active true)"],
            ("int", "vec<int>"): ["vector", "#(vector % %)", "(fn [n] (vec (range (mod n 4))))"],
            ("str", "vec<str>"): ["vector", "#(str/split % #\",\")"],
            ("rec", "vec<str>"): [":tags"],
            ("rec", "float"): [":price", "#(* (:price %) (:qty %))"],
        }
        out = table.get((a, b), [])
        if a == b:
            out = [*out, "identity"]
        return out

    def g_fn2(self, t: str, d: int, env: Env) -> str:
        acc_t, x_t, _ = args_of(t)
        r = self.rng
        if acc_t == x_t and acc_t in ("int", "float") and self.chance(0.4):
            return r.choice(("+", "max", "min", "-"))
        acc, x = self.fresh("acc"), self.fresh(r.choice(("x", "row", "item")))
        if x_t == "rec" and self.chance(0.4):
            picks = r.sample(("qty", "id", "price", "active"), 2)
            body_env = env.bind(acc, acc_t)
            for f in picks:
                body_env = body_env.bind(f, REC_FIELDS[f])
            return f"(fn [{acc} {{:keys [{' '.join(picks)}]}}] {self.gen(acc_t, d - 1, body_env)})"
        return f"(fn [{acc} {x}] {self.gen(acc_t, d - 1, env.bind(acc, acc_t).bind(x, x_t))})"

    # ------------------------------------------------------------------ widened families
    # The second campaign's families: clojure.walk, clojure.set beyond the three set
    # operations, key/val, merge-with with several functions, update/update-in with extra
    # arguments, new levels made by assoc-in/update-in, compare by sign only (our compare is
    # -1/0/1, Clojure's a distance: target §4.4), bit operations, characters as one-character
    # strings (decision 25), closures and functions returning functions, apply/partial/comp/
    # every-pred/some-fn with several arguments, some->>/cond->>, nested destructuring and
    # string-keyed records read with get. What they avoid is said where they avoid it.

    def wide_int(self, c: int, env: Env) -> list[Callable[[], str]]:
        """Int-valued shapes of the widened families."""
        g, r = self.gen, self.rng
        i: Callable[[], str] = lambda: g("int", c, env)  # noqa: E731
        f: Callable[[], str] = lambda: g("fn<int;int>", c, env)  # noqa: E731
        p: Callable[[], str] = lambda: g("fn<int;bool>", c, env)  # noqa: E731
        return [
            lambda: f"(count (set/select {p()} {g('set<int>', c, env)}))",
            self.compare_sign(c, env),
            lambda: f"(apply {r.choice(('+', 'max', 'min'))} {i()} {i()} {g('seq<int>', c, env)})",
            lambda: f"((partial {r.choice(('+', 'max', 'min', '-'))} {i()} {i()}) {i()} {i()})",
            lambda: f"((comp {f()} {f()} {f()}) {i()})",
            self.closure_int(c, env),
            # The step is wrapped in a call: a bare #() step differs (docs/divergences.md, §5.16).
            lambda: f"(or (some->> {g('seq<int>', c, env)} (filter {p()}) first ({f()})) -1)",
            lambda: (f"(cond->> {g('seq<int>', c, env)} {g('bool', c, env)} (map {f()}) "
                     f"{g('bool', c, env)} (filter {p()}) true (reduce + 0))"),
            # Shifts stay small: a long overflows in Clojure (decision 27: not here).
            lambda: f"(bit-not {i()})",
            lambda: f"(bit-shift-right {i()} {r.randint(0, 8)})",
            lambda: f"({r.choice(('bit-set', 'bit-clear', 'bit-flip'))} {i()} {r.randint(0, 12)})",
            lambda: f"(bit-and-not {i()} {i()})",
            lambda: f"(if (bit-test {i()} {r.randint(0, 6)}) 1 0)",
            lambda: f"(reduce + (map val {g('map<int>', c, env)}))",
            lambda: f"(count (filter (comp even? val) {g('map<int>', c, env)}))",
            lambda: f"(count (distinct (map #(select-keys % [:dept :active]) {g('vec<rec>', c, env)})))",
            lambda: (f"(->> {g('vec<srec>', c, env)} (filter #(get % \"active\")) "
                     f"(map #(get % \"qty\")) (reduce + 0))"),
            lambda: f"(reduce + 0 (map #(get % \"score\" 0) {g('vec<srec>', c, env)}))",
            lambda: f"(count (get-in {g('map<map<int>>', c, env)} [:{r.choice(MAP_KEYS)}] {{}}))",
            self.nested_destructure(c, env),
            lambda: f"(int (Math/{r.choice(('ceil', 'floor'))} {self.clamped_float(c, env)}))",
            lambda: f"(count (walk/keywordize-keys {g('smap<int>', c, env)}))",
            lambda: (f"(reduce + 0 (flatten (vals (walk/postwalk (fn [x] (if (number? x) (inc x) x)) "
                     f"{g('map<vec<int>>', c, env)}))))"),
            # max-key/min-key keep the last of equal keys on both sides: :id shows which.
            lambda: (f"(:id (apply {r.choice(('max-key', 'min-key'))} :qty {g('rec', c, env)} "
                     f"{g('rec', c, env)} {g('seq<rec>', c, env)}))"),
            lambda: f"(count (filter #(= % \\a) {g('str', c, env)}))",
            lambda: f"(reduce + 0 (map #(get % \"qty\") {self.srec_pipeline(c, env)}))",
            lambda: (lambda w: f"(or (when-some [{w} {g('opt<int>', c, env)}] (inc {w})) 0)")(self.fresh("w")),
            lambda: (lambda w: f"(when-some [{w} {g('bool', c, env)}] (if {w} 1 2))")(self.fresh("w")),
            lambda: f"(count (set/union {g('set<int>', c, env)} (set/select {p()} {g('set<int>', c, env)})))",
        ]

    def compare_sign(self, c: int, env: Env) -> Callable[[], str]:
        """The sign of a compare: Clojure's result is a distance for strings and keywords."""
        def make() -> str:
            # No floats: compare with NaN is a documented gap (target §14 DIV-33).
            t = self.rng.choice(("str", "kw", "int", "bool", "vec<int>", "opt<int>", "opt<str>",
                                 "vec<str>"))
            n = self.fresh("cmp")
            return (f"(let [{n} (compare {self.gen(t, c, env)} {self.gen(t, c, env)})] "
                    f"(cond (pos? {n}) 1 (neg? {n}) -1 :else 0))")
        return make

    def closure_int(self, c: int, env: Env) -> Callable[[], str]:
        """Closures: a function returning a function, and functions capturing loop variables."""
        def make() -> str:
            g, r = self.gen, self.rng
            f, k, x, fs, h = (self.fresh(b) for b in ("mk", "k", "x", "fs", "h"))
            n = r.randint(0, 5)
            op = r.choice(("+", "-", "max"))
            pick = r.randrange(3)
            if pick == 0:
                return (f"(let [{f} (fn [{k}] (fn [{x}] ({op} {x} {k})))] "
                        f"(({f} {g('int', c, env)}) {g('int', c, env)}))")
            if pick == 1:
                return (f"(reduce + 0 (map (fn [{h}] ({h} {g('int', c, env)})) "
                        f"(for [{k} (range {n})] (fn [{x}] ({op} {x} {k})))))")
            return (f"(loop [{k} 0 {fs} []] (if (< {k} {n}) (recur (inc {k}) (conj {fs} (fn [] (* {k} {k})))) "
                    f"(reduce + 0 (map (fn [{h}] ({h})) {fs}))))")
        return make

    def nested_destructure(self, c: int, env: Env) -> Callable[[], str]:
        """Vectors inside maps, maps inside vectors, a rest map (target §14 GAP-S119)."""
        def make() -> str:
            g, r = self.gen, self.rng
            a, b, x, y, more = (self.fresh(s) for s in ("a", "b", "x", "y", "more"))
            pick = r.randrange(3)
            if pick == 0:
                return (f"(let [{{{{:keys [a b] :or {{a 0 b 0}}}} :m [{x} {y} & {more}] :v}} "
                        f"{{:m {g('map<int>', c, env)} :v {g('seq<int>', c, env)}}}] "
                        f"(+ a b (or {x} 0) (or {y} 0) (count {more})))")
            if pick == 1:
                return (f"(let [[{a} & {{:keys [x y] :or {{y {r.randint(0, 9)}}}}}] "
                        f"[{g('int', c, env)} :x {g('int', c, env)}]] (+ {a} x y))")
            return (f"(let [[[{a} {b}] {{:keys [qty]}} & {more}] [{g('vec<int>', c, env)} "
                    f"{g('rec', c, env)} {g('int', c, env)}]] (+ (or {a} 0) (or {b} 0) qty (count {more})))")
        return make

    def wide_bool(self, c: int, env: Env) -> list[Callable[[], str]]:
        """Bool-valued shapes of the widened families."""
        g, r = self.gen, self.rng
        st = r.choice(("set<int>", "set<str>", "set<kw>"))
        p: Callable[[], str] = lambda: g("fn<int;bool>", c, env)  # noqa: E731
        t = r.choice(("str", "kw", "int", "vec<int>", "opt<str>"))
        return [
            lambda: f"(set/{r.choice(('subset?', 'superset?'))} {g(st, c, env)} {g(st, c, env)})",
            lambda: f"({r.choice(('pos?', 'neg?', 'zero?'))} (compare {g(t, c, env)} {g(t, c, env)}))",
            lambda: f"((every-pred {p()} {p()} {p()}) {g('int', c, env)})",
            lambda: f"((some-fn {p()} {p()} {p()}) {g('int', c, env)})",
            lambda: f"(some? (re-matches {r.choice(GROUP_MATCH)} {self.str_lit_ascii()}))",
            lambda: f"(boolean (some #(= % \\a) {g('str', c, env)}))",
            lambda: f"(contains? (walk/stringify-keys {g('map<int>', c, env)}) \"{r.choice(MAP_KEYS)}\")",
            lambda: (lambda m: f"(let [{m} {g('map<int>', c, env)}] "
                               f"(= {m} (walk/keywordize-keys (walk/stringify-keys {m}))))")(self.fresh("m")),
            lambda: f"(every? #(get % \"active\") {g('vec<srec>', c, env)})",
        ]

    def wide_str(self, c: int, env: Env) -> list[Callable[[], str]]:
        """String-valued shapes of the widened families."""
        g, r = self.gen, self.rng
        s: Callable[[], str] = lambda: g("str", c, env)  # noqa: E731
        sf: Callable[[], str] = lambda: g("fn<str;str>", c, env)  # noqa: E731
        ch = self.fresh("ch")
        return [
            lambda: f"(str/escape {s()} {r.choice(ESCAPES)})",
            lambda: f"(str/escape {s()} (fn [{ch}] (when (= {ch} \\e) \"E\")))",
            lambda: f"(or (second (re-find {r.choice(GROUP_FIND)} {self.str_lit_ascii()})) \"none\")",
            lambda: f"(or (last (re-matches {r.choice(GROUP_MATCH)} {self.str_lit_ascii()})) \"none\")",
            lambda: f"(str (re-find (re-pattern {r.choice(PATTERN_TEXTS)}) {self.str_lit_ascii()}))",
            lambda: f"(format \"{r.choice(('%5s|', '%-5s|', '%s=%s', '%-8s|%3s'))}\" {s()} {s()})",
            lambda: f"(str/join \",\" (map (comp name key) (sort-by key {g('map<int>', c, env)})))",
            lambda: f"(get (walk/stringify-keys {g('rec', c, env)}) \"name\")",
            lambda: f"(apply str {s()} {s()} {g('seq<str>', c, env)})",
            lambda: f"((partial str {s()} {s()}) {s()})",
            lambda: f"(or (some->> {g('opt<str>', c, env)} str/trim not-empty str/upper-case) \"none\")",
            lambda: f"(apply str (map (fn [{ch}] (if (= {ch} \\space) \\_ {ch})) {s()}))",
            lambda: f"(apply str (remove #{{\\a \\e \\space}} {s()}))",
            lambda: f"(str \\x {s()} \\y)",
            lambda: f"(str/join \"-\" (map str {s()}))",
            lambda: (lambda a, b: f"(let [[{a} {b}] (str/split {s()} #\",\")] (str {b} \"/\" {a}))")(
                self.fresh("a"), self.fresh("b")),
            lambda: f"(get-in {g('rec', c, env)} [:tags {r.randint(0, 2)}] \"none\")",
            # :as of a string binds the string (a bug this campaign found)
            lambda: (lambda a, b, w: f"(let [[{a} {b} :as {w}] {s()}] (str {b} {a} (count {w}) {w}))")(
                self.fresh("a"), self.fresh("b"), self.fresh("w")),
            lambda: f"((comp {sf()} {sf()} {sf()}) {s()})",
            lambda: f"(or (get {g('srec', c, env)} \"{r.choice(('name', 'nick'))}\") \"?\")",
            lambda: f"(str/join \",\" (map #(get % \"name\") (sort-by #(get % \"qty\") {g('vec<srec>', c, env)})))",
            lambda: (f"(or (some->> (seq (sort-by key {g('map<int>', c, env)})) (apply max-key val) key name) "
                     f"\"none\")"),
        ]

    def wide_map(self, t: str, c: int, env: Env) -> list[Callable[[], str]]:
        """Keyword-keyed map shapes of the widened families (`t` is ``map<V>``)."""
        g, r = self.gen, self.rng
        v = elem(t)
        k: Callable[[], str] = lambda: ":" + r.choice(MAP_KEYS)  # noqa: E731
        m: Callable[[], str] = lambda: g(t, c, env)  # noqa: E731
        opts: list[Callable[[], str]] = [
            lambda: f"(into {m()} {m()})",
            # Literal keys only: a string that is no keyword name stays a string here
            # (docs/divergences.md keywordize-keys, decision 12), as (frequencies strs) can make.
            lambda: f"(walk/keywordize-keys {self.smap_lit(v, env, c)})",
            # New keys never collide with old ones: which of two colliding entries wins follows
            # iteration order, hash order in Clojure past 8 keys (decision 6).
            lambda: f"(walk/postwalk-replace {{:a :aa :c :cc}} {m()})",
            lambda: f"(into {{}} (map (juxt key (comp {g(f'fn<{v};{v}>', c, env)} val)) {m()}))",
            lambda: f"(merge-with (fn [_ b] b) {m()} {m()})",
            lambda: f"(select-keys {m()} [{k()} :zz {k()}])",
        ]
        if v in ("int", "float"):
            opts += [
                lambda: f"(merge-with {r.choice(('max', 'min', '-', '(fn [a _] a)'))} {m()} {m()})",
                lambda: f"(merge-with + {m()} {m()} {m()})",
                lambda: f"(update {m()} {k()} (fnil + 0) {g(v, c, env)} {g(v, c, env)})",
                lambda: f"(apply merge-with + {m()} {g(f'vec<map<{v}>>', c, env)})",
            ]
        if v == "int":
            kk, x = self.fresh("k"), self.fresh("x")
            opts += [
                # nil entries are dropped by into (a bug this campaign found).
                lambda: f"(into {{}} (map (fn [[{kk} {x}]] (when (pos? {x}) [{kk} {x}])) {m()}))",
                lambda: f"(reduce-kv (fn [acc {kk} {x}] (if (even? {x}) (assoc acc {kk} {x}) acc)) {{}} {m()})",
                lambda: f"(walk/postwalk (fn [{x}] (if (int? {x}) (* 2 {x}) {x})) {m()})",
                lambda: f"(update-vals (group-by {g('fn<int;kw>', c, env)} {g('seq<int>', c, env)}) (partial reduce + 0))",
                lambda: (f"(reduce (fn [acc r] (update acc (keyword (:dept r)) (fnil + 0) (:qty r))) "
                         f"{{}} {g('vec<rec>', c, env)})"),
            ]
        if v.startswith("map<"):
            iv = elem(v)
            opts += [
                lambda: f"(assoc-in {{}} [{k()} {k()}] {g(iv, c, env)})",
                lambda: f"(update {m()} {k()} merge {g(v, c, env)})",
                lambda: f"(walk/keywordize-keys (walk/stringify-keys {m()}))",
            ]
            if iv == "int":
                opts.append(lambda: f"(update-in {m()} [{k()} {k()}] (fnil + 0) {g('int', c, env)} {g('int', c, env)})")
        if v.startswith("vec<"):
            opts.append(lambda: f"(merge-with (comp vec concat) {m()} {m()})")
        return opts

    def wide_smap(self, t: str, c: int, env: Env) -> list[Callable[[], str]]:
        """String-keyed map shapes of the widened families (`t` is ``smap<V>``)."""
        g, r = self.gen, self.rng
        v = elem(t)
        opts: list[Callable[[], str]] = [
            lambda: f"(walk/stringify-keys {g(f'map<{v}>', c, env)})",
            lambda: f"(into {g(t, c, env)} {g(t, c, env)})",
        ]
        if v in ("int", "float"):
            opts.append(lambda: f"(merge-with {r.choice(('+', 'max', 'min'))} {g(t, c, env)} {g(t, c, env)})")
        if v == "int":
            recs: Callable[[], str] = lambda: g("vec<srec>", c, env)  # noqa: E731
            opts += [
                lambda: f"(frequencies (map #(get % \"dept\") {recs()}))",
                lambda: f"(update-vals (group-by #(get % \"dept\") {recs()}) count)",
                lambda: (f"(reduce (fn [acc r] (update acc (get r \"dept\") (fnil + 0) (get r \"qty\"))) "
                         f"{{}} {recs()})"),
                lambda: f"(into {{}} (map (juxt #(get % \"name\") #(get % \"id\")) {recs()}))",
            ]
        return opts

    def wide_rec(self, c: int, env: Env) -> list[Callable[[], str]]:
        """Record shapes of the widened families."""
        g, r = self.gen, self.rng
        rec: Callable[[], str] = lambda: g("rec", c, env)  # noqa: E731
        x = self.fresh("x")
        return [
            lambda: f"(walk/keywordize-keys {g('srec', c, env)})",
            lambda: f"(walk/postwalk-replace {{\"eng\" \"ENG\" \"vip\" \"VIP\" \"ann\" \"Ann\"}} {rec()})",
            lambda: f"(walk/prewalk (fn [{x}] (if (string? {x}) (str/upper-case {x}) {x})) {rec()})",
            lambda: f"(walk/postwalk (fn [{x}] (if (int? {x}) (inc {x}) {x})) {rec()})",
            lambda: f"(update {rec()} :qty + {g('int', c, env)} {g('int', c, env)})",
            lambda: f"(update {rec()} :tags conj {g('str', c, env)} {g('str', c, env)})",
            lambda: f"(update {rec()} :price * {r.choice(('2', '0.5', '3'))})",
            lambda: f"(merge-with (fn [_ b] b) {rec()} {rec()})",
            lambda: f"(into {rec()} {{:qty {g('int', c, env)}}})",
            lambda: f"(apply max-key :id {rec()} {g('seq<rec>', c, env)})",
        ]

    def wide_seq(self, t: str, c: int, env: Env) -> list[Callable[[], str]]:
        """Sequence shapes of the widened families (`t` is ``seq<E>``)."""
        g, r = self.gen, self.rng
        e = elem(t)
        same: Callable[[], str] = lambda: g(r.choice((t, f"vec<{e}>")), c, env)  # noqa: E731
        opts: list[Callable[[], str]] = []
        if e == "int":
            f: Callable[[], str] = lambda: g("fn<int;int>", c, env)  # noqa: E731
            p: Callable[[], str] = lambda: g("fn<int;bool>", c, env)  # noqa: E731
            h, k, x, mk = self.fresh("h"), self.fresh("k"), self.fresh("x"), self.fresh("mk")
            opts += [
                lambda: f"(map val (sort-by key {g('map<int>', c, env)}))",
                lambda: f"(sort-by (juxt {f()} identity) {same()})",
                lambda: f"(map (fn [{h}] ({h} {g('int', c, env)})) [{f()} {f()} {f()}])",
                lambda: f"(map (partial + {g('int', c, env)} {g('int', c, env)}) {same()})",
                lambda: f"(map (comp {f()} {f()} {f()}) {same()})",
                lambda: f"(filter (every-pred {p()} {p()} {p()}) {same()})",
                lambda: f"(remove (some-fn {p()} {p()} {p()}) {same()})",
                lambda: f"(mapcat (juxt identity {f()}) {same()})",
                lambda: f"(reductions {g('fn2<int;int;int>', c, env)} {g('int', c, env)} {same()})",
                lambda: f"(walk/postwalk (fn [{x}] (if (int? {x}) (- {x}) {x})) {same()})",
                lambda: f"(cond->> {same()} {g('bool', c, env)} (map {f()}) {g('bool', c, env)} (filter {p()}) {g('bool', c, env)} (take {r.randint(0, 4)}))",
                lambda: f"(let [{mk} (fn [{k}] (fn [{x}] (+ {x} {k})))] (map ({mk} {g('int', c, env)}) {same()}))",
                lambda: f"(map (fn [{h}] ({h} {g('int', c, env)})) (for [{k} (range {r.randint(0, 5)})] (fn [{x}] (* {x} {k}))))",
                lambda: f"(map #(get % \"qty\") (filter #(get % \"active\") {g('vec<srec>', c, env)}))",
                lambda: f"(take-last {r.randint(0, 4)} (sort {same()}))",
                lambda: f"(dedupe (sort {same()}))",
                # keys/vals of map entries (a bug this campaign found); sorted, as a map over
                # 8 keys iterates in hash order in Clojure (decision 6)
                lambda: f"(vals (sort-by key {g('map<int>', c, env)}))",
            ]
        if e == "kw":
            opts += [
                lambda: f"(keys (sort-by (juxt (comp - val) key) {g('map<int>', c, env)}))",
                lambda: f"(sort (keys (filter (comp even? val) {g('map<int>', c, env)})))",
                lambda: f"(take {r.randint(0, 3)} (keys (sort-by (juxt val key) #(compare %2 %1) {g('map<int>', c, env)})))",
            ]
        if e == "str":
            opts += [
                lambda: f"(map key (sort-by key {g('smap<int>', c, env)}))",
                lambda: (f"(->> {g('vec<srec>', c, env)} (filter #(> (get % \"qty\") {r.randint(0, 8)})) "
                         f"(sort-by #(get % \"name\")) (map #(get % \"name\")))"),
                lambda: f"(map #(str/escape % {r.choice(ESCAPES)}) {same()})",
                lambda: f"(map second (re-seq {r.choice(GROUP_SEQ)} {self.str_lit_ascii()}))",
                lambda: f"(map str/reverse {same()})",
            ]
        if e == "rec":
            opts += [
                lambda: f"(sort-by (juxt {r.choice((':dept', ':active', ':name'))} (comp - :qty) :id) {same()})",
                lambda: f"(walk/keywordize-keys {g('vec<srec>', c, env)})",
                lambda: f"(->> {same()} (group-by :dept) (sort-by key) (mapcat val))",
                lambda: f"(some->> {same()} (filter :active) seq (sort-by :price))",
            ]
        return opts

    def wide_obj(self, c: int, env: Env) -> list[Callable[[], str]]:
        """Returned-only shapes of the widened families."""
        g, r = self.gen, self.rng
        recs: Callable[[], str] = lambda: g(r.choice(OBJ_SOURCES), c, env)  # noqa: E731
        ints: Callable[[], str] = lambda: g("seq<int>", c, env)  # noqa: E731
        x = self.fresh("x")
        nested: Callable[[], str] = lambda: g(r.choice(  # noqa: E731
            ("map<map<int>>", "vec<rec>", "map<vec<int>>", "vec<vec<int>>", "smap<vec<rec>>", "vec<srec>")), c, env)
        int_nested: Callable[[], str] = lambda: g(r.choice(  # noqa: E731
            ("map<map<int>>", "map<vec<int>>", "vec<vec<int>>")), c, env)
        kw_nested: Callable[[], str] = lambda: g(r.choice(  # noqa: E731
            ("map<map<int>>", "vec<rec>", "map<vec<int>>", "vec<vec<int>>")), c, env)
        return [
            lambda: f"(walk/postwalk (fn [{x}] (if (number? {x}) (inc {x}) {x})) {nested()})",
            lambda: f"(walk/prewalk (fn [{x}] (if (map? {x}) (dissoc {x} :score :tags) {x})) {recs()})",
            # A number key would replace equal floats too here (decision 4): int-only values.
            lambda: f"(walk/postwalk-replace {{:a :aa 1 100}} {int_nested()})",
            lambda: f"(walk/postwalk-replace {{:a :aa \"eng\" :eng \"vip\" \"VIP\"}} {nested()})",
            lambda: f"(walk/prewalk-replace {{[1 2] :pair :a :z}} {g('vec<vec<int>>', c, env)})",
            lambda: f"(walk/stringify-keys {nested()})",
            lambda: f"(walk/keywordize-keys {nested()})",
            lambda: f"(walk/postwalk (fn [{x}] (if (vector? {x}) (vec (sort {x})) {x})) {g('vec<vec<int>>', c, env)})",
            # Keyword reads of string keys are flexible here (decision 5): keyword-keyed only.
            lambda: f"(walk/prewalk (fn [{x}] (if (map? {x}) (select-keys {x} [:a :c :id]) {x})) {kw_nested()})",
            lambda: f"(re-seq {r.choice(GROUP_SEQ)} {self.str_lit_ascii()})",
            lambda: f"(re-find {r.choice(GROUP_FIND)} {self.str_lit_ascii()})",
            lambda: f"(re-matches {r.choice(GROUP_MATCH)} {self.str_lit_ascii()})",
            lambda: f"(frequencies (map (fn [{x}] (if (even? {x}) {x} (str {x}))) {ints()}))",
            lambda: f"(group-by (fn [{x}] (cond (neg? {x}) :neg (even? {x}) \"even\" :else nil)) {ints()})",
            lambda: (f"(merge-with {r.choice(('vector', '(fn [a b] [a b])', 'max', 'min'))} "
                     f"{g('map<int>', c, env)} {g('map<int>', c, env)} {g('map<int>', c, env)})"),
            lambda: f"(distinct (map #(select-keys % [:dept :active]) {recs()}))",
            lambda: f"(distinct {g('vec<map<int>>', c, env)})",
            lambda: f"(distinct {g('vec<vec<int>>', c, env)})",
            # Ties of a frequency are ordered by key: a map over 8 keys iterates in hash order
            # in Clojure (decision 6: insertion order here).
            lambda: (f"(sort-by (juxt (comp - val) key) "
                     f"(frequencies {g(r.choice(('seq<kw>', 'seq<str>', 'seq<int>')), c, env)}))"),
            lambda: f"(update-vals (group-by :dept {recs()}) #(sort (map :name %)))",
            lambda: f"(update-vals (group-by #(get % \"dept\") {g('vec<srec>', c, env)}) #(mapv (fn [r] (get r \"name\")) %))",
            lambda: f"((juxt :id (comp count :tags) #(get % :score -1)) {g('rec', c, env)})",
            lambda: f"(assoc-in {g('rec', c, env)} [:meta :n] {g('int', c, env)})",
            lambda: f"(update-in {g('rec', c, env)} [:stats :hits] (fnil inc 0))",
            lambda: f"(assoc-in {{}} [:a :b :c] {g('int', c, env)})",
            lambda: f"(get-in {g('map<map<int>>', c, env)} [:{r.choice(MAP_KEYS)} :{r.choice(MAP_KEYS)}] :none)",
            lambda: f"(find {g('rec', c, env)} :score)",
            lambda: f"(find {g('smap<int>', c, env)} \"{r.choice(MAP_KEYS)}\")",
            lambda: f"(some-> {g('opt<rec>', c, env)} :tags first str/upper-case)",
            lambda: f"((juxt first last count) {ints()})",
            lambda: (lambda tt: f"[(not-empty {g(tt, c, env)}) (empty {g(tt, c, env)})]")(
                r.choice(("vec<int>", "map<int>", "set<int>", "str", "smap<int>"))),
            lambda: f"(into #{{}} {g('map<int>', c, env)})",
            lambda: f"(split-at {r.randint(-1, 5)} {g('str', c, env)})",
            lambda: (lambda a: f"(let [[{a} & {{:keys [x y] :or {{y 9}}}}] [{g('int', c, env)} :x {g('str', c, env)}]] [{a} x y])")(self.fresh("a")),
            # No floats in a set (decision 4): the records lose :price first.
            lambda: f"(set/select (comp even? :qty) (set (map #(dissoc % :price) {recs()})))",
            lambda: f"(zipmap {g('vec<str>', c, env)} {ints()})",
            lambda: self.srec_pipeline(c, env),
            lambda: f"(map #(select-keys % [\"id\" \"qty\"]) {self.srec_pipeline(c, env)})",
            lambda: f"(map #(get % \"name\") {self.srec_pipeline(c, env)})",
            lambda: f"(update-vals (group-by #(get % \"dept\") {self.srec_pipeline(c, env)}) #(reduce + (map (fn [r] (get r \"qty\")) %)))",
            lambda: f"(frequencies (map #(get % \"score\") {g('vec<srec>', c, env)}))",
            lambda: f"(into {{}} (map (juxt #(get % \"id\") #(get % \"total\" 0)) {self.srec_pipeline(c, env)}))",
        ]

    def composed_fn(self, a: str, b: str, d: int, env: Env) -> str | None:
        """A one-argument function built by comp/partial/every-pred/some-fn or a closure."""
        g, r = self.gen, self.rng
        c = d - 1
        if a == b and a in ("int", "str"):
            k, x = self.fresh("k"), self.fresh("x")
            f: Callable[[], str] = lambda: g(f"fn<{a};{a}>", c, env)  # noqa: E731
            opts: list[Callable[[], str]] = [
                lambda: f"(comp {f()} {f()} {f()})",
                lambda: f"((fn [{k}] (fn [{x}] ({'+' if a == 'int' else 'str'} {x} {k}))) {g(a, c, env)})",
                lambda: f"(let [{k} {g(a, c, env)}] (fn [{x}] ({'max' if a == 'int' else 'str'} {k} {x})))",
            ]
            if a == "int":
                opts.append(lambda: f"(partial {r.choice(('+', 'max', 'min'))} {g('int', c, env)} {g('int', c, env)})")
            else:
                opts.append(lambda: f"(partial str {g('str', c, env)} {g('str', c, env)})")
                opts.append(lambda: f"#(str/escape % {r.choice(ESCAPES)})")
            return self.pick(opts)
        if b == "bool" and a in ("int", "str", "rec"):
            p: Callable[[], str] = lambda: g(f"fn<{a};bool>", c, env)  # noqa: E731
            return self.pick([
                lambda: f"(every-pred {p()} {p()} {p()})",
                lambda: f"(some-fn {p()} {p()})",
                lambda: f"(comp not {p()})",
            ])
        return None


def _quote(s: str) -> str:
    """`s` as a string literal of both readers."""
    escaped = s.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + escaped.replace("\t", "\\t").replace("\n", "\\n") + '"'


def _one_form(text: str) -> bool:
    """True when `text` is one parenthesised form (so its insides can become a #() body)."""
    if not (text.startswith("(") and text.endswith(")")):
        return False
    depth = 0
    in_str = False
    prev = ""
    for i, ch in enumerate(text):
        if in_str:
            if ch == '"' and prev != "\\":
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0 and i != len(text) - 1:
                return False
        prev = ch if prev != "\\" else ""
    return True


OBJ_SOURCES = ("vec<rec>", "seq<rec>")


RESULT_TYPES = (
    "int", "float", "str", "kw", "bool", "opt<int>", "opt<str>", "vec<int>", "seq<int>",
    "seq<str>", "vec<str>", "set<int>", "set<str>", "map<int>", "smap<int>", "seq<rec>",
    "vec<rec>", "map<map<int>>", "smap<vec<rec>>", "seq<vec<int>>", "vec<vec<int>>", "rec",
    "smap<float>", "set<kw>", "map<vec<int>>", "opt<rec>", "seq<float>", "vec<float>",
)
# The pipelines over records LLMs write most: weighted up.
WEIGHTED = (*RESULT_TYPES, "seq<rec>", "seq<rec>", "smap<int>", "float", "int", "seq<str>",
            "obj", "obj", "obj")


def _print_arg(gen: Gen, env: Env, d: int) -> str:
    # println of a collection quotes its strings here, not in Clojure (§7.6): scalars only,
    # or vectors of numbers/keywords.
    t = gen.rng.choice(("int", "str", "float", "kw", "bool", "opt<int>", "vec<int>", "str"))
    return gen.gen(t, d, env)


def program(rng: random.Random, disabled: frozenset[str] | None = None) -> str:
    """One program: an expression, or a few top-level forms (def/defn, doseq + println)."""
    gen = Gen(rng, disabled)
    depth = rng.choice((1, 2, 2, 3, 3, 3, 4))
    if rng.random() < 0.02:  # deeper nesting now and then (round 3)
        depth = rng.choice((5, 5, 6, 7))
    shape = rng.random()
    if shape < 0.12:  # round 3: LLM-shaped tool orchestration, and rarer families weighted up
        return llm_program(rng) if shape < 0.08 else low_frequency(gen, min(depth, 4))
    shape = rng.random()
    if shape < 0.08:
        return definitions(gen, depth)
    if shape < 0.55:
        if rng.random() < 0.02:  # a ratio is fine as the whole value (read as its quotient)
            return f"(/ {gen.gen('int', 1, Env())} {rng.choice(('3', '4', '7', '-6'))})"
        return gen.gen(rng.choice(WEIGHTED), depth, Env())
    if shape < 0.8:
        env = Env().bind("rows", "vec<rec>")
        rows = gen.recs_lit()
        forms = [f"(def rows {rows})"]
        if rng.random() < 0.4:
            at, bt = rng.choice((("rec", "float"), ("int", "int"), ("rec", "bool"), ("str", "str"),
                                 ("rec", "str")))
            x = gen.fresh("arg")
            body = gen.gen(bt, max(depth - 1, 1), env.bind(x, at))
            forms.append(f"(defn helper [{x}]\n  {body})")
            env = env.bind("helper", f"fn<{at};{bt}>")
            # make the helper used: a call is a common leaf of its result type
            forms.append(f"(def {gen.fresh('h')} (helper {gen.gen(at, 1, env)}))")
        forms.append(gen.gen(rng.choice(WEIGHTED), depth, env))
        return "\n".join(forms)
    if shape < 0.92:
        if rng.random() < 0.3:
            return nested_doseq(gen, depth)
        src = rng.choice(("vec<rec>", "vec<int>", "seq<str>", "seq<rec>", "map<int>"))
        x = gen.fresh("r")
        if src == "map<int>":
            k, v = gen.fresh("k"), gen.fresh("v")
            env = Env().bind(k, "kw").bind(v, "int")
            return (f"(doseq [[{k} {v}] (sort-by key {gen.gen(src, depth - 1, Env())})]\n"
                    f"  (println {k} {_print_arg(gen, env, 1)}))")
        et = elem(src)
        env = Env().bind(x, et)
        args = " ".join(_print_arg(gen, env, 1) for _ in range(rng.randint(1, 3)))
        return f"(doseq [{x} {gen.gen(src, depth - 1, Env())}]\n  (println {args}))"
    # several printed lines, then a value (sometimes all inside one do)
    env = Env()
    lines = [f"(println {_print_arg(gen, env, depth - 1)} {_print_arg(gen, env, 1)})"
             for _ in range(rng.randint(1, 3))]
    value = gen.gen(rng.choice(WEIGHTED), depth - 1, env)
    if rng.random() < 0.3:
        return "(do " + "\n    ".join([*lines, value]) + ")"
    return "\n".join([*lines, value])


def low_frequency(gen: Gen, depth: int) -> str:
    """The families the first rounds drew least: when-some/if-some and string-keyed pipelines."""
    r, g = gen.rng, gen.gen
    c = max(depth - 1, 1)
    w = gen.fresh("w")
    pick = r.randrange(6)
    if pick == 0:
        inner = r.choice(("int", "str", "rec"))
        body = g(r.choice(("int", "str", "vec<int>")), c, Env().bind(w, inner))
        return f"(when-some [{w} {g(f'opt<{inner}>', c, Env())}] {body})"
    if pick == 1:  # false is bound by when-some, skipped by when-let
        form = r.choice(("when-some", "when-let"))
        return f"({form} [{w} {g('bool', c, Env())}] [{w} {g('int', c, Env())}])"
    if pick == 2 and gen.on("if-let"):
        inner = r.choice(("int", "str"))
        return (f"(if-some [{w} {g(f'opt<{inner}>', c, Env())}] "
                f"{g('str', c, Env().bind(w, inner))} {g('str', c, Env())})")
    if pick == 3:
        return (f"(->> {gen.srec_pipeline(c, Env())}\n     (group-by #(get % \"dept\"))\n"
                f"     (map (fn [[d rs]] [d (reduce + 0 (map #(get % \"qty\") rs))]))\n     (into {{}}))")
    if pick == 4:
        return (f"(mapv #(select-keys % [\"id\" \"name\" \"score\"]) "
                f"{gen.srec_pipeline(c, Env())})")
    return (f"(let [rows {gen.srec_pipeline(c, Env())}]\n"
            f"  {{:n (count rows) :total (reduce + 0 (keep #(get % \"score\") rows))"
            f" :names (mapv #(get % \"name\") rows)}})")


def nested_doseq(gen: Gen, depth: int) -> str:
    """doseq over two bindings with :let, :when and :while (decision 21: Clojure semantics).

    Printing happens only at the top level: a println inside a lazy sequence's function runs
    when (and as far as, chunk by chunk) Clojure realises it, eagerly here (decision 22).
    """
    r, g = gen.rng, gen.gen
    c = max(depth - 1, 1)
    if r.random() < 0.5:
        x, y, z = gen.fresh("x"), gen.fresh("y"), gen.fresh("z")
        env = Env().bind(x, "int").bind(y, "kw").bind(z, "int")
        mods = f" :let [{z} (+ {x} {gen.gen('int', 0, Env())})]"
        if r.random() < 0.6:
            mods += f" :when {g('bool', 1, env)}"
        if r.random() < 0.3:
            mods += f" :while {g('bool', 1, env)}"
        return (f"(doseq [{x} {g('vec<int>', c, Env())} {y} {g('vec<kw>', 1, Env())}{mods}]\n"
                f"  (println {x} {y} {z}))")
    row, tag = gen.fresh("row"), gen.fresh("tag")
    env = Env().bind(row, "rec").bind(tag, "str")
    return (f"(doseq [{row} {g('vec<rec>', c, Env())} :when {g('bool', 1, Env().bind(row, 'rec'))}\n"
            f"        {tag} (:tags {row})]\n"
            f"  (println (:name {row}) {tag} {_print_arg(gen, env, 1)}))")


def definitions(gen: Gen, depth: int) -> str:
    """Top-level definitions: redefinition, vars read at call time, arities, recursion."""
    r, g, e = gen.rng, gen.gen, Env()
    c = max(depth - 1, 1)
    pick = r.randrange(8)
    if pick == 0:  # a fn reads the var when called, so it sees the redefinition
        return (f"(def x {g('int', c, e)})\n(defn f [] (+ x 1))\n(def before (f))\n"
                f"(def x {g('int', c, e)})\n[before (f)]")
    if pick == 1:
        return (f"(defn total\n  ([xs] (total xs 0))\n"
                f"  ([xs acc] (if (seq xs) (recur (rest xs) (+ acc (first xs))) acc)))\n"
                f"[(total {g('seq<int>', c, e)}) (total [] {g('int', c, e)})]")
    if pick == 2:
        return f"((fn fact [n] (if (< n 2) 1 (* n (fact (dec n))))) {r.randint(0, 15)})"
    if pick == 3:
        return (f"(defn scale [x & {{:keys [by] :or {{by 1}}}}] (* x by))\n"
                f"[(scale {gen.small_int(e)}) (scale {gen.small_int(e)} :by {gen.small_int(e)})]")
    if pick == 4:
        return (f"(defn sum-all [& xs] (reduce + 0 xs))\n"
                f"[(sum-all) (apply sum-all {g('seq<int>', c, e)}) (sum-all 1 2 3)]")
    if pick == 5:
        return f"(reduce #(+ %1 (* 2 %2)) {g('int', c, e)} {g('seq<int>', c, e)})"
    if pick == 6:
        body = g("int", c, e.bind("n", "int").bind("acc", "int"))
        return (f"(defn step [n acc] (if (<= n 0) acc (recur (dec n) {body})))\n"
                f"(step {r.randint(0, 6)} {g('int', 1, e)})")
    return (f"(def rows {gen.recs_lit()})\n"
            f"(defn by-dept [rs] (group-by :dept rs))\n"
            f"(defn qty-of [rs] (reduce + 0 (map :qty rs)))\n"
            f"(into {{}} (map (fn [[d rs]] [d (qty-of rs)]) (by-dept (filter {g('fn<rec;bool>', c, e)} rows))))")


def generate(seed: int, n: int, disabled: frozenset[str] | None = None) -> list[str]:
    """`n` programs from `seed`; the same arguments always give the same programs.

    `disabled`: the switches to turn off; None means `DISABLED` (the default campaign),
    ``frozenset()`` turns every family on.
    """
    rng = random.Random(seed)
    return [program(rng, disabled) for _ in range(n)]

