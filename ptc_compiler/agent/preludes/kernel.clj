(ns kernel
  "Wrappers over the host's kernel capabilities (agent-design §2): mission evaluation, the
  mission API text, the result-contract check, terminal-source checks and annotations. The
  host tools behind them are reserved for this namespace; only the shipped agent preludes
  are attached next to it."
  {:visibility :discoverable})

(defn- unwrap
  "An ok envelope gives its value; an error envelope comes back whole, as a value."
  [envelope]
  (if (and (map? envelope) (= "ok" (str (get envelope :status))))
    (get envelope :value)
    envelope))

(defn evaluate
  "Evaluates a model program in a mission's retained state; returns the evaluation map."
  [request]
  (tool/kernel-eval request))

(defn render-api
  "The system prompt text of a mission (its Available API), or the error envelope."
  [mission]
  (unwrap (tool/kernel-render-api {"mission" mission})))

(defn validate-result
  "Checks a returned candidate (by its host reference) against the result contract."
  [value-ref]
  (tool/kernel-validate-result {"value_ref" value-ref}))

(defn annotate
  "Records one agent-action event; never fails the run."
  [data]
  (tool/kernel-annotate data))

(defn check-terminal-source
  "Checks a program without running it: {:outcome \"valid\"} when it is exactly one top-level
  (return ...) or (fail ...) form that compiles against the mission, else
  {:outcome \"invalid\" :message m}."
  [source mission]
  (tool/kernel-check-source {"source" source "mission" mission}))
