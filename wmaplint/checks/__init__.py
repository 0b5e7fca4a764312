"""Built-in checks. A check is a function from a Context to diagnostics, registered with ``@check``.

Checks never parse, load files or print: the engine gives them the positioned document and its model.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from wmaplint.definition.model import Definition
from wmaplint.diagnostics import RULES, Diagnostic, Fix, RelatedLocation, Rule, Severity, Span, TextEdit
from wmaplint.source import Document, Node, SourceFile
from wmaplint.structs import dataclass, field

CheckFn = Callable[["Context"], Iterable[Diagnostic]]
CHECKS: list[CheckFn] = []

# Modules whose import registers their checks, in report order.
CHECK_MODULES = (
    "wmaplint.checks.format",
    "wmaplint.checks.components",
    "wmaplint.checks.status",
    "wmaplint.checks.status_semantics",
    "wmaplint.checks.expressions",
    "wmaplint.checks.schema_paths",
    "wmaplint.checks.cel_rules",
    "wmaplint.rulepacks",
)


def check(fn: CheckFn) -> CheckFn:
    CHECKS.append(fn)
    return fn


def load_checks() -> list[CheckFn]:
    for name in CHECK_MODULES:
        importlib.import_module(name)
    return CHECKS


@dataclass
class Context:
    path: str
    source: SourceFile
    document: Document
    definition: Definition
    options: Any = None  # engine options (schema store, strict, ...), read by checks that need them
    cache: dict[str, Any] = field(default_factory=dict)

    def diag(
        self,
        rule: Rule | str,
        where: Node | Span | None,
        message: str,
        *,
        severity: Severity | None = None,
        related: Iterable[RelatedLocation] = (),
        fixes: Iterable[Fix] = (),
        data: dict[str, Any] | None = None,
    ) -> Diagnostic:
        rule_id = rule if isinstance(rule, str) else rule.id
        if where is None:
            span = self.definition.document_node.span
            span = Span(span.start_line, span.start_col, span.start_line, span.start_col + 1)
        elif isinstance(where, Span):
            span = where
        else:
            span = where.span
        return Diagnostic(
            rule=rule_id,
            severity=severity if severity is not None else RULES[rule_id].severity,
            message=message,
            path=self.path,
            span=span,
            related=tuple(related),
            fixes=tuple(fixes),
            data=data,
        )

    def here(self, node: Node, message: str) -> RelatedLocation:
        return RelatedLocation(self.path, node.span, message)


TITLE_LENGTH = 80


def fix(title: str, *edits: TextEdit | None) -> list[Fix]:
    """The fixes list of a finding: one fix when every edit could be made safely (``wmaplint.source.edits``
    gives None otherwise), none else. Titles are one line (an editor shows them in a menu)."""
    if not edits or any(edit is None for edit in edits):
        return []
    title = " ".join(title.split())
    if len(title) > TITLE_LENGTH:
        title = title[:TITLE_LENGTH - 1] + "\u2026"
    return [Fix(title, tuple(e for e in edits if e is not None))]


def run_checks(ctx: Context) -> Iterator[Diagnostic]:
    for fn in load_checks():
        yield from fn(ctx)
