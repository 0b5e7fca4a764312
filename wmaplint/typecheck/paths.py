"""Every path of a definition typed against the schemas it runs on: the root-context paths against the
workload's kind from each distinct schema source serving it (two releases of an operator are both checked),
the pod-context paths against the Pod schema, and every object's `metadata` as Kubernetes' ObjectMeta."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from wmaplint.dataclass import dataclass
from wmaplint.diagnostics import RelatedLocation, Span
from wmaplint.jq.inference.facts import UnguardedIteration
from wmaplint.schema.served import object_meta_from
from wmaplint.typecheck.expectations import check_expression, expectation_of

if TYPE_CHECKING:
    from wmaplint.definition.model import Definition, Expr
    from wmaplint.facts import ExpressionFact
    from wmaplint.schema.store import ResolvedSchema, Schemas
    from wmaplint.schema.types import SchemaType

POD = ("", "v1", "Pod")


@dataclass(frozen=True, slots=True, eq=False)
class DefinitionSchemas:
    """The schemas a definition's paths are checked against: ``roots``, its root kind from every distinct
    source serving it; ``pods``, the store's Pod schemas (paths are typed against the first); and
    ``object_meta``, Kubernetes' ObjectMeta from them (None without core schemas)."""

    roots: tuple[ResolvedSchema, ...]
    pods: tuple[ResolvedSchema, ...]
    object_meta: SchemaType | None

    def of_context(self, context: str) -> tuple[ResolvedSchema, ...]:
        """The schemas the paths evaluated in ``context`` ("root" or "pod") are typed against."""
        return self.roots if context == "root" else self.pods[:1]


def schemas_of(store: Schemas, definition: Definition) -> DefinitionSchemas | None:
    """The schemas of ``definition`` in ``store``; None when it names no root kind (nothing is checked)."""
    root = definition.root
    if root is None or root.kind is None or not root.kind.kind:
        return None
    gvk = root.kind
    pods = tuple(store.lookup(*POD))
    return DefinitionSchemas(tuple(distinct(store.lookup(gvk.group, gvk.version, gvk.kind))), pods,
                             object_meta_from(pods))


def distinct(schemas: Iterable[ResolvedSchema]) -> list[ResolvedSchema]:
    """One schema per distinct file content: the same CRD in --crds and in the user cache is one release."""
    seen: set[str] = set()
    out = []
    for schema in schemas:
        if schema.sha256 not in seen:
            seen.add(schema.sha256)
            out.append(schema)
    return out


@dataclass(frozen=True, slots=True, eq=False)
class TypedPath:
    """A fact of one of the definition's expressions, typed against one schema source. ``against``: how
    findings name the source when several serve the kind (else None)."""

    expr: Expr
    schema: ResolvedSchema
    against: str | None
    fact: ExpressionFact

    @property
    def related(self) -> tuple[RelatedLocation, ...]:
        """Where the schema declares the object a field is missing from, named like its source (a bundled or
        cached schema by its path there, never by a path of this machine)."""
        declared = getattr(self.fact, "declared", None)
        if declared is None:
            return ()
        file, line, column = declared
        if not (isinstance(line, int) and isinstance(column, int) and line >= 1 and column >= 1):
            return ()
        file = file if isinstance(file, str) else self.schema.source
        base = self.schema.base if file == self.schema.source else None
        span = Span(line, column, line, column + 1)
        return (RelatedLocation(file, span, "the schema declares the parent here", base),)


def typed_paths(definition: Definition, schemas: DefinitionSchemas) -> list[TypedPath]:
    """The facts of every expression of ``definition`` typed against each of its context's schemas."""
    found: list[TypedPath] = []
    for expr in definition.expressions():
        sources = schemas.of_context(expr.context)
        if not sources:
            continue
        expectation = expectation_of(expr)
        for schema in sources:
            against = source_name(schema.source) if len(sources) > 1 else None
            facts = check_expression(expr.text, expectation, schema.type, source=schema.source,
                                     object_meta=schemas.object_meta)
            found.extend(TypedPath(expr, schema, against, fact) for fact in facts if _concerns(fact, expr))
    return found


def _concerns(fact: ExpressionFact, expr: Expr) -> bool:
    """Whether ``fact`` says something of ``expr``: an unguarded iteration only on the workload object, since
    pod selectors and gang paths run on pods the controller made, whose fields are there."""
    return not isinstance(fact, UnguardedIteration) or expr.context == "root"


def source_name(path: str) -> str:
    """A schema source as findings name it when several serve a kind: its file with its directory."""
    p = Path(path)
    return f"{p.parent.name}/{p.name}" if p.parent.name else p.name
