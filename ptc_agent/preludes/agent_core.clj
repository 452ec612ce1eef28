(ns agent.core
  "The agent loop (seed 001): each turn asks the model for exactly one run_ptc_lisp call,
  evaluates the program in the configured mission and either finishes or sends bounded
  feedback for another turn. The trusted failure reporters are host tools reserved for this
  namespace; everything else goes through the support libraries."
  {:visibility :discoverable
   :deps [kernel llm result workflow.event agent.native agent.feedback agent.prompt agent.retry]})

;; ------------------------------------------------------------------ configuration

(def known-options
  "Configuration keys the single-phase entries accept; any other key is rejected."
  #{"model" "mission" "max_turns" "max_program_chars" "max_observation_chars"
    "max_transcript_chars" "consolidate_at_turns_remaining" "result_envelope"})

(def phased-options
  "Keys of run-phased-result-value: phases replace mission and max_turns."
  #{"model" "phases" "max_program_chars" "max_observation_chars"
    "max_transcript_chars" "consolidate_at_turns_remaining" "result_envelope"})

(def phase-keys "Keys one phase map accepts." #{"mission" "max_turns" "instruction" "terminal_only"})

(def max-phases "At most this many phases." 8)

(def max-total-turns "The phases' turn budgets together stay within this." 128)

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

(defn- phases-failure [problem]
  (config-failure {"reason" "invalid-phases" "option" "phases" "problem" problem}))

(defn- non-blank? [v] (and (string? v) (not (blank? v))))

(defn- check-phase
  "One phase map (index i of n) -> {:mission :max-turns :instruction :terminal-only?}."
  [ph i n]
  (let [where (str "phase " (inc i) ": ")]
    (when-not (map? ph) (phases-failure (str where "must be a map, got " (type-tag ph))))
    (when (seq (filter (fn [k] (not (contains? phase-keys k))) (keys ph)))
      (phases-failure (str where "has a key other than mission, max_turns, instruction "
                           "and terminal_only")))
    (let [mission (get ph "mission")
          turns (get ph "max_turns")
          instruction (get ph "instruction")
          terminal (get ph "terminal_only")]
      (when-not (non-blank? mission)
        (phases-failure (str where "mission must be a non-blank string, got " (type-tag mission))))
      (when-not (and (integer? turns) (>= turns 1) (<= turns 128))
        (phases-failure (str where "max_turns must be an integer in 1..128"
                             (if (integer? turns) (str ", got " turns)
                                 (str ", got " (type-tag turns))))))
      (when-not (or (nil? instruction) (non-blank? instruction))
        (phases-failure (str where "instruction must be a non-blank string, got "
                             (type-tag instruction))))
      (when-not (or (nil? terminal) (boolean? terminal))
        (phases-failure (str where "terminal_only must be a boolean, got " (type-tag terminal))))
      (when (and (true? terminal) (< (inc i) n))
        (phases-failure (str where "only the final phase may be terminal_only")))
      {:mission mission :max-turns turns :instruction instruction
       :terminal-only? (true? terminal)})))

(defn- phases-option
  "The validated phases vector (seed 001: non-empty, at most 8, turn sum at most 128)."
  [v]
  (when-not (and (vector? v) (seq v) (<= (count v) max-phases))
    (phases-failure (str "must be a non-empty vector of at most " max-phases " phase maps"
                         (if (vector? v) (str ", got " (count v) " phases")
                             (str ", got " (type-tag v))))))
  (let [n (count v)
        phases (loop [i 0 acc []]
                 (if (< i n)
                   (recur (inc i) (conj acc (check-phase (nth v i) i n)))
                   acc))
        total (reduce + 0 (map (fn [ph] (get ph :max-turns)) phases))]
    (when (> total max-total-turns)
      (phases-failure (str "the phases' max_turns add up to " total ", more than "
                           max-total-turns)))
    phases))

(defn- effective-config
  "Validates the caller's map in the documented order; returns the effective options.
  phased? selects run-phased-result-value's keys (phases instead of mission/max_turns)."
  [cfg phased?]
  (let [cfg (if (nil? cfg) {} cfg)
        allowed (if phased? phased-options known-options)]
    (when-not (map? cfg)
      (config-failure {"option" "config" "type" (type-tag cfg)}))
    (let [unknown (sort (map str (filter (fn [k] (not (contains? allowed k))) (keys cfg))))]
      (when (seq unknown)
        (config-failure {"reason" "unknown-option" "option" (first unknown)})))
    (let [max-turns (if phased? nil (int-option cfg "max_turns" 4 1 128))
          max-program (int-option cfg "max_program_chars" 64000 1 1000000)
          max-observation (int-option cfg "max_observation_chars" 2048 1 65536)
          max-transcript (int-option cfg "max_transcript_chars" 262144 1 1000000)
          mission (if phased?
                    nil
                    (let [m (get cfg "mission")]
                      (cond (nil? m) "default"
                            (non-blank? m) m
                            :else (config-failure {"reason" "invalid-mission" "option" "mission"
                                                   "type" (type-tag m)}))))
          phases (if phased?
                   (phases-option (get cfg "phases"))
                   [{:mission mission :max-turns max-turns :instruction nil
                     :terminal-only? false}])
          max-turns (reduce + 0 (map (fn [ph] (get ph :max-turns)) phases))
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
       :phases phases
       :max-program max-program
       :max-observation max-observation
       :max-transcript max-transcript
       :threshold threshold
       :result-envelope envelope
       :model? (contains? cfg "model")
       :model (get cfg "model")})))

;; ------------------------------------------------------------------ prompt policy

(defn- prompt-failure [reason]
  (tool/kernel-failure {"code" "invalid_prompt" "reason" reason}))

(defn- prompt-state [ph i]
  (let [state (agent.prompt/initial-state {"mission" (get ph :mission)
                                           "max_turns" (get ph :max-turns)
                                           "phase" i})]
    (if (map? state) state (prompt-failure "invalid-initial-state"))))

(defn- system-text
  "The rendered system prompt: a non-blank string; a map is the mission's error envelope."
  [pstate mission]
  (let [system (agent.prompt/render pstate)]
    (cond (non-blank? system) system
          (map? system) (tool/kernel-failure {"code" "mission_unavailable"
                                              "mission" mission
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

(defn- build-request
  "The model request without its messages: the host holds the transcript (llm/transcript)
  and the loop sends each message once, as it is appended."
  [system cfg]
  (merge {"system" system "tools" [agent.native/run-ptc-lisp-tool]}
         (if (get cfg :model?) {"model" (get cfg :model)} {})))

(defn- messages-chars
  "The JSON length of each message, summed (each message is encoded once, when it is new)."
  [messages]
  (reduce + 0 (map (fn [m] (count (json/generate-string m))) messages)))

(defn- check-transcript
  "Fails the workflow before the request is sent when the JSON text of the complete
  prospective request (system, every message, tools, model) is longer than
  max_transcript_chars. The length is kept incrementally, exactly: the request encoded
  with no messages, plus the messages already sent, plus the new ones, plus the commas
  between them. Returns the new messages' length."
  [request state cfg]
  (let [frame (count (json/generate-string (assoc request "messages" [])))
        pending (get state :pending)
        pending-chars (messages-chars pending)
        n (+ (get state :sent-count) (count pending))
        size (+ frame (get state :sent-chars) pending-chars (if (pos? n) (dec n) 0))]
    (when (> size (get cfg :max-transcript))
      (tool/kernel-failure {"code" "runtime_limit_exceeded" "limit" "max_transcript_chars"
                            "value" (get cfg :max-transcript) "size" size}))
    pending-chars))

;; ------------------------------------------------------------------ the loop

(defn- done [outcome] {:done true :outcome outcome})

(defn- turn-limit [reason cfg]
  (done {:status :subject-failure :kind :turn-limit
         :error {"limit" "agent_turns" "value" (get cfg :max-turns) "reason" reason}}))

(defn- current-phase [state] (nth (get-in state [:cfg :phases]) (get state :phase)))

(defn- final-phase? [state]
  (= (inc (get state :phase)) (count (get-in state [:cfg :phases]))))

(defn- phase-notice?
  "True in a non-final phase: its budget notice announces the phase change."
  [state]
  (not (final-phase? state)))

(defn- continue-with [state new-messages]
  (let [turn (get state :turn)
        remaining (agent.retry/remaining turn (get (current-phase state) :max-turns))]
    {:done false
     :state (merge state {:pending (into (get state :pending) new-messages)
                          :prompt (advance-prompt (get state :prompt) (inc turn) remaining)
                          :turn (inc turn)
                          :agent-turn (inc (get state :agent-turn))})}))

(defn- with-user
  "messages followed by a user message of text; merged into a trailing user message."
  [messages text]
  (let [last-msg (last messages)]
    (if (= "user" (get last-msg "role"))
      (conj (vec (butlast messages))
            (assoc last-msg "content" (str (get last-msg "content") "\n\n" text)))
      (conj (vec messages) {"role" "user" "content" text}))))

(defn- next-phase
  "Closes the current phase with action-messages and opens the next one: transition
  message, the next mission's prompt state, a fresh phase turn counter."
  [state action-messages closing?]
  (let [cfg (get state :cfg)
        phases (get cfg :phases)
        i (inc (get state :phase))
        ph (nth phases i)
        phased? (< (inc i) (count phases))
        text (agent.feedback/phase-transition i (count phases) (get ph :mission)
                                              (get ph :instruction) (get ph :max-turns)
                                              cfg phased?)]
    {:done false
     :state (merge state {:pending (into (get state :pending) (with-user action-messages text))
                          :phase i
                          :turn 0
                          :agent-turn (inc (get state :agent-turn))
                          :prompt (nth (get state :prompts) i)
                          :closing? closing?})}))

(defn- non-retryable-failure [ev]
  (done {:status :subject-failure :kind :non-retryable-evaluation
         :error {"code" (str (get ev :kind))}}))

(defn- after-eval [state action ev]
  (let [cfg (get state :cfg)
        turn (get state :turn)
        final? (final-phase? state)
        phased? (phase-notice? state)
        max-turns (get (current-phase state) :max-turns)
        remaining (agent.retry/remaining turn max-turns)
        more? (agent.retry/retry? turn max-turns)
        outcome (str (get ev :outcome))
        feedback (fn [text]
                   (continue-with state (pair action (agent.feedback/with-notice
                                                      text remaining cfg phased?))))
        hand-over (fn [text closing?] (next-phase state (pair action text) closing?))]
    (cond
      ;; the host could not validate a capability's input: a workflow failure, whatever the
      ;; program did afterwards (seed 001, capability-unavailable/input-validation-unavailable)
      (true? (get ev :terminal_host_failure?))
      (tool/kernel-failure {"code" "capability_unavailable"
                            "reason" (str (get ev :terminal_host_failure_reason))})

      ;; a capability's provider refused (denied): correcting the program cannot clear that
      (true? (get ev :terminal_provider_failure?))
      (done {:status :subject-failure :kind :model-program-failed
             :error (if (= outcome "failed") (get ev :value) :terminal-provider-failure)
             :error-ref (if (= outcome "failed") (get ev :value_ref) nil)})

      (= outcome "returned")
      (cond
        (not final?) (hand-over (agent.feedback/phase-return ev cfg) false)
        (get state :validate?)
        (let [check (kernel/validate-result (get ev :value_ref))]
          (cond (true? (get check :valid?))
                (done {:status :returned :value (get ev :value) :value-ref (get ev :value_ref)})
                more? (feedback (agent.feedback/contract check))
                ;; the host revalidates this candidate (by its reference) and reports the
                ;; facts: the candidate itself never enters the diagnostic
                :else (tool/kernel-failure {"code" "result_contract_failed"
                                            "agent_turns" (get cfg :max-turns)
                                            "value_ref" (get ev :value_ref)})))
        :else (done {:status :returned :value (get ev :value) :value-ref (get ev :value_ref)}))

      (= outcome "failed")
      (if (and more? (agent.retry/correctable-capability-failure? ev))
        (feedback (agent.feedback/capability-error (get ev :value)))
        (done {:status :subject-failure :kind :model-program-failed :error (get ev :value)
               :error-ref (get ev :value_ref)}))

      (= outcome "continued")
      (cond more? (feedback (agent.feedback/success ev cfg))
            (not final?) (hand-over (agent.feedback/success ev cfg) false)
            :else (turn-limit "intermediate-result" cfg))

      (or (= outcome "busy") (= outcome "limit_exceeded"))
      (tool/kernel-failure {"code" "evaluation_unavailable" "reason" (str (get ev :reason))})

      (false? (get ev :retryable?))
      (cond (get state :closing?) (non-retryable-failure ev)
            more?
            (let [text (str (agent.feedback/notice remaining cfg phased?) "\n\n"
                            (agent.feedback/evaluation-error ev) "\n"
                            (agent.feedback/mutation-state ev)
                            (agent.feedback/non-retryable))
                  next (continue-with state (pair action text))]
              (assoc-in next [:state :closing?] true))
            (not final?)
            (hand-over (str (agent.feedback/evaluation-error ev) "\n"
                            (agent.feedback/mutation-state ev)
                            (agent.feedback/non-retryable))
                       true)
            :else (non-retryable-failure ev))

      more? (feedback (agent.feedback/evaluation-error ev))
      (not final?) (hand-over (agent.feedback/evaluation-error ev) false)
      :else (turn-limit "evaluation-error" cfg))))

(defn- with-mutation-state
  "A finished loop's outcome carries :mutation-state when any evaluation of the loop left a
  write with an unknown outcome (seed 001: mutation_state indeterminate)."
  [r state]
  (let [m (get state :mutation-state)]
    (if (and m (get r :done)) (assoc-in r [:outcome :mutation-state] m) r)))

(defn- run-program
  "A valid call: in a terminal-only phase the source is checked first (not evaluated when
  it is not exactly one return or fail form); then it is evaluated in the phase's mission."
  [state action]
  (let [cfg (get state :cfg)
        ph (current-phase state)
        turn (get state :turn)
        evaluate (fn []
                   (let [ev (kernel/evaluate {"source" (get action :program)
                                              "mission" (get ph :mission)
                                              "observation_chars" (get cfg :max-observation)})
                         ;; sticky: later turns cannot make an unknown write known
                         state (if (= "indeterminate" (str (get ev :mutation_state)))
                                 (assoc state :mutation-state "indeterminate")
                                 state)]
                     (with-mutation-state (after-eval state action ev) state)))]
    (if (get ph :terminal-only?)
      (let [check (kernel/check-terminal-source (get action :program) (get ph :mission))
            verdict (str (get check :outcome))
            remaining (agent.retry/remaining turn (get ph :max-turns))]
        (cond (= verdict "valid") (evaluate)
              (not= verdict "invalid")
              (tool/kernel-failure {"code" "evaluation_unavailable" "reason" "source-check"})
              (pos? remaining)
              (continue-with state (pair action (agent.feedback/with-budget
                                                 (agent.feedback/terminal-source-required check)
                                                 remaining cfg)))
              :else (turn-limit "terminal-source-required" cfg)))
      (evaluate))))

(defn- step [state]
  (let [cfg (get state :cfg)
        ph (current-phase state)
        turn (get state :turn)
        phased? (phase-notice? state)
        system (system-text (get state :prompt) (get ph :mission))
        request (build-request system cfg)
        pending (get state :pending)
        pending-chars (check-transcript request state cfg)
        response (llm/request-appending (get state :transcript) pending request)
        ;; the new messages are now part of the host's transcript
        state (merge state {:pending [] :sent-chars (+ (get state :sent-chars) pending-chars)
                            :sent-count (+ (get state :sent-count) (count pending))})
        action (agent.native/normalize response (get cfg :max-program) (get cfg :model))
        kind (get action :kind)]
    (workflow.event/annotate
     "agent-action"
     (merge {"turn" (inc (get state :agent-turn)) "kind" (name kind)}
            (if (> (count (get cfg :phases)) 1)
              {"phase" (inc (get state :phase)) "phase_turn" (inc turn)
               "mission" (get ph :mission)}
              {})))
    (cond
      (= kind :provider-failure)
      (done (merge {:status :provider-failure :error (get action :error)}
                   (if (get action :model) {:model (get action :model)} {})))

      ;; terminal, and not a protocol error: no turn could undo a cut response. The cap
      ;; goes with it only when the adapter stated it (the host checks it was recorded)
      (= kind :truncated)
      (let [limit (get action :output-limit)]
        (tool/kernel-failure (merge {"code" "model_output_truncated" "alias" (get action :model)}
                                    (if limit
                                      {"max_tokens" (get limit :value)
                                       "bindings" (get limit :bindings)}
                                      {}))))

      (= kind :protocol-error)
      (let [remaining (agent.retry/remaining turn (get ph :max-turns))
            text (agent.feedback/protocol action cfg)]
        (tool/kernel-protocol-error {})
        (cond (pos? remaining)
              (continue-with state (protocol-messages
                                    action (agent.feedback/with-notice text remaining cfg phased?)))
              (not (final-phase? state)) (next-phase state (protocol-messages action text) false)
              :else (turn-limit "protocol-error" cfg)))

      :else (run-program state action))))

(defn- run-loop [task config validate? phased?]
  (when-not (string? task)
    (config-failure {"reason" "invalid-task" "option" "task" "type" (type-tag task)}))
  (let [cfg (effective-config config phased?)
        phases (get cfg :phases)
        n (count phases)
        ;; every phase's prompt state up front: an unknown mission fails before any request
        prompts (loop [i 0 acc []]
                  (if (< i n)
                    (let [ph (nth phases i)
                          ps (prompt-state ph i)]
                      (system-text ps (get ph :mission))
                      (recur (inc i) (conj acc ps)))
                    acc))
        first-phase (first phases)
        opening (if (get first-phase :instruction)
                  (str task "\n\n" (get first-phase :instruction))
                  task)
        first-message {"role" "user"
                       "content" (agent.feedback/with-notice opening (get first-phase :max-turns)
                                                             cfg (> n 1))}]
    (loop [state {:cfg cfg :prompts prompts :prompt (first prompts) :transcript (llm/transcript)
                  :pending [first-message] :sent-chars 0 :sent-count 0
                  :phase 0 :turn 0 :agent-turn 0 :closing? false :validate? validate?}]
      (if (>= (get state :turn) (get (current-phase state) :max-turns))
        (get (with-mutation-state (turn-limit "turn-limit-exceeded" cfg) state) :outcome)
        (let [r (step state)]
          (if (get r :done)
            (get (with-mutation-state r state) :outcome)
            (recur (get r :state))))))))

;; ------------------------------------------------------------------ entries

(defn- propagate
  "run-value semantics: the value, or a failure of the outer workflow."
  [outcome]
  (let [status (get outcome :status)
        m (get outcome :mutation-state)]
    (cond
      (= status :returned) (get outcome :value)
      (= status :provider-failure)
      (tool/kernel-failure {"code" "llm_provider_failed" "envelope" (get outcome :error)})
      (= (get outcome :kind) :turn-limit)
      (tool/kernel-failure (merge {"code" "turn_limit_exceeded"} (get outcome :error)
                                  (if m {"mutation_state" m} {})))
      ;; a trusted report, not (fail ...): fail is an error inside a pmap/pcalls worker, and
      ;; the caller's own fail maps must not read as the loop's subject failure
      ;; the fail value goes by its host reference: the report carries the exact value
      :else (tool/kernel-failure (merge {"code" "subject_failure"
                                         "kind" (name (get outcome :kind))}
                                        (if (get outcome :error-ref)
                                          {"error_ref" (get outcome :error-ref)}
                                          {"error" (get outcome :error)})
                                        (if m {"mutation_state" m} {}))))))

(defn run-outcome
  "Runs the loop and returns model-attributable completion or failure as data."
  [task config]
  (run-loop task config false false))

(defn run-result-outcome
  "run-outcome, validating each returned candidate against the host's result contract."
  [task config]
  (run-loop task config true false))

(defn run-value
  "Returns the application value; subject and provider failures fail the caller."
  [task config]
  (propagate (run-loop task config false false)))

(defn run-result-value
  "run-value with every returned candidate validated against the result contract."
  [task config]
  (propagate (run-loop task config true false)))

(defn run-phased-result-value
  "Ordered mission phases (config phases instead of mission and max_turns): one retained
  transcript, a phase-local budget, and only the final phase can satisfy the result
  contract. Returns the contract-valid value; failures fail the caller like run-value."
  [task config]
  (propagate (run-loop task config true true)))

(defn run-phased-result-outcome
  "run-phased-result-value with the outcome as data (the Python entries use it)."
  [task config]
  (run-loop task config true true))

(defn run
  "Terminal entry: completes with {:ok true :value v}, or the raw value when result_envelope is false."
  [task config]
  (let [cfg (effective-config config false)
        value (run-value task config)]
    (return (if (get cfg :result-envelope) (result/ok value) value))))
