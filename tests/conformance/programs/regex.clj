;;; Regular expressions (target §9.15) and regex-driven string functions.
;; @re-find-plain
(re-find #"\d+" "abc 123 def 45")
;; @re-find-none
(re-find #"\d+" "abc")
;; @re-find-groups
(re-find #"(\w+)@(\w+)\.com" "mail bob@example.com now")
;; @re-matches-whole
[(re-matches #"\d+" "123") (re-matches #"\d+" "123a")]
;; @re-matches-groups
(re-matches #"(\d{4})-(\d{2})-(\d{2})" "2024-03-15")
;; @re-seq-plain
(re-seq #"\d+" "a1 b22 c333")
;; @re-seq-groups
(re-seq #"(\w)=(\d)" "a=1, b=2")
;; @re-seq-none
(re-seq #"x" "abc")
;; @re-pattern
(re-find (re-pattern "b+") "abbbc")
;; @re-pattern-dynamic
(let [word "cat"] (re-find (re-pattern (str "\\b" word "s?\\b")) "two cats here"))
;; @re-case-insensitive
(re-find #"(?i)hello" "Say HELLO")
;; @re-anchors
[(re-find #"^ab" "abc") (re-find #"^bc" "abc") (re-find #"c$" "abc")]
;; @re-alternation
(re-seq #"cat|dog" "cat dog bird dog")
;; @re-non-greedy
(re-find #"<.+?>" "<a><b>")
;; @re-greedy
(re-find #"<.+>" "<a><b>")
;; @re-lookahead
(re-seq #"\d(?=px)" "1px 2em 3px")
;; @re-named-group-free
(second (re-find #"id:(\d+)" "user id:42 ok"))
;; @re-optional-group
(re-find #"a(b)?c" "ac")
;; @re-char-class
(re-seq #"[aeiou]" "education")
;; @re-negated-class
(apply str (re-seq #"[^aeiou]" "education"))
;; @re-split-regex
(clojure.string/split "one1two22three" #"\d+")
;; @re-replace-regex-all
(clojure.string/replace "2024-01-02" #"-" "/")
;; @re-email-filter
(filter #(re-matches #"[^@\s]+@[^@\s]+\.\w+" %) ["a@b.com" "bad" "c@d.org" "x@y"])
;; @re-extract-numbers-sum
(reduce + (map parse-long (re-seq #"\d+" "3 apples and 14 pears")))
;; @re-unicode-word
(re-seq #"\w+" "hello world_1")
;; @re-dot-newline
(re-find #"a.b" "a\nb")
;; @re-escape-dot
[(re-find #"a\.b" "axb") (re-find #"a\.b" "a.b")]
;; @re-quantifier-range
(re-seq #"\d{2,3}" "1 12 123 1234")
;; @re-whitespace
(re-seq #"\s" "a b\tc")
;; @re-word-boundary
(re-seq #"\bis\b" "this is his island is")
;; @re-find-string-error
(re-find "a" "abc")
;; @re-in-cond
(let [s "ERROR: disk"] (cond (re-find #"^ERROR" s) :error (re-find #"^WARN" s) :warn :else :info))
;; @re-group-parse
(let [[_ k v] (re-matches #"(\w+)=(\d+)" "count=17")] {k (parse-long v)})
;; @re-log-lines
(->> ["GET /a 200" "POST /b 500" "GET /c 404"] (map #(re-matches #"(\w+) (\S+) (\d+)" %)) (map (fn [[_ m p c]] [m (parse-long c)])) (filter #(>= (second %) 400)))
;; @re-find-unicode-escape-pattern
(re-find #"\u00e9+" "caféé!")
;; @re-seq-digits-count
(count (re-seq #"\d" "a1b2c3d4"))
;; @re-matches-nil
(re-matches #"\d+" "12a")
;; @re-split-limit-regex
(clojure.string/split "one  two   three" #"\s+" 2)
;; @re-word-class-unicode
(re-seq #"\w+" "héllo wörld")
;; @re-digit-and-case-unicode
[(re-find #"(?i)É" "é") (re-find #"\d" "٣")]
;; @re-literal-string-escapes
[(re-find #"a\\d" "a1") (re-find #"a\\b" "a\\b")]
;; @re-quote-literal
[(re-find #"\Qa.b\E" "axb a.b") (re-find #"\Qa.b\E" "axb") (re-seq #"x\Q(*)\E+" "x(*)(*) x(*") (re-find #"\Q[a]" "z[a]") (re-find #"[\Q.-\E]+" "a.-.b") (str/replace "1+1=2" #"\Q1+1\E" "two") (re-find (re-pattern (str "\\Q" "$5.00" "\\E")) "cost $5.00 now")]
