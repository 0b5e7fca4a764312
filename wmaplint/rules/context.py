"""The typed check contract: what the engine hands a rule's logic for one definition, or for one document of
another kind (a CRD, a rule pack).

Rules neither load, parse nor print. The definition is built from its nodes, its expressions parsed, the
schema types they are checked against and what the controller model says of the root's kind looked up here,
each once and only when a rule first asks, and shared by every rule of the definition; so is an analysis
several rules report from (``shared``).

This is the rule context; a jq expression's evaluation context (``root`` or ``pod``) is ``ExprRole.context``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from wmaplint.dataclass import dataclass, field
from wmaplint.diagnostics import RULES, Diagnostic, Fix, RelatedLocation, Rule, Severity, Span
from wmaplint.source import Document, Node, SourceFile, content_span

if TYPE_CHECKING:
    from wmaplint.config import Config
    from wmaplint.controllers import KindModel, Model
    from wmaplint.definition.model import Definition, Expr
    from wmaplint.jq.ast import Node as JqNode
    from wmaplint.jq.parser import JqSyntaxError
    from wmaplint.jq.roles import ExprRole
    from wmaplint.schema.store import Schemas
    from wmaplint.schema.types import SchemaType
    from wmaplint.typecheck.paths import DefinitionSchemas, TypedPath

_UNSET: Any = object()  # a lazily computed member not computed yet (None is a value)


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
        return self._shared[analysis]  # type: ignore[no-any-return]  # what analysis returned, kept by it


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
    store: Schemas | None = None  # the configuration's schema store (wmaplint.schema.store.shared_store)
    _expressions: list[ParsedExpression] | None = field(default=None, repr=False)
    _shared: dict[Callable[..., Any], Any] = field(default_factory=dict, repr=False)
    _root_model: KindModel | None = field(default=_UNSET, repr=False)
    _model: Model | None = field(default=None, repr=False)
    _schemas: DefinitionSchemas | None = field(default=None, repr=False)
    _typed_paths: list[TypedPath] | None = field(default=None, repr=False)

    @property
    def schemas(self) -> DefinitionSchemas | None:
        """The schemas the definition's paths are checked against (its root kind from each distinct source,
        the Pod, ObjectMeta; ``wmaplint.typecheck.paths``), or None without a store or a root kind."""
        if self._schemas is None and self.store is not None:
            from wmaplint.typecheck.paths import schemas_of

            self._schemas = schemas_of(self.store, self.definition)
        return self._schemas

    @property
    def typed_paths(self) -> list[TypedPath]:
        """The findings of every path of the definition typed against its schemas (what the schema rules
        report), found once for all of them."""
        if self._typed_paths is None:
            from wmaplint.typecheck.paths import typed_paths

            schemas = self.schemas
            self._typed_paths = typed_paths(self.definition, schemas) if schemas is not None else []
        return self._typed_paths

    @property
    def expressions(self) -> list[ParsedExpression]:
        """Every jq expression of the definition, parsed (each text once per process)."""
        if self._expressions is None:
            from wmaplint.jq.parser import try_parse

            parsed = []
            for expr in self.definition.expressions():
                tree = try_parse(expr.text)
                if isinstance(tree, Exception):
                    parsed.append(ParsedExpression(expr, expr.role, None, tree))
                else:
                    parsed.append(ParsedExpression(expr, expr.role, tree, None))
            self._expressions = parsed
        return self._expressions

    @property
    def root_schema_types(self) -> list[SchemaType]:
        """The schema types of the root component's kind, one a distinct source serving it (none without a
        kind or a store)."""
        schemas = self.schemas
        return [schema.type for schema in schemas.roots] if schemas is not None else []

    @property
    def controller_model(self) -> Model:
        """The controller model (``wmaplint.controllers``) as the project sees it: its own model files merged
        and its releases pinned; the shipped model when a project file cannot be read (which `new`
        reports)."""
        if self._model is None:
            from wmaplint.controllers.project import usable_model

            self._model = usable_model(self.config)
        return self._model

    @property
    def root_model(self) -> KindModel | None:
        """The controller model of the root component's kind and version, at the release the project pins
        (every release read when it pins none); None when the model does not know the kind. The one reader of
        the model for every rule."""
        if self._root_model is _UNSET:
            model = self.controller_model
            root = self.definition.root
            kind = root.kind if root is not None else None
            self._root_model = (model.model_for(kind.group, kind.kind, kind.version)
                                if kind is not None else None)
        return self._root_model

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
        rule = RULES[rule] if isinstance(rule, str) else rule  # an analysis's findings name their rule by id
        if where is None:
            span = self.definition.document_node.span
            span = Span(span.start_line, span.start_col, span.start_line, span.start_col + 1)
        elif isinstance(where, Span):
            span = where
        else:
            span = content_span(where)  # a block mapping's own span runs into the next line
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
        return RelatedLocation(self.path, content_span(node), message)


@dataclass(eq=False)
class DocumentContext(_Shared):
    """One document of a kind other than a definition (``kind``: a CRD, a rule pack) being checked."""

    path: str
    source: SourceFile
    document: Document
    kind: str
    config: Config
    _shared: dict[Callable[..., Any], Any] = field(default_factory=dict, repr=False)

