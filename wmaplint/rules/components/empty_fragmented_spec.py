"""WM517 empty-fragmented-spec: fragmentedPodSpecDefinition has no paths."""

from __future__ import annotations

from collections.abc import Iterator

from wmaplint.diagnostics import Diagnostic, define
from wmaplint.rules import definition_check
from wmaplint.rules.context import DefinitionContext
from wmaplint.rules.examples import JOB, job_with
from wmaplint.source import MappingNode

RULE = define(
    "WM517", "empty-fragmented-spec", "warning",
    "fragmentedPodSpecDefinition has no paths.",
    why="An empty fragmented definition still counts as the component's pod spec shape, but yields no "
    "fragment at all, and the runtime matches fragments to the component's instances (upstream "
    "`GetFragmentedPodSpec`): `instance ids count (1) does not match results count (0)`, so the workload "
    "tree cannot be built.",
    bad=job_with("{podTemplateSpecPath: .spec.template}", "{fragmentedPodSpecDefinition: {}}"),
    good=JOB,
    fix="Add the fragment paths, or remove the spec definition.",
)


@definition_check(RULE)
def empty_fragmented_spec(ctx: DefinitionContext) -> Iterator[Diagnostic]:
    for c in ctx.definition.components:
        spec = c.spec_node
        fragments = spec.get("fragmentedPodSpecDefinition") if spec is not None else None
        if spec is not None and isinstance(fragments, MappingNode) and not fragments.pairs:
            yield ctx.diag(RULE, spec.key_node("fragmentedPodSpecDefinition"),
                           f"component {c.label!r} has an empty fragmentedPodSpecDefinition: it counts as a "
                           "pod spec but yields no fragment, so matching fragments to the instances fails")
