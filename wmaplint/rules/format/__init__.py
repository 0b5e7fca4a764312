"""The definition format's structure: kind and apiVersion, field types, required, unknown and repeated fields.

The walk of the format's schema over the definition (``wmaplint.definition.structure``) runs on every
definition; the rule modules here word what it finds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from wmaplint.definition.structure import structure_findings
from wmaplint.rules import definition_analysis

if TYPE_CHECKING:
    from wmaplint.findings import FileFinding
    from wmaplint.rules.context import DefinitionContext


@definition_analysis
def structure(ctx: DefinitionContext) -> list[FileFinding]:
    return structure_findings(ctx.path, ctx.definition.document_node)
