"""Every path proven against the workload's CRD (root context) or the Pod schema (pod context).

When several sources serve the root kind (two releases of an operator), each is checked and findings name the
source, so a definition right for one release and wrong for another shows.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from wmaplint.checks import Context, check
from wmaplint.definition.model import Expr
from wmaplint.diagnostics import Diagnostic, RelatedLocation, Span, define
from wmaplint.jq.guards import UNGUARDED_ITERATION
from wmaplint.rules.examples import JOB
from wmaplint.rules.placement import place
from wmaplint.source import ScalarNode

POD = ("", "v1", "Pod")
# API groups served by Kubernetes itself: a child kind there is real even when no schema source has it.
BUILT_IN_GROUPS = frozenset({
    "", "apps", "batch", "autoscaling", "policy", "networking.k8s.io", "rbac.authorization.k8s.io",
    "storage.k8s.io", "scheduling.k8s.io", "node.k8s.io", "coordination.k8s.io", "discovery.k8s.io",
    "resource.k8s.io",
})

UNKNOWN_CHILD_KIND = define(
    "WM903", "unknown-child-kind", "warning",
    "No schema source knows the kind a child component names.",
    why="A child's kind names the Kubernetes objects the component stands for, and consumers report the "
    "component as that kind (the upstream workload tree carries it; kli describe prints it). A kind with a "
    "typo, or of an operator release you do not run, names objects that never exist.",
    bad=JOB.replace("    rootComponent:", "    childComponents:\n    - name: pods\n      ownerRef: job\n     "
    " kind: "
                    "{group: \"\", version: v1, kind: Pods}\n    rootComponent:"),
    good=JOB.replace("    rootComponent:", "    childComponents:\n    - name: pods\n      ownerRef: job\n    "
    "  kind: "
                     "{group: \"\", version: v1, kind: Pod}\n    rootComponent:"),
    fix="Correct the group, version or kind, or provide the CRD with --crds.",
    tags=("schema",),
)


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
    options, config = ctx.options if isinstance(ctx.options, tuple) else (None, None)
    if options is None:
        return
    store = options.schema_store(config)
    root = ctx.definition.root
    if store is None or root is None or root.kind is None or not root.kind.kind:
        return
    from wmaplint.jq.typing import check_expression, object_meta_from
    from wmaplint.schema.rules import BAD_SCHEMA_SOURCE, missing_schema

    gvk = root.kind
    roots = _distinct(store.lookup(gvk.group, gvk.version, gvk.kind))
    for error in store.errors:
        yield ctx.diag(BAD_SCHEMA_SOURCE, gvk.node, f"a schema source was skipped, its kinds are not "
        f"checked: {error}")
    missing = missing_schema(store, gvk.group, gvk.version, gvk.kind)
    if missing is not None:
        yield ctx.diag(missing.rule, gvk.node, missing.message, data=missing.data)
    core_missing = not store.lookup(*POD)
    for child in ctx.definition.children:
        k = child.kind
        if k is None or not k.kind or not k.version or store.lookup(k.group, k.version, k.kind):
            continue
        if k.group in BUILT_IN_GROUPS and core_missing:
            continue  # a real Kubernetes kind; the missing core schemas are reported once below
        yield ctx.diag(UNKNOWN_CHILD_KIND, k.node,
                       f"no schema source knows {k} (child component {child.label!r}); check the "
                       "spelling or provide its CRD with --crds",
                       data={"gvk": {"group": k.group, "version": k.version, "kind": k.kind}})
    pods = store.lookup(*POD)
    object_meta = object_meta_from(pods)  # served as every object's `metadata`, whatever its CRD says
    pod_exprs = [e for e in ctx.definition.expressions() if e.context == "pod"]
    if core_missing and pod_exprs:
        missing_core = missing_schema(store, *POD)
        if missing_core is not None:
            yield ctx.diag(
                missing_core.rule, pod_exprs[0].node,
                "no schema for the Kubernetes core API (v1/Pod): pod selectors and gang paths are not "
                "checked; run `wmaplint schemas pull` (it includes the core OpenAPI documents) or pass "
                "their directory with --crds", data=missing_core.data)
    for expr in ctx.definition.expressions():
        schemas = roots if expr.context == "root" else pods[:1]
        if not schemas:
            continue
        expectation = _expectation(expr)
        named = len(schemas) > 1
        seen: set[tuple[str, int, int, str]] = set()
        for schema in schemas:
            label = _source_label(schema.source) if named else None
            findings = check_expression(
                expr.text, expectation, schema.type, source=schema.source, object_meta=object_meta
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


def _distinct(schemas: list[Any]) -> list[Any]:
    """One schema per distinct file content: the same CRD in --crds and in the user cache is one release."""
    seen: set[str] = set()
    out = []
    for schema in schemas:
        if schema.sha256 not in seen:
            seen.add(schema.sha256)
            out.append(schema)
    return out


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
