"""WM414 status-initializing-unmapped: no matcher reports initializing."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from wmaplint.diagnostics import Diagnostic, define
from wmaplint.rules import definition_check
from wmaplint.rules.examples import JOB, JOB_WITH_INITIALIZING
from wmaplint.status.coverage import mappings_node, unreported

if TYPE_CHECKING:
    from wmaplint.rules.context import DefinitionContext

RULE = define(
    "WM414",
    "status-initializing-unmapped",
    "info",
    "The status mappings never report initializing.",
    why="Between creation and running (image pulls, scheduling, gang waits) the workload reads Undefined "
    "unless another matcher matches it; an initializing matcher lets platforms show progress and detect "
    "stuck starts.",
    bad=JOB,
    good=JOB_WITH_INITIALIZING,
    fix="Add an initializing matcher, e.g. created but not yet ready.",
)


@definition_check(RULE)
def initializing_unmapped(ctx: DefinitionContext) -> Iterator[Diagnostic]:
    found = unreported(ctx.definition, "initializing")
    if found is not None:
        yield ctx.diag(RULE, mappings_node(found[1]),
                       "no matcher reports initializing: between creation and running the workload reads "
                       "Undefined, so stuck starts cannot be told from unknown states")
