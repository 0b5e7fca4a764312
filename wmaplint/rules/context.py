"""The typed check contract: what the engine hands a rule's logic for one definition, or for one document of
another kind (a CRD, a rule pack).

Rules neither load, parse nor print. The definition is built from its nodes, its expressions parsed and the
schema types they are checked against looked up here, each once and only when a rule first asks, and shared
by every rule of the definition; so is an analysis several rules report from (``shared``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from wmaplint.diagnostics import RULES, Diagnostic, Fix, RelatedLocation, Rule, Severity, Span
from wmaplint.source import Document, Node, SourceFile
from wmaplint.structs import dataclass, field

if TYPE_CHECKING:
    from wmaplint.config import Config
    from wmaplint.definition.model import Definition, Expr
    from wmaplint.jq.ast import Node as JqNode
    from wmaplint.jq.parser import JqSyntaxError
    from wmaplint.jq.roles import ExprRole


P = ParamSpec("P")
T = TypeVar("T")


class _Shared:
    """Analyses computed once for one definition or document, however many of its rules report from them."""

    _shared: dict[Callable[..., Any], Any]

    def shared(self, analysis: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``analysis(*args, **kwargs)``, computed the first time a rule asks and then remembered for this
        definition or document: the rules that share an analysis pass it the same arguments."""
        if analysis not in self._shared:
            self._shared[analysis] = analysis(*args, **kwargs)
        return self._shared[analysis]  # type: ignore[no-any-return]


@dataclass(eq=False)
class ParsedExpression:
    """One jq expression of the definition: where it stands (``expr``), how it is used (``role``) and its
    syntax tree, or the syntax error that stops the parser."""

    expr: Expr
    role: ExprRole
    tree: JqNode | None
    error: JqSyntaxError | None

    @property
    def text(self) -> str:
        return self.expr.text


@dataclass(eq=False)
class DefinitionContext(_Shared):
    """One definition being checked, and everything its rules read."""

    path: str
    source: SourceFile
    document: Document
    definition: Definition
    config: Config
    strict: bool = False
    schema_store: Callable[[], Any] | None = None  # gives the configuration's store (engine.Options)
    options: Any = None  # (engine options, config), for the checks that have not moved to rule modules yet
    cache: dict[str, Any] = field(default_factory=dict)  # of the checks that have not moved yet
    _store: Any = field(default=None, repr=False)
    _expressions: list[ParsedExpression] | None = field(default=None, repr=False)
    _shared: dict[Callable[..., Any], Any] = field(default_factory=dict, repr=False)

    @property
    def store(self) -> Any:
        """The schema store of the configuration (``wmaplint.schema.store.SchemaStore``), or None."""
        if self._store is None and self.schema_store is not None:
            self._store = self.schema_store()
        return self._store

    @property
    def expressions(self) -> list[ParsedExpression]:
        """Every jq expression of the definition, parsed (each text once per process)."""
        if self._expressions is None:
            from wmaplint.jq.parser import try_parse

            parsed = []
            for expr in self.definition.expressions():
                tree = try_parse(expr.text)
                if isinstance(tree, Exception):
                    parsed.append(ParsedExpression(expr, role_of(expr), None, tree))
                else:
                    parsed.append(ParsedExpression(expr, role_of(expr), tree, None))
            self._expressions = parsed
        return self._expressions

    def diag(
        self,
        rule: Rule | str,
        where: Node | Span | None,
        message: str,
        *,
        severity: Severity | None = None,
        related: Iterable[RelatedLocation] = (),
        fixes: Iterable[Fix] = (),
        data: dict[str, Any] | None = None,
    ) -> Diagnostic:
        """A diagnostic of ``rule`` at a node or span of this file (the document's start when None)."""
        rule = RULES[rule] if isinstance(rule, str) else rule  # checks not yet moved name rules by id
        if where is None:
            span = self.definition.document_node.span
            span = Span(span.start_line, span.start_col, span.start_line, span.start_col + 1)
        elif isinstance(where, Span):
            span = where
        else:
            span = where.span
        return Diagnostic(
            rule=rule.id,
            severity=severity if severity is not None else rule.severity,
            message=message,
            path=self.path,
            span=span,
            related=tuple(related),
            fixes=tuple(fixes),
            data=data,
        )

    def here(self, node: Node, message: str) -> RelatedLocation:
        return RelatedLocation(self.path, node.span, message)


@dataclass(eq=False)
class DocumentContext(_Shared):
    """One document of a kind other than a definition (``kind``: a CRD, a rule pack) being checked."""

    path: str
    source: SourceFile
    document: Document
    kind: str
    config: Config
    _shared: dict[Callable[..., Any], Any] = field(default_factory=dict, repr=False)


def role_of(expr: Expr) -> ExprRole:
    """How the definition uses an expression, as the jq analyses read it."""
    from wmaplint.jq.roles import ExprRole

    component = expr.component
    return ExprRole(
        field=expr.field,
        context=expr.context,
        cardinality=expr.cardinality,
        writable=expr.writable,
        selector_value=expr.selector_value,
        expected_result=expr.expected_result,
        has_instances=component is not None and component.instance_id_path is not None,
    )
