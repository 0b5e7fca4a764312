"""WM520 unattributable-pods: several components carry pods but this one has no componentTypeSelector."""

from __future__ import annotations

from collections.abc import Iterator

from wmaplint.diagnostics import Diagnostic, define
from wmaplint.rules import definition_check
from wmaplint.rules.context import DefinitionContext
from wmaplint.rules.examples import WORKER_CHILD, job_with_child


def _selected(role: str) -> str:
    """A pod selector by the pods' role label."""
    return ("      podSelector:\n"
            f"        componentTypeSelector: {{keyPath: '.metadata.labels.role', value: {role}}}\n")


RULE = define(
    "WM520", "unattributable-pods", "warning",
    "Several components carry pods but this one has no componentTypeSelector.",
    why="When more than one component has a pod spec, pods are attributed by componentTypeSelector: KAI "
    "takes the first leaf whose selector matches and skips leaves without one (FORMAT.md §2.7), and kli "
    "describe gives a selector-less component no pods. A pod-bearing component without one (the Milvus "
    "etcd/minio case) never gets its pods: kli does not list them, and KAI infers no component for them. "
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
    for c in bearing:
        if c.type_selector_node is None:
            yield ctx.diag(
                RULE, c.name_node or c.node,
                f"component {c.label!r} carries pods but has no componentTypeSelector, and "
                f"{len(bearing) - 1} other component(s) carry pods too: its pods cannot be attributed",
            )
