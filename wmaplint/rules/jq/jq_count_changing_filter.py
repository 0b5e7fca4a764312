"""WM221 jq-count-changing-filter: a per-instance path with a filter that changes the number of outputs."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from wmaplint.diagnostics import ExpressionDiagnostic, define
from wmaplint.jq import ast as jqast
from wmaplint.jq.names import resolve
from wmaplint.jq.streams import count_changers
from wmaplint.rules import expression_check
from wmaplint.rules.examples import JOBSET, jobset_with

if TYPE_CHECKING:
    from wmaplint.jq.roles import ExprRole

RULE = define(
    "WM221",
    "jq-count-changing-filter",
    "warning",
    "A per-instance path uses `select`, `empty`, `first`, `limit`, `,` or similar, so it can yield a "
    "different number of outputs than there are instances.",
    why="Output i belongs to instance i. When a filter drops an element, the counts differ and the runtime "
    "rejects the component (`instance ids count (N) does not match results count (M)`, upstream "
    "`zipWithInstanceIds`); in a fragmentedPodSpecDefinition, where fragments are merged by index and only "
    "the longest is matched to the ids, a shorter fragment silently shifts every later instance onto the "
    "wrong values.",
    bad=jobset_with(
        "'.spec.replicatedJobs[]?.template.spec.template'",
        "'.spec.replicatedJobs[]? | select(.replicas > 0) | .template.spec.template'",
    ),
    good=JOBSET,
    fix="Yield one output per element (use `// default` inside the iteration instead of filtering).",
    tags=("jq", "cardinality"),
)


@expression_check(RULE, lambda role: role.cardinality == "per-instance" and role.has_instances)
def count_changing_filters(text: str, tree: jqast.Node, role: ExprRole) -> Iterator[ExpressionDiagnostic]:
    from wmaplint.definition.fields import FRAGMENT_FIELDS  # the format's table, which `tree` does without

    if role.field in FRAGMENT_FIELDS:
        outcome = "later instances then shift onto the wrong values, since fragments are merged by index"
    else:
        outcome = "the runtime then rejects the component (`instance ids count does not match results count`)"
    for node, why in count_changers(tree, resolve(tree).definition_of):
        start, end, what = node.start, node.end, "`,`"
        if isinstance(node, jqast.FuncCall):
            end, what = node.name_end, f"`{node.name}`"
        elif isinstance(node, jqast.Label):
            end, what = node.start + len("label"), f"`label ${node.name}`"
        elif isinstance(node, jqast.Comma):
            start, end = node.left.end, node.right.start
        yield ExpressionDiagnostic(
            RULE.id, f"{what} {why}, so this per-instance path can yield a different number of "
            f"outputs than there are instances; {outcome}", start, end)
