"""Shared state of one lowering run, and small AST-building helpers.

`Lowered` is the result of lowering an expression: statements that must run
first, then the expression that yields its value (PTC-Lisp is expression-only,
Python is not). `Ctx` hands out fresh names and collects the module-level
definitions (constants and functions) that lowering hoists.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from ptc_compiler.fast_init import fast_frozen_init
from ptc_compiler.forms import NO_SPAN, Span

FUEL = "FUEL"
#: The loop-entry credits (see `fuel_loop`): an iterator like `FUEL`, pulled once per
#: `loop` entry; the runtime gives those steps back (`ptc_runtime.context.Credit`).
CREDIT = "CREDIT"
NS = "NS"
NSC = "NSC"
#: Component modules (prelude source): the namespace's own table and its dependencies' exports.
PNS = "PNS"
PDEP = "PDEP"


@fast_frozen_init  # one per lowered expression
@dataclass(frozen=True, slots=True)
class Lowered:
    """Statements to run first, then the value's expression."""

    stmts: tuple[ast.stmt, ...]
    expr: ast.expr


@dataclass(slots=True)
class LoopTarget:
    """Where a `Recur` jumps: the Python names it rebinds."""

    idents: tuple[str, ...]


@dataclass(slots=True)
class KGetter:
    """A loop element whose constant keyword reads may go through a getter chosen per
    element (`rules_paths.keyword_getter`): the reads made through it, each as (the call, its
    map, keyword and name, default), so that the getter's temporary can be named once it
    is made, and too few reads can be put back as `rt_kfield` calls."""

    reads: list[tuple[ast.Call, ast.expr, ast.expr, str, list[ast.expr]]] = field(
        default_factory=list
    )


@dataclass
class Ctx:
    """Fresh names, hoisted definitions and the lexical facts lowering tracks."""

    hoisted: list[ast.stmt] = field(default_factory=list)
    consts: dict[tuple[str, str], str] = field(default_factory=dict)
    fn_names: dict[str, str] = field(default_factory=dict)  # python name -> PTC name
    counter: int = 0
    recur: LoopTarget | None = None
    #: locals known to hold numbers in the scope being lowered (changed in place, see
    #: `Emitter.know_numeric`)
    numeric: set[str] = field(default_factory=set)
    fn_locals: dict[str, str] = field(default_factory=dict)  # local ident -> python fn name
    span: Span = NO_SPAN
    #: Programs: the attached prelude bundle `ExportRef`s resolve in (`rt_export`).
    prelude_key: str | None = None
    #: Component modules: dependency exports are read from the `PDEP` table.
    component: bool = False
    #: The targets and arguments of the module's one `kA, kB, ... = rt_kws('a', 'b', ...)`.
    keywords: tuple[list[ast.expr], list[ast.expr]] | None = None
    #: Loop elements of the current Python function read through a per-element getter.
    kgetters: dict[str, KGetter] = field(default_factory=dict)

    def fresh(self, prefix: str = "t") -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def const(self, helper: str, arg: str) -> str:
        """A module-level constant `kN = rt_<helper>(arg)`, made once per (helper, arg).

        Keywords, the most common constants, are all made by one statement instead,
        `kA, kB, ... = rt_kws('a', 'b', ...)` where the first is needed (a program has a
        dozen of them: each separate statement cost five nodes to build, check and
        compile, this costs two).
        """
        key = (helper, arg)
        name = self.consts.get(key)
        if name is None:
            name = self.fresh("k")
            self.consts[key] = name
            if helper == "kw":
                self._keyword(name, arg)
            else:
                self.hoisted.append(
                    ast.Assign(
                        targets=[store(name)],
                        value=call(load("rt_" + helper), [ast.Constant(arg)]),
                    )
                )
        return name

    def _keyword(self, name: str, arg: str) -> None:
        if self.keywords is None:
            targets = ast.Tuple([], STORE)
            made = ast.Call(ast.Name("rt_kws", LOAD), [], [])
            self.hoisted.append(ast.Assign([targets], made))
            self.keywords = (targets.elts, made.args)
        names, args = self.keywords
        names.append(store(name))
        args.append(ast.Constant(arg))


# These builders make most of a module's nodes. They pass fields positionally (in
# `_fields` order): CPython's AST constructors take keywords at twice the cost. The
# contexts are shared, as in the trees `ast.parse` makes: they carry no data.
LOAD = ast.Load()
STORE = ast.Store()


def load(name: str) -> ast.Name:
    return ast.Name(name, LOAD)


def store(name: str) -> ast.Name:
    return ast.Name(name, STORE)


def call(fn: ast.expr, args: list[ast.expr]) -> ast.Call:
    return ast.Call(fn, args, [])


def helper(name: str, *args: ast.expr) -> ast.Call:
    """A call of runtime helper `rt_<name>`."""
    return ast.Call(ast.Name("rt_" + name, LOAD), list(args), [])


def assign(name: str, value: ast.expr) -> ast.Assign:
    return ast.Assign([ast.Name(name, STORE)], value)


NONE = ast.Constant(None)


def is_trivial(expr: ast.expr) -> bool:
    """True for expressions that are safe to evaluate later or twice (no effects, cheap)."""
    return isinstance(expr, ast.Constant | ast.Name)


def at(span: Span, node: ast.AST) -> ast.AST:
    """Stamp the Lisp position on `node` (so failures map back to line:column)."""
    line = span.line
    if line > 0:
        col = span.col - 1 if span.col > 0 else 0
        end_line = span.end_line
        if end_line > line:
            end_col = span.end_col - 1 if span.end_col > 0 else 0
        else:
            end_line = line
            end_col = span.end_col - 1 if span.end_col > span.col else col
        d = node.__dict__
        d["lineno"] = line
        d["col_offset"] = col
        d["end_lineno"] = end_line
        d["end_col_offset"] = end_col
    return node


#: The target of a fuel pull: a local that is never read (`t0`: `fresh` starts at 1).
PULL = "t0"


def fuel_globals() -> ast.Global:
    """`global FUEL`: first in every generated function (a refill rebinds it; `CREDIT` is
    only ever read)."""
    return ast.Global([FUEL])


def _pull(body: list[ast.stmt], due: int) -> ast.For:
    """`for t0 in FUEL: <body>` with `else: FUEL = rt_refill(FUEL, CREDIT[, due])`."""
    args: list[ast.expr] = [load(FUEL), load(CREDIT)]
    if due != 1:
        args.append(ast.Constant(due))
    return ast.For(
        target=store(PULL),
        iter=load(FUEL),
        body=body,
        orelse=[assign(FUEL, helper("refill", *args))],
    )


def fuel_check() -> list[ast.stmt]:
    """One step of the budget at a fn entry or a `for` element.

    `for t0 in FUEL: break` pulls one step from the fuel iterator (`ptc_runtime.context.Fuel`);
    an empty chunk runs the `else`, which charges the step and refills.
    """
    return [_pull([ast.Break()], 1)]


def fuel_loop(body: list[ast.stmt], *, breaks: bool, entry_free: bool) -> list[ast.stmt]:
    """A `loop`/`recur` body driven by the fuel iterator: one pull per pass.

    `while True: for t0 in FUEL: <body> / else: FUEL = rt_refill(FUEL, CREDIT, 0)`.
    A `recur` is a plain `continue` (the pull is the step), so a back-edge costs one
    `FOR_ITER` and no integer arithmetic. When the chunk runs out (or a call in the body
    refilled, leaving this `for` with an old, empty chunk), the refill charges what was
    pulled and the `while` restarts the `for` on the new chunk, which pulls the step again
    (hence `due=0`). `breaks`: the body leaves with `break` (a value sink), which must
    then leave the `while` too.

    The first pass pulls a step as well, but the step budget charges only the back-edges:
    with `entry_free` (a `loop`), `for t0 in CREDIT: break` first takes one credit, which
    the runtime subtracts from the pulled steps at the next refill or at the end of the
    run. A pull from a never-exhausted iterator is the cheapest effect CPython can
    execute without a call (no integer arithmetic, no store to the globals dict), and it
    is atomic for pmap threads sharing the module. A recurring fn arity (no credit)
    uses its first pass as its entry step.
    """
    pull = _pull(body, 0)
    if breaks:
        pull.orelse.append(ast.Continue())
        loop = ast.While(ast.Constant(True), [pull, ast.Break()], [])
    else:
        loop = ast.While(ast.Constant(True), [pull], [])
    if not entry_free:
        return [loop]
    return [ast.For(store(PULL), load(CREDIT), [ast.Break()], [], None), loop]
