(ns kernel
  "Wrappers over the host's kernel capabilities (agent-design §2): mission evaluation, the
  mission API text, the frozen mission inventory, the result-contract check and
  terminal-source checks. The host tools behind them are reserved for this namespace, which
  only the trusted workflow attaches (model programs never see it)."
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

(defn mission-inventory
  "The exact, frozen structured inventory of a mission (the same map on every call of a
  run): its namespaces and prelude exports, its own capabilities with effects and
  signatures, the reserved routes, its data keys with structural types (never values) and
  its numeric limits. The error envelope, as a value, for an unknown mission."
  [mission]
  (unwrap (tool/kernel-mission-inventory {"mission" mission})))

(defn check-terminal-source
  "Checks a program without running it: {:outcome \"valid\"} when it is exactly one top-level
  (return ...) or (fail ...) form that compiles against the mission, else
  {:outcome \"invalid\" :message m}."
  [source mission]
  (tool/kernel-check-source {"source" source "mission" mission}))
