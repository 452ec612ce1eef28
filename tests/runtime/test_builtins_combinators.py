"""Function combinators (target §9.16), through `ptc_compiler.run`."""

from __future__ import annotations

import pytest
from builtin_cases import outcome

from ptc_compiler import run


def cases(table: list[tuple[str, str]]) -> pytest.MarkDecorator:
    """Parametrize over (source, expected pr-str or !code), each source its own id."""
    return pytest.mark.parametrize(("src", "want"), table, ids=[s for s, _ in table])


COMBINATORS = [
    ("(apply + [1 2 3])", "6"),
    ("(apply + 1 2 [3])", "6"),
    ("(apply + nil)", "0"),
    ("(apply + #{1 2})", "3"),
    ('(apply str "abc")', '"abc"'),
    ("(apply vector {:a 1})", "[[:a 1]]"),
    ("(apply :a [{:a 1}])", "1"),
    ("(apply #{1} [1])", "1"),
    ("(apply + 1)", "!type_error"),
    ("(apply nil [1])", "!not_callable"),
    ("(apply inc [1 2])", "!arity_error"),
    ("((comp inc inc) 1)", "3"),
    ("((comp) 5)", "5"),
    ("((comp inc) 5)", "6"),
    ("((comp str +) 1 2)", '"3"'),
    ("((comp #{1} :a) {:a 1})", "1"),
    ("(pr-str (comp inc dec))", '"#function[comp]"'),
    ("((comp nil) 1)", "!not_callable"),
    ("((partial + 1 2) 3)", "6"),
    ("((partial +) 3)", "3"),
    ("((partial {:a 1}) :a)", "1"),
    ("((partial 5) 1)", "!not_callable"),
    ("((complement even?) 1)", "true"),
    ("((complement :a) {:a 1})", "false"),
    ("(filter (complement nil?) [1 nil 2])", "[1 2]"),
    ("((constantly 5) 1 2)", "5"),
    ("((constantly nil))", "nil"),
    ("(map (constantly :x) [1 2])", "[:x :x]"),
    ("((every-pred odd? pos?) 1 3)", "true"),
    ("((every-pred odd? pos?) 1 -3)", "false"),
    ("((every-pred :a) {:a 1})", "true"),
    ("((every-pred odd?))", "true"),
    ("((some-fn :a :b) {:b 2})", "2"),
    ("((some-fn :a :b) {})", "nil"),
    ("((some-fn even?) 1 3)", "false"),
    ("((fnil + 0) nil 2)", "2"),
    ("((fnil + 0 10) nil nil)", "10"),
    ("((fnil + 0 10 100) 1 nil nil)", "111"),
    ("((fnil inc 0) 5)", "6"),
    ("((juxt :a :b) {:a 1 :b 2})", "[1 2]"),
    ("((juxt + *) 2 3)", "[5 6]"),
    ("(map (juxt identity inc) [1 2])", "[[1 2] [2 3]]"),
    ("((juxt 1) 2)", "!not_callable"),
]


@cases(COMBINATORS)
def test_combinators(src: str, want: str) -> None:
    assert outcome(src) == want


def test_fnil_with_four_defaults_is_an_arity_error() -> None:
    # `*defaults` took any count, and (fnil f 1 1 1 1) made a fn (bad-args sweep)
    for src in ("(fnil + 1 1 1 1)", "(apply fnil [+ 1 1 1 1])"):
        res = run(src)
        assert res.error is not None and res.error.code == "arity_error", res
        assert res.error.message == "fnil: wrong number of arguments (5), expected 2 or 3 or 4"
    assert outcome("((fnil + 0 0 0) nil nil nil)") == "0"
