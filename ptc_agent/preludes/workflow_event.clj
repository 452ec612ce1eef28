(ns workflow.event
  "Events from trusted workflow code (agent-design §2.2): an annotation is recorded in the
  run's trace (docs/agents.md, Trace events) next to the host's own events, and handed to
  the host's on_event callback. The host tool behind it is reserved for this namespace."
  {:visibility :discoverable})

(defn annotate
  "Records one event of type t (a lower-case name such as \"agent-action\" or
  \"workflow-step\"; the host's own run-started, evaluation and run-stopped are refused)
  with data, a flat map of at most 16 scalar fields. Returns true, or the refusal envelope
  as a value: an annotation never fails the run."
  [t data]
  (let [envelope (tool/workflow-annotate {"type" t "data" data})]
    (if (and (map? envelope) (= "ok" (str (get envelope :status))))
      true
      envelope)))
