;;; Slicing, partitioning, reordering and higher-order sequence functions (§9.9, §9.10).
;; @sq-take-drop
[(take 2 [1 2 3]) (drop 2 [1 2 3]) (take 5 [1 2]) (drop 5 [1 2]) (take 0 [1]) (drop 0 [1])]
;; @sq-take-negative
[(take -1 [1 2]) (drop -1 [1 2])]
;; @sq-take-last
[(take-last 2 [1 2 3]) (take-last 5 [1 2]) (take-last 0 [1 2])]
;; @sq-drop-last
[(drop-last [1 2 3]) (drop-last 2 [1 2 3]) (drop-last 5 [1 2])]
;; @sq-take-while
[(take-while pos? [1 2 -1 3]) (drop-while pos? [1 2 -1 3]) (take-while pos? [])]
;; @sq-take-while-set
(take-while #{1 2} [1 2 3 1])
;; @sq-nthrest-nthnext
[(nthrest [1 2 3] 1) (nthnext [1 2 3] 1) (nthnext [1 2] 5) (nthrest [1 2] 5)]
;; @sq-split-at
[(split-at 2 [1 2 3 4]) (split-at 0 [1]) (split-at 9 [1 2])]
;; @sq-split-with
(split-with odd? [1 3 4 5])
;; @sq-partition
[(partition 2 [1 2 3 4 5]) (partition 3 1 [1 2 3 4]) (partition 2 [])]
;; @sq-partition-pad
(partition 3 3 [:x :y] [1 2 3 4])
;; @sq-partition-all
[(partition-all 2 [1 2 3 4 5]) (partition-all 3 1 [1 2 3 4])]
;; @sq-partition-by
(partition-by odd? [1 3 2 4 5 7 6])
;; @sq-partition-by-identity
(partition-by identity "aabbbc")
;; @sq-distinct
[(distinct [1 2 1 3 2]) (distinct []) (distinct [1 1.0])]
;; @sq-dedupe
(dedupe [1 1 2 2 2 3 1 1])
;; @sq-reverse
[(reverse [1 2 3]) (reverse []) (reverse nil)]
;; @sq-reverse-string
(apply str (reverse "hello"))
;; @sq-flatten
[(flatten [1 [2 [3 4]] [[5]]]) (flatten []) (flatten nil)]
;; @sq-flatten-maps-leaves
(flatten [1 {:a [2]} [3 #{4}]])
;; @sq-interleave
[(interleave [1 2 3] [:a :b :c]) (interleave [1 2] [:a])]
;; @sq-interpose
[(interpose ", " ["a" "b" "c"]) (interpose 0 [])]
;; @sq-shuffle-free-sort
[(sort [3 1 2]) (sort ["b" "a" "C"]) (sort []) (sort [2.5 1 3])]
;; @sq-sort-comparator
[(sort > [3 1 2]) (sort < [3 1 2]) (sort #(compare %2 %1) [1 3 2])]
;; @sq-sort-stable
(sort-by first [[1 :a] [0 :b] [1 :c] [0 :d]])
;; @sq-sort-nil-first
(sort [3 nil 1])
;; @sq-sort-keywords
(sort [:c :a :b])
;; @sq-sort-vectors
(sort [[1 2] [1] [0 5]])
;; @sq-sort-mixed-error
(sort [1 "a"])
;; @sq-sort-by
[(sort-by count ["ccc" "a" "bb"]) (sort-by - [1 3 2]) (sort-by :n [{:n 2} {:n 1}])]
;; @sq-sort-by-comparator
(sort-by :age > [{:age 30} {:age 50} {:age 40}])
;; @sq-sort-by-string-key-fn
(sort-by #(get % "name") [{"name" "zed"} {"name" "amy"}])
;; @sq-sort-by-juxt
(sort-by (juxt :a :b) [{:a 2 :b 1} {:a 1 :b 2} {:a 1 :b 1}])
;; @sq-map
[(map inc [1 2 3]) (map + [1 2] [10 20]) (map + [1 2 3] [10 20]) (map inc [])]
;; @sq-map-three
(map vector [1 2] [:a :b] ["x" "y"])
;; @sq-map-four
(map + [1] [2] [3] [4])
;; @sq-mapv
(mapv #(* % %) [1 2 3])
;; @sq-map-string
(map int "AB")
;; @sq-map-keyword
(map :name [{:name "a"} {:name "b"} {}])
;; @sq-map-set
(map #{1 2} [1 2 3])
;; @sq-map-map
(map (fn [[k v]] [k (inc v)]) {:a 1 :b 2})
;; @sq-mapcat
[(mapcat reverse [[1 2] [3 4]]) (mapcat #(vector % %) [1 2])]
;; @sq-mapcat-multi
(mapcat vector [1 2] [:a :b])
;; @sq-map-indexed
(map-indexed (fn [i x] [i x]) [:a :b :c])
;; @sq-filter
[(filter even? [1 2 3 4]) (filter even? nil) (filterv odd? [1 2 3])]
;; @sq-filter-map
(filter (fn [[k v]] (> v 1)) {:a 1 :b 2 :c 3})
;; @sq-filter-keyword
(filter :ok [{:ok true :id 1} {:ok false :id 2} {:id 3}])
;; @sq-filter-set
(filter #{"a" "c"} ["a" "b" "c" "d"])
;; @sq-remove
(remove even? [1 2 3 4])
;; @sq-keep
[(keep #(when (odd? %) (* % 10)) [1 2 3]) (keep :a [{:a 1} {:b 2} {:a false}])]
;; @sq-keep-indexed
(keep-indexed (fn [i x] (when (even? i) x)) [:a :b :c :d])
;; @sq-reduce
[(reduce + [1 2 3]) (reduce + 10 [1 2 3]) (reduce + [5]) (reduce + 7 [])]
;; @sq-reduce-empty
(reduce + [])
;; @sq-reduce-empty-mult
(reduce * [])
;; @sq-reduce-init-nil
(reduce conj [] nil)
;; @sq-reduce-map
(reduce (fn [acc [k v]] (assoc acc v k)) {} {:a 1 :b 2})
;; @sq-reduce-string
(reduce (fn [acc c] (str c acc)) "" "abc")
;; @sq-reduce-kv
(reduce-kv (fn [acc k v] (+ acc v)) 0 {:a 1 :b 2 :c 3})
;; @sq-reduce-kv-build
(reduce-kv (fn [m k v] (assoc m v k)) {} {:a 1 :b 2})
;; @sq-reduce-kv-nil
(reduce-kv (fn [acc k v] (+ acc v)) 0 nil)
;; @sq-reduce-kv-vector
(reduce-kv (fn [acc i x] (+ acc (* i x))) 0 [10 20 30])
;; @sq-reduced-free-max
(reduce max [3 9 2 7])
;; @sq-some
[(some #(> % 3) [1 5]) (some #(> % 9) [1 5]) (some nil? [1 nil])]
;; @sq-frequencies
(frequencies ["a" "b" "a" "c" "a"])
;; @sq-frequencies-numbers
(frequencies [1 1.0 2])
;; @sq-group-by
(group-by even? [1 2 3 4 5])
;; @sq-group-by-count
(group-by count ["a" "bb" "c" "dd" "eee"])
;; @sq-group-by-keyword
(group-by :k [{:k 1 :v :a} {:k 2 :v :b} {:k 1 :v :c}])
;; @sq-tree-seq
(tree-seq vector? seq [1 [2 [3]] 4])
;; @sq-tree-seq-maps
(map :id (tree-seq :children :children {:id 1 :children [{:id 2} {:id 3 :children [{:id 4}]}]}))
;; @sq-every
(every? #(< % 10) (range 10))
;; @sq-repeat-bounded
(repeat 3 :x)
;; @sq-range-take
(take 3 (range 10 20))
;; @sq-first-of-filter
(first (filter #(> % 10) [5 15 25]))
;; @sq-count-filter
(count (filter odd? (range 100)))
;; @sq-apply-concat
(apply concat [[1] [2 3] []])
;; @sq-map-nil-fn-result
(map #(get % :x) [{:x 1} {}])
;; @sq-sort-by-desc-then
(->> [{"n" "b" "s" 2} {"n" "a" "s" 2} {"n" "c" "s" 5}] (sort-by #(get % "n")) (sort-by #(get % "s") >) (map #(get % "n")))
;; @sq-reverse-sort
(reverse (sort [3 1 2]))
;; @sq-max-by-reduce
(reduce (fn [a b] (if (> (:v b) (:v a)) b a)) [{:v 1} {:v 9} {:v 3}])
;; @sq-distinct-maps
(distinct [{:a 1} {:a 1} {:a 2}])
;; @sq-second-last-empty
[(second []) (last nil)]
;; @sq-sort-strings-case
(sort ["banana" "Apple" "cherry" "apple"])
;; @sq-map-over-vals-sorted-keys
(map (fn [k] (get {:b 2 :a 1} k)) (sort (keys {:b 2 :a 1})))
;; @sq-partition-with-step-larger
(partition 2 3 [1 2 3 4 5 6 7])
;; @sq-interleave-three
(interleave [1 2] [3 4] [5 6])
;; @sq-reduce-with-index
(reduce + (map-indexed * [1 2 3]))
;; @sq-map-on-string-upper
(apply str (map clojure.string/upper-case "abc"))
;; @sq-filter-not-empty
(filter not-empty ["a" "" "b"])
;; @sq-remove-nil
(remove nil? [1 nil 2 nil])
;; @sq-sort-by-count-desc
(sort-by count > [[1] [1 2 3] [1 2]])
;; @sq-range-reduce
(reduce * (range 1 11))
;; @sq-drop-while-all
(drop-while pos? [1 2 3])
;; @sq-last-of-range
(last (range 7))
;; @sq-reductions-sum
(reductions + [1 2 3 4])
;; @sq-reductions-init
(reductions + 100 [1 2 3])
;; @sq-reductions-empty
[(reductions + []) (reductions + 7 [])]
;; @sq-reductions-conj
(reductions conj [] [:a :b :c])
;; @sq-reductions-running-balance
(let [txs [{:amt 10} {:amt -3} {:amt 5}]] (vec (rest (reductions + 0 (map :amt txs)))))
;; @sq-reductions-count
(count (reductions + (range 100)))
