"""WM402 conditions-matcher-without-definition: byConditions without a conditionsDefinition to read."""

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
    "WM402", "conditions-matcher-without-definition", "error",
    "byConditions is used but the status definition has no conditionsDefinition.",
    why="Without conditionsDefinition the runtime has no conditions to look at, so the matcher never "
    "matches.",
    bad=job_with("        conditionsDefinition: {path: .status.conditions, typeFieldName: type, "
                 "statusFieldName: status}\n", ""),
    good=JOB,
    fix="Add conditionsDefinition with the path of the conditions list.",
)


@definition_check(RULE)
def conditions_without_definition(ctx: DefinitionContext) -> Iterator[Diagnostic]:
    for status in declared_statuses(ctx.definition):
        if status.conditions_node is not None:
            continue
        for key, matcher in matchers(status):
            if matcher.by_conditions_node is not None:
                yield ctx.diag(RULE, matcher.node.key_node("byConditions"),
                               f"byConditions under {key!r} needs statusDefinition.conditionsDefinition; "
                               "without it the matcher never matches")
