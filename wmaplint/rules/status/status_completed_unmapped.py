"""WM412 status-completed-unmapped: a workload that runs to completion has no completed mapping."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from wmaplint.diagnostics import Diagnostic, define
from wmaplint.rules import definition_check
from wmaplint.rules.examples import JOB, job_with
from wmaplint.status.coverage import completes, mappings_node, unreported

if TYPE_CHECKING:
    from wmaplint.rules.context import DefinitionContext

RULE = define(
    "WM412",
    "status-completed-unmapped",
    "warning",
    "A workload that runs to completion has no completed mapping.",
    why="Jobs and training runs finish; without completed a finished workload reads Undefined, as one whose "
    "status nothing matches does, so success cannot be told from an unreadable status. Which kinds complete "
    "comes from the controller model (schemas/controllers/) and the `completes` setting.",
    bad=job_with('          completed: [{byConditions: [{type: Complete, status: "True"}]}]\n', ""),
    good=JOB,
    fix="Add a completed matcher (e.g. the Complete/Succeeded condition), or list nothing if the kind never "
    "ends.",
)


@definition_check(RULE)
def completed_unmapped(ctx: DefinitionContext) -> Iterator[Diagnostic]:
    found = unreported(ctx.definition, "completed")
    if found is None:
        return
    root, status = found
    runs_to_end, why = completes(root.kind, ctx.root_model, ctx.config.completes)
    if runs_to_end:
        kind = root.kind.kind if root.kind else "this workload"
        yield ctx.diag(RULE, mappings_node(status),
                       f"no matcher reports completed, but {kind} runs to completion ({why}): a finished "
                       "workload reads Undefined and success cannot be told from a lost status")
