(ns agent.main
  "The domain-blind manifest entry of seed 001: input {\"task\" t \"agent\" cfg}."
  {:visibility :discoverable :deps [agent.core]})

(defn run
  "Runs agent.core/run-result-value on the input's task and agent configuration and
  completes the workflow with the raw contract-valid value."
  [input]
  (return (agent.core/run-result-value (get input "task") (get input "agent"))))
