"""WM413 status-suspended-unmapped: the component can be suspended but no matcher reports suspended."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from wmaplint.diagnostics import Diagnostic, define
from wmaplint.rules import definition_check
from wmaplint.rules.examples import JOB_SUSPENDABLE
from wmaplint.status.coverage import mappings_node, unreported

if TYPE_CHECKING:
    from wmaplint.rules.context import DefinitionContext

RULE = define(
    "WM413",
    "status-suspended-unmapped",
    "warning",
    "The component can be suspended (suspendDefinition) but no mapping reports suspended.",
    why="A platform that suspends the workload needs to see that it took effect; without a suspended "
    "matcher a suspended workload reads Undefined, or whatever other status still matches it.",
    bad=JOB_SUSPENDABLE,
    good=JOB_SUSPENDABLE.replace(
        "          failed:",
        '          suspended: [{byConditions: [{type: Suspended, status: "True"}]}]\n          failed:',
    ),
    fix="Add a suspended matcher: the controller's Suspended condition or phase where it follows the switch "
    "(a Job's Suspended condition), else the switch itself (`.spec.suspend == true`: a RayCluster's state "
    "stays `suspended` after a resume until it is ready again, and a cluster created suspended has no "
    "status at all).",
)


@definition_check(RULE)
def suspended_unmapped(ctx: DefinitionContext) -> Iterator[Diagnostic]:
    found = unreported(ctx.definition, "suspended")
    suspend = found[0].suspend_node if found is not None else None
    if found is None or suspend is None:
        return
    root, status = found
    key = root.node.key_node("suspendDefinition") or suspend
    yield ctx.diag(RULE, mappings_node(status),
                   "the component has a suspendDefinition but no matcher reports suspended: a platform "
                   "cannot see that a suspend took effect",
                   related=[ctx.here(key, "suspendDefinition")])
