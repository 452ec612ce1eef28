"""Hand-written adversarial cases found while trying to break the day's fast paths (record
lists, group-by building no groups, user vars as plain names, literal get-in paths, hoisted
reads, `rt_kdash`), each with what the generic path (or Clojure) shows.

Every case here failed once; the comment on each says how.
"""

from __future__ import annotations

from typing import Any

import pytest

from ptc_runtime import records
from tests.outcomes import outcome

#: A fn made in a factory (`mkN`, it captures locals) is named by its qualified name in
#: Python's arity messages (`mk2.<locals>.f1_fn() takes 0 positional arguments ...`): it
#: was reported as `type_error: wrong type of argument` instead of the arity error a fn
#: that captures nothing gives.
CLOSURE_ARITY = [
    ("(let [c 1] ((fn [] c) 2))", "((fn [] 1) 2)"),
    ("(let [c 1] ((fn [x] c)))", "((fn [x] 1))"),
    ("(let [c 1] ((fn ([x] c) ([x y] c)) 1 2 3))", "((fn ([x] 1) ([x y] 2)) 1 2 3)"),
    ("(let [c 1] ((fn [x y] c) 1 2 3))", "((fn [x y] 1) 1 2 3)"),
    ("(let [c {:a 1}] (mapv #(:user-id c) [1 2]))", "(mapv #(:user-id {}) [1 2])"),
    ("(let [c 1] (defn g [] c) (g 1))", "(defn g [] 1) (g 1)"),
    ("(let [c 1] (let [h (fn [] c)] (h 1)))", "(let [h (fn [] 1)] (h 1))"),
]


@pytest.mark.parametrize(("src", "like"), CLOSURE_ARITY)
def test_a_closure_called_with_the_wrong_arity(src: str, like: str) -> None:
    got, want = outcome(src), outcome(like)
    assert "arity_error" in want
    # the same error and message; the position is the call's in each source
    assert got.split(" ", 5)[:5] == want.split(" ", 5)[:5]
    assert got.split(": ", 1)[1] == want.split(": ", 1)[1]


#: The same for a map called as a fn (its fn is made in `as_fn`): Clojure's ArityException.
@pytest.mark.parametrize(
    ("src", "count"),
    [("({:a 1} :a 2 3)", "3"), ("({:a 1})", "0"), ("(mapv {:a 1} [:a] [:b] [:c])", "3")],
)
def test_a_map_called_with_the_wrong_arity(src: str, count: str) -> None:
    assert outcome(src).endswith(
        f"arity_error 1:1: a map called as a function takes 1 or 2 arguments, got {count}"
    )


#: A builtin under several names named its arity errors by the last one declared, so
#: `(inc 1 2)` said `inc': wrong number of arguments`; aliases now lose to the name.
@pytest.mark.parametrize(
    ("src", "name"),
    [
        ("(inc 1 2)", "inc"),
        ("(dec 1 2)", "dec"),
        ("(map inc [1] [2])", "inc"),
        ("(clojure.string/trim)", "trim"),
        ("(parse-double)", "parse-double"),
    ],
)
def test_a_builtins_arity_error_names_it(src: str, name: str) -> None:
    assert f"arity_error 1:1: {name}: wrong number of arguments" in outcome(src)


# ------------------------------------------------------------------ record lists
#: A tool that returns the same list again after changing it (a cache it appends to, a
#: page buffer): the first return was scanned and registered as a record list, the second
#: scan found an item that is no map, yet the list stayed registered and the readers that
#: trust the registry read it directly (an AttributeError, `internal_error`, or a
#: `type_error`). The generic path (no record lists) reads every item flexibly.
RESCANNED = [
    '[(count (filter #(= (:s %) "a") a)) (count (filter #(= (:s %) "a") b))]',
    "(mapv :s b)",
    "(mapv :s a)",
    "(sort-by :s b)",
    "(update-vals (group-by :g b) count)",
    "(map (fn [[k vs]] [k (count vs) (reduce + (map :f vs))]) (group-by :g b))",
    "(reduce (fn [acc x] (assoc acc (:s x) (:g x))) {} b)",
    '(count (filter #(= (:s %) "a") (:rows c)))',
]


def _rows_tools(change: str, n: int) -> dict[str, Any]:
    rows: list[Any] = [{"s": "a", "g": i % 3, "f": i} for i in range(n)]

    def first(_: object = None) -> object:
        return rows

    def again(_: object = None) -> object:
        if change == "append":
            rows.append(None)
        elif change == "replace":
            rows[n - 3] = [1, 2]
        else:
            rows[n // 2] = "s"
        return rows

    def wrapped(_: object = None) -> object:
        return {"rows": rows}

    return {"first": first, "again": again, "wrapped": wrapped}


@pytest.mark.parametrize("n", [40, 2500])  # 2500: scanned a block at a time
@pytest.mark.parametrize("change", ["append", "replace", "string"])
@pytest.mark.parametrize("body", RESCANNED)
def test_a_tool_returning_its_list_again_after_changing_it(
    body: str, change: str, n: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    src = f"(let [a (tool/first {{}}) c (tool/wrapped {{}}) b (tool/again {{}})] {body})"
    got = outcome(src, tools=_rows_tools(change, n))
    monkeypatch.setattr(records, "MIN_LEN", 10**18)  # no record lists
    want = outcome(src + " ", tools=_rows_tools(change, n))
    assert "internal" not in want
    assert got == want


# ------------------------------------------------------------------ parallel workers
#: A Python-level failure in a pmap worker (an arity error of a fn or builtin) was
#: `runtime_error: pmap: item 0 failed: pmap: item 0 failed`; it is now the error the
#: executor makes of it outside a worker, with the item's prefix as typed errors get it.
@pytest.mark.parametrize(
    ("src", "code", "message"),
    [
        (
            "(pmap (fn [a] (first 1 2)) [1])",
            "arity_error",
            "pmap: item 0 failed: first: wrong number of arguments (2), expected 1",
        ),
        (
            "(defn f [a] 0) (pmap f [1] [2])",
            "arity_error",
            "pmap: item 0 failed: f: wrong number of arguments (2), expected 1",
        ),
        (
            "(let [c 1] (pmap (fn [a] c) [1] [2]))",
            "arity_error",
            "pmap: item 0 failed: fn: wrong number of arguments (2), expected 1",
        ),
        (
            "(pcalls (fn [] 1) (fn [x] 2))",
            "arity_error",
            "pcalls: item 1 failed: fn: wrong number of arguments, 1 too few",
        ),
        (
            "(pmap (fn [x] (pmap (fn [y] (first 1 2)) [1 2])) [1])",
            "arity_error",
            "pmap: item 0 failed: pmap: item 0 failed: first: wrong number of arguments (2), "
            "expected 1",
        ),
    ],
)
def test_a_python_failure_in_a_parallel_worker(src: str, code: str, message: str) -> None:
    assert outcome(src, steps=False, position=False).endswith(f"{code}: {message}")


# ------------------------------------------------------------------ host data
def _cyclic(kind: str) -> object:
    if kind == "dict":
        d: dict[str, Any] = {"a": 1}
        d["self"] = d
        return d
    rows: list[Any] = [{"s": "a", "g": i} for i in range(20)]
    rows.append({"rows": rows} if kind == "nested" else rows)
    return rows


#: Host data that holds itself made the conversion (`convert._walk`) loop for ever, growing
#: its stack, before the run (and its timeout) began: the host hung (run data; a tool's
#: result is checked to be JSON first).
@pytest.mark.parametrize("kind", ["dict", "list", "nested"])
def test_host_data_holding_itself(kind: str) -> None:
    got = outcome("(count data/xs)", data={"xs": _cyclic(kind)}, position=False)
    assert got.endswith("tool_error: data: host data holds itself (a cycle)")
    got = outcome("(count (tool/t {}))", tools={"t": lambda _: _cyclic(kind)}, steps=False)
    assert "tool_error" in got  # a tool's result was refused already (not JSON)
