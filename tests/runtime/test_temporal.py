"""Java dates and times (target §8.5): constructors, methods, printing, ordering, boundaries."""

from __future__ import annotations

import pickle
from typing import Any

import pytest
from builtin_cases import cases, outcome

from ptc_compiler import api, run
from ptc_runtime import seam
from ptc_runtime.convert import to_json_value, to_tool_args
from ptc_runtime.equality import hash_value
from ptc_runtime.temporal import Date, Duration, Instant, LocalDate, parse_instant

D = '(LocalDate/parse "2024-01-31")'
T = '(Instant/parse "2024-01-31T10:00:00Z")'
J = '(Instant/parse "2024-01-31T11:00:00Z")'
W = '(java.util.Date. "Tue Jan 02 10:00:00 GMT 2024")'
H = f"(Duration/between {T} {J})"


def s(src: str) -> str:
    """A case source wrapped in `str`, so the expected value is the canonical text."""
    return f"(str {src})"


LOCAL_DATE = [
    (s(D), '"2024-01-31"'),
    (s('(java.time.LocalDate/parse "2024-02-29")'), '"2024-02-29"'),
    (s('(LocalDate/parse "0000-01-01")'), '"0000-01-01"'),
    (s('(LocalDate/parse "-0001-12-31")'), '"-0001-12-31"'),
    (s('(LocalDate/parse "-12024-03-01")'), '"-12024-03-01"'),
    (s('(LocalDate/parse "+12024-03-01")'), '"+12024-03-01"'),
    (s('(LocalDate/parse "+999999999-12-31")'), '"+999999999-12-31"'),
    (s('(LocalDate/parse "-999999999-01-01")'), '"-999999999-01-01"'),
    ('(LocalDate/parse "+1000000000-01-01")', "!java_domain_error"),
    ('(LocalDate/parse "2023-02-29")', "!java_domain_error"),
    ('(LocalDate/parse "2024-04-31")', "!java_domain_error"),
    ('(LocalDate/parse "2024-13-01")', "!java_domain_error"),
    ('(LocalDate/parse "2024-00-10")', "!java_domain_error"),
    ('(LocalDate/parse "2024-1-31")', "!java_domain_error"),
    ('(LocalDate/parse "+2024-01-31")', "!java_domain_error"),
    ('(LocalDate/parse "12024-01-31")', "!java_domain_error"),
    ('(LocalDate/parse "-0000-01-01")', "!java_domain_error"),
    ('(LocalDate/parse "2024-01-31T10:00")', "!java_domain_error"),
    ('(LocalDate/parse "2024-01-31T10:00:00Z")', "!java_domain_error"),
    ('(LocalDate/parse " 2024-01-31")', "!java_domain_error"),
    ('(LocalDate/parse "2024/01/31")', "!java_domain_error"),
    ('(LocalDate/parse "Jan 31 2024")', "!java_domain_error"),
    ('(LocalDate/parse "２０２４-01-31")', "!java_domain_error"),
    ('(LocalDate/parse "")', "!java_domain_error"),
    ("(LocalDate/parse nil)", "!java_type_error"),
    ("(LocalDate/parse 20240131)", "!java_type_error"),
    ("(LocalDate/parse :2024-01-31)", "!java_type_error"),
    ("(LocalDate/parse)", "!arity_error"),
    ('(LocalDate/format "x")', "!unsupported_java_member"),
    ('(LocalDateTime/parse "2024-01-31T10:00")', "!unsupported_java_class"),
    ('(parse "2024-01-31")', "!unbound_var"),
    # .toEpochDay
    ('(.toEpochDay (LocalDate/parse "1970-01-01"))', "0"),
    (f"(.toEpochDay {D})", "19753"),
    ('(.toEpochDay (LocalDate/parse "1969-12-31"))', "-1"),
    ('(.toEpochDay (LocalDate/parse "-999999999-01-01"))', "-365243219162"),
    (f"(.toEpochDay {T})", "!java_type_error"),
    ('(.toEpochDay "2024-01-31")', "!java_type_error"),
    ("(.toEpochDay nil)", "!java_type_error"),
    # .plusDays / .minusDays
    (s(f"(.plusDays {D} 1)"), '"2024-02-01"'),
    (s(f"(.plusDays {D} 366)"), '"2025-01-31"'),
    (s(f"(.plusDays {D} -31)"), '"2023-12-31"'),
    (s(f"(.minusDays {D} 31)"), '"2023-12-31"'),
    (s(f"(.minusDays {D} -1)"), '"2024-02-01"'),
    (s(f"(.plusDays {D} 1.9)"), '"2024-02-01"'),
    (s(f"(.plusDays {D} -1.9)"), '"2024-01-30"'),
    (s(f"(.plusDays {D} ##NaN)"), '"2024-01-31"'),
    (f"(.plusDays {D} ##Inf)", "!java_type_error"),
    (f"(.minusDays {D} ##-Inf)", "!java_type_error"),
    (f"(.plusDays {D} 1e19)", "!java_type_error"),
    (f"(.plusDays {D} 9223372036854775808)", "!java_type_error"),
    (f"(.plusDays {D} 9223372036854775807)", "!java_domain_error"),
    (f"(.minusDays {D} -9223372036854775808)", "!java_domain_error"),
    ('(.plusDays (LocalDate/parse "+999999999-12-31") 1)', "!java_domain_error"),
    ('(.minusDays (LocalDate/parse "-999999999-01-01") 1)', "!java_domain_error"),
    (f'(.plusDays {D} "1")', "!java_type_error"),
    (f"(.plusDays {D} nil)", "!java_type_error"),
    (f"(.plusDays {D} true)", "!java_type_error"),
    (f"(.plusDays {T} 1)", "!java_type_error"),
    (f"(.minusDays {W} 1)", "!java_type_error"),
    (f"(.plusDays {D})", "!arity_error"),
    (s(f"(-> {D} (.plusDays 3) (.minusDays 1))"), '"2024-02-02"'),
    (
        s(f"(map #(.plusDays {D} %) [0 1])"),
        '"[#object[java.time.LocalDate \\"2024-01-31\\"] '
        '#object[java.time.LocalDate \\"2024-02-01\\"]]"',
    ),
]

IS_BEFORE_AFTER = [
    (f"[(.isBefore {D} (.plusDays {D} 1)) (.isAfter {D} (.plusDays {D} 1))]", "[true false]"),
    (f"[(.isBefore {D} {D}) (.isAfter {D} {D})]", "[false false]"),
    (f"[(.isBefore {T} {J}) (.isAfter {T} {J}) (.isAfter {J} {T})]", "[true false true]"),
    (f"(.isBefore {D} {T})", "!java_type_error"),
    (f"(.isAfter {T} {D})", "!java_type_error"),
    (f"(.isBefore {D} nil)", "!java_type_error"),
    (f'(.isBefore {D} "2025-01-01")', "!java_type_error"),
    (f"(.isBefore {W} {W})", "!java_type_error"),
    (f"(.isAfter {H} {H})", "!java_type_error"),
    (f"(.isBefore nil {D})", "!java_type_error"),
    (f"(.isBefore 1 {D})", "!java_type_error"),
    (
        f"(filter #(.isBefore % {D}) [(.minusDays {D} 1) {D}])",
        '[#object[java.time.LocalDate "2024-01-30"]]',
    ),
]

INSTANT = [
    (s(T), '"2024-01-31T10:00:00Z"'),
    (s('(java.time.Instant/parse "2024-01-31T10:00:00+01:00")'), '"2024-01-31T09:00:00Z"'),
    (s('(Instant/parse "2024-01-31T00:30:00-01:30")'), '"2024-01-31T02:00:00Z"'),
    (s('(Instant/parse "2024-01-31T10:00:00+01:00:30")'), '"2024-01-31T08:59:30Z"'),
    (s('(Instant/parse "2024-01-31T10:00:00-00:00")'), '"2024-01-31T10:00:00Z"'),
    (s('(Instant/parse "2024-01-31T10:00:00+18:00")'), '"2024-01-30T16:00:00Z"'),
    (s('(Instant/parse "2024-01-31T10:00:00.5Z")'), '"2024-01-31T10:00:00.500Z"'),
    (s('(Instant/parse "2024-01-31T10:00:00.123456Z")'), '"2024-01-31T10:00:00.123456Z"'),
    (s('(Instant/parse "2024-01-31T10:00:00.123456789Z")'), '"2024-01-31T10:00:00.123456789Z"'),
    (s('(Instant/parse "2024-01-31T10:00:00.000000001Z")'), '"2024-01-31T10:00:00.000000001Z"'),
    (s('(Instant/parse "2024-01-31T10:00:00.000Z")'), '"2024-01-31T10:00:00Z"'),
    (s('(Instant/parse "2024-01-31T24:00:00Z")'), '"2024-02-01T00:00:00Z"'),
    (s('(Instant/parse "2024-12-31T24:00:00.000Z")'), '"2025-01-01T00:00:00Z"'),
    (s('(Instant/parse "2016-12-31T23:59:60Z")'), '"2016-12-31T23:59:59Z"'),
    (s('(Instant/parse "2016-12-31T23:59:60.25Z")'), '"2016-12-31T23:59:59.250Z"'),
    (s('(Instant/parse "1969-12-31T23:59:59.999Z")'), '"1969-12-31T23:59:59.999Z"'),
    (s('(Instant/parse "+12024-01-31T10:00:00Z")'), '"+12024-01-31T10:00:00Z"'),
    (s('(Instant/parse "-0001-01-01T00:00:00Z")'), '"-0001-01-01T00:00:00Z"'),
    (
        s('(Instant/parse "+1000000000-12-31T23:59:59.999999999Z")'),
        '"+1000000000-12-31T23:59:59.999999999Z"',
    ),
    ('(Instant/parse "+1000000001-01-01T00:00:00Z")', "!java_domain_error"),
    ('(Instant/parse "2024-01-31T24:00:00.1Z")', "!java_domain_error"),
    ('(Instant/parse "2024-01-31T24:01:00Z")', "!java_domain_error"),
    ('(Instant/parse "2024-01-31T10:59:60Z")', "!java_domain_error"),
    ('(Instant/parse "2024-01-31T23:58:60Z")', "!java_domain_error"),
    ('(Instant/parse "2024-01-31T10:60:00Z")', "!java_domain_error"),
    ('(Instant/parse "2024-01-31T25:00:00Z")', "!java_domain_error"),
    ('(Instant/parse "2024-02-30T10:00:00Z")', "!java_domain_error"),
    ('(Instant/parse "2024-01-31T10:00:00.1234567890Z")', "!java_domain_error"),
    ('(Instant/parse "2024-01-31T10:00Z")', "!java_domain_error"),
    ('(Instant/parse "2024-01-31T10:00:00")', "!java_domain_error"),
    # java.time's ISO_INSTANT parses case-insensitively
    (s('(Instant/parse "2024-01-31T10:00:00z")'), '"2024-01-31T10:00:00Z"'),
    (s('(Instant/parse "2024-01-31t10:00:00Z")'), '"2024-01-31T10:00:00Z"'),
    ('(Instant/parse "2024-01-31 10:00:00Z")', "!java_domain_error"),
    ('(Instant/parse "2024-01-31T10:00:00+0100")', "!java_domain_error"),
    ('(Instant/parse "2024-01-31T10:00:00+01")', "!java_domain_error"),
    ('(Instant/parse "2024-01-31T10:00:00+18:01")', "!java_domain_error"),
    ('(Instant/parse "2024-01-31T10:00:00+19:00")', "!java_domain_error"),
    ('(Instant/parse "2024-01-31T10:00:00Z ")', "!java_domain_error"),
    ('(Instant/parse "2024-01-31T10:00:00[UTC]")', "!java_domain_error"),
    ('(Instant/parse "2024-01-31")', "!java_domain_error"),
    ('(Instant/parse "1706695200000")', "!java_domain_error"),
    ("(Instant/parse nil)", "!java_type_error"),
    ("(Instant/parse 1706695200000)", "!java_type_error"),
    ('(Instant/now "x")', "!unsupported_java_member"),
    # .toEpochMilli
    (f"(.toEpochMilli {T})", "1706695200000"),
    ('(.toEpochMilli (Instant/parse "1970-01-01T00:00:00.0019Z"))', "1"),
    ('(.toEpochMilli (Instant/parse "1969-12-31T23:59:59.9995Z"))', "-1"),
    ('(.toEpochMilli (Instant/parse "+300000000-01-01T00:00:00Z"))', "!java_domain_error"),
    ('(.toEpochMilli (Instant/parse "-300000000-01-01T00:00:00Z"))', "!java_domain_error"),
    (f"(.toEpochMilli {D})", "!java_type_error"),
    (f"(.toEpochMilli {W})", "!java_type_error"),
    (f"(.getTime {T})", "!java_type_error"),
]

DURATION = [
    (s(H), '"PT1H"'),
    (s(f"(java.time.Duration/between {J} {T})"), '"PT-1H"'),
    (s(f"(Duration/between {T} {T})"), '"PT0S"'),
    (s(f'(Duration/between {T} (Instant/parse "2024-02-01T12:34:56.5Z"))'), '"PT26H34M56.5S"'),
    (s(f'(Duration/between {T} (Instant/parse "2024-01-31T09:59:59.5Z"))'), '"PT-0.5S"'),
    (s(f'(Duration/between {T} (Instant/parse "2024-01-31T09:58:58.5Z"))'), '"PT-1M-1.5S"'),
    (
        s(f'(Duration/between {T} (Instant/parse "2024-01-31T10:00:00.000000001Z"))'),
        '"PT0.000000001S"',
    ),
    (s(f'(Duration/between {T} (Instant/parse "2024-01-31T10:02:00Z"))'), '"PT2M"'),
    (f"(.toMillis {H})", "3600000"),
    (f'(.toMillis (Duration/between {T} (Instant/parse "2024-01-31T10:00:00.0015Z")))', "1"),
    (f'(.toMillis (Duration/between (Instant/parse "2024-01-31T10:00:00.0015Z") {T}))', "-1"),
    (f'(.toDays (Duration/between {T} (Instant/parse "2024-02-01T22:00:00Z")))', "1"),
    (f'(.toDays (Duration/between (Instant/parse "2024-02-01T22:00:00Z") {T}))', "-1"),
    (f"(.toDays {H})", "0"),
    # Java divides the floored seconds field: -86399.5 s is seconds -86400, so -1 day.
    (f'(.toDays (Duration/between {T} (Instant/parse "2024-01-30T10:00:00.5Z")))', "-1"),
    (f'(.toDays (Duration/between {T} (Instant/parse "2024-01-30T10:00:01Z")))', "0"),
    (
        '(.toMillis (Duration/between (Instant/parse "-999999999-01-01T00:00:00Z")'
        ' (Instant/parse "+999999999-01-01T00:00:00Z")))',
        "!java_domain_error",
    ),
    (
        '(.toDays (Duration/between (Instant/parse "-999999999-01-01T00:00:00Z")'
        ' (Instant/parse "+999999999-01-01T00:00:00Z")))',
        "730484999269",
    ),
    (f"(Duration/between {D} {D})", "!java_type_error"),
    (f"(Duration/between {W} {W})", "!java_type_error"),
    (f"(Duration/between {T} nil)", "!java_type_error"),
    (f'(Duration/between {T} "2024-01-31T11:00:00Z")', "!java_type_error"),
    (f"(Duration/between {T})", "!arity_error"),
    (f"(.toMillis {T})", "!java_type_error"),
    (f"(.toDays {D})", "!java_type_error"),
    ("(.toMillis 5)", "!java_type_error"),
    ("(Duration/ofHours 1)", "!unsupported_java_member"),
    (f"(between {T} {J})", "!unbound_var"),
]

LEGACY_DATE = [
    (f"(.getTime {W})", "1704189600000"),
    (s(W), '"Tue Jan 02 10:00:00 UTC 2024"'),
    ('(.getTime (java.util.Date. "Tue Jan 02 10:00:00 2024"))', "1704189600000"),
    ('(.getTime (java.util.Date. "Tue Jan 02 10:00:00 UTC 2024"))', "1704189600000"),
    ('(.getTime (java.util.Date. "Jan 2 10:00 GMT 2024"))', "1704189600000"),
    ('(.getTime (java.util.Date. "tuesday january 02 10:00:00 gmt 2024"))', "1704189600000"),
    ('(.getTime (java.util.Date. "Tue, 02 Jan 2024 10:00:00 GMT"))', "1704189600000"),
    ('(.getTime (java.util.Date. "2 Jan 2024 10:00:00"))', "1704189600000"),
    ('(.getTime (java.util.Date. "02 Jan 2024"))', "1704153600000"),
    ('(.getTime (java.util.Date. "Tue Jan 02 05:00:00 EST 2024"))', "1704189600000"),
    ('(.getTime (java.util.Date. "Tue Jan 02 06:00:00 EDT 2024"))', "1704189600000"),
    ('(.getTime (java.util.Date. "Tue Jan 02 02:00:00 PST 2024"))', "1704189600000"),
    ('(.getTime (java.util.Date. "Tue Jan 02 11:00:00 GMT+0100 2024"))', "1704189600000"),
    ('(.getTime (java.util.Date. "Tue Jan 02 08:30:00 UTC-01:30 2024"))', "1704189600000"),
    ('(.getTime (java.util.Date. "02 Jan 2024 11:00:00 +0100"))', "1704189600000"),
    ('(.getTime (java.util.Date. "Fri Oct 15 00:00:00 GMT 1582"))', "-12219292800000"),
    ('(.getTime (java.util.Date. "Sat Jan 01 00:00:00 GMT 10000"))', "253402300800000"),
    ('(java.util.Date. "Thu Oct 14 00:00:00 GMT 1582")', "!java_domain_error"),
    ('(java.util.Date. "Tue Feb 30 10:00:00 GMT 2024")', "!java_domain_error"),
    ('(java.util.Date. "Tue Jan 02 24:00:00 GMT 2024")', "!java_domain_error"),
    ('(java.util.Date. "Tue Jan 02 10:00:00 GMT 24")', "!java_domain_error"),
    ('(java.util.Date. "Tue Foo 02 10:00:00 GMT 2024")', "!java_domain_error"),
    ('(java.util.Date. "Tue Jan 02 10:00:00 CET 2024")', "!java_domain_error"),
    ('(java.util.Date. "Tue Jan 02 10:00:00 GMT+2500 2024")', "!java_domain_error"),
    ('(java.util.Date. "2024-01-02T10:00:00Z")', "!java_domain_error"),
    ('(java.util.Date. "2024-01-02")', "!java_domain_error"),
    ('(java.util.Date. "1704189600000")', "!java_domain_error"),
    ('(java.util.Date. "tomorrow")', "!java_domain_error"),
    ('(java.util.Date. "")', "!java_domain_error"),
    # epoch millis, exactly
    ("(.getTime (java.util.Date. 1704189600000))", "1704189600000"),
    ("(.getTime (java.util.Date. 1704189600))", "1704189600"),
    ("(str (java.util.Date. 0))", '"Thu Jan 01 00:00:00 UTC 1970"'),
    ("(str (java.util.Date. -1))", '"Wed Dec 31 23:59:59 UTC 1969"'),
    ("(str (java.util.Date. -12219292800001))", '"Thu Oct 04 23:59:59 UTC 1582"'),
    ("(str (java.util.Date. 253402300800000))", '"Sat Jan 01 00:00:00 UTC 10000"'),
    ("(.getTime (java.util.Date. -9223372036854775808))", "-9223372036854775808"),
    ("(java.util.Date. 9223372036854775808)", "!java_type_error"),
    ("(java.util.Date. 1.5)", "!java_type_error"),
    ("(java.util.Date. 1000.0)", "!java_type_error"),
    ("(java.util.Date. nil)", "!java_type_error"),
    ("(java.util.Date. :now)", "!java_type_error"),
    (f"(java.util.Date. {T})", "!java_type_error"),
    ("(java.util.Date. 1 2)", "!arity_error"),
    ("(Date. 0)", "!unsupported_java_class"),
    ("(java.sql.Date. 0)", "!unsupported_java_class"),
    # now
    ("(pos? (.getTime (java.util.Date.)))", "true"),
    ("(type (java.util.Date.))", ":java_object"),
    ("(<= (System/currentTimeMillis) (.getTime (java.util.Date.)))", "true"),
    # .before / .after
    (f"[(.before (java.util.Date. 0) {W}) (.after (java.util.Date. 0) {W})]", "[true false]"),
    (f"[(.before {W} {W}) (.after {W} {W})]", "[false false]"),
    (f"(.before {W} {T})", "!java_type_error"),
    (f"(.after {T} {T})", "!java_type_error"),
    (f"(.before {D} {D})", "!java_type_error"),
    (f"(.before {W} nil)", "!java_type_error"),
    (f"(.after {W} 0)", "!java_type_error"),
    (f"(.isBefore {W} {W})", "!java_type_error"),
    (f"(.getTime {D})", "!java_type_error"),
    ("(.getTime 5)", "!java_type_error"),
]

PRINTING = [
    (f"(pr-str {D})", '"#object[java.time.LocalDate \\"2024-01-31\\"]"'),
    (f"(pr-str {T})", '"#object[java.time.Instant \\"2024-01-31T10:00:00Z\\"]"'),
    (f"(pr-str {H})", '"#object[java.time.Duration \\"PT1H\\"]"'),
    (f"(pr-str {W})", '"#inst \\"2024-01-02T10:00:00.000-00:00\\""'),
    ("(pr-str (java.util.Date. 1))", '"#inst \\"1970-01-01T00:00:00.001-00:00\\""'),
    (
        f'(str "on " {D} ", at " {T} " for " {H})',
        '"on 2024-01-31, at 2024-01-31T10:00:00Z for PT1H"',
    ),
    (f"(str [{D}])", '"[#object[java.time.LocalDate \\"2024-01-31\\"]]"'),
    (f"(str {{:d {D}}})", '"{:d #object[java.time.LocalDate \\"2024-01-31\\"]}"'),
    (f"(type {D})", ":java_object"),
    (f"(type {T})", ":java_object"),
    (f"(type {H})", ":java_object"),
    (f"[(fn? {D}) (map? {D}) (string? {D}) (some? {D})]", "[false false false true]"),
    ("(str Math/abs)", '"#java[Math/abs]"'),
    ("(pr-str .isBefore)", '"#java[.isBefore]"'),
    (
        "(pr-str [LocalDate/parse java.util.Date.])",
        '"[#java[LocalDate/parse] #java[java.util.Date.]]"',
    ),
    ("(pr-str inc)", '"#function[inc]"'),
    ("(str str/join)", '"#function[join]"'),
]

ORDERING = [
    (f"[(= {D} {D}) (= {D} (.plusDays {D} 0)) (= {D} (.plusDays {D} 1))]", "[true true false]"),
    (
        f'[(= {D} "2024-01-31") (= {T} {D}) (= {W} (java.util.Date. 1704189600000))]',
        "[false false true]",
    ),
    (f'(= {T} (Instant/parse "2024-01-31T11:00:00+01:00"))', "true"),
    (f'(= {H} (Duration/between {J} (Instant/parse "2024-01-31T12:00:00Z")))', "true"),
    (f"(not= {D} (.plusDays {D} 1))", "true"),
    (f"(count (set [{D} (.plusDays {D} 0) (.plusDays {D} 1)]))", "2"),
    (f"(get {{{D} :found}} (.minusDays (.plusDays {D} 1) 1))", ":found"),
    (f"(count (distinct [{T} {T} {J}]))", "2"),
    (f"(frequencies (map str [{D} {D}]))", '{"2024-01-31" 2}'),
    (f"[(compare {D} (.plusDays {D} 1)) (compare {D} {D}) (compare {J} {T})]", "[-1 0 1]"),
    (f"(compare {H} (Duration/between {J} {T}))", "1"),
    (f"(compare (java.util.Date. 0) {W})", "-1"),
    (f"[(compare nil {D}) (compare {D} nil)]", "[-1 1]"),
    (f"(compare {D} {T})", "!type_error"),
    (f"(compare {T} (java.util.Date. 0))", "!type_error"),
    (f"(compare {D} 1)", "!type_error"),
    (f'(compare {D} "2024-01-31")', "!type_error"),
    (
        s(f'(sort [{D} (LocalDate/parse "2023-05-01") (.plusDays {D} 1)])'),
        '"[#object[java.time.LocalDate \\"2023-05-01\\"] #object[java.time.LocalDate '
        '\\"2024-01-31\\"] #object[java.time.LocalDate \\"2024-02-01\\"]]"',
    ),
    (f"(map str (sort :desc [{T} {J}]))", '["2024-01-31T11:00:00Z" "2024-01-31T10:00:00Z"]'),
    # `>` takes numbers only (target §4.4), as a comparator too
    (f"(map str (sort > [{T} {J}]))", "!type_error"),
    (f"(map str (sort :desc [{D} (.plusDays {D} 1)]))", '["2024-02-01" "2024-01-31"]'),
    (f"(map str (sort [{J} nil {T}]))", '["" "2024-01-31T10:00:00Z" "2024-01-31T11:00:00Z"]'),
    (f"(sort [{D} {T}])", "!type_error"),
    (f"(sort [{D} 1])", "!type_error"),
    (
        f"(map :id (sort-by :at [{{:id 1 :at {J}}} {{:id 2 :at {T}}}]))",
        "[2 1]",
    ),
    (f"(map :id (sort-by :at :desc [{{:id 1 :at {T}}} {{:id 2 :at {J}}}]))", "[2 1]"),
    (f"(:id (min-by :at [{{:id 1 :at {J}}} {{:id 2 :at {T}}}]))", "2"),
    (f"(:id (max-by :at [{{:id 1 :at {J}}} {{:id 2 :at {T}}}]))", "1"),
    (f"(str (max-by identity [(.plusDays {D} 2) {D}]))", '"2024-02-02"'),
    (f"(min-by identity [{D} {T}])", "!type_error"),
    (f"(< {D} (.plusDays {D} 1))", "!type_error"),
    (f"(>= {T} {T})", "!type_error"),
    (f"(min {D} (.plusDays {D} 1))", "!type_error"),
    (f"(max {T} {J})", "!type_error"),
    (f"(min-key identity {D} {D})", "!type_error"),
    (f"(max-key identity {T} {J})", "!type_error"),
    (f"(+ {D} 1)", "!type_error"),
]


@cases(LOCAL_DATE)
def test_local_date(src: str, want: str) -> None:
    assert outcome(src) == want


@cases(IS_BEFORE_AFTER)
def test_is_before_after(src: str, want: str) -> None:
    assert outcome(src) == want


@cases(INSTANT)
def test_instant(src: str, want: str) -> None:
    assert outcome(src) == want


@cases(DURATION)
def test_duration(src: str, want: str) -> None:
    assert outcome(src) == want


@cases(LEGACY_DATE)
def test_legacy_date(src: str, want: str) -> None:
    assert outcome(src) == want


@cases(PRINTING)
def test_printing(src: str, want: str) -> None:
    assert outcome(src) == want


@cases(ORDERING)
def test_ordering(src: str, want: str) -> None:
    assert outcome(src) == want


def test_errors_carry_the_java_prefix() -> None:
    for src in ('(LocalDate/parse "x")', "(.getTime 1)", f"(Duration/between {D} {D})"):
        res = run(src)
        assert res.error is not None and res.error.message.startswith("Java interop error: ")
    res = run(f"(.getTime {T})")
    assert res.error is not None and "Instant" in res.error.message
    assert "java.util.Date" in res.error.message


def test_println_shows_temporal_values() -> None:
    # A bare value prints in its #object[...] form (as Clojure's println does).
    out = run(f"(println (str {D}) {H})").output
    assert out.startswith("2024-01-31 #object[java.time.Duration ") and "PT1H" in out


def test_tool_arguments_project_to_canonical_text() -> None:
    seen: list[object] = []

    def tool(args: object) -> str:
        seen.append(args)
        return "ok"

    res = run(
        f"(tool/t {{:day {D} :at [{T}] :span {H} :legacy {W} :keyed {{{D} 1}}}})",
        tools={"t": tool},
    )
    assert res.ok, res.error
    assert seen == [
        {
            "day": "2024-01-31",
            "at": ["2024-01-31T10:00:00Z"],
            "span": "PT1H",
            "legacy": "Tue Jan 02 10:00:00 UTC 2024",
            "keyed": {"2024-01-31": 1},
        }
    ]


def test_public_result_projects_to_canonical_text() -> None:
    rt = api.default_runtime()
    spec = rt.resolve(seam.RunRequest(program=f"{{:d {D} {T} [{H}]}}"))
    res = rt.run(spec)
    assert res.error is None
    assert res.value == {"d": "2024-01-31", "2024-01-31T10:00:00Z": ["PT1H"]}


def test_convert_helpers() -> None:
    day = LocalDate(19753)
    assert to_tool_args({"d": day}) == {"d": "2024-01-31"}
    assert to_json_value([day, {day: Duration(0)}]) == ["2024-01-31", {"2024-01-31": "PT0S"}]


def test_values_are_immutable_hashable_and_picklable() -> None:
    at = parse_instant("2024-01-31T10:00:00.5Z")
    values: list[Any] = [LocalDate(0), at, Duration(-1), Date(0)]
    for v in values:
        with pytest.raises(AttributeError):
            v.days = 1
        assert not hasattr(v, "__dict__")
        assert pickle.loads(pickle.dumps(v)) == v
        assert hash_value(v) == hash_value(pickle.loads(pickle.dumps(v)))
        assert isinstance(type(v).java_class, str)
    assert Instant(at.nanos) == at and Instant(at.nanos) != Duration(at.nanos)
    assert LocalDate(0) != Date(0)


def test_definitions_keep_temporal_values_across_turns() -> None:
    owner = object()
    first = run(f"(def d {D})", state_owner=owner)
    assert first.ok, first.error
    second = run("(str (.plusDays d 1))", state_owner=owner)
    assert second.value == "2024-02-01"


@pytest.mark.parametrize(
    ("src", "kind"),
    [
        ('(inc (LocalDate/parse "2024-01-02"))', "java.time.LocalDate"),
        ('(count (Instant/parse "2024-01-02T00:00:00Z"))', "java.time.Instant"),
        (
            '(first (Duration/between (Instant/parse "2024-01-02T00:00:00Z") (Instant/parse "2024-01-03T00:00:00Z")))',
            "java.time.Duration",
        ),
        ("(inc (java.util.Date. 0))", "java.util.Date"),
    ],
)
def test_type_errors_name_the_java_class(src: str, kind: str) -> None:
    res = run(src)
    assert res.error is not None and res.error.code == "type_error"
    assert f"got {kind}" in res.error.message and "unknown" not in res.error.message
