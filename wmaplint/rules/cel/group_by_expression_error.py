"""WM605 group-by-expression-error: a gang groupByExpressions entry is not valid CEL over a Pod."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from wmaplint.cel.issues import GroupByExpressionError
from wmaplint.diagnostics import Diagnostic, define
from wmaplint.rules import definition_check, reported, reports
from wmaplint.source import ScalarNode, SequenceNode

if TYPE_CHECKING:
    from wmaplint.definition.model import GangMember
    from wmaplint.rules.context import DefinitionContext

POD_GVK = ("", "v1", "Pod")

GANG_MEMBER_GROUPED = """apiVersion: run.ai/v1alpha1
kind: Karta
metadata: {name: example}
spec:
  optimizationInstructions:
    gangScheduling:
      podGroups:
      - name: job
        members:
        - componentName: job
          groupByExpressions: ['self.metadata.labels["app"]']
"""

RULE = define(
    "WM605",
    "group-by-expression-error",
    "error",
    "A gang-scheduling groupByExpressions entry is not valid CEL over a Pod.",
    why="groupByExpressions exist only in an experimental upstream revision of the gang instructions "
    "(FORMAT.md §2.12; not in the Karta CRD), where each is evaluated as CEL over a member Pod: an "
    "expression that names a field the Pod type does not have, or does not compile, cannot group any pod.",
    bad=GANG_MEMBER_GROUPED.replace('labels["app"]', 'label["app"]'),
    good=GANG_MEMBER_GROUPED,
    fix="Use fields of io.k8s.api.core.v1.Pod (self and pod both name the Pod).",
    tags=("cel", "gang"),
)


@reports(RULE, GroupByExpressionError)
def message(finding: GroupByExpressionError) -> str:
    return f"groupByExpressions[{finding.index}]: {finding.message}"


@definition_check(RULE)
def group_by_expressions(ctx: DefinitionContext) -> Iterator[Diagnostic]:
    members: list[tuple[GangMember, SequenceNode]] = []
    for member in ctx.definition.gang_members:
        seq = member.node.get("groupByExpressions")
        if isinstance(seq, SequenceNode) and seq.items:
            members.append((member, seq))
    if not members:
        return iter(())
    store = ctx.store
    pods = store.lookup(*POD_GVK) if store is not None else []
    if not pods:
        return iter(())
    from wmaplint.cel import check_pod_expression

    pod = pods[0]
    findings = []
    for member, seq in members:
        for index, item in enumerate(seq.items):
            if not isinstance(item, ScalarNode) or not isinstance(item.value, str):
                continue  # the format check reports non-strings
            pointer = (*member.pointer, "groupByExpressions", index)
            for issue in check_pod_expression(item.value, pod.raw, pod.resolve_ref, pointer):
                where = item.span if issue.offset is None else item.span_of(issue.offset, issue.offset + 1)
                findings.append(issue.at(ctx.path, where, index=index))
    return reported(GroupByExpressionError, findings)
