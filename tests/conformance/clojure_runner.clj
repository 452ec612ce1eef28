;; Oracle side of the differential conformance suite (tests/conformance/).
;;
;; Usage: java -cp clojure.jar clojure.main clojure_runner.clj BATCH
;;
;; BATCH holds one EDN vector ["id" "source"] per program. Each program is read as
;; (do <source>) and evaluated in a fresh namespace (so defs never leak between
;; programs) that refers clojure.core and aliases str/string, set and walk. For every
;; program one line is printed, an EDN vector:
;;   ["id" :ok "<pr-str of the value>" "<captured *out*>"]
;;   ["id" :error "<exception class name>" "<captured *out*>"]
;; The value is printed inside the worker's try, so a lazy sequence that throws while
;; being realised counts as an error, as it would for our eager runtime.
(require 'clojure.edn 'clojure.string 'clojure.set 'clojure.walk)

(defn- fresh-ns [i]
  (let [n (create-ns (symbol (str "conformance.p" i)))]
    (binding [*ns* n]
      (clojure.core/refer 'clojure.core)
      (alias 'str 'clojure.string)
      (alias 'string 'clojure.string)
      (alias 'set 'clojure.set)
      (alias 'walk 'clojure.walk))
    n))

(defn- run-one [i [id src]]
  (let [out (java.io.StringWriter.)
        res (binding [*out* out
                      *err* (java.io.StringWriter.)
                      *ns* (fresh-ns i)
                      *print-length* nil
                      *print-level* nil]
              (try
                (let [v (eval (read-string (str "(do " src "\n)")))]
                  [:ok (pr-str v)])
                (catch Throwable t
                  [:error (.getName (class t))])))]
    [id (first res) (second res) (str out)]))

(defn -main [path]
  (with-open [r (java.io.PushbackReader. (clojure.java.io/reader path))]
    (loop [i 0]
      (let [entry (clojure.edn/read {:eof ::eof} r)]
        (when-not (= entry ::eof)
          (binding [*print-length* nil *print-level* nil]
            (println (pr-str (run-one i entry))))
          (remove-ns (symbol (str "conformance.p" i)))
          (recur (inc i)))))
    (flush)))

(apply -main *command-line-args*)
