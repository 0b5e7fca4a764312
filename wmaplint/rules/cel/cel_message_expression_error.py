"""WM602 cel-message-expression-error: a messageExpression does not compile or does not yield a string."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from wmaplint.cel.issues import MessageExpressionError
from wmaplint.diagnostics import Diagnostic, define
from wmaplint.rules import document_check, reported, reports
from wmaplint.rules.examples import crd_with

if TYPE_CHECKING:
    from wmaplint.rules.context import DocumentContext

RULE = define(
    "WM602",
    "cel-message-expression-error",
    "error",
    "A validation rule's messageExpression does not compile or does not yield a string.",
    why="The API server rejects the CRD; a messageExpression must be a CEL expression of type string over "
    "the same variables as the rule.",
    bad=crd_with(
        "            - rule: self.minReplicas <= self.replicas\n"
        "              messageExpression: self.minReplicas\n"
    ),
    good=crd_with(
        "            - rule: self.minReplicas <= self.replicas\n"
        "              messageExpression: \"'minReplicas ' + string(self.minReplicas) + ' is too large'\"\n"
    ),
    fix="Return a string, e.g. with string(...) conversions and '+'.",
    tags=("cel", "crd"),
)


@reports(RULE, MessageExpressionError)
def message(finding: MessageExpressionError) -> str:
    return finding.message


@document_check(RULE, kind="CustomResourceDefinition")
def in_crd(ctx: DocumentContext) -> Iterator[Diagnostic]:
    from wmaplint.cel.crd import crd_findings

    return reported(MessageExpressionError, ctx.shared(crd_findings, ctx.path, ctx.document))
