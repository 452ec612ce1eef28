;;; Arithmetic (target §9.1, §9.2) and number printing. `/` always returns a float here.
;; @ar-add
(+ 1 2 3 4)
;; @ar-add-empty
(+)
;; @ar-add-one
(+ 5)
;; @ar-add-float
(+ 1 2.5)
;; @ar-sub
(- 10 3 2)
;; @ar-negate
(- 5)
;; @ar-mul
(* 2 3 4)
;; @ar-mul-empty
(*)
;; @ar-div-exact
(/ 10 2)
;; @ar-div-float
(/ 7.0 2)
;; @ar-div-one-arg
(/ 4.0)
;; @ar-div-chain
(/ 100.0 2 5)
;; @ar-div-by-zero-int
(/ 1 0)
;; @ar-div-float-by-zero
(/ 1.0 0)
;; @ar-div-neg-float-by-zero
(/ -1.0 0.0)
;; @ar-div-zero-by-zero-float
(/ 0.0 0.0)
;; @ar-div-str
(str (/ 10 4))
;; @ar-inc-dec
[(inc 1) (dec 1) (inc -1) (dec 0.5) (inc 1.5)]
;; @ar-quot
[(quot 17 5) (quot -17 5) (quot 17 -5) (quot -17 -5)]
;; @ar-rem
[(rem 17 5) (rem -17 5) (rem 17 -5) (rem -17 -5)]
;; @ar-mod
[(mod 17 5) (mod -17 5) (mod 17 -5) (mod -17 -5)]
;; @ar-mod-float
(mod 5.5 2)
;; @ar-rem-float
(rem 5.5 2)
;; @ar-quot-zero
(quot 1 0)
;; @ar-mod-zero
(mod 1 0)
;; @ar-abs
[(abs -5) (abs 5) (abs -2.5) (abs 0)]
;; @ar-max-min
[(max 1 5 3) (min 1 5 3) (max -1.5 -2) (min 4)]
;; @ar-max-nil-error
(max 1 nil)
;; @ar-add-nil-error
(+ 1 nil)
;; @ar-add-string-error
(+ 1 "2")
;; @ar-big-int
(* 99999999999 99999999999)
;; @ar-bigint-overflow
(* 9223372036854775807 2)
;; @ar-bigint-promote
(*' 9223372036854775807 2)
;; @ar-inc-overflow
(inc 9223372036854775807)
;; @ar-float-ops
[(+ 0.1 0.2) (* 1.1 1.1) (- 0.3 0.1)]
;; @ar-float-str
(str 0.1 " " 100.0 " " 1.5 " " -2.25)
;; @ar-float-str-large
(str 1.0E7 " " 1234567.0 " " 1.0E20 " " 12345678.9)
;; @ar-float-str-small
(str 0.001 " " 1.0E-4 " " 1.0E-5)
;; @ar-pr-float
(pr-str [1.0 2.50 -0.0 3.14159])
;; @ar-inf
[(* 1e308 10.0) (- (* 1e308 10.0))]
;; @ar-inf-str
(str ##Inf " " ##-Inf " " ##NaN)
;; @ar-inf-pr
(pr-str [##Inf ##-Inf ##NaN])
;; @ar-nan-ops
(+ ##NaN 1)
;; @ar-inf-minus-inf
(+ ##Inf ##-Inf)
;; @ar-inc-float-str
(str (inc 1.0))
;; @ar-double
[(double 3) (double 2.5)]
;; @ar-int-truncate
[(int 3.9) (int -3.9) (int 7)]
;; @ar-long
[(long 3.9) (long -2.1)]
;; @ar-int-char
(int \A)
;; @ar-math-pow
(Math/pow 2 10)
;; @ar-math-sqrt
[(Math/sqrt 16) (Math/sqrt 2)]
;; @ar-math-abs
[(Math/abs -3) (Math/abs -3.5)]
;; @ar-math-floor-ceil
[(Math/floor 3.7) (Math/ceil 3.2) (Math/floor -3.5) (Math/ceil -3.5)]
;; @ar-math-round
[(Math/round 2.5) (Math/round -2.5) (Math/round 2.4)]
;; @ar-math-round-below-half
[(Math/round 0.49999999999999994) (Math/round -0.5) (Math/round -0.49999999999999994) (Math/round 4503599627370495.5) (Math/round -4503599627370495.5)]
;; @ar-math-max-min
[(Math/max 3 7) (Math/min 3 7)]
;; @ar-math-pow-str
(str (Math/pow 2 0.5))
;; @ar-bit-and-or-xor
[(bit-and 12 10) (bit-or 12 10) (bit-xor 12 10)]
;; @ar-bit-not
[(bit-not 0) (bit-not 7)]
;; @ar-bit-shift
[(bit-shift-left 1 10) (bit-shift-right 1024 3) (bit-shift-right -16 2)]
;; @ar-bit-set-clear-flip-test
[(bit-set 0 3) (bit-clear 15 0) (bit-flip 5 1) (bit-test 5 2) (bit-test 5 1)]
;; @ar-bit-and-not
(bit-and-not 15 5)
;; @ar-average
(let [xs [3 5 7 10]] (/ (reduce + xs) (count xs)))
;; @ar-percent
(let [part 37 total 200] (* 100.0 (/ part total)))
;; @ar-rounding-idiom
(/ (Math/round (* 100 3.14159)) 100.0)
;; @ar-compound
(+ (* 2 3) (- 10 (* 4 2)) (quot 9 2))
;; @ar-plus-prime
[(+' 1 2) (-' 5 3) (inc' 1) (dec' 1)]
;; @ar-neg-zero
(str (- 0.0))
;; @ar-large-sum
(reduce + (range 1 10001))
;; @ar-float-sum
(reduce + (map #(/ % 10.0) (range 1 11)))
;; @ar-mixed-compare-sum
(= 6 (+ 1.0 2 3))
;; @ar-mult-float-int
(* 3 0.5)
;; @ar-sub-float
(- 10 0.25 0.25)
;; @ar-integer-division-idiom
[(quot 7 2) (int (/ 7 2))]
;; @ar-parse-long
[(parse-long "42") (parse-long "-7") (parse-long "4.2") (parse-long "x")]
;; @ar-parse-double
[(parse-double "3.5") (parse-double "42") (parse-double "1e3") (parse-double "abc")]
;; @ar-parse-boolean
[(parse-boolean "true") (parse-boolean "false") (parse-boolean "yes")]
;; @ar-parse-long-nil-error
(parse-long nil)
;; @ar-integer-parse-int
(Integer/parseInt "123")
;; @ar-double-parse
(Double/parseDouble "2.5")
;; @ar-exp-str
(str 1e3 " " 2.5e-3)
;; @ar-number-str
(str 1 " " -0 " " 12345678901234567890)
;; @ar-long-int
[(long 42) (long -7) (long 0.5) (long -0.5)]
;; @ar-long-char
(long \A)
;; @ar-long-overflow-error
(long 1e20)
;; @ar-long-max
(long 9223372036854775807)
;; @ar-long-nan
(long ##NaN)
;; @ar-str-smallest-floats
[(str 4.9E-324) (str (- 4.9E-324)) (str (* 2 4.9E-324)) (str 1.5E-323) (str 1.0E-5) (pr-str 4.9E-324)]
;; @ar-rem-float-exact
[(rem 1.0E21 3) (mod 1.0E21 3) (rem 7.5 2) (mod -7.5 2)]
;; @ar-rem-float-negative-zero
[(str (rem -1.5 0.75)) (str (mod -1.5 0.75))]
;; @ar-quot-rem-float-zero-divisor
[(quot 1 0.0) (rem 1 0.0) (mod 1 0.0) (quot 1.5 0.0) (rem 1 -0.0)]
;; @ar-quot-rem-special-dividend
[(quot ##Inf 2) (quot ##NaN 2) (rem ##Inf 2) (mod ##NaN 2)]
;; @ar-rem-infinite-divisor
[(rem 2 ##Inf) (mod 2 ##Inf) (mod -2 ##Inf)]
;; @ar-bit-negative-index-error
(bit-test 5 -1)
;; @ar-parse-int-radix-error
(Integer/parseInt "ff" 16)
;; @ar-compare-nan-error
(compare ##NaN 1)
;; @ar-pow-within-one-ulp
(<= (Math/abs (- (Math/pow 123456789.0 2) 1.524157875019052E16)) 2.0)
;; @ar-plus-as-value-keeps-negative-zero
[(first (map str (map + [-0.0]))) (str (apply + [-0.0])) (str (let [f +] (f -0.0)))]
;; @ar-parse-int-unicode-digits
[(Integer/parseInt "١٢") (Long/parseLong "１２") (Integer/parseInt "-١٢") (parse-long "١٢")]
;; @ar-parse-double-unicode-digits-error
(Double/parseDouble "١٢")
