;; Revenue report over the bundled orders (data/orders) and customers (tool/get-customer).
;; Run it with `make demo`, or: ptc run examples/orders.clj --data examples/orders.json --tools examples/tools.py
(defn revenue [orders]
  (reduce + 0 (map :amount orders)))

(let [paid     (filter #(= (:status %) "paid") data/orders)
      by-cust  (group-by :customer-id paid)
      totals   (for [[cid orders] by-cust]
                 {:customer (:name (tool/get-customer {:id cid}))
                  :orders   (count orders)
                  :revenue  (revenue orders)})
      ranked   (sort-by :revenue > totals)]
  (println "paid orders:" (count paid) "of" (count data/orders))
  {:top-customers (take 3 ranked)
   :total-revenue (revenue paid)})
