"""WM403 phase-matcher-without-definition: byPhase without a phaseDefinition to read."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from wmaplint.diagnostics import Diagnostic, define
from wmaplint.rules import definition_check
from wmaplint.rules.examples import POD
from wmaplint.status.mappings import declared_statuses, matchers

if TYPE_CHECKING:
    from wmaplint.rules.context import DefinitionContext

RULE = define(
    "WM403", "phase-matcher-without-definition", "error",
    "byPhase is used but the status definition has no phaseDefinition.",
    why="Without phaseDefinition there is no phase to compare, so the matcher never matches.",
    bad=POD.replace("        phaseDefinition: {path: .status.phase}\n", ""),
    good=POD,
    fix="Add phaseDefinition with the path of the phase field.",
)


@definition_check(RULE)
def phase_without_definition(ctx: DefinitionContext) -> Iterator[Diagnostic]:
    for status in declared_statuses(ctx.definition):
        if status.phase_node is not None:
            continue
        for key, matcher in matchers(status):
            if matcher.node.get("byPhase") is not None:
                yield ctx.diag(RULE, matcher.node.key_node("byPhase"),
                               f"byPhase under {key!r} needs statusDefinition.phaseDefinition; without it "
                               "the matcher never matches")
