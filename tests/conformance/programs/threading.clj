;;; Threading macros (target §5.16).
;; @th-first-basic
(-> 5 (+ 3) (* 2))
;; @th-first-symbol-steps
(-> 5 inc inc dec)
;; @th-first-order
(-> 10 (- 3) (/ 7))
;; @th-last-basic
(->> [1 2 3 4] (map inc) (filter even?) (reduce +))
;; @th-last-order
(->> 10 (- 3))
;; @th-first-keyword-step
(-> {:a {:b {:c 42}}} :a :b :c)
;; @th-first-get-in
(-> {"user" {"name" "ann"}} (get "user") (get "name"))
;; @th-first-assoc
(-> {} (assoc :a 1) (assoc :b 2) (update :a inc))
;; @th-last-range
(->> (range 10) (filter odd?) (map #(* % %)) (into []))
;; @th-first-shortfn-step
(-> 3 #(* % 10))
;; @th-first-paren-fn-step
(-> 3 ((fn [x] (* x 100))))
;; @th-as-basic
(as-> 5 n (+ n 1) (* 2 n) (- 100 n))
;; @th-as-no-steps
(as-> 7 x)
;; @th-as-mixed-positions
(as-> [1 2 3] xs (map inc xs) (reduce + 0 xs) (str "total=" xs))
;; @th-cond-first
(let [x 5] (cond-> x (odd? x) (* 2) (> x 100) (- 1000) true inc))
;; @th-cond-first-none
(cond-> {:a 1} false (assoc :b 2))
;; @th-cond-first-map-build
(let [opts {:limit 10 :sort nil}] (cond-> {} (:limit opts) (assoc :limit (:limit opts)) (:sort opts) (assoc :sort (:sort opts))))
;; @th-cond-last
(cond->> [1 2 3 4] true (map inc) false (map -) true (filter even?))
;; @th-some-first
(some-> {:a {:b 5}} :a :b inc)
;; @th-some-first-nil
(some-> {:a {:b 5}} :x :b inc)
;; @th-some-first-false-continues
(some-> false not)
;; @th-some-last
(some->> [1 2 3] (map inc) (reduce +))
;; @th-some-last-nil
(some->> nil (map inc))
;; @th-nested-threads
(->> [[1 2] [3 4]] (map #(-> % first (* 10))) (reduce +))
;; @th-first-with-let
(let [x 2] (-> x (* x) (+ x)))
;; @th-last-strings
(->> ["b" "a" "c"] sort (clojure.string/join ","))
;; @th-first-str
(-> "  Hello  " clojure.string/trim clojure.string/upper-case)
;; @th-last-group
(->> [{"t" "a" "v" 1} {"t" "b" "v" 2} {"t" "a" "v" 3}] (group-by #(get % "t")) (map (fn [[k vs]] [k (reduce + (map #(get % "v") vs))])) (into {}))
;; @th-first-single
(-> 1)
;; @th-last-single
(->> :x)
;; @th-first-vector-conj
(-> [] (conj 1) (conj 2) (into [3 4]))
;; @th-last-sort-take
(->> [5 3 9 1 7] (sort >) (take 3))
;; @th-first-update-in
(-> {:stats {:count 0}} (update-in [:stats :count] + 5) (get-in [:stats :count]))
;; @th-last-frequencies
(->> "mississippi" frequencies (sort-by val >) first)
;; @th-first-some-chained
(-> {:xs [1 2 3]} :xs count (> 2))
;; @th-cond-first-multi
(cond-> [] true (conj 1) (= 1 1) (conj 2) nil (conj 3) :always (conj 4))
;; @th-as-in-last
(-> [1 2 3] (->> (map inc)) (as-> xs (reduce * xs)))
;; @th-last-mapcat
(->> [[1] [2 3] [4 5 6]] (mapcat reverse) vec)
;; @th-first-dec-chain
(-> 100 (quot 7) (rem 5) (- 1))
;; @th-last-keep
(->> [1 nil 2 nil 3] (keep identity) (map #(* 2 %)))
;; @th-some-in-pipeline
(map #(some-> % (get "price") (* 2)) [{"price" 2} {} {"price" 5}])
;; @th-as-destructure-free
(as-> {:a 1} m (assoc m :b (inc (:a m))) (vals m) (reduce + m))
