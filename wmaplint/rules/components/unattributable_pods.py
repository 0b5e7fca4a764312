"""WM520 unattributable-pods: several components carry pods but this one has no componentTypeSelector."""

from __future__ import annotations

from collections.abc import Iterator

from wmaplint.diagnostics import Diagnostic, define
from wmaplint.rules import definition_check
from wmaplint.rules.context import DefinitionContext
from wmaplint.rules.controllers.child_kind_not_created import RULE as NOT_CREATED
from wmaplint.rules.controllers.child_kind_not_created import child_kind_not_created
from wmaplint.rules.examples import WORKER_CHILD, job_with_child
from wmaplint.source import content_span


def _selected(role: str) -> str:
    """A pod selector by the pods' role label."""
    return ("      podSelector:\n"
            f"        componentTypeSelector: {{keyPath: '.metadata.labels.role', value: {role}}}\n")


RULE = define(
    "WM520", "unattributable-pods", "warning",
    "Several components carry pods but this one has no componentTypeSelector.",
    why="When more than one component has a pod spec, pods are attributed by componentTypeSelector: KAI "
    "takes the first leaf whose selector matches and skips leaves without one (FORMAT.md §2.7), and kli "
    "describe gives a selector-less component no pods. A pod-bearing component without one never gets its "
    "pods: kli does not list them, and KAI infers no component for them. Only the workload's own pods are "
    "attributed, those whose owner chain reaches it (dsx-ai-factory/workload-map@00e77e4 "
    "`cli/pkg/workload/pods.go` `PodAttributor`; KAI groups a pod by its top owner): a component of a kind "
    "the workload's controller never creates as its child has no pod to attribute, selector or not, and "
    f"{NOT_CREATED.id} says so instead (the Milvus catalog's etcd and minio, StatefulSets of the operator's "
    "Helm releases, which no owner reference ties to the Milvus). "
    "This rule alone says so: the shipped rule pack's KBP004 said it of child components too, and was "
    "removed because this rule covers it and more (the root component, every pod spec form of the model, "
    "where the pack's JSONPath saw only a child's specDefinition).",
    bad=job_with_child(),
    good=job_with_child(WORKER_CHILD + _selected("worker")).replace(
        "      statusDefinition:", _selected("main") + "      statusDefinition:", 1),
    fix="Add a componentTypeSelector that matches this component's pods (a label the controller sets).",
)


@definition_check(RULE)
def unattributable_pods(ctx: DefinitionContext) -> Iterator[Diagnostic]:
    bearing = [c for c in ctx.definition.components if c.has_pods]
    if len(bearing) < 2:
        return
    empty = {d.span for d in child_kind_not_created(ctx)}  # components of kinds the controller never creates
    for c in bearing:
        if c.type_selector_node is None and (c.kind is None or content_span(c.kind.node) not in empty):
            yield ctx.diag(
                RULE, c.name_node or c.node,
                f"component {c.label!r} carries pods but has no componentTypeSelector, and "
                f"{len(bearing) - 1} other component(s) carry pods too: its pods cannot be attributed",
            )
