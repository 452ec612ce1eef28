;;; Maps (target §9.12) and map-shaped helpers.
;; @mp-assoc
[(assoc {} :a 1) (assoc {:a 1} :a 2) (assoc {:a 1} :b 2 :c 3)]
;; @mp-assoc-string-keys
(assoc {"a" 1} "b" 2)
;; @mp-assoc-in
[(assoc-in {} [:a :b] 1) (assoc-in {:a {:b 1}} [:a :c] 2) (assoc-in {:a [1 2]} [:a 0] 9)]
;; @mp-assoc-in-strings
(assoc-in {"user" {"name" "a"}} ["user" "name"] "b")
;; @mp-update
[(update {:a 1} :a inc) (update {:a 1} :b (fnil inc 0)) (update {:a [1]} :a conj 2)]
;; @mp-update-missing-nil
(update {} :a identity)
;; @mp-update-extra-args
(update {:n 1} :n + 10 100)
;; @mp-update-in
[(update-in {:a {:b 1}} [:a :b] inc) (update-in {} [:x :y] (fnil inc 0))]
;; @mp-update-in-extra-args
(update-in {"s" {"n" 5}} ["s" "n"] * 3)
;; @mp-update-in-vector
(update-in {:items [{:q 1} {:q 2}]} [:items 1 :q] + 10)
;; @mp-dissoc
[(dissoc {:a 1 :b 2} :a) (dissoc {:a 1} :z) (dissoc {:a 1 :b 2 :c 3} :a :c) (dissoc {:a 1})]
;; @mp-dissoc-nil
(dissoc nil :a)
;; @mp-merge
[(merge {:a 1} {:b 2}) (merge {:a 1} {:a 2}) (merge {:a 1} nil) (merge {:a 1} nil {:c 3})]
;; @mp-merge-empty
[(merge) (merge nil)]
;; @mp-merge-with
[(merge-with + {:a 1 :b 2} {:a 10 :c 3}) (merge-with into {:a [1]} {:a [2]} {:a [3]})]
;; @mp-merge-with-strings
(merge-with str {"x" "a"} {"x" "b" "y" "c"})
;; @mp-select-keys
[(select-keys {:a 1 :b 2 :c 3} [:a :c]) (select-keys {:a 1} [:z]) (select-keys {:a 1} [])]
;; @mp-select-keys-nil-value
(select-keys {:a nil} [:a])
;; @mp-keys-vals
[(keys {:a 1 :b 2}) (vals {:a 1 :b 2})]
;; @mp-keys-insertion-order
(keys {:z 1 :y 2 :x 3})
;; @mp-key-val
(let [e (first {:k :v})] [(key e) (val e)])
;; @mp-key-val-map
(map key {:a 1 :b 2})
;; @mp-update-keys
(update-keys {:a 1 :b 2} name)
;; @mp-update-vals
(update-vals {:a 1 :b 2} inc)
;; @mp-update-vals-nil
(update-vals nil inc)
;; @mp-zipmap-then-get
(get (zipmap ["a" "b"] [1 2]) "b")
;; @mp-into-from-for
(into {} (for [k [:a :b]] [k (name k)]))
;; @mp-map-to-map
(into {} (map (fn [[k v]] [k (* v 10)]) {:a 1 :b 2}))
;; @mp-filter-map-into
(into {} (filter (fn [[k v]] (even? v)) {:a 1 :b 2 :c 4}))
;; @mp-reduce-build
(reduce (fn [m x] (assoc m x (* x x))) {} [1 2 3])
;; @mp-count-by-reduce
(reduce (fn [m w] (update m w (fnil inc 0))) {} ["a" "b" "a"])
;; @mp-nested-update
(-> {} (assoc-in ["a" "b"] 1) (update-in ["a" "b"] inc) (assoc-in ["a" "c"] 5))
;; @mp-map-invert-manual
(reduce-kv (fn [m k v] (assoc m v k)) {} {"x" 1 "y" 2})
;; @mp-contains-after-dissoc
(contains? (dissoc {:a 1 :b 2} :a) :a)
;; @mp-find-entry
(find {"id" 1 "n" 2} "n")
;; @mp-get-default-absent
(get {:a 1} :b :none)
;; @mp-map-values-sum
(reduce + (vals {:a 1 :b 2 :c 3}))
;; @mp-nested-get-in-vector-path
(get-in {"orders" [{"id" 1} {"id" 2}]} ["orders" 1 "id"])
;; @mp-assoc-multiple-types
(assoc {} 1 :int "1" :str :one :kw)
;; @mp-merge-nested-not-deep
(merge {:a {:x 1}} {:a {:y 2}})
;; @mp-deep-merge
(merge-with merge {:a {:x 1}} {:a {:y 2}})
;; @mp-map-entries-sorted
(sort-by key {:c 3 :a 1 :b 2})
;; @mp-sort-by-val
(sort-by val > {:a 1 :b 3 :c 2})
;; @mp-vals-order
(vals {"b" 2 "a" 1 "c" 3})
;; @mp-group-then-count
(update-vals (group-by odd? [1 2 3 4 5]) count)
;; @mp-update-keys-keyword
(update-keys {"a" 1 "b" 2} keyword)
;; @mp-assoc-nil-value
(assoc {:a 1} :a nil)
;; @mp-count-after-assoc
(count (assoc {:a 1} :b 2 :a 3))
;; @mp-keyword-fn-default
(:missing {:a 1} 42)
;; @mp-map-fn-default
({"a" 1} "b" :nope)
;; @mp-nested-maps-eq
(= (assoc-in {} [:a :b :c] 1) {:a {:b {:c 1}}})
;; @mp-merge-with-max
(merge-with max {:a 1 :b 5} {:a 3 :b 2})
;; @mp-update-with-assoc
(update {:user {:n 1}} :user assoc :m 2)
;; @mp-frequencies-then-filter
(into {} (filter (fn [[_ c]] (> c 1)) (frequencies [1 2 2 3 3 3])))
;; @mp-select-keys-strings
(select-keys {"a" 1 "b" 2 "c" 3} ["a" "c"])
;; @mp-large-map
(count (zipmap (range 100) (range 100)))
;; @mp-large-map-get
(get (zipmap (range 100) (map #(* % %) (range 100))) 42)
;; @mp-keys-sorted-large
(take 5 (sort (keys (zipmap (range 50) (range 50)))))
;; @mp-update-flexible-key
(update {"n" 1} :n inc)
;; @mp-get-flexible-key
(get {"user_id" 5} :user-id)
;; @mp-keyword-on-string-map
(:status {"status" "paid"})
;; @mp-assoc-in-nil
(assoc-in nil [:a] 1)
;; @mp-update-in-nil
(update-in nil [:a] (fnil inc 0))
;; @mp-merge-with-nil-first
(merge-with + nil {:a 1})
;; @mp-dissoc-string-key
(dissoc {"a" 1 "b" 2} "a")
;; @mp-empty-map-ops
[(keys {}) (vals {}) (count {}) (seq {})]
;; @mp-conj-nil-entry
[(conj {:a 1} nil) (conj {} nil [:b 2] nil) (into {:a 1} [nil nil])]
;; @mp-into-when-entries
(into {} (map #(when (pos? %) [% (* % 10)]) [1 -1 2 0]))
;; @mp-keys-vals-of-entries
[(keys (sort-by val > {:a 1 :b 3 :c 2})) (vals (sort-by key {:b 2 :a 1})) (take 2 (keys (sort-by val > (frequencies "mississippi")))) (keys (filter #(odd? (val %)) {:a 1 :b 2 :c 3})) (keys (sort-by key {}))]
;; @mp-keys-of-plain-vectors
[(keys [[:a 1] [:b 2]]) (vals [[:a 1]]) (key [:a 1])]
;;; Duplicate literal keys are compared as Clojure's reader compares them.
;; @mp-dup-key-map-any-order-error
{{:a 1 :b 2} :x {:b 2 :a 1} :y}
;; @mp-dup-key-list-vs-vector-error
{(list 1 2) 1 [list 1 2] 2}
;; @mp-dup-key-nested-set-error
{[#{1 2}] 1 [#{2 1}] 2}
;; @mp-distinct-map-keys
(count {{:a 1} 1 {:a 2} 2})
;;; One argument comes back as it is.
;; @mp-merge-one-arg
[(merge "ab") (merge [1 2]) (merge 5) (merge nil) (merge {:a 1})]
;; @mp-merge-with-one-arg
[(merge-with + "ab") (merge-with + [1 2])]
;; @mp-dissoc-one-arg
[(dissoc [1 2]) (dissoc "ab") (dissoc 5) (dissoc {:a 1})]
;; @mp-assoc-one-arg-error
(assoc {})
;; @mp-apply-assoc-one-arg-error
(apply assoc {} [])
;; @mp-into-zero-one-arg
[(into) (into [1]) (into "ab") (into nil) (into {:a 1})]
