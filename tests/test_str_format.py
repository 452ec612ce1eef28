"""`(str ...)` with string literals among its parts lowers to `rt_str_format(fmt, parts...)`
(`emit.str_format`, `strings_core.str_format`): the same text, errors (line:column) and
steps as `str` of all the parts."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator

import pytest

from ptc_compiler import api, pr_str
from ptc_compiler.lower import emit
from ptc_runtime.builtins import strings_core
from ptc_runtime.errors import PtcError
from ptc_runtime.values import keyword


@contextlib.contextmanager
def plain_str() -> Iterator[None]:
    saved = emit.str_format
    emit.str_format = lambda args, exprs: None
    try:
        yield
    finally:
        emit.str_format = saved


def _outcome(src: str) -> str:
    res = api.run(src)
    head = f"steps {res.steps} "
    if res.ok:
        return head + "ok " + pr_str(res.value)
    assert res.error is not None
    err = res.error
    return head + f"error {err.kind} {err.code} {err.line}:{err.column}: {err.message}"


def _both(src: str) -> tuple[str, str, str]:
    new = _outcome(src + "\n; format")
    with plain_str():
        api.compile(src + "\n; plain")
        old = _outcome(src + "\n; plain")
    return new, old, api.compile(src + "\n; format").python_source


LITERALS = ['","', '""', '"%"', '"%s"', '"%%"', '"a%sb%"', '"x: "', '"\\n"']
VALUES = [
    *('"s"', '""', '"%s"', '"%d"', '(apply str (repeat 9000 "y"))', "0", "-7", "42"),
    *("999999999999999999", "1000000000000000000", "(reduce * (repeat 500 10))"),
    *("(reduce * (repeat 5000 10))", "1.5", "0.001", "-0.0", "1e7", "1e-5", "##NaN"),
    *("nil", "true", ":k", '[1 "a"]', "{:a 1.5}", "#{2}", "'sym"),
]


def _program(rnd: random.Random) -> str:
    names = ["a", "b", "c"]
    binds = " ".join(f"{n} {rnd.choice(VALUES)}" for n in names)
    parts = [
        rnd.choice(LITERALS) if rnd.random() < 0.5 else rnd.choice(names)
        for _ in range(rnd.randint(2, 7))
    ]
    return f"(let [{binds}]\n  (str {' '.join(parts)}))"


@pytest.mark.parametrize("seed", range(6))
def test_random_str_calls_agree_with_plain_str(seed: int) -> None:
    rnd = random.Random(seed)
    formatted = 0
    for _ in range(80):
        src = _program(rnd)
        new, old, code = _both(src)
        assert new == old, src
        formatted += "rt_str_format(" in code
    assert formatted > 40


@pytest.mark.parametrize(
    "src",
    [
        "(let [x 1] (str x x))",  # no literal
        '(str "a" "b")',  # nothing but literals
        '(str "a")',
        "(let [x 1] (str " + '"a" x ' * 40 + "))",  # more than 64 parts
        '(let [x 1] (str "' + "z" * 9000 + '" x))',  # a literal over the length limit
    ],
)
def test_not_formatted(src: str) -> None:
    assert "rt_str_format" not in api.compile(src).python_source


def test_formats_escape_percent() -> None:
    code = api.compile('(let [x 1] (str "100% of " x "%s"))').python_source
    assert "rt_str_format('100%% of %s%%s', v1_x)" in code
    assert api.run('(let [x 1] (str "100% of " x "%s"))').value == "100% of 1%s"


ATOMS: list[object] = [
    *("", "a", "%s", "%", "x" * 9000, 0, 10**18, 10**18 - 1, -(10**18) + 1, 10**30),
    *(0.5, 1e7, 1e-4, -0.0, float("nan"), None, True, keyword("k"), [1], {"a": 1}),
]


def test_runtime_format_is_str_of_the_parts() -> None:
    rnd = random.Random(3)
    literal_pool = ["", ",", "%", "%%", "%s", "a%sb", "x" * 20]
    for _ in range(3000):
        n = rnd.randint(1, 5)
        values = [rnd.choice(ATOMS) for _ in range(n)]
        literals = [rnd.choice(literal_pool) for _ in range(n + 1)]
        fmt = "%s".join(lit.replace("%", "%%") for lit in literals)
        parts: list[object] = [literals[0]]
        for v, lit in zip(values, literals[1:], strict=True):
            parts += [v, lit]
        assert strings_core._literal_pieces(fmt) == tuple(literals)
        try:
            want = "ok " + strings_core.str_(*parts)
        except PtcError as err:
            want = f"error {err.code}: {err.message}"
        try:
            got = "ok " + strings_core.str_format(fmt, *values)
        except PtcError as err:
            got = f"error {err.code}: {err.message}"
        assert got == want, (fmt, values)
