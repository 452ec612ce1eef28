(ns agent.prompt
  "The replaceable prompt policy of the agent loop (agent-design §3.3, BUD-06).

  (initial-state phase)    phase is {\"mission\" m \"max_turns\" n \"phase\" i}; returns a map.
  (render state)           returns the system prompt: a non-blank string.
  (transition state event) event is {\"type\" \"continue\" \"turn\" t \"turns_remaining\" r};
                           returns the next state map.

  The default renders the mission's Available API once per phase, so the system prompt is
  byte-identical across the turns of a phase and never carries budgets."
  {:visibility :discoverable :deps [kernel]})

(defn initial-state
  "The prompt state of a phase: its mission and the mission's rendered API."
  [phase]
  (let [mission (get phase "mission")]
    {:mission mission :system (kernel/render-api mission)}))

(defn render
  "The system prompt of the state (an error envelope when the mission is unavailable)."
  [state]
  (get state :system))

(defn transition
  "The default policy keeps its state across the turns of a phase."
  [state event]
  state)
