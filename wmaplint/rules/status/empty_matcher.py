"""WM401 empty-matcher: a status matcher with no criteria, which always matches."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from wmaplint.diagnostics import Diagnostic, define
from wmaplint.rules import definition_check
from wmaplint.rules.examples import JOB, job_with
from wmaplint.status.mappings import declared_statuses, matchers

if TYPE_CHECKING:
    from wmaplint.rules.context import DefinitionContext

RULE = define(
    "WM401", "empty-matcher", "warning",
    "A status matcher with no criteria, which always matches.",
    why="The fields of a matcher are ANDed; with none set the matcher is vacuously true, so the status is "
    "reported for every object, whatever its state.",
    bad=job_with("running: [{byExpression: {expression: '(.status.active // 0) > 0', expectedResult: "
                 "\"true\"}}]",
                 "running: [{}]"),
    good=JOB,
    fix="Add byPhase, byConditions or byExpression to the matcher, or remove it.",
)


@definition_check(RULE)
def empty_matchers(ctx: DefinitionContext) -> Iterator[Diagnostic]:
    for status in declared_statuses(ctx.definition):
        for key, matcher in matchers(status):
            if not matcher.node.pairs:
                yield ctx.diag(RULE, matcher.node, f"an empty matcher under {key!r} always matches: every "
                               f"object would be reported {key}")
