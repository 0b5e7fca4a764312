"""WM411 status-failed-unmapped: no matcher reports failed, though the controller has a failure state."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from wmaplint.diagnostics import Diagnostic, define
from wmaplint.rules import definition_check
from wmaplint.rules.examples import JOB, job_with
from wmaplint.status.coverage import mappings_node, unreported

if TYPE_CHECKING:
    from wmaplint.rules.context import DefinitionContext

RULE = define(
    "WM411",
    "status-failed-unmapped",
    "warning",
    "The status mappings never report failed.",
    why="Without a failed matcher a broken workload reads Undefined, or whatever other status still "
    "matches it (running, if the running matcher holds): nothing that reads the status, `kli get --phase "
    "Failed` or a platform's alerting, can tell that it failed.",
    bad=job_with('          failed: [{byConditions: [{type: Failed, status: "True"}]}]\n', ""),
    good=JOB,
    fix="Add a failed matcher for the controller's failure condition or phase.",
)


@definition_check(RULE)
def failed_unmapped(ctx: DefinitionContext) -> Iterator[Diagnostic]:
    found = unreported(ctx.definition, "failed")
    model = ctx.root_model
    if found is None or (model is not None and model.status is not None and model.status.fails is False):
        return  # the controller has no failure state
    root, status = found
    kind = root.kind.kind if root.kind else "this workload"
    yield ctx.diag(RULE, mappings_node(status),
                   f"no matcher reports failed: a broken {kind} reads Undefined, or whatever other status "
                   "matches it, so nothing that reads its status can tell it failed")
