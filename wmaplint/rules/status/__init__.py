"""Status mappings: their structure, coverage, what the controller really sets, consistency (WM4xx)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from wmaplint.rules import definition_analysis

if TYPE_CHECKING:
    from wmaplint.findings import FileFinding
    from wmaplint.rules.context import DefinitionContext


@definition_analysis
def consistency(ctx: DefinitionContext) -> list[FileFinding]:
    """What disagrees among the matchers of the statusDefinition the runtime reads."""
    from wmaplint.status.consistency import inconsistencies
    from wmaplint.status.mappings import runtime_status

    found = runtime_status(ctx.definition)
    return inconsistencies(ctx.path, found[1], ctx.root_model) if found is not None else []
