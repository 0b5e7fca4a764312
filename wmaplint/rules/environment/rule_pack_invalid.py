"""WM920 rule-pack-invalid: a rule pack file cannot be used."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from wmaplint.diagnostics import Diagnostic, define
from wmaplint.packs.problems import PackInvalid
from wmaplint.rules import document_check, reported, reports
from wmaplint.rules.examples import PACK, pack_with

if TYPE_CHECKING:
    from wmaplint.rules.context import DocumentContext

RULE = define(
    "WM920",
    "rule-pack-invalid",
    "error",
    "A rule pack file cannot be used: unreadable, not YAML, or not in the rule pack format.",
    why="A broken pack would silently check nothing; its rules only run once the file is a valid RulePack "
    "(schemas/rulepack.schema.json).",
    bad=pack_with("    severity: warning\n", "    severity: loud\n"),
    good=PACK,
    fix="Correct the field named in the message; every rule needs id, severity, message, docs, given and "
    "assert.",
    tags=("rule-pack",),
    example_filename="pack.yaml",
)


@reports(RULE, PackInvalid)
def message(finding: PackInvalid) -> str:
    return finding.problem


@document_check(RULE, kind="RulePack")
def in_pack(ctx: DocumentContext) -> Iterator[Diagnostic]:
    from wmaplint.packs.loader import load_pack_text

    return reported(PackInvalid, ctx.shared(load_pack_text, ctx.source.text, ctx.path).problems)
