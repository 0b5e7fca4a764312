"""WM509 multiple-pod-spec-shapes: a component uses more than one way of describing its pods."""

from __future__ import annotations

from collections.abc import Iterator

from wmaplint.diagnostics import Diagnostic, define
from wmaplint.rules import definition_check
from wmaplint.rules.context import DefinitionContext
from wmaplint.rules.examples import JOB, job_with

RULE = define(
    "WM509", "multiple-pod-spec-shapes", "error",
    "A component uses more than one of podTemplateSpecPath, podSpecPath and fragmentedPodSpecDefinition.",
    why="The runtime reads exactly one shape; upstream rejects the mix (\"has multiple pod spec "
    "definitions\").",
    bad=job_with("{podTemplateSpecPath: .spec.template}",
                 "{podTemplateSpecPath: .spec.template, podSpecPath: .spec.template.spec}"),
    good=JOB,
    fix="Keep one shape; metadataPath may accompany podSpecPath.",
)


@definition_check(RULE)
def multiple_pod_spec_shapes(ctx: DefinitionContext) -> Iterator[Diagnostic]:
    for c in ctx.definition.components:
        shapes = c.spec_shapes()
        if len(shapes) > 1 and c.spec_node is not None:
            yield ctx.diag(RULE, c.spec_node.key_node(shapes[1]),
                           f"component {c.label!r} has multiple pod spec definitions ({', '.join(shapes)})")
