"""WM505 root-status-missing: the root component has no statusDefinition."""

from __future__ import annotations

from collections.abc import Iterator

from wmaplint.diagnostics import Diagnostic, define
from wmaplint.rules import definition_check
from wmaplint.rules.context import DefinitionContext
from wmaplint.rules.examples import JOB

RULE = define(
    "WM505", "root-status-missing", "error",
    "The root component has no statusDefinition.",
    why="Platforms show the workload's status from the root's status mapping; upstream rejects a root "
    "without one.",
    bad=JOB.split("      statusDefinition:")[0],
    good=JOB,
    fix="Add a statusDefinition with statusMappings to the root component.",
)


@definition_check(RULE)
def root_status_missing(ctx: DefinitionContext) -> Iterator[Diagnostic]:
    root = ctx.definition.root
    if root is not None and root.status is None:
        yield ctx.diag(RULE, root.name_node or root.node,
                       "root component must have a statusDefinition: platforms read the workload's status "
                       "from it")
