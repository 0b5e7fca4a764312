"""WM518 status-definition-on-child: a child component has a statusDefinition, which is never read."""

from __future__ import annotations

from collections.abc import Iterator

from wmaplint.diagnostics import Diagnostic, define
from wmaplint.rules import definition_check
from wmaplint.rules.context import DefinitionContext
from wmaplint.rules.examples import WORKER_CHILD, job_with_child

RULE = define(
    "WM518", "status-definition-on-child", "warning",
    "A child component has a statusDefinition.",
    why="Only the root's statusDefinition is read; on a child it is silently ignored.",
    bad=job_with_child(WORKER_CHILD + "      statusDefinition:\n        statusMappings:\n          running: "
                       "[{byPhase: Running}]\n"),
    good=job_with_child(),
    fix="Move the mapping to the root component or remove it.",
)


@definition_check(RULE)
def status_definition_on_child(ctx: DefinitionContext) -> Iterator[Diagnostic]:
    for c in ctx.definition.children:
        if c.status is not None:
            yield ctx.diag(RULE, c.node.key_node("statusDefinition"),
                           f"statusDefinition on child component {c.label!r} is ignored: only the root's is "
                           "read")
