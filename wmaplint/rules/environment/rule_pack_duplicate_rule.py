"""WM923 rule-pack-duplicate-rule: two pack rules share one id."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from wmaplint.diagnostics import Diagnostic, define
from wmaplint.packs.problems import DuplicateRuleId
from wmaplint.rules import document_check, reported, reports
from wmaplint.rules.examples import PACK

if TYPE_CHECKING:
    from wmaplint.rules.context import DocumentContext

RULE = define(
    "WM923",
    "rule-pack-duplicate-rule",
    "error",
    "Two pack rules share one id (in one pack, or across the packs in use).",
    why="Configuration, suppressions and reports address rules by id; two rules under one id cannot be told "
    "apart.",
    bad=PACK + PACK.split("rules:\n", 1)[1],
    good=PACK,
    fix="Give each rule its own id; to replace a shipped rule, ignore its id and add yours.",
    tags=("rule-pack",),
    example_filename="pack.yaml",
)


@reports(RULE, DuplicateRuleId)
def message(finding: DuplicateRuleId) -> str:
    if finding.owner is not None:
        return f"rule id {finding.rule_id} is already defined by {finding.owner}; this rule is not used"
    return f"rule id {finding.rule_id} is used twice in this pack (first at line {finding.first_line})"


@document_check(RULE, kind="RulePack")
def in_pack(ctx: DocumentContext) -> Iterator[Diagnostic]:
    from wmaplint.packs.loader import load_pack_text

    return reported(DuplicateRuleId, ctx.shared(load_pack_text, ctx.source.text, ctx.path).problems)
