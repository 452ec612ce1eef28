(ns agent.core
  "The agent loop (seed 001): each turn asks the model for exactly one run_ptc_lisp call,
  evaluates the program in the configured mission and either finishes or sends bounded
  feedback for another turn. The trusted failure reporters are host tools reserved for this
  namespace; everything else goes through the support libraries."
  {:visibility :discoverable
   :deps [kernel llm result agent.native agent.feedback agent.prompt agent.retry]})

;; ------------------------------------------------------------------ configuration

(def known-options
  "Configuration keys the loop accepts; any other key is rejected."
  #{"model" "mission" "max_turns" "max_program_chars" "max_observation_chars"
    "max_transcript_chars" "consolidate_at_turns_remaining" "result_envelope"})

(defn- type-tag [v]
  (cond (nil? v) "nil"
        (boolean? v) "bool"
        (string? v) "string"
        (float? v) "float"
        (map? v) "map"
        (vector? v) "vector"
        :else "other"))

(defn- config-failure [payload]
  (tool/kernel-failure (merge {"code" "invalid_agent_config"} payload)))

(defn- int-option [cfg key default lo hi]
  (let [v (get cfg key)]
    (cond (nil? v) default
          (integer? v) (if (and (>= v lo) (<= v hi))
                         v
                         (config-failure {"option" key "min" lo "max" hi "value" v}))
          :else (config-failure {"option" key "min" lo "max" hi "type" (type-tag v)}))))

(defn- effective-config
  "Validates the caller's map in the documented order; returns the effective options."
  [cfg]
  (let [cfg (if (nil? cfg) {} cfg)]
    (when-not (map? cfg)
      (config-failure {"option" "config" "type" (type-tag cfg)}))
    (let [unknown (sort (map str (filter (fn [k] (not (contains? known-options k))) (keys cfg))))]
      (when (seq unknown)
        (config-failure {"reason" "unknown-option" "option" (first unknown)})))
    (let [max-turns (int-option cfg "max_turns" 4 1 128)
          max-program (int-option cfg "max_program_chars" 64000 1 1000000)
          max-observation (int-option cfg "max_observation_chars" 2048 1 65536)
          max-transcript (int-option cfg "max_transcript_chars" 262144 1 1000000)
          mission (get cfg "mission")
          mission (cond (nil? mission) "default"
                        (and (string? mission) (not (blank? mission))) mission
                        :else (config-failure {"reason" "invalid-mission" "option" "mission"
                                               "type" (type-tag mission)}))
          threshold (get cfg "consolidate_at_turns_remaining")
          threshold (cond (nil? threshold) nil
                          (and (integer? threshold) (>= threshold 1) (<= threshold max-turns))
                          threshold
                          :else (config-failure
                                 (merge {"reason" "invalid-consolidation-threshold"
                                         "option" "consolidate_at_turns_remaining"
                                         "min" 1 "max" max-turns}
                                        (if (integer? threshold)
                                          {"value" threshold}
                                          {"type" (type-tag threshold)}))))
          envelope (get cfg "result_envelope")
          envelope (cond (nil? envelope) true
                         (boolean? envelope) envelope
                         :else (config-failure {"option" "result_envelope"
                                                "type" (type-tag envelope)}))]
      {:max-turns max-turns
       :max-program max-program
       :max-observation max-observation
       :max-transcript max-transcript
       :mission mission
       :threshold threshold
       :result-envelope envelope
       :model? (contains? cfg "model")
       :model (get cfg "model")})))

;; ------------------------------------------------------------------ prompt policy

(defn- prompt-failure [reason]
  (tool/kernel-failure {"code" "invalid_prompt" "reason" reason}))

(defn- prompt-state [cfg]
  (let [state (agent.prompt/initial-state {"mission" (get cfg :mission)
                                           "max_turns" (get cfg :max-turns)
                                           "phase" 0})]
    (if (map? state) state (prompt-failure "invalid-initial-state"))))

(defn- system-text
  "The rendered system prompt: a non-blank string; a map is the mission's error envelope."
  [pstate cfg]
  (let [system (agent.prompt/render pstate)]
    (cond (and (string? system) (not (blank? system))) system
          (map? system) (tool/kernel-failure {"code" "mission_unavailable"
                                              "mission" (get cfg :mission)
                                              "cause" (str (get system :reason))})
          :else (prompt-failure "invalid-render"))))

(defn- advance-prompt [pstate turn remaining]
  (let [next (agent.prompt/transition pstate {"type" "continue" "turn" turn
                                              "turns_remaining" remaining})]
    (if (map? next) next (prompt-failure "invalid-transition"))))

;; ------------------------------------------------------------------ transcript pieces

(defn- pair [action feedback]
  [{"role" "assistant"
    "content" (or (get action :narration) "")
    "tool_calls" [(get action :call)]}
   {"role" "tool" "tool_call_id" (get-in action [:call :id]) "content" feedback}])

(defn- protocol-messages [action feedback]
  (cond
    (= "program-too-large" (get action :reason)) (pair action feedback)
    (get action :no-assistant) [{"role" "user" "content" feedback}]
    (get action :narration) [{"role" "assistant" "content" (get action :narration)}
                             {"role" "user" "content" feedback}]
    :else [{"role" "user" "content" feedback}]))

(defn- build-request [system messages cfg]
  (merge {"system" system "messages" messages "tools" [agent.native/run-ptc-lisp-tool]}
         (if (get cfg :model?) {"model" (get cfg :model)} {})))

(defn- check-transcript [request cfg]
  (let [size (count (json/generate-string request))]
    (when (> size (get cfg :max-transcript))
      (tool/kernel-failure {"code" "runtime_limit_exceeded" "limit" "max_transcript_chars"
                            "value" (get cfg :max-transcript) "size" size}))))

;; ------------------------------------------------------------------ the loop

(defn- done [outcome] {:done true :outcome outcome})

(defn- turn-limit [reason cfg]
  (done {:status :subject-failure :kind :turn-limit
         :error {"limit" "agent_turns" "value" (get cfg :max-turns) "reason" reason}}))

(defn- continue-with [state new-messages]
  (let [turn (get state :turn)
        cfg (get state :cfg)
        remaining (agent.retry/remaining turn (get cfg :max-turns))]
    {:done false
     :state (merge state {:messages (into (get state :messages) new-messages)
                          :prompt (advance-prompt (get state :prompt) (inc turn) remaining)
                          :turn (inc turn)})}))

(defn- after-eval [state action ev]
  (let [cfg (get state :cfg)
        turn (get state :turn)
        remaining (agent.retry/remaining turn (get cfg :max-turns))
        more? (agent.retry/retry? turn (get cfg :max-turns))
        outcome (str (get ev :outcome))
        feedback (fn [text]
                   (continue-with state (pair action (agent.feedback/with-budget text remaining cfg))))]
    (cond
      (= outcome "returned")
      (if (get state :validate?)
        (let [check (kernel/validate-result (get ev :value_ref))]
          (cond (true? (get check :valid?))
                (done {:status :returned :value (get ev :value) :value-ref (get ev :value_ref)})
                more? (feedback (agent.feedback/contract check))
                :else (tool/kernel-failure {"code" "result_contract_failed"
                                            "agent_turns" (get cfg :max-turns)})))
        (done {:status :returned :value (get ev :value) :value-ref (get ev :value_ref)}))

      (= outcome "failed")
      (if (and more? (agent.retry/correctable-capability-failure? ev))
        (feedback (agent.feedback/capability-error (get ev :value)))
        (done {:status :subject-failure :kind :model-program-failed :error (get ev :value)}))

      (= outcome "continued")
      (if more?
        (feedback (agent.feedback/success ev cfg))
        (turn-limit "intermediate-result" cfg))

      (or (= outcome "busy") (= outcome "limit_exceeded"))
      (tool/kernel-failure {"code" "evaluation_unavailable" "reason" (str (get ev :reason))})

      (false? (get ev :retryable?))
      (cond (get state :closing?)
            (done {:status :subject-failure :kind :non-retryable-evaluation
                   :error {"code" (str (get ev :kind))}})
            more?
            (let [text (str (agent.feedback/budget-notice remaining cfg) "\n\n"
                            (agent.feedback/evaluation-error ev) "\n"
                            (agent.feedback/non-retryable))
                  next (continue-with state (pair action text))]
              (assoc-in next [:state :closing?] true))
            :else
            (done {:status :subject-failure :kind :non-retryable-evaluation
                   :error {"code" (str (get ev :kind))}}))

      more? (feedback (agent.feedback/evaluation-error ev))
      :else (turn-limit "evaluation-error" cfg))))

(defn- step [state]
  (let [cfg (get state :cfg)
        turn (get state :turn)
        system (system-text (get state :prompt) cfg)
        request (build-request system (get state :messages) cfg)
        _ (check-transcript request cfg)
        action (agent.native/normalize (llm/request request) (get cfg :max-program)
                                       (get cfg :model))
        kind (get action :kind)]
    (kernel/annotate {"turn" (inc turn) "kind" (name kind)})
    (cond
      (= kind :provider-failure)
      (done (merge {:status :provider-failure :error (get action :error)}
                   (if (get action :model) {:model (get action :model)} {})))

      (= kind :truncated)
      (tool/kernel-failure {"code" "model_output_truncated" "alias" (get action :model)})

      (= kind :protocol-error)
      (let [remaining (agent.retry/remaining turn (get cfg :max-turns))]
        (tool/kernel-protocol-error {})
        (if (pos? remaining)
          (continue-with state (protocol-messages
                                action (agent.feedback/with-budget
                                        (agent.feedback/protocol action cfg) remaining cfg)))
          (turn-limit "protocol-error" cfg)))

      :else
      (after-eval state action
                  (kernel/evaluate {"source" (get action :program)
                                    "mission" (get cfg :mission)
                                    "observation_chars" (get cfg :max-observation)})))))

(defn- run-loop [task config validate?]
  (let [cfg (effective-config config)
        pstate (prompt-state cfg)
        _ (system-text pstate cfg)
        first-message {"role" "user"
                       "content" (agent.feedback/with-budget task (get cfg :max-turns) cfg)}]
    (loop [state {:cfg cfg :prompt pstate :messages [first-message] :turn 0
                  :closing? false :validate? validate?}]
      (if (>= (get state :turn) (get cfg :max-turns))
        (get (turn-limit "turn-limit-exceeded" cfg) :outcome)
        (let [r (step state)]
          (if (get r :done)
            (get r :outcome)
            (recur (get r :state))))))))

;; ------------------------------------------------------------------ entries

(defn- propagate
  "run-value semantics: the value, or a failure of the outer workflow."
  [outcome]
  (let [status (get outcome :status)]
    (cond
      (= status :returned) (get outcome :value)
      (= status :provider-failure)
      (tool/kernel-failure {"code" "llm_provider_failed" "envelope" (get outcome :error)})
      (= (get outcome :kind) :turn-limit)
      (tool/kernel-failure (merge {"code" "runtime_limit_exceeded"} (get outcome :error)))
      :else (fail {:kind (name (get outcome :kind)) :error (get outcome :error)}))))

(defn run-outcome
  "Runs the loop and returns model-attributable completion or failure as data."
  [task config]
  (run-loop task config false))

(defn run-result-outcome
  "run-outcome, validating each returned candidate against the host's result contract."
  [task config]
  (run-loop task config true))

(defn run-value
  "Returns the application value; subject and provider failures fail the caller."
  [task config]
  (propagate (run-loop task config false)))

(defn run-result-value
  "run-value with every returned candidate validated against the result contract."
  [task config]
  (propagate (run-loop task config true)))

(defn run
  "Terminal entry: completes with {:ok true :value v}, or the raw value when result_envelope is false."
  [task config]
  (let [cfg (effective-config config)
        value (run-value task config)]
    (return (if (get cfg :result-envelope) (result/ok value) value))))
