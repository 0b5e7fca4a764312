"""WM221 jq-count-changing-filter: a per-instance path with a filter that changes the number of outputs."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from wmaplint.diagnostics import ExpressionDiagnostic, define
from wmaplint.jq import ast as jqast
from wmaplint.jq.names import resolve
from wmaplint.jq.parser import try_parse
from wmaplint.jq.streams import count_changers, output_leaks, stages
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
    "rejects the component (`instance ids count (N) does not match results count (M)`, "
    "dsx-ai-factory/workload-map@139ff59 `karta/pkg/resource/component.go` `zipWithInstanceIds`); in a "
    "fragmentedPodSpecDefinition, where fragments are merged by index and only the longest is matched to the "
    "ids (dsx-ai-factory/workload-map@932dddf `karta/pkg/resource/accessor.go` "
    "`ExtractFragmentedPodSpec`), a shorter fragment silently shifts every later instance onto the wrong "
    "values. A filter the component's instanceIdPath applies too, in the same stages of the same pipeline "
    "(the Grove PodCliqueSet definition keeps the cliques of no scaling group, `... | $t.cliques[] | "
    "select(...) | .name`, in its ids and in every path of the component), drops the same elements from "
    "both, so the counts agree: not reported.",
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
    definition_of = resolve(tree).definition_of
    shared = _stages_shared_with_ids(text, tree, role.instance_ids)
    for node, why in count_changers(tree, definition_of):
        if any(stage.start <= node.start and node.end <= stage.end for stage in shared):
            continue
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


def _stages_shared_with_ids(text: str, tree: jqast.Node, ids: str | None) -> list[jqast.Node]:
    """The leading stages of the path that the instanceIdPath ``ids`` has too (read alike), when what the ids
    path does after them keeps one output an element: the filters there drop the same elements from both."""
    ids_tree = try_parse(ids) if ids is not None else None
    if ids is None or not isinstance(ids_tree, jqast.Node):
        return []
    ids_definition_of = resolve(ids_tree).definition_of
    mine, theirs = stages(tree, text, resolve(tree).definition_of), stages(ids_tree, ids, ids_definition_of)
    n = 0
    while n < min(len(mine), len(theirs)) and mine[n][0] == theirs[n][0]:
        n += 1
    rest = [node for _, node in theirs[n:]]
    if not n or any(output_leaks(node, ids_definition_of) or count_changers(node, ids_definition_of)
                    for node in rest):
        return []
    return [node for _, node in mine[:n]]
