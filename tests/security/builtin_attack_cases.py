"""Attacks on the builtins themselves: work inside one builtin call, hash flooding, shared
structure and big-integer growth (run by test_builtin_attacks.py in both modes).

Each must end as a typed, bounded failure (or, for the defused and benign ones, a value)
within its time bound, with the host unharmed.
"""

from __future__ import annotations

from typing import Any

from security_cases import Attack

TIME = ("timeout",)
EXC = ("exception",)
BOUNDED = ("exception", "timeout", "output-limit")

CASES: list[Attack] = []


def add(cat: str, id_: str, program: str, kinds: tuple[str, ...] = EXC, **kw: Any) -> None:
    CASES.append(Attack(f"{cat}:{id_}", cat, program, kinds, **kw))


def ok(cat: str, id_: str, program: str, value: Any, **kw: Any) -> None:
    CASES.append(Attack(f"{cat}:{id_}", cat, program, (), value, **kw))


# ---------------------------------------------------------------- budgets inside builtins
# A builtin as the callback charges no step itself: the builtin's loop must charge and
# check the deadline. 300 ms deadline, 4 s bound (building the 10M-item input is part of it) (the unbounded runs took 12-15 s).
G = "builtin-budget"
N = "(range 10000000)"
BIG_MAP = "(zipmap (range 2000000) (range 2000000))"
for id_, prog in [
    ("map-str", f"(count (map str {N}))"),
    ("mapv-str", f"(count (mapv str {N}))"),
    ("map-two-colls", f"(let [r {N}] (count (map str r r)))"),
    ("map-comp", f"(count (map (comp str inc) {N}))"),
    ("map-partial", f"(count (map (partial + 1) {N}))"),
    ("map-juxt", f"(count (map (juxt inc dec) {N}))"),
    ("map-constantly", f"(count (map (constantly 1) {N}))"),
    ("map-fnil", f"(count (map (fnil inc 0) {N}))"),
    ("map-keyword", f"(count (map :a (map hash-map (repeat 10000000 :a) {N})))"),
    ("filter-str", f"(count (filter str {N}))"),
    ("remove-nil", f"(count (remove nil? {N}))"),
    ("keep-str", f"(count (keep str {N}))"),
    ("mapcat-vector", f"(count (mapcat vector {N}))"),
    ("reduce-max", f"(reduce max {N})"),
    ("reduce-str", f"(count (reduce str {N}))"),
    ("reductions-plus", f"(count (reductions + {N}))"),
    ("sort-by-str", f"(count (sort-by str {N}))"),
    ("group-by-str", f"(count (group-by str {N}))"),
    ("frequencies-map-str", f"(count (frequencies (map str {N})))"),
    ("into-set-map-str", f"(count (into #{{}} (map str {N})))"),
    ("join-map-str", f"(count (str/join \",\" (map str {N})))"),
    ("apply-str-map", f"(count (apply str (map str {N})))"),
    ("every-str", f"(every? str {N})"),
    ("some-nil", f"(some nil? {N})"),
    ("map-indexed-vector", f"(count (map-indexed vector {N}))"),
    ("repeat-map-str", "(count (map str (repeat 10000000 1)))"),
    ("apply-mul-many", "(apply * (range 1 300000))"),
    # a map's every entry through a builtin (the map itself is built in one C call)
    ("update-vals-inc", f"(count (update-vals {BIG_MAP} inc))"),
    ("update-keys-inc", f"(count (update-keys {BIG_MAP} inc))"),
    ("update-vals-comp", f"(count (update-vals {BIG_MAP} (comp str inc)))"),
    # `+` off the C-level sum: a vector with one non-number at its end folds call by call
    ("reduce-plus-fold", "(reduce + (conj (vec (range 10000000)) nil))"),
    ("reduce-plus-init-fold", "(reduce + 0.5 (conj (vec (range 10000000)) nil))"),
    ("reductions-plus-vector", "(count (reductions + (vec (range 10000000))))"),
]:
    add(G, id_, prog, ("timeout", "exception"), timeout_ms=300, seconds=4.0)

# ---------------------------------------------------------------- hash flooding
# Multiples of 2^61-1 all hash to 0 in CPython (over a minute in one C call unguarded).
G = "hash-flood"
B = "(map (partial * 2305843009213693951) (range 60000))"
for id_, prog in [
    ("set", f"(count (set {B}))"),
    ("hash-set", f"(count (apply hash-set {B}))"),
    ("into-set", f"(count (into #{{}} {B}))"),
    ("frequencies", f"(count (frequencies {B}))"),
    ("distinct", f"(count (distinct {B}))"),
    ("group-by", f"(count (group-by identity {B}))"),
    ("zipmap", f"(count (zipmap {B} (range 60000)))"),
    ("into-map", f"(count (into {{}} (map vector {B} {B})))"),
    ("hash-map", f"(count (apply hash-map (interleave {B} {B})))"),
    ("negative", "(count (set (map (partial * -2305843009213693951) (range 60000))))"),
    ("apply-assoc", f"(count (apply assoc {{}} (interleave {B} {B})))"),
    ("apply-conj-set", f"(count (apply conj #{{}} {B}))"),
    ("apply-conj-map", f"(count (apply conj {{}} (map vector {B} {B})))"),
    ("union", f"(count (clojure.set/union #{{1}} (set {B})))"),
    (
        "map-literal",
        "(let [p 2305843009213693951] {"
        + " ".join(f"(* p {i}) {i}" for i in range(3000))
        + "})",
    ),
    (
        "set-literal",
        "(let [p 2305843009213693951] #{" + " ".join(f"(* p {i})" for i in range(3000)) + "})",
    ),
]:
    add(G, id_, prog, EXC, code="hash_collision_limit", seconds=3.0)
# vectors of them as keys: their collisions are counted (or the deadline comes first)
add(G, "vector-keys", f"(count (set (map vector {B})))", ("exception", "timeout"), seconds=3.0)
add(
    G,
    "vector-keys-frequencies",
    f"(count (frequencies (map vector {B})))",
    ("exception", "timeout"),
    seconds=3.0,
)
# one key at a time: each insert is short, the program's loop keeps the deadline
add(G, "assoc-loop", f"(count (reduce (fn [m k] (assoc m k 1)) {{}} {B}))", TIME, seconds=3.0)
# floats equal to such integers are hashed as those integers (and are rarely exact)
add(G, "floats", f"(count (set (map double {B})))", EXC, may_succeed=True, seconds=3.0)
# benign: big numbers that do not collide, long vectors alike in their first items
ok(G, "big-distinct", "(count (set (map #(* % 4611686018427387903) (range 2000))))", 2000)
ok(G, "big-ids", "(count (set (map #(+ % 9007199254740993000) (range 50000))))", 50000)
ok(
    G,
    "long-vectors",
    "(count (set (map (fn [i] (conj (vec (repeat 40 0)) i)) (range 20000))))",
    20000,
    seconds=3.0,
)

# ---------------------------------------------------------------- shared structure
G = "shared-structure"
D = "(reduce (fn [a _] [a a]) [] (range 64))"
E = "(reduce (fn [a _] [a a]) [] (range 64))"
W = "(reduce (fn [a _] (vec (repeat 32 a))) [] (range 12))"
ok(G, "compare", f"(compare {D} {E})", 0)
ok(G, "sort", f"(count (sort [{D} {E}]))", 2)
ok(G, "sort-desc", "(count (sort > [1 2]))", 2)
ok(G, "sort-by", f"(count (sort-by identity [{D} {E}]))", 2)
ok(G, "max-by", f"(count (max-by identity [{D} {E}]))", 2)
ok(G, "min-by", f"(count (min-by identity [{D} {E}]))", 2)
ok(G, "sort-wide", f"(count (sort [{W} {W}]))", 2)
ok(G, "set-wide", f"(count (set [{W} {W}]))", 1)
ok(G, "frequencies", f"(count (frequencies [{D} {E}]))", 1)
ok(G, "group-by", f"(count (group-by identity [{D} {E}]))", 1)
ok(G, "distinct", f"(count (distinct [{D} {E}]))", 1)
for id_, prog in [
    ("str", f"(count (str {D}))"),
    ("pr-str", f"(count (pr-str {D}))"),
    ("flatten", f"(count (flatten {D}))"),
    ("tree-seq", f"(count (tree-seq vector? seq {D}))"),
    ("postwalk", f"(count (postwalk identity {D}))"),
    ("prewalk", f"(count (prewalk identity {D}))"),
]:
    add(G, id_, prog, BOUNDED, seconds=3.0)

# ---------------------------------------------------------------- big-integer growth
G = "bigint"
for id_, prog in [
    ("reduce-mul", "(reduce * (range 1 300000))"),
    ("reduce-fn-mul", "(reduce (fn [a b] (* a b)) (range 1 300000))"),
    ("loop-mul", "(loop [a 1 i 1] (if (< i 300000) (recur (* a i) (inc i)) (count (str a))))"),
    ("squaring", "(reduce (fn [a _] (* a a)) 3 (range 40))"),
    ("shift-square", "(let [x (bit-shift-left 1 999000)] (* x x))"),
    ("shift-huge", "(bit-shift-left 1 100000000)"),
    ("mul-prime", "(reduce *' (range 1 300000))"),
]:
    add(G, id_, prog, ("exception", "timeout"), timeout_ms=300, seconds=3.0)

