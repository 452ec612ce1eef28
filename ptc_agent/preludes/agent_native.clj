(ns agent.native
  "The run_ptc_lisp tool schema and the strict normalisation of a model response into one
  loop action (agent-design §3.3 step 5)."
  {:visibility :discoverable :deps [llm]})

(def narration-limit "Assistant narration kept in a protocol correction." 2000)

(def run-ptc-lisp-tool
  "The one tool the model is offered."
  {"name" "run_ptc_lisp"
   "description" "Evaluate one PTC-Lisp program in the mission environment and observe its result."
   "parameters" {"type" "object"
                 "additionalProperties" false
                 "required" ["program"]
                 "properties" {"program" {"type" "string"}}}})

(defn cap-text
  "text cut to limit characters (code points), ending with marker when cut."
  [text limit marker]
  (if (<= (count text) limit)
    text
    (let [keep (- limit (count marker))]
      (if (pos? keep)
        (str (subs text 0 keep) marker)
        (subs marker 0 limit)))))

(defn narration
  "The response's assistant text, bounded, or nil when blank."
  [response]
  (let [content (get response :content)]
    (if (and (string? content) (not (blank? content)))
      (cap-text content narration-limit "...[narration truncated]")
      nil)))

(defn- protocol-error [reason response extra]
  (merge {:kind :protocol-error :reason reason :narration (narration response)} extra))

(defn- check-call [response max-program]
  (let [calls (get response :tool_calls)
        call (first calls)
        args (get call :args)
        program (get args :program)]
    (cond
      (or (nil? calls) (empty? calls))
      (protocol-error (if (narration response) "assistant-text-without-tool-call" "missing-tool-call")
                      response {})
      (not= 1 (count calls)) (protocol-error "multiple-or-missing-tool-calls" response {})
      (not= "run_ptc_lisp" (get call :name)) (protocol-error "wrong-tool-name" response {})
      (or (not (string? (get call :id))) (blank? (get call :id)))
      (protocol-error "invalid-tool-call-id" response {})
      (or (get call :args_error) (not (map? args)))
      (protocol-error "invalid-json-arguments" response {})
      (not (and (= 1 (count args)) (contains? args "program")))
      (protocol-error "extra-or-missing-arguments" response {})
      (not (string? program)) (protocol-error "program-not-string" response {})
      (blank? program) (protocol-error "program-empty" response {})
      ;; program_chars: the host kept only a prefix of a response too large for the
      ;; workflow, and says how long the program was
      (> (or (get call :program_chars) (count program)) max-program)
      (protocol-error "program-too-large" response
                      {:call (dissoc call "program_chars")
                       :size (or (get call :program_chars) (count program))})
      :else {:kind :tool-call :program program :call call :narration (narration response)})))

(def output-limit-bindings
  "What may bind an output cap, in canonical order (seed 001)."
  ["configured" "adapter_default" "model_output_limit" "remaining_context"])

(defn- ordered-bindings?
  "A non-empty vector of distinct binding names in canonical order."
  [bindings]
  (and (vector? bindings) (seq bindings)
       (loop [bs bindings known output-limit-bindings]
         (cond (empty? bs) true
               (empty? known) false
               (= (first bs) (first known)) (recur (rest bs) (rest known))
               :else (recur bs (rest known))))))

(defn output-limit
  "A response's output_limit when it is well-formed (exactly name max_tokens, a positive
  integer value and ordered bindings), else nil: cap metadata that cannot be stated exactly
  is left out, and the truncation stays terminal."
  [response]
  (let [limit (get response :output_limit)]
    (when (and (map? limit) (= 3 (count limit))
               (= "max_tokens" (get limit :name))
               (integer? (get limit :value)) (pos? (get limit :value))
               (ordered-bindings? (get limit :bindings)))
      limit)))

(defn normalize
  "llm/request result -> action: :tool-call, :protocol-error, :truncated or :provider-failure.
  model is the configured alias (nil when none was configured)."
  [response max-program model]
  (cond
    (llm/error? response)
    {:kind :provider-failure :error response
     :model (or (get response :model) (get-in response [:details :alias]) model)}
    (not (map? response)) (protocol-error "invalid-response" {} {:no-assistant true})
    :else
    (let [action (check-call response max-program)]
      (if (and (= :protocol-error (get action :kind))
               (= "length" (get response :finish_reason)))
        {:kind :truncated :model (or (get response :model) model)
         :output-limit (output-limit response)}
        action))))
