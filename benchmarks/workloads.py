"""The workloads of `bench_workloads`: data, PTC-Lisp, hand-written Python, hy and basilisp.

Each workload is one job done four ways: an idiomatic PTC-Lisp program (what a model
writes), idiomatic hand-written Python, the same Python written in hy (Python semantics in
Lisp syntax) and, for some, a basilisp (Clojure on Python) function. The data is
generated deterministically from a seed and is tool-shaped: lists of string-keyed dicts,
text, numbers. `tests/test_bench_workloads.py` checks every side's result against
Python's on the quick sizes.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

SEED = 20240607


@dataclass(frozen=True)
class Workload:
    """One job: `ptc` runs with `data=` the dataset, `python(data)` and hy's `job(data)`
    give the same value; `turns` marks a batch of programs compiled and run once each."""

    name: str
    label: str
    size: str  # the key of its size in the sizes tables
    ptc: str
    python: Callable[[dict[str, Any]], Any]
    hy: str
    basilisp: str | None = None  # a `(defn job [data] ...)` body; None: no basilisp side


FULL_SIZES = {
    "orders": 100_000, "words": 200_000, "entries": 50_000, "tree_ops": 20_000,
    "join": 100_000, "sort": 100_000, "fib": 25, "loop": 1_000_000, "nested": 20_000,
    "lines": 50_000, "records": 50_000, "grid": 300, "tree": 9, "chain": 900,
    "turns": 30, "walk": 20_000,
}
QUICK_SIZES = {
    "orders": 2_000, "words": 4_000, "entries": 1_000, "tree_ops": 400,
    "join": 2_000, "sort": 2_000, "fib": 15, "loop": 5_000, "nested": 400,
    "lines": 1_000, "records": 1_000, "grid": 30, "tree": 4, "chain": 100,
    "turns": 30, "walk": 500,
}


# ------------------------------------------------------------------ the data


def make_data(sizes: dict[str, int], seed: int = SEED) -> dict[str, dict[str, Any]]:
    """Per workload, the `data=` map (string keys, JSON-shaped), deterministic in `seed`."""
    rnd = random.Random(seed)
    statuses = ["paid", "paid", "paid", "pending", "refunded"]
    orders = [
        {
            "id": i,
            "customer": f"c{rnd.randrange(2000):04d}",
            "status": rnd.choice(statuses),
            "amount": round(rnd.uniform(1, 500), 2),
            "region": rnd.choice(["eu", "us", "apac"]),
        }
        for i in range(sizes["orders"])
    ]
    records = orders[: sizes["records"]]
    vocab = [f"w{i}" for i in range(5000)]
    weights = [1 / (r + 1) for r in range(len(vocab))]  # Zipf-like
    words = rnd.choices(vocab, weights, k=sizes["words"])
    docs = [{"id": i, "text": " ".join(words[j:j + 100])}
            for i, j in enumerate(range(0, len(words), 100))]
    products = [
        {"sku": f"sku-{i:06d}", "name": f"item {vocab[i % 5000]}",
         "price": round(rnd.uniform(0.5, 999), 2), "qty": rnd.randrange(100)}
        for i in range(max(sizes["entries"], sizes["join"], sizes["sort"]))
    ]
    regions = [f"r{i}" for i in range(10)]
    stores = [f"s{i}" for i in range(50)]
    tree = {"regions": {r: {"name": r.upper(), "stores": {s: {"sales": 0, "orders": 0}
                                                          for s in stores}} for r in regions}}
    events = [{"region": rnd.choice(regions), "store": rnd.choice(stores),
               "amount": rnd.randrange(1, 100)} for _ in range(sizes["tree_ops"])]
    user_events = [{"user": f"u{rnd.randrange(300)}", "amount": rnd.randrange(1, 1000), "ts": i}
                   for i in range(sizes["nested"])]
    actions = ["view", "view", "click", "buy", "search"]
    log = "\n".join(
        f"user=u{rnd.randrange(500)};action={rnd.choice(actions)};ms={rnd.randrange(1, 2000)}"
        for _ in range(sizes["lines"])
    )
    users = [{"id": f"c{i:04d}", "name": f"Customer {i}", "tier": rnd.choice(["gold", "basic"])}
             for i in range(2000)]

    def subtree(depth: int, path: str) -> dict[str, Any]:
        kids = [] if depth == 0 else [subtree(depth - 1, f"{path}.{k}") for k in range(3)]
        return {"name": path, "weight": len(path) % 7, "children": kids}

    chain: dict[str, Any] | None = None
    for i in range(sizes["chain"]):
        chain = {"value": i % 13, "next": chain}
    return {
        "pipeline": {"orders": orders},
        "word_freq": {"docs": docs},
        "assoc_build": {"products": products[: sizes["entries"]]},
        "tree_update": {"tree": tree, "events": events},
        "str_join": {"products": products[: sizes["join"]]},
        "sort_by": {"products": products[: sizes["sort"]]},
        "fib": {"n": sizes["fib"]},
        "loop_numeric": {"n": sizes["loop"]},
        "loop_nested_update": {"events": user_events},
        "kv_lines": {"log": log},
        "string_keys": {"orders": records},
        "nested_for": {"n": sizes["grid"]},
        "string_build": {"products": products[: sizes["records"]]},
        "multi_sort": {"orders": records},
        "deep_recursion": {"tree": subtree(sizes["tree"], "root"), "chain": chain},
        "set_ops": {"orders": records},
        "agent_turns": {"orders": orders[:50], "docs": docs[:5], "products": products[:40]},
        "group_aggregate": {"orders": orders},
        "multi_filter": {"orders": orders},
        "top_n": {"orders": orders},
        "join_index": {"orders": records, "users": users},
        "loop_walk": {"xs": [o["amount"] for o in orders[: sizes["walk"]]]},
    }


# ------------------------------------------------------------------ the seven first workloads


def py_pipeline(data: dict[str, Any]) -> Any:
    totals: dict[str, float] = defaultdict(float)
    for o in data["orders"]:
        if o["status"] == "paid":
            totals[o["customer"]] += o["amount"]
    rows: list[dict[str, Any]] = [{"customer": c, "total": t} for c, t in totals.items()]
    return sorted(rows, key=lambda r: r["total"], reverse=True)[:10]


def py_word_freq(data: dict[str, Any]) -> Any:
    counts = Counter(w for d in data["docs"] for w in d["text"].split(" "))
    return sorted(counts.items(), key=lambda kv: kv[1], reverse=True)[:10]


def py_assoc_build(data: dict[str, Any]) -> Any:
    prices = {p["sku"]: p["price"] for p in data["products"]}
    return {"count": len(prices), "first": prices.get("sku-000000")}


def py_tree_update(data: dict[str, Any]) -> Any:
    tree = {"regions": {r: {**reg, "stores": {s: dict(st) for s, st in reg["stores"].items()}}
                        for r, reg in data["tree"]["regions"].items()}}  # don't mutate the input
    for e in data["events"]:
        store = tree["regions"][e["region"]]["stores"][e["store"]]
        store["sales"] += e["amount"]
        store["orders"] += 1
    total = sum(tree["regions"][e["region"]]["stores"][e["store"]]["sales"] for e in data["events"])
    return {"total": total, "r0s0": tree["regions"]["r0"]["stores"]["s0"]}


def py_str_join(data: dict[str, Any]) -> Any:
    text = "\n".join(f"{p['sku']},{p['price']},{p['qty']}" for p in data["products"])
    return {"chars": len(text), "head": text[:60]}


def py_sort_by(data: dict[str, Any]) -> Any:
    return sorted(data["products"], key=lambda p: p["price"], reverse=True)[:10]


def py_fib(data: dict[str, Any]) -> Any:
    def fib(n: int) -> int:
        return n if n < 2 else fib(n - 1) + fib(n - 2)

    return fib(data["n"])


# ------------------------------------------------------------------ the broader suite


def py_loop_numeric(data: dict[str, Any]) -> Any:
    acc = 0
    for i in range(data["n"]):
        if i % 3 == 0:
            acc += i * i
        else:
            acc -= i
    return acc


def py_loop_nested_update(data: dict[str, Any]) -> Any:
    stats: dict[str, dict[str, int]] = {}
    last: dict[str, int] = {}
    for e in data["events"]:
        s = stats.setdefault(e["user"], {"count": 0, "total": 0})
        s["count"] += 1
        s["total"] += e["amount"]
        last[e["user"]] = e["ts"]
    return {"users": len(stats), "u7": stats.get("u7"), "last-u7": last.get("u7")}


def py_kv_lines(data: dict[str, Any]) -> Any:
    by_action: dict[str, dict[str, int]] = {}
    for line in data["log"].splitlines():
        rec = dict(kv.split("=", 1) for kv in line.split(";"))
        agg = by_action.setdefault(rec["action"], {"n": 0, "ms": 0})
        agg["n"] += 1
        agg["ms"] += int(rec["ms"])
    return dict(sorted(by_action.items()))


def py_string_keys(data: dict[str, Any]) -> Any:
    totals: dict[str, float] = {}
    for o in data["orders"]:
        k = f"{o['region']}/{o['status']}"
        totals[k] = totals.get(k, 0) + o["amount"]
    keys = ["eu/paid", "us/paid", "apac/refunded", "eu/none"]
    return {"n": len(totals), "picked": [round(totals.get(k, 0), 2) for k in keys]}


def py_nested_for(data: dict[str, Any]) -> Any:
    n = data["n"]
    pairs = [(x, y) for x in range(n) for y in range(x, n) if (x * x + y) % 7 == 0]
    return {"count": len(pairs), "last": list(pairs[-1]), "sum": sum(x + y for x, y in pairs)}


def py_string_build(data: dict[str, Any]) -> Any:
    rows = [f"| {p['sku']} | {p['name'].upper()} | {p['qty']} |" for p in data["products"]
            if p["qty"] > 10]
    text = "| sku | name | qty |\n" + "\n".join(rows)
    return {"chars": len(text), "head": text[:80]}


def py_multi_sort(data: dict[str, Any]) -> Any:
    rows = sorted(data["orders"], key=lambda o: (o["region"], o["status"], -o["amount"]))
    return [o["id"] for o in rows[:20]] + [rows[-1]["id"]]


def py_deep_recursion(data: dict[str, Any]) -> Any:
    def weight(t: dict[str, Any]) -> int:
        return t["weight"] + sum(weight(c) for c in t["children"])

    def depth(t: dict[str, Any]) -> int:
        return 1 + max((depth(c) for c in t["children"]), default=0)

    def chain_sum(c: dict[str, Any] | None) -> int:
        return 0 if c is None else c["value"] + chain_sum(c["next"])

    return {"weight": weight(data["tree"]), "depth": depth(data["tree"]),
            "chain": chain_sum(data["chain"])}


def py_set_ops(data: dict[str, Any]) -> Any:
    paid = {o["customer"] for o in data["orders"] if o["status"] == "paid"}
    refunded = {o["customer"] for o in data["orders"] if o["status"] == "refunded"}
    eu = {o["customer"] for o in data["orders"] if o["region"] == "eu"}
    only_refunded = refunded - paid
    return {"both": len(paid & refunded), "any": len(paid | refunded | eu),
            "only-refunded": sorted(only_refunded)[:5],
            "eu-paid": sum(1 for c in eu if c in paid)}


def py_group_aggregate(data: dict[str, Any]) -> Any:
    groups: dict[tuple[str, str], list[float]] = defaultdict(list)
    for o in data["orders"]:
        groups[(o["region"], o["status"])].append(o["amount"])
    rows = [{"region": r, "status": s, "n": len(a), "total": round(sum(a), 2),
             "max": max(a), "avg": round(sum(a) / len(a), 2)} for (r, s), a in groups.items()]
    return sorted(rows, key=lambda row: (row["region"], row["status"]))


def py_multi_filter(data: dict[str, Any]) -> Any:
    hits = [o for o in data["orders"]
            if o["status"] == "paid" and o["amount"] > 100 and o["region"] in ("eu", "us")
            and o["customer"].startswith("c1") and o["id"] % 2 == 0]
    return {"count": len(hits), "ids": [o["id"] for o in hits[:5]],
            "total": round(sum(o["amount"] for o in hits), 2)}


def py_top_n(data: dict[str, Any]) -> Any:
    counts = Counter(o["customer"] for o in data["orders"] if o["status"] != "pending")
    return [[c, n] for c, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:5]]


def py_join_index(data: dict[str, Any]) -> Any:
    by_id = {u["id"]: u for u in data["users"]}
    gold = [{"id": o["id"], "name": by_id[o["customer"]]["name"], "amount": o["amount"]}
            for o in data["orders"] if by_id[o["customer"]]["tier"] == "gold"]
    return {"n": len(gold), "first": gold[:3]}


def py_loop_walk(data: dict[str, Any]) -> Any:
    best, total = 0.0, 0.0
    for x in data["xs"]:
        total += x
        if x > best:
            best = x
    return [round(total, 2), best]


# ------------------------------------------------------------------ a batch of agent turns

#: Small programs of the kind a model writes in one turn, each compiled and run once:
#: ten shapes, three variants each (another field, threshold or count).
TURN_SHAPES: list[tuple[str, str, Callable[[dict[str, Any], Any], Any]]] = [
    ("(count (filter #(> (:amount %) {p}) data/orders))", "(len (lfor o (get data \"orders\") :if (> (get o \"amount\") {p}) o))",
     lambda d, p: sum(1 for o in d["orders"] if o["amount"] > p)),
    ("(->> data/orders (map :amount) (reduce +) (* {p}) int)", "(int (* {p} (sum (gfor o (get data \"orders\") (get o \"amount\")))))",
     lambda d, p: int(sum(o["amount"] for o in d["orders"]) * p)),
    ("(let [ps (filter #(= (:region %) \"{p}\") data/orders)] {{:n (count ps) :ids (take 3 (map :id ps))}})",
     "(do (setv ps (lfor o (get data \"orders\") :if (= (get o \"region\") \"{p}\") o)) {{\"n\" (len ps) \"ids\" (lfor o (cut ps 3) (get o \"id\"))}})",
     lambda d, p: (lambda ps: {"n": len(ps), "ids": [o["id"] for o in ps[:3]]})(
         [o for o in d["orders"] if o["region"] == p])),
    ("(update-vals (group-by :status data/orders) count)", "(do (setv c {{}}) (for [o (get data \"orders\")] (setv (get c (get o \"status\")) (+ 1 (.get c (get o \"status\") 0)))) c)",
     lambda d, p: dict(Counter(o["status"] for o in d["orders"]))),
    ("(take {p} (sort-by :amount > data/orders))", "(cut (sorted (get data \"orders\") :key (fn [o] (get o \"amount\")) :reverse True) {p})",
     lambda d, p: sorted(d["orders"], key=lambda o: o["amount"], reverse=True)[:p]),
    ("(mapv #(select-keys % [:id :{p}]) (take 5 data/orders))", "(lfor o (cut (get data \"orders\") 5) {{\"id\" (get o \"id\") \"{p}\" (get o \"{p}\")}})",
     lambda d, p: [{"id": o["id"], p: o[p]} for o in d["orders"][:5]]),
    ("(str/join \", \" (map #(str (:sku %) \"=\" (:qty %)) (take {p} data/products)))",
     "(.join \", \" (gfor p (cut (get data \"products\") {p}) f\"{{(get p \"sku\")}}={{(get p \"qty\")}}\"))",
     lambda d, p: ", ".join(f"{x['sku']}={x['qty']}" for x in d["products"][:p])),
    ("(->> data/docs (mapcat #(str/split (:text %) #\" \")) frequencies (sort-by val >) (take {p}) (map first))",
     "(do (import collections [Counter]) (lfor [w n] (cut (.most_common (Counter (gfor d (get data \"docs\") w (.split (get d \"text\") \" \") w))) {p}) w))",
     lambda d, p: [w for w, _ in sorted(Counter(w for x in d["docs"] for w in x["text"].split(" ")).items(), key=lambda kv: kv[1], reverse=True)[:p]]),
    ("(reduce (fn [acc o] (if (> (:amount o) {p}) (conj acc (:id o)) acc)) [] data/orders)",
     "(lfor o (get data \"orders\") :if (> (get o \"amount\") {p}) (get o \"id\"))",
     lambda d, p: [o["id"] for o in d["orders"] if o["amount"] > p]),
    ("(let [m (apply max (map :qty data/products))] (first (filter #(= (:qty %) m) data/products)))",
     "(do (setv m (max (gfor p (get data \"products\") (get p \"qty\")))) (next (gfor p (get data \"products\") :if (= (get p \"qty\") m) p)))",
     lambda d, p: next(x for x in d["products"] if x["qty"] == max(y["qty"] for y in d["products"]))),
]
TURN_PARAMS: list[list[Any]] = [
    [100, 250, 400], [1, 2, 3], ["eu", "us", "apac"], [0, 1, 2], [3, 5, 7],
    ["amount", "status", "region"], [3, 5, 8], [3, 5, 10], [300, 400, 450], [0, 1, 2],
]


def turns() -> list[tuple[str, str, Callable[[dict[str, Any]], Any]]]:
    """The 30 turns: (PTC source, hy expression, Python function) each."""
    out = []
    for (ptc, hy, py), params in zip(TURN_SHAPES, TURN_PARAMS, strict=True):
        for p in params:
            ptc_src = ptc.replace("{p}", str(p)).replace("{{", "{").replace("}}", "}")
            hy_src = hy.replace("{p}", str(p)).replace("{{", "{").replace("}}", "}")
            out.append((ptc_src, hy_src, lambda d, p=p, py=py: py(d, p)))
    return out


def py_agent_turns(data: dict[str, Any]) -> Any:
    return [py(data) for _, _, py in turns()]


# ------------------------------------------------------------------ PTC-Lisp, hy, basilisp

WORKLOADS: list[Workload] = [
    Workload("pipeline", "orders: filter/group-by/sum/sort-by/take 10", "orders", """
(->> data/orders
     (filter #(= (:status %) "paid"))
     (group-by :customer)
     (map (fn [[customer orders]]
            {:customer customer :total (reduce + (map :amount orders))}))
     (sort-by :total >)
     (take 10))""", py_pipeline, """
(import collections [defaultdict])
(defn job [data]
  (setv totals (defaultdict float))
  (for [o (get data "orders")]
    (when (= (get o "status") "paid")
      (+= (get totals (get o "customer")) (get o "amount"))))
  (cut (sorted (lfor [c t] (.items totals) {"customer" c "total" t})
               :key (fn [r] (get r "total")) :reverse True) 10))""", """
  (->> (:orders data)
       (filter #(= (:status %) "paid"))
       (group-by :customer)
       (map (fn [[customer orders]]
              {:customer customer :total (reduce + (map :amount orders))}))
       (sort-by :total >)
       (take 10)
       doall)"""),
    Workload("word_freq", "word frequencies (split + frequencies)", "words", """
(->> data/docs
     (mapcat #(str/split (:text %) #" "))
     frequencies
     (sort-by val >)
     (take 10))""", py_word_freq, """
(import collections [Counter])
(defn job [data]
  (setv counts (Counter (gfor d (get data "docs") w (.split (get d "text") " ") w)))
  (cut (sorted (.items counts) :key (fn [kv] (get kv 1)) :reverse True) 10))""", """
  (->> (:docs data)
       (mapcat #(str/split (:text %) #" "))
       frequencies
       (sort-by val >)
       (take 10)
       doall)"""),
    Workload("assoc_build", "map built by reduce + assoc", "entries", """
(let [prices (reduce (fn [m p] (assoc m (:sku p) (:price p))) {} data/products)]
  {:count (count prices) :first (get prices "sku-000000")})""", py_assoc_build, """
(defn job [data]
  (setv prices (dfor p (get data "products") (get p "sku") (get p "price")))
  {"count" (len prices) "first" (.get prices "sku-000000")})""", """
  (let [prices (reduce (fn [m p] (assoc m (:sku p) (:price p))) {} (:products data))]
    {:count (count prices) :first (get prices "sku-000000")})"""),
    Workload("tree_update", "update-in x2 + get-in over a tree", "tree_ops", """
(let [tree (reduce (fn [t e]
                     (-> t
                         (update-in [:regions (:region e) :stores (:store e) :sales] + (:amount e))
                         (update-in [:regions (:region e) :stores (:store e) :orders] inc)))
                   data/tree
                   data/events)]
  {:total (reduce + (map #(get-in tree [:regions (:region %) :stores (:store %) :sales])
                         data/events))
   :r0s0 (get-in tree [:regions "r0" :stores "s0"])})""", py_tree_update, """
(defn job [data]
  (setv tree {"regions" (dfor [r reg] (.items (get data "tree" "regions"))
                           r {#** reg "stores" (dfor [s st] (.items (get reg "stores")) s (dict st))})})
  (for [e (get data "events")]
    (setv store (get tree "regions" (get e "region") "stores" (get e "store")))
    (+= (get store "sales") (get e "amount"))
    (+= (get store "orders") 1))
  {"total" (sum (gfor e (get data "events")
                      (get tree "regions" (get e "region") "stores" (get e "store") "sales")))
   "r0s0" (get tree "regions" "r0" "stores" "s0")})""", """
  (let [tree (reduce (fn [t e]
                       (-> t
                           (update-in [:regions (:region e) :stores (:store e) :sales]
                                      + (:amount e))
                           (update-in [:regions (:region e) :stores (:store e) :orders] inc)))
                     (:tree data)
                     (:events data))]
    {:total (reduce + (map #(get-in tree [:regions (:region %) :stores (:store %) :sales])
                           (:events data)))
     :r0s0 (get-in tree [:regions "r0" :stores "s0"])})"""),
    Workload("str_join", "str/join of formatted items", "join", """
(let [text (str/join "\\n" (map #(str (:sku %) "," (:price %) "," (:qty %)) data/products))]
  {:chars (count text) :head (subs text 0 60)})""",
             py_str_join, """
(defn job [data]
  (setv text (.join "\\n" (gfor p (get data "products") f"{(get p "sku")},{(get p "price")},{(get p "qty")}")))
  {"chars" (len text) "head" (cut text 60)})""",
             """
  (let [text (str/join "\\n" (map #(str (:sku %) "," (:price %) "," (:qty %)) (:products data)))]
    {:chars (count text) :head (subs text 0 60)})"""),
    Workload("sort_by", "sort-by :price > on maps, take 10", "sort", """
(take 10 (sort-by :price > data/products))""", py_sort_by, """
(defn job [data]
  (cut (sorted (get data "products") :key (fn [p] (get p "price")) :reverse True) 10))""", """
  (doall (take 10 (sort-by :price > (:products data))))"""),
    Workload("fib", "recursive fib", "fib", """
(defn fib [n] (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))
(fib data/n)""", py_fib, """
(defn fib [n] (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))
(defn job [data] (fib (get data "n")))""", """
  (letfn [(fib [n] (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))] (fib (:n data)))"""),
    Workload("loop_numeric", "loop/recur numeric accumulation", "loop", """
(loop [i 0 acc 0]
  (if (< i data/n)
    (recur (inc i) (if (zero? (mod i 3)) (+ acc (* i i)) (- acc i)))
    acc))""", py_loop_numeric, """
(defn job [data]
  (setv acc 0)
  (for [i (range (get data "n"))]
    (if (= (% i 3) 0) (+= acc (* i i)) (-= acc i)))
  acc)"""),
    Workload("loop_nested_update", "loop/recur threading a map via update-in/assoc-in",
             "nested", """
(loop [es data/events
       st {:stats {} :last {}}]
  (if (empty? es)
    {:users (count (:stats st))
     :u7 (get-in st [:stats "u7"])
     :last-u7 (get-in st [:last "u7"])}
    (let [e (first es)
          u (:user e)]
      (recur (rest es)
             (-> st
                 (update-in [:stats u :count] (fnil inc 0))
                 (update-in [:stats u :total] (fnil + 0) (:amount e))
                 (assoc-in [:last u] (:ts e)))))))""", py_loop_nested_update, """
(defn job [data]
  (setv stats {} last {})
  (for [e (get data "events")]
    (setv s (.setdefault stats (get e "user") {"count" 0 "total" 0}))
    (+= (get s "count") 1)
    (+= (get s "total") (get e "amount"))
    (setv (get last (get e "user")) (get e "ts")))
  {"users" (len stats) "u7" (.get stats "u7") "last-u7" (.get last "u7")})"""),
    Workload("kv_lines", "k=v;k=v text lines parsed into maps, aggregated", "lines", """
(->> (str/split-lines data/log)
     (map (fn [line]
            (into {} (map (fn [kv]
                            (let [[k v] (str/split kv #"=")]
                              [(keyword k) v]))
                          (str/split line #";")))))
     (group-by :action)
     (map (fn [[action rs]]
            [action {:n (count rs) :ms (reduce + (map #(parse-long (:ms %)) rs))}]))
     (sort-by first)
     (into {}))""", py_kv_lines, """
(defn job [data]
  (setv by-action {})
  (for [line (.splitlines (get data "log"))]
    (setv rec (dict (gfor kv (.split line ";") (.split kv "=" 1))))
    (setv agg (.setdefault by-action (get rec "action") {"n" 0 "ms" 0}))
    (+= (get agg "n") 1)
    (+= (get agg "ms") (int (get rec "ms"))))
  (dict (sorted (.items by-action))))"""),
    Workload("string_keys", "reduce into a map with string keys, then lookups", "records", """
(let [totals (reduce (fn [acc o]
                       (let [k (str (:region o) "/" (:status o))]
                         (assoc acc k (+ (get acc k 0) (:amount o)))))
                     {}
                     data/orders)]
  {:n (count totals)
   :picked (mapv #(/ (Math/round (* 100.0 (get totals % 0))) 100.0)
                 ["eu/paid" "us/paid" "apac/refunded" "eu/none"])})""", py_string_keys, """
(defn job [data]
  (setv totals {})
  (for [o (get data "orders")]
    (setv k f"{(get o "region")}/{(get o "status")}")
    (setv (get totals k) (+ (.get totals k 0) (get o "amount"))))
  {"n" (len totals)
   "picked" (lfor k ["eu/paid" "us/paid" "apac/refunded" "eu/none"] (round (.get totals k 0) 2))})"""),
    Workload("nested_for", "nested for with :when", "grid", """
(let [pairs (for [x (range data/n)
                  y (range x data/n)
                  :when (zero? (mod (+ (* x x) y) 7))]
              [x y])]
  {:count (count pairs)
   :last (last pairs)
   :sum (reduce + (map (fn [[x y]] (+ x y)) pairs))})""", py_nested_for, """
(defn job [data]
  (setv n (get data "n"))
  (setv pairs (lfor x (range n) y (range x n) :if (= 0 (% (+ (* x x) y) 7)) #(x y)))
  {"count" (len pairs) "last" (list (get pairs -1)) "sum" (sum (gfor [x y] pairs (+ x y)))})"""),
    Workload("string_build", "string building: a markdown table", "records", """
(let [rows (for [p data/products :when (> (:qty p) 10)]
             (str "| " (:sku p) " | " (str/upper-case (:name p)) " | " (:qty p) " |"))
      text (str "| sku | name | qty |\\n" (str/join "\\n" rows))]
  {:chars (count text) :head (subs text 0 80)})""", py_string_build, """
(defn job [data]
  (setv rows (lfor p (get data "products") :if (> (get p "qty") 10)
                   f"| {(get p "sku")} | {(.upper (get p "name"))} | {(get p "qty")} |"))
  (setv text (+ "| sku | name | qty |\\n" (.join "\\n" rows)))
  {"chars" (len text) "head" (cut text 80)})"""),
    Workload("multi_sort", "sort by several keys", "records", """
(let [rows (sort-by (juxt :region :status #(- (:amount %))) data/orders)]
  (conj (vec (map :id (take 20 rows))) (:id (last rows))))""", py_multi_sort, """
(defn job [data]
  (setv rows (sorted (get data "orders")
                     :key (fn [o] #((get o "region") (get o "status") (- (get o "amount"))))))
  (+ (lfor o (cut rows 20) (get o "id")) [(get (get rows -1) "id")]))"""),
    Workload("deep_recursion", "recursion over a tree and a 900-deep chain", "tree", """
(defn weight [t] (+ (:weight t) (reduce + 0 (map weight (:children t)))))
(defn depth [t] (inc (reduce max 0 (map depth (:children t)))))
(defn chain-sum [c] (if (nil? c) 0 (+ (:value c) (chain-sum (:next c)))))
{:weight (weight data/tree) :depth (depth data/tree) :chain (chain-sum data/chain)}""",
             py_deep_recursion, """
(defn weight [t] (+ (get t "weight") (sum (gfor c (get t "children") (weight c)))))
(defn depth [t] (+ 1 (max (gfor c (get t "children") (depth c)) :default 0)))
(defn chain-sum [c] (if (is c None) 0 (+ (get c "value") (chain-sum (get c "next")))))
(defn job [data]
  {"weight" (weight (get data "tree")) "depth" (depth (get data "tree"))
   "chain" (chain-sum (get data "chain"))})"""),
    Workload("set_ops", "set operations on customer sets", "records", """
(let [custs (fn [pred] (set (map :customer (filter pred data/orders))))
      paid (custs #(= (:status %) "paid"))
      refunded (custs #(= (:status %) "refunded"))
      eu (custs #(= (:region %) "eu"))]
  {:both (count (intersection paid refunded))
   :any (count (union paid refunded eu))
   :only-refunded (vec (take 5 (sort (difference refunded paid))))
   :eu-paid (count (filter #(contains? paid %) eu))})""", py_set_ops, """
(defn job [data]
  (setv os (get data "orders"))
  (setv paid (sfor o os :if (= (get o "status") "paid") (get o "customer")))
  (setv refunded (sfor o os :if (= (get o "status") "refunded") (get o "customer")))
  (setv eu (sfor o os :if (= (get o "region") "eu") (get o "customer")))
  {"both" (len (& paid refunded)) "any" (len (| paid refunded eu))
   "only-refunded" (cut (sorted (- refunded paid)) 5)
   "eu-paid" (sum (gfor c eu :if (in c paid) 1))})"""),
    Workload("agent_turns", "30 small agent turns, each compiled and run once", "turns",
             "", py_agent_turns, ""),
    Workload("group_aggregate", "group-by two fields, count/sum/max/avg per group", "orders", """
(->> data/orders
     (group-by (juxt :region :status))
     (map (fn [[[region status] os]]
            (let [amounts (map :amount os)
                  total (reduce + amounts)]
              {:region region :status status :n (count os)
               :total (/ (Math/round (* 100.0 total)) 100.0)
               :max (apply max amounts)
               :avg (/ (Math/round (* 100.0 (/ total (count os)))) 100.0)})))
     (sort-by (juxt :region :status)))""", py_group_aggregate, """
(import collections [defaultdict])
(defn job [data]
  (setv groups (defaultdict list))
  (for [o (get data "orders")]
    (.append (get groups #((get o "region") (get o "status"))) (get o "amount")))
  (sorted (lfor [[r s] a] (.items groups)
                {"region" r "status" s "n" (len a) "total" (round (sum a) 2)
                 "max" (max a) "avg" (round (/ (sum a) (len a)) 2)})
          :key (fn [row] #((get row "region") (get row "status")))))"""),
    Workload("multi_filter", "filter records by several predicates", "orders", """
(let [hits (filter (fn [o]
                     (and (= (:status o) "paid")
                          (> (:amount o) 100)
                          (contains? #{"eu" "us"} (:region o))
                          (str/starts-with? (:customer o) "c1")
                          (even? (:id o))))
                   data/orders)]
  {:count (count hits)
   :ids (map :id (take 5 hits))
   :total (/ (Math/round (* 100.0 (reduce + (map :amount hits)))) 100.0)})""",
             py_multi_filter, """
(defn job [data]
  (setv hits (lfor o (get data "orders")
                   :if (and (= (get o "status") "paid") (> (get o "amount") 100)
                            (in (get o "region") #("eu" "us"))
                            (.startswith (get o "customer") "c1") (= 0 (% (get o "id") 2)))
                   o))
  {"count" (len hits) "ids" (lfor o (cut hits 5) (get o "id"))
   "total" (round (sum (gfor o hits (get o "amount"))) 2)})"""),
    Workload("top_n", "frequencies then top 5 by count and name", "orders", """
(->> data/orders
     (remove #(= (:status %) "pending"))
     (map :customer)
     frequencies
     (sort-by (fn [[c n]] [(- n) c]))
     (take 5))""", py_top_n, """
(import collections [Counter])
(defn job [data]
  (setv counts (Counter (gfor o (get data "orders") :if (!= (get o "status") "pending")
                              (get o "customer"))))
  (lfor [c n] (cut (sorted (.items counts) :key (fn [kv] #((- (get kv 1)) (get kv 0)))) 5)
        [c n]))"""),
    Workload("join_index", "index a tool result by id, join another to it", "records", """
(let [by-id (into {} (map (juxt :id identity) data/users))
      gold (->> data/orders
                (filter #(= "gold" (:tier (get by-id (:customer %)))))
                (map (fn [o] {:id (:id o)
                              :name (:name (get by-id (:customer o)))
                              :amount (:amount o)})))]
  {:n (count gold) :first (take 3 gold)})""", py_join_index, """
(defn job [data]
  (setv by-id (dfor u (get data "users") (get u "id") u))
  (setv gold (lfor o (get data "orders")
                   :if (= (get (get by-id (get o "customer")) "tier") "gold")
                   {"id" (get o "id") "name" (get (get by-id (get o "customer")) "name")
                    "amount" (get o "amount")}))
  {"n" (len gold) "first" (cut gold 3)})"""),
    Workload("loop_walk", "loop/recur walking a vector with first/rest", "walk", """
(loop [xs data/xs total 0.0 best 0.0]
  (if (empty? xs)
    [(/ (Math/round (* 100.0 total)) 100.0) best]
    (let [x (first xs)]
      (recur (rest xs) (+ total x) (if (> x best) x best)))))""", py_loop_walk, """
(defn job [data]
  (setv best 0.0 total 0.0)
  (for [x (get data "xs")]
    (+= total x)
    (when (> x best) (setv best x)))
  [(round total 2) best])"""),
]

BY_NAME = {w.name: w for w in WORKLOADS}
