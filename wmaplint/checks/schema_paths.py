"""Every path proven against the workload's CRD (root context) or the Pod schema (pod context), as the
definition context gives them (``DefinitionContext.schemas``).

When several sources serve the root kind (two releases of an operator), each is checked and findings name the
source, so a definition right for one release and wrong for another shows.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from wmaplint.checks import Context, check
from wmaplint.checks.expressions import place
from wmaplint.definition.model import Expr
from wmaplint.diagnostics import Diagnostic, RelatedLocation, Span
from wmaplint.jq.guards import UNGUARDED_ITERATION
from wmaplint.source import ScalarNode


def expectation_key(expr: Expr) -> str:
    """The key of the typing analysis' field table for an expression (status and suspend paths are all
    `path`)."""
    if expr.field == "path":
        parent = expr.pointer[-2] if len(expr.pointer) >= 2 else ""
        if parent == "conditionsDefinition":
            return "conditionsPath"
        if parent == "phaseDefinition":
            return "phasePath"
        return "suspendPath"
    return expr.field


def _expectation(expr: Expr) -> Any:
    from wmaplint.jq.typing import Expectation

    extra: dict[str, Any] = {}
    key = expectation_key(expr)
    if key == "conditionsPath" and expr.component and expr.component.status:
        cond = expr.component.status.conditions_node
        for name, attr in (("typeFieldName", "type_field"), ("statusFieldName", "status_field")):
            node = cond.get(name) if cond is not None else None
            if isinstance(node, ScalarNode) and isinstance(node.value, str) and node.value:
                extra[attr] = node.value
    elif key == "suspendPath":
        value = expr.holder.get("value") if expr.holder is not None else None
        if isinstance(value, ScalarNode) and isinstance(value.value, str):
            extra["value"] = value.value
    elif key == "expression":
        extra["expected_result"] = expr.expected_result
    return Expectation.for_field(key, **extra)


@check
def schema_paths(ctx: Context) -> Iterator[Diagnostic]:
    schemas = ctx.schemas
    if schemas is None:
        return
    from wmaplint.jq.typing import check_expression

    for expr in ctx.definition.expressions():
        sources = schemas.of_context(expr.context)
        if not sources:
            continue
        expectation = _expectation(expr)
        named = len(sources) > 1
        seen: set[tuple[str, int, int, str]] = set()
        for schema in sources:
            label = _source_label(schema.source) if named else None
            findings = check_expression(
                expr.text, expectation, schema.type, source=schema.source, object_meta=schemas.object_meta
            )
            for finding in findings:
                if finding.rule == UNGUARDED_ITERATION and expr.context != "root":
                    continue  # WM309 covers the paths on the workload object, not those on its pods
                key = (finding.rule, finding.start, finding.end, finding.message)
                if key in seen and not named:
                    continue
                seen.add(key)
                diag = place(ctx, expr, finding, source=f"against {label}" if label else None)
                diag.related = diag.related + _declared_at(finding, schema)
                yield diag


def _source_label(path: str) -> str:
    p = Path(path)
    return f"{p.parent.name}/{p.name}" if p.parent.name else p.name


def _declared_at(finding: Any, schema: Any) -> tuple[RelatedLocation, ...]:
    """The "declared here" location typing puts in ``data["declared"]`` ({"file", "line", "column"}), named
    like its schema source (a bundled or cached schema by its path there, never by a path of this machine)."""
    data = getattr(finding, "data", None) or {}
    where = data.get("declared") if isinstance(data, dict) else None
    if not isinstance(where, dict):
        return ()
    line, col = where.get("line"), where.get("column")
    if not (isinstance(line, int) and isinstance(col, int) and line >= 1 and col >= 1):
        return ()
    declared_file = where.get("file")
    file = declared_file if isinstance(declared_file, str) else schema.source
    base = schema.base if file == schema.source else None
    span = Span(line, col, line, col + 1)
    return (RelatedLocation(file, span, "the schema declares the parent here", base),)
