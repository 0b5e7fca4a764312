"""WM204 jq-undefined-label: `break $name` has no enclosing `label $name`."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from wmaplint.diagnostics import ExpressionDiagnostic, define
from wmaplint.jq.names import resolve
from wmaplint.rules import expression_check
from wmaplint.rules.examples import job_with

if TYPE_CHECKING:
    from wmaplint.jq.ast import Node
    from wmaplint.jq.roles import ExprRole

RULE = define(
    "WM204",
    "jq-undefined-label",
    "error",
    "`break $name` has no enclosing `label $name`.",
    why="gojq resolves labels when it compiles, so the expression fails with `label not defined`.",
    bad=job_with("'(.status.active // 0) > 0'",
                 "'first(.status.active // 0 | if . > 0 then true, break $out else false end)'"),
    good=job_with("'(.status.active // 0) > 0'",
                  "'label $out | (.status.active // 0 | if . > 0 then true, break $out else false end)'"),
    fix="Add `label $name |` around the expression that breaks, or use `first(...)`.",
    tags=("jq",),
)


@expression_check(RULE)
def undefined_labels(text: str, tree: Node, role: ExprRole) -> Iterator[ExpressionDiagnostic]:
    for node in resolve(tree).unbound_breaks:
        message = (
            f"`break ${node.name}` has no enclosing `label ${node.name}` (gojq: label not defined: "
            f"${node.name})"
        )
        yield ExpressionDiagnostic(RULE.id, message, node.start, node.end)
