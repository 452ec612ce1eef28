"""Programs shaped like the ones LLMs write to orchestrate tools (round 3 of the Clojure campaign).

A `def` of a literal dataset (20-60 records with nested maps and vectors, fields missing or
nil, keyword and string keys), then a `let` of several steps over it: compound filters,
group-by with destructured entries, aggregations, result maps built with select-keys, assoc,
update and merge, `for` with :let/:when, string building with str, format and str/join, cond
classification, top-n, update-in on reduce accumulators, `into {}` of pairs and threading
chains. The program's value is a map. Two variants: `error_program` puts one step that fails
in both languages deep inside the pipeline (an error on both sides agrees; a value on one side
and an error on the other is a finding), and `printing` adds println lines of scalars and of
pr-str of nested data inside str.

They keep to the common language the way `clojure_programs` does; the shapes they avoid:

* order over hash maps (decision 6): group-by and frequencies results are compared as maps,
  walked only after `sort-by key`, and never printed (past 8 keys Clojure's order is a hash's);
* integer `/` (decision 26: ratios): averages divide a float sum; hours are binary fractions so
  float sums do not depend on rounding order;
* int and float in one `=` (decision 4); string functions of non-strings (GAP-S139);
* println of collections holding strings (§7.6): collections are printed through pr-str only;
* `nth` out of range (DIV-22) and `first` of a map (DIV-29).
"""

from __future__ import annotations

import random
from collections.abc import Callable

NAMES = ("ann", "bob", "cy", "dee", "eve", "fay", "gus", "hal", "ida", "jo")
TEAMS = ("eng", "ops", "sales", "legal")
STATUSES = (":open", ":closed", ":pending")
TAGS = ("urgent", "vip", "bug", "promo", "new")
REGIONS = ('"eu"', '"us"', '"apac"')
HOURS = ("0.5", "1.0", "1.5", "2.25", "3.0", "4.75", "8.0", "0.25", "12.5", "6.0")


def dataset(rng: random.Random) -> str:
    """A vector of 20-60 records: nested owner maps, tag vectors, missing and nil fields."""
    recs = []
    for i in range(rng.randint(20, 60)):
        fields = [f":id {i + 1}", f':name "{rng.choice(NAMES)}"', f':team "{rng.choice(TEAMS)}"',
                  f":status {rng.choice(STATUSES)}", f":hours {rng.choice(HOURS)}"]
        tags = " ".join(f'"{t}"' for t in rng.sample(TAGS, rng.randint(0, 3)))
        fields.append(f":tags [{tags}]")
        s = rng.random()
        if s < 0.6:
            fields.append(f":score {rng.randint(0, 100)}")
        elif s < 0.8:
            fields.append(":score nil")
        if rng.random() < 0.6:
            fields.append(f':owner {{:name "{rng.choice(NAMES)}" :level {rng.randint(1, 5)}}}')
        if rng.random() < 0.5:
            fields.append(f'"region" {rng.choice(REGIONS)}')
        rng.shuffle(fields)
        recs.append("{" + " ".join(fields) + "}")
    return "[" + "\n   ".join(recs) + "]"


def _one(rng: random.Random, options: list[Callable[[], str]]) -> str:
    """One of `options`, built (only the chosen one draws from `rng`)."""
    return rng.choice(options)()


class LlmGen:
    """One LLM-shaped program; every choice comes from `rng`."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.counter = 0

    def fresh(self, base: str) -> str:
        self.counter += 1
        return f"{base}{self.counter}"

    def pred(self, r: str, depth: int) -> str:
        """A compound predicate on record `r`; `depth` > 1 nests and/or/not further."""
        rng = self.rng
        if depth > 1 and rng.random() < 0.6:
            op = rng.choice(("and", "or", "not"))
            if op == "not":
                return f"(not {self.pred(r, depth - 1)})"
            parts = " ".join(self.pred(r, depth - 1) for _ in range(rng.randint(2, 3)))
            return f"({op} {parts})"
        t, n, name = rng.choice(TEAMS), rng.randint(0, 100), rng.choice(NAMES)
        leaves: list[str] = [
            f'(= (:team {r}) "{t}")',
            f"(> (or (:score {r}) 0) {n})",
            f"(and (:score {r}) (>= (:score {r}) {n}))",
            f"(contains? {r} :owner)",
            f'(some #{{"{rng.choice(TAGS)}"}} (:tags {r}))',
            # inside a #() a nested #() is a read error on both sides: a set there instead
            f'(some #(= % "{rng.choice(TAGS)}") (:tags {r}))' if r != "%"
            else f'(some #{{"{rng.choice(TAGS)}"}} (:tags {r}))',
            f'(str/includes? (:name {r}) "{rng.choice("aeio")}")',
            f"(= {rng.choice(STATUSES)} (:status {r}))",
            f'(not= {rng.choice(REGIONS)} (get {r} "region"))',
            f"(< (:hours {r}) {rng.choice(HOURS)})",
            f"(some? (get-in {r} [:owner :level]))",
            f"(> (get-in {r} [:owner :level] 0) {rng.randint(0, 5)})",
            f"(empty? (:tags {r}))",
            f'(= "{name}" (get-in {r} [:owner :name]))',
            f"(nil? (:score {r}))",
            f'(str/starts-with? (:name {r}) "{name[0]}")',
        ]
        return rng.choice(leaves)

    def recs_step(self, src: str, depth: int) -> str:
        """A step from a sequence of full records to a sequence of full records."""
        rng = self.rng
        r = self.fresh("r")
        n = rng.randint(0, 8)
        return _one(rng, [
            lambda: f"(filter (fn [{r}] {self.pred(r, depth)}) {src})",
            lambda: f"(remove (fn [{r}] {self.pred(r, depth)}) {src})",
            lambda: f"(filterv #(and {self.pred('%', 1)} {self.pred('%', 1)}) {src})",
            lambda: f"(sort-by (juxt :team :id) {src})",
            lambda: f"(sort-by (juxt :status (comp - :id)) {src})",
            lambda: f"(take {n} (sort-by :hours > {src}))",
            lambda: f"(->> {src} (sort-by :id >) (take {n}))",
            lambda: f"(map #(update % :hours * 2) {src})",
            lambda: f"(map #(assoc % :score (or (:score %) 0)) {src})",
            lambda: f"(map (fn [{r}] (update-in {r} [:owner :level] (fnil inc 0))) {src})",
            lambda: f'(->> {src} (filter :owner) (remove #(= "{rng.choice(NAMES)}" (:name %))))',
            lambda: f"(drop {n} {src})",
            lambda: f"(vec (distinct {src}))",
        ])

    def value(self, src: str) -> str:
        """An aggregate or derived value of a sequence of records, for the result map."""
        rng = self.rng
        r, k, vs, acc = self.fresh("r"), self.fresh("k"), self.fresh("vs"), self.fresh("acc")
        s = self.fresh("s")
        n = rng.randint(1, 6)
        field = rng.choice((":team", ":status", ":name"))
        return _one(rng, [
            lambda: f"(count {src})",
            lambda: f"(reduce + 0 (map :id {src}))",
            lambda: f"(reduce + 0.0 (map :hours {src}))",
            lambda: f"(reduce + (keep :score {src}))",
            lambda: f"(apply max 0 (map :id {src}))",
            lambda: f"(when (seq {src}) (apply min (map :hours {src})))",
            lambda: f"(frequencies (map {field} {src}))",
            lambda: f"(frequencies (mapcat :tags {src}))",
            lambda: f"(when (seq {src}) (:id (apply max-key :hours {src})))",
            lambda: f"(when (seq {src}) (:name (apply min-key #(or (:score %) 100) {src})))",
            lambda: f"(into {{}} (map (fn [[{k} {vs}]] [{k} (count {vs})]) (group-by {field} {src})))",
            lambda: (f"(into {{}} (for [[{k} {vs}] (group-by :status {src})]\n"
                     f"        [{k} {{:n (count {vs}) :hours (reduce + 0.0 (map :hours {vs}))}}]))"),
            lambda: (f"(->> (group-by :team {src})\n"
                     f"     (map (fn [[{k} {vs}]] {{:team {k} :total (reduce + 0 (keep :score {vs}))"
                     f" :names (vec (sort (distinct (map :name {vs}))))}}))\n"
                     f"     (sort-by :team)\n     vec)"),
            lambda: (f"(reduce (fn [{acc} {r}] (update-in {acc} [(:team {r}) :count] (fnil inc 0)))"
                     f" {{}} {src})"),
            lambda: (f"(reduce (fn [{acc} {r}]\n"
                     f"          (-> {acc}\n"
                     f"              (update-in [(:team {r}) :hours] (fnil + 0.0) (:hours {r}))\n"
                     f"              (update-in [(:team {r}) :ids] (fnil conj []) (:id {r}))))\n"
                     f"        {{}} {src})"),
            lambda: f'(str/join ", " (map :name (take {n} {src})))',
            lambda: f'(apply str (interpose "|" (map :id {src})))',
            lambda: (f'(format "%s: %d items, %.2f hours" "{rng.choice(TEAMS)}" (count {src})'
                     f" (reduce + 0.0 (map :hours {src})))"),
            lambda: (f"(vec (for [{r} {src} :let [{s} (or (:score {r}) 0)] :when (> {s} {rng.randint(0, 90)})]\n"
                     f"        {{:id (:id {r}) :band (cond (> {s} 80) :high (> {s} 40) :mid :else :low)}}))"),
            lambda: f"(mapv #(select-keys % [:id :name :score]) (take {n} {src}))",
            lambda: f'(merge {{:source "crm" :n 0}} {{:n (count {src})}})',
            lambda: f'(some #(when (= (:name %) "{rng.choice(NAMES)}") (:id %)) {src})',
            lambda: f"(->> {src} (map :owner) (remove nil?) (map :name) distinct sort vec)",
            lambda: f"(into {{}} (map (juxt :id :name) {src}))",
            lambda: f"(zipmap (map :id {src}) (map :status {src}))",
            lambda: f'(->> {src} (map #(get % "region")) (remove nil?) frequencies)',
            lambda: f'(let [{{:keys [id name] :or {{name "?"}}}} (first {src})] (str name "#" id))',
            lambda: f"(cond-> {{:n (count {src})}} (seq {src}) (assoc :first (:id (first {src}))))",
            lambda: f"(reduce-kv (fn [m {k} {vs}] (assoc m {k} (count {vs}))) {{}} (group-by :team {src}))",
            lambda: f"(when-some [{s} (:score (first {src}))] (* 2 {s}))",
            lambda: f"(if-let [{r} (first (filter :owner {src}))] (get-in {r} [:owner :name]) \"none\")",
            lambda: (f"(let [{s} (reduce + 0.0 (map :hours {src}))]\n"
                     f"        (cond (zero? (count {src})) :empty (> {s} 40.0) :heavy (> {s} 10.0) :medium"
                     f" :else :light))"),
            lambda: (f"(when (seq {src}) (/ (reduce + 0.0 (map :hours {src})) (count {src})))"),
            lambda: f'(str "top: " (pr-str (mapv #(select-keys % [:id :team]) (take {n} {src}))))',
            lambda: f"(->> {src} (map :tags) (apply concat) distinct sort vec)",
            lambda: (f"(->> (group-by :team {src}) (sort-by key)"
                     f" (mapv (fn [[{k} {vs}]] (str {k} \"=\" (count {vs})))))"),
            lambda: (f"(->> {src} (group-by #(get-in % [:owner :level] 0))"
                     f" (map (fn [[{k} {vs}]] [{k} (mapv :id {vs})])) (into {{}}))"),
            lambda: f"(update (frequencies (map :status {src})) :open (fnil + 0) 100)",
            lambda: f"(update-vals (group-by (juxt :team #(count (:tags %))) {src}) count)",
            lambda: f"(reduce (fn [m {r}] (update m (:team {r}) (fnil conj #{{}}) (:id {r}))) {{}} {src})",
            lambda: (f"(vec (map-indexed (fn [i {r}] (assoc (select-keys {r} [:id]) :rank (inc i)))"
                     f" (sort-by (juxt (comp - count :tags) :id) {src})))"),
            lambda: f"(vec (keep #(some-> % :owner :name str/upper-case) {src}))",
            lambda: f"(mapv #(mapv :id %) (partition-by :team (sort-by :team {src})))",
            lambda: f"(into #{{}} (mapcat :tags {src}))",
            lambda: (f"(let [{s} (reduce (fn [a {r}] (-> a (update :n inc) (update :sum + (:hours {r}))))"
                     f" {{:n 0 :sum 0.0}} {src})]\n"
                     f"        (assoc {s} :mean (when (pos? (:n {s})) (/ (:sum {s}) (:n {s})))))"),
            lambda: f"(not-empty (filterv #(str/includes? (str/join \" \" (:tags %)) \"vi\") {src}))",
        ])

    def error_step(self, src: str) -> str:
        """A step that fails in both languages (when `src` is not empty, or always)."""
        rng = self.rng
        r, a, b = self.fresh("r"), self.fresh("a"), self.fresh("b")
        return _one(rng, [
            lambda: f"(reduce + 0 (map :score (cons {{:score nil}} {src})))",
            lambda: f"(+ 1 (:owner (first (cons {{:owner {{:level 1}}}} {src}))))",
            lambda: f"(map inc (map :name {src}))",
            lambda: f"(vec (map inc (map :name (cons {{:name \"x\"}} {src}))))",
            lambda: f"((:name (first (cons {{:name \"x\"}} {src}))) 1)",
            lambda: f"((fn [{a} {b}] (+ {a} {b})) (count {src}))",
            lambda: f"(let [[{a} {b}] (count {src})] {a})",
            lambda: f"(inc (:score (first (cons {{:score nil}} {src}))))",
            lambda: "(* 2 (get-in {:x {}} [:x :y]))",
            lambda: f"(mapv (fn [{r}] (- (:hours {r}) (:missing {r}))) (cons {{:hours 1.0}} {src}))",
            lambda: f"(sort-by :hours (map #(assoc % :hours nil) (concat [{{:hours 1.0}} {{:hours 2.0}}] {src})))",
            lambda: f"(count (:id (first (cons {{:id 7}} {src}))))",
            lambda: f"(apply max (map :id (filter (constantly false) {src})))",
            lambda: f"(reduce max (map :id (take 0 {src})))",
            lambda: f"(first (count {src}))",
            lambda: f"(conj (count {src}) 1)",
            lambda: f"(name (:nope (first (cons {{}} {src}))))",
            lambda: f"(update {{:n nil}} :n + (count {src}))",
            lambda: f"((fn [{a}] {a}) 1 (count {src}))",
            lambda: f"(reduce (fn [{a}] {a}) 0 (cons 1 (map :id {src})))",
            lambda: f"(into {{}} (map :id (cons {{:id 1}} {src})))",
            lambda: f"(< 1 (:name (first (cons {{:name \"x\"}} {src}))))",
            lambda: f"(keyword (count {src}) 1)",
            lambda: f"(let [{{:keys [{a}]}} (count {src})] {a})",
            lambda: f"(str/upper-case (:name (first (cons {{}} {src}))))",
        ])

    def program(self, kind: str, depth: int) -> str:
        """One program: def of a dataset, a let of steps, a result map; `kind` picks the variant."""
        rng = self.rng
        forms = [f"(def data {dataset(rng)})"]
        steps: list[tuple[str, str]] = []
        srcs = ["data"]
        for _ in range(rng.randint(1, 3)):
            name = self.fresh(rng.choice(("active", "picked", "rows", "sorted", "hits")))
            steps.append((name, self.recs_step(rng.choice(srcs), depth)))
            srcs.append(name)
        keys = []
        for _ in range(rng.randint(2, 5)):
            name = self.fresh(rng.choice(("total", "by-team", "top", "summary", "stats", "label")))
            steps.append((name, self.value(rng.choice(srcs))))
            keys.append(name)
        if kind == "error":
            name = self.fresh("bad")
            steps.insert(rng.randint(len(srcs) - 1, len(steps)), (name, self.error_step(rng.choice(srcs))))
            keys.append(name)
        if kind == "print":
            lines = []
            for _ in range(rng.randint(1, 3)):
                # pr-str of a set, of a map built by hashing, or of a whole record (9 keys: a
                # hash map in Clojure) shows hash order (decision 6)
                k = rng.choice([n for n, e in steps if n in keys and not any(
                    w in e for w in ("frequencies", "group-by", "zipmap", "into {", "reduce", "merge",
                                     "update (", "not-empty", "#{", "update-vals"))] or ["0"])
                lines.append(rng.choice([
                    f'(println "{k}:" (count {rng.choice(srcs)}) nil :done 1.5)',
                    f'(println (str "{k} = " (pr-str {k})))',
                    f'(println "rows" (count {rng.choice(srcs)}) "first" (:name (first {rng.choice(srcs)})))',
                    f"(println (pr-str (mapv :id (take 3 {rng.choice(srcs)}))))",
                    f'(println (format "%-6s|%5.1f|" "{rng.choice(TEAMS)}" (reduce + 0.0 (map :hours {rng.choice(srcs)}))))',
                ]))
            steps.append(("_", "(do " + " ".join(lines) + ")"))
        binds = "\n      ".join(f"{n} {e}" for n, e in steps)
        result = "{" + " ".join(f":{k.rstrip('0123456789')}-{i} {k}" for i, k in enumerate(keys)) + "}"
        forms.append(f"(let [{binds}]\n  {result})")
        return "\n".join(forms)


def llm_program(rng: random.Random) -> str:
    """One LLM-shaped program: mostly values, some that must fail, some that print."""
    r = rng.random()
    kind = "error" if r < 0.2 else "print" if r < 0.4 else "value"
    # deeper predicate nesting (depth 5-7) now and then
    depth = rng.choice((1, 2, 2, 3)) if rng.random() < 0.9 else rng.randint(5, 7)
    return LlmGen(rng).program(kind, depth)
