(ns llm
  "The provider-neutral model request (agent-design §2.2). The host tool behind it is
  reserved for this namespace."
  {:visibility :discoverable})

(defn request
  "One model request: the normalised response on success, the error envelope (a value,
  never a failure) otherwise."
  [req]
  (let [envelope (tool/llm-request req)]
    (if (and (map? envelope) (= "ok" (str (get envelope :status))))
      (get envelope :value)
      envelope)))

(defn error?
  "True for a provider error envelope as `request` returns it."
  [response]
  (and (map? response)
       (= "error" (str (get response :status)))
       (contains? response :kind)))
