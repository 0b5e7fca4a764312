"""WM223 jq-first-output-only: a status expression or phase path yields several outputs; the first is used."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from wmaplint.diagnostics import ExpressionDiagnostic, define
from wmaplint.jq.names import resolve
from wmaplint.jq.streams import leak_description, leak_span, output_leaks
from wmaplint.rules import expression_check
from wmaplint.rules.examples import job_with

if TYPE_CHECKING:
    from wmaplint.jq.ast import Node
    from wmaplint.jq.roles import ExprRole

RULE = define(
    "WM223",
    "jq-first-output-only",
    "warning",
    "A status expression or phase path can yield several outputs, but only the first one is used.",
    why="byExpression and the phase path use the first output and silently ignore the rest (upstream #298), "
    "so `.status.replicas[].ready` only looks at the first replica. `first(f)`, `limit(1; f)` and "
    "`label $l | ... | ., break $l` yield at most one output and are not reported.",
    bad=job_with("'(.status.active // 0) > 0'", "'.status.conditions[].status == \"True\"'"),
    good=job_with("'(.status.active // 0) > 0'", "'any(.status.conditions[]?; .status == \"True\")'"),
    fix="Combine the outputs: `any(...)`, `all(...)`, `[...] | length`, or `first(...)` if the "
    "first is meant.",
    tags=("jq", "cardinality"),
)


@expression_check(RULE, lambda role: role.cardinality == "first")
def first_output_only(text: str, tree: Node, role: ExprRole) -> Iterator[ExpressionDiagnostic]:
    leaks = output_leaks(tree, resolve(tree).definition_of)
    if leaks:
        message = (
            f"{leak_description(leaks[0], text)} can yield several outputs; `{role.field}` uses only the "
            "first and ignores the rest (combine them with `any(...)`, `all(...)` or `first(...)`)"
        )
        yield ExpressionDiagnostic(RULE.id, message, *leak_span(leaks[0]))
