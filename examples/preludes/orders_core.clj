(ns orders.core
  "Small order helpers shared by the analytics library."
  {:visibility :discoverable})

(def statuses
  "Order statuses the analytics understand."
  {:type "[:string]"}
  ["paid" "pending" "refunded"])

(defn- amount [order] (or (:amount order) 0))

(defn with-status
  "The orders whose :status is `status`."
  {:signature "(orders [:map], status :string) -> [:map]"}
  [orders status]
  (filterv #(= (:status %) status) orders))

(defn sum-amounts
  "Sum of the :amount of `orders`, rounded to cents."
  {:signature "(orders [:map]) -> :float"}
  [orders]
  (/ (Math/round (* 100.0 (reduce + 0.0 (map amount orders)))) 100.0))
