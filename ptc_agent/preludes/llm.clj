(ns llm
  "The provider-neutral model request (agent-design §2.2). The host tools behind it are
  reserved for this namespace."
  {:visibility :discoverable})

(defn- unwrap [envelope]
  (if (and (map? envelope) (= "ok" (str (get envelope :status))))
    (get envelope :value)
    envelope))

(defn request
  "One model request: the normalised response on success, the error envelope (a value,
  never a failure) otherwise."
  [req]
  (unwrap (tool/llm-request req)))

(defn transcript
  "Opens an append-only transcript the host keeps for this run; returns its id. A loop
  that sends its messages through request-appending passes each message to the host once,
  not the whole transcript on every turn."
  []
  (unwrap (tool/llm-transcript {})))

(defn request-appending
  "request with the messages of transcript t followed by new-messages (which the host
  appends to t): req holds everything else (system, tools, model), not messages."
  [t new-messages req]
  (unwrap (tool/llm-request (merge req {"transcript" t "append" new-messages}))))

(defn error?
  "True for a provider error envelope as `request` returns it."
  [response]
  (and (map? response)
       (= "error" (str (get response :status)))
       (contains? response :kind)))
