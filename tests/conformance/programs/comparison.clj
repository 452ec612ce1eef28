;;; Equality and comparison (target §4.3, §4.4, §9.3, §9.4).
;; @cmp-eq-ints
[(= 1 1) (= 1 2) (= 1 1 1) (= 1 1 2)]
;; @cmp-eq-int-float
[(= 1 1.0) (== 1 1.0) (= [1 2] [1.0 2.0])]
;; @cmp-eq-strings
[(= "a" "a") (= "a" "b") (= "a" :a)]
;; @cmp-eq-keywords
[(= :a :a) (= :a :b)]
;; @cmp-eq-nil
[(= nil nil) (= nil false) (= nil 0)]
;; @cmp-eq-bool-number
[(= true 1) (= false 0)]
;; @cmp-eq-vectors
[(= [1 2 3] [1 2 3]) (= [1 2] [1 2 3]) (= [] [])]
;; @cmp-eq-vector-seq
(= [2 3 4] (map inc [1 2 3]))
;; @cmp-eq-list-vector
(= (list 1 2) [1 2])
;; @cmp-eq-maps
[(= {:a 1 :b 2} {:b 2 :a 1}) (= {:a 1} {:a 2}) (= {} {})]
;; @cmp-eq-nested
(= {:a [1 {:b #{1 2}}]} {:a [1 {:b #{2 1}}]})
;; @cmp-eq-sets
[(= #{1 2 3} #{3 2 1}) (= #{1} #{1 2})]
;; @cmp-eq-map-vs-vector
(= {0 :a} [:a])
;; @cmp-eq-char-string
(= \a (first "abc"))
;; @cmp-eq-one-arg
(= 5)
;; @cmp-not-eq
[(not= 1 2) (not= 1 1) (not= 1 1 2)]
;; @cmp-nan
[(= ##NaN ##NaN) (< ##NaN 1) (> ##NaN 1)]
;; @cmp-lt-chain
[(< 1 2 3) (< 1 3 2) (<= 1 1 2) (> 3 2 1) (>= 3 3 1)]
;; @cmp-lt-one-arg
[(< 1) (> 1) (<= 1) (>= 1)]
;; @cmp-lt-mixed
[(< 1 1.5 2) (> 2.5 2)]
;; @cmp-lt-nil-error
(< nil 1)
;; @cmp-lt-string-error
(< "a" "b")
;; @cmp-compare-numbers
[(compare 1 2) (compare 2 1) (compare 1 1) (compare 1 1.5)]
;; @cmp-compare-strings
[(compare "a" "b") (compare "b" "a") (compare "abc" "abc")]
;; @cmp-compare-strings-sign
[(neg? (compare "apple" "banana")) (pos? (compare "b" "a"))]
;; @cmp-compare-strings-distance
(compare "a" "c")
;; @cmp-compare-nil
[(compare nil 1) (compare 1 nil) (compare nil nil)]
;; @cmp-compare-keywords
[(compare :a :b) (compare :b :a)]
;; @cmp-compare-bools
[(compare false true) (compare true false)]
;; @cmp-compare-vectors
[(compare [1 2] [1 3]) (compare [1 2 3] [1 3]) (compare [2] [1 1])]
;; @cmp-compare-mixed-error
(compare 1 "a")
;; @cmp-not
[(not nil) (not false) (not 0) (not "") (not [])]
;; @cmp-boolean
[(boolean nil) (boolean false) (boolean 0) (boolean "x")]
;; @cmp-identity
[(identity 5) (identity nil) (identity [1])]
;; @cmp-eq-strings-case
(= "Abc" "abc")
;; @cmp-eq-different-types-coll
[(= [1] #{1}) (= {} []) (= [] nil)]
;; @cmp-eq-empty-seq
(= [] (filter odd? [2 4]))
;; @cmp-max-key
(max-key count "a" "abc" "ab")
;; @cmp-min-key
(min-key count "abc" "a" "ab")
;; @cmp-max-key-tie
(max-key count "ab" "cd" "e")
;; @cmp-min-key-tie
(min-key count "ab" "cd" "e")
;; @cmp-compare-used-in-sort
(sort compare [3 1 2])
;; @cmp-compare-reverse-sort
(sort #(compare %2 %1) ["b" "c" "a"])
;; @cmp-eq-keyword-string-map-keys
(= {:a 1} {"a" 1})
;; @cmp-eq-nested-float-map
(= {:x 1.0} {:x 1})
;; @cmp-zero-neg-zero
(= 0.0 -0.0)
;; @cmp-eq-large-ints
(= 12345678901234567890 12345678901234567890)
;; @cmp-distinct-q
[(distinct? 1 2 3) (distinct? 1 2 1) (distinct? :a)]
;; @cmp-chain-evaluates-every-operand
(let [x 2] [(< x 1 3) (< x 1 (quot x 0))])
;; @cmp-chain-stops-at-a-false-pair
[(< 5 3 nil) (> 1 2 "a") (>= 1 2 :k) (let [v [3 1]] (< (first v) (second v) nil))]
