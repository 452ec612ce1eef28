(ns agent.retry
  "Turn arithmetic of the agent loop (agent-design §3.6): the loop retries only while a turn
  of the current phase remains, and never repeats a program by itself."
  {:visibility :discoverable})

(defn remaining
  "Turns left after the current one (turn is 0-based), including none for the current."
  [turn max-turns]
  (- max-turns (inc turn)))

(defn retry?
  "True while another turn remains in the phase."
  [turn max-turns]
  (pos? (remaining turn max-turns)))

(defn text
  "A keyword's name, or the value itself: mission values cross natively, so an envelope's
  status, kind and reason may be keywords or strings."
  [v]
  (if (keyword? v) (name v) v))

(defn correctable-capability-failure?
  "An explicit fail the evaluator proved is the exact, retryable result of the last read-only
  capability call (seed 001, retry and effect safety)."
  [ev]
  (let [v (get ev :value)]
    (and (true? (get ev :capability_failure?))
         (true? (get ev :retryable?))
         (map? v)
         (= "error" (text (get v :status)))
         (string? (text (get v :kind)))
         (string? (text (get v :reason)))
         (boolean? (get v :retryable?)))))

(defn backoff-ms
  "Deterministic exponential backoff for workflows that retry a provider themselves:
  base * 2^attempt, at most max-ms. The loop itself does not retry providers."
  [attempt base max-ms]
  (loop [i 0 ms base]
    (if (or (>= i attempt) (>= ms max-ms))
      (min ms max-ms)
      (recur (inc i) (* 2 ms)))))
