"""WM516 metadata-path-without-pod-spec: metadataPath is set without podSpecPath."""

from __future__ import annotations

from collections.abc import Iterator

from wmaplint.diagnostics import Diagnostic, define
from wmaplint.rules import definition_check
from wmaplint.rules.context import DefinitionContext
from wmaplint.rules.examples import job_with

RULE = define(
    "WM516", "metadata-path-without-pod-spec", "warning",
    "metadataPath is set without podSpecPath.",
    why="The Go type documents metadataPath for use only with podSpecPath, for pod metadata kept apart from "
    "the PodSpec (upstream `SpecDefinition`). The library still evaluates it whenever it is set: its outputs "
    "are matched to the component's instances, so a count mismatch or a jq error fails the component, and "
    "the metadata it yields is handed over beside the pod template or fragments, whose own labels then "
    "compete with it; which one a consumer uses is not defined (upstream `GetExtractedInstances`; kli "
    "describe reads neither).",
    bad=job_with("{podTemplateSpecPath: .spec.template}",
                 "{podTemplateSpecPath: .spec.template, metadataPath: .spec.template.metadata}"),
    good=job_with("{podTemplateSpecPath: .spec.template}",
                  "{podSpecPath: .spec.template.spec, metadataPath: .spec.template.metadata}"),
    fix="Remove metadataPath, or use podSpecPath with it.",
)


@definition_check(RULE)
def metadata_path_without_pod_spec(ctx: DefinitionContext) -> Iterator[Diagnostic]:
    for c in ctx.definition.components:
        spec = c.spec_node
        if spec is None or spec.get("metadataPath") is None or spec.get("podSpecPath") is not None:
            continue
        shape = next((k for k in ("podTemplateSpecPath", "fragmentedPodSpecDefinition")
                      if spec.get(k) is not None), None)
        beside = (f"beside {shape} it is still evaluated, and its metadata competes with the pod's own"
                  if shape else "without a pod spec it is still evaluated, but describes no pod")
        yield ctx.diag(RULE, spec.key_node("metadataPath"),
                       f"metadataPath of component {c.label!r} is meant only for podSpecPath; {beside}")
