"""Component source -> checked metadata + one Python module.

The header (`ns` form) is read and checked by `header`; this module compiles the
definitions that follow it.

A component is one file with one namespace:

    (ns orders "Order analytics." {:deps [money] :visibility :prompt})
    (def tax-rate "VAT." {:type ":float"} 0.2)
    (defn- line-total [line] (* (:qty line) (:price line)))
    (defn total {:signature "(order {lines [:map]}) -> :float" :doc "Order total."}
      [order] (reduce + (map line-total (:lines order))))

It is analyzed by the ordinary analyzer in component mode (siblings by bare name, direct
dependencies' exports as `dep/name`, unbound names are errors) and lowered to one module
whose `program()` fills the component's own table `PNS`: a `def` per `defn`/`defn-`, exports
wrapped so that a `(return v)` ends the export call and signatures are checked on both sides.
Siblings are looked up in `PNS` at call time, so forward and mutual references work and a
closure that escapes an export keeps resolving the namespace's private helpers.
"""

from __future__ import annotations

import ast
import builtins
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import CodeType
from typing import Any

from ptc_compiler import ir
from ptc_compiler.analyzer.core import Analyzer
from ptc_compiler.analyzer.env import AnalysisEnv, ExportInfo
from ptc_compiler.analyzer.fn import _contract, fn_arities
from ptc_compiler.analyzer.scope import Ctx as AnCtx
from ptc_compiler.forms import Const, Form, ListForm, MapForm, Span, Symbol, VectorForm
from ptc_compiler.lower.check import COMPONENT_TABLES, GeneratedCodeRejected, check_restricted
from ptc_compiler.lower.check import finalize as check_finalize
from ptc_compiler.lower.ctx import PNS, Ctx, fuel_globals, helper, load
from ptc_compiler.lower.emit import Emitter, arguments
from ptc_compiler.prelude.header import (
    VISIBILITIES,
    Header,
    PreludeError,
    attr_pairs,
    keyword_attr,
    parse_header,
    prelude_error,
    read_header,
    read_source,
    source_hash,
)
from ptc_runtime.errors import PtcError

__all__ = [
    "CompiledComponent",
    "ComponentMeta",
    "Definition",
    "Header",
    "PreludeError",
    "compile_component",
    "lower_component",
    "read_header",
    "source_hash",
]

EFFECTS = ("read", "write", "unknown")
_REQUIRE = re.compile(r"tool:[A-Za-z0-9._-]+\Z")


@dataclass(frozen=True, slots=True)
class Definition:
    """One top-level `defn`, `defn-` or `def` of a component: facts only, no code."""

    name: str
    kind: str  # "function" | "constant"
    private: bool
    doc: str | None = None
    signature: str | None = None  # canonical text
    contract: str | None = None  # contract data text (runtime form)
    type: str | None = None  # constants: canonical type text
    arities: tuple[int, ...] = ()
    variadic_min: int | None = None
    params: tuple[str, ...] = ()  # display params of the first arity
    visibility: str | None = None  # declared (None: namespace default)
    effect: str | None = None  # declared
    requires: tuple[str, ...] = ()  # declared extra requirements ("tool:x")
    siblings: tuple[str, ...] = ()  # own definitions referenced
    exports: tuple[str, ...] = ()  # dependency exports referenced (ns/name)
    tools: tuple[str, ...] = ()  # tool/<name> referenced directly
    source: str = ""  # the defining form as written

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.kind,
            "private": self.private,
            "doc": self.doc,
            "signature": self.signature,
            "contract": self.contract,
            "type": self.type,
            "arities": list(self.arities),
            "variadic_min": self.variadic_min,
            "params": list(self.params),
            "visibility": self.visibility,
            "effect": self.effect,
            "requires": list(self.requires),
            "siblings": list(self.siblings),
            "exports": list(self.exports),
            "tools": list(self.tools),
            "source": self.source,
        }

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Definition:
        return cls(
            name=d["name"],
            kind=d["kind"],
            private=bool(d["private"]),
            doc=d.get("doc"),
            signature=d.get("signature"),
            contract=d.get("contract"),
            type=d.get("type"),
            arities=tuple(d.get("arities", ())),
            variadic_min=d.get("variadic_min"),
            params=tuple(d.get("params", ())),
            visibility=d.get("visibility"),
            effect=d.get("effect"),
            requires=tuple(d.get("requires", ())),
            siblings=tuple(d.get("siblings", ())),
            exports=tuple(d.get("exports", ())),
            tools=tuple(d.get("tools", ())),
            source=d.get("source", ""),
        )

    def info(self, ns: str) -> ExportInfo:
        return ExportInfo(
            f"{ns}/{self.name}", self.kind == "constant", self.arities, self.variadic_min
        )


@dataclass(frozen=True)
class ComponentMeta:
    """Everything about a compiled component except its code (the artifact sidecar)."""

    ns: str
    doc: str | None
    visibility: str
    deps: tuple[str, ...]
    source_hash: str
    definitions: tuple[Definition, ...]
    origin: str = ""
    fn_names: Mapping[str, str] = field(default_factory=dict)

    def public(self) -> list[Definition]:
        return [d for d in self.definitions if not d.private]

    def export_infos(self) -> dict[str, ExportInfo]:
        return {f"{self.ns}/{d.name}": d.info(self.ns) for d in self.public()}

    def to_json(self) -> dict[str, Any]:
        return {
            "ns": self.ns,
            "doc": self.doc,
            "visibility": self.visibility,
            "deps": list(self.deps),
            "source_hash": self.source_hash,
            "origin": self.origin,
            "definitions": [d.to_json() for d in self.definitions],
            "fn_names": dict(sorted(self.fn_names.items())),
        }

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> ComponentMeta:
        return cls(
            ns=d["ns"],
            doc=d.get("doc"),
            visibility=d.get("visibility", "prompt"),
            deps=tuple(d.get("deps", ())),
            source_hash=d["source_hash"],
            definitions=tuple(Definition.from_json(x) for x in d["definitions"]),
            origin=d.get("origin", ""),
            fn_names=dict(d.get("fn_names", {})),
        )


def _slice(source_lines: list[str], span: Span) -> str:
    if span.line <= 0:
        return ""
    lines = source_lines[span.line - 1 : span.end_line]
    if not lines:
        return ""
    if len(lines) == 1:
        return lines[0][span.col - 1 : span.end_col - 1]
    lines[0] = lines[0][span.col - 1 :]
    lines[-1] = lines[-1][: span.end_col - 1]
    return "\n".join(lines)


def _display_params(params: VectorForm) -> tuple[str, ...]:
    out = []
    for i, p in enumerate(params.items):
        if type(p) is Symbol and p.ns is None:
            out.append(p.name)
        else:
            out.append(f"arg{i}")
    return tuple(out)


@dataclass
class _Parsed:
    form: ListForm
    head: str
    name: str
    doc: str | None
    attrs: list[tuple[str, Form]]
    attr_span: Span | None
    rest: tuple[Form, ...]


def _parse_def(form: Form, ns: str) -> _Parsed:
    if not (type(form) is ListForm and form.items and type(form.items[0]) is Symbol):
        raise prelude_error(
            "invalid_form",
            "only (defn ...), (defn- ...) and (def ...) may appear at the top level of a component",
            form.span,
            ns,
        )
    head = form.items[0].text
    if head == "ns":
        raise prelude_error(
            "duplicate_namespace", "ns declared twice in one component", form.span, ns
        )
    if head not in ("defn", "defn-", "def"):
        raise prelude_error(
            "invalid_form",
            f"({head} ...) is not allowed at the top level of a component: only defn, defn- "
            "and def",
            form.span,
            ns,
        )
    args = form.items[1:]
    if not args or type(args[0]) is not Symbol:
        raise prelude_error("invalid_form", f"{head} expects a name", form.span, ns)
    sym = args[0]
    assert type(sym) is Symbol
    if sym.ns is not None:
        raise prelude_error(
            "protected_namespace" if sym.ns != ns else "qualified_self_reference",
            f"cannot define the qualified name {sym.text} in a component",
            sym.span,
            ns,
            hint=f"write ({head} {sym.name} ...)",
        )
    rest = list(args[1:])
    doc: str | None = None
    if len(rest) > 1 and type(rest[0]) is Const and isinstance(rest[0].value, str):
        doc = rest[0].value
        rest.pop(0)
    attrs: list[tuple[str, Form]] = []
    attr_span = None
    if len(rest) > 1 and type(rest[0]) is MapForm:
        attr_span = rest[0].span
        attrs = attr_pairs(rest.pop(0), ns)  # type: ignore[arg-type]
    return _Parsed(form, head, sym.name, doc, attrs, attr_span, tuple(rest))


@dataclass
class CompiledComponent:
    """A compiled component: metadata and its module's code object."""

    meta: ComponentMeta
    code: CodeType
    module: ast.Module | None = None  # kept only when asked (ptc compile --emit python)


def compile_component(
    source: str,
    dep_exports: Mapping[str, ExportInfo] | None = None,
    *,
    origin: str = "",
    keep_module: bool = False,
) -> CompiledComponent:
    """Compile one component; `dep_exports` are its direct dependencies' exports."""
    forms = read_source(source, origin)
    header = parse_header(forms, origin)
    ns = header.ns
    dep_exports = dict(dep_exports or {})
    missing = [d for d in header.deps if not any(r.startswith(d + "/") for r in dep_exports)]
    if missing:
        raise prelude_error(
            "unknown_dependency",
            f"dependency not available: {', '.join(missing)}",
            forms[0].span,
            ns,
            hint="compile the dependencies together (ptc compile DIR) or pass them as preludes",
        )
    parsed: list[_Parsed] = []
    seen: dict[str, Span] = {}
    for form in forms[1:]:
        p = _parse_def(form, ns)
        if p.name in seen:
            raise prelude_error(
                "duplicate_ref",
                f"{ns}/{p.name} is defined twice (first at line {seen[p.name].line})",
                form.span,
                ns,
            )
        seen[p.name] = form.span
        parsed.append(p)
    siblings = {p.name: p.head == "def" for p in parsed}
    env = AnalysisEnv(
        component=ns,
        siblings=siblings,
        exports=dep_exports,
        prelude_namespaces=frozenset(header.deps),
    )
    an = Analyzer(env)
    lines = source.split("\n")
    defs: list[Definition] = []
    nodes: list[ir.Node] = []
    for p in parsed:
        an.tools = set()
        an.sibling_refs = set()
        an.export_refs = set()
        try:
            if p.head == "def":
                d, node = _constant(an, p, ns)
            else:
                d, node = _function(an, p, ns)
        except PreludeError:
            raise
        except PtcError as exc:
            raise PreludeError(
                exc.code,
                exc.message,
                component=ns,
                line=exc.line,
                column=exc.column,
                hint=exc.hint,
            ) from None
        defs.append(replace(d, source=_slice(lines, p.form.span)))
        nodes.append(node)
    _check_constant_order(defs, parsed, ns)
    meta = ComponentMeta(
        ns=ns,
        doc=header.doc,
        visibility=header.visibility,
        deps=header.deps,
        source_hash=source_hash(source),
        definitions=tuple(defs),
        origin=origin,
    )
    module, fn_names = lower_component(meta, nodes)
    meta = replace(meta, fn_names=fn_names)
    try:
        check_restricted(module)
        code = builtins.compile(module, f"<ptc-prelude:{ns}>", "exec", dont_inherit=True)
    except GeneratedCodeRejected as exc:
        raise PreludeError(
            "internal_error", f"internal compiler error: {exc}", component=ns
        ) from None
    except RecursionError:
        raise PreludeError(
            "program_too_complex", "component nests too deeply to compile", component=ns
        ) from None
    return CompiledComponent(meta, code, module if keep_module else None)


def _attrs(p: _Parsed, allowed: set[str], ns: str) -> dict[str, Form]:
    out: dict[str, Form] = {}
    for key, value in p.attrs:
        if key not in allowed:
            raise prelude_error(
                "invalid_metadata",
                f"{p.name}: attribute :{key} is not allowed on {p.head} "
                f"(allowed: {', '.join(':' + a for a in sorted(allowed))})",
                value.span,
                ns,
            )
        out[key] = value
    return out


def _string_attr(attrs: Mapping[str, Form], key: str, ns: str) -> str | None:
    form = attrs.get(key)
    if form is None:
        return None
    if type(form) is not Const or not isinstance(form.value, str):
        raise prelude_error("invalid_metadata", f":{key} must be a string", form.span, ns)
    return form.value


def _requires(attrs: Mapping[str, Form], ns: str) -> tuple[str, ...]:
    form = attrs.get("requires")
    if form is None:
        return ()
    if type(form) is not VectorForm:
        raise prelude_error(
            "invalid_requires", ':requires must be a vector of "tool:name"', form.span, ns
        )
    out = []
    for item in form.items:
        if not (type(item) is Const and isinstance(item.value, str) and _REQUIRE.match(item.value)):
            raise prelude_error(
                "invalid_requires", ':requires entries look like "tool:name"', item.span, ns
            )
        out.append(item.value)
    return tuple(sorted(set(out)))


def _common(p: _Parsed, attrs: Mapping[str, Form], ns: str) -> dict[str, Any]:
    doc = _string_attr(attrs, "doc", ns) or p.doc
    vis = attrs.get("visibility")
    eff = attrs.get("effect")
    return {
        "doc": doc,
        "visibility": None if vis is None else keyword_attr(vis, "visibility", VISIBILITIES, ns),
        "effect": None if eff is None else keyword_attr(eff, "effect", EFFECTS, ns),
        "requires": _requires(attrs, ns),
    }


def _facts(an: Analyzer) -> dict[str, Any]:
    return {
        "siblings": tuple(sorted(an.sibling_refs)),
        "exports": tuple(sorted(an.export_refs)),
        "tools": tuple(sorted(an.tools)),
    }


def _function(an: Analyzer, p: _Parsed, ns: str) -> tuple[Definition, ir.Node]:
    attrs = _attrs(p, {"signature", "doc", "visibility", "effect", "requires"}, ns)
    if not p.rest or (len(p.rest) == 1 and type(p.rest[0]) is Const):
        raise prelude_error(
            "invalid_arity", f"expected ({p.head} {p.name} [params] body)", p.form.span, ns
        )
    ctx = AnCtx({}, None, False, None, frozenset())
    arities = fn_arities(an, p.rest, {}, ctx, p.form, p.head)
    signature = _string_attr(attrs, "signature", ns)
    contract = canonical = None
    if signature is not None:
        contract = _contract(signature, arities, p.attr_span or p.form.span, f"{ns}/{p.name}")
        from ptc_compiler.signatures import parse, render

        canonical = render(parse(signature))
    first = p.rest[0]
    params_form = first if type(first) is VectorForm else first.items[0]  # type: ignore[union-attr]
    assert type(params_form) is VectorForm
    fixed = tuple(len(a.params) for a in arities if a.rest is None)
    variadic = [len(a.params) for a in arities if a.rest is not None]
    d = Definition(
        name=p.name,
        kind="function",
        private=p.head == "defn-",
        signature=canonical,
        contract=contract,
        arities=fixed,
        variadic_min=variadic[0] if variadic else None,
        params=_display_params(params_form),
        **_common(p, attrs, ns),
        **_facts(an),
    )
    node = ir.Fn(arities, None, f"{ns}/{p.name}", None, d.doc, p.form.span, None)
    return d, node


def _constant(an: Analyzer, p: _Parsed, ns: str) -> tuple[Definition, ir.Node]:
    attrs = _attrs(p, {"type", "doc", "visibility"}, ns)
    if len(p.rest) != 1:
        raise prelude_error(
            "invalid_arity", f'expected (def {p.name} "doc"? {{meta}}? value)', p.form.span, ns
        )
    type_text = _string_attr(attrs, "type", ns)
    canonical = None
    if type_text is not None:
        from ptc_compiler.signatures import SignatureError, parse_type, render_type

        try:
            canonical = render_type(parse_type(type_text))
        except SignatureError as exc:
            raise prelude_error(
                "invalid_signature", f"{p.name}: {exc.message}", attrs["type"].span, ns
            ) from None
    ctx = AnCtx({}, None, False, None, frozenset())
    value = an.expr(p.rest[0], ctx)
    if an.export_refs:
        raise prelude_error(
            "dep_ref_in_def",
            f"{p.name}: a constant cannot use dependency exports "
            f"({', '.join(sorted(an.export_refs))}); constants must be pure",
            p.form.span,
            ns,
            hint="make it a defn, or compute the value inside the functions that need it",
        )
    if an.tools:
        raise prelude_error(
            "tool_in_def",
            f"{p.name}: a constant cannot call tools (tool/{sorted(an.tools)[0]}); constants "
            "are evaluated once, when the prelude is built",
            p.form.span,
            ns,
            hint="make it a defn",
        )
    d = Definition(
        name=p.name,
        kind="constant",
        private=False,
        type=canonical,
        **_common(p, attrs, ns),
        **_facts(an),
    )
    return d, value


def _check_constant_order(defs: list[Definition], parsed: list[_Parsed], ns: str) -> None:
    position = {d.name: i for i, d in enumerate(defs)}
    for i, d in enumerate(defs):
        if d.kind != "constant":
            continue
        for s in d.siblings:
            other = defs[position[s]]
            if other.kind == "constant" and position[s] >= i:
                raise prelude_error(
                    "invalid_form",
                    f"{d.name}: constant {s} is defined later; define constants before use",
                    parsed[i].form.span,
                    ns,
                )


def lower_component(
    meta: ComponentMeta, nodes: Sequence[ir.Node]
) -> tuple[ast.Module, dict[str, str]]:
    """The component's module: hoisted functions, then `program()` filling `PNS`."""
    from ptc_runtime.builtins import BUILTINS

    cx = Ctx(component=True)
    emitter = Emitter(BUILTINS, cx)
    ns = meta.ns
    body: list[ast.stmt] = [fuel_globals()]
    consts: list[ast.stmt] = []
    for d, node in zip(meta.definitions, nodes, strict=True):
        ref = f"{ns}/{d.name}"
        if d.kind == "function":
            assert isinstance(node, ir.Fn)
            low = emitter.fn(node)
            value = low.expr
            if not d.private:
                if d.contract is not None:
                    sig = load(cx.const("contract", d.contract))
                    value = helper("signed_export", sig, value, ast.Constant(ref))
                else:
                    value = helper("pexport", value, ast.Constant(ref))
            body.extend(low.stmts)
            body.append(_store(d.name, value))
        else:
            cx.recur = None
            low = emitter.expr(node)
            consts.extend(low.stmts)
            consts.append(_store(d.name, low.expr))
    program = ast.FunctionDef(
        name="program",
        args=arguments([]),
        body=[*body, *consts, ast.Return(value=ast.Constant(None))],
        decorator_list=[],
        returns=None,
    )
    module = ast.Module(body=[*cx.hoisted, program], type_ignores=[])
    check_finalize(module, COMPONENT_TABLES)
    return module, dict(cx.fn_names)


def _store(name: str, value: ast.expr) -> ast.stmt:
    target = ast.Subscript(value=load(PNS), slice=ast.Constant(name), ctx=ast.Store())
    return ast.Assign(targets=[target], value=value)
