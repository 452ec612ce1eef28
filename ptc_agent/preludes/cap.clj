(ns cap
  "Capability helpers for mission programs: discovery (list, describe), envelopes and
  pagination. A tool that fails returns {:status \"error\" :kind k :reason r :retryable? b}
  as a value. Discoverable: (dir \"cap\") lists it, the prompt does not, so attaching it
  never hides a mission's own tools from the Available API."
  {:visibility :discoverable})

(defn error?
  "True when v is a capability error envelope."
  [v]
  (and (map? v) (= "error" (str (get v :status))) (contains? v :kind)))

(defn unwrap!
  "The value of an ok envelope; fails the program with the envelope itself when it is an
  error (the exact envelope, so the agent loop can recognise a retryable read failure);
  any other value is returned unchanged."
  [v]
  (cond (error? v) (fail v)
        (and (map? v) (= "ok" (str (get v :status))) (contains? v :value)) (get v :value)
        :else v))

(defn list
  "The mission's own capabilities: [{:name :effect :signature :doc}], without the kernel's
  reserved routes. A safe read."
  []
  (tool/cap-list {}))

(defn describe
  "One capability of the mission by name ({:name :effect :signature :doc}), or nil."
  [capability-name]
  (tool/cap-describe {"name" capability-name}))

(defn fold-pages
  "Folds (f acc item) over the items of a paginated capability, page after page.
  (fetch cursor) is called with nil first, then with each page's :next_cursor while that
  is a string, at most max-pages times. A page is {:items [...] :next_cursor c} or an ok
  envelope of one; an error envelope fails the program with that exact envelope, as
  unwrap! does. Returns {:value acc :pages n :complete? b :cursor c}: complete? is false,
  and cursor the next page's, when max-pages stopped the fold early."
  [fetch f init max-pages]
  (when-not (and (integer? max-pages) (pos? max-pages))
    (fail {:status "error" :kind "protocol_error" :reason "invalid_max_pages"
           :retryable? false}))
  (loop [cursor nil acc init pages 0]
    (let [page (unwrap! (fetch cursor))
          items (get page :items)
          acc (reduce f acc (if (sequential? items) items []))
          next (get page :next_cursor)
          pages (inc pages)]
      (cond (not (string? next)) {:value acc :pages pages :complete? true :cursor nil}
            (>= pages max-pages) {:value acc :pages pages :complete? false :cursor next}
            :else (recur next acc pages)))))
