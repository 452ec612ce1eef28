(ns result
  "Result envelopes: {:ok true :value v} and {:ok false :kind k :reason r}."
  {:visibility :discoverable})

(defn ok "A success envelope." [value] {:ok true :value value})

(defn error "A failure envelope." [kind reason] {:ok false :kind kind :reason reason})

(defn ok? "True for a success envelope." [envelope] (true? (get envelope :ok)))
