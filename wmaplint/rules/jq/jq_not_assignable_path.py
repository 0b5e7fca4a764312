"""WM230 jq-not-assignable-path: a spec or suspend path is not a path expression; writes through it fail."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from wmaplint.diagnostics import ExpressionDiagnostic, define
from wmaplint.jq.assignability import non_path
from wmaplint.jq.names import resolve
from wmaplint.rules import expression_check
from wmaplint.rules.examples import JOB, job_with

if TYPE_CHECKING:
    from wmaplint.jq.ast import Node
    from wmaplint.jq.roles import ExprRole

RULE = define(
    "WM230",
    "jq-not-assignable-path",
    "error",
    "A spec or suspend path is not a path expression, so writes through it fail.",
    why="The runtime also writes pod templates and suspend flags through these paths with gojq path "
    "assignment (FORMAT.md §2.3); constructed values, literals, arithmetic and variable-rooted paths fail "
    "when the write happens, with gojq's `invalid path against: ...` (GOJQ.md §3.7; C jq says "
    "`Invalid path expression`).",
    bad=job_with(
        "{podTemplateSpecPath: .spec.template}", "{podTemplateSpecPath: '.spec as $s | $s.template'}"
    ),
    good=JOB,
    fix="Navigate from `.` (`.spec.template`); filter with `select(...)` rather than binding a variable.",
    tags=("jq", "paths"),
)


@expression_check(RULE, lambda role: role.writable)
def not_assignable(text: str, tree: Node, role: ExprRole) -> Iterator[ExpressionDiagnostic]:
    problem = non_path(tree, resolve(tree))
    if problem is not None:
        node, reason = problem
        message = (
            f"not a path expression: {reason}; writes through `{role.field}` fail (gojq: invalid path "
            "against ..., jq: Invalid path expression)"
        )
        yield ExpressionDiagnostic(RULE.id, message, node.start, node.end)
