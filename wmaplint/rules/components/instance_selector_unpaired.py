"""WM512 instance-selector-unpaired: instanceIdPath or componentInstanceSelector without the other."""

from __future__ import annotations

from collections.abc import Iterator

from wmaplint.diagnostics import Diagnostic, define
from wmaplint.rules import definition_check
from wmaplint.rules.context import DefinitionContext
from wmaplint.rules.examples import JOB, WORKER_CHILD, job_with_child

RULE = define(
    "WM512", "instance-selector-unpaired", "error",
    "instanceIdPath and podSelector.componentInstanceSelector must come together.",
    why="Instances are listed by instanceIdPath and pods are attributed to them by "
    "componentInstanceSelector; upstream rejects one without the other.",
    bad=job_with_child(WORKER_CHILD + "      instanceIdPath: .spec.template.metadata.name\n"),
    good=JOB,
    fix="Add the missing half, or remove instanceIdPath for a single-instance component.",
)


@definition_check(RULE)
def instance_selector_unpaired(ctx: DefinitionContext) -> Iterator[Diagnostic]:
    for c in ctx.definition.components:
        has_ids = c.node.get("instanceIdPath") is not None
        if has_ids and c.instance_selector_node is None:
            yield ctx.diag(RULE, c.node.key_node("instanceIdPath"),
                           f"component {c.label!r} has instanceIdPath but no "
                           "podSelector.componentInstanceSelector: its pods cannot be told apart by instance")
        elif c.instance_selector_node is not None and not has_ids and c.pod_selector_node is not None:
            yield ctx.diag(RULE, c.pod_selector_node.key_node("componentInstanceSelector"),
                           f"component {c.label!r} has a componentInstanceSelector but no instanceIdPath")
