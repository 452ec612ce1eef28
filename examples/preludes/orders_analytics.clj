(ns orders.analytics
  "Order analytics: revenue, refunds and customer rankings over order maps
  {:id :customer-id :amount :status}."
  {:deps [orders.core]})

(defn revenue
  "Revenue of the paid orders, in the orders' currency."
  {:signature "(orders [{amount :float, status :string}]) -> :float"}
  [orders]
  (orders.core/sum-amounts (orders.core/with-status orders "paid")))

(defn refund-rate
  "Share of orders that were refunded, between 0.0 and 1.0 (0.0 for no orders)."
  {:signature "(orders [:map]) -> :float"}
  [orders]
  (if (empty? orders)
    0.0
    (/ (double (count (orders.core/with-status orders "refunded"))) (count orders))))

(defn status-counts
  "How many orders have each status, as a map status -> count."
  {:signature "(orders [:map]) -> :map"}
  [orders]
  (frequencies (map :status orders)))

(defn- customer-row [[cid orders]]
  {:customer-id cid
   :orders      (count orders)
   :revenue     (revenue orders)})

(defn top-customers
  "The `n` customers with the highest paid revenue: [{customer-id orders revenue}]."
  {:signature "(orders [:map], n :int) -> [{customer_id :int, orders :int, revenue :float}]"}
  [orders n]
  (->> (group-by :customer-id orders)
       (map customer-row)
       (sort-by :revenue >)
       (take n)
       vec))

(defn customer-report
  "Top `n` customers by revenue, each with its name from tool/get-customer."
  {:signature "(orders [:map], n :int) -> [{name :string?, revenue :float}]"
   :effect :read}
  [orders n]
  (mapv (fn [row]
          {:name    (:name (tool/get-customer {:id (:customer-id row)}))
           :revenue (:revenue row)})
        (top-customers orders n)))
