(ns cap
  "Helpers for capability envelopes in mission programs: a tool that fails returns
  {:status \"error\" :kind k :reason r :retryable? b} as a value."
  {:visibility :prompt})

(defn error?
  "True when v is a capability error envelope."
  [v]
  (and (map? v) (= "error" (str (get v :status))) (contains? v :kind)))

(defn unwrap!
  "The value of an ok envelope; fails the program with the envelope itself when it is an
  error (the exact envelope, so the agent loop can recognise a retryable read failure);
  any other value is returned unchanged."
  [v]
  (cond (error? v) (fail v)
        (and (map? v) (= "ok" (str (get v :status))) (contains? v :value)) (get v :value)
        :else v))
