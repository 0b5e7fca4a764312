"""Findings on a jq expression placed in the file: offsets into the expression's text become a span in the
YAML scalar it is written in, and a corrected expression the fix that writes it there.

Two things come here: what the expression checks say (``ExpressionDiagnostic``s), and the findings the
typing of the definition's paths found (``ExpressionFinding``s, ``DefinitionContext.typed_paths``), each
refined in the definition at hand where its rule asks to (``@reports(..., refine=)``), worded by the rule that
reports its kind (``@reports``) and placed by ``typed_path_diagnostics``, the one step that does it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from wmaplint.diagnostics import RULES, Diagnostic, RelatedLocation, Rule, Severity, fix
from wmaplint.findings import wording_of
from wmaplint.rules import REFINERS
from wmaplint.source.edits import replace_scalar

if TYPE_CHECKING:
    from wmaplint.definition.model import Expr
    from wmaplint.diagnostics import ExpressionDiagnostic
    from wmaplint.rules.context import DefinitionContext


def with_margins(replacement: str, original: str) -> str:
    """A whole-expression replacement with the whitespace around the original kept (analyses work on the
    stripped text; a block scalar's final line break is part of the value it reads as)."""
    if replacement != replacement.strip():
        return replacement
    stripped = original.strip()
    if not stripped:
        return replacement
    start = original.index(stripped)
    return original[:start] + replacement + original[start + len(stripped):]


def place(ctx: DefinitionContext, expr: Expr, finding: ExpressionDiagnostic) -> Diagnostic:
    """A Diagnostic for an expression check's finding, whose offsets are inside ``expr``'s text."""
    rule = RULES.get(finding.rule)
    severity = finding.severity
    if severity is None:
        severity = rule.severity if rule else Severity.ERROR
    return _placed(ctx, expr, finding.rule, severity, finding.message, finding.start, finding.end,
                   finding.replacement, finding.data, getattr(finding, "related", ()) or ())


def typed_path_diagnostics(ctx: DefinitionContext) -> Iterator[Diagnostic]:
    """The findings of the definition's typed paths, each worded by the rule that reports its kind, naming the
    schema source when several serve the kind, with where the schema declares what the finding is about."""
    for path in ctx.typed_paths:
        refine = REFINERS.get(type(path.finding))
        finding = refine(ctx, path) if refine is not None else path.finding
        found = wording_of(finding) if finding is not None else None
        if found is None:
            continue
        rule, word = found
        message = word(finding)
        if not isinstance(message, str):  # an expression finding is worded as a message, placed here
            continue
        if path.against:
            message = f"{message} [against {path.against}]"
        yield _finding_placed(ctx, path.expr, rule, message, finding, path.related)


def _finding_placed(ctx: DefinitionContext, expr: Expr, rule: Rule, message: str, finding: Any,
                 related: Iterable[RelatedLocation]) -> Diagnostic:
    return _placed(ctx, expr, rule.id, rule.severity, message, finding.start, finding.end,
                   getattr(finding, "replacement", None), getattr(finding, "data", None), related)


def _placed(ctx: DefinitionContext, expr: Expr, rule: str, severity: Severity, message: str, start: int,
            end: int, replacement: str | None, data: dict[str, Any] | None,
            related: Iterable[RelatedLocation]) -> Diagnostic:
    fixes = []
    if replacement is not None and replacement != expr.text:
        edit = replace_scalar(expr.node, with_margins(replacement, expr.text))
        fixes = fix(f"replace with {replacement}", edit)
    return ctx.diag(rule, expr.node.span_of(start, end), message, severity=severity, fixes=fixes, data=data,
                    related=tuple(related))
