;; A program using the orders.analytics prelude (examples/preludes/). Run it with
;; `make demo-preludes`, or:
;;   ptc compile examples/preludes -o build/preludes
;;   ptc run examples/prelude_report.clj --prelude build/preludes \
;;       --data examples/orders.json --tools examples/tools.py
(println "namespaces:" (dir))
{:revenue       (orders.analytics/revenue data/orders)
 :refund-rate   (orders.analytics/refund-rate data/orders)
 :by-status     (orders.analytics/status-counts data/orders)
 :top-customers (orders.analytics/customer-report data/orders 3)}
