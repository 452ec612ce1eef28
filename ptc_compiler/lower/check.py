"""The last gate before `compile()`: generated code must stay inside a tiny Python subset.

Two independent checks, both on every freshly lowered module:

* an allow-list of AST node types and of name shapes (no attribute access, no
  imports, no name starting with `_`, every name in one of our prefixed spaces,
  subscripts only on the user-namespace tables with a constant key);
* RestrictedPython's policy: its transformer's checks, run so that its rewrites never
  reach the tree (see `check_restricted`).

A failure here is a compiler bug, never the program's fault: it raises
`GeneratedCodeRejected`, which the API reports as an internal error.
"""

from __future__ import annotations

import ast
import re
import types
from typing import Any

from ptc_compiler.budget import CompileBudget, unbounded
from ptc_compiler.lower.ctx import CREDIT, FUEL, NS, NSC, PDEP, PNS

ALLOWED_NODES: frozenset[type[ast.AST]] = frozenset(
    {
        ast.Module,
        ast.FunctionDef,
        ast.arguments,
        ast.arg,
        ast.Return,
        ast.Assign,
        ast.AugAssign,
        ast.If,
        ast.While,
        ast.For,
        ast.Break,
        ast.Continue,
        ast.Expr,
        ast.Global,
        ast.BoolOp,
        ast.BinOp,
        ast.UnaryOp,
        ast.IfExp,
        ast.NamedExpr,
        ast.Dict,
        ast.List,
        ast.Tuple,
        ast.Compare,
        ast.Call,
        ast.Constant,
        ast.Name,
        ast.Subscript,
        ast.Load,
        ast.Store,
        ast.And,
        ast.Or,
        ast.Add,
        ast.Sub,
        ast.Mult,
        ast.USub,
        ast.Not,
        ast.Eq,
        ast.NotEq,
        ast.Lt,
        ast.LtE,
        ast.Gt,
        ast.GtE,
        ast.Is,
        ast.IsNot,
        ast.In,
    }
)

NAME_SHAPE = re.compile(
    r"(v\d+_[A-Za-z0-9_]*|t\d+|k\d+|mk\d+|f\d+_[A-Za-z0-9_]*|rt_[a-z0-9_]+|b_[A-Za-z0-9_]+|program)\Z"
)
SPECIAL_NAMES = frozenset({FUEL, CREDIT, NS, NSC})
#: The only `global` declaration generated code makes (see `ctx.fuel_globals`).
FUEL_GLOBALS = [FUEL]
#: The only targets of `:=` in generated code: compiler temporaries (never a name the
#: program chose, a helper, a table or the fuel; see `rules_operators.same_type_arith`).
TEMPORARY = re.compile(r"t\d+\Z")
#: The tables generated code may subscript (always with a constant string key):
#: a program the user namespace, a component module its own table and its dependencies.
PROGRAM_TABLES = frozenset({NS, NSC})
COMPONENT_TABLES = frozenset({PNS, PDEP})


class GeneratedCodeRejected(Exception):
    """The lowering produced code outside the allowed subset (a compiler bug)."""


def check_module(
    module: ast.Module, *, restricted: bool = True, tables: frozenset[str] = PROGRAM_TABLES
) -> None:
    """Raise `GeneratedCodeRejected` unless `module` is inside the allowed subset.

    With `restricted`, RestrictedPython's policy runs too (it leaves `module` intact).
    """
    finalize(module, tables)
    if restricted:
        check_restricted(module)


#: Node classes that carry source positions (statements, expressions, args).
_POSITIONED: frozenset[type[ast.AST]] = frozenset(
    k for k in ALLOWED_NODES if "lineno" in k._attributes
)
#: Allowed classes with neither fields nor positions (contexts, operators): nothing to
#: fill or descend into, so `finalize` checks them where it meets them instead of queueing.
_BARE: frozenset[type[ast.AST]] = frozenset(
    k for k in ALLOWED_NODES if not k._fields and k not in _POSITIONED
)
_CONTEXTS: frozenset[type[ast.AST]] = frozenset({ast.Load, ast.Store})
#: Queued classes `finalize` checks beyond their kind (names they define, what they index).
_OWN_CHECKS: frozenset[type[ast.AST]] = frozenset(
    {ast.FunctionDef, ast.arg, ast.Global, ast.Subscript, ast.NamedExpr}
)


def finalize(
    module: ast.Module,
    tables: frozenset[str] = PROGRAM_TABLES,
    budget: CompileBudget | None = None,
) -> None:
    """One pass over the tree: fill missing positions from the parent and check the allow-list.

    Replaces `ast.fix_missing_locations` + a separate `ast.walk` (compile latency matters:
    this runs for every new program). Names, constants, contexts and operators (two thirds
    of a typical module) are checked where the parent meets them, without being queued.
    `budget`: the compile's clock, read as the pass goes (`CompileBudget.tick`).
    """
    if budget is None:
        budget = unbounded()
    # (node, position inherited from the nearest positioned ancestor)
    stack: list[tuple[ast.AST, tuple[int, int, int, int]]] = [(module, (1, 0, 1, 0))]
    pop = stack.pop
    push = stack.append
    allowed = ALLOWED_NODES
    positioned = _POSITIONED
    bare = _BARE
    contexts = _CONTEXTS
    own_checks = _OWN_CHECKS
    name_kind = ast.Name
    const_kind = ast.Constant
    specials = tables | {FUEL, CREDIT}
    checked: set[str] = set()  # a module names the same few dozen identifiers many times
    if type(module) is not ast.Module:
        raise GeneratedCodeRejected(f"node type {type(module).__name__} is not allowed")
    while stack:
        budget.ticks += 1  # `CompileBudget.tick`, inlined
        if budget.ticks >= budget.next_tick:
            budget.check_clock()
        node, pos = pop()
        kind = type(node)
        d = node.__dict__
        if kind in positioned:
            line = d.get("lineno")
            if line is not None:
                col = d["col_offset"]
                pos = (line, col, d.get("end_lineno") or line, d.get("end_col_offset") or col)
            else:
                d["lineno"], d["col_offset"], d["end_lineno"], d["end_col_offset"] = pos
        if kind not in own_checks:
            pass
        elif kind is ast.FunctionDef:
            _check_name(node.name, specials)  # type: ignore[attr-defined]
        elif kind is ast.arg:
            _check_name(node.arg, specials)  # type: ignore[attr-defined]
        elif kind is ast.Global:
            if node.names != FUEL_GLOBALS:  # type: ignore[attr-defined]
                raise GeneratedCodeRejected("only FUEL may be declared global")
        elif kind is ast.NamedExpr:
            target = node.target  # type: ignore[attr-defined]
            if not (
                type(target) is ast.Name
                and type(target.id) is str
                and TEMPORARY.match(target.id)
                and type(target.ctx) is ast.Store
            ):
                raise GeneratedCodeRejected(":= may only assign a compiler temporary")
        else:  # ast.Subscript
            target = node.value  # type: ignore[attr-defined]
            key = node.slice  # type: ignore[attr-defined]
            if not (
                isinstance(target, ast.Name)
                and target.id in tables
                and isinstance(key, ast.Constant)
                and type(key.value) is str
            ):
                raise GeneratedCodeRejected("subscript outside the namespace tables")
            if type(node.ctx) is not ast.Load and target.id not in (PNS,):  # type: ignore[attr-defined]
                raise GeneratedCodeRejected("only a component's own table may be assigned")
        for field in kind._fields:
            value = d.get(field)
            if value is None:
                continue
            for child in value if type(value) is list else (value,):
                ck = type(child)
                if ck in bare:
                    continue
                if ck is name_kind or ck is const_kind:
                    c = child.__dict__
                    if c.get("lineno") is None:
                        c["lineno"], c["col_offset"], c["end_lineno"], c["end_col_offset"] = pos
                    if ck is name_kind:
                        if type(c.get("ctx")) not in contexts:
                            raise GeneratedCodeRejected("name outside a load or store context")
                        name = c.get("id")
                        if name not in checked:
                            _check_name(name, specials)
                            checked.add(name)
                    elif (v := c.get("value")) is not None and type(v) not in (
                        bool,
                        int,
                        float,
                        str,
                    ):
                        raise GeneratedCodeRejected("constant of a disallowed type")
                    continue
                if ck in allowed:
                    push((child, pos))
                elif isinstance(child, ast.AST):
                    raise GeneratedCodeRejected(f"node type {ck.__name__} is not allowed")


def _check_name(name: str, specials: frozenset[str] = SPECIAL_NAMES) -> None:
    if name in specials:
        return
    if name.startswith("_") or not NAME_SHAPE.match(name):
        raise GeneratedCodeRejected(f"name outside the generated namespaces: {name[:40]}")


def check_restricted(module: ast.Module, budget: CompileBudget | None = None) -> None:
    """RestrictedPython's policy over `module`, leaving `module` unchanged.

    RestrictedPython's transformer both checks and rewrites (guard calls such as
    `_getiter_`); we want only its verdict, before `compile()`, on the tree we compile.
    Each visitor that does real work runs on a detached shallow copy of its node (see
    `_detached`) and the original node is handed back, so the rewrites land in throwaway
    copies while every check sees exactly the content RestrictedPython would see.
    Since the rewrites are discarded, the positions of the nodes they build are not filled
    in (`_stamp_positions`), and a name is checked once per module (`policy_verdict`).
    `budget`: the compile's clock, read as the check goes (`CompileBudget.tick`).
    """
    errors, _ = policy_verdict(module, budget=budget)
    if errors:
        raise GeneratedCodeRejected("RestrictedPython policy: " + "; ".join(errors)[:300])


def policy_verdict(
    module: ast.Module,
    used_names: dict[str, bool] | None = None,
    budget: CompileBudget | None = None,
) -> tuple[list[str], list[str]]:
    """RestrictedPython's errors and warnings for `module` (left unchanged), in its words.

    `used_names` receives the names RestrictedPython records as used, as its own
    transformer's argument of that name does.
    """
    checker = _policy_checker()
    errors: list[str] = []
    warnings: list[str] = []
    checker(errors, warnings, used_names, budget=budget).visit(module)
    if errors or warnings:
        # Redo the check without the Name memo (see `PolicyChecker.clean_names`) so the
        # report has every occurrence. Generated code only gets here if it has a bug.
        errors.clear()
        warnings.clear()
        checker(errors, warnings, used_names, memo_names=False).visit(module)
    return errors, warnings


_CHECKER: type | None = None


def _detached(node: ast.AST) -> ast.AST:
    """A shallow copy of `node` whose list fields are copies too.

    A visitor may set fields of the node it visits and splice the lists it holds; with
    this copy both happen outside the tree. Children are shared: they are visited through
    the same non-destructive dispatch, so each hands itself back unchanged.
    """
    kind = type(node)
    copy_ = kind.__new__(kind)
    d = copy_.__dict__
    d.update(node.__dict__)
    for field in node._fields:
        value = d.get(field)
        if type(value) is list:
            d[field] = value.copy()
    return copy_


def _checking_only(method: Any) -> Any:
    """`method` (a RestrictedPython visitor) run for its checks alone."""

    def visit(self: Any, node: ast.AST) -> ast.AST:
        method(self, _detached(node))
        return node

    return visit


def _pass_through(self: Any, node: Any) -> Any:
    """The body RestrictedPython gives the visitors of node kinds it allows unchanged."""
    return self.node_contents_visit(node)


#: Dispatch markers of `PolicyChecker`: a pass-through visitor on a node with no fields
#: (nothing to do at all), or on a node with fields (only the traversal of its contents).
_SKIP = "skip"
_CONTENTS = "contents"
#: Dispatch marker of `PolicyChecker` for `ast.Name`: RestrictedPython's visitor, memoised.
_NAME = "name"


def _is_pass_through(method: Any) -> bool:
    """True if `method` is exactly `return self.node_contents_visit(node)` (same bytecode,
    same names): such a visitor neither checks nor rewrites anything itself."""
    code = getattr(method, "__code__", None)
    ref = _pass_through.__code__
    return (
        code is not None
        and code.co_code == ref.co_code
        and code.co_names == ref.co_names
        and code.co_argcount == ref.co_argcount
    )


def _policy_checker() -> type:
    """RestrictedPython's transformer (its `visit_*` policy methods and its rejection of
    unknown node types unchanged) with a faster traversal.

    This check runs on every new program, so its traversal cost is compile latency. Each
    node class is resolved once to the visitor RestrictedPython would call (`visit_<Kind>`,
    else its `generic_visit`, which rejects unknown kinds). Where that visitor is, by its
    bytecode, a pure pass-through, calling it is provably the same as visiting the node's
    contents directly, and for a node without fields (`Load`, `Add`, `Break`, ...) the same
    as doing nothing: those calls are left out. Every other visitor is called as before.
    """
    global _CHECKER
    if _CHECKER is not None:
        return _CHECKER
    from RestrictedPython.transformer import RestrictingNodeTransformer

    dispatch: dict[type, Any] = {}
    get_entry = dispatch.get
    AST = ast.AST

    def resolve(kind: type) -> Any:
        method = getattr(PolicyChecker, "visit_" + kind.__name__, None)
        if method is None:
            # RestrictedPython's rejection of unknown kinds (for a known kind, a traversal)
            entry: Any = _checking_only(PolicyChecker.generic_visit)
        elif _is_pass_through(method):
            entry = _SKIP if not kind._fields else _CONTENTS  # type: ignore[attr-defined]
        elif kind is ast.Name:
            # The most frequent kind by far. RestrictedPython's Name visitor only RETURNS a
            # replacement (for `print`/`printed`); it never changes the node it visits, so
            # it needs no detached copy: discarding the return value is enough. (Tests
            # prove every checked tree unchanged.) `node_contents_visit` memoises it.
            entry = _NAME
        else:
            entry = _checking_only(method)
        dispatch[kind] = entry
        return entry

    class PolicyChecker(RestrictingNodeTransformer):
        def __init__(
            self,
            errors: list[str] | None = None,
            warnings: list[str] | None = None,
            used_names: dict[str, bool] | None = None,
            *,
            memo_names: bool = True,
            budget: CompileBudget | None = None,
        ) -> None:
            super().__init__(errors, warnings, used_names)
            self.budget = budget  # the compile's clock, read as the traversal goes
            # (id, context class) of the names already visited in this module. The Name
            # visitor reads nothing of its node but `id` and the class of `ctx` (the
            # position only goes into an error message); its only effects are an error, a
            # replacement node for `print`/`printed` (discarded here) and
            # `used_names[id] = True`. So once a pair has been visited without a
            # replacement, visiting it again can only repeat an error message for another
            # line: `check_restricted` reruns without the memo when there is any error or
            # warning. (A module names the same few dozen identifiers hundreds of times.)
            self.clean_names: set[tuple[str, type]] | None = set() if memo_names else None

        def name(self, node: Any) -> None:
            """RestrictedPython's Name visitor on `node` (unless memoised), for its checks."""
            clean = self.clean_names
            if clean is None:
                visit_name(self, node)
                return
            key = (node.id, type(node.ctx))
            if key not in clean and visit_name(self, node) is node:
                clean.add(key)  # not `print`/`printed`, whose flags are per function scope

        def visit(self, node: ast.AST) -> Any:
            kind = type(node)
            entry = dispatch.get(kind) or resolve(kind)
            if entry is _SKIP:
                return node
            if entry is _CONTENTS:
                return self.node_contents_visit(node)
            if entry is _NAME:
                self.name(node)
                return node
            return entry(self, node)

        # RestrictedPython's own `generic_visit` (reject node types it does not know) stays:
        # only the traversal its visitors delegate to is replaced. Every dispatch entry
        # hands its node back unchanged (the visitors that rewrite run on detached copies),
        # so unlike `ast.NodeTransformer.generic_visit` this never replaces a child.
        def node_contents_visit(self, node: Any) -> Any:
            budget = self.budget
            if budget is not None:  # `CompileBudget.tick`, inlined
                budget.ticks += 1
                if budget.ticks >= budget.next_tick:
                    budget.check_clock()
            d = node.__dict__
            clean = self.clean_names
            for field in node._fields:
                value = d.get(field)
                children: Any
                if type(value) is list:
                    children = value
                elif isinstance(value, AST):
                    children = (value,)
                else:
                    continue
                child: Any
                for child in children:
                    entry = get_entry(type(child))
                    if entry is None:  # not a node, or a kind met for the first time
                        if not isinstance(child, AST):
                            continue
                        entry = resolve(type(child))
                    if entry is _SKIP:
                        continue
                    if entry is _NAME:
                        if clean is None or (child.id, type(child.ctx)) not in clean:
                            self.name(child)
                    elif entry is _CONTENTS:
                        self.node_contents_visit(child)
                    else:
                        entry(self, child)
            return node

    # RestrictedPython's own methods, run with `copy_locations` stamping positions only.
    for attr, method in _discarding_rewrite_bookkeeping(RestrictingNodeTransformer).items():
        setattr(PolicyChecker, attr, method)
    visit_name = PolicyChecker.visit_Name
    _CHECKER = PolicyChecker
    return PolicyChecker


def _stamp_positions(new_node: Any, old_node: Any) -> None:
    """`copy_locations` without its `ast.fix_missing_locations` of the new subtree.

    RestrictedPython's rewrites (guard calls) end up in the detached copies, which are
    thrown away, so the positions of the nodes inside them are never read; filling them in
    was a quarter of the check's time (a walk of each rewritten subtree).
    """
    new_node.lineno = old_node.lineno
    new_node.end_lineno = old_node.end_lineno
    new_node.col_offset = old_node.col_offset
    new_node.end_col_offset = old_node.end_col_offset


def _discarding_rewrite_bookkeeping(transformer: type) -> dict[str, Any]:
    """The methods of RestrictedPython's `transformer` that call `copy_locations`, with their
    own bytecode, defaults and closure, but resolving that one global to `_stamp_positions`.

    Their checks are unchanged (the same code runs, calling the same helpers); only the
    position filling of the replacement nodes they build, which are discarded, is skipped.
    """
    import RestrictedPython.transformer as rp

    namespace = dict(vars(rp))
    namespace["copy_locations"] = _stamp_positions
    rebound: dict[str, Any] = {}
    for attr, method in vars(transformer).items():
        if isinstance(method, types.FunctionType) and "copy_locations" in method.__code__.co_names:
            clone = types.FunctionType(
                method.__code__, namespace, method.__name__, method.__defaults__, method.__closure__
            )
            clone.__kwdefaults__ = method.__kwdefaults__
            clone.__qualname__ = method.__qualname__
            clone.__doc__ = method.__doc__
            rebound[attr] = clone
    return rebound
