"""Symbol resolution: locals, user definitions, builtins, namespaces, Java names, hints.

Plain symbols resolve local -> user definition -> builtin. Qualified
builtin references (`str/join`) bypass locals and definitions. Anything unresolved is
an `unbound_var` analysis error carrying the most useful hint (a near name, the right namespace).
"""

from __future__ import annotations

import difflib
from typing import TYPE_CHECKING

from ptc_compiler import ir
from ptc_compiler.analyzer.scope import Ctx, error
from ptc_compiler.forms import Form, Symbol
from ptc_runtime.builtins.java import JAVA_CONSTANTS
from ptc_runtime.builtins.registry import NAMESPACE_ALIASES
from ptc_runtime.errors import AnalysisError

if TYPE_CHECKING:
    from ptc_compiler.analyzer.core import Analyzer

_HISTORY = {"*1": 1, "*2": 2, "*3": 3}

#: Java classes of the closed interop surface, by their short name.
JAVA_CLASSES = frozenset(
    {
        "Math",
        "System",
        "Boolean",
        "Double",
        "Float",
        "Integer",
        "Long",
        "LocalDate",
        "Instant",
        "Duration",
        "String",
        "Character",
    }
)
_JAVA_PREFIXES = ("java.time.", "java.lang.", "java.util.")

_GROUP_TITLES = {
    "core": "Core functions",
    "string": "String functions",
    "set": "Set functions",
    "walk": "Walk functions",
    "json": "JSON functions",
    "regex": "Regex functions",
    "java": "Java members",
}

#: Special forms and macros: a bare reference gets the "use parentheses" hint.
SPECIAL_NAMES = frozenset(
    {
        "return",
        "fail",
        "let",
        "if",
        "if-not",
        "fn",
        "when",
        "when-not",
        "cond",
        "case",
        "condp",
        "do",
        "and",
        "or",
        "not",
        "if-let",
        "when-let",
        "if-some",
        "when-some",
        "when-first",
        "->",
        "->>",
        "as->",
        "cond->",
        "cond->>",
        "some->",
        "some->>",
        "loop",
        "recur",
        "for",
        "doseq",
        "def",
        "defn",
        "defonce",
        "quote",
        "comment",
    }
)

_ALTERNATIVES = {
    "defn-": "'defn-' defines a private helper in component source only; use defn in "
    "dynamic source",
    "ns": "'ns' declarations are only supported in component source; a program has one "
    "namespace, just use def and defn",
    "printf": "printf is not available; use (println (str ...)) or (println (format ...))",
    "print": "print is not available; use println",
    "prn": "prn is not available; use (println (pr-str x))",
    "spit": "there is no file I/O; return the value or pass it to a tool",
    "slurp": "there is no file I/O; read inputs from data/... or call a tool",
    "require": "there is no namespace loading; builtins are always available "
    "(e.g. str/join, set/union)",
    "import": "there is no Java import; only the built-in Java surface (Math/..., "
    "LocalDate/parse, .indexOf ...) is available",
    "try": "try/catch is not supported; use (fail value) to end the program with an error",
    "catch": "try/catch is not supported; use (fail value) to end the program with an error",
    "finally": "try/finally is not supported; there are no exceptions to clean up after",
    "throw": "throw is not supported; use (fail value) to end the program with an error",
    "atom": "there is no mutable state; use let bindings, loop/recur or reduce",
    "swap!": "there is no mutable state; use def to rebind a name, or loop/recur",
    "reset!": "there is no mutable state; use def to rebind a name, or loop/recur",
    "lazy-seq": "sequences are eager and finite; build a vector with for, map or loop",
    "repeatedly": "sequences are eager and finite; use (for [_ (range n)] ...)",
    "dotimes": "use (doseq [i (range n)] ...)",
    "while": "use loop/recur",
    "data": "data is not a value; read one key with data/<key>",
}


def check_bindable(sym: Form) -> str:
    """The name of a simple symbol that may be bound as a local, or an error."""
    if type(sym) is not Symbol:
        raise error("invalid_form", f"expected a symbol to bind, got {_show(sym)}", sym.span)
    name = sym.name
    if sym.ns is not None:
        raise error(
            "invalid_form",
            f"cannot bind a qualified symbol {sym.text}",
            sym.span,
            hint=f"use a plain name such as {name}",
        )
    first = name[0]
    if name == "&":
        raise error("invalid_form", "& must be followed by exactly one binding pattern", sym.span)
    if first == "%":
        raise error(
            "invalid_placeholder",
            f"cannot bind the placeholder {name}",
            sym.span,
            hint="placeholders only exist inside #(...)",
        )
    if first == "." and len(name) > 1:
        raise error("invalid_form", f"cannot bind the Java method name {name}", sym.span)
    if name in _HISTORY:
        raise error("invalid_form", f"cannot bind the history reference {name}", sym.span)
    return name


def _show(form: Form) -> str:
    from ptc_compiler.analyzer.colls import show

    return show(form)


def symbol(an: Analyzer, sym: Symbol, ctx: Ctx) -> ir.Node:
    """Resolve a symbol in value position."""
    if sym.ns is not None:
        return qualified(an, sym)
    name = sym.name
    ident = ctx.locals.get(name)
    if ident is not None:
        return ir.Local(ident, sym.span)
    sibling = an.env.siblings.get(name)
    if sibling is not None:  # component source: the namespace's own definitions
        an.sibling_refs.add(name)
        return ir.SiblingRef(name, sibling, sym.span)
    if name in an.known:
        return ir.UserRef(name, False, sym.span)
    if name in ctx.def_self:
        return ir.UserRef(name, True, sym.span)
    spec = an.builtins.get(name)
    if spec is not None and spec.bare:
        return ir.BuiltinRef(name, sym.span)
    return _special_symbol(an, sym, ctx)


def _special_symbol(an: Analyzer, sym: Symbol, ctx: Ctx) -> ir.Node:
    """History refs, placeholders and Java names; otherwise an unbound error."""
    name = sym.name
    first = name[0]
    if first == "*" and name in _HISTORY:
        return ir.HistoryRef(_HISTORY[name], sym.span)
    if first == "%":
        return placeholder(an, sym, ctx)
    if first == "." and len(name) > 1:
        if name in an.builtins:
            return ir.BuiltinRef(name, sym.span)
        methods = sorted(n for n in an.builtins if n.startswith("."))
        raise error(
            "unsupported_java_member",
            f"Unsupported method '{name}'."
            + (f" Supported interop methods: {', '.join(methods)}." if methods else "")
            + " Use (.method obj) syntax.",
            sym.span,
        )
    if name.endswith(".") and len(name) > 1:
        if name in an.builtins:
            return ir.BuiltinRef(name, sym.span)
        raise error(
            "unsupported_java_class",
            f"Java interop error: class {name[:-1]} is not supported",
            sym.span,
            hint="only java.util.Date. can be constructed",
        )
    raise unbound(an, sym, ctx)


def placeholder(an: Analyzer, sym: Symbol, ctx: Ctx) -> ir.Node:
    """`%`, `%1`..`%20`, `%&` inside `#()`."""
    name = sym.name
    state = ctx.short
    if name == "%" or name == "%&":
        index = 1 if name == "%" else 0
    elif name[1:].isdigit() and name[1] != "0":
        index = int(name[1:])
        if index > 20:
            raise error(
                "invalid_form",
                f"placeholder {name} is above %20",
                sym.span,
                hint="use (fn [a b ...] ...) for functions with many parameters",
            )
    else:
        raise unbound(an, sym, ctx)
    if state is None:
        raise error(
            "invalid_placeholder",
            f"{name} is only valid inside #(...)",
            sym.span,
            hint="write #(... % ...) or (fn [x] ...)",
        )
    ident = state.idents.get(index)
    if ident is None:
        ident = an.fresh("rest" if index == 0 else f"p{index}")
        state.idents[index] = ident
    return ir.Local(ident, sym.span)


def try_resolve(an: Analyzer, sym: Symbol, ctx: Ctx) -> ir.Node | None:
    """Resolve a plain symbol, or None when it is unbound (for `or` operands)."""
    try:
        return symbol(an, sym, ctx)
    except AnalysisError as exc:
        if exc.code == "unbound_var":
            return None
        raise


def _group_members(an: Analyzer, group: str) -> list[str]:
    out = []
    for name, spec in an.builtins.items():
        if group in spec.groups:
            out.append(name.split("/", 1)[1] if "/" in name and len(name) > 1 else name)
    return sorted(out)


def qualified(an: Analyzer, sym: Symbol) -> ir.Node:
    """`data/k`, `tool/n`, namespace aliases (`str/join`) and Java statics."""
    ns = sym.ns
    name = sym.name
    assert ns is not None
    span = sym.span
    if ns == "data":
        an.data_keys.add(name)
        return ir.DataRef(name, span)
    if ns == "tool" or ns in an.env.binding_namespaces:
        member = name if ns == "tool" else f"{ns}/{name}"
        an.use_tool(member, span)
        return ir.ToolRef(member, span)
    node = prelude_ref(an, sym)
    if node is not None:
        return node
    group = NAMESPACE_ALIASES.get(ns)
    builtins = an.builtins
    if group is not None:
        for candidate in (name, f"{ns}/{name}", f"{group}/{name}"):
            spec = builtins.get(candidate)
            if spec is not None and group in spec.groups:
                return ir.BuiltinRef(candidate, span)
        members = _group_members(an, group)
        raise error(
            "invalid_form",
            f"{name} is not available. {_GROUP_TITLES.get(group, 'Functions')}: "
            + ", ".join(members),
            span,
            hint=_close(name, members),
        )
    cls = ns
    for prefix in _JAVA_PREFIXES:
        if ns.startswith(prefix):
            cls = ns[len(prefix) :]
            break
    if cls in JAVA_CLASSES:
        canonical = f"{cls}/{name}"
        if canonical in JAVA_CONSTANTS and canonical in builtins:
            # Static fields (Double/NaN ...) are values, folded now: the entry is a thunk.
            return ir.Const(builtins[canonical].fn(), span)  # type: ignore[arg-type]
        if canonical in builtins:
            return ir.BuiltinRef(canonical, span)
        members = sorted(n.split("/", 1)[1] for n in builtins if n.startswith(cls + "/"))
        raise error(
            "unsupported_java_member",
            f"Java interop error: {canonical} is not supported"
            + (f". Supported {cls} members: {', '.join(members)}" if members else ""),
            span,
        )
    if ns[0].isupper() or ("." in ns and ns.split(".")[-1][:1].isupper()):
        raise error(
            "unsupported_java_class",
            f"Java interop error: class {ns} is not supported",
            span,
            hint="only Math, System, Integer, Long, Double, Float, Boolean, "
            "LocalDate, Instant and Duration are available",
        )
    available = sorted({f"{a}/" for a in NAMESPACE_ALIASES} | {"data/", "tool/"})
    if an.env.component is not None:
        deps = sorted(an.env.prelude_namespaces)
        raise error(
            "unknown_namespace",
            f"unknown namespace {ns}/ in component {an.env.component}: only direct "
            "dependencies may be referenced"
            + (f" (declared: {', '.join(deps)})" if deps else " (none declared)"),
            span,
            hint=f"declare it in the ns form: (ns {an.env.component} {{:deps [{ns}]}})",
        )
    if an.env.prelude_namespaces:
        available = sorted({*available, *(f"{p}/" for p in an.env.prelude_namespaces)})
    raise error(
        "invalid_form",
        f"unknown namespace {ns}/. Available namespaces: {', '.join(available)}, "
        "and Java classes Math/, Integer/, Long/, Double/, Float/, Boolean/, System/, "
        "LocalDate/, Instant/, Duration/. For JSON parsing use json/parse-string "
        "(not cheshire.core/...).",
        span,
    )


def prelude_ref(an: Analyzer, sym: Symbol) -> ir.Node | None:
    """`ns/name` naming a prelude export (or a mistake about one); None otherwise."""
    ns = sym.ns
    env = an.env
    if ns is not None and ns == env.component:
        raise error(
            "qualified_self_reference",
            f"{sym.text}: a component calls its own definitions by bare name",
            sym.span,
            hint=f"write {sym.name} instead of {sym.text}",
        )
    ref = f"{ns}/{sym.name}"
    info = env.exports.get(ref)
    if info is not None:
        an.export_refs.add(ref)
        return ir.ExportRef(ref, info.const, sym.span)
    if ns in env.prelude_namespaces:
        names = sorted(r.split("/", 1)[1] for r in env.exports if r.startswith(f"{ns}/"))
        raise error(
            "unbound_var",
            f"undefined variable: {ref} is not a public export of {ns}",
            sym.span,
            hint=_close(sym.name, names) or (f"{ns} exports: " + ", ".join(names[:20])),
        )
    return None


def _close(name: str, candidates: list[str]) -> str | None:
    found = difflib.get_close_matches(name, candidates, n=3, cutoff=0.6)
    return "Did you mean: " + ", ".join(found) if found else None


def unbound(an: Analyzer, sym: Symbol, ctx: Ctx) -> AnalysisError:
    """The undefined-symbol error with the most useful hint."""
    name = sym.name
    hint: str | None
    if name in ("defn-", "ns"):
        hint = _ALTERNATIVES[name]
    elif name in SPECIAL_NAMES:
        hint = f"'{name}' is a special form, use ({name} ...) with parentheses"
    elif name in _ALTERNATIVES:
        hint = _ALTERNATIVES[name]
    elif "_" in name.strip("_"):
        hint = f"Use hyphens not underscores (try: {name.replace('_', '-')})"
    else:
        candidates = [n for n, s in an.builtins.items() if s.bare]
        candidates.extend(an.known)
        candidates.extend(k for k in ctx.locals if not k.startswith("#"))
        hint = _close(name, candidates)
    return error("unbound_var", f"undefined variable: {name}", sym.span, hint=hint)
