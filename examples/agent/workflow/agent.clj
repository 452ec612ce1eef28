(ns my.agent
  "An example workflow component installed next to the shipped agent library: it runs one
  agent loop and annotates the run's trace with its own steps."
  {:deps [agent.core workflow.event]})

(defn run
  "Runs the agent on input {\"task\" t \"agent\" config}. Returns {:status \"returned\"
  :answer value}; a loop that did not return fails the workflow with its status and kind."
  [input]
  (workflow.event/annotate "workflow-step" {"step" "start"})
  (let [outcome (agent.core/run-outcome (get input "task") (get input "agent"))
        status (name (get outcome :status))]
    (workflow.event/annotate "workflow-step" {"step" "done" "status" status})
    (if (= status "returned")
      {:status status :answer (get outcome :value)}
      (fail {:status status :kind (str (get outcome :kind))}))))
