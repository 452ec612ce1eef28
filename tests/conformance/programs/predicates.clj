;;; Type, shape and numeric predicates (target §9.5, §9.6, §9.11).
;; @pr-nil-some
[(nil? nil) (nil? false) (some? nil) (some? false) (some? 0)]
;; @pr-true-false
[(true? true) (true? 1) (false? false) (false? nil)]
;; @pr-boolean-q
[(boolean? true) (boolean? false) (boolean? nil) (boolean? 0)]
;; @pr-number-q
[(number? 1) (number? 1.5) (number? ##Inf) (number? "1") (number? nil)]
;; @pr-int-q
[(int? 1) (int? 1.0) (int? "1") (integer? 5) (integer? 5.5)]
;; @pr-float-q
[(float? 1.5) (float? 1) (double? 2.0) (double? 2)]
;; @pr-string-q
[(string? "a") (string? :a) (string? nil) (string? 1)]
;; @pr-keyword-q
[(keyword? :a) (keyword? "a") (keyword? nil)]
;; @pr-vector-q
[(vector? [1]) (vector? []) (vector? {}) (vector? "ab") (vector? nil)]
;; @pr-map-q
[(map? {}) (map? {:a 1}) (map? []) (map? nil)]
;; @pr-set-q
[(set? #{}) (set? #{1}) (set? [1]) (set? {})]
;; @pr-fn-q
[(fn? inc) (fn? #(+ % 1)) (fn? :a) (fn? {}) (fn? nil)]
;; @pr-ifn-q
[(ifn? inc) (ifn? :a) (ifn? {}) (ifn? #{}) (ifn? 1) (ifn? "s")]
;; @pr-coll-q
[(coll? []) (coll? {}) (coll? #{}) (coll? "ab") (coll? nil) (coll? 1)]
;; @pr-sequential-q
[(sequential? []) (sequential? {}) (sequential? #{}) (sequential? "a")]
;; @pr-associative-q
[(associative? {}) (associative? []) (associative? #{}) (associative? nil)]
;; @pr-seqable-q
[(seqable? []) (seqable? "a") (seqable? nil) (seqable? {}) (seqable? 1)]
;; @pr-zero-pos-neg
[(zero? 0) (zero? 0.0) (zero? 1) (pos? 1) (pos? -1) (pos? 0) (neg? -1) (neg? 0)]
;; @pr-pos-inf
[(pos? ##Inf) (neg? ##-Inf) (pos? ##NaN)]
;; @pr-even-odd
[(even? 2) (even? 3) (odd? 3) (odd? 0) (even? 0) (even? -4) (odd? -3)]
;; @pr-even-float-error
(even? 1.5)
;; @pr-even-nil-error
(even? nil)
;; @pr-pos-int
[(pos-int? 1) (pos-int? 0) (pos-int? 1.0) (neg-int? -1) (nat-int? 0) (nat-int? -1)]
;; @pr-infinite-nan
[(infinite? ##Inf) (infinite? ##-Inf) (infinite? 1.0) (NaN? ##NaN) (NaN? 1.0)]
;; @pr-empty-q
[(empty? []) (empty? nil) (empty? "") (empty? {}) (empty? #{}) (empty? [1]) (empty? "a")]
;; @pr-not-empty
[(not-empty []) (not-empty [1 2]) (not-empty "") (not-empty "ab") (not-empty {}) (not-empty nil)]
;; @pr-every-q
[(every? even? [2 4 6]) (every? even? [2 3]) (every? even? []) (every? even? nil)]
;; @pr-not-any-q
[(not-any? odd? [2 4]) (not-any? odd? [1 2])]
;; @pr-not-every-q
[(not-every? odd? [1 3]) (not-every? odd? [1 2])]
;; @pr-some-pred
[(some even? [1 3 4 5]) (some even? [1 3]) (some #{3 4} [1 2 3]) (some :a [{:b 1} {:a 2}])]
;; @pr-some-returns-value
(some #(when (> % 2) (* % 10)) [1 2 3 4])
;; @pr-contains-map
[(contains? {:a 1} :a) (contains? {:a 1} :b) (contains? {:a nil} :a)]
;; @pr-contains-set
[(contains? #{1 2} 1) (contains? #{1 2} 3) (contains? #{nil} nil)]
;; @pr-contains-vector-index
[(contains? [10 20 30] 1) (contains? [10 20 30] 5)]
;; @pr-contains-nil
(contains? nil :a)
;; @pr-char-q
(char? \a)
;; @pr-rational
[(rational? 1) (ratio? 1) (decimal? 1.5)]
;; @pr-map-entry-q
(map-entry? (first {:a 1}))
;; @pr-seq-q-vector
(seq? [1 2])
;; @pr-counted-q
[(counted? [1]) (counted? {}) (counted? #{})]
;; @pr-indexed-q
[(indexed? [1]) (indexed? {}) (indexed? #{})]
;; @pr-reversible-q
(reversible? [1 2])
;; @pr-sorted-q
[(sorted? []) (sorted? {}) (sorted? #{})]
;; @pr-symbol-q
(symbol? 'x)
;; @pr-filter-by-type
(filter string? [1 "a" :b "c" nil 2.5])
;; @pr-group-by-type
(group-by number? [1 "a" 2 "b"])
;; @pr-predicates-on-nil
[(nil? (get {} :a)) (some? (get {:a false} :a))]
;; @pr-true-q-of-truthy
(map true? [true 1 "true" :true])
;; @pr-blank-predicate
(remove clojure.string/blank? ["a" "" "  " "b" nil])
;; @pr-zero-nil-error
(zero? nil)
;; @pr-pos-string-error
(pos? "1")
;; @pr-every-keyword
(every? :active [{:active true} {:active 1}])
;; @pr-every-set
(every? #{1 2 3} [1 2])
;; @pr-distinct-q-strings
(distinct? "a" "b" "a")
;; @pr-nat-int-big
(nat-int? 123456789012345678901234567890)
;; @pr-int-big
(int? 123456789012345678901234567890)
;; @pr-odd-big
(odd? 12345678901234567891)
;; @pr-contains-string-float-index
[(contains? "abc" 1.0) (contains? "abc" 3.0) (contains? "abc" 1)]
