;;; loop / recur (target §5.13).
;; @lr-sum
(loop [i 0 acc 0] (if (> i 10) acc (recur (inc i) (+ acc i))))
;; @lr-factorial
(loop [n 20 acc 1] (if (zero? n) acc (recur (dec n) (* acc n))))
;; @lr-big-factorial
(loop [n 30 acc 1] (if (zero? n) (str acc) (recur (dec n) (*' acc n))))
;; @lr-collect
(loop [i 0 out []] (if (= i 5) out (recur (inc i) (conj out (* i i)))))
;; @lr-over-seq
(loop [xs [3 1 4 1 5] best 0] (if (empty? xs) best (recur (rest xs) (max best (first xs)))))
;; @lr-first-next
(loop [xs (seq [1 2 3]) acc []] (if xs (recur (next xs) (cons (first xs) acc)) acc))
;; @lr-fn-recur
((fn [n acc] (if (zero? n) acc (recur (dec n) (+ acc 2)))) 10 0)
;; @lr-defn-recur
(defn gcd [a b] (if (zero? b) a (recur b (mod a b)))) (gcd 1071 462)
;; @lr-fn-variadic-recur
(defn sum-down [n & _] (if (zero? n) :done (recur (dec n) nil))) (sum-down 5)
;; @lr-many-iterations
(loop [i 0] (if (< i 100000) (recur (inc i)) i))
;; @lr-cond-tail
(loop [n 27 steps 0] (cond (= n 1) steps (even? n) (recur (quot n 2) (inc steps)) :else (recur (inc (* 3 n)) (inc steps))))
;; @lr-case-tail
(loop [state :start n 0] (case state :start (recur :middle (inc n)) :middle (recur :end (inc n)) :end n))
;; @lr-let-in-loop
(loop [i 0 acc []] (let [sq (* i i)] (if (> sq 50) acc (recur (inc i) (conj acc sq)))))
;; @lr-when-tail
(loop [i 0 acc 0] (if (< i 5) (recur (inc i) (+ acc i)) acc))
;; @lr-nested-loops
(loop [i 0 acc []] (if (= i 3) acc (recur (inc i) (conj acc (loop [j 0 s 0] (if (> j i) s (recur (inc j) (+ s j))))))))
;; @lr-build-map
(loop [ks [:a :b :c] i 1 m {}] (if (empty? ks) m (recur (rest ks) (inc i) (assoc m (first ks) i))))
;; @lr-string-build
(loop [i 0 s ""] (if (= i 5) s (recur (inc i) (str s i))))
;; @lr-fibs
(loop [a 0 b 1 n 0 out []] (if (= n 15) out (recur b (+ a b) (inc n) (conj out a))))
;; @lr-destructure-binding
(loop [[a b] [0 1] n 10] (if (zero? n) a (recur [b (+ a b)] (dec n))))
;; @lr-binary-search
(let [v [1 3 5 7 9 11 13] target 9] (loop [lo 0 hi (dec (count v))] (if (> lo hi) -1 (let [mid (quot (+ lo hi) 2) x (nth v mid)] (cond (= x target) mid (< x target) (recur (inc mid) hi) :else (recur lo (dec mid)))))))
;; @lr-reverse
(loop [xs [1 2 3 4] out []] (if (seq xs) (recur (butlast xs) (conj out (last xs))) out))
;; @lr-count-digits
(loop [n 123456789 c 0] (if (zero? n) c (recur (quot n 10) (inc c))))
;; @lr-primes
(loop [n 2 primes []] (if (> n 50) primes (recur (inc n) (if (some #(zero? (rem n %)) primes) primes (conj primes n)))))
;; @lr-if-in-fn-body
(defn countdown [n acc] (if (neg? n) acc (recur (dec n) (conj acc n)))) (countdown 4 [])
;; @lr-loop-returns-nil
(loop [i 0] (when (< i 3) (recur (inc i))))
;; @lr-recur-arity-error
(loop [a 1 b 2] (if (> a 5) a (recur (inc a))))
;; @lr-recur-not-tail-error
(loop [i 0] (+ 1 (recur (inc i))))
;; @lr-float-acc
(loop [i 0 x 0.0] (if (= i 10) x (recur (inc i) (+ x 0.1))))
;; @lr-loop-over-map-entries
(loop [es (seq {:a 1 :b 2}) acc 0] (if es (recur (next es) (+ acc (val (first es)))) acc))
;; @lr-power-set-size
(loop [xs [1 2 3 4] sets [[]]] (if (empty? xs) (count sets) (recur (rest xs) (into sets (map #(conj % (first xs)) sets)))))
;; @lr-and-in-tail
(loop [i 0] (if (and (< i 10) (not= i 7)) (recur (inc i)) i))
;; @lr-do-tail
(loop [i 0] (if (< i 3) (do (println i) (recur (inc i))) :end))
;; @lr-loop-body-let-shadow
(loop [x 1] (let [x (* x 2)] (if (> x 100) x (recur x))))
;; @lr-recur-in-when-let
(loop [xs [1 2 3] acc 0] (if-let [x (first xs)] (recur (rest xs) (+ acc x)) acc))
;; @lr-gcd
(loop [a 48 b 18] (if (zero? b) a (recur b (mod a b))))
;; @lr-collatz-steps
(loop [n 27 steps 0] (if (= n 1) steps (recur (if (even? n) (quot n 2) (inc (* 3 n))) (inc steps))))
;; @lr-running-max-vs-reductions
(= (vec (rest (reductions max 0 [3 1 4 1 5]))) (loop [xs [3 1 4 1 5] m 0 out []] (if (empty? xs) out (let [m2 (max m (first xs))] (recur (rest xs) m2 (conj out m2))))))
;; @lr-deep-non-tail-recursion
(defn depth [n] (if (zero? n) 0 (inc (depth (dec n)))))
(depth 1500)
