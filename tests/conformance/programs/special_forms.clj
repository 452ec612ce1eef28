;;; Special forms and core macros (target §5): do, if, when, cond, case, condp, let,
;;; if-let & co., fn, def, defn, and/or, quote, comment.
;; @sf-do-empty
(do)
;; @sf-do-last
(do 1 2 3)
;; @sf-do-nested
(do (do 1) (do 2 (do 3 4)))
;; @sf-if-true
(if true :yes :no)
;; @sf-if-false
(if false :yes :no)
;; @sf-if-nil-no-else
(if nil :yes)
;; @sf-if-zero-truthy
(if 0 :truthy :falsy)
;; @sf-if-empty-string-truthy
(if "" :truthy :falsy)
;; @sf-if-empty-vec-truthy
(if [] :truthy :falsy)
;; @sf-if-nested
(if (> 3 2) (if (< 1 0) :a :b) :c)
;; @sf-if-not
[(if-not false 1 2) (if-not true 1 2) (if-not true 1)]
;; @sf-when
[(when true 1 2 3) (when false 1) (when nil)]
;; @sf-when-not
[(when-not false :ran) (when-not 1 :ran)]
;; @sf-when-empty-body
(when true)
;; @sf-cond-basic
(let [x 15] (cond (< x 10) :small (< x 20) :medium :else :large))
;; @sf-cond-none
(cond false 1 nil 2)
;; @sf-cond-empty
(cond)
;; @sf-cond-else
(cond (= 1 2) :a :else :fallback)
;; @sf-cond-values
(map (fn [n] (cond (neg? n) "neg" (zero? n) "zero" (even? n) "even" :else "odd")) [-3 0 4 7])
;; @sf-case-keyword
(case :b :a 1 :b 2 :c 3)
;; @sf-case-default
(case "zzz" "a" 1 "b" 2 :default)
;; @sf-case-group
(map #(case % (1 2 3) :low (4 5 6) :mid :high) [1 5 9])
;; @sf-case-string
(case "paid" "paid" :done "open" :todo :unknown)
;; @sf-case-nil
(case nil nil :was-nil :other)
;; @sf-case-no-match-error
(case 5 1 :a 2 :b)
;; @sf-case-int
(case 3 1 "one" 2 "two" 3 "three")
;; @sf-case-bool
[(case true true :t false :f) (case false true :t false :f)]
;; @sf-case-vector-constant
(map #(case % [1 2] :pair [] :empty ([0] [9 9]) :grouped {:a 1} :map #{:x} :set :other)
     [[1 2] [] [0] [9 9] {:a 1} #{:x} [2 1] (list 1 2)])
;; @sf-case-nested-constant
(case {:k [1 {:j "s"}]} {:k [1 {:j "s"}]} :deep :no)
;; @sf-condp-eq
(condp = 3 1 :one 2 :two 3 :three :none)
;; @sf-condp-lt
(condp < 50 10 :small 40 :medium :large)
;; @sf-condp-default
(condp = "x" "a" 1 "b" 2 :no-match)
;; @sf-condp-contains
(condp contains? :b #{:a} 1 #{:b :c} 2 3)
;; @sf-condp-result-fn
[(condp some [1 2] #{2} :>> inc :none) (condp some [1] #{5} :>> inc #{1} :one :none) (condp get :b {:a 1} :>> inc {:b 10} :>> #(* 2 %) :none) (condp re-find "abc123" #"\d+" :>> #(str "num " %) "none") (map #(condp some [%] #{1 2} :>> (fn [x] (* 10 x)) :other) [1 2 3])]
;; @sf-let-basic
(let [x 1 y 2] (+ x y))
;; @sf-let-sequential
(let [x 1 y (+ x 10) z (* y 2)] [x y z])
;; @sf-let-shadow
(let [x 1] (let [x (+ x 1)] (let [x (* x 10)] x)))
;; @sf-let-empty-body
(let [x 1])
;; @sf-let-multi-body
(let [x 5] (+ x 1) (* x 2))
;; @sf-let-rebind-same
(let [a 1 a (inc a) a (inc a)] a)
;; @sf-if-let-true
(if-let [x (get {"a" 1} "a")] (inc x) :none)
;; @sf-if-let-false
(if-let [x (get {"a" 1} "b")] (inc x) :none)
;; @sf-if-let-false-value
(if-let [x false] :yes :no)
;; @sf-if-let-no-else
(if-let [x nil] :yes)
;; @sf-if-let-destructure
(if-let [[a b] [1 2]] (+ a b) :none)
;; @sf-when-let
[(when-let [x 5] (* x x)) (when-let [x nil] :never)]
;; @sf-when-let-body
(when-let [xs (seq [1 2 3])] (count xs) (reduce + xs))
;; @sf-if-some
[(if-some [x false] [:some x] :none) (if-some [x nil] [:some x] :none)]
;; @sf-when-some
[(when-some [x 0] (inc x)) (when-some [x nil] :never)]
;; @sf-when-first
[(when-first [x [10 20]] (* x 2)) (when-first [x []] :never) (when-first [x nil] :never)]
;; @sf-fn-basic
((fn [x y] (* x y)) 6 7)
;; @sf-fn-named-recursive
((fn fact [n] (if (<= n 1) 1 (* n (fact (dec n))))) 10)
;; @sf-fn-closure
(let [n 10 add-n (fn [x] (+ x n))] (map add-n [1 2 3]))
;; @sf-fn-variadic
((fn [a & more] [a more]) 1 2 3)
;; @sf-fn-variadic-empty
((fn [a & more] [a (count more)]) 1)
;; @sf-fn-variadic-nil-rest
((fn [& xs] xs))
;; @sf-fn-empty-body
((fn []))
;; @sf-fn-multi-arity
(let [f (fn ([x] (* x 2)) ([x y] (+ x y)))] [(f 1) (f 1 2)])
;; @sf-fn-multi-arity-self
(let [f (fn g ([x] (g x 100)) ([x y] (+ x y)))] [(f 1) (f 1 2)])
;; @sf-fn-returns-fn
(let [adder (fn [n] (fn [x] (+ x n))) add5 (adder 5)] (add5 10))
;; @sf-fn-arity-error
((fn [x] x) 1 2)
;; @sf-shortfn-basic
(#(+ % 1) 41)
;; @sf-shortfn-two-args
(#(* %1 %2) 6 7)
;; @sf-shortfn-rest
(#(vec %&) 1 2 3)
;; @sf-shortfn-rest-after-fixed
(#(into [%1] %&) 1 2 3)
;; @sf-shortfn-vector-literal-body
(map #(vector % (* % %)) [1 2 3])
;; @sf-shortfn-literal-call-error
(#(42))
;; @sf-shortfn-percent1
(#(+ %1 %1) 4)
;; @sf-def-value
(def x 42) x
;; @sf-def-returns-var
(def answer 42)
;; @sf-def-redefine
(def x 1) (def x (+ x 1)) x
;; @sf-def-docstring
(def limit "the limit" 10) (* limit 2)
;; @sf-def-fn-value
(def double-it (fn [x] (* 2 x))) (double-it 21)
;; @sf-defn-basic
(defn square [x] (* x x)) (square 9)
;; @sf-defn-doc
(defn cube "cubes" [x] (* x x x)) (cube 3)
;; @sf-defn-recursive
(defn fib [n] (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2))))) (fib 15)
;; @sf-defn-variadic
(defn sum-all [& xs] (reduce + 0 xs)) [(sum-all) (sum-all 1 2 3)]
;; @sf-defn-multi-arity
(defn greet ([] (greet "world")) ([n] (str "hello " n))) [(greet) (greet "bob")]
;; @sf-defn-mutual
(defn ev? [n] (if (zero? n) true (not (ev? (dec n))))) [(ev? 10) (ev? 7)]
;; @sf-defn-later-redef-observed
(defn base [] 1) (defn use-base [] (+ 10 (base))) (def before (use-base)) (defn base [] 2) [before (use-base)]
;; @sf-defn-uses-def
(def rate 3) (defn scale [x] (* rate x)) (scale 5)
;; @sf-def-inside-fn
(defn setup [] (def configured true) :done) [(setup) configured]
;; @sf-and-values
[(and) (and 1) (and 1 2) (and 1 nil 2) (and false 1) (and 1 2 3)]
;; @sf-or-values
[(or) (or nil) (or nil false) (or nil 1 2) (or false 0) (or nil false nil)]
;; @sf-and-short-circuit
(let [v [1]] (and false (nth v 5)))
;; @sf-or-short-circuit
(or 1 (nth [] 5))
;; @sf-quote-symbol
'hello
;; @sf-quote-form
(quote abc)
;; @sf-comment
(comment (+ 1 2))
;; @sf-comment-then-value
(comment "ignored") 5
;; @sf-undefined-symbol-error
(+ 1 undefined-thing)
;; @sf-nested-lets-fns
(let [f (fn [x] (let [y (* x 2)] (fn [z] (+ y z))))] ((f 3) 4))
;; @sf-higher-order-defn
(defn twice [f x] (f (f x))) (twice #(* 3 %) 2)
;; @sf-if-with-do
(if true (do 1 2) 3)
;; @sf-cond-nested-let
(let [score 72] (cond (>= score 90) "A" (>= score 80) "B" (>= score 70) "C" :else "F"))
;; @sf-case-in-fn
(defn kind [x] (case x :a "alpha" :b "beta" "other")) (mapv kind [:a :b :z])
;; @sf-recursion-depth
(defn count-down [n] (if (zero? n) :done (count-down (dec n)))) (count-down 500)
;; @sf-local-shadows-builtin
(let [count 5 inc (fn [x] (* 10 x))] (inc count))
;; @sf-def-shadows-builtin
(def max 99) max
;; @sf-when-side-effect-order
(do (println "a") (when true (println "b")) (println "c") :end)
;; @sf-condp-no-match
(condp = 5 1 :a 2 :b)
;; @sf-condp-pred-default
(condp < 100 10 :small 50 :medium :huge)
;;; A def in any body outside a fn makes its name known to the forms after it, as in
;;; Clojure, where def interns the name when it is compiled.
;; @sf-def-in-when-body
(when true (def a 1) (+ a 1))
;; @sf-def-in-if-do-body
(if true (do (def a 1) (+ a 1)) 0)
;; @sf-def-in-when-some-body
(when-some [x 1] (def a 1) (+ a x))
;; @sf-def-in-when-first-body
(when-first [x [1]] (def a 1) (+ a x))
;; @sf-def-in-let-body-nested
(let [x 1] (when x (def a 2)) (+ a x))
;; @sf-def-in-cond-case-branches
(do (cond true (def a 5)) (case 1 1 (def b 6)) [a b])
;; @sf-def-in-call-argument
(do (defn my-range [a b c] [:mine a b c]) (take (do (def range my-range) 3) (range 1 5 0)))
;; @sf-def-in-doseq-body
(do (def t 0) (doseq [i [1 2 3]] (def t (+ t i))) t)
;; @sf-def-in-def-value
(do (def x (do (def y 1) (+ y 1))) [x y])
;; @sf-def-in-untaken-branch-read-error
(do (if false (def a 1) 0) (inc a))
;; @sf-def-without-value-error
(do (def x) 1)
;; @sf-quote-history-symbol
(str (quote *1))
