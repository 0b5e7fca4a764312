"""WM921 rule-pack-bad-given: a pack rule's given is not a JSONPath or names no field of the format."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from wmaplint.diagnostics import Diagnostic, define
from wmaplint.packs.problems import BadGiven
from wmaplint.rules import document_check, reported, reports
from wmaplint.rules.examples import PACK, pack_with

if TYPE_CHECKING:
    from wmaplint.rules.context import DocumentContext

RULE = define(
    "WM921",
    "rule-pack-bad-given",
    "error",
    "A pack rule's `given` is not an RFC 9535 JSONPath, or names a field the definition format does not "
    "have.",
    why="A query with a typo selects nothing, so the rule would pass on every definition without checking "
    "anything.",
    bad=pack_with("rootComponent\n", "rootComponnet\n"),
    good=PACK,
    fix="Spell the path as in the definition format (schemas/definition.schema.json); lists need [*] or [n].",
    tags=("rule-pack",),
    example_filename="pack.yaml",
)


@reports(RULE, BadGiven)
def message(finding: BadGiven) -> str:
    if not finding.parsed:
        return f"{finding.rule_id}: given is not an RFC 9535 JSONPath: {finding.problem}"
    return f"{finding.rule_id}: given {finding.given!r}: {finding.problem}"


@document_check(RULE, kind="RulePack")
def in_pack(ctx: DocumentContext) -> Iterator[Diagnostic]:
    from wmaplint.packs.loader import load_pack_text

    return reported(BadGiven, ctx.shared(load_pack_text, ctx.source.text, ctx.path).problems)
