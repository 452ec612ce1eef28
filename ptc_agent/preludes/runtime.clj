(ns runtime
  "Usage snapshots of the current run (agent-design §2.2): what it has spent and what is
  left of its budgets. In a mission the routes behind them are safe reads; in the trusted
  workflow they report the whole run."
  {:visibility :discoverable})

(defn- unwrap
  "A route answers with its value, or with an error envelope returned as a value."
  [v]
  (if (and (map? v) (= "ok" (str (get v :status))) (contains? v :value))
    (get v :value)
    v))

(defn usage
  "This run's usage so far: subordinate_evaluations, agent_protocol_errors, llm_requests,
  per-alias llm counters, and (in a mission) the capability calls of this evaluation."
  []
  (unwrap (tool/runtime-usage {})))

(defn remaining
  "What is left: run_ms and (in a mission) evaluation_ms of the deadlines, and the
  subordinate_evaluations and llm_requests budgets; nil where there is no limit."
  []
  (unwrap (tool/runtime-remaining {})))
