"""WM410 status-running-unmapped: no matcher reports running."""

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
    "WM410",
    "status-running-unmapped",
    "warning",
    "The status mappings never report running.",
    why="A workload that no matcher matches reads Undefined (upstream `matchStatus`): without a running "
    "matcher a healthy workload reads Undefined for its whole life, in `kli get` and `kli describe` and in "
    "whatever else reads its status.",
    bad=job_with(
        "          running: [{byExpression: {expression: '(.status.active // 0) > 0', expectedResult: "
        '"true"}}]\n',
        "",
    ),
    good=JOB,
    fix="Add a running matcher (a Running/Ready condition, a running phase, or an expression on ready "
    "replicas).",
)


@definition_check(RULE)
def running_unmapped(ctx: DefinitionContext) -> Iterator[Diagnostic]:
    found = unreported(ctx.definition, "running")
    if found is not None:
        root, status = found
        kind = root.kind.kind if root.kind else "this workload"
        yield ctx.diag(RULE, mappings_node(status),
                       f"no matcher reports running: a healthy {kind} reads Undefined, so nothing that reads "
                       "its status can tell it is running")
