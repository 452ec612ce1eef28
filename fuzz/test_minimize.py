"""The program minimizer (`fuzz/campaign/minimize.py`): reads every shape the generators
write back to the same text, and shrinks a program to what keeps it failing."""

from __future__ import annotations

import pytest

from fuzz.campaign.minimize import candidates, minimize, read, show
from fuzz.strategies.clojure_programs import generate

ODD = '(let [s "a;b)" c \\) r #"[a-z]+" f #(inc %) q \'(1 2) v #\'x m {:a 1, :b 2} t #{1}] ; note\n  (str s c))'


def test_reads_strings_chars_regexes_prefixes_and_comments() -> None:
    assert show(read(ODD)) == '(let [s "a;b)" c \\) r #"[a-z]+" f #(inc %) q \'(1 2) v #\'x m {:a 1 :b 2} t #{1}] (str s c))'


@pytest.mark.parametrize("bad", ["(a", "(a]", "a)"])
def test_unbalanced_text_is_refused(bad: str) -> None:
    with pytest.raises(ValueError):
        read(bad)


def test_every_generated_program_reads_back_to_itself_modulo_spacing() -> None:
    for src in generate(11, 300):
        again = show(read(src))
        assert read(again) == read(src)


def test_candidates_are_smaller_one_step_reductions() -> None:
    forms = read("(+ 1 (* 2 3))")
    cands = candidates(forms)
    assert "(+ 1)" in cands and "(* 2 3)" in cands and "(+ 1 (* 2))" in cands and "nil" in cands
    assert all(len(c) < len("(+ 1 (* 2 3))") for c in cands)


def test_a_map_loses_whole_entries() -> None:
    assert "{:b 2}" in candidates(read("{:a 1 :b 2}"))
    assert "{1 :b 2}" not in candidates(read("{:a 1 :b 2}"))


def test_minimize_keeps_the_failure_and_counts_tries() -> None:
    src = "(def rows [{:id 1} {:id 2}])\n(let [x 3] {:a (count rows) :b (rem x 0) :c (str \"q\")})"
    calls: list[int] = []

    def still_fails(batch: list[str]) -> list[bool]:
        calls.append(len(batch))
        return ["(rem x 0)" in c for c in batch]

    small, tried = minimize(src, still_fails)
    assert small == "(rem x 0)"
    assert tried == sum(calls) and len(calls) >= 2


def test_minimize_gives_up_on_text_it_cannot_read() -> None:
    assert minimize("(a", lambda b: [True] * len(b)) == ("(a", 0)
