"""Findings on a jq expression placed in the file: offsets into the expression's text become a span in the
YAML scalar it is written in, and a corrected expression the fix that writes it there."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from wmaplint.checks import fix
from wmaplint.diagnostics import RULES, Diagnostic, Severity
from wmaplint.source.edits import replace_scalar

if TYPE_CHECKING:
    from wmaplint.definition.model import Expr
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


def place(ctx: DefinitionContext, expr: Expr, finding: Any, *, source: str | None = None) -> Diagnostic:
    """A Diagnostic for a finding whose offsets are inside ``expr``'s text (a ``JqFinding``, or any object
    with its attributes, ``related`` besides); ``source`` is added to the message in brackets."""
    rule = RULES.get(finding.rule)
    severity = finding.severity
    if severity is None:
        severity = rule.severity if rule else Severity.ERROR
    fixes = []
    replacement = getattr(finding, "replacement", None)
    if replacement is not None and replacement != expr.text:
        edit = replace_scalar(expr.node, with_margins(replacement, expr.text))
        fixes = fix(f"replace with {replacement}", edit)
    message = finding.message if source is None else f"{finding.message} [{source}]"
    related = tuple(getattr(finding, "related", ()) or ())
    return ctx.diag(finding.rule, expr.node.span_of(finding.start, finding.end), message, severity=severity,
                    fixes=fixes, data=getattr(finding, "data", None), related=related)
