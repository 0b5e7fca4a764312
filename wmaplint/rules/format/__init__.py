"""The definition format's structure: kind and apiVersion, field types, required, unknown and repeated fields.

The walk of the format's schema over the definition (``wmaplint.definition.structure``) runs on every
definition; the rule modules here word what it finds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from wmaplint.definition.structure import structure_facts
from wmaplint.rules import definition_analysis

if TYPE_CHECKING:
    from wmaplint.facts import Fact
    from wmaplint.rules.context import DefinitionContext


@definition_analysis
def structure(ctx: DefinitionContext) -> list[Fact]:
    return structure_facts(ctx.path, ctx.definition.document_node)
