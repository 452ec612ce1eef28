;;; Construction, conversion and positional access (target §9.7, §9.8).
;; @co-vector
[(vector) (vector 1 2 3) (vector nil)]
;; @co-list
(list 1 2 3)
;; @co-vec
[(vec [1 2]) (vec (list 1 2)) (vec "ab") (vec nil)]
;; @co-vec-map
(vec {:a 1 :b 2})
;; @co-hash-map
(hash-map :a 1 :b 2)
;; @co-hash-map-dup
(hash-map :a 1 :a 2)
;; @co-hash-set
(hash-set 1 2 2 3)
;; @co-set
[(set [1 2 2 3]) (set #{4}) (set nil)]
;; @co-set-string
(set "abca")
;; @co-seq
[(seq [1 2]) (seq []) (seq nil) (seq "ab")]
;; @co-seq-map
(seq {:a 1})
;; @co-range
[(range 5) (range 2 6) (range 0 10 3) (range 5 0 -1) (range 0)]
;; @co-range-float
(range 0 1 0.25)
;; @co-range-float-step
(range 0 1 0.1)
;; @co-range-neg
(range -3 3)
;; @co-range-empty
(range 5 2)
;; @co-empty
[(empty [1 2]) (empty {:a 1}) (empty #{1}) (empty nil)]
;; @co-into
[(into [] (list 1 2)) (into [1] [2 3]) (into #{} [1 1 2]) (into {} [[:a 1] [:b 2]])]
;; @co-into-map-from-map
(into {:a 1} {:b 2})
;; @co-into-vector-from-map
(into [] {:a 1})
;; @co-into-nil-source
(into [1] nil)
;; @co-conj-vector
(conj [1 2] 3 4)
;; @co-conj-set
(conj #{1} 2 1)
;; @co-conj-map
(conj {:a 1} [:b 2])
;; @co-conj-nil
(conj nil 1)
;; @co-conj-map-merge
(conj {:a 1} {:b 2 :c 3})
;; @co-cons
[(cons 0 [1 2]) (cons 1 nil) (cons 1 (list))]
;; @co-concat
[(concat [1] [2 3]) (concat) (concat nil [1]) (concat [1] nil [2])]
;; @co-concat-map
(concat [[:z 0]] {:a 1})
;; @co-zipmap
[(zipmap [:a :b :c] [1 2 3]) (zipmap [:a :b] [1]) (zipmap [] [])]
;; @co-first-etc
[(first [1 2 3]) (second [1 2 3]) (last [1 2 3]) (first []) (first nil) (last [])]
;; @co-first-string
[(first "abc") (last "abc") (second "a")]
;; @co-first-map
(first {:a 1})
;; @co-rest-next
[(rest [1 2 3]) (rest [1]) (rest []) (rest nil) (next [1 2]) (next [1]) (next nil)]
;; @co-butlast
[(butlast [1 2 3]) (butlast [1]) (butlast [])]
;; @co-ffirst-etc
[(ffirst [[1 2] [3]]) (fnext [1 2 3]) (nfirst [[1 2 3]]) (nnext [1 2 3])]
;; @co-nth
[(nth [10 20 30] 0) (nth [10 20 30] 2) (nth "abc" 1) (nth [1] 5 :missing)]
;; @co-nth-out-of-range-error
(nth [1 2] 5)
;; @co-nth-nil
(nth nil 0)
;; @co-peek-pop
[(peek [1 2 3]) (peek []) (pop [1 2 3])]
;; @co-pop-empty-error
(pop [])
;; @co-get-vector
[(get [1 2 3] 0) (get [1 2 3] 5) (get [1 2 3] 5 :d) (get [1 2 3] -1)]
;; @co-get-map
[(get {:a 1} :a) (get {:a 1} :b) (get {:a 1} :b 0) (get {:a nil} :a 0)]
;; @co-get-nil
[(get nil :a) (get nil :a :d)]
;; @co-get-string-key
(get {"id" 5} "id")
;; @co-get-in
[(get-in {:a {:b {:c 1}}} [:a :b :c]) (get-in {:a 1} [:x :y]) (get-in {:a [1 {:b 2}]} [:a 1 :b])]
;; @co-get-in-default
[(get-in {:a 1} [:b] :dflt) (get-in {:a nil} [:a] :dflt)]
;; @co-get-in-empty-path
(get-in {:a 1} [])
;; @co-get-in-nil-root
(get-in nil [:a])
;; @co-find
[(find {:a 1} :a) (find {:a 1} :b) (find [10 20] 1) (find [10] 5)]
;; @co-count
[(count [1 2]) (count {:a 1}) (count #{}) (count "hello") (count nil)]
;; @co-count-number-error
(count 5)
;; @co-subvec
[(subvec [1 2 3 4 5] 1 3) (subvec [1 2 3] 1) (subvec [1 2 3] 0 0)]
;; @co-subvec-out-of-range-error
(subvec [1 2 3] 2 10)
;; @co-assoc-vector
[(assoc [1 2 3] 1 :x) (assoc [1 2] 2 3)]
;; @co-assoc-vector-out-of-range-error
(assoc [1 2] 5 :x)
;; @co-vector-as-fn
([10 20 30] 1)
;; @co-map-as-fn
[({:a 1} :a) ({:a 1} :b :default)]
;; @co-set-as-fn
[(#{1 2} 2) (#{1 2} 3)]
;; @co-keyword-as-fn
[(:a {:a 1}) (:b {:a 1} :dflt) (:a nil)]
;; @co-nested-vector
(get-in [[1 2] [3 4]] [1 0])
;; @co-update-vector
(update [1 2 3] 0 + 10)
;; @co-list-fns
(let [l (list 3 1 2)] [(first l) (count l) (sort l)])
;; @co-nil-punning
[(map inc nil) (count nil) (take 2 nil) (sort nil) (frequencies nil) (into [] nil) (empty? nil)]
;; @co-assoc-nil
(assoc nil :a 1)
;; @co-merge-nil
(merge nil {:a 1})
;; @co-keys-nil
[(keys nil) (vals nil)]
;; @co-keys-empty
(keys {})
;; @co-conj-empty
(conj)
;; @co-vec-of-set-count
(count (vec #{1 2 3}))
;; @co-into-sorted
(sort (into [] #{3 1 2}))
;; @co-last-of-map-values
(last (vals {:a 1 :b 2}))
;; @co-mixed-key-types
(get {1 :int "1" :str :k :kw} "1")
;; @co-vector-keys
(get {[1 2] :pair} [1 2])
;; @co-bool-keys
(get {true :t false :f} false)
;; @co-map-with-nil-key
(get {nil :nothing} nil)
;; @co-nested-literal
{:a [1 2 {:b #{3}}] "c" nil}
;; @co-empty-literals
[[] {} #{} (list)]
;; @co-vec-equality-after-conj
(= (conj [1 2] 3) [1 2 3])
;; @co-map-1-vs-1.0-key
(count {1 :a 1.0 :b})
;; @co-first-of-map
(first {:a 1})
;; @co-distinct-of-map
(distinct {:a 1 :b 2})
;; @co-get-keyword-as-map
(get :status {:status 1})
