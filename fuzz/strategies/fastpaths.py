"""Random programs in the shapes of the optimiser's rules, and the check that each runs as
it does compiled with no rule at all (`compile(..., optimize=False)`: the general lowering).

Used by `tests/test_fast_paths_differential.py` (a CI-sized run over fixed seeds, which
also checks that every registered rule fired) and `fuzz/test_fast_paths.py` (hypothesis
picks the seeds). The programs take the shapes of the rules in `ptc_compiler.optimize.rules`
(field filters, group-by columns, counts and sums, `str` formats, `(frequencies (mapcat
...))`, same-type arithmetic, update fns, `(take n (sort ...))`, the in-place linear
reduce, loop-invariant and chained reads, literal paths, keyword getters, maps of paths
and of `str` of fields) and near misses. Besides the rules' own shapes the programs read
constant keys of locals, elements and chains (`reads`) and group-by's `vals` and first
items under user vars redefined between two runs of a form (`group_vals`); host items are
half the time all string-keyed maps (record lists). Every observable must agree: the
value, the error (code, message, line:column), the output and the step count (except
for a failing `pmap`: the other workers stop wherever they are), and the host data must
be left as it was.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import ptc_compiler
from ptc_compiler import pr_str, run

KEYS = [":a", '"a"', ":b", '"b"', ":a-b", '"a-b"', '"a_b"', ":a_b", "1", "1.0", "true", "nil"]
KEYS += ["[1]", ":s", '"s"']
ATOMS = ["nil", "true", "false", "0", "1", "-1", "1.0", "-0.0", "2.5", "##NaN", '"a"', '"b"']
ATOMS += ['""', '"a%s"', ":a", ":b", "[1 2]", "{}", "#{1 :a}", "'sym", "1e20", "0.001"]
ATOMS += ["100000000000000000000000", '"x_y"', "1234567.5"]
FNS = ["(fnil + 0) 1", "(fnil inc 0)", "+ 1", "inc", "(fnil conj []) (:j e)", "conj 1"]
FNS += ["(fn [o] (if (map? o) (assoc o :seen 1) o))", "assoc :q 1", "- 2", "* 2"]
SHAPES = [
    "{}",
    "(count {})",
    "((fn [] {}))",
    "(map (fn [j] (count {})) [1 2])",
    "(loop [i 0 a []] (if (< i 2) (recur (inc i) (conj a {})) a))",
    "(pmap (fn [j] (count {})) [1 2])",
]


class Gen:
    """Random programs in the shapes the fast paths match."""

    def __init__(self, rnd: random.Random) -> None:
        self.rnd = rnd

    def pick(self, xs: list[str]) -> str:
        return self.rnd.choice(xs)

    def map_lit(self, depth: int = 0) -> str:
        keys = self.rnd.sample(KEYS, self.rnd.randint(0, 4))
        parts = []
        for k in keys:
            nested = depth < 2 and self.rnd.random() < 0.3
            parts.append(f"{k} {self.map_lit(depth + 1) if nested else self.pick(ATOMS)}")
        text = "{" + " ".join(parts) + "}"
        r = self.rnd.random()
        if r < 0.2:
            return f"(assoc {text} :z 0)"  # a persistent map
        if r < 0.3:
            return f"(into (hash-map) {text})"
        return text

    def coll(self) -> str:
        r = self.rnd.random()
        if r < 0.55:
            n = self.rnd.randint(0, 6)
            items = (
                self.map_lit() if self.rnd.random() < 0.8 else self.pick(ATOMS) for _ in range(n)
            )
            return "[" + " ".join(items) + "]"
        if r < 0.8:
            return "data/xs"
        return self.pick(["nil", "{:s 1}", '"sa"', "5", '(list {:s "a"})', "(range 3)"])

    def filter_(self) -> str:
        k = self.pick([":s", ":a", ":g"])
        read = self.pick([f"({k} x)", f"(get x {k})"])
        lit = self.pick(['"a"', '"b"', ":a", "nil", "true", "false", '"1"', "1"])
        op = self.pick(["=", "not="])
        test = f"({op} {read} {lit})" if self.rnd.random() < 0.6 else f"({op} {lit} {read})"
        hof = self.pick(["filter", "filterv", "remove"])
        return self.pick(SHAPES).format(f"({hof} (fn [x] {test}) {self.coll()})")

    def group(self) -> str:
        kf = self.pick([":g", '"g"', "(fn [x] (:g x))", ":zz", "count", "5"])
        f = self.pick([":f", ":a", ":a-b", ":s"])
        body = self.pick(
            [
                f"[k (vec (map {f} vs))]",
                f"[k (count (map {f} vs)) (first (mapv {f} vs))]",
                f"(let [c (map {f} vs)] [k c (map {f} vs)])",
                f"[k (map :s vs) (map {f} vs)]",
                f"{{:k k :n (count vs) :t (reduce + (map {f} vs))}}",
                f"(do (println (count vs)) [k (mapv {f} vs)])",
                f"[k (sum-by {f} vs) (avg-by :a vs)]",
                f"[k (reduce + (map #({f} %) vs)) (mapv (fn [o] (get o :s)) vs)]",
            ]
        )
        coll = self.pick(["data/xs", "data/xs", self.coll(), self.kept()])
        if self.rnd.random() < 0.3:
            pluck = f"(map (fn [k] (map {f} (get g k))) (keys g))"
            return f"(let [g (group-by {kf} {coll})] [{pluck} {pluck}])"
        if self.rnd.random() < 0.1:
            return f"(update-vals (group-by {kf} {coll}) count)"
        if self.rnd.random() < 0.2:
            return f"(for [[k vs] (group-by {kf} {coll})] {body})"
        return f"({self.pick(['map', 'mapv'])} (fn [[k vs]] {body}) (group-by {kf} {coll}))"

    def kept(self) -> str:
        """A field filter with a string literal (grouped as it filters when a group-by
        without groups is its one reader: `rt_filter_groups`)."""
        hof, op = self.pick(["filter", "filterv", "remove"]), self.pick(["=", "not="])
        lit = self.pick(['"a"', '"b"', '""'])
        coll = self.pick(["data/xs", "data/xs", self.coll()])
        return f"({hof} #({op} (:s %) {lit}) {coll})"

    def kept_groups(self) -> str:
        """A field filter read only by a group-by without groups (`rt_filter_groups`, and
        the sums of `fast.group_sums`), or the group-by of the host items itself."""
        kf = self.pick([":g", ":g", ":s", ":a-b", ":zz"])
        f = self.pick([":f", ":a", ":g"])
        body = self.pick(
            [
                f"[k (reduce + (map {f} vs))]",
                "(count vs)",
                f"[k (sum-by {f} vs)]",
                f"(mapv {f} vs)",
                f"{{:k k :v ({f} (first vs))}}",
                f"[(apply + (map {f} vs)) (count vs)]",
                f"{{:n (count vs) :t (reduce + 0 (mapv {f} vs))}}",
            ]
        )
        g = f"(group-by {kf} {self.pick([self.kept(), 'data/xs'])})"
        form = self.pick(
            [
                f"(map (fn [[k vs]] {body}) {g})",
                f"(for [[k vs] {g}] {body})",
                f"(update-vals {g} count)",
                f"(map (fn [vs] (count vs)) (vals {g}))",
            ]
        )
        return self.pick(SHAPES).format(form)

    def get_in(self) -> str:
        if self.rnd.random() < 0.6:  # paths that mostly lead somewhere
            keys = [":a", '"a"', ":b", '"b"', ":c", ":s", '"s"', ":a-b", '"a_b"', ":t", '"t"', "0"]
            m = '{:a {"b" {:c 1 "a-b" [5]}} :s {:s "x" "a_b" {:a 3}} "t" (hash-map :a {:b 4})}'
        else:
            keys, m = [*KEYS, "0", "(inc 0)", "x"], self.map_lit()
        path = " ".join(self.pick(keys) for _ in range(self.rnd.randint(0, 4)))
        return f"(let [x :a m {m}] [(get-in m [{path}]) (get-in [m] [0 {path}])])"

    def str_(self) -> str:
        parts = ['"a"', '"%"', '"%s"', '"%%"', '""', self.pick(ATOMS), "x", "[x]", "(inc 1)"]
        args = " ".join(self.pick(parts) for _ in range(self.rnd.randint(1, 6)))
        return f"(let [x {self.pick(ATOMS)}] (str {args}))"

    def str_fields(self) -> str:
        """`(map #(str "lit" (:k %) ...) coll)` and its variants (`rt_map_str_fields`): one
        to five field reads (five keep the loop; a `-` name reads as `rt_kdash`) among literals with `%`,
        over elements of every kind (odd values: nil, booleans, collections, huge numbers);
        also the element destructured by `{:keys [...]}` (`rt_map_str_fields_ds`)."""
        coll = self.pick(["data/xs", "data/xs", "data/xs", self.coll()])
        if self.rnd.random() < 0.3:
            names = self.rnd.sample(["s", "g", "f", "a", "z", "a-b"], self.rnd.randint(1, 3))
            pairs = " ".join(f"{n} :{n}" for n in names)
            pattern = self.pick([f"{{:keys [{' '.join(names)}]}}", f"{{{pairs}}}"])
            text = " ".join(self.pick([*names, '"%"', '","']) for _ in range(3))
            loop = self.pick(
                [
                    f"(map (fn [{pattern}] (str {text})) {coll})",
                    f"(for [{pattern} {coll if coll != '5' else '(identity 5)'}] (str {text}))",
                    f"(mapv #(let [{pattern} %] (str {text})) {coll})",
                ]
            )
            return self.pick(SHAPES).format(loop)
        parts: list[str] = []
        for _ in range(self.rnd.randint(1, 5)):
            if self.rnd.random() < 0.5:
                parts.append(self.pick(['"-"', '"%"', '"%s"', '""', '","']))
            k = self.pick([":s", ":g", ":f", ":a", ":z", ":a-b"])
            parts.append(self.pick([f"({k} x)", f"(get x {k})"]))
        body = f"(str {' '.join(parts)})"
        loop = self.pick(
            [
                f"(map (fn [x] {body}) {coll})",
                f"(mapv (fn [x] {body}) {coll})",
                f"(for [x {coll if coll != '5' else '(identity 5)'}] {body})",
            ]
        )
        return self.pick(SHAPES).format(loop)

    def frequencies(self) -> str:
        f = self.pick(
            [
                "(fn [x] x)",
                "(fn [x] [x true 1])",
                "(fn [x] (if (number? x) [x 1.0 false 0] [x]))",
                "(fn [x] (println x) [x])",
                "(fn [x] (if (= x 2) 5 [x]))",
                "(fn [x] {x 1})",
                ":a",
                "(fn [x] [[x] #{x}])",
                "(fn [x] (str x))",
            ]
        )
        c = self.pick(
            ["[1 2 3]", "[[1 true] [0 false]]", '["ab" "ba"]', "[0 1.0 -0.0 2]", "nil", "5"]
        )
        return f"(frequencies (mapcat {f} {c}))"

    def arith(self) -> str:
        a = self.pick(["x", "y", "n", "1", "2.5", "(inc n)", "(:a m)", "(do (println 1) n)", "-1"])
        b = self.pick(["x", "y", "n", "1", "1.5", "(:a m)", "(count m)", "(str n)"])
        op = self.pick(["+", "-"])
        m = f"{{:a {self.pick(ATOMS)} :b 2}}"
        fn = f"(defn g [n] (let [x {self.pick(ATOMS)} y {self.pick(ATOMS)} m {m}] [(* n 2) ({op} {a} {b})]))"
        return fn + f"\n(g {self.pick(['3', '2.5', '1e308', 'nil', '100000000000000000000000'])})"

    def sort(self) -> str:
        if self.rnd.random() < 0.5:
            s = f"(sort-by {self.pick(['key', 'val'])} {self.pick(['', '>', 'compare'])} {self.map_lit()})"
            return f"(take {self.pick(['1', '2', '5'])} {s})" if self.rnd.random() < 0.5 else s
        # a few of many: the head selection (`keyed._head_order`), over keys with equal
        # values of two types (2 and 2.0, 0 and -0.0), mixed kinds, nil and NaN
        coll = self.pick(
            [
                "data/xs",
                "(map (fn [i] {:p (rem (* i 7) 5) :s (str (rem i 3)) :f (* i 0.5)}) (range 60))",
                '(map (fn [i] {:p (if (even? i) 2 2.0) :s "a" :f (- (rem i 4))}) (range 30))',
                "(map (fn [i] {:p (if (odd? i) -0.0 0) :f (if (= i 9) ##NaN i)}) (range 25))",
                "(map (fn [i] {:p (- 20 i) :s (if (= i 7) nil (str i))}) (range 21))",
            ]
        )
        cmp = self.pick(["", " >", " <", " :desc", " :asc"])
        if self.rnd.random() < 0.3:
            inner = f"(sort{cmp} (map {self.pick([':p', ':f', ':s'])} {coll}))"
        else:
            kf = self.pick([":p", ":f", ":s", ":g", "(fn [x] (:p x))", "#(:f %)"])
            inner = f"(sort-by {kf}{cmp} {coll})"
        return f"(take {self.pick(['1', '2', '3', '7'])} {inner})"

    def key(self) -> str:
        return self.pick([*KEYS, "(:k e)", "(:j e)", "(:k e)"])

    def update_op(self) -> str:
        r = self.rnd.random()
        fn = self.pick(FNS)
        if r < 0.35:  # two update-ins with a shared prefix: fused
            pre = " ".join(
                self.pick([":t", '"t"', "(:k e)", ":u"]) for _ in range(self.rnd.randint(1, 2))
            )
            rest1 = " ".join(self.key() for _ in range(self.rnd.choice([1, 1, 2])))
            rest2 = " ".join(self.key() for _ in range(self.rnd.choice([1, 1, 2])))
            return f"(update-in [{pre} {rest1}] {fn}) (update-in [{pre} {rest2}] {self.pick(FNS)})"
        value = self.pick(["1", "nil", "{}", '{"a" 1}', "e", "(:j e)", "[1]"])
        if r < 0.5:
            return f"(assoc {self.key()} {value})"
        if r < 0.6:
            return f"(update {self.key()} {fn})"
        if r < 0.7:
            return f"(assoc-in [{self.key()} {self.key()}] {value})"
        if r < 0.8:
            return f"(update-in [{self.key()} {self.key()} {self.key()}] {fn})"
        return f"(assoc (str (:k e)) {value})"

    def reduce(self) -> str:
        body = "(-> acc " + " ".join(self.update_op() for _ in range(self.rnd.randint(1, 3))) + ")"
        r = self.rnd.random()
        if r < 0.2:
            body = f"(if (get acc {self.key()}) {body} (assoc acc {self.key()} (count acc)))"
        elif r < 0.3:
            body = f"(let [s (get-in acc [:t (:k e)])] (if (map? s) (assoc {body} :n (count s)) {body}))"
        ks = ['"a"', ":a", '"b"', '"a-b"', '"a_b"', ":a-b", "1", "1.0", "true", "nil", "[1]", ":t"]
        init = self.pick(["{}", "{}", '{"t" {}}', "{:t {:a {}}}", "data/m", "(hash-map)", "nil"])
        if self.rnd.random() < 0.35:  # a map built from string keys: the plain-map shortcut
            body, init = (
                self.pick(["(assoc acc (:k e) (:j e))", "(assoc acc (str (:k e)) 1)"]),
                "{}",
            )
            ks = ['"a"', '"b"', '"a-b"', '"a_b"', '"b-c"', '"b_c"', ":a", ":b_c"]
        events = " ".join(
            f"{{:k {self.pick(ks)} :j {self.pick([*ks, '2.5'])}}}"
            for _ in range(self.rnd.randint(0, 20))
        )
        return f"[(reduce (fn [acc e] {body}) {init} [{events}]) data/m]"

    def misc(self) -> str:
        c = self.coll()
        joins = ['["a" "b"]', '["a" nil 1]', '["a" [1] :k]', '["a" {:a 1}]', "[]", '[""]']
        return self.pick(
            [
                f"(map :s {c})",
                f"(sort-by :s {c})",
                f"(group-by :s {c})",
                f"(frequencies (map :s {c}))",
                f'(clojure.string/join "," {self.pick(joins)})',
                f"(frequencies [{' '.join(self.pick(ATOMS) for _ in range(self.rnd.randint(0, 6)))}])",
            ]
        )

    def record_maps(self) -> str:
        """A map built from host records' fields (`assoc_fields._record_map`): keys of
        every kind, true next to 1, `_` and `-` twins, missing fields."""
        read_k = self.pick(["(:h x)", "(get x :h)", "(:h x)", "(:h x)", "(:s x)", "(:g x)"])
        read_v = self.pick(["(:f x)", "(get x :h)", "x", "(:a x)"])
        coll = self.pick(["data/xs", "data/xs", "data/xs", self.coll()])
        r = f"(reduce (fn [m x] (assoc m {read_k} {read_v})) {{}} {coll})"
        return self.pick([r, f"(count {r})", f"(let [r {r}] [(count r) (get r 1) (get r true) r])"])

    def holder(self) -> str:
        """A value read by constant keys: maps holding several spellings of one name
        (built by the program), persistent maps, host data, and values that are no map."""
        return self.pick(
            [
                '{:a-b 1 "a_b" 2 :a {"b" {:c 3}} "a" {:b [4]}}',
                '{"a-b" nil :a_b 2 "a" {:b {:c nil}}}',
                '{"a_b" 5 :a {:b {:c {:d 6}}}}',
                '(assoc {:a_b 7} "a-b" 8 :a {:b {:c 9}})',
                "(into (hash-map) [[:a-b 1] [:a {:b 2}]])",
                "data/m",
                "(first data/xs)",
                "(last data/xs)",
                "nil",
                "[{:b 1} {:b 2}]",
                "#{:a :a-b}",
                '"ab"',
                "{true 1 1 2 :a {1.0 3 false 4}}",
            ]
        )

    def const_read(self, m: str) -> str:
        k = self.pick([":a-b", ":a_b", '"a-b"', ":a", '"a"', ":zz-top", "1", "true"])
        d = self.pick(["0", "nil", ":none", '"d"'])
        return self.pick(
            [
                f"({k if k.startswith(':') else ':a-b'} {m})",
                f"({k if k.startswith(':') else ':a-b'} {m} {d})",
                f"(get {m} {k})",
                f"(get {m} {k} {d})",
                f"(-> {m} :a :b)",
                f"(-> {m} :a :b :c)",
                f"(:c (:b (:a {m})))",
                f'(get (get {m} "a") :b)',
                f'(get-in {m} [:a "b" :c])',
                f"(get-in {m} [:a :b :c :d] {d})",
                f"(get-in {m} [:a 0] {d})",
                f'(get-in {m} [{k} "b"] {d})',
            ]
        )

    def reads(self) -> str:
        """Reads by constant keys of a local the loop does not bind (hoisted before the
        loop or into a closure's factory), of the loop's element, and in chains."""
        m = self.holder()
        r1, r2 = self.const_read("m"), self.const_read("x")
        coll = self.pick(["data/xs", "data/xs", "[1 2 3]", "[]", "(range 4)", self.coll()])
        loop = self.pick(
            [
                f"(mapv (fn [x] [{r1} {r2}]) {coll})",
                f"(for [x {coll if coll != '5' else '(identity 5)'} :let [y {r1}]] [y {r2}])",
                f"(reduce (fn [acc x] (conj acc {r1})) [] {coll})",
                f"(reduce (fn [acc x] (assoc acc {r1} {r2})) {{}} {coll})",
                f"(count (filter (fn [x] (= {r1} {r2})) {coll}))",
                f"(let [f (fn [x] {r1})] (map f {coll}))",
                f"(pmap (fn [x] {r1}) (take 3 {coll}))",
                f"(do (println {r1}) (mapv #(vector % {r1}) {coll}))",
            ]
        )
        return f"(let [m {m}] {loop})"

    def path_maps(self) -> str:
        """`(map #(get-in m [k (:f %) ...]) coll)` and its variants (`rt_map_path`): paths
        of constant keys and element fields over maps holding keys equal in Python but
        not here (1, 1.0, true), both spellings, vectors; elements of every kind."""
        field = self.pick(["(:s x)", "(:g x)", "(get x :f)", '(get x "a")', "(:a-b x)"])
        keys = [field] + [
            self.pick([field, "(:g x)", *KEYS[:12], "0", ":t"])
            for _ in range(self.rnd.randint(0, 3))
        ]
        self.rnd.shuffle(keys)
        read = self.pick(
            [
                f"(get-in m [{' '.join(keys)}])",
                f"(get m {field})",
                f"(:t (get m {field}))",  # chains of reads: one path
                f"(-> m {' '.join(f'(get {k})' for k in keys)})",
                f"(get (get-in m [{' '.join(keys)}]) :a)",
                "(get m x)",  # the element itself as a key
                f"(get-in m [x {self.pick(KEYS[:12])}])",
            ]
        )
        m = self.pick(
            [
                "data/m",
                self.holder(),
                '{"a" {1 :i true :t 1.0 :f} :a [[1 2] {:t 3}] 1 "one" true "yes" nil 0 "b" 2}',
                '{"a" "A" "b" "B" 1 {"a" 5} :s {:t {"a" 6}}}',
            ]
        )
        coll = self.pick(["data/xs", "data/xs", "data/xs", self.coll()])
        loop = self.pick(
            [
                f"(map (fn [x] {read}) {coll})",
                f"(mapv (fn [x] {read}) {coll})",
                f"(for [x {coll if coll != '5' else '(identity 5)'}] {read})",
                f"(reduce + 0 (map (fn [x] (count (str {read}))) {coll}))",
            ]
        )
        return f"(let [m {m}] {loop})"

    def group_vals(self) -> str:
        """Group-by whose groups are read through `vals`, a first item's field, `->`."""
        kf = self.pick([":g", '"g"', "(fn [x] (:g x))", ":a-b", "kf", "count"])
        f = self.pick([":f", ":a", ":a-b", ":s", '"s"'])
        use = self.pick(
            [
                "(count vs)",
                f"(reduce + (map {f} vs))",
                f"(mapv {f} vs)",
                f"({f if f.startswith(':') else ':s'} (first vs))",
                f"(get (first vs) {f})",
                f"(-> vs first {f if f.startswith(':') else ':a'})",
                f"(sum-by {f if f.startswith(':') else ':a'} vs)",
                f"(mapv #({f if f.startswith(':') else ':a'} %) vs)",
                f"(mapv (fn [o] (get o {f})) vs)",
            ]
        )
        body = f"[{use} {self.pick(['(count vs)', '(:a (first vs))', '1'])}]"
        coll = self.pick(["data/xs", "data/xs", '(conj data/xs {:g 1 "g" 2 :f 3})', self.coll()])
        g = f"(group-by {kf} {coll})"
        form = self.pick(
            [
                f"(map (fn [vs] {body}) (vals {g}))",
                f"(mapv (fn [vs] {body}) (vals {g}))",
                f"(for [vs (vals {g}) :when (pos? (count vs))] {body})",
                f"(for [vs (vals {g}) :let [n (count vs)]] [n {body}])",
                f"(map (fn [[k vs]] [k {body}]) {g})",
                f"(update-vals {g} count)",
            ]
        )
        defn = "(defn kf [x] (:g x))" if self.rnd.random() < 0.5 else "(def kf :s)"
        redef = self.pick(["", "(defn kf [x] (:f x))", "(def kf :a-b)"])
        return f"{defn}\n(def r {form})\n{redef}\n[r {form}]"

    def field_updates(self) -> str:
        """`(reduce (fn [t e] (-> t (update-in [.. (:g e) ..] f (:f e)) ...)) init xs)`:
        field updates of the accumulator (`update-fields`)."""
        ups = []
        for _ in range(self.rnd.randint(1, 3)):
            path = self.pick(["[:a (:g e) :n]", "[:a (:g e) :m]", "[(:s e) :n]", "[:t :n]"])
            op = self.pick(["+ (:f e)", "inc", "+ 1", "- (:a e)", "(fnil inc 0)"])
            ups.append(f"(update-in {path} {op})")
        init = self.pick(["{}", "{:a {0 {:n 0 :m 0} 1 {:n 0 :m 0} 2 {:n 0 :m 0}}}", "data/m", "nil"])
        coll = self.pick(["data/xs", "data/xs", self.coll()])
        return f"(reduce (fn [t e] (-> t {' '.join(ups)})) {init} {coll})"

    def loop_updates(self) -> str:
        """`(loop [es coll st init] (if (empty? es) exit (recur (rest es) (-> st ...))))`:
        a map threaded through the recurs (`linear-loop`), and near misses where it
        escapes (kept twice, captured by a fn, read by another recur argument)."""
        ups = []
        for _ in range(self.rnd.randint(1, 3)):
            path = self.pick(["[:a (:g e)]", "[:a (:g e) :n]", "[(:s e) :n]", "[:t]", "[:a-b 1]"])
            op = self.pick(["update-in {p} (fnil inc 0)", "update-in {p} (fnil + 0) (:f e)",
                            "assoc-in {p} (:a e)", "update-in {p} inc", "assoc-in {p} e"])
            ups.append("(" + op.format(p=path) + ")")
        if self.rnd.random() < 0.3:
            ups.append(self.pick(["(assoc :k (:s e))", "(update :n (fnil inc 0))", "(dissoc :t)"]))
        step = f"(-> st {' '.join(ups)})"
        exit_ = self.pick(["st", "st", "(get-in st [:a 1])", "[(count st) (get st :t)]",
                           "{:n (count (:a st)) :v (get-in st [:a 0 :n])}"])
        body = self.pick([
            f"(let [e (first es)] (recur (rest es) {step}))",
            f"(let [e (first es) seen (get st :t)] (recur (rest es) (if seen {step} (assoc st :t 1))))",
            f"(let [e (first es)] (if (map? e) (recur (rest es) {step}) (recur (rest es) st)))",
            f"(let [e (first es)] (recur (rest es) [st {step}]))",  # escapes
            f"(let [e (first es) f (fn [] st)] (recur (rest es) (assoc {step} :f (count (f)))))",
        ])
        init = self.pick(["{}", "{:a {}}", "data/m", "nil", "{:t {:a {}}}", "(hash-map)"])
        coll = self.pick(["data/xs", "data/xs", self.coll()])
        loop = f"(loop [es {coll} st {init}] (if (empty? es) {exit_} {body}))"
        return self.pick(["{}", "{}", "(map (fn [j] {}) [1 2])"]).format(loop)

    def program(self) -> str:
        kinds = [self.filter_, self.group, self.get_in, self.str_, self.frequencies]
        kinds += [self.field_updates, self.loop_updates]
        kinds += [self.arith, self.sort, self.reduce, self.reduce, self.misc]
        kinds += [self.reads, self.reads, self.group_vals, self.group_vals]
        kinds += [self.record_maps, self.record_maps]
        kinds += [self.kept_groups]
        kinds += [self.str_fields]
        kinds += [self.path_maps, self.path_maps]
        return self.rnd.choice(kinds)()


def host_items(rnd: random.Random, n: int) -> list[Any]:
    """`n` host items: string-keyed maps (half the time all of them, a record list)."""
    odd = rnd.choice([0.0, 0.03])
    out: list[Any] = []
    for i in range(n):
        d: dict[str, Any] = {}
        for k in rnd.sample(["s", "g", "f", "a", "a_b", "a-b"], rnd.randint(0, 4)):
            d[k] = rnd.choice([None, True, 1, 2.5, "a", "b", [1], {"s": "a"}, i % 7])
        out.append(d if rnd.random() >= odd else rnd.choice([None, 3, "s", [1, 2]]))
    # mostly a field "h" of hashable values (map keys: `assoc_fields._record_map`) from
    # one of three pools: strings without `_`, numbers next to booleans, all of them
    extra = random.Random(rnd.random())
    if extra.random() < 0.75:
        pool = extra.choice([HASHABLE[:4], HASHABLE[4:11], HASHABLE[4:11], HASHABLE])
        for d in out:
            if type(d) is dict and extra.random() < 0.97:
                d["h"] = extra.choice(pool)
    return out


HASHABLE: list[Any] = ["a", "b", "a-b", "", None, True, False, 0, 1, 1.0, -0.0, "a_b", 2.5]


def _outcome(src: str, data: dict[str, Any], max_steps: int, steps: bool, optimize: bool) -> str:
    res = run(src, data=data, max_steps=max_steps, timeout_ms=None, optimize=optimize)
    if res.ok:
        text = "ok " + pr_str(res.value)
    else:
        assert res.error is not None
        err = res.error
        text = f"error {err.code} {err.line}:{err.column}: {err.message}"
    counted = steps or res.ok
    return f"{text} | printed {res.output!r}" + (f" | steps {res.steps}" if counted else "")


def check(rnd: random.Random, tag: str) -> None:
    """One random program from `rnd` agrees with itself compiled with no optimiser rule
    (`optimize=False`; `tag` makes its source unique, so each variant is compiled afresh)."""
    src = Gen(rnd).program() + f"\n; {tag}"
    xs = host_items(rnd, rnd.choice([0, 3, 20, 600]))
    data = {"xs": xs, "m": {"t": {"a": {}}, "a": 1}}
    before = json.dumps(data, sort_keys=True)
    budget = rnd.choice(
        [10**6, 10**6, rnd.randint(1, 40), rnd.randint(len(xs) // 2 + 1, len(xs) + 6)]
    )
    steps = "pmap" not in src
    got = _outcome(src, data, budget, steps, optimize=True)
    assert json.dumps(data, sort_keys=True) == before, src
    code = ptc_compiler.compile(src, optimize=False).python_source
    for helper in ("rt_filter_field", "t_begin", "rt_filter_groups", "rt_map_str_fields"):
        assert helper not in code, (helper, src)
    assert "rt_map_path" not in code and "rt_get_path" not in code, src
    want = _outcome(src, copy.deepcopy(data), budget, steps, optimize=False)
    assert got == want, src
