"""WM104 legacy-kind: the definition uses the pre-release kind ResourceInterface."""

from __future__ import annotations

from collections.abc import Iterator

from wmaplint.definition.fields import KARTA
from wmaplint.diagnostics import Diagnostic, define, fix
from wmaplint.rules import definition_check
from wmaplint.rules.context import DefinitionContext
from wmaplint.rules.examples import JOB
from wmaplint.source import ScalarNode
from wmaplint.source.edits import replace_scalar

RULE = define(
    "WM104", "legacy-kind", "warning",
    "The definition uses the pre-release kind ResourceInterface.",
    why="ResourceInterface (optimization.nvidia.com/v1alpha1) was renamed to Karta (run.ai/v1alpha1) in "
    "v0.1.0; current operators and schedulers only look up Karta objects, so the legacy document is never "
    "used.",
    bad=JOB.replace("apiVersion: run.ai/v1alpha1\nkind: Karta",
                    "apiVersion: optimization.nvidia.com/v1alpha1\nkind: ResourceInterface"),
    good=JOB,
    fix="Change apiVersion to run.ai/v1alpha1 and kind to Karta; the body is the same.",
    tags=("migration",),
)


@definition_check(RULE)
def legacy_kind(ctx: DefinitionContext) -> Iterator[Diagnostic]:
    doc = ctx.definition.document_node
    kind_node = doc.get("kind")
    if not ctx.definition.legacy or not isinstance(kind_node, ScalarNode):
        return
    edits = [replace_scalar(kind_node, KARTA[1])]
    api_node = doc.get("apiVersion")
    if isinstance(api_node, ScalarNode) and api_node.value != KARTA[0]:
        edits.append(replace_scalar(api_node, KARTA[0]))
    yield ctx.diag(
        RULE, kind_node,
        "ResourceInterface is the pre-release name of Karta: current consumers only read kind Karta, "
        "apiVersion run.ai/v1alpha1",
        fixes=fix("migrate to kind Karta, apiVersion run.ai/v1alpha1", *edits),
    )
