;;; Sets (target §9.18) and set-valued helpers.
;; @st-literal
#{1 2 3}
;; @st-union
[(clojure.set/union #{1 2} #{2 3}) (clojure.set/union) (clojure.set/union #{1})]
;; @st-intersection
[(clojure.set/intersection #{1 2 3} #{2 3 4}) (clojure.set/intersection #{1} #{2})]
;; @st-intersection-three
(clojure.set/intersection #{1 2 3} #{2 3} #{3})
;; @st-difference
[(clojure.set/difference #{1 2 3} #{2}) (clojure.set/difference #{1 2 3} #{1} #{3})]
;; @st-alias
(set/union #{:a} #{:b})
;; @st-disj
[(disj #{1 2 3} 2) (disj #{1 2 3} 1 3) (disj #{1} 5)]
;; @st-disj-nil
(disj nil 1)
;; @st-conj
(conj #{1 2} 3)
;; @st-contains
[(contains? #{"a" "b"} "a") (contains? #{"a"} :a)]
;; @st-count
(count (hash-set 1 2 3 3))
;; @st-from-vector-dupes
(set [1 2 1 3 2])
;; @st-as-predicate-filter
(filter #{:x :y} [:x :z :y :w])
;; @st-as-fn-returns-member
(#{"paid" "open"} "paid")
;; @st-into
(into #{} (map #(mod % 3) (range 10)))
;; @st-equality
(= #{1 2} (set [2 1]))
;; @st-sorted-elements
(sort #{5 3 9 1})
;; @st-nested-sets
#{#{1} #{2}}
;; @st-set-of-vectors
(contains? #{[1 2] [3 4]} [1 2])
;; @st-set-of-maps
(count (set [{:a 1} {:a 1} {:a 2}]))
;; @st-map-over-set-sorted
(sort (map inc #{1 2 3}))
;; @st-reduce-set
(reduce + #{1 2 3 4})
;; @st-empty
[(empty? #{}) (seq #{}) (count #{})]
;; @st-some-set
(some #{3} [1 2 3])
;; @st-remove-set
(remove #{1 2} [1 2 3 4])
;; @st-unique-tags
(->> [{"tags" ["a" "b"]} {"tags" ["b" "c"]}] (mapcat #(get % "tags")) set)
;; @st-difference-lists
(sort (clojure.set/difference (set ["a" "b" "c"]) (set ["b"])))
;; @st-union-many
(apply clojure.set/union [#{1} #{2} #{3}])
;; @st-set-1-1.0
(count #{1 1.0})
;; @st-set-bools
(count (set [true false nil 1 0]))
;; @st-union-count
(count (clojure.set/union #{1} #{2 3} #{3 4}))
;; @st-hash-set-fn
(apply hash-set [1 2 2])
;; @st-disj-all
(disj #{1 2} 1 2)
;; @st-select
(clojure.set/select even? #{1 2 3 4})
;; @st-subset
[(clojure.set/subset? #{1 2} #{1 2 3}) (clojure.set/subset? #{1 4} #{1 2 3})]
;; @st-superset
[(clojure.set/superset? #{1 2 3} #{1 2}) (set/superset? #{1} #{1 2})]
;; @st-difference-empty
(clojure.set/difference #{1 2} #{1 2 3})
;; @st-intersection-disjoint
(clojure.set/intersection #{1 2} #{3 4})
;; @st-set-fn-on-string
(set "hello")
;; @st-dup-element-set-any-order-error
#{#{1 2} #{2 1}}
;; @st-dup-element-nested-map-error
#{{:a #{1 2}} {:a #{2 1}}}
;; @st-dup-element-list-vs-vector-error
#{[1 2] (1 2)}
;; @st-distinct-sets
(count #{#{1 2} #{1 3}})
;; @st-disj-one-arg
[(disj [1 2]) (disj "ab") (disj #{1}) (disj nil)]
;; @st-union-of-vector-error
(clojure.set/union [1 2] #{2 3})
