;; A long-lived Clojure oracle for the fuzz campaigns (`fuzz/clojure_diff.py`, ClojureServer).
;;
;; Usage: java -cp clojure.jar clojure.main clojure_server.clj RUNNER
;;
;; RUNNER is the conformance suite's clojure_runner.clj: it is loaded once (on an empty batch),
;; so every program is evaluated by the very function the conformance suite uses. Then each
;; line read from stdin is the path of a batch file in the runner's format; the runner's
;; result lines for it are printed, then the line :ptc.fuzz/batch-end. End of input ends
;; the process, so it never outlives the Python process that started it.
(let [runner (first *command-line-args*)
      empty (java.io.File/createTempFile "ptc-fuzz-empty" ".edn")]
  (try
    (binding [*command-line-args* [(str empty)]]
      (load-file runner))
    (finally (.delete empty))))

(loop []
  (when-let [path (read-line)]
    (-main path)
    (println ":ptc.fuzz/batch-end")
    (flush)
    (recur)))
