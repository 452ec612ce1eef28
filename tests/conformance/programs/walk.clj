;;; Tree walking (target §9.17): clojure.walk walk/prewalk/postwalk and friends.
;; @wk-postwalk-inc
(clojure.walk/postwalk #(if (number? %) (inc %) %) [1 [2 {:a 3}]])
;; @wk-prewalk-inc
(clojure.walk/prewalk #(if (number? %) (inc %) %) [1 [2 {:a 3}]])
;; @wk-postwalk-set
(clojure.walk/postwalk #(if (number? %) (* 10 %) %) #{1 2})
;; @wk-postwalk-keys
(clojure.walk/postwalk #(if (keyword? %) (name %) %) {:a {:b 1}})
;; @wk-postwalk-strings-to-upper
(clojure.walk/postwalk #(if (string? %) (clojure.string/upper-case %) %) {"k" ["v" "w"]})
;; @wk-prewalk-replace-map
(clojure.walk/prewalk #(if (and (map? %) (contains? % :secret)) (dissoc % :secret) %) {:a {:secret 1 :b 2} :secret 3})
;; @wk-postwalk-sum-vectors
(clojure.walk/postwalk #(if (vector? %) (reduce + (filter number? %)) %) [1 [2 3] [4 [5]]])
;; @wk-walk
(clojure.walk/walk inc #(apply + %) [1 2 3])
;; @wk-walk-map
(clojure.walk/walk (fn [[k v]] [k (* 2 v)]) identity {:a 1 :b 2})
;; @wk-walk-set
(clojure.walk/walk inc identity #{1 2})
;; @wk-walk-scalar
(clojure.walk/walk inc str 5)
;; @wk-alias
(walk/postwalk #(if (nil? %) 0 %) [1 nil [nil 2]])
;; @wk-postwalk-order
(let [seen (clojure.walk/postwalk (fn [x] (if (number? x) (* x 2) x)) [[1 2] [3]])] seen)
;; @wk-prewalk-vector-to-count
(clojure.walk/prewalk #(if (and (vector? %) (every? number? %)) (count %) %) {:a [1 2 3] :b [[1] [2 2]]})
;; @wk-postwalk-identity
(clojure.walk/postwalk identity {:a [1 #{2}] "b" nil})
;; @wk-keywordize
(clojure.walk/keywordize-keys {"a" 1 "b" {"c" 2}})
;; @wk-stringify
(clojure.walk/stringify-keys {:a 1 :b {:c 2}})
;; @wk-postwalk-replace
(clojure.walk/postwalk-replace {:a :x} [:a :b {:a :a}])
;; @wk-prewalk-deep-maps
(clojure.walk/prewalk (fn [x] (if (map? x) (assoc x "seen" true) x)) {"a" {"b" 1}})
;; @wk-postwalk-nil
(clojure.walk/postwalk identity nil)
;; @wk-postwalk-count-nodes
(count (filter number? (flatten (clojure.walk/postwalk #(if (map? %) (vec (vals %)) %) {:a 1 :b {:c 2 :d [3 4]}}))))
;; @wk-keywordize-nested-vectors
(clojure.walk/keywordize-keys {"users" [{"id" 1 "name" "a"} {"id" 2 "name" "b"}]})
;; @wk-keywordize-then-access
(let [m (walk/keywordize-keys {"order" {"total" 42}})] (get-in m [:order :total]))
;; @wk-keywordize-leaves-other-keys
(clojure.walk/keywordize-keys {1 "x" :k "y" "s" {2 "z"}})
;; @wk-keywordize-values-untouched
(clojure.walk/keywordize-keys {"a" "b" "c" ["d" {"e" "f"}]})
;; @wk-stringify-nested
(clojure.walk/stringify-keys {:user {:first-name "Ann" :tags [{:k 1}]}})
;; @wk-stringify-values-untouched
(walk/stringify-keys {:a :b :c [:d]})
;; @wk-keywordize-stringify-roundtrip
(let [m {:a 1 :b {:c [2 {:d 3}]}}] (= m (walk/keywordize-keys (walk/stringify-keys m))))
;; @wk-prewalk-replace
(clojure.walk/prewalk-replace {:a :b} [:a {:a :c} #{:a}])
;; @wk-prewalk-replace-whole-subtree
(clojure.walk/prewalk-replace {[1 2] :pair} [[1 2] [[1 2] 3]])
;; @wk-postwalk-replace-numbers
(walk/postwalk-replace {1 "one" 2 "two"} [1 [2 3] {:k 1}])
;; @wk-postwalk-replace-bottom-up
(clojure.walk/postwalk-replace {[:x] :done :a :x} [[:a]])
;; @wk-postwalk-replace-nil-values
(clojure.walk/postwalk-replace {nil 0} [1 nil [nil 2]])
;; @wk-keywordize-non-name-key-stays-string
(map keyword? (keys (clojure.walk/keywordize-keys {"a b" 1})))
