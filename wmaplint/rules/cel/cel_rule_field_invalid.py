"""WM606 cel-rule-field-invalid: a validation rule entry has a field the API server does not accept."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from wmaplint.cel.issues import ValidationRuleFieldInvalid
from wmaplint.diagnostics import Diagnostic, define
from wmaplint.rules import document_check, reported, reports
from wmaplint.rules.examples import crd_with

if TYPE_CHECKING:
    from wmaplint.rules.context import DocumentContext

RULE = define(
    "WM606",
    "cel-rule-field-invalid",
    "error",
    "A validation rule entry has an invalid field: multi-line rule without message, bad reason, "
    "optionalOldSelf without oldSelf, or oldSelf under a list that cannot be correlated.",
    why="The API server rejects the CRD with a field error on the entry.",
    bad=crd_with("            - rule: self.minReplicas <= self.replicas\n              reason: Invalid\n"),
    good=crd_with(
        "            - rule: self.minReplicas <= self.replicas\n              reason: FieldValueInvalid\n"
    ),
    fix="reason is one of FieldValueInvalid, FieldValueForbidden, FieldValueRequired, FieldValueDuplicate.",
    tags=("cel", "crd"),
)


@reports(RULE, ValidationRuleFieldInvalid)
def message(finding: ValidationRuleFieldInvalid) -> str:
    return finding.message


@document_check(RULE, kind="CustomResourceDefinition")
def in_crd(ctx: DocumentContext) -> Iterator[Diagnostic]:
    from wmaplint.cel.crd import crd_findings

    return reported(ValidationRuleFieldInvalid, ctx.shared(crd_findings, ctx.path, ctx.document))
