"""WM220 jq-alternative-over-stream: `//` applied to a whole iteration in a per-instance path."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from wmaplint.diagnostics import ExpressionDiagnostic, define
from wmaplint.jq import ast as jqast
from wmaplint.jq.inference.findings import WRONG_PATH
from wmaplint.jq.names import Names, resolve
from wmaplint.jq.streams import output_leaks
from wmaplint.jq.wording import clip
from wmaplint.rules import expression_check
from wmaplint.rules.examples import JOBSET, jobset_with
from wmaplint.typecheck.expectations import reachable_defaults

if TYPE_CHECKING:
    from wmaplint.definition.model import Expr
    from wmaplint.jq.roles import ExprRole
    from wmaplint.rules.context import DefinitionContext

RULE = define(
    "WM220",
    "jq-alternative-over-stream",
    "error",
    "`//` applied to a whole iteration (`.a[].x // 1`) in a per-instance path.",
    why="`//` drops every null or false output of the iteration and yields the default only when all are "
    "missing, so a group without the field disappears and the instance count no longer matches the ids "
    "(`instance ids count does not match results count`, dsx-ai-factory/workload-map@139ff59 "
    "`karta/pkg/resource/component.go` `zipWithInstanceIds`). Reported where the left side may be null or "
    "false: a field the schema neither requires nor defaults, or lets be null, or whose type it does not "
    "know. A field the API server defaults is in every element (RayCluster's `workerGroupSpecs[].replicas` "
    "defaults to 0, a PodCliqueSet's `podCliqueScalingGroups[].replicas` to 1), so `//` never drops one "
    "there.",
    bad=jobset_with(
        "'.spec.replicatedJobs[]? | (.template.spec.parallelism // 1)'",
        "'.spec.replicatedJobs[]?.template.spec.parallelism // 1'",
    ),
    good=JOBSET,
    fix="Apply the default per element: `.a[]? | (.x // 1)`.",
    tags=("jq", "cardinality"),
)


def _default_reachable(ctx: DefinitionContext, expr: Expr, finding: ExpressionDiagnostic) -> bool:
    """Whether the `//` found can yield its default in this definition: typed against the workload's schemas
    (any release serving it), its left side may be null or false; untyped (no schema), it may."""
    schemas = ctx.schemas
    if schemas is None or not schemas.roots:
        return True
    if any(path.expr is expr and isinstance(path.finding, WRONG_PATH) for path in ctx.typed_paths):
        return False  # the path reads a field the schema lacks: that finding is the fault, the default moot
    return any(finding.start in reachable_defaults(expr.text, schema.type, schemas.object_meta)
               for schema in schemas.roots)


@expression_check(RULE, lambda role: role.cardinality in ("per-instance", "instance-ids"),
                  confirm=_default_reachable)
def alternatives_over_streams(text: str, tree: jqast.Node, role: ExprRole) -> Iterator[ExpressionDiagnostic]:
    names = resolve(tree)
    for node in jqast.nodes(tree):
        if not (isinstance(node, jqast.Binary) and node.op == "//"):
            continue
        leaks = output_leaks(node.left, names.definition_of)
        streaming = (jqast.Iterate, jqast.RecurseDefault, jqast.FuncCall)
        iterations = [n for n in leaks if isinstance(n, streaming)]
        if not iterations:
            continue
        source = text[iterations[0].start : iterations[0].end]
        message = (
            f"`//` applies to the whole stream of `{clip(source)}`: null or missing elements are dropped "
            "instead of defaulted, so the output count no longer matches the instances"
        )
        replacement = _per_element(text, tree, node, names)
        if replacement:
            message += f"; write `{clip(replacement, 80)}`"
        yield ExpressionDiagnostic(
            RULE.id, message, node.op_start, node.op_start + 2, replacement=replacement)


def _per_element(text: str, tree: jqast.Node, node: jqast.Binary, names: Names) -> str | None:
    """``P[].x // d`` → ``P[]? | (.x // d)`` when the left side is a chain with one iteration: the whole
    expression with the default moved inside the iteration."""
    chain: list[jqast.Node] = []
    cur: jqast.Node | None = node.left
    while isinstance(cur, (jqast.Field, jqast.Index, jqast.Slice, jqast.Iterate)):
        chain.append(cur)
        cur = cur.target
    if cur is not None and not isinstance(cur, jqast.Identity):
        return None
    iterates = [n for n in chain if isinstance(n, jqast.Iterate)]
    if len(iterates) != 1:
        return None
    it = iterates[0]
    for n in chain:
        if isinstance(n, jqast.Index):
            bounds = [n.index]
        elif isinstance(n, jqast.Slice):
            bounds = [b for b in (n.lower, n.upper) if b is not None]
        else:
            bounds = []
        if any(output_leaks(b, names.definition_of) for b in bounds):
            return None
    prefix = text[node.left.start : it.end].rstrip()
    if not prefix.endswith("?"):
        prefix += "?"
    rest = text[it.end : node.left.end].strip()
    if not rest or rest.startswith("?"):
        return None
    if not rest.startswith("."):
        rest = "." + rest
    right = text[node.right.start : node.right.end]
    if isinstance(node.right, (jqast.Pipe, jqast.Comma, jqast.Bind, jqast.Label, jqast.FuncDef)):
        right = f"({right})"
    fixed = f"{prefix} | ({rest} // {right})"
    if node is tree:
        return fixed
    return text[: node.start] + f"({fixed})" + text[node.end :]
