"""PTC-Lisp programs the benchmarks share."""

# A realistic 30-line model-written program: tool data pipeline with let, fn, ->>, maps.
THIRTY_LINES = """
(defn score [order]
  (let [{:keys [amount status items]} order
        base (if (= status "paid") amount 0)]
    (+ base (* 0.1 (count items)))))

(defn summarize [orders]
  (let [paid (filter #(= (:status %) "paid") orders)
        total (reduce + 0 (map :amount paid))]
    {:count (count paid)
     :total total
     :avg (if (pos? (count paid)) (/ total (count paid)) 0)}))

(def threshold 100)

(let [orders data/orders
      big (filter #(> (:amount %) threshold) orders)
      scores (map score big)
      best (loop [xs scores best 0]
             (if (empty? xs)
               best
               (recur (rest xs) (max best (first xs)))))
      by-status (reduce (fn [acc o]
                          (assoc acc (:status o) (inc (get acc (:status o) 0))))
                        {}
                        orders)]
  (println "orders:" (count orders))
  {:summary (summarize orders)
   :best best
   :by-status by-status
   :labels (for [o big :when (> (:amount o) 200)] (str "order-" (:id o)))})
"""

# (loop [i 0 s 0] ...) summing 0..n-1, the loop benchmark of the compiler issue.
LOOP_SUM = "(loop [i 0 s 0] (if (< i {n}) (recur (inc i) (+ s i)) s))"
