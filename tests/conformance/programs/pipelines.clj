;;; Realistic data pipelines over tool-shaped data (string-keyed maps inlined).
;; @pl-orders-paid-total
(def orders [{"id" 1 "customer" "acme" "status" "paid" "amount" 12.5 "items" 2 "region" "eu"}
             {"id" 2 "customer" "globex" "status" "open" "amount" 99.0 "items" 5 "region" "us"}
             {"id" 3 "customer" "acme" "status" "paid" "amount" 40.25 "items" 1 "region" "eu"}
             {"id" 4 "customer" "initech" "status" "refunded" "amount" 15.0 "items" 3 "region" "us"}
             {"id" 5 "customer" "globex" "status" "paid" "amount" 7.75 "items" 1 "region" "apac"}
             {"id" 6 "customer" "umbrella" "status" "open" "amount" 250.0 "items" 10 "region" "eu"}
             {"id" 7 "customer" "acme" "status" "paid" "amount" 3.0 "items" 1 "region" "us"}])
(->> orders (filter #(= "paid" (get % "status"))) (map #(get % "amount")) (reduce +))
;; @pl-orders-count-by-status
(def orders [{"id" 1 "customer" "acme" "status" "paid" "amount" 12.5 "items" 2 "region" "eu"}
             {"id" 2 "customer" "globex" "status" "open" "amount" 99.0 "items" 5 "region" "us"}
             {"id" 3 "customer" "acme" "status" "paid" "amount" 40.25 "items" 1 "region" "eu"}
             {"id" 4 "customer" "initech" "status" "refunded" "amount" 15.0 "items" 3 "region" "us"}
             {"id" 5 "customer" "globex" "status" "paid" "amount" 7.75 "items" 1 "region" "apac"}
             {"id" 6 "customer" "umbrella" "status" "open" "amount" 250.0 "items" 10 "region" "eu"}
             {"id" 7 "customer" "acme" "status" "paid" "amount" 3.0 "items" 1 "region" "us"}])
(frequencies (map #(get % "status") orders))
;; @pl-orders-group-by-customer-ids
(def orders [{"id" 1 "customer" "acme" "status" "paid" "amount" 12.5 "items" 2 "region" "eu"}
             {"id" 2 "customer" "globex" "status" "open" "amount" 99.0 "items" 5 "region" "us"}
             {"id" 3 "customer" "acme" "status" "paid" "amount" 40.25 "items" 1 "region" "eu"}
             {"id" 4 "customer" "initech" "status" "refunded" "amount" 15.0 "items" 3 "region" "us"}
             {"id" 5 "customer" "globex" "status" "paid" "amount" 7.75 "items" 1 "region" "apac"}
             {"id" 6 "customer" "umbrella" "status" "open" "amount" 250.0 "items" 10 "region" "eu"}
             {"id" 7 "customer" "acme" "status" "paid" "amount" 3.0 "items" 1 "region" "us"}])
(update-vals (group-by #(get % "customer") orders) #(mapv (fn [o] (get o "id")) %))
;; @pl-orders-revenue-by-customer
(def orders [{"id" 1 "customer" "acme" "status" "paid" "amount" 12.5 "items" 2 "region" "eu"}
             {"id" 2 "customer" "globex" "status" "open" "amount" 99.0 "items" 5 "region" "us"}
             {"id" 3 "customer" "acme" "status" "paid" "amount" 40.25 "items" 1 "region" "eu"}
             {"id" 4 "customer" "initech" "status" "refunded" "amount" 15.0 "items" 3 "region" "us"}
             {"id" 5 "customer" "globex" "status" "paid" "amount" 7.75 "items" 1 "region" "apac"}
             {"id" 6 "customer" "umbrella" "status" "open" "amount" 250.0 "items" 10 "region" "eu"}
             {"id" 7 "customer" "acme" "status" "paid" "amount" 3.0 "items" 1 "region" "us"}])
(reduce (fn [acc o] (update acc (get o "customer") (fnil + 0) (get o "amount"))) {} orders)
;; @pl-orders-top3-by-amount
(def orders [{"id" 1 "customer" "acme" "status" "paid" "amount" 12.5 "items" 2 "region" "eu"}
             {"id" 2 "customer" "globex" "status" "open" "amount" 99.0 "items" 5 "region" "us"}
             {"id" 3 "customer" "acme" "status" "paid" "amount" 40.25 "items" 1 "region" "eu"}
             {"id" 4 "customer" "initech" "status" "refunded" "amount" 15.0 "items" 3 "region" "us"}
             {"id" 5 "customer" "globex" "status" "paid" "amount" 7.75 "items" 1 "region" "apac"}
             {"id" 6 "customer" "umbrella" "status" "open" "amount" 250.0 "items" 10 "region" "eu"}
             {"id" 7 "customer" "acme" "status" "paid" "amount" 3.0 "items" 1 "region" "us"}])
(->> orders (sort-by #(get % "amount") >) (take 3) (mapv #(get % "id")))
;; @pl-orders-sort-asc
(def orders [{"id" 1 "customer" "acme" "status" "paid" "amount" 12.5 "items" 2 "region" "eu"}
             {"id" 2 "customer" "globex" "status" "open" "amount" 99.0 "items" 5 "region" "us"}
             {"id" 3 "customer" "acme" "status" "paid" "amount" 40.25 "items" 1 "region" "eu"}
             {"id" 4 "customer" "initech" "status" "refunded" "amount" 15.0 "items" 3 "region" "us"}
             {"id" 5 "customer" "globex" "status" "paid" "amount" 7.75 "items" 1 "region" "apac"}
             {"id" 6 "customer" "umbrella" "status" "open" "amount" 250.0 "items" 10 "region" "eu"}
             {"id" 7 "customer" "acme" "status" "paid" "amount" 3.0 "items" 1 "region" "us"}])
(map #(get % "id") (sort-by #(get % "amount") orders))
;; @pl-orders-merge-with-revenue
(def orders [{"id" 1 "customer" "acme" "status" "paid" "amount" 12.5 "items" 2 "region" "eu"}
             {"id" 2 "customer" "globex" "status" "open" "amount" 99.0 "items" 5 "region" "us"}
             {"id" 3 "customer" "acme" "status" "paid" "amount" 40.25 "items" 1 "region" "eu"}
             {"id" 4 "customer" "initech" "status" "refunded" "amount" 15.0 "items" 3 "region" "us"}
             {"id" 5 "customer" "globex" "status" "paid" "amount" 7.75 "items" 1 "region" "apac"}
             {"id" 6 "customer" "umbrella" "status" "open" "amount" 250.0 "items" 10 "region" "eu"}
             {"id" 7 "customer" "acme" "status" "paid" "amount" 3.0 "items" 1 "region" "us"}])
(apply merge-with + (map (fn [o] {(get o "region") (get o "amount")}) orders))
;; @pl-orders-avg-amount
(def orders [{"id" 1 "customer" "acme" "status" "paid" "amount" 12.5 "items" 2 "region" "eu"}
             {"id" 2 "customer" "globex" "status" "open" "amount" 99.0 "items" 5 "region" "us"}
             {"id" 3 "customer" "acme" "status" "paid" "amount" 40.25 "items" 1 "region" "eu"}
             {"id" 4 "customer" "initech" "status" "refunded" "amount" 15.0 "items" 3 "region" "us"}
             {"id" 5 "customer" "globex" "status" "paid" "amount" 7.75 "items" 1 "region" "apac"}
             {"id" 6 "customer" "umbrella" "status" "open" "amount" 250.0 "items" 10 "region" "eu"}
             {"id" 7 "customer" "acme" "status" "paid" "amount" 3.0 "items" 1 "region" "us"}])
(let [xs (map #(get % "amount") orders)] (/ (reduce + xs) (count xs)))
;; @pl-orders-max-order
(def orders [{"id" 1 "customer" "acme" "status" "paid" "amount" 12.5 "items" 2 "region" "eu"}
             {"id" 2 "customer" "globex" "status" "open" "amount" 99.0 "items" 5 "region" "us"}
             {"id" 3 "customer" "acme" "status" "paid" "amount" 40.25 "items" 1 "region" "eu"}
             {"id" 4 "customer" "initech" "status" "refunded" "amount" 15.0 "items" 3 "region" "us"}
             {"id" 5 "customer" "globex" "status" "paid" "amount" 7.75 "items" 1 "region" "apac"}
             {"id" 6 "customer" "umbrella" "status" "open" "amount" 250.0 "items" 10 "region" "eu"}
             {"id" 7 "customer" "acme" "status" "paid" "amount" 3.0 "items" 1 "region" "us"}])
(get (apply max-key #(get % "amount") orders) "customer")
;; @pl-orders-min-order
(def orders [{"id" 1 "customer" "acme" "status" "paid" "amount" 12.5 "items" 2 "region" "eu"}
             {"id" 2 "customer" "globex" "status" "open" "amount" 99.0 "items" 5 "region" "us"}
             {"id" 3 "customer" "acme" "status" "paid" "amount" 40.25 "items" 1 "region" "eu"}
             {"id" 4 "customer" "initech" "status" "refunded" "amount" 15.0 "items" 3 "region" "us"}
             {"id" 5 "customer" "globex" "status" "paid" "amount" 7.75 "items" 1 "region" "apac"}
             {"id" 6 "customer" "umbrella" "status" "open" "amount" 250.0 "items" 10 "region" "eu"}
             {"id" 7 "customer" "acme" "status" "paid" "amount" 3.0 "items" 1 "region" "us"}])
(get (apply min-key #(get % "amount") orders) "id")
;; @pl-orders-select-fields
(def orders [{"id" 1 "customer" "acme" "status" "paid" "amount" 12.5 "items" 2 "region" "eu"}
             {"id" 2 "customer" "globex" "status" "open" "amount" 99.0 "items" 5 "region" "us"}
             {"id" 3 "customer" "acme" "status" "paid" "amount" 40.25 "items" 1 "region" "eu"}
             {"id" 4 "customer" "initech" "status" "refunded" "amount" 15.0 "items" 3 "region" "us"}
             {"id" 5 "customer" "globex" "status" "paid" "amount" 7.75 "items" 1 "region" "apac"}
             {"id" 6 "customer" "umbrella" "status" "open" "amount" 250.0 "items" 10 "region" "eu"}
             {"id" 7 "customer" "acme" "status" "paid" "amount" 3.0 "items" 1 "region" "us"}])
(mapv #(select-keys % ["id" "status"]) (take 2 orders))
;; @pl-orders-add-field
(def orders [{"id" 1 "customer" "acme" "status" "paid" "amount" 12.5 "items" 2 "region" "eu"}
             {"id" 2 "customer" "globex" "status" "open" "amount" 99.0 "items" 5 "region" "us"}
             {"id" 3 "customer" "acme" "status" "paid" "amount" 40.25 "items" 1 "region" "eu"}
             {"id" 4 "customer" "initech" "status" "refunded" "amount" 15.0 "items" 3 "region" "us"}
             {"id" 5 "customer" "globex" "status" "paid" "amount" 7.75 "items" 1 "region" "apac"}
             {"id" 6 "customer" "umbrella" "status" "open" "amount" 250.0 "items" 10 "region" "eu"}
             {"id" 7 "customer" "acme" "status" "paid" "amount" 3.0 "items" 1 "region" "us"}])
(mapv #(assoc % "big" (> (get % "amount") 20)) (take 3 orders))
;; @pl-orders-update-amount
(def orders [{"id" 1 "customer" "acme" "status" "paid" "amount" 12.5 "items" 2 "region" "eu"}
             {"id" 2 "customer" "globex" "status" "open" "amount" 99.0 "items" 5 "region" "us"}
             {"id" 3 "customer" "acme" "status" "paid" "amount" 40.25 "items" 1 "region" "eu"}
             {"id" 4 "customer" "initech" "status" "refunded" "amount" 15.0 "items" 3 "region" "us"}
             {"id" 5 "customer" "globex" "status" "paid" "amount" 7.75 "items" 1 "region" "apac"}
             {"id" 6 "customer" "umbrella" "status" "open" "amount" 250.0 "items" 10 "region" "eu"}
             {"id" 7 "customer" "acme" "status" "paid" "amount" 3.0 "items" 1 "region" "us"}])
(map #(get % "amount") (map #(update % "amount" * 2) orders))
;; @pl-orders-distinct-customers
(def orders [{"id" 1 "customer" "acme" "status" "paid" "amount" 12.5 "items" 2 "region" "eu"}
             {"id" 2 "customer" "globex" "status" "open" "amount" 99.0 "items" 5 "region" "us"}
             {"id" 3 "customer" "acme" "status" "paid" "amount" 40.25 "items" 1 "region" "eu"}
             {"id" 4 "customer" "initech" "status" "refunded" "amount" 15.0 "items" 3 "region" "us"}
             {"id" 5 "customer" "globex" "status" "paid" "amount" 7.75 "items" 1 "region" "apac"}
             {"id" 6 "customer" "umbrella" "status" "open" "amount" 250.0 "items" 10 "region" "eu"}
             {"id" 7 "customer" "acme" "status" "paid" "amount" 3.0 "items" 1 "region" "us"}])
(distinct (map #(get % "customer") orders))
;; @pl-orders-customers-sorted
(def orders [{"id" 1 "customer" "acme" "status" "paid" "amount" 12.5 "items" 2 "region" "eu"}
             {"id" 2 "customer" "globex" "status" "open" "amount" 99.0 "items" 5 "region" "us"}
             {"id" 3 "customer" "acme" "status" "paid" "amount" 40.25 "items" 1 "region" "eu"}
             {"id" 4 "customer" "initech" "status" "refunded" "amount" 15.0 "items" 3 "region" "us"}
             {"id" 5 "customer" "globex" "status" "paid" "amount" 7.75 "items" 1 "region" "apac"}
             {"id" 6 "customer" "umbrella" "status" "open" "amount" 250.0 "items" 10 "region" "eu"}
             {"id" 7 "customer" "acme" "status" "paid" "amount" 3.0 "items" 1 "region" "us"}])
(sort (set (map #(get % "customer") orders)))
;; @pl-orders-region-stats
(def orders [{"id" 1 "customer" "acme" "status" "paid" "amount" 12.5 "items" 2 "region" "eu"}
             {"id" 2 "customer" "globex" "status" "open" "amount" 99.0 "items" 5 "region" "us"}
             {"id" 3 "customer" "acme" "status" "paid" "amount" 40.25 "items" 1 "region" "eu"}
             {"id" 4 "customer" "initech" "status" "refunded" "amount" 15.0 "items" 3 "region" "us"}
             {"id" 5 "customer" "globex" "status" "paid" "amount" 7.75 "items" 1 "region" "apac"}
             {"id" 6 "customer" "umbrella" "status" "open" "amount" 250.0 "items" 10 "region" "eu"}
             {"id" 7 "customer" "acme" "status" "paid" "amount" 3.0 "items" 1 "region" "us"}])
(into {} (map (fn [[r os]] [r {"n" (count os) "total" (reduce + (map #(get % "amount") os))}]) (group-by #(get % "region") orders)))
;; @pl-orders-status-partition
(def orders [{"id" 1 "customer" "acme" "status" "paid" "amount" 12.5 "items" 2 "region" "eu"}
             {"id" 2 "customer" "globex" "status" "open" "amount" 99.0 "items" 5 "region" "us"}
             {"id" 3 "customer" "acme" "status" "paid" "amount" 40.25 "items" 1 "region" "eu"}
             {"id" 4 "customer" "initech" "status" "refunded" "amount" 15.0 "items" 3 "region" "us"}
             {"id" 5 "customer" "globex" "status" "paid" "amount" 7.75 "items" 1 "region" "apac"}
             {"id" 6 "customer" "umbrella" "status" "open" "amount" 250.0 "items" 10 "region" "eu"}
             {"id" 7 "customer" "acme" "status" "paid" "amount" 3.0 "items" 1 "region" "us"}])
(let [{paid true other false} (group-by #(= "paid" (get % "status")) orders)] [(count paid) (count other)])
;; @pl-orders-items-total
(def orders [{"id" 1 "customer" "acme" "status" "paid" "amount" 12.5 "items" 2 "region" "eu"}
             {"id" 2 "customer" "globex" "status" "open" "amount" 99.0 "items" 5 "region" "us"}
             {"id" 3 "customer" "acme" "status" "paid" "amount" 40.25 "items" 1 "region" "eu"}
             {"id" 4 "customer" "initech" "status" "refunded" "amount" 15.0 "items" 3 "region" "us"}
             {"id" 5 "customer" "globex" "status" "paid" "amount" 7.75 "items" 1 "region" "apac"}
             {"id" 6 "customer" "umbrella" "status" "open" "amount" 250.0 "items" 10 "region" "eu"}
             {"id" 7 "customer" "acme" "status" "paid" "amount" 3.0 "items" 1 "region" "us"}])
(reduce + 0 (map #(get % "items") orders))
;; @pl-orders-keep-big
(def orders [{"id" 1 "customer" "acme" "status" "paid" "amount" 12.5 "items" 2 "region" "eu"}
             {"id" 2 "customer" "globex" "status" "open" "amount" 99.0 "items" 5 "region" "us"}
             {"id" 3 "customer" "acme" "status" "paid" "amount" 40.25 "items" 1 "region" "eu"}
             {"id" 4 "customer" "initech" "status" "refunded" "amount" 15.0 "items" 3 "region" "us"}
             {"id" 5 "customer" "globex" "status" "paid" "amount" 7.75 "items" 1 "region" "apac"}
             {"id" 6 "customer" "umbrella" "status" "open" "amount" 250.0 "items" 10 "region" "eu"}
             {"id" 7 "customer" "acme" "status" "paid" "amount" 3.0 "items" 1 "region" "us"}])
(keep #(when (> (get % "amount") 20) (get % "id")) orders)
;; @pl-orders-index-by-id
(def orders [{"id" 1 "customer" "acme" "status" "paid" "amount" 12.5 "items" 2 "region" "eu"}
             {"id" 2 "customer" "globex" "status" "open" "amount" 99.0 "items" 5 "region" "us"}
             {"id" 3 "customer" "acme" "status" "paid" "amount" 40.25 "items" 1 "region" "eu"}
             {"id" 4 "customer" "initech" "status" "refunded" "amount" 15.0 "items" 3 "region" "us"}
             {"id" 5 "customer" "globex" "status" "paid" "amount" 7.75 "items" 1 "region" "apac"}
             {"id" 6 "customer" "umbrella" "status" "open" "amount" 250.0 "items" 10 "region" "eu"}
             {"id" 7 "customer" "acme" "status" "paid" "amount" 3.0 "items" 1 "region" "us"}])
(get-in (zipmap (map #(get % "id") orders) orders) [4 "customer"])
;; @pl-orders-some-refunded
(def orders [{"id" 1 "customer" "acme" "status" "paid" "amount" 12.5 "items" 2 "region" "eu"}
             {"id" 2 "customer" "globex" "status" "open" "amount" 99.0 "items" 5 "region" "us"}
             {"id" 3 "customer" "acme" "status" "paid" "amount" 40.25 "items" 1 "region" "eu"}
             {"id" 4 "customer" "initech" "status" "refunded" "amount" 15.0 "items" 3 "region" "us"}
             {"id" 5 "customer" "globex" "status" "paid" "amount" 7.75 "items" 1 "region" "apac"}
             {"id" 6 "customer" "umbrella" "status" "open" "amount" 250.0 "items" 10 "region" "eu"}
             {"id" 7 "customer" "acme" "status" "paid" "amount" 3.0 "items" 1 "region" "us"}])
(some #(when (= "refunded" (get % "status")) (get % "id")) orders)
;; @pl-orders-every-positive
(def orders [{"id" 1 "customer" "acme" "status" "paid" "amount" 12.5 "items" 2 "region" "eu"}
             {"id" 2 "customer" "globex" "status" "open" "amount" 99.0 "items" 5 "region" "us"}
             {"id" 3 "customer" "acme" "status" "paid" "amount" 40.25 "items" 1 "region" "eu"}
             {"id" 4 "customer" "initech" "status" "refunded" "amount" 15.0 "items" 3 "region" "us"}
             {"id" 5 "customer" "globex" "status" "paid" "amount" 7.75 "items" 1 "region" "apac"}
             {"id" 6 "customer" "umbrella" "status" "open" "amount" 250.0 "items" 10 "region" "eu"}
             {"id" 7 "customer" "acme" "status" "paid" "amount" 3.0 "items" 1 "region" "us"}])
(every? #(pos? (get % "amount")) orders)
;; @pl-orders-remove-open
(def orders [{"id" 1 "customer" "acme" "status" "paid" "amount" 12.5 "items" 2 "region" "eu"}
             {"id" 2 "customer" "globex" "status" "open" "amount" 99.0 "items" 5 "region" "us"}
             {"id" 3 "customer" "acme" "status" "paid" "amount" 40.25 "items" 1 "region" "eu"}
             {"id" 4 "customer" "initech" "status" "refunded" "amount" 15.0 "items" 3 "region" "us"}
             {"id" 5 "customer" "globex" "status" "paid" "amount" 7.75 "items" 1 "region" "apac"}
             {"id" 6 "customer" "umbrella" "status" "open" "amount" 250.0 "items" 10 "region" "eu"}
             {"id" 7 "customer" "acme" "status" "paid" "amount" 3.0 "items" 1 "region" "us"}])
(count (remove #(= "open" (get % "status")) orders))
;; @pl-orders-format-lines
(def orders [{"id" 1 "customer" "acme" "status" "paid" "amount" 12.5 "items" 2 "region" "eu"}
             {"id" 2 "customer" "globex" "status" "open" "amount" 99.0 "items" 5 "region" "us"}
             {"id" 3 "customer" "acme" "status" "paid" "amount" 40.25 "items" 1 "region" "eu"}
             {"id" 4 "customer" "initech" "status" "refunded" "amount" 15.0 "items" 3 "region" "us"}
             {"id" 5 "customer" "globex" "status" "paid" "amount" 7.75 "items" 1 "region" "apac"}
             {"id" 6 "customer" "umbrella" "status" "open" "amount" 250.0 "items" 10 "region" "eu"}
             {"id" 7 "customer" "acme" "status" "paid" "amount" 3.0 "items" 1 "region" "us"}])
(mapv #(format "%d:%s:%.2f" (get % "id") (get % "customer") (get % "amount")) (take 3 orders))
;; @pl-orders-report-string
(def orders [{"id" 1 "customer" "acme" "status" "paid" "amount" 12.5 "items" 2 "region" "eu"}
             {"id" 2 "customer" "globex" "status" "open" "amount" 99.0 "items" 5 "region" "us"}
             {"id" 3 "customer" "acme" "status" "paid" "amount" 40.25 "items" 1 "region" "eu"}
             {"id" 4 "customer" "initech" "status" "refunded" "amount" 15.0 "items" 3 "region" "us"}
             {"id" 5 "customer" "globex" "status" "paid" "amount" 7.75 "items" 1 "region" "apac"}
             {"id" 6 "customer" "umbrella" "status" "open" "amount" 250.0 "items" 10 "region" "eu"}
             {"id" 7 "customer" "acme" "status" "paid" "amount" 3.0 "items" 1 "region" "us"}])
(clojure.string/join "\n" (for [o orders :when (= "eu" (get o "region"))] (str (get o "id") " " (get o "customer"))))
;; @pl-orders-cumulative
(def orders [{"id" 1 "customer" "acme" "status" "paid" "amount" 12.5 "items" 2 "region" "eu"}
             {"id" 2 "customer" "globex" "status" "open" "amount" 99.0 "items" 5 "region" "us"}
             {"id" 3 "customer" "acme" "status" "paid" "amount" 40.25 "items" 1 "region" "eu"}
             {"id" 4 "customer" "initech" "status" "refunded" "amount" 15.0 "items" 3 "region" "us"}
             {"id" 5 "customer" "globex" "status" "paid" "amount" 7.75 "items" 1 "region" "apac"}
             {"id" 6 "customer" "umbrella" "status" "open" "amount" 250.0 "items" 10 "region" "eu"}
             {"id" 7 "customer" "acme" "status" "paid" "amount" 3.0 "items" 1 "region" "us"}])
(reduce (fn [acc o] (conj acc (+ (or (peek acc) 0) (get o "items")))) [] orders)
;; @pl-orders-pairs
(def orders [{"id" 1 "customer" "acme" "status" "paid" "amount" 12.5 "items" 2 "region" "eu"}
             {"id" 2 "customer" "globex" "status" "open" "amount" 99.0 "items" 5 "region" "us"}
             {"id" 3 "customer" "acme" "status" "paid" "amount" 40.25 "items" 1 "region" "eu"}
             {"id" 4 "customer" "initech" "status" "refunded" "amount" 15.0 "items" 3 "region" "us"}
             {"id" 5 "customer" "globex" "status" "paid" "amount" 7.75 "items" 1 "region" "apac"}
             {"id" 6 "customer" "umbrella" "status" "open" "amount" 250.0 "items" 10 "region" "eu"}
             {"id" 7 "customer" "acme" "status" "paid" "amount" 3.0 "items" 1 "region" "us"}])
(count (for [a orders b orders :when (< (get a "id") (get b "id")) :when (= (get a "customer") (get b "customer"))] [(get a "id") (get b "id")]))
;; @pl-orders-dedupe-status-seq
(def orders [{"id" 1 "customer" "acme" "status" "paid" "amount" 12.5 "items" 2 "region" "eu"}
             {"id" 2 "customer" "globex" "status" "open" "amount" 99.0 "items" 5 "region" "us"}
             {"id" 3 "customer" "acme" "status" "paid" "amount" 40.25 "items" 1 "region" "eu"}
             {"id" 4 "customer" "initech" "status" "refunded" "amount" 15.0 "items" 3 "region" "us"}
             {"id" 5 "customer" "globex" "status" "paid" "amount" 7.75 "items" 1 "region" "apac"}
             {"id" 6 "customer" "umbrella" "status" "open" "amount" 250.0 "items" 10 "region" "eu"}
             {"id" 7 "customer" "acme" "status" "paid" "amount" 3.0 "items" 1 "region" "us"}])
(dedupe (map #(get % "status") orders))
;; @pl-orders-partition-pages
(def orders [{"id" 1 "customer" "acme" "status" "paid" "amount" 12.5 "items" 2 "region" "eu"}
             {"id" 2 "customer" "globex" "status" "open" "amount" 99.0 "items" 5 "region" "us"}
             {"id" 3 "customer" "acme" "status" "paid" "amount" 40.25 "items" 1 "region" "eu"}
             {"id" 4 "customer" "initech" "status" "refunded" "amount" 15.0 "items" 3 "region" "us"}
             {"id" 5 "customer" "globex" "status" "paid" "amount" 7.75 "items" 1 "region" "apac"}
             {"id" 6 "customer" "umbrella" "status" "open" "amount" 250.0 "items" 10 "region" "eu"}
             {"id" 7 "customer" "acme" "status" "paid" "amount" 3.0 "items" 1 "region" "us"}])
(map #(mapv (fn [o] (get o "id")) %) (partition-all 3 orders))
;; @pl-orders-summary-map
(def orders [{"id" 1 "customer" "acme" "status" "paid" "amount" 12.5 "items" 2 "region" "eu"}
             {"id" 2 "customer" "globex" "status" "open" "amount" 99.0 "items" 5 "region" "us"}
             {"id" 3 "customer" "acme" "status" "paid" "amount" 40.25 "items" 1 "region" "eu"}
             {"id" 4 "customer" "initech" "status" "refunded" "amount" 15.0 "items" 3 "region" "us"}
             {"id" 5 "customer" "globex" "status" "paid" "amount" 7.75 "items" 1 "region" "apac"}
             {"id" 6 "customer" "umbrella" "status" "open" "amount" 250.0 "items" 10 "region" "eu"}
             {"id" 7 "customer" "acme" "status" "paid" "amount" 3.0 "items" 1 "region" "us"}])
(let [paid (filter #(= "paid" (get % "status")) orders)] {"count" (count paid) "ids" (mapv #(get % "id") paid) "max" (apply max (map #(get % "amount") paid))})
;; @pl-orders-rounded-total
(def orders [{"id" 1 "customer" "acme" "status" "paid" "amount" 12.5 "items" 2 "region" "eu"}
             {"id" 2 "customer" "globex" "status" "open" "amount" 99.0 "items" 5 "region" "us"}
             {"id" 3 "customer" "acme" "status" "paid" "amount" 40.25 "items" 1 "region" "eu"}
             {"id" 4 "customer" "initech" "status" "refunded" "amount" 15.0 "items" 3 "region" "us"}
             {"id" 5 "customer" "globex" "status" "paid" "amount" 7.75 "items" 1 "region" "apac"}
             {"id" 6 "customer" "umbrella" "status" "open" "amount" 250.0 "items" 10 "region" "eu"}
             {"id" 7 "customer" "acme" "status" "paid" "amount" 3.0 "items" 1 "region" "us"}])
(/ (Math/round (* 100.0 (reduce + (map #(get % "amount") orders)))) 100.0)
;; @pl-orders-sort-multi
(def orders [{"id" 1 "customer" "acme" "status" "paid" "amount" 12.5 "items" 2 "region" "eu"}
             {"id" 2 "customer" "globex" "status" "open" "amount" 99.0 "items" 5 "region" "us"}
             {"id" 3 "customer" "acme" "status" "paid" "amount" 40.25 "items" 1 "region" "eu"}
             {"id" 4 "customer" "initech" "status" "refunded" "amount" 15.0 "items" 3 "region" "us"}
             {"id" 5 "customer" "globex" "status" "paid" "amount" 7.75 "items" 1 "region" "apac"}
             {"id" 6 "customer" "umbrella" "status" "open" "amount" 250.0 "items" 10 "region" "eu"}
             {"id" 7 "customer" "acme" "status" "paid" "amount" 3.0 "items" 1 "region" "us"}])
(map #(get % "id") (sort-by (juxt #(get % "customer") #(- (get % "amount"))) orders))
;; @pl-orders-customer-rank
(def orders [{"id" 1 "customer" "acme" "status" "paid" "amount" 12.5 "items" 2 "region" "eu"}
             {"id" 2 "customer" "globex" "status" "open" "amount" 99.0 "items" 5 "region" "us"}
             {"id" 3 "customer" "acme" "status" "paid" "amount" 40.25 "items" 1 "region" "eu"}
             {"id" 4 "customer" "initech" "status" "refunded" "amount" 15.0 "items" 3 "region" "us"}
             {"id" 5 "customer" "globex" "status" "paid" "amount" 7.75 "items" 1 "region" "apac"}
             {"id" 6 "customer" "umbrella" "status" "open" "amount" 250.0 "items" 10 "region" "eu"}
             {"id" 7 "customer" "acme" "status" "paid" "amount" 3.0 "items" 1 "region" "us"}])
(->> orders (group-by #(get % "customer")) (map (fn [[c os]] [c (count os)])) (sort-by second >) first)
;; @pl-orders-dissoc-fields
(def orders [{"id" 1 "customer" "acme" "status" "paid" "amount" 12.5 "items" 2 "region" "eu"}
             {"id" 2 "customer" "globex" "status" "open" "amount" 99.0 "items" 5 "region" "us"}
             {"id" 3 "customer" "acme" "status" "paid" "amount" 40.25 "items" 1 "region" "eu"}
             {"id" 4 "customer" "initech" "status" "refunded" "amount" 15.0 "items" 3 "region" "us"}
             {"id" 5 "customer" "globex" "status" "paid" "amount" 7.75 "items" 1 "region" "apac"}
             {"id" 6 "customer" "umbrella" "status" "open" "amount" 250.0 "items" 10 "region" "eu"}
             {"id" 7 "customer" "acme" "status" "paid" "amount" 3.0 "items" 1 "region" "us"}])
(mapv #(dissoc % "items" "region" "customer" "amount") (take 2 orders))
;; @pl-orders-rename-keys
(def orders [{"id" 1 "customer" "acme" "status" "paid" "amount" 12.5 "items" 2 "region" "eu"}
             {"id" 2 "customer" "globex" "status" "open" "amount" 99.0 "items" 5 "region" "us"}
             {"id" 3 "customer" "acme" "status" "paid" "amount" 40.25 "items" 1 "region" "eu"}
             {"id" 4 "customer" "initech" "status" "refunded" "amount" 15.0 "items" 3 "region" "us"}
             {"id" 5 "customer" "globex" "status" "paid" "amount" 7.75 "items" 1 "region" "apac"}
             {"id" 6 "customer" "umbrella" "status" "open" "amount" 250.0 "items" 10 "region" "eu"}
             {"id" 7 "customer" "acme" "status" "paid" "amount" 3.0 "items" 1 "region" "us"}])
(mapv (fn [o] {"order_id" (get o "id") "total" (get o "amount")}) (take 2 orders))
;; @pl-orders-println-report
(def orders [{"id" 1 "customer" "acme" "status" "paid" "amount" 12.5 "items" 2 "region" "eu"}
             {"id" 2 "customer" "globex" "status" "open" "amount" 99.0 "items" 5 "region" "us"}
             {"id" 3 "customer" "acme" "status" "paid" "amount" 40.25 "items" 1 "region" "eu"}
             {"id" 4 "customer" "initech" "status" "refunded" "amount" 15.0 "items" 3 "region" "us"}
             {"id" 5 "customer" "globex" "status" "paid" "amount" 7.75 "items" 1 "region" "apac"}
             {"id" 6 "customer" "umbrella" "status" "open" "amount" 250.0 "items" 10 "region" "eu"}
             {"id" 7 "customer" "acme" "status" "paid" "amount" 3.0 "items" 1 "region" "us"}])
(doseq [o (take 3 orders)] (println (get o "id") (get o "status")))
;; @pl-orders-nested-build
(def orders [{"id" 1 "customer" "acme" "status" "paid" "amount" 12.5 "items" 2 "region" "eu"}
             {"id" 2 "customer" "globex" "status" "open" "amount" 99.0 "items" 5 "region" "us"}
             {"id" 3 "customer" "acme" "status" "paid" "amount" 40.25 "items" 1 "region" "eu"}
             {"id" 4 "customer" "initech" "status" "refunded" "amount" 15.0 "items" 3 "region" "us"}
             {"id" 5 "customer" "globex" "status" "paid" "amount" 7.75 "items" 1 "region" "apac"}
             {"id" 6 "customer" "umbrella" "status" "open" "amount" 250.0 "items" 10 "region" "eu"}
             {"id" 7 "customer" "acme" "status" "paid" "amount" 3.0 "items" 1 "region" "us"}])
(reduce (fn [acc o] (update-in acc [(get o "region") (get o "status")] (fnil inc 0))) {} orders)
;; @pl-orders-keyword-ize
(def orders [{"id" 1 "customer" "acme" "status" "paid" "amount" 12.5 "items" 2 "region" "eu"}
             {"id" 2 "customer" "globex" "status" "open" "amount" 99.0 "items" 5 "region" "us"}
             {"id" 3 "customer" "acme" "status" "paid" "amount" 40.25 "items" 1 "region" "eu"}
             {"id" 4 "customer" "initech" "status" "refunded" "amount" 15.0 "items" 3 "region" "us"}
             {"id" 5 "customer" "globex" "status" "paid" "amount" 7.75 "items" 1 "region" "apac"}
             {"id" 6 "customer" "umbrella" "status" "open" "amount" 250.0 "items" 10 "region" "eu"}
             {"id" 7 "customer" "acme" "status" "paid" "amount" 3.0 "items" 1 "region" "us"}])
(mapv #(update-keys % keyword) (take 1 orders))
;; @pl-orders-threshold-buckets
(def orders [{"id" 1 "customer" "acme" "status" "paid" "amount" 12.5 "items" 2 "region" "eu"}
             {"id" 2 "customer" "globex" "status" "open" "amount" 99.0 "items" 5 "region" "us"}
             {"id" 3 "customer" "acme" "status" "paid" "amount" 40.25 "items" 1 "region" "eu"}
             {"id" 4 "customer" "initech" "status" "refunded" "amount" 15.0 "items" 3 "region" "us"}
             {"id" 5 "customer" "globex" "status" "paid" "amount" 7.75 "items" 1 "region" "apac"}
             {"id" 6 "customer" "umbrella" "status" "open" "amount" 250.0 "items" 10 "region" "eu"}
             {"id" 7 "customer" "acme" "status" "paid" "amount" 3.0 "items" 1 "region" "us"}])
(frequencies (map #(let [a (get % "amount")] (cond (< a 10) "small" (< a 100) "medium" :else "large")) orders))
;; @pl-orders-first-open
(def orders [{"id" 1 "customer" "acme" "status" "paid" "amount" 12.5 "items" 2 "region" "eu"}
             {"id" 2 "customer" "globex" "status" "open" "amount" 99.0 "items" 5 "region" "us"}
             {"id" 3 "customer" "acme" "status" "paid" "amount" 40.25 "items" 1 "region" "eu"}
             {"id" 4 "customer" "initech" "status" "refunded" "amount" 15.0 "items" 3 "region" "us"}
             {"id" 5 "customer" "globex" "status" "paid" "amount" 7.75 "items" 1 "region" "apac"}
             {"id" 6 "customer" "umbrella" "status" "open" "amount" 250.0 "items" 10 "region" "eu"}
             {"id" 7 "customer" "acme" "status" "paid" "amount" 3.0 "items" 1 "region" "us"}])
(get (first (filter #(= "open" (get % "status")) orders)) "customer")
;; @pl-orders-count-if
(def orders [{"id" 1 "customer" "acme" "status" "paid" "amount" 12.5 "items" 2 "region" "eu"}
             {"id" 2 "customer" "globex" "status" "open" "amount" 99.0 "items" 5 "region" "us"}
             {"id" 3 "customer" "acme" "status" "paid" "amount" 40.25 "items" 1 "region" "eu"}
             {"id" 4 "customer" "initech" "status" "refunded" "amount" 15.0 "items" 3 "region" "us"}
             {"id" 5 "customer" "globex" "status" "paid" "amount" 7.75 "items" 1 "region" "apac"}
             {"id" 6 "customer" "umbrella" "status" "open" "amount" 250.0 "items" 10 "region" "eu"}
             {"id" 7 "customer" "acme" "status" "paid" "amount" 3.0 "items" 1 "region" "us"}])
(count (filter #(and (= "eu" (get % "region")) (> (get % "items") 1)) orders))
;; @pl-orders-paid-ratio
(def orders [{"id" 1 "customer" "acme" "status" "paid" "amount" 12.5 "items" 2 "region" "eu"}
             {"id" 2 "customer" "globex" "status" "open" "amount" 99.0 "items" 5 "region" "us"}
             {"id" 3 "customer" "acme" "status" "paid" "amount" 40.25 "items" 1 "region" "eu"}
             {"id" 4 "customer" "initech" "status" "refunded" "amount" 15.0 "items" 3 "region" "us"}
             {"id" 5 "customer" "globex" "status" "paid" "amount" 7.75 "items" 1 "region" "apac"}
             {"id" 6 "customer" "umbrella" "status" "open" "amount" 250.0 "items" 10 "region" "eu"}
             {"id" 7 "customer" "acme" "status" "paid" "amount" 3.0 "items" 1 "region" "us"}])
(double (/ (count (filter #(= "paid" (get % "status")) orders)) (count orders)))
;; @pl-orders-loop-until
(def orders [{"id" 1 "customer" "acme" "status" "paid" "amount" 12.5 "items" 2 "region" "eu"}
             {"id" 2 "customer" "globex" "status" "open" "amount" 99.0 "items" 5 "region" "us"}
             {"id" 3 "customer" "acme" "status" "paid" "amount" 40.25 "items" 1 "region" "eu"}
             {"id" 4 "customer" "initech" "status" "refunded" "amount" 15.0 "items" 3 "region" "us"}
             {"id" 5 "customer" "globex" "status" "paid" "amount" 7.75 "items" 1 "region" "apac"}
             {"id" 6 "customer" "umbrella" "status" "open" "amount" 250.0 "items" 10 "region" "eu"}
             {"id" 7 "customer" "acme" "status" "paid" "amount" 3.0 "items" 1 "region" "us"}])
(loop [os orders total 0 n 0] (if (or (empty? os) (> total 100)) [n total] (recur (rest os) (+ total (get (first os) "amount")) (inc n))))
;; @pl-orders-map-indexed
(def orders [{"id" 1 "customer" "acme" "status" "paid" "amount" 12.5 "items" 2 "region" "eu"}
             {"id" 2 "customer" "globex" "status" "open" "amount" 99.0 "items" 5 "region" "us"}
             {"id" 3 "customer" "acme" "status" "paid" "amount" 40.25 "items" 1 "region" "eu"}
             {"id" 4 "customer" "initech" "status" "refunded" "amount" 15.0 "items" 3 "region" "us"}
             {"id" 5 "customer" "globex" "status" "paid" "amount" 7.75 "items" 1 "region" "apac"}
             {"id" 6 "customer" "umbrella" "status" "open" "amount" 250.0 "items" 10 "region" "eu"}
             {"id" 7 "customer" "acme" "status" "paid" "amount" 3.0 "items" 1 "region" "us"}])
(map-indexed (fn [i o] [i (get o "id")]) (take 3 orders))
;; @pl-orders-flexible-keyword-read
(def orders [{"id" 1 "customer" "acme" "status" "paid" "amount" 12.5 "items" 2 "region" "eu"}
             {"id" 2 "customer" "globex" "status" "open" "amount" 99.0 "items" 5 "region" "us"}
             {"id" 3 "customer" "acme" "status" "paid" "amount" 40.25 "items" 1 "region" "eu"}
             {"id" 4 "customer" "initech" "status" "refunded" "amount" 15.0 "items" 3 "region" "us"}
             {"id" 5 "customer" "globex" "status" "paid" "amount" 7.75 "items" 1 "region" "apac"}
             {"id" 6 "customer" "umbrella" "status" "open" "amount" 250.0 "items" 10 "region" "eu"}
             {"id" 7 "customer" "acme" "status" "paid" "amount" 3.0 "items" 1 "region" "us"}])
(map :status (take 2 orders))
;; @pl-users-active-names
(def users [{"id" 10 "name" "Ann" "email" "ann@example.com" "age" 34 "roles" ["admin" "dev"] "active" true "address" {"city" "Paris" "zip" "75001"}}
            {"id" 11 "name" "bob" "email" "bob@example.org" "age" 27 "roles" ["dev"] "active" false "address" {"city" "Berlin" "zip" "10115"}}
            {"id" 12 "name" "Cy" "email" nil "age" 45 "roles" [] "active" true "address" {"city" "Paris" "zip" "75002"}}
            {"id" 13 "name" "dee" "email" "dee@example.com" "age" 19 "roles" ["ops" "dev"] "active" true "address" nil}])
(->> users (filter #(get % "active")) (map #(get % "name")))
;; @pl-users-emails-present
(def users [{"id" 10 "name" "Ann" "email" "ann@example.com" "age" 34 "roles" ["admin" "dev"] "active" true "address" {"city" "Paris" "zip" "75001"}}
            {"id" 11 "name" "bob" "email" "bob@example.org" "age" 27 "roles" ["dev"] "active" false "address" {"city" "Berlin" "zip" "10115"}}
            {"id" 12 "name" "Cy" "email" nil "age" 45 "roles" [] "active" true "address" {"city" "Paris" "zip" "75002"}}
            {"id" 13 "name" "dee" "email" "dee@example.com" "age" 19 "roles" ["ops" "dev"] "active" true "address" nil}])
(keep #(get % "email") users)
;; @pl-users-by-city
(def users [{"id" 10 "name" "Ann" "email" "ann@example.com" "age" 34 "roles" ["admin" "dev"] "active" true "address" {"city" "Paris" "zip" "75001"}}
            {"id" 11 "name" "bob" "email" "bob@example.org" "age" 27 "roles" ["dev"] "active" false "address" {"city" "Berlin" "zip" "10115"}}
            {"id" 12 "name" "Cy" "email" nil "age" 45 "roles" [] "active" true "address" {"city" "Paris" "zip" "75002"}}
            {"id" 13 "name" "dee" "email" "dee@example.com" "age" 19 "roles" ["ops" "dev"] "active" true "address" nil}])
(update-vals (group-by #(get-in % ["address" "city"]) users) #(map (fn [u] (get u "name")) %))
;; @pl-users-role-counts
(def users [{"id" 10 "name" "Ann" "email" "ann@example.com" "age" 34 "roles" ["admin" "dev"] "active" true "address" {"city" "Paris" "zip" "75001"}}
            {"id" 11 "name" "bob" "email" "bob@example.org" "age" 27 "roles" ["dev"] "active" false "address" {"city" "Berlin" "zip" "10115"}}
            {"id" 12 "name" "Cy" "email" nil "age" 45 "roles" [] "active" true "address" {"city" "Paris" "zip" "75002"}}
            {"id" 13 "name" "dee" "email" "dee@example.com" "age" 19 "roles" ["ops" "dev"] "active" true "address" nil}])
(frequencies (mapcat #(get % "roles") users))
;; @pl-users-admins
(def users [{"id" 10 "name" "Ann" "email" "ann@example.com" "age" 34 "roles" ["admin" "dev"] "active" true "address" {"city" "Paris" "zip" "75001"}}
            {"id" 11 "name" "bob" "email" "bob@example.org" "age" 27 "roles" ["dev"] "active" false "address" {"city" "Berlin" "zip" "10115"}}
            {"id" 12 "name" "Cy" "email" nil "age" 45 "roles" [] "active" true "address" {"city" "Paris" "zip" "75002"}}
            {"id" 13 "name" "dee" "email" "dee@example.com" "age" 19 "roles" ["ops" "dev"] "active" true "address" nil}])
(map #(get % "id") (filter #(some #{"admin"} (get % "roles")) users))
;; @pl-users-avg-age
(def users [{"id" 10 "name" "Ann" "email" "ann@example.com" "age" 34 "roles" ["admin" "dev"] "active" true "address" {"city" "Paris" "zip" "75001"}}
            {"id" 11 "name" "bob" "email" "bob@example.org" "age" 27 "roles" ["dev"] "active" false "address" {"city" "Berlin" "zip" "10115"}}
            {"id" 12 "name" "Cy" "email" nil "age" 45 "roles" [] "active" true "address" {"city" "Paris" "zip" "75002"}}
            {"id" 13 "name" "dee" "email" "dee@example.com" "age" 19 "roles" ["ops" "dev"] "active" true "address" nil}])
(let [ages (map #(get % "age") users)] (/ (reduce + ages) (count ages)))
;; @pl-users-oldest
(def users [{"id" 10 "name" "Ann" "email" "ann@example.com" "age" 34 "roles" ["admin" "dev"] "active" true "address" {"city" "Paris" "zip" "75001"}}
            {"id" 11 "name" "bob" "email" "bob@example.org" "age" 27 "roles" ["dev"] "active" false "address" {"city" "Berlin" "zip" "10115"}}
            {"id" 12 "name" "Cy" "email" nil "age" 45 "roles" [] "active" true "address" {"city" "Paris" "zip" "75002"}}
            {"id" 13 "name" "dee" "email" "dee@example.com" "age" 19 "roles" ["ops" "dev"] "active" true "address" nil}])
(get (last (sort-by #(get % "age") users)) "name")
;; @pl-users-names-upper
(def users [{"id" 10 "name" "Ann" "email" "ann@example.com" "age" 34 "roles" ["admin" "dev"] "active" true "address" {"city" "Paris" "zip" "75001"}}
            {"id" 11 "name" "bob" "email" "bob@example.org" "age" 27 "roles" ["dev"] "active" false "address" {"city" "Berlin" "zip" "10115"}}
            {"id" 12 "name" "Cy" "email" nil "age" 45 "roles" [] "active" true "address" {"city" "Paris" "zip" "75002"}}
            {"id" 13 "name" "dee" "email" "dee@example.com" "age" 19 "roles" ["ops" "dev"] "active" true "address" nil}])
(map (comp clojure.string/upper-case #(get % "name")) users)
;; @pl-users-name-sort-case
(def users [{"id" 10 "name" "Ann" "email" "ann@example.com" "age" 34 "roles" ["admin" "dev"] "active" true "address" {"city" "Paris" "zip" "75001"}}
            {"id" 11 "name" "bob" "email" "bob@example.org" "age" 27 "roles" ["dev"] "active" false "address" {"city" "Berlin" "zip" "10115"}}
            {"id" 12 "name" "Cy" "email" nil "age" 45 "roles" [] "active" true "address" {"city" "Paris" "zip" "75002"}}
            {"id" 13 "name" "dee" "email" "dee@example.com" "age" 19 "roles" ["ops" "dev"] "active" true "address" nil}])
(sort-by clojure.string/lower-case (map #(get % "name") users))
;; @pl-users-domain
(def users [{"id" 10 "name" "Ann" "email" "ann@example.com" "age" 34 "roles" ["admin" "dev"] "active" true "address" {"city" "Paris" "zip" "75001"}}
            {"id" 11 "name" "bob" "email" "bob@example.org" "age" 27 "roles" ["dev"] "active" false "address" {"city" "Berlin" "zip" "10115"}}
            {"id" 12 "name" "Cy" "email" nil "age" 45 "roles" [] "active" true "address" {"city" "Paris" "zip" "75002"}}
            {"id" 13 "name" "dee" "email" "dee@example.com" "age" 19 "roles" ["ops" "dev"] "active" true "address" nil}])
(frequencies (keep #(some-> % (get "email") (clojure.string/split #"@") second) users))
;; @pl-users-zip-missing-address
(def users [{"id" 10 "name" "Ann" "email" "ann@example.com" "age" 34 "roles" ["admin" "dev"] "active" true "address" {"city" "Paris" "zip" "75001"}}
            {"id" 11 "name" "bob" "email" "bob@example.org" "age" 27 "roles" ["dev"] "active" false "address" {"city" "Berlin" "zip" "10115"}}
            {"id" 12 "name" "Cy" "email" nil "age" 45 "roles" [] "active" true "address" {"city" "Paris" "zip" "75002"}}
            {"id" 13 "name" "dee" "email" "dee@example.com" "age" 19 "roles" ["ops" "dev"] "active" true "address" nil}])
(map #(get-in % ["address" "zip"] "none") users)
;; @pl-users-destructure
(def users [{"id" 10 "name" "Ann" "email" "ann@example.com" "age" 34 "roles" ["admin" "dev"] "active" true "address" {"city" "Paris" "zip" "75001"}}
            {"id" 11 "name" "bob" "email" "bob@example.org" "age" 27 "roles" ["dev"] "active" false "address" {"city" "Berlin" "zip" "10115"}}
            {"id" 12 "name" "Cy" "email" nil "age" 45 "roles" [] "active" true "address" {"city" "Paris" "zip" "75002"}}
            {"id" 13 "name" "dee" "email" "dee@example.com" "age" 19 "roles" ["ops" "dev"] "active" true "address" nil}])
(for [{:strs [name age]} users :when (> age 30)] (str name " (" age ")"))
;; @pl-users-index
(def users [{"id" 10 "name" "Ann" "email" "ann@example.com" "age" 34 "roles" ["admin" "dev"] "active" true "address" {"city" "Paris" "zip" "75001"}}
            {"id" 11 "name" "bob" "email" "bob@example.org" "age" 27 "roles" ["dev"] "active" false "address" {"city" "Berlin" "zip" "10115"}}
            {"id" 12 "name" "Cy" "email" nil "age" 45 "roles" [] "active" true "address" {"city" "Paris" "zip" "75002"}}
            {"id" 13 "name" "dee" "email" "dee@example.com" "age" 19 "roles" ["ops" "dev"] "active" true "address" nil}])
(into {} (map (juxt #(get % "id") #(get % "name")) users))
;; @pl-users-deactivate
(def users [{"id" 10 "name" "Ann" "email" "ann@example.com" "age" 34 "roles" ["admin" "dev"] "active" true "address" {"city" "Paris" "zip" "75001"}}
            {"id" 11 "name" "bob" "email" "bob@example.org" "age" 27 "roles" ["dev"] "active" false "address" {"city" "Berlin" "zip" "10115"}}
            {"id" 12 "name" "Cy" "email" nil "age" 45 "roles" [] "active" true "address" {"city" "Paris" "zip" "75002"}}
            {"id" 13 "name" "dee" "email" "dee@example.com" "age" 19 "roles" ["ops" "dev"] "active" true "address" nil}])
(map #(get % "active") (map #(assoc % "active" false) users))
;; @pl-users-age-brackets
(def users [{"id" 10 "name" "Ann" "email" "ann@example.com" "age" 34 "roles" ["admin" "dev"] "active" true "address" {"city" "Paris" "zip" "75001"}}
            {"id" 11 "name" "bob" "email" "bob@example.org" "age" 27 "roles" ["dev"] "active" false "address" {"city" "Berlin" "zip" "10115"}}
            {"id" 12 "name" "Cy" "email" nil "age" 45 "roles" [] "active" true "address" {"city" "Paris" "zip" "75002"}}
            {"id" 13 "name" "dee" "email" "dee@example.com" "age" 19 "roles" ["ops" "dev"] "active" true "address" nil}])
(group-by #(* 10 (quot (get % "age") 10)) (map #(select-keys % ["name" "age"]) users))
;; @pl-users-devs-in-paris
(def users [{"id" 10 "name" "Ann" "email" "ann@example.com" "age" 34 "roles" ["admin" "dev"] "active" true "address" {"city" "Paris" "zip" "75001"}}
            {"id" 11 "name" "bob" "email" "bob@example.org" "age" 27 "roles" ["dev"] "active" false "address" {"city" "Berlin" "zip" "10115"}}
            {"id" 12 "name" "Cy" "email" nil "age" 45 "roles" [] "active" true "address" {"city" "Paris" "zip" "75002"}}
            {"id" 13 "name" "dee" "email" "dee@example.com" "age" 19 "roles" ["ops" "dev"] "active" true "address" nil}])
(->> users (filter #(= "Paris" (get-in % ["address" "city"]))) (filter #(contains? (set (get % "roles")) "dev")) (map #(get % "name")))
;; @pl-users-role-index
(def users [{"id" 10 "name" "Ann" "email" "ann@example.com" "age" 34 "roles" ["admin" "dev"] "active" true "address" {"city" "Paris" "zip" "75001"}}
            {"id" 11 "name" "bob" "email" "bob@example.org" "age" 27 "roles" ["dev"] "active" false "address" {"city" "Berlin" "zip" "10115"}}
            {"id" 12 "name" "Cy" "email" nil "age" 45 "roles" [] "active" true "address" {"city" "Paris" "zip" "75002"}}
            {"id" 13 "name" "dee" "email" "dee@example.com" "age" 19 "roles" ["ops" "dev"] "active" true "address" nil}])
(reduce (fn [m u] (reduce (fn [m r] (update m r (fnil conj []) (get u "id"))) m (get u "roles"))) {} users)
;; @pl-users-has-email-count
(def users [{"id" 10 "name" "Ann" "email" "ann@example.com" "age" 34 "roles" ["admin" "dev"] "active" true "address" {"city" "Paris" "zip" "75001"}}
            {"id" 11 "name" "bob" "email" "bob@example.org" "age" 27 "roles" ["dev"] "active" false "address" {"city" "Berlin" "zip" "10115"}}
            {"id" 12 "name" "Cy" "email" nil "age" 45 "roles" [] "active" true "address" {"city" "Paris" "zip" "75002"}}
            {"id" 13 "name" "dee" "email" "dee@example.com" "age" 19 "roles" ["ops" "dev"] "active" true "address" nil}])
(count (filter (comp some? #(get % "email")) users))
;; @pl-users-json-like-output
(def users [{"id" 10 "name" "Ann" "email" "ann@example.com" "age" 34 "roles" ["admin" "dev"] "active" true "address" {"city" "Paris" "zip" "75001"}}
            {"id" 11 "name" "bob" "email" "bob@example.org" "age" 27 "roles" ["dev"] "active" false "address" {"city" "Berlin" "zip" "10115"}}
            {"id" 12 "name" "Cy" "email" nil "age" 45 "roles" [] "active" true "address" {"city" "Paris" "zip" "75002"}}
            {"id" 13 "name" "dee" "email" "dee@example.com" "age" 19 "roles" ["ops" "dev"] "active" true "address" nil}])
(pr-str (select-keys (first users) ["id" "name" "roles"]))
;; @pl-users-walk-strip-nil
(def users [{"id" 10 "name" "Ann" "email" "ann@example.com" "age" 34 "roles" ["admin" "dev"] "active" true "address" {"city" "Paris" "zip" "75001"}}
            {"id" 11 "name" "bob" "email" "bob@example.org" "age" 27 "roles" ["dev"] "active" false "address" {"city" "Berlin" "zip" "10115"}}
            {"id" 12 "name" "Cy" "email" nil "age" 45 "roles" [] "active" true "address" {"city" "Paris" "zip" "75002"}}
            {"id" 13 "name" "dee" "email" "dee@example.com" "age" 19 "roles" ["ops" "dev"] "active" true "address" nil}])
(clojure.walk/postwalk (fn [x] (if (map? x) (into {} (remove (comp nil? val) x)) x)) (nth users 2))
;; @pl-users-initials
(def users [{"id" 10 "name" "Ann" "email" "ann@example.com" "age" 34 "roles" ["admin" "dev"] "active" true "address" {"city" "Paris" "zip" "75001"}}
            {"id" 11 "name" "bob" "email" "bob@example.org" "age" 27 "roles" ["dev"] "active" false "address" {"city" "Berlin" "zip" "10115"}}
            {"id" 12 "name" "Cy" "email" nil "age" 45 "roles" [] "active" true "address" {"city" "Paris" "zip" "75002"}}
            {"id" 13 "name" "dee" "email" "dee@example.com" "age" 19 "roles" ["ops" "dev"] "active" true "address" nil}])
(apply str (map #(clojure.string/upper-case (subs (get % "name") 0 1)) users))
;; @pl-users-nested-update
(def users [{"id" 10 "name" "Ann" "email" "ann@example.com" "age" 34 "roles" ["admin" "dev"] "active" true "address" {"city" "Paris" "zip" "75001"}}
            {"id" 11 "name" "bob" "email" "bob@example.org" "age" 27 "roles" ["dev"] "active" false "address" {"city" "Berlin" "zip" "10115"}}
            {"id" 12 "name" "Cy" "email" nil "age" 45 "roles" [] "active" true "address" {"city" "Paris" "zip" "75002"}}
            {"id" 13 "name" "dee" "email" "dee@example.com" "age" 19 "roles" ["ops" "dev"] "active" true "address" nil}])
(get-in (update-in (first users) ["address" "city"] clojure.string/upper-case) ["address" "city"])
;; @pl-users-not-every-active
(def users [{"id" 10 "name" "Ann" "email" "ann@example.com" "age" 34 "roles" ["admin" "dev"] "active" true "address" {"city" "Paris" "zip" "75001"}}
            {"id" 11 "name" "bob" "email" "bob@example.org" "age" 27 "roles" ["dev"] "active" false "address" {"city" "Berlin" "zip" "10115"}}
            {"id" 12 "name" "Cy" "email" nil "age" 45 "roles" [] "active" true "address" {"city" "Paris" "zip" "75002"}}
            {"id" 13 "name" "dee" "email" "dee@example.com" "age" 19 "roles" ["ops" "dev"] "active" true "address" nil}])
(not-every? #(get % "active") users)
;; @pl-users-partition-by-active
(def users [{"id" 10 "name" "Ann" "email" "ann@example.com" "age" 34 "roles" ["admin" "dev"] "active" true "address" {"city" "Paris" "zip" "75001"}}
            {"id" 11 "name" "bob" "email" "bob@example.org" "age" 27 "roles" ["dev"] "active" false "address" {"city" "Berlin" "zip" "10115"}}
            {"id" 12 "name" "Cy" "email" nil "age" 45 "roles" [] "active" true "address" {"city" "Paris" "zip" "75002"}}
            {"id" 13 "name" "dee" "email" "dee@example.com" "age" 19 "roles" ["ops" "dev"] "active" true "address" nil}])
(map count (partition-by #(get % "active") users))
;; @pl-events-types
(def events [{"ts" 1000 "type" "click" "user" 10 "meta" {"page" "/home"}}
             {"ts" 1005 "type" "view" "user" 11 "meta" {"page" "/about"}}
             {"ts" 1010 "type" "click" "user" 10 "meta" {"page" "/pricing"}}
             {"ts" 1020 "type" "purchase" "user" 12 "meta" {"page" "/checkout" "value" 30}}
             {"ts" 1030 "type" "click" "user" 13 "meta" {"page" "/home"}}
             {"ts" 1031 "type" "view" "user" 10 "meta" {"page" "/home"}}
             {"ts" 1040 "type" "purchase" "user" 10 "meta" {"page" "/checkout" "value" 45}}])
(frequencies (map #(get % "type") events))
;; @pl-events-user-sequence
(def events [{"ts" 1000 "type" "click" "user" 10 "meta" {"page" "/home"}}
             {"ts" 1005 "type" "view" "user" 11 "meta" {"page" "/about"}}
             {"ts" 1010 "type" "click" "user" 10 "meta" {"page" "/pricing"}}
             {"ts" 1020 "type" "purchase" "user" 12 "meta" {"page" "/checkout" "value" 30}}
             {"ts" 1030 "type" "click" "user" 13 "meta" {"page" "/home"}}
             {"ts" 1031 "type" "view" "user" 10 "meta" {"page" "/home"}}
             {"ts" 1040 "type" "purchase" "user" 10 "meta" {"page" "/checkout" "value" 45}}])
(->> events (filter #(= 10 (get % "user"))) (map #(get % "type")))
;; @pl-events-purchase-value
(def events [{"ts" 1000 "type" "click" "user" 10 "meta" {"page" "/home"}}
             {"ts" 1005 "type" "view" "user" 11 "meta" {"page" "/about"}}
             {"ts" 1010 "type" "click" "user" 10 "meta" {"page" "/pricing"}}
             {"ts" 1020 "type" "purchase" "user" 12 "meta" {"page" "/checkout" "value" 30}}
             {"ts" 1030 "type" "click" "user" 13 "meta" {"page" "/home"}}
             {"ts" 1031 "type" "view" "user" 10 "meta" {"page" "/home"}}
             {"ts" 1040 "type" "purchase" "user" 10 "meta" {"page" "/checkout" "value" 45}}])
(reduce + (keep #(get-in % ["meta" "value"]) events))
;; @pl-events-sessions
(def events [{"ts" 1000 "type" "click" "user" 10 "meta" {"page" "/home"}}
             {"ts" 1005 "type" "view" "user" 11 "meta" {"page" "/about"}}
             {"ts" 1010 "type" "click" "user" 10 "meta" {"page" "/pricing"}}
             {"ts" 1020 "type" "purchase" "user" 12 "meta" {"page" "/checkout" "value" 30}}
             {"ts" 1030 "type" "click" "user" 13 "meta" {"page" "/home"}}
             {"ts" 1031 "type" "view" "user" 10 "meta" {"page" "/home"}}
             {"ts" 1040 "type" "purchase" "user" 10 "meta" {"page" "/checkout" "value" 45}}])
(map count (partition-by #(quot (get % "ts") 20) events))
;; @pl-events-gaps
(def events [{"ts" 1000 "type" "click" "user" 10 "meta" {"page" "/home"}}
             {"ts" 1005 "type" "view" "user" 11 "meta" {"page" "/about"}}
             {"ts" 1010 "type" "click" "user" 10 "meta" {"page" "/pricing"}}
             {"ts" 1020 "type" "purchase" "user" 12 "meta" {"page" "/checkout" "value" 30}}
             {"ts" 1030 "type" "click" "user" 13 "meta" {"page" "/home"}}
             {"ts" 1031 "type" "view" "user" 10 "meta" {"page" "/home"}}
             {"ts" 1040 "type" "purchase" "user" 10 "meta" {"page" "/checkout" "value" 45}}])
(let [ts (map #(get % "ts") events)] (map - (rest ts) ts))
;; @pl-events-pages
(def events [{"ts" 1000 "type" "click" "user" 10 "meta" {"page" "/home"}}
             {"ts" 1005 "type" "view" "user" 11 "meta" {"page" "/about"}}
             {"ts" 1010 "type" "click" "user" 10 "meta" {"page" "/pricing"}}
             {"ts" 1020 "type" "purchase" "user" 12 "meta" {"page" "/checkout" "value" 30}}
             {"ts" 1030 "type" "click" "user" 13 "meta" {"page" "/home"}}
             {"ts" 1031 "type" "view" "user" 10 "meta" {"page" "/home"}}
             {"ts" 1040 "type" "purchase" "user" 10 "meta" {"page" "/checkout" "value" 45}}])
(sort (distinct (map #(get-in % ["meta" "page"]) events)))
;; @pl-events-last-per-user
(def events [{"ts" 1000 "type" "click" "user" 10 "meta" {"page" "/home"}}
             {"ts" 1005 "type" "view" "user" 11 "meta" {"page" "/about"}}
             {"ts" 1010 "type" "click" "user" 10 "meta" {"page" "/pricing"}}
             {"ts" 1020 "type" "purchase" "user" 12 "meta" {"page" "/checkout" "value" 30}}
             {"ts" 1030 "type" "click" "user" 13 "meta" {"page" "/home"}}
             {"ts" 1031 "type" "view" "user" 10 "meta" {"page" "/home"}}
             {"ts" 1040 "type" "purchase" "user" 10 "meta" {"page" "/checkout" "value" 45}}])
(into {} (map (fn [[u es]] [u (get (last es) "type")]) (group-by #(get % "user") events)))
;; @pl-events-funnel
(def events [{"ts" 1000 "type" "click" "user" 10 "meta" {"page" "/home"}}
             {"ts" 1005 "type" "view" "user" 11 "meta" {"page" "/about"}}
             {"ts" 1010 "type" "click" "user" 10 "meta" {"page" "/pricing"}}
             {"ts" 1020 "type" "purchase" "user" 12 "meta" {"page" "/checkout" "value" 30}}
             {"ts" 1030 "type" "click" "user" 13 "meta" {"page" "/home"}}
             {"ts" 1031 "type" "view" "user" 10 "meta" {"page" "/home"}}
             {"ts" 1040 "type" "purchase" "user" 10 "meta" {"page" "/checkout" "value" 45}}])
(let [by-user (group-by #(get % "user") events)] (count (filter (fn [[_ es]] (and (some #(= "click" (get % "type")) es) (some #(= "purchase" (get % "type")) es))) by-user)))
;; @pl-events-window
(def events [{"ts" 1000 "type" "click" "user" 10 "meta" {"page" "/home"}}
             {"ts" 1005 "type" "view" "user" 11 "meta" {"page" "/about"}}
             {"ts" 1010 "type" "click" "user" 10 "meta" {"page" "/pricing"}}
             {"ts" 1020 "type" "purchase" "user" 12 "meta" {"page" "/checkout" "value" 30}}
             {"ts" 1030 "type" "click" "user" 13 "meta" {"page" "/home"}}
             {"ts" 1031 "type" "view" "user" 10 "meta" {"page" "/home"}}
             {"ts" 1040 "type" "purchase" "user" 10 "meta" {"page" "/checkout" "value" 45}}])
(count (filter #(<= 1005 (get % "ts") 1030) events))
;; @pl-events-top-page
(def events [{"ts" 1000 "type" "click" "user" 10 "meta" {"page" "/home"}}
             {"ts" 1005 "type" "view" "user" 11 "meta" {"page" "/about"}}
             {"ts" 1010 "type" "click" "user" 10 "meta" {"page" "/pricing"}}
             {"ts" 1020 "type" "purchase" "user" 12 "meta" {"page" "/checkout" "value" 30}}
             {"ts" 1030 "type" "click" "user" 13 "meta" {"page" "/home"}}
             {"ts" 1031 "type" "view" "user" 10 "meta" {"page" "/home"}}
             {"ts" 1040 "type" "purchase" "user" 10 "meta" {"page" "/checkout" "value" 45}}])
(key (apply max-key val (frequencies (map #(get-in % ["meta" "page"]) events))))
;; @pl-events-by-type-then-user
(def events [{"ts" 1000 "type" "click" "user" 10 "meta" {"page" "/home"}}
             {"ts" 1005 "type" "view" "user" 11 "meta" {"page" "/about"}}
             {"ts" 1010 "type" "click" "user" 10 "meta" {"page" "/pricing"}}
             {"ts" 1020 "type" "purchase" "user" 12 "meta" {"page" "/checkout" "value" 30}}
             {"ts" 1030 "type" "click" "user" 13 "meta" {"page" "/home"}}
             {"ts" 1031 "type" "view" "user" 10 "meta" {"page" "/home"}}
             {"ts" 1040 "type" "purchase" "user" 10 "meta" {"page" "/checkout" "value" 45}}])
(update-vals (group-by #(get % "type") events) (fn [es] (sort (distinct (map #(get % "user") es)))))
;; @pl-events-join-users
(def events [{"ts" 1000 "type" "click" "user" 10 "meta" {"page" "/home"}}
             {"ts" 1005 "type" "view" "user" 11 "meta" {"page" "/about"}}
             {"ts" 1010 "type" "click" "user" 10 "meta" {"page" "/pricing"}}
             {"ts" 1020 "type" "purchase" "user" 12 "meta" {"page" "/checkout" "value" 30}}
             {"ts" 1030 "type" "click" "user" 13 "meta" {"page" "/home"}}
             {"ts" 1031 "type" "view" "user" 10 "meta" {"page" "/home"}}
             {"ts" 1040 "type" "purchase" "user" 10 "meta" {"page" "/checkout" "value" 45}}])
(def users [{"id" 10 "name" "Ann" "email" "ann@example.com" "age" 34 "roles" ["admin" "dev"] "active" true "address" {"city" "Paris" "zip" "75001"}}
            {"id" 11 "name" "bob" "email" "bob@example.org" "age" 27 "roles" ["dev"] "active" false "address" {"city" "Berlin" "zip" "10115"}}
            {"id" 12 "name" "Cy" "email" nil "age" 45 "roles" [] "active" true "address" {"city" "Paris" "zip" "75002"}}
            {"id" 13 "name" "dee" "email" "dee@example.com" "age" 19 "roles" ["ops" "dev"] "active" true "address" nil}])
(let [names (into {} (map (juxt #(get % "id") #(get % "name")) users))] (map #(get names (get % "user")) (filter #(= "purchase" (get % "type")) events)))
;; @pl-events-first-purchase-ts
(def events [{"ts" 1000 "type" "click" "user" 10 "meta" {"page" "/home"}}
             {"ts" 1005 "type" "view" "user" 11 "meta" {"page" "/about"}}
             {"ts" 1010 "type" "click" "user" 10 "meta" {"page" "/pricing"}}
             {"ts" 1020 "type" "purchase" "user" 12 "meta" {"page" "/checkout" "value" 30}}
             {"ts" 1030 "type" "click" "user" 13 "meta" {"page" "/home"}}
             {"ts" 1031 "type" "view" "user" 10 "meta" {"page" "/home"}}
             {"ts" 1040 "type" "purchase" "user" 10 "meta" {"page" "/checkout" "value" 45}}])
(some #(when (= "purchase" (get % "type")) (get % "ts")) events)
;; @pl-events-reduce-state
(def events [{"ts" 1000 "type" "click" "user" 10 "meta" {"page" "/home"}}
             {"ts" 1005 "type" "view" "user" 11 "meta" {"page" "/about"}}
             {"ts" 1010 "type" "click" "user" 10 "meta" {"page" "/pricing"}}
             {"ts" 1020 "type" "purchase" "user" 12 "meta" {"page" "/checkout" "value" 30}}
             {"ts" 1030 "type" "click" "user" 13 "meta" {"page" "/home"}}
             {"ts" 1031 "type" "view" "user" 10 "meta" {"page" "/home"}}
             {"ts" 1040 "type" "purchase" "user" 10 "meta" {"page" "/checkout" "value" 45}}])
(reduce (fn [st e] (case (get e "type") "click" (update st :clicks inc) "view" (update st :views inc) (update st :other inc))) {:clicks 0 :views 0 :other 0} events)
;; @pl-inventory-in-stock
(def inventory {"widget" {"qty" 5 "price" 2.5 "tags" ["small" "blue"]}
                "gadget" {"qty" 0 "price" 10.0 "tags" ["large"]}
                "doohickey" {"qty" 12 "price" 0.75 "tags" ["small" "red"]}})
(sort (keep (fn [[k v]] (when (pos? (get v "qty")) k)) inventory))
;; @pl-inventory-value
(def inventory {"widget" {"qty" 5 "price" 2.5 "tags" ["small" "blue"]}
                "gadget" {"qty" 0 "price" 10.0 "tags" ["large"]}
                "doohickey" {"qty" 12 "price" 0.75 "tags" ["small" "red"]}})
(reduce-kv (fn [acc _ v] (+ acc (* (get v "qty") (get v "price")))) 0 inventory)
;; @pl-inventory-restock
(def inventory {"widget" {"qty" 5 "price" 2.5 "tags" ["small" "blue"]}
                "gadget" {"qty" 0 "price" 10.0 "tags" ["large"]}
                "doohickey" {"qty" 12 "price" 0.75 "tags" ["small" "red"]}})
(get-in (update-in inventory ["gadget" "qty"] + 20) ["gadget" "qty"])
;; @pl-inventory-tags
(def inventory {"widget" {"qty" 5 "price" 2.5 "tags" ["small" "blue"]}
                "gadget" {"qty" 0 "price" 10.0 "tags" ["large"]}
                "doohickey" {"qty" 12 "price" 0.75 "tags" ["small" "red"]}})
(sort (distinct (mapcat #(get % "tags") (vals inventory))))
;; @pl-inventory-price-map
(def inventory {"widget" {"qty" 5 "price" 2.5 "tags" ["small" "blue"]}
                "gadget" {"qty" 0 "price" 10.0 "tags" ["large"]}
                "doohickey" {"qty" 12 "price" 0.75 "tags" ["small" "red"]}})
(update-vals inventory #(get % "price"))
;; @pl-inventory-cheapest
(def inventory {"widget" {"qty" 5 "price" 2.5 "tags" ["small" "blue"]}
                "gadget" {"qty" 0 "price" 10.0 "tags" ["large"]}
                "doohickey" {"qty" 12 "price" 0.75 "tags" ["small" "red"]}})
(key (apply min-key #(get (val %) "price") inventory))
;; @pl-inventory-tag-index
(def inventory {"widget" {"qty" 5 "price" 2.5 "tags" ["small" "blue"]}
                "gadget" {"qty" 0 "price" 10.0 "tags" ["large"]}
                "doohickey" {"qty" 12 "price" 0.75 "tags" ["small" "red"]}})
(reduce-kv (fn [m item v] (reduce #(update %1 %2 (fnil conj #{}) item) m (get v "tags"))) {} inventory)
;; @pl-inventory-sorted-names
(def inventory {"widget" {"qty" 5 "price" 2.5 "tags" ["small" "blue"]}
                "gadget" {"qty" 0 "price" 10.0 "tags" ["large"]}
                "doohickey" {"qty" 12 "price" 0.75 "tags" ["small" "red"]}})
(sort (keys inventory))
;; @pl-inventory-discount
(def inventory {"widget" {"qty" 5 "price" 2.5 "tags" ["small" "blue"]}
                "gadget" {"qty" 0 "price" 10.0 "tags" ["large"]}
                "doohickey" {"qty" 12 "price" 0.75 "tags" ["small" "red"]}})
(into {} (map (fn [[k v]] [k (update v "price" * 0.5)]) inventory))
;; @pl-inventory-filter-map
(def inventory {"widget" {"qty" 5 "price" 2.5 "tags" ["small" "blue"]}
                "gadget" {"qty" 0 "price" 10.0 "tags" ["large"]}
                "doohickey" {"qty" 12 "price" 0.75 "tags" ["small" "red"]}})
(sort (map key (filter (fn [[_ v]] (some #{"small"} (get v "tags"))) inventory)))
;; @pl-inventory-merge-update
(def inventory {"widget" {"qty" 5 "price" 2.5 "tags" ["small" "blue"]}
                "gadget" {"qty" 0 "price" 10.0 "tags" ["large"]}
                "doohickey" {"qty" 12 "price" 0.75 "tags" ["small" "red"]}})
(get (merge-with merge inventory {"widget" {"qty" 1}}) "widget")
;; @pl-inventory-walk-prices
(def inventory {"widget" {"qty" 5 "price" 2.5 "tags" ["small" "blue"]}
                "gadget" {"qty" 0 "price" 10.0 "tags" ["large"]}
                "doohickey" {"qty" 12 "price" 0.75 "tags" ["small" "red"]}})
(get-in (clojure.walk/postwalk #(if (and (number? %) (float? %)) (* 2 %) %) inventory) ["doohickey" "price"])
;; @pl-csv-parse
(let [text "id,name,score\n1,ann,90\n2,bob,75\n3,cy,82" [header & rows] (clojure.string/split-lines text) ks (clojure.string/split header #",")] (->> rows (map #(zipmap ks (clojure.string/split % #","))) (map #(update % "score" parse-long)) (sort-by #(get % "score") >) (map #(get % "name"))))
;; @pl-kv-parse
(into {} (map #(let [[k v] (clojure.string/split % #"=")] [(keyword k) v]) (clojure.string/split "a=1;b=2;c=3" #";")))
;; @pl-word-freq
(->> (clojure.string/split (clojure.string/lower-case "The cat and the hat and THE bat") #"\s+") frequencies (filter #(> (val %) 1)) (into {}))
;; @pl-word-lengths
(->> "a quick brown fox jumps" (re-seq #"\w+") (group-by count) (sort-by key) (map (fn [[n ws]] [n (count ws)])))
;; @pl-matrix-transpose
(apply mapv vector [[1 2 3] [4 5 6]])
;; @pl-matrix-multiply
(let [a [[1 2] [3 4]] b [[5 6] [7 8]] cols (apply mapv vector b)] (mapv (fn [row] (mapv #(reduce + (map * row %)) cols)) a))
;; @pl-histogram-strings
(map (fn [[k n]] (str k " " (apply str (repeat n "*")))) (sort (frequencies "abracadabra")))
;; @pl-running-max
(rest (reductions max 0 [3 1 4 1 5 9 2 6]))
;; @pl-moving-average
(map #(/ (reduce + %) (count %)) (partition 3 1 [1 2 3 4 5 6]))
;; @pl-nested-config-merge
(merge-with (fn [a b] (if (map? a) (merge a b) b)) {"db" {"host" "x" "port" 1} "debug" false} {"db" {"port" 2} "debug" true})
;; @pl-tree-sum
(let [tree {"v" 1 "kids" [{"v" 2 "kids" []} {"v" 3 "kids" [{"v" 4 "kids" []}]}]}] (reduce + (map #(get % "v") (tree-seq #(seq (get % "kids")) #(get % "kids") tree))))
;; @pl-flatten-paths
(defn paths [m prefix] (mapcat (fn [[k v]] (if (map? v) (paths v (conj prefix k)) [[(conj prefix k) v]])) m)) (sort-by first (paths {"a" {"b" 1 "c" {"d" 2}} "e" 3} []))
;; @pl-dedupe-by-key
(vals (reduce (fn [m r] (if (contains? m (get r "k")) m (assoc m (get r "k") r))) {} [{"k" 1 "v" "a"} {"k" 2 "v" "b"} {"k" 1 "v" "c"}]))
;; @pl-top-n-per-group
(def orders [{"id" 1 "customer" "acme" "status" "paid" "amount" 12.5 "items" 2 "region" "eu"}
             {"id" 2 "customer" "globex" "status" "open" "amount" 99.0 "items" 5 "region" "us"}
             {"id" 3 "customer" "acme" "status" "paid" "amount" 40.25 "items" 1 "region" "eu"}
             {"id" 4 "customer" "initech" "status" "refunded" "amount" 15.0 "items" 3 "region" "us"}
             {"id" 5 "customer" "globex" "status" "paid" "amount" 7.75 "items" 1 "region" "apac"}
             {"id" 6 "customer" "umbrella" "status" "open" "amount" 250.0 "items" 10 "region" "eu"}
             {"id" 7 "customer" "acme" "status" "paid" "amount" 3.0 "items" 1 "region" "us"}])
(update-vals (group-by #(get % "customer") orders) (fn [os] (mapv #(get % "id") (take 2 (sort-by #(get % "amount") > os)))))
;; @pl-pivot
(def orders [{"id" 1 "customer" "acme" "status" "paid" "amount" 12.5 "items" 2 "region" "eu"}
             {"id" 2 "customer" "globex" "status" "open" "amount" 99.0 "items" 5 "region" "us"}
             {"id" 3 "customer" "acme" "status" "paid" "amount" 40.25 "items" 1 "region" "eu"}
             {"id" 4 "customer" "initech" "status" "refunded" "amount" 15.0 "items" 3 "region" "us"}
             {"id" 5 "customer" "globex" "status" "paid" "amount" 7.75 "items" 1 "region" "apac"}
             {"id" 6 "customer" "umbrella" "status" "open" "amount" 250.0 "items" 10 "region" "eu"}
             {"id" 7 "customer" "acme" "status" "paid" "amount" 3.0 "items" 1 "region" "us"}])
(reduce (fn [m o] (assoc-in m [(get o "customer") (get o "status")] (get o "id"))) {} (take 4 orders))
;; @pl-string-template
(let [tpl "Hello {name}, you owe {amount}" vals {"name" "Ann" "amount" "12.50"}] (reduce (fn [s [k v]] (clojure.string/replace s (str "{" k "}") v)) tpl vals))
