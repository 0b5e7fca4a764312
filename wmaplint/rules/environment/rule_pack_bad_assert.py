"""WM922 rule-pack-bad-assert: a pack rule's assert or messageExpression does not compile or type-check."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from wmaplint.diagnostics import Diagnostic, define
from wmaplint.packs.problems import BadAssert
from wmaplint.rules import document_check, reported, reports
from wmaplint.rules.examples import PACK, pack_with

if TYPE_CHECKING:
    from wmaplint.rules.context import DocumentContext

RULE = define(
    "WM922",
    "rule-pack-bad-assert",
    "error",
    "A pack rule's `assert` (or messageExpression) does not compile or type-check against the definition "
    "format.",
    why="The expression is checked with the CEL type of the node `given` selects, so a misspelled field is "
    "caught when the pack loads rather than failing, or passing, on every definition.",
    bad=pack_with("has(self.statusDefinition)", "has(self.statusDefinitoin)"),
    good=PACK,
    fix="Use the field names of the selected node; `self` is that node and `root` the whole definition.",
    tags=("rule-pack",),
    example_filename="pack.yaml",
)


@reports(RULE, BadAssert)
def message(finding: BadAssert) -> str:
    if finding.problem is None:
        return f"{finding.rule_id}: {finding.field} could not be compiled"
    return f"{finding.rule_id}: {finding.field} does not compile: {finding.problem}"


@document_check(RULE, kind="RulePack")
def in_pack(ctx: DocumentContext) -> Iterator[Diagnostic]:
    from wmaplint.packs.loader import load_pack_text

    return reported(BadAssert, ctx.shared(load_pack_text, ctx.source.text, ctx.path).problems)
