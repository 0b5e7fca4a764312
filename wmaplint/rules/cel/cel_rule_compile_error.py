"""WM601 cel-rule-compile-error: a CRD validation rule does not compile or type-check against its schema."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from wmaplint.cel.issues import ValidationRuleCompileError
from wmaplint.diagnostics import Diagnostic, define
from wmaplint.rules import document_check, reported, reports
from wmaplint.rules.examples import crd_with

if TYPE_CHECKING:
    from wmaplint.rules.context import DocumentContext

RULE = define(
    "WM601",
    "cel-rule-compile-error",
    "error",
    "A CRD validation rule does not compile or type-check against its schema.",
    why="The API server rejects the CRD (or, for rules already stored, fails every object with 'rule compile "
    "error'). Typical causes: a misspelled or missing field, comparing an integer with a string, calling a "
    "string function on a number.",
    bad=crd_with("            - rule: self.minReplica <= self.replicas\n"),
    good=crd_with("            - rule: self.minReplicas <= self.replicas\n"),
    fix="Use the property names and types the schema declares; escaped names (x__dash__y) for odd "
    "characters.",
    tags=("cel", "crd"),
)


@reports(RULE, ValidationRuleCompileError)
def message(finding: ValidationRuleCompileError) -> str:
    return finding.message


@document_check(RULE, kind="CustomResourceDefinition")
def in_crd(ctx: DocumentContext) -> Iterator[Diagnostic]:
    from wmaplint.cel.crd import crd_findings

    return reported(ValidationRuleCompileError, ctx.shared(crd_findings, ctx.path, ctx.document))
