;;; Destructuring (target §6): sequential and map patterns in let, fn, loop, for.
;; @ds-vec-basic
(let [[a b c] [1 2 3]] [c b a])
;; @ds-vec-missing
(let [[a b c] [1]] [a b c])
;; @ds-vec-extra
(let [[a b] [1 2 3 4]] [a b])
;; @ds-vec-underscore
(let [[_ b] [1 2]] b)
;; @ds-vec-nested
(let [[a [b c] d] [1 [2 3] 4]] [a b c d])
;; @ds-vec-rest
(let [[x & more] [1 2 3 4]] [x more])
;; @ds-vec-rest-only
(let [[& all] [1 2]] all)
;; @ds-vec-rest-empty
(let [[x & more] [1]] [x more])
;; @ds-vec-nil
(let [[a b] nil] [a b])
;; @ds-vec-as
(let [[a b :as all] [1 2 3]] [a b all])
;; @ds-vec-string
(let [[a b] "xy"] [a b])
;; @ds-vec-string-as
[(let [[a & r :as s] "xyz"] [a r s]) ((fn [[a :as w]] [a w]) "hi") (let [{[p :as q] :k} {:k "pq"}] [p q]) (let [[a :as s] ""] [a s])]
;; @ds-vec-from-seq
(let [[a b] (map inc [1 2 3])] (+ a b))
;; @ds-vec-rest-map
(let [[n & {:keys [verbose]}] [1 :verbose true]] [n verbose])
;; @ds-map-keys
(let [{:keys [a b]} {:a 1 :b 2}] (+ a b))
;; @ds-map-keys-missing
(let [{:keys [a z]} {:a 1}] [a z])
;; @ds-map-strs
(let [{:strs [id name]} {"id" 7 "name" "ann"}] [id name])
;; @ds-map-rename-keyword
(let [{x :a y :b} {:a 1 :b 2}] [x y])
;; @ds-map-rename-string
(let [{id "id" st "status"} {"id" 3 "status" "paid"}] [id st])
;; @ds-map-or
(let [{:keys [a b] :or {b 10}} {:a 1}] [a b])
;; @ds-map-or-present-nil
(let [{:keys [a] :or {a 5}} {:a nil}] a)
;; @ds-map-or-strs
(let [{:strs [n] :or {n 0}} {}] n)
;; @ds-map-as
(let [{:keys [a] :as m} {:a 1 :b 2}] [a (count m)])
;; @ds-map-nested
(let [{{:keys [city]} :address} {:address {:city "Paris"}}] city)
;; @ds-map-nested-strings
(let [{{zip "zip"} "addr"} {"addr" {"zip" "1000"}}] zip)
;; @ds-map-nil
(let [{:keys [a b]} nil] [a b])
;; @ds-map-in-vec
(let [[{:keys [x]} {:keys [y]}] [{:x 1} {:y 2}]] (+ x y))
;; @ds-vec-in-map
(let [{[a b] :pair} {:pair [5 6]}] (* a b))
;; @ds-map-keys-keyword-form
(let [{:keys [:a :b]} {:a 3 :b 4}] (* a b))
;; @ds-map-integer-key
(let [{v 1} {1 :one 2 :two}] v)
;; @ds-fn-params-vec
((fn [[a b]] (+ a b)) [3 4])
;; @ds-fn-params-map
((fn [{:keys [w h]}] (* w h)) {:w 3 :h 5})
;; @ds-fn-params-rest-map
((fn [& {:keys [a b]}] [a b]) :a 1 :b 2)
;; @ds-fn-params-rest-map-or
((fn [x & {:keys [scale] :or {scale 1}}] (* x scale)) 7)
;; @ds-defn-params
(defn area [{:strs [w h]}] (* w h)) (map area [{"w" 2 "h" 3} {"w" 4 "h" 5}])
;; @ds-defn-nested
(defn fullname [{{:keys [first last]} :name}] (str first " " last)) (fullname {:name {:first "Ada" :last "Lovelace"}})
;; @ds-loop-pattern
(loop [[x & xs] [1 2 3 4] acc 0] (if x (recur xs (+ acc x)) acc))
;; @ds-for-entries
(for [[k v] {:a 1 :b 2}] [v k])
;; @ds-for-map-pattern
(for [{:strs [id qty]} [{"id" 1 "qty" 2} {"id" 2 "qty" 5}]] (* id qty))
;; @ds-doseq-pattern
(doseq [[a b] [[1 2] [3 4]]] (println (+ a b)))
;; @ds-let-pattern-from-fn
(let [[q r] ((juxt quot rem) 17 5)] {:q q :r r})
;; @ds-map-entries-reduce
(reduce (fn [acc [k v]] (+ acc v)) 0 {:a 1 :b 2 :c 3})
;; @ds-nested-deep
(let [[[a [b [c]]]] [[1 [2 [3]]]]] [a b c])
;; @ds-map-keys-and-rename
(let [{:keys [a] bee :b} {:a 1 :b 2}] [a bee])
;; @ds-vec-with-map-elements
(let [[{a "a"} {b "b"}] [{"a" 1} {"b" 2}]] [a b])
;; @ds-fn-two-patterns
((fn [[a b] {:keys [c]}] [a b c]) [1 2] {:c 3})
;; @ds-map-or-uses-default-expr
(let [{:keys [n] :or {n 2}} {}] (* n n))
;; @ds-destructure-string-keys-pipeline
(map (fn [{:strs [name age]}] (str name ":" age)) [{"name" "a" "age" 1} {"name" "b" "age" 2}])
;; @ds-vec-rest-nested
(let [[a & [b & [c]]] [1 2 3]] [a b c])
;; @ds-map-as-whole-nil
(let [{:keys [a] :as m} nil] [a m])
;; @ds-vec-as-nested
(let [[[a :as inner] :as outer] [[1 2] 3]] [a inner outer])
;; @ds-keys-flexible-string
(let [{:keys [id]} {"id" 9}] id)
;; @ds-strs-from-keyword-map
(let [{:strs [id]} {:id 9}] id)
;; @ds-keys-snake
(let [{:keys [user-id]} {"user_id" 5}] user-id)
;; @ds-map-pattern-on-vector
(let [{a 0 b 1 c 5 :or {c :none}} [10 20]
      {:keys [x] :as whole} [1 2]]
  [a b c x whole (map (fn [{f 0 s 1}] (+ f s)) [[1 2] [3 4]])])
;; @ds-map-pattern-on-scalar-error
(let [{:keys [id]} "42"] id)
