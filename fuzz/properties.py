"""The signature fuzz properties, as plain (strategy, check) pairs.

Both the pytest suite (`fuzz/test_signature_properties.py`, CI profile) and the campaign
(`python -m fuzz signatures`, `fuzz/cli.py`) wrap these in `hypothesis.given`.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import jsonschema  # type: ignore[import-untyped]
from hypothesis import strategies as st

from fuzz.strategies import sigs as gen
from fuzz.strategies.oracle import accepts, path_exists
from ptc_compiler import signatures as sigs
from ptc_compiler.signatures import MapOf, Signature, SigType, ValidationError
from ptc_runtime.contracts.errors import (
    MAX_ERRORS,
    MAX_MESSAGE_BYTES,
    MAX_PATH_SEGMENTS,
    MAX_RENDERED_BYTES,
    MAX_SEGMENT_BYTES,
)


@dataclass(frozen=True)
class Property:
    name: str
    doc: str
    strategy: st.SearchStrategy[Any]
    check: Callable[[Any], None]


def _params_map(s: Signature) -> MapOf:
    return MapOf(s.params)


# ---------------------------------------------------------------- 1. parse ∘ render


_WS_RUNS = (" ", "\t", "\n", "\r", "  ", " \n\t")


@st.composite
def _sig_and_noisy_text(draw: st.DrawFn) -> tuple[Signature, str]:
    s = draw(
        gen.signatures(
            st.one_of(gen.sig_types(), gen.sig_types(), gen.sig_types(), gen.deep_types())
        )
    )
    rnd = draw(st.randoms(use_true_random=False))
    text = sigs.render(s)
    out = [rnd.choice(_WS_RUNS) if rnd.random() < 0.5 else ""]
    for i, ch in enumerate(text):
        if ch == " ":  # a canonical space: any whitespace run, or none beside punctuation
            prev, nxt = text[i - 1], text[i + 1]
            droppable = prev in ",>([{" or nxt in "-)]}"
            out.append("" if droppable and rnd.random() < 0.5 else rnd.choice(_WS_RUNS))
        else:
            out.append(ch)
            if ch in "([{," and rnd.random() < 0.25:
                out.append(rnd.choice(_WS_RUNS))
    if rnd.random() < 0.5:
        out.append(rnd.choice(_WS_RUNS))
    return s, "".join(out)


def check_parse_render(arg: tuple[Signature, str]) -> None:
    s, noisy = arg
    text = sigs.render(s)
    assert sigs.parse(text) == s
    assert sigs.render(sigs.parse(text)) == text
    assert sigs.parse(noisy) == s
    if not s.params:
        assert sigs.parse(sigs.render_type(s.output)) == s


# ---------------------------------------------------------------- 2. never raises + bounds


def _bounded(errors: list[ValidationError]) -> None:
    assert isinstance(errors, list) and len(errors) <= MAX_ERRORS
    for e in errors:
        assert isinstance(e, ValidationError)
        assert len(e.path) <= MAX_PATH_SEGMENTS
        for seg in e.path:
            assert isinstance(seg, int) or len(seg.encode("utf-8", "surrogatepass")) <= (
                MAX_SEGMENT_BYTES
            )
        assert len(e.message.encode("utf-8", "surrogatepass")) <= MAX_MESSAGE_BYTES
        rendered = e.render("ns/" + "f" * 5000, "output")
        assert len(rendered.encode("utf-8", "surrogatepass")) <= MAX_RENDERED_BYTES


def check_never_raises(arg: tuple[Signature, object]) -> None:
    s, v = arg
    out = sigs.validate_output(s, v)
    inp = sigs.validate_input(s, v)
    _bounded(out)
    _bounded(inp)
    assert (out == []) == accepts(s.output, v)
    assert (inp == []) == accepts(_params_map(s), v)


# ---------------------------------------------------------------- 3. conforming values validate


@st.composite
def _sig_conforming(draw: st.DrawFn) -> tuple[Signature, object, object]:
    s = draw(gen.signatures())
    return s, draw(gen.conforming(s.output)), draw(gen.conforming(_params_map(s)))


def check_conforming(arg: tuple[Signature, object, object]) -> None:
    s, out, args = arg
    assert sigs.validate_output(s, out) == []
    assert sigs.validate_input(s, args) == []


# ---------------------------------------------------------------- 4. mutated values fail


@st.composite
def _sig_mutated(draw: st.DrawFn) -> tuple[SigType, object, list[str | int], str]:
    t = draw(st.one_of(gen.sig_types(), gen.signatures().map(_params_map)))
    value, path, kind = draw(gen.mutated(t))
    return t, value, path, kind


def check_mutated(arg: tuple[SigType, object, list[str | int], str]) -> None:
    t, value, path, kind = arg
    errors = sigs.validate_value(t, value)
    if kind == "none":
        assert errors == []
        return
    assert errors, "a broken value validated"
    for e in errors:
        assert path_exists(t, e.path), e.path
        assert list(e.path[: len(path)]) == path, (e.path, path)
    if kind == "missing":
        assert [(e.kind, list(e.path)) for e in errors] == [("missing", path)]


# ---------------------------------------------------------------- 5. determinism


def check_deterministic(arg: tuple[Signature, object]) -> None:
    s, v = arg
    first = sigs.validate_output(s, v)
    assert sigs.validate_output(s, v) == first
    try:
        twin = copy.deepcopy(v)
    except Exception:
        return
    assert sigs.validate_output(sigs.parse(sigs.render(s)), twin) == first


# ---------------------------------------------------------------- 6. bounds under many errors


@st.composite
def _sig_many_errors(draw: st.DrawFn) -> tuple[Signature, object]:
    s = draw(gen.signatures())
    wrong = draw(st.sampled_from(gen.POOL))
    n = draw(st.integers(0, 60))
    shape = draw(st.sampled_from(["list", "map", "wild"]))
    if shape == "list":
        return s, [wrong] * n
    if shape == "map":
        return s, {f"k{i}" * draw(st.integers(1, 80)): wrong for i in range(n)}
    return s, draw(gen.wild_values)


def check_bounds(arg: tuple[Signature, object]) -> None:
    s, v = arg
    _bounded(sigs.validate_output(s, v))
    _bounded(sigs.validate_input(s, v))
    closed = sigs.Signature((), MapOf(s.params, closed=True))
    _bounded(sigs.validate_output(closed, v))


# ---------------------------------------------------------------- 7. JSON Schema differential

_META_CHECKED: set[str] = set()


@st.composite
def _sig_json(draw: st.DrawFn) -> tuple[Signature, object, object]:
    s = draw(gen.signatures())
    return s, draw(gen.json_near(s.output)), draw(gen.json_near(_params_map(s)))


def check_json_schema(arg: tuple[Signature, object, object]) -> None:
    s, out, args = arg
    for side, value in (("output", out), ("input", args)):
        schema = sigs.to_json_schema(s, side=side)  # type: ignore[arg-type]
        key = json.dumps(schema, sort_keys=True)
        if key not in _META_CHECKED:
            jsonschema.Draft202012Validator.check_schema(schema)
            _META_CHECKED.add(key)
        theirs = jsonschema.Draft202012Validator(schema).is_valid(value)
        runtime = sigs.from_public(s, value, side=side)  # type: ignore[arg-type]
        ours = (sigs.validate_input(s, runtime) if side == "input" else
                sigs.validate_output(s, runtime)) == []  # fmt: skip
        assert ours == theirs, (side, schema, value)


# ---------------------------------------------------------------- 8. to_public round trip


@st.composite
def _sig_public(draw: st.DrawFn) -> tuple[Signature, object]:
    s = draw(gen.signatures())
    return s, draw(gen.conforming(s.output))


def check_public_round_trip(arg: tuple[Signature, object]) -> None:
    s, v = arg
    pub = sigs.to_public(v)
    json.dumps(pub)  # JSON-shaped
    assert sigs.to_public(pub) == pub  # idempotent
    back = sigs.from_public(s, pub)
    assert sigs.validate_output(s, back) == []
    assert sigs.to_public(back) == pub


_sig_wild = st.tuples(gen.signatures(), gen.wild_values)

PROPERTIES: tuple[Property, ...] = (
    Property("parse_render", "parse(render(s)) == s, also with random whitespace",
             _sig_and_noisy_text(), check_parse_render),
    Property("never_raises", "validate_* returns bounded errors for any value; agrees with oracle",
             _sig_wild, check_never_raises),
    Property("conforming", "every conforming value (any alias spelling) validates",
             _sig_conforming(), check_conforming),
    Property("mutated", "every mutated value fails, at paths of the signature",
             _sig_mutated(), check_mutated),
    Property("deterministic", "the same input always gives the identical error list",
             _sig_wild, check_deterministic),
    Property("bounds", "error output stays within its bounds under many errors",
             _sig_many_errors(), check_bounds),
    Property("json_schema", "projection is a valid 2020-12 schema agreeing with the validator",
             _sig_json(), check_json_schema),
    Property("public_round_trip", "to_public is JSON-shaped, idempotent, and round-trips",
             _sig_public(), check_public_round_trip),
)  # fmt: skip
