"""WM603 cel-cost-exceeded: a validation rule's estimated cost exceeds the API server's limit."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from wmaplint.cel.issues import ValidationCostExceeded
from wmaplint.diagnostics import Diagnostic, define
from wmaplint.rules import document_check, reported, reports
from wmaplint.rules.examples import crd_with

if TYPE_CHECKING:
    from wmaplint.rules.context import DocumentContext

RULE = define(
    "WM603",
    "cel-cost-exceeded",
    "error",
    "A validation rule's estimated cost exceeds the API server's limit.",
    why="At CRD write time the API server estimates each rule's worst-case cost times how often it can run "
    "(cardinality from maxItems/maxProperties) and rejects rules above 10,000,000, and schemas whose total "
    "exceeds 100,000,000.",
    bad=crd_with(
        "            - rule: self.names.all(a, self.names.all(b, a == b || a != b))\n",
        "              names: {type: array, items: {type: string}}\n",
    ),
    good=crd_with(
        "            - rule: self.names.all(a, self.names.all(b, a == b || a != b))\n",
        "              names: {type: array, maxItems: 16, items: {type: string, maxLength: 63}}\n",
    ),
    fix="Add maxItems, maxProperties and maxLength where lists, maps and strings are declared, or simplify.",
    tags=("cel", "crd", "cost"),
)


@reports(RULE, ValidationCostExceeded)
def message(finding: ValidationCostExceeded) -> str:
    return finding.message


@document_check(RULE, kind="CustomResourceDefinition")
def in_crd(ctx: DocumentContext) -> Iterator[Diagnostic]:
    from wmaplint.cel.crd import crd_findings

    return reported(ValidationCostExceeded, ctx.shared(crd_findings, ctx.path, ctx.document))
