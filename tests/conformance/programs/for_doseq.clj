;;; for and doseq (target §5.14).
;; @for-basic
(for [x [1 2 3]] (* x x))
;; @for-empty
(for [x []] x)
;; @for-nil
(for [x nil] x)
;; @for-nested
(for [x [1 2] y [:a :b]] [x y])
;; @for-nested-dependent
(for [x (range 4) y (range x)] [x y])
;; @for-when
(for [x (range 10) :when (odd? x)] x)
;; @for-let
(for [x [1 2 3] :let [y (* x 10)]] (+ x y))
;; @for-when-let
(for [x [1 2 3 4] :when (even? x) :let [y (* x 10)]] y)
;; @for-let-when
(for [x (range 6) :let [sq (* x x)] :when (> sq 5)] sq)
;; @for-while
(for [x [1 2 3 10 4 5] :while (< x 5)] x)
;; @for-while-inner
(for [x [1 2 3] y [1 2 3] :while (<= y x)] [x y])
;; @for-string
(for [c "abc"] (str c c))
;; @for-map
(for [[k v] {:a 1 :b 2 :c 3}] (str (name k) "=" v))
;; @for-set-sorted
(sort (for [x #{3 1 2}] (* x 10)))
;; @for-three-levels
(count (for [a (range 3) b (range 3) c (range 3) :when (= 3 (+ a b c))] [a b c]))
;; @for-destructure
(for [[a b] [[1 2] [3 4] [5 6]]] (* a b))
;; @for-map-destructure
(for [{:strs [n]} [{"n" 1} {"n" 2}]] (inc n))
;; @for-range
(for [i (range 0 20 5)] i)
;; @for-into-map
(into {} (for [x [1 2 3]] [x (* x x)]))
;; @for-multiple-whens
(for [x (range 20) :when (even? x) :when (zero? (mod x 3))] x)
;; @for-let-multiple
(for [x [1 2] :let [a (inc x) b (* a 2)]] [x a b])
;; @for-pythagorean
(for [a (range 1 20) b (range a 20) c (range b 20) :when (= (* c c) (+ (* a a) (* b b)))] [a b c])
;; @for-over-map-vals
(for [v (vals {"a" 1 "b" 2})] (* v 100))
;; @for-nested-when-outer
(for [x [1 2 3] :when (odd? x) y [10 20]] (+ x y))
;; @for-body-fn-call
(for [s ["a" "bb" "ccc"]] (count s))
;; @for-cartesian-strings
(for [a ["x" "y"] b ["1" "2"]] (str a b))
;; @for-while-then-when
(for [x (range 10) :while (< x 7) :when (odd? x)] x)
;; @for-let-destructure
(for [p [[1 2] [3 4]] :let [[a b] p]] (- b a))
;; @for-result-first
(first (for [x [5 6 7] :when (> x 5)] x))
;; @for-count
(count (for [x (range 100) :when (zero? (rem x 7))] x))
;; @doseq-returns-nil
(doseq [x [1 2 3]] x)
;; @doseq-println
(doseq [x [1 2 3]] (println "item" x))
;; @doseq-nested
(doseq [x [1 2] y [:a :b]] (println x y))
;; @doseq-when
(doseq [x (range 6) :when (even? x)] (println x))
;; @doseq-let
(doseq [x [1 2] :let [y (* x 3)]] (println x y))
;; @doseq-empty
(doseq [x []] (println "never"))
;; @doseq-map
(doseq [[k v] {"a" 1 "b" 2}] (println k v))
;; @doseq-while
(doseq [x [1 2 3 4] :while (< x 3)] (println x))
;; @doseq-def-accumulate
(def total 0) (doseq [x [1 2 3]] (def total (+ total x))) total
;; @doseq-multi-body
(doseq [x [1 2]] (println "a" x) (println "b" x))
;; @for-keyword-access
(for [r [{:n 1} {:n 2}]] (:n r))
;; @for-large
(reduce + (for [x (range 1000)] x))
;; @for-nested-vectors-result
(vec (for [row [[1 2] [3 4]]] (vec (for [x row] (* x 2)))))
;; @for-when-nil-check
(for [x [1 nil 2 false 3] :when x] x)
