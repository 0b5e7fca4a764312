"""Every path of a definition typed against the schemas it runs on: the root-context paths against the
workload's kind from each distinct schema source serving it (two releases of an operator are both checked),
the pod-context paths against the Pod schema, and every object's `metadata` as Kubernetes' ObjectMeta."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from wmaplint import memo
from wmaplint.dataclass import dataclass
from wmaplint.diagnostics import RelatedLocation, Span
from wmaplint.jq.inference.findings import WRONG_PATH, PrunedField, UnguardedIteration, UnknownField
from wmaplint.jq.inference.queries import types_at
from wmaplint.schema.served import object_meta_from
from wmaplint.schema.types import ARRAY, OBJECT, SchemaType, variants
from wmaplint.typecheck.expectations import check_expression, expectation_of

if TYPE_CHECKING:
    from wmaplint.definition.model import Definition, Expr
    from wmaplint.findings import ExpressionFinding
    from wmaplint.schema.store import ResolvedSchema, Schemas

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
    """A finding of one of the definition's expressions, typed against one schema source. ``against``: how
    findings name the source when several serve the kind (else None)."""

    expr: Expr
    schema: ResolvedSchema
    against: str | None
    finding: ExpressionFinding

    @property
    def related(self) -> tuple[RelatedLocation, ...]:
        """Where the schema declares the object a field is missing from, named like its source (a bundled or
        cached schema by its path there, never by a path of this machine)."""
        declared = getattr(self.finding, "declared", None)
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
    """The findings of every expression of ``definition`` typed against each of its context's schemas, each
    said once (see ``across_releases``), but for the iterations of the lists without which it has no pods."""
    found: list[TypedPath] = []
    for expr in definition.expressions():
        sources = schemas.of_context(expr.context)
        if not sources:
            continue
        expectation = expectation_of(expr)
        typed = [(schema, [finding for finding in check_expression(expr.text, expectation, schema.type,
                                                             source=schema.source,
                                                             object_meta=schemas.object_meta)
                           if _concerns(finding, expr)])
                 for schema in sources]
        found.extend(across_releases(expr, typed))
    essential = _without_pods(found, schemas.roots)
    return [path for path in found
            if not (isinstance(path.finding, UnguardedIteration) and path.finding.absent in essential)]


def across_releases(expr: Expr,
                    typed: list[tuple[ResolvedSchema, list[ExpressionFinding]]]) -> list[TypedPath]:
    """The findings of ``expr`` typed against several sources serving its kind (releases of one operator), as
    findings say them. A field one release lacks and another declares is no fault: the definition may be
    written for the release that has it, and on the other the field is never there, as if unset (the API
    server prunes what its schema does not declare); so that release says nothing of it, and its typing,
    which stops there, does not count against the others. A finding found against every release that types the
    path is said once; one found against some of them names its source."""
    if len(typed) == 1:
        schema, findings = typed[0]
        return [TypedPath(expr, schema, None, finding) for finding in findings]
    kept: list[tuple[ResolvedSchema, list[ExpressionFinding], bool]] = []
    for schema, findings in typed:
        elsewhere = [f for f in findings if _declared_elsewhere(expr, f, schema, typed)]
        kept.append((schema, [f for f in findings if f not in elsewhere], not elsewhere))
    typing = [(schema, findings) for schema, findings, types_it in kept if types_it]
    keys = [{_key(finding) for finding in findings} for _, findings in typing]
    common = set.intersection(*keys) if keys else set()
    found: list[TypedPath] = []
    said: set[tuple[type, int, int]] = set()
    for schema, findings, _ in kept:
        for finding in findings:
            key = _key(finding)
            if key not in common:
                found.append(TypedPath(expr, schema, source_name(schema.source), finding))
            elif key not in said:
                said.add(key)
                found.append(TypedPath(expr, schema, None, finding))
    return found


def _declared_elsewhere(expr: Expr, finding: ExpressionFinding, schema: ResolvedSchema,
                        typed: list[tuple[ResolvedSchema, list[ExpressionFinding]]]) -> bool:
    """Whether ``finding`` is a field ``schema``'s release lacks that another release serving the kind
    declares (an open object there, which takes any field, does not count)."""
    if not isinstance(finding, (UnknownField, PrunedField)):
        return False
    return any(types_at(expr.text, other.type, finding.start) is not None
               for other, _ in typed if other is not schema)


def _key(finding: ExpressionFinding) -> tuple[type, int, int]:
    """What makes two releases' findings one finding: the same kind at the same place in the expression."""
    return type(finding), finding.start, finding.end


def _without_pods(found: list[TypedPath], roots: tuple[ResolvedSchema, ...]) -> set[str]:
    """The fields of the unguarded iterations found without which the workload's object holds no pod spec at
    all (every pod spec its schema has is below them, in every release): like a missing `spec`, a missing
    one of those leaves nothing to run, show or group, so iterating it is no finding."""
    absent = {path.finding.absent for path in found if isinstance(path.finding, UnguardedIteration)}
    if not absent or not roots:
        return set()
    pods = [pod_spec_paths(schema.type) for schema in roots]
    # a field of one element (`[]` in its path) is not: the other elements hold their pod specs
    return {field for field in absent if "[]" not in field
            and all(specs and all(p.startswith((field + "[]", field + ".")) for p in specs)
                    for specs in pods)}


@memo.lru_cache(maxsize=256, pure=True)
def pod_spec_paths(root: SchemaType, max_depth: int = 12, budget: int = 20000) -> tuple[str, ...]:
    """Where the object of schema ``root`` holds pod specs (objects with a `containers` list), as the typing
    writes paths (`spec.jobs[].template.spec`, `[]` for list and map elements), below its `spec` and
    ``max_depth`` levels deep at most (pod templates sit a few levels down); empty when the walk exceeds its
    node budget (nothing is then known)."""
    spec = root.member("spec")
    found: list[str] = []
    frontier = [(spec, "spec")] if spec is not None else []
    seen = 0
    for _ in range(max_depth):
        following: list[tuple[SchemaType, str]] = []
        for t, path in frontier:
            for v in variants(t):
                seen += 1
                if v.kind == OBJECT and v.properties.get("containers") is not None:
                    found.append(path)
                elif v.kind == OBJECT:
                    following.extend((prop.type, f"{path}.{name}") for name, prop in v.properties.items())
                    if v.additional is not None:
                        following.append((v.additional, path + "[]"))
                elif v.kind == ARRAY and v.items is not None:
                    following.append((v.items, path + "[]"))
        if seen > budget:
            return ()
        frontier = following
        if not frontier:
            break
    return tuple(found)


def _concerns(finding: ExpressionFinding, expr: Expr) -> bool:
    """Whether ``finding`` says something of ``expr``: an unguarded iteration only on the workload object,
    since pod selectors and gang paths run on pods the controller made, whose fields are there; a wrong
    conditions path only where a matcher reads the conditions it finds: the runtime reads them for the
    matchers, and a path to nothing finds none, as a kind without conditions has
    (dsx-ai-factory/workload-map@932dddf `karta/pkg/resource/accessor.go`, `extractConditions`, `match`)."""
    if isinstance(finding, UnguardedIteration):
        return expr.context == "root"
    return not isinstance(finding, WRONG_PATH) or not _unread_conditions(expr)


def _unread_conditions(expr: Expr) -> bool:
    """Whether ``expr`` is the conditions path of a status definition no byConditions matcher of which reads
    the conditions."""
    status = expr.component.status if expr.component is not None else None
    return (status is not None and status.conditions_path is expr
            and not any(matcher.by_conditions_node is not None
                        for matchers in status.mappings.values() for matcher in matchers))


def source_name(path: str) -> str:
    """A schema source as findings name it when several serve a kind: its file with its directory."""
    p = Path(path)
    return f"{p.parent.name}/{p.name}" if p.parent.name else p.name
