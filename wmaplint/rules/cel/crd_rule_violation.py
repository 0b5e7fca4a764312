"""WM604 crd-rule-violation: an object is rejected by a validation rule of its CRD."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from wmaplint.cel.issues import ValidationRuleRejected
from wmaplint.diagnostics import Diagnostic, define
from wmaplint.rules import definition_check, reported, reports

if TYPE_CHECKING:
    from wmaplint.rules.context import DefinitionContext

# a NIMService that autoscales; its CRD rejects replicas set beside an enabled autoscaler
NIM_SERVICE = """apiVersion: apps.nvidia.com/v1alpha1
kind: NIMService
metadata: {name: llm}
spec:
  image: {repository: nvcr.io/nim/meta/llama-3.2-1b-instruct, tag: "1.12.0"}
  authSecret: ngc-api-secret
  storage: {nimCache: {name: llm}}
  scale:
    enabled: true
    hpa: {minReplicas: 1, maxReplicas: 2}
"""

RULE = define(
    "WM604",
    "crd-rule-violation",
    "error",
    "An object (manifest or definition) is rejected by a validation rule of its CRD.",
    why="The API server would refuse the object with this field error. Definitions are checked against the "
    "Karta CRD's rules, workload manifests (`wmaplint tree`) against their own CRD's rules.",
    bad=NIM_SERVICE.replace("  scale:\n", "  replicas: 1\n  scale:\n"),
    good=NIM_SERVICE,
    fix="Change the object so the rule holds; the message is the rule's own message.",
    tags=("cel", "crd"),
    example_mode="tree",
)


@reports(RULE, ValidationRuleRejected)
def message(finding: ValidationRuleRejected) -> str:
    return f"the Karta CRD rejects this: {finding.message}" if finding.definition else finding.message


@definition_check(RULE)
def karta_crd_rules(ctx: DefinitionContext) -> Iterator[Diagnostic]:
    from wmaplint.cel.karta_crd import karta_crd_findings

    findings = ctx.shared(karta_crd_findings, ctx.path, ctx.document, ctx.definition, ctx.store)
    return reported(ValidationRuleRejected, findings)
