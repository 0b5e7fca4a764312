"""CRD documents given to `check` are linted too: their CEL validation rules are type-checked in place."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from wmaplint.diagnostics import RULES, Diagnostic, Severity
from wmaplint.source import Document, ScalarNode, SourceFile, find_node, to_python


def lint_crd_document(source: SourceFile, document: Document, options: Any,
                      config: Any) -> Iterator[Diagnostic]:
    from wmaplint.cel.crd import check_crd

    for issue in check_crd(to_python(document.root)):
        node = find_node(document.root, issue.pointer)
        if isinstance(node, ScalarNode) and issue.offset is not None:
            span = node.span_of(issue.offset, issue.offset + 1)
        elif node is not None:
            span = node.span
        else:
            root = document.root.span  # type: ignore[union-attr]
            span = type(root)(root.start_line, root.start_col, root.start_line, root.start_col + 1)
        rule = RULES.get(issue.rule)
        severity = issue.severity or (rule.severity if rule else Severity.ERROR)
        yield Diagnostic(issue.rule, severity, _one_line(issue.message), source.path, span,
                         data={"expression": issue.expression} if issue.expression else None)


def _one_line(message: str) -> str:
    """cel-go style messages carry the expression and a caret on extra lines; the span already shows them."""
    first = message.splitlines()[0] if message else message
    marker = first.rfind("<input>:")
    if marker >= 0:
        rest = first[marker:].split(": ", 1)
        if len(rest) == 2 and "ERROR:" in first:
            first = first[:first.find("ERROR:")].strip() + " " + rest[1]
    return first.strip()
