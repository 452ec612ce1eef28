(ns agent.main
  "The domain-blind manifest entry of seed 001: input {\"task\" t \"agent\" cfg}."
  {:visibility :discoverable :deps [agent.core]})

(defn run
  "Runs agent.core/run-result-value on the input's task and agent configuration (validated
  like every entry: a bad option fails before any model request) and completes the
  workflow with the raw contract-valid value, without an {:ok :value} envelope. A non-map
  input is reported as an invalid task."
  [input]
  (if (map? input)
    (return (agent.core/run-result-value (get input "task") (get input "agent")))
    (return (agent.core/run-result-value input nil))))
