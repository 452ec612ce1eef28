;;; Function combinators (target §9.16) and functions as values.
;; @cb-apply
[(apply + [1 2 3]) (apply + 1 2 [3 4]) (apply max [4 9 2]) (apply str ["a" "b"])]
;; @cb-apply-empty
(apply + [])
;; @cb-apply-map
(apply hash-map [:a 1 :b 2])
;; @cb-apply-keyword
(apply :a [{:a 5}])
;; @cb-apply-nil
(apply + nil)
;; @cb-comp
[((comp inc inc) 1) ((comp str inc) 1) ((comp) 5) ((comp - +) 1 2 3)]
;; @cb-comp-keyword
((comp count :items) {:items [1 2 3]})
;; @cb-comp-order
((comp #(* 2 %) #(+ 10 %)) 1)
;; @cb-partial
[((partial + 10) 5) ((partial * 2 3) 4) ((partial str "x"))]
;; @cb-partial-map
(map (partial * 3) [1 2 3])
;; @cb-complement
[((complement even?) 3) (filter (complement nil?) [1 nil 2])]
;; @cb-constantly
[((constantly 7)) ((constantly 7) 1 2 3) (map (constantly :x) [1 2])]
;; @cb-every-pred
[((every-pred pos? even?) 2 4) ((every-pred pos? even?) 2 3) ((every-pred pos?))]
;; @cb-some-fn
[((some-fn even? neg?) 1 3) ((some-fn even? neg?) 1 -3) ((some-fn :a :b) {:b 2})]
;; @cb-fnil
[((fnil inc 0) nil) ((fnil inc 0) 5) ((fnil + 0) nil 5)]
;; @cb-fnil-two
((fnil + 0 0) nil nil)
;; @cb-juxt
[((juxt inc dec) 5) ((juxt :a :b) {:a 1 :b 2}) ((juxt count first) [7 8])]
;; @cb-juxt-sort-key
(map (juxt identity #(* % %)) [1 2 3])
;; @cb-identity-filter
(filter identity [1 nil false 2])
;; @cb-comp-partial
((comp (partial reduce +) (partial map inc)) [1 2 3])
;; @cb-fn-in-map
(let [ops {:add + :mul *}] [((:add ops) 2 3) ((get ops :mul) 2 3)])
;; @cb-fn-in-vector
(map (fn [f] (f 10)) [inc dec #(* % %)])
;; @cb-keyword-as-fn-hof
(map :id [{:id 1} {:id 2}])
;; @cb-set-as-fn-hof
(filter #{1 3} [1 2 3 4])
;; @cb-map-as-fn-hof
(map {:a 1 :b 2} [:a :b :c])
;; @cb-vector-as-fn-hof
(map [10 20 30] [2 0])
;; @cb-apply-partial
(apply (partial + 1) [2 3])
;; @cb-complement-keyword
(filter (complement :done) [{:done true} {:done false} {}])
;; @cb-every-pred-filter
(filter (every-pred odd? #(> % 3)) (range 10))
;; @cb-some-fn-filter
(filter (some-fn zero? #(> % 8)) (range 10))
;; @cb-comp-many
((comp str inc inc inc) 0)
;; @cb-returning-closures
(let [mk (fn [n] #(+ % n)) fs (map mk [1 2 3])] (map #(% 10) fs))
;; @cb-apply-fn-literal
(apply (fn [a b & more] [a b (count more)]) 1 2 [3 4 5])
;; @cb-max-key-apply
(apply max-key :score [{:score 1 :n "a"} {:score 5 :n "b"} {:score 3 :n "c"}])
;; @cb-min-key-apply
(apply min-key count ["bbb" "a" "cc"])
;; @cb-partial-keyword
((partial get {:a 1}) :a)
;; @cb-not-callable-error
(5 1)
;; @cb-nil-call-error
(let [f nil] (f 1))
;; @cb-string-call-error
("abc" 1)
;; @cb-update-with-partial
(update {:xs [1 2]} :xs (partial map inc))
;; @cb-sort-by-comp
(sort-by (comp - :v) [{:v 1} {:v 3} {:v 2}])
;; @cb-group-by-juxt
(group-by (juxt :a :b) [{:a 1 :b 1} {:a 1 :b 2} {:a 1 :b 1}])
;;; A combinator is built from any values; a non-callable one fails when it is called.
;; @cb-juxt-threaded-builds-fn
(fn? (-> 5 (juxt inc dec)))
;; @cb-combinators-build-from-non-fns
[(fn? (juxt 5)) (fn? (comp 5 inc)) (fn? (complement 5)) (fn? (some-fn 5))
 (fn? (every-pred 5)) (fn? (fnil 5 1)) (fn? (juxt nil)) (fn? (juxt :a "x"))]
;; @cb-comp-partial-one-arg-is-arg
[(comp 5) (partial 5) (comp nil) (partial nil)]
;; @cb-juxt-non-fn-call-error
((juxt 5) 1)
;; @cb-comp-non-fn-call-error
((comp inc 5) 1)
;; @cb-fnil-no-default-error
(fnil inc)
